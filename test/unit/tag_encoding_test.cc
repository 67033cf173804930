// Unit tests of the real-tag encoding of messages between processes
// (runtime/src/comm/tag_encoding.h, used by comm/transport.cc): the split of
// the tag space for a layout, the switch to envelopes for layouts whose
// subrank indices would leave program tags fewer than 15 bits, the refusal of
// an MPI_TAG_UB too small even then, and encode/decode round trips of tags
// and envelopes at the limits (the largest tag, context, local index, id,
// length, the sync bit).
#include <gtest/gtest.h>

#include <climits>
#include <set>
#include <string>
#include <vector>

#include "comm/tag_encoding.h"

namespace {

using tucana::comm::decode_envelope;
using tucana::comm::decode_tag;
using tucana::comm::encode_envelope;
using tucana::comm::encode_tag;
using tucana::comm::Envelope;
using tucana::comm::kEnvelopeBytes;
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

  // The most subranks per process in the tag: 7 bits each, one context
  // bit, 15 tag bits.
  ASSERT_TRUE(plan_tags(kOpenMpiTagUb, 128, true, &p, &error)) << error;
  EXPECT_FALSE(p.envelope);
  EXPECT_EQ(p.format.subrank_bits, 7);
  EXPECT_EQ(p.format.context_bits, 1);
  EXPECT_EQ(p.user_tag_ub, 32767);
}

// One more and the indices travel in envelopes: the tag keeps only the
// program tag, the context and the sync bit, as for one subrank per process.
TEST(TagEncodingTest, BeyondTheTagTheIndicesTravelInEnvelopes) {
  for (int max_local : {129, 256, 4096, 1 << 16, INT_MAX}) {
    SCOPED_TRACE(max_local);
    TagPlan p;
    std::string error;
    ASSERT_TRUE(plan_tags(kOpenMpiTagUb, max_local, true, &p, &error)) << error;
    EXPECT_TRUE(p.envelope);
    EXPECT_EQ(p.format.subrank_bits, 0);
    EXPECT_EQ(p.format.context_bits, kMaxContextBits);
    EXPECT_EQ(p.user_tag_bits, 22);
    EXPECT_EQ(p.user_tag_ub, (1 << 22) - 1);
    EXPECT_TRUE(error.empty());
  }
  // With the fewest bits that still work (2^17 - 1): one context bit.
  TagPlan p;
  std::string error;
  ASSERT_TRUE(plan_tags((1L << 17) - 1, 2, true, &p, &error)) << error;
  EXPECT_TRUE(p.envelope);
  EXPECT_EQ(p.format.context_bits, 1);
  EXPECT_EQ(p.user_tag_ub, 32767);
  ASSERT_TRUE(plan_tags((1L << 17) - 1, 1, true, &p, &error)) << error;  // one subrank: no index at all
  EXPECT_FALSE(p.envelope);
}

