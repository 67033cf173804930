// The collective algorithms on contiguous bytes: the message patterns of the
// collectives (coll/algorithms.h), with the default algorithms of
// Bamboo's Table 2:
//   Barrier          dissemination (Bruck)
//   Bcast            binomial tree; scatter + ring allgather for large data
//   Reduce           binomial tree
//   Allreduce        recursive doubling (non-powers of two folded in);
//                    reduce-scatter by recursive halving + allgather
//                    (Rabenseifner) for large data and commutative operations
//   Gather, Scatter  binomial tree (the v-variants: linear)
//   Allgather        Bruck; ring for large data (Allgatherv: ring)
//   Alltoall         Bruck for small blocks; all pairs at once otherwise
//   Scan, Exscan     a chain in rank order
// Every algorithm depends only on the communicator size and the root, never
// on how subranks map to processes, and combines in a fixed order, so a
// reduction gives the same bits at every virtualization factor (and at
// every rank, for the all- variants).
// (The linear v-variants, the all-pairs alltoall and the scan chain are
// written out in their calls, coll/calls.cc.)
//
// Layer: the algorithms. Built on the framework (coll/framework.h: Collective,
// Exchange, Reduction, Scratch) and calls nothing above it; called by the
// collective calls (coll/calls.cc, intercomm.cc) and by communicator.cc.
#include "mpi/coll/algorithms.h"

#include <algorithm>
#include <cstring>
#include <vector>

