// Unit tests of the real-tag encoding of messages between processes
// (runtime/src/comm/tag_encoding.h, used by comm/transport.cc): the split of
// the tag space for a layout, its refusal of layouts whose subrank indices
// leave program tags fewer than 15 bits, and encode/decode round trips at
// the limits (the largest tag, context, local index, the sync bit).
#include <gtest/gtest.h>

#include <climits>
#include <set>
#include <string>
#include <vector>

#include "comm/tag_encoding.h"

namespace {

using tucana::comm::decode_tag;
using tucana::comm::encode_tag;
using tucana::comm::kMaxContextBits;
using tucana::comm::kMinUserTagBits;
using tucana::comm::plan_tags;
using tucana::comm::real_tag_bits_for;
using tucana::comm::subrank_bits_for;
using tucana::comm::TagFields;
using tucana::comm::TagFormat;
using tucana::comm::TagPlan;

constexpr long kOpenMpiTagUb = INT_MAX;  // Open MPI's and MPICH's usual MPI_TAG_UB

void expect_fields(const TagFields& got, const TagFields& want) {
  EXPECT_EQ(got.user_tag, want.user_tag);
  EXPECT_EQ(got.context, want.context);
  EXPECT_EQ(got.sync, want.sync);
  EXPECT_EQ(got.src_local, want.src_local);
  EXPECT_EQ(got.dst_local, want.dst_local);
}

TEST(TagEncodingTest, RealTagBitsAreTheBitsBelowMpiTagUb) {
  EXPECT_EQ(real_tag_bits_for(0), 0);
  EXPECT_EQ(real_tag_bits_for(1), 1);
  EXPECT_EQ(real_tag_bits_for(32766), 14);  // 2^15 - 1 would exceed it
  EXPECT_EQ(real_tag_bits_for(32767), 15);
  EXPECT_EQ(real_tag_bits_for(65535), 16);
  EXPECT_EQ(real_tag_bits_for((1L << 24) - 1), 24);
  EXPECT_EQ(real_tag_bits_for(INT_MAX), 31);
  EXPECT_EQ(real_tag_bits_for(1L << 40), 31);  // never more than an int holds
}

TEST(TagEncodingTest, SubrankBitsHoldEveryLocalIndex) {
  EXPECT_EQ(subrank_bits_for(1), 0);  // index 0 needs no bit
  EXPECT_EQ(subrank_bits_for(2), 1);
  EXPECT_EQ(subrank_bits_for(3), 2);
  EXPECT_EQ(subrank_bits_for(4), 2);
  EXPECT_EQ(subrank_bits_for(5), 3);
  EXPECT_EQ(subrank_bits_for(128), 7);
  EXPECT_EQ(subrank_bits_for(129), 8);
  for (int n = 1; n <= 1000; ++n) {
    const int b = subrank_bits_for(n);
    EXPECT_LE(n - 1, (1 << b) - 1) << n;  // the largest index fits
    if (b > 0) {
      EXPECT_GT(n - 1, (1 << (b - 1)) - 1) << n;  // and no fewer bits would do
    }
  }
}

// With Open MPI's MPI_TAG_UB (2^31 - 1): 31 bits.
TEST(TagEncodingTest, PlanWithA31BitTagUb) {
  TagPlan p;
  std::string error;
  ASSERT_TRUE(plan_tags(kOpenMpiTagUb, 1, true, &p, &error)) << error;
  EXPECT_EQ(p.real_tag_bits, 31);
  EXPECT_EQ(p.format.subrank_bits, 0);
  EXPECT_EQ(p.format.context_bits, kMaxContextBits);  // 30 shared bits: 8 for contexts
  EXPECT_EQ(p.user_tag_bits, 22);
  EXPECT_EQ(p.user_tag_ub, (1 << 22) - 1);

  ASSERT_TRUE(plan_tags(kOpenMpiTagUb, 16, true, &p, &error)) << error;  // e.g. -np 2 --workers 2 --vf 8
  EXPECT_EQ(p.format.subrank_bits, 4);
  EXPECT_EQ(p.format.context_bits, 7);  // 22 shared: 15 for tags, 7 for contexts
  EXPECT_EQ(p.user_tag_bits, 15);
  EXPECT_EQ(p.user_tag_ub, 32767);

  // The most subranks per process: 7 bits each, one context bit, 15 tag bits.
  ASSERT_TRUE(plan_tags(kOpenMpiTagUb, 128, true, &p, &error)) << error;
  EXPECT_EQ(p.format.subrank_bits, 7);
  EXPECT_EQ(p.format.context_bits, 1);
  EXPECT_EQ(p.user_tag_ub, 32767);
}

TEST(TagEncodingTest, TooManySubranksPerProcessAreRefusedNamingTheLimit) {
  TagPlan p;
  p.user_tag_ub = -5;  // untouched on failure
  std::string error;
  EXPECT_FALSE(plan_tags(kOpenMpiTagUb, 129, true, &p, &error));
  EXPECT_EQ(p.user_tag_ub, -5);
  EXPECT_EQ(error,
            "too many subranks per process for the tag space: 129 subranks per process need 8 tag bits each for "
            "source and destination, and the MPI library's MPI_TAG_UB (2147483647, 31 bits), less 1 for "
            "communicator ids, leaves 13 bits for program tags, fewer than the 15 that MPI guarantees "
            "(MPI_TAG_UB >= 32767); use fewer subranks per process (more processes, or a smaller --vf)");
  // Far too many: the count of tag bits left is never negative.
  error.clear();
  EXPECT_FALSE(plan_tags(kOpenMpiTagUb, 1 << 16, true, &p, &error));
  EXPECT_NE(error.find("leaves 0 bits for program tags"), std::string::npos) << error;
  // An MPI library with only the guaranteed MPI_TAG_UB cannot carry any
  // subrank id beside 15 tag bits: refused even for one subrank per process.
  error.clear();
  EXPECT_FALSE(plan_tags(32767, 1, true, &p, &error));
  EXPECT_NE(error.find("MPI_TAG_UB (32767, 15 bits)"), std::string::npos) << error;
}

// One process: nothing travels, the whole int range is the program's.
TEST(TagEncodingTest, OneProcessAllowsEveryIntTag) {
  TagPlan p;
  std::string error;
  ASSERT_TRUE(plan_tags(32767, 1 << 16, false, &p, &error)) << error;
  EXPECT_EQ(p.user_tag_ub, INT_MAX);
  EXPECT_EQ(p.format.context_bits, kMaxContextBits);
  EXPECT_TRUE(error.empty());
}

// For several MPI_TAG_UBs and every process size up to 300 subranks: an
// accepted plan gives programs at least MPI's 32767, fits every field in
// the real tag (the largest of each encodes to at most MPI_TAG_UB, and not
// negative), and a refused one is refused because fewer than 15 bits were
// left.
TEST(TagEncodingTest, EveryAcceptedPlanFitsMpiTagUbAndKeeps15TagBits) {
  for (long tag_ub : {32767L, 65535L, (1L << 20) - 1, (1L << 24) - 1, (1L << 29) + 12345, kOpenMpiTagUb}) {
    for (int max_local = 1; max_local <= 300; ++max_local) {
      SCOPED_TRACE("MPI_TAG_UB " + std::to_string(tag_ub) + ", " + std::to_string(max_local) + " subranks");
      TagPlan p;
      std::string error;
      const bool ok = plan_tags(tag_ub, max_local, true, &p, &error);
      const int b = subrank_bits_for(max_local);
      const int left = real_tag_bits_for(tag_ub) - 2 * b - 1 - 1;  // less the sync bit and one context bit
      EXPECT_EQ(ok, left >= kMinUserTagBits);
      if (!ok) {
        EXPECT_NE(error.find("fewer than the 15 that MPI guarantees"), std::string::npos) << error;
        continue;
      }
      EXPECT_GE(p.user_tag_ub, 32767);
      EXPECT_GE(p.format.context_bits, 1);
      EXPECT_LE(p.format.context_bits, kMaxContextBits);
      EXPECT_LE(p.user_tag_bits + p.format.context_bits + 1 + 2 * p.format.subrank_bits, p.real_tag_bits);
      const TagFields largest{p.user_tag_ub, (1 << p.format.context_bits) - 1, true, max_local - 1, max_local - 1};
      const int real = encode_tag(p.format, largest);
      EXPECT_GE(real, 0);
      EXPECT_LE(real, tag_ub);
      expect_fields(decode_tag(p.format, real), largest);
    }
  }
}

// Each field at its limit with the others at zero (and the reverse) comes
// back alone: no field spills into its neighbour.
TEST(TagEncodingTest, RoundTripAtTheBitLimits) {
  for (const TagFormat f : {TagFormat{0, 8}, TagFormat{4, 7}, TagFormat{7, 1}, TagFormat{3, 4}}) {
    SCOPED_TRACE("B=" + std::to_string(f.subrank_bits) + " C=" + std::to_string(f.context_bits));
    const int user_bits = 31 - 2 * f.subrank_bits - 1 - f.context_bits;
    const int max_user = static_cast<int>((1L << (user_bits > 30 ? 30 : user_bits)) - 1);
    const int max_ctx = (1 << f.context_bits) - 1;
    const int max_local = (1 << f.subrank_bits) - 1;
    const std::vector<TagFields> cases = {
        {0, 0, false, 0, 0},
        {max_user, 0, false, 0, 0},
        {0, max_ctx, false, 0, 0},
        {0, 0, true, 0, 0},
        {0, 0, false, max_local, 0},
        {0, 0, false, 0, max_local},
        {max_user, max_ctx, true, max_local, max_local},
        {max_user, 0, true, 0, max_local},
        {0, max_ctx, false, max_local, 0},
        {12345, max_ctx / 2, true, max_local / 2, max_local},
    };
    for (const TagFields& t : cases) {
      const int real = encode_tag(f, t);
      EXPECT_GE(real, 0);
      expect_fields(decode_tag(f, real), t);
    }
    // The largest everything is the largest tag of the format, all ones.
    EXPECT_EQ(encode_tag(f, cases[6]), static_cast<int>((1L << (user_bits + f.context_bits + 1 + 2 * f.subrank_bits)) - 1));
  }
}

// Small widths, every combination: distinct fields give distinct tags.
TEST(TagEncodingTest, EncodingIsOneToOne) {
  const TagFormat f{2, 2};
  std::set<int> seen;
  int n = 0;
  for (int user = 0; user < 8; ++user)
    for (int ctx = 0; ctx < 4; ++ctx)
      for (int sync = 0; sync < 2; ++sync)
        for (int src = 0; src < 4; ++src)
          for (int dst = 0; dst < 4; ++dst) {
            const TagFields t{user, ctx, sync != 0, src, dst};
            const int real = encode_tag(f, t);
            seen.insert(real);
            ++n;
            expect_fields(decode_tag(f, real), t);
          }
  EXPECT_EQ(seen.size(), static_cast<std::size_t>(n));
  EXPECT_EQ(*seen.rbegin(), n - 1);  // dense: 3+2+1+2+2 = 10 bits
}

}  // namespace