// An MPI_TAG_UB below 2^17 - 1 cannot carry 15 program tag bits beside the
// sync bit and one context bit, whatever the subranks: refused, naming it.
TEST(TagEncodingTest, ASmallMpiTagUbIsRefusedNamingTheLimit) {
  TagPlan p;
  p.user_tag_ub = -5;  // untouched on failure
  std::string error;
  EXPECT_FALSE(plan_tags(32767, 1, true, &p, &error));
  EXPECT_EQ(p.user_tag_ub, -5);
  EXPECT_EQ(error,
            "the MPI library's MPI_TAG_UB (32767, 15 bits) is too small for messages between processes: Tucana "
            "needs 15 bits for program tags (MPI guarantees MPI_TAG_UB >= 32767), 1 for synchronous sends and at "
            "least 1 for communicator ids, MPI_TAG_UB >= 131071; use an MPI library with a larger MPI_TAG_UB, or "
            "run as one process (-np 1)");
  error.clear();
  EXPECT_FALSE(plan_tags((1L << 17) - 2, 4096, true, &p, &error));
  EXPECT_NE(error.find("MPI_TAG_UB (131070, 16 bits)"), std::string::npos) << error;
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
// negative), uses envelopes exactly when the indices leave fewer than 15
// bits, and a refused one is refused because even without indices fewer
// than 15 bits were left.
TEST(TagEncodingTest, EveryAcceptedPlanFitsMpiTagUbAndKeeps15TagBits) {
  for (long tag_ub : {32767L, 65535L, (1L << 20) - 1, (1L << 24) - 1, (1L << 29) + 12345, kOpenMpiTagUb}) {
    for (int max_local = 1; max_local <= 300; ++max_local) {
      SCOPED_TRACE("MPI_TAG_UB " + std::to_string(tag_ub) + ", " + std::to_string(max_local) + " subranks");
      TagPlan p;
      std::string error;
      const bool ok = plan_tags(tag_ub, max_local, true, &p, &error);
      const int b = subrank_bits_for(max_local);
      const int left = real_tag_bits_for(tag_ub) - 2 * b - 1 - 1;  // less the sync bit and one context bit
      const int left_without_indices = real_tag_bits_for(tag_ub) - 1 - 1;
      EXPECT_EQ(ok, left_without_indices >= kMinUserTagBits);
      if (!ok) {
        EXPECT_NE(error.find("is too small for messages between processes"), std::string::npos) << error;
        continue;
      }
      EXPECT_EQ(p.envelope, left < kMinUserTagBits);
      const int in_tag = p.envelope ? 0 : max_local - 1;  // the largest index the tag holds
      EXPECT_GE(p.user_tag_ub, 32767);
      EXPECT_GE(p.format.context_bits, 1);
      EXPECT_LE(p.format.context_bits, kMaxContextBits);
      EXPECT_LE(p.user_tag_bits + p.format.context_bits + 1 + 2 * p.format.subrank_bits, p.real_tag_bits);
      const TagFields largest{p.user_tag_ub, (1 << p.format.context_bits) - 1, true, in_tag, in_tag};
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

// Envelopes: every field at its limit comes back, alone or together, and
// the encoding writes exactly kEnvelopeBytes.
TEST(TagEncodingTest, EnvelopeRoundTripAtTheLimits) {
  const long long max_bytes = INT_MAX;  // one message's limit
  const std::vector<Envelope> cases = {
      {0, 0, 0, false, 0},
      {INT_MAX, 0, 0, false, 0},
      {0, INT_MAX, 0, false, 0},
      {0, 0, INT_MAX, false, 0},  // ids go up to 2^31 - 1 with 31-bit tags
      {0, 0, 0, true, 0},
      {0, 0, 0, true, static_cast<std::uint64_t>(max_bytes)},
      {4095, 4095, 123456, true, 16385},
      {INT_MAX, INT_MAX, INT_MAX, true, ~std::uint64_t{0}},
  };
  for (const Envelope& e : cases) {
    unsigned char wire[kEnvelopeBytes + 2];
    wire[kEnvelopeBytes] = 0xA5;  // a guard byte after it
    encode_envelope(e, wire);
    EXPECT_EQ(wire[kEnvelopeBytes], 0xA5);
    const Envelope got = decode_envelope(wire);
    EXPECT_EQ(got.src_local, e.src_local);
    EXPECT_EQ(got.dst_local, e.dst_local);
    EXPECT_EQ(got.id, e.id);
    EXPECT_EQ(got.separate, e.separate);
    EXPECT_EQ(got.bytes, e.bytes);
  }
  // Read from wherever it ends a message (a trailer need not be aligned).
  unsigned char message[5 + kEnvelopeBytes];
  const Envelope e{17, 4000, 99, false, 5};
  encode_envelope(e, message + 5);
  EXPECT_EQ(decode_envelope(message + 5).dst_local, 4000);
}

}  // namespace