namespace tucana::mpi {

namespace {
std::size_t sz(int i) { return static_cast<std::size_t>(i); }

// The byte range of part `i` when `total` is split in `parts`.
void part_range(std::size_t total, int parts, int i, std::size_t* begin, std::size_t* len) {
  std::size_t base = total / sz(parts), extra = total % sz(parts);
  *begin = sz(i) * base + std::min(sz(i), extra);
  *len = base + (sz(i) < extra ? 1 : 0);
}
}  // namespace

void barrier(Collective& c) {
  int n = c.size(), r = c.rank();
  for (int k = 1; k < n; k <<= 1) c.sendrecv(nullptr, 0, (r + k) % n, nullptr, 0, (r - k + n) % n, kTagBarrier);
}

namespace {

void bcast_binomial(Collective& c, void* buf, std::size_t bytes, int root) {
  int n = c.size(), r = c.rank();
  int vr = (r - root + n) % n;
  int mask = 1;
  while (mask < n) {
    if (vr & mask) {
      c.recv(buf, bytes, (vr - mask + root) % n, kTagBcast);
      break;
    }
    mask <<= 1;
  }
  for (mask >>= 1; mask > 0; mask >>= 1)
    if (vr + mask < n) c.send(buf, bytes, (vr + mask + root) % n, kTagBcast);
}

// Van de Geijn: a binomial scatter of n parts (part k to relative rank k),
// then a ring allgather of the parts. Each link carries the data about once.
void bcast_scatter_allgather(Collective& c, void* buf, std::size_t bytes, int root) {
  int n = c.size(), r = c.rank();
  int vr = (r - root + n) % n;
  char* base = static_cast<char*>(buf);
  auto span = [&](int first, int last, std::size_t* off, std::size_t* len) {  // parts [first, last)
    std::size_t b0, l0, b1, l1;
    part_range(bytes, n, first, &b0, &l0);
    part_range(bytes, n, last - 1, &b1, &l1);
    *off = b0;
    *len = b1 + l1 - b0;
  };
  int mask = 1;
  while (mask < n) {
    if (vr & mask) {
      std::size_t off, len;
      span(vr, std::min(vr + mask, n), &off, &len);
      c.recv(base + off, len, (vr - mask + root) % n, kTagBcastScatter);
      break;
    }
    mask <<= 1;
  }
  for (mask >>= 1; mask > 0; mask >>= 1) {
    if (vr + mask < n) {
      std::size_t off, len;
      span(vr + mask, std::min(vr + 2 * mask, n), &off, &len);
      c.send(base + off, len, (vr + mask + root) % n, kTagBcastScatter);
    }
  }
  int right = (r + 1) % n, left = (r - 1 + n) % n;
  for (int s = 0; s < n - 1; ++s) {
    int out = (vr - s + n) % n, in = (vr - s - 1 + n) % n;
    std::size_t ob, ol, ib, il;
    part_range(bytes, n, out, &ob, &ol);
    part_range(bytes, n, in, &ib, &il);
    c.sendrecv(base + ob, ol, right, base + ib, il, left, kTagBcastRing);
  }
}

}  // namespace

void bcast(Collective& c, void* buf, std::size_t bytes, int root) {
  if (c.size() == 1) return;
  if (bytes >= kLargeBcast && c.size() >= 4)
    bcast_scatter_allgather(c, buf, bytes, root);
  else
    bcast_binomial(c, buf, bytes, root);
}

// Binomial tree reduction to `root`. Each node combines in rank order
// (lower relative rank as the left operand). A non-commutative operation is
// reduced to rank 0, where relative and absolute order agree, and sent on.
void reduce(Collective& c, const void* sendbuf, void* recvbuf, const Reduction& red, int root, std::size_t bytes) {
  int n = c.size(), r = c.rank();
  if (!red.commute && root != 0) {
    Scratch result(bytes);
    reduce(c, sendbuf, r == 0 ? result.data() : nullptr, red, 0, bytes);
    if (r == 0) c.send(result.data(), bytes, root, kTagReduce);
    if (r == root) c.recv(recvbuf, bytes, 0, kTagReduce);
    return;
  }
  int vr = (r - root + n) % n;
  Scratch a(bytes), b(bytes);
  char* acc = a.data();
  char* tmp = b.data();
  if (bytes) std::memcpy(acc, sendbuf, bytes);
  for (int mask = 1; mask < n; mask <<= 1) {
    if ((vr & mask) == 0) {
      int src = vr | mask;
      if (src < n) {
        c.recv(tmp, bytes, (src + root) % n, kTagReduce);
        red.apply(acc, tmp);  // tmp = acc OP tmp
        std::swap(acc, tmp);
      }
    } else {
      c.send(acc, bytes, ((vr & ~mask) + root) % n, kTagReduce);
      return;
    }
  }
  if (bytes) std::memcpy(recvbuf, acc, bytes);
}

namespace {

// data = lower OP higher, where `mine_is_lower` says whether data is the
// lower rank's part; `other` is scratch afterwards.
void combine(const Reduction& red, char* data, char* other, std::size_t bytes, bool mine_is_lower) {
  if (mine_is_lower) {
    red.apply(data, other);  // other = data OP other
    if (bytes) std::memcpy(data, other, bytes);
  } else {
    red.apply(other, data);  // data = other OP data
  }
}

// Folds a non-power-of-two size into pof2 participants (ranks below 2*rem
// pair up, the odd one keeps the pair's data); returns the new rank, or -1
// for a rank that sits out until unfold().
int fold(Collective& c, char* data, char* tmp, std::size_t bytes, const Reduction& red, int pof2, int kind) {
  int r = c.rank(), rem = c.size() - pof2;
  if (r >= 2 * rem) return r - rem;
  if (r % 2 == 0) {
    c.send(data, bytes, r + 1, kind);
    return -1;
  }
  c.recv(tmp, bytes, r - 1, kind);
  red.apply(tmp, data);  // data = lower OP data
  return r / 2;
}

int real_rank(int newrank, int rem) { return newrank < rem ? newrank * 2 + 1 : newrank + rem; }

void unfold(Collective& c, char* data, std::size_t bytes, int pof2, int kind) {
  int r = c.rank(), rem = c.size() - pof2;
  if (r >= 2 * rem) return;
  if (r % 2) c.send(data, bytes, r - 1, kind);
  else c.recv(data, bytes, r + 1, kind);
}

void allreduce_recursive_doubling(Collective& c, char* data, char* tmp, std::size_t bytes, const Reduction& red,
                                  int pof2) {
  int rem = c.size() - pof2;
  int newrank = fold(c, data, tmp, bytes, red, pof2, kTagAllreduce);
  if (newrank >= 0) {
    for (int mask = 1; mask < pof2; mask <<= 1) {
      int dst = real_rank(newrank ^ mask, rem);
      c.sendrecv(data, bytes, dst, tmp, bytes, dst, kTagAllreduce);
      combine(red, data, tmp, bytes, c.rank() < dst);
    }
  }
  unfold(c, data, bytes, pof2, kTagAllreduce);
}

// Rabenseifner: after folding, recursive halving leaves one part of the
// result at each participant; recursive doubling gathers the parts back.
// Each part is combined at one place only, so every rank gets its bits.
// The halving goes from near partners to far ones: subranks of one process
// have neighbouring ranks, so the big first exchanges stay inside a process
// and only 1/pof2-th of the data crosses to another process.
void allreduce_rabenseifner(Collective& c, char* data, char* tmp, std::size_t bytes, const Reduction& red, int pof2) {
  int rem = c.size() - pof2;
  int newrank = fold(c, data, tmp, bytes, red, pof2, kTagAllreduce);
  if (newrank >= 0) {
    const std::size_t elements = red.elements(), esize = red.element_size();
    // Parts [first, first + count) as an element range.
    auto parts = [&](int first, int count, std::size_t* e0, std::size_t* ecount) {
      std::size_t b0, l0, b1, l1;
      part_range(elements, pof2, first, &b0, &l0);
      part_range(elements, pof2, first + count - 1, &b1, &l1);
      *e0 = b0;
      *ecount = b1 + l1 - b0;
    };
    struct Step { int keep_lo, send_lo, half; };
    std::vector<Step> steps;
    int lo = 0, count = pof2;
    for (int mask = 1; mask < pof2; mask <<= 1) {
      int dst = real_rank(newrank ^ mask, rem);
      int half = count / 2;
      bool keep_lower = (newrank & mask) == 0;
      Step st{keep_lower ? lo : lo + half, keep_lower ? lo + half : lo, half};
      std::size_t ke, kn, se, sn;
      parts(st.keep_lo, half, &ke, &kn);
      parts(st.send_lo, half, &se, &sn);
      c.sendrecv(data + se * esize, sn * esize, dst, tmp + ke * esize, kn * esize, dst, kTagAllreduce);
      // Commutative here: each part is combined at one place, so the
      // operand order cannot differ between ranks.
      red.apply_part(tmp, data, ke, kn);
      steps.push_back(st);
      lo = st.keep_lo;
      count = half;
    }
    for (int i = static_cast<int>(steps.size()) - 1; i >= 0; --i) {
      const Step& st = steps[static_cast<std::size_t>(i)];
      int dst = real_rank(newrank ^ (1 << i), rem);
      std::size_t ke, kn, se, sn;
      parts(st.keep_lo, st.half, &ke, &kn);
      parts(st.send_lo, st.half, &se, &sn);
      c.sendrecv(data + ke * esize, kn * esize, dst, data + se * esize, sn * esize, dst, kTagAllreduce);
    }
  }
  unfold(c, data, bytes, pof2, kTagAllreduce);
}

}  // namespace

void allreduce(Collective& c, void* inout, const Reduction& red, std::size_t bytes) {
  int n = c.size();
  if (n == 1) return;
  int pof2 = 1;
  while (pof2 * 2 <= n) pof2 *= 2;
  char* data = static_cast<char*>(inout);
  Scratch tmp(bytes);
  if (red.commute && bytes >= kLargeAllreduce && red.elements() >= sz(pof2))
    allreduce_rabenseifner(c, data, tmp.data(), bytes, red, pof2);
  else
    allreduce_recursive_doubling(c, data, tmp.data(), bytes, red, pof2);
}

namespace {

// Bruck: after step k, each rank holds the blocks of ranks r .. r+2k-1.
void allgather_bruck(Collective& c, const void* mine, void* all, std::size_t block) {
  int n = c.size(), r = c.rank();
  std::vector<char> tmp(sz(n) * block);
  if (block) std::memcpy(tmp.data(), mine, block);
  for (int k = 1; k < n; k <<= 1) {
    int count = std::min(k, n - k);
    c.sendrecv(tmp.data(), sz(count) * block, (r - k + n) % n, tmp.data() + sz(k) * block, sz(count) * block,
               (r + k) % n, kTagAllgather);
  }
  char* out = static_cast<char*>(all);
  for (int i = 0; i < n; ++i)
    if (block) std::memcpy(out + sz((r + i) % n) * block, tmp.data() + sz(i) * block, block);
}

}  // namespace

// Ring: n-1 steps, each passing on the block received in the step before.
// `offset[i]`/`offset[i+1]` bound rank i's block in `all`, which holds this
// rank's block already.
void allgather_ring(Collective& c, char* all, const std::vector<std::size_t>& offset) {
  int n = c.size(), r = c.rank();
  int right = (r + 1) % n, left = (r - 1 + n) % n;
  for (int s = 0; s < n - 1; ++s) {
    int out = (r - s + n) % n, in = (r - s - 1 + n) % n;
    c.sendrecv(all + offset[sz(out)], offset[sz(out) + 1] - offset[sz(out)], right, all + offset[sz(in)],
               offset[sz(in) + 1] - offset[sz(in)], left, kTagAllgather);
  }
}

void allgather(Collective& c, const void* mine, void* all, std::size_t block) {
  int n = c.size();
  if (block * sz(n) < kLargeAllgather) {
    allgather_bruck(c, mine, all, block);
    return;
  }
  std::vector<std::size_t> offset(sz(n) + 1);
  for (int i = 0; i <= n; ++i) offset[sz(i)] = sz(i) * block;
  char* out = static_cast<char*>(all);
  if (block) std::memmove(out + sz(c.rank()) * block, mine, block);
  allgather_ring(c, out, offset);
}

// Binomial gather of equal blocks to `root` into `all` (size * block bytes,
// in rank order, at the root only).
void gather_binomial(Collective& c, const void* mine, void* all, std::size_t block, int root) {
  int n = c.size(), r = c.rank();
  int vr = (r - root + n) % n;
  // The subtree of vr covers relative ranks [vr, vr + span).
  int span = 1;
  while (span < n && !(vr & span)) span <<= 1;
  span = std::min(span, n - vr);
  std::vector<char> tmp(sz(span) * block);
  if (block) std::memcpy(tmp.data(), mine, block);
  for (int mask = 1; mask < n; mask <<= 1) {
    if (vr & mask) {
      c.send(tmp.data(), tmp.size(), (vr - mask + root) % n, kTagGather);
      return;
    }
    int child = vr + mask;
    if (child < n) {
      int child_span = std::min(mask, n - child);
      c.recv(tmp.data() + sz(mask) * block, sz(child_span) * block, (child + root) % n, kTagGather);
    }
  }
  char* out = static_cast<char*>(all);  // the root: relative order -> rank order
  for (int k = 0; k < n; ++k)
    if (block) std::memcpy(out + sz((k + root) % n) * block, tmp.data() + sz(k) * block, block);
}

// Binomial scatter of equal blocks from `root` (`all`: size * block bytes in
// rank order, at the root) into `mine`.
void scatter_binomial(Collective& c, const void* all, void* mine, std::size_t block, int root) {
  int n = c.size(), r = c.rank();
  int vr = (r - root + n) % n;
  std::vector<char> tmp;
  int mask = 1;
  if (vr == 0) {
    tmp.resize(sz(n) * block);
    const char* in = static_cast<const char*>(all);
    for (int k = 0; k < n; ++k)
      if (block) std::memcpy(tmp.data() + sz(k) * block, in + sz((k + root) % n) * block, block);
    while (mask < n) mask <<= 1;
  } else {
    while (!(vr & mask)) mask <<= 1;
    int span = std::min(mask, n - vr);
    tmp.resize(sz(span) * block);
    c.recv(tmp.data(), tmp.size(), (vr - mask + root) % n, kTagScatter);
  }
  for (mask >>= 1; mask > 0; mask >>= 1) {
    int child = vr + mask;
    if (child < n) {
      int child_span = std::min(mask, n - child);
      c.send(tmp.data() + sz(mask) * block, sz(child_span) * block, (child + root) % n, kTagScatter);
    }
  }
  if (block) std::memcpy(mine, tmp.data(), block);
}

// Bruck alltoall on equal packed blocks: `out` holds block i for rank i,
// `in` receives block i from rank i.
void alltoall_bruck(Collective& c, const char* out, char* in, std::size_t block) {
  int n = c.size(), r = c.rank();
  std::vector<char> tmp(sz(n) * block), packed, incoming;
  for (int i = 0; i < n; ++i)  // rotate: tmp[i] goes to rank r + i
    if (block) std::memcpy(tmp.data() + sz(i) * block, out + sz((r + i) % n) * block, block);
  for (int k = 1; k < n; k <<= 1) {
    packed.clear();
    int count = 0;
    for (int i = 0; i < n; ++i)
      if (i & k) {
        packed.insert(packed.end(), tmp.begin() + static_cast<std::ptrdiff_t>(sz(i) * block),
                      tmp.begin() + static_cast<std::ptrdiff_t>(sz(i + 1) * block));
        ++count;
      }
    incoming.resize(sz(count) * block);
    c.sendrecv(packed.data(), packed.size(), (r + k) % n, incoming.data(), incoming.size(), (r - k + n) % n,
               kTagAlltoall);
    std::size_t at = 0;
    for (int i = 0; i < n; ++i)
      if (i & k) {
        if (block) std::memcpy(tmp.data() + sz(i) * block, incoming.data() + at, block);
        at += block;
      }
  }
  for (int i = 0; i < n; ++i)  // tmp[i] came from rank r - i
    if (block) std::memcpy(in + sz((r - i + n) % n) * block, tmp.data() + sz(i) * block, block);
}

}  // namespace tucana::mpi
