// The real MPI tag of a message between processes (comm/transport.h): how
// the program's tag, the low bits of the context id, the synchronous bit and
// the local indices of the two subranks share it, and how the tag space is
// split at start-up. Pure functions, no MPI: Transport uses them, and the
// unit tests check them at their limits (test/unit/tag_encoding_test.cc).
#pragma once

#include <climits>
#include <string>

namespace tucana::comm {

// The smallest number of program tag bits Tucana accepts: MPI guarantees
// programs MPI_TAG_UB >= 32767.
constexpr int kMinUserTagBits = 15;
// At most this many bits of the real tag hold the context id.
constexpr int kMaxContextBits = 8;
// Program tags never get more bits than this (the user tag times 2^(the
// other fields) must stay an int).
constexpr int kMaxUserTagBits = 30;

// The widths of the fields of a real tag, from the top:
//   user tag | context (C bits) | sync (1 bit) | source local index (B) | destination local index (B)
struct TagFormat {
  int subrank_bits = 0;  // B
  int context_bits = 1;  // C
};

// What a real tag carries.
struct TagFields {
  int user_tag = 0;   // 0 .. user_tag_ub
  int context = 0;    // the context id's low C bits
  bool sync = false;  // an MPI_Ssend: the receiver acknowledges the match
  int src_local = 0;  // local index of the sending subrank in its process
  int dst_local = 0;  // local index of the receiving subrank in its process
};

// The split of the tag space for one layout.
struct TagPlan {
  int real_tag_bits = 0;  // the real MPI_TAG_UB's bits: 2^bits - 1 <= MPI_TAG_UB
  TagFormat format;
  int user_tag_bits = 0;  // bits left for program tags
  int user_tag_ub = 0;    // the largest program tag (MPI_TAG_UB of the virtual MPI)
};

// The number of low bits b (at most 31) such that every value below 2^b is
// a valid tag: 2^b - 1 <= tag_ub.
inline int real_tag_bits_for(long tag_ub) {
  int bits = 0;
  while (bits < 31 && (1L << (bits + 1)) - 1 <= tag_ub) ++bits;
  return bits;
}

// The bits that hold any local index below max_local (0 for one subrank).
inline int subrank_bits_for(int max_local) {
  int bits = 0;
  while ((1L << bits) < max_local) ++bits;
  return bits;
}

// Splits the tag space of an MPI library whose MPI_TAG_UB is `tag_ub` for
// processes of at most `max_local` subranks. With `remote` (more than one
// process) program tags and context ids share what the two subrank indices
// and the sync bit leave: program tags keep at least kMinUserTagBits, the
// context gets what is left, from 1 up to kMaxContextBits bits; when fewer
// than kMinUserTagBits remain it returns false with `error` naming the
// limit. Without `remote` nothing travels: every program tag up to INT_MAX
// is allowed.
inline bool plan_tags(long tag_ub, int max_local, bool remote, TagPlan* out, std::string* error) {
  TagPlan p;
  p.real_tag_bits = real_tag_bits_for(tag_ub);
  p.format.subrank_bits = subrank_bits_for(max_local);
  // One context bit is the least (MPI_COMM_WORLD has two contexts).
  const int shared = p.real_tag_bits - 2 * p.format.subrank_bits - 1;
  int context_bits = shared - kMinUserTagBits;
  if (context_bits > kMaxContextBits) context_bits = kMaxContextBits;
  if (context_bits < 1) context_bits = 1;
  p.format.context_bits = context_bits;
  p.user_tag_bits = shared - context_bits;
  if (p.user_tag_bits > kMaxUserTagBits) p.user_tag_bits = kMaxUserTagBits;
  if (remote && p.user_tag_bits < kMinUserTagBits) {
    *error = "too many subranks per process for the tag space: " + std::to_string(max_local) +
             " subranks per process need " + std::to_string(p.format.subrank_bits) +
             " tag bits each for source and destination, and the MPI library's MPI_TAG_UB (" +
             std::to_string(tag_ub) + ", " + std::to_string(p.real_tag_bits) + " bits), less " +
             std::to_string(p.format.context_bits) + " for communicator ids, leaves " +
             std::to_string(p.user_tag_bits < 0 ? 0 : p.user_tag_bits) + " bits for program tags, fewer than the " +
             std::to_string(kMinUserTagBits) + " that MPI guarantees (MPI_TAG_UB >= 32767); " +
             "use fewer subranks per process (more processes, or a smaller --vf)";
    return false;
  }
  if (remote) {
    p.user_tag_ub = static_cast<int>((1L << p.user_tag_bits) - 1);
  } else {
    p.format.context_bits = kMaxContextBits;  // nothing travels: any id will do
    p.user_tag_ub = INT_MAX;
  }
  *out = p;
  return true;
}

// The real tag of a message. Contract: every field fits its width
// (user_tag <= the plan's user_tag_ub, context < 2^C, indices < 2^B).
inline int encode_tag(const TagFormat& f, const TagFields& t) {
  const int b = f.subrank_bits;
  return (((((t.user_tag << f.context_bits) | t.context) << 1) | (t.sync ? 1 : 0)) << (2 * b)) |
         (t.src_local << b) | t.dst_local;
}

inline TagFields decode_tag(const TagFormat& f, int real_tag) {
  const int b = f.subrank_bits;
  const int mask = (1 << b) - 1;
  const int upper = real_tag >> (2 * b);  // (user tag << C | context) << 1 | sync
  TagFields t;
  t.dst_local = real_tag & mask;
  t.src_local = (real_tag >> b) & mask;
  t.sync = (upper & 1) != 0;
  t.context = (upper >> 1) & ((1 << f.context_bits) - 1);
  t.user_tag = upper >> (1 + f.context_bits);
  return t;
}

}  // namespace tucana::comm
