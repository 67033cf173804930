// The collectives, built on subrank point-to-point messages (collective.h),
// with the default algorithms of Bamboo's Table 2:
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
#include <tucana/tmpi.h>

#include <algorithm>
#include <climits>
#include <cstring>
#include <memory>
#include <vector>

#include "mpi/collective.h"
#include "mpi/collectives_api.h"
#include "mpi/datatype.h"

namespace tucana::mpi {

namespace {
// Size-based switches (bytes of the whole buffer; Bruck's: of one block).
constexpr std::size_t kLargeBcast = 64 * 1024;
constexpr std::size_t kLargeAllreduce = 64 * 1024;
constexpr std::size_t kLargeAllgather = 64 * 1024;
constexpr std::size_t kSmallAlltoallBlock = 256;

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

}  // namespace

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

namespace {

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

}  // namespace

std::vector<int> uniform_counts(int n, int value) { return std::vector<int>(sz(n), value); }
std::vector<int> strided_displs(int n, int step) {
  std::vector<int> d(sz(n));
  for (int i = 0; i < n; ++i) d[sz(i)] = i * step;
  return d;
}

// ---------------------------------------------------------------------------
// The calls, on a resolved Call (shared by the blocking and the non-blocking
// entry points).

int do_barrier(const Call& call) {
  if (call.info.comm->inter()) return inter_barrier(call);
  Collective c(call);
  barrier(c);
  return finish(c);
}

int do_bcast(const Call& call, void* buffer, int count, TMPI_Datatype type, int root) {
  if (call.info.comm->inter()) return inter_bcast(call, buffer, count, type, root);
  std::size_t bytes;
  TypeMapPtr map;
  if (int e = check_buffer(call.me, call.comm, call.name, count, type, &map, &bytes)) return e;
  if (int e = check_root(call, root)) return e;
  Collective c(call);
  Flat flat(buffer, sz(count), map, call.info.rank == root);
  bcast(c, flat.data(), bytes, root);
  if (call.info.rank != root) flat.store();
  return finish(c);
}

int do_reduce(const Call& call, const void* sendbuf, void* recvbuf, int count, TMPI_Datatype type, TMPI_Op op,
              int root) {
  if (call.info.comm->inter()) return inter_reduce(call, sendbuf, recvbuf, count, type, op, root);
  std::size_t bytes;
  TypeMapPtr map;
  if (int e = check_buffer(call.me, call.comm, call.name, count, type, &map, &bytes)) return e;
  Reduction red;
  if (int e = make_reduction(call.me, call.comm, call.name, op, type, count, map, &red)) return e;
  if (int e = check_root(call, root)) return e;
  if (sendbuf == TMPI_IN_PLACE) {
    if (call.info.rank != root)
      return mpi_error(call.me, call.comm, TMPI_ERR_BUFFER, call.name, "MPI_IN_PLACE is only valid at the root");
    sendbuf = recvbuf;
  }
  Collective c(call);
  Flat in(sendbuf, sz(count), map, true);
  Flat out(recvbuf, sz(count), map, false);
  reduce(c, in.data(), out.data(), red, root, bytes);
  if (call.info.rank == root) out.store();
  return finish(c);
}

int do_allreduce(const Call& call, const void* sendbuf, void* recvbuf, int count, TMPI_Datatype type, TMPI_Op op) {
  if (call.info.comm->inter()) return inter_allreduce(call, sendbuf, recvbuf, count, type, op);
  std::size_t bytes;
  TypeMapPtr map;
  if (int e = check_buffer(call.me, call.comm, call.name, count, type, &map, &bytes)) return e;
  Reduction red;
  if (int e = make_reduction(call.me, call.comm, call.name, op, type, count, map, &red)) return e;
  Collective c(call);
  Flat out(recvbuf, sz(count), map, sendbuf == TMPI_IN_PLACE);
  if (sendbuf != TMPI_IN_PLACE) {
    Flat in(sendbuf, sz(count), map, true);
    if (bytes) std::memcpy(out.data(), in.data(), bytes);
  }
  allreduce(c, out.data(), red, bytes);
  out.store();
  return finish(c);
}

int do_gatherv(const Call& call, const void* sendbuf, int scount, TMPI_Datatype stype, void* recvbuf,
               const int rcounts[], const int displs[], TMPI_Datatype rtype, int root) {
  if (call.info.comm->inter())
    return inter_gatherv(call, sendbuf, scount, stype, recvbuf, rcounts, displs, rtype, root);
  Subrank* me = call.me;
  const CommInfo& ci = call.info;
  if (int e = check_root(call, root)) return e;
  bool in_place = sendbuf == TMPI_IN_PLACE && ci.rank == root;
  TypeMapPtr smap, rmap;
  if (!in_place)
    if (int e = check_part(me, call.comm, call.name, scount, stype, &smap)) return e;
  if (ci.rank == root)
    for (int i = 0; i < ci.size; ++i)
      if (int e = check_part(me, call.comm, call.name, rcounts[i], rtype, &rmap)) return e;
  Collective c(call);
  if (ci.rank != root) {
    Piece mine(sendbuf, 0, sz(scount), smap, true);
    c.send(mine.data(), mine.bytes(), root, kTagGather);
    return finish(c);
  }
  std::vector<std::unique_ptr<Piece>> blocks;
  Exchange x(c);
  for (int i = 0; i < ci.size; ++i) {
    blocks.push_back(std::make_unique<Piece>(recvbuf, displs[i], sz(rcounts[i]), rmap, false));
    Piece& b = *blocks.back();
    if (i != root) {
      x.recv(b.data(), b.bytes(), i, kTagGather);
    } else if (!in_place) {
      Piece mine(sendbuf, 0, sz(scount), smap, true);
      if (b.bytes()) std::memcpy(b.data(), mine.data(), std::min(b.bytes(), mine.bytes()));
    } else {
      blocks.pop_back();  // already in place
    }
  }
  x.wait();
  for (auto& b : blocks) b->store();
  return finish(c);
}

int do_gather(const Call& call, const void* sendbuf, int scount, TMPI_Datatype stype, void* recvbuf, int rcount,
              TMPI_Datatype rtype, int root) {
  if (call.info.comm->inter()) return inter_gather(call, sendbuf, scount, stype, recvbuf, rcount, rtype, root);
  Subrank* me = call.me;
  const CommInfo& ci = call.info;
  if (int e = check_root(call, root)) return e;
  bool in_place = sendbuf == TMPI_IN_PLACE && ci.rank == root;
  TypeMapPtr smap, rmap;
  if (!in_place)
    if (int e = check_part(me, call.comm, call.name, scount, stype, &smap)) return e;
  if (ci.rank == root)
    if (int e = check_part(me, call.comm, call.name, rcount, rtype, &rmap)) return e;
  // Every block has the same size (MPI: matching type signatures), known
  // at the root from the receive side and elsewhere from the send side.
  std::size_t block = ci.rank == root ? sz(rcount) * rmap->size : sz(scount) * smap->size;
  std::unique_ptr<Piece> mine = in_place
      ? std::make_unique<Piece>(recvbuf, static_cast<std::ptrdiff_t>(root) * rcount, sz(rcount), rmap, true, true)
      : std::make_unique<Piece>(sendbuf, 0, sz(scount), smap, true);
  std::vector<char> all(ci.rank == root ? sz(ci.size) * block : 0);
  Collective c(call);
  gather_binomial(c, mine->data(), all.data(), block, root);
  if (ci.rank == root && rcount)
    for (int i = 0; i < ci.size; ++i)
      unpack(all.data() + sz(i) * block, sz(rcount), *rmap,
             static_cast<char*>(recvbuf) + static_cast<std::ptrdiff_t>(i) * rcount * rmap->extent());
  return finish(c);
}

int do_scatterv(const Call& call, const void* sendbuf, const int scounts[], const int displs[], TMPI_Datatype stype,
                void* recvbuf, int rcount, TMPI_Datatype rtype, int root) {
  if (call.info.comm->inter())
    return inter_scatterv(call, sendbuf, scounts, displs, stype, recvbuf, rcount, rtype, root);
  Subrank* me = call.me;
  const CommInfo& ci = call.info;
  if (int e = check_root(call, root)) return e;
  bool in_place = recvbuf == TMPI_IN_PLACE && ci.rank == root;
  TypeMapPtr smap, rmap;
  if (!in_place)
    if (int e = check_part(me, call.comm, call.name, rcount, rtype, &rmap)) return e;
  if (ci.rank == root)
    for (int i = 0; i < ci.size; ++i)
      if (int e = check_part(me, call.comm, call.name, scounts[i], stype, &smap)) return e;
  Collective c(call);
  if (ci.rank != root) {
    Piece mine(recvbuf, 0, sz(rcount), rmap, false);
    c.recv(mine.data(), mine.bytes(), root, kTagScatter);
    mine.store();
    return finish(c);
  }
  std::vector<std::unique_ptr<Piece>> blocks;
  Exchange x(c);
  for (int i = 0; i < ci.size; ++i) {
    blocks.push_back(std::make_unique<Piece>(sendbuf, displs[i], sz(scounts[i]), smap, true));
    Piece& b = *blocks.back();
    if (i != root) {
      x.send(b.data(), b.bytes(), i, kTagScatter);
    } else if (!in_place) {
      Piece mine(recvbuf, 0, sz(rcount), rmap, false);
      if (mine.bytes()) std::memcpy(mine.data(), b.data(), std::min(b.bytes(), mine.bytes()));
      mine.store();
    }
  }
  x.wait();
  return finish(c);
}

int do_scatter(const Call& call, const void* sendbuf, int scount, TMPI_Datatype stype, void* recvbuf, int rcount,
               TMPI_Datatype rtype, int root) {
  if (call.info.comm->inter()) return inter_scatter(call, sendbuf, scount, stype, recvbuf, rcount, rtype, root);
  Subrank* me = call.me;
  const CommInfo& ci = call.info;
  if (int e = check_root(call, root)) return e;
  bool in_place = recvbuf == TMPI_IN_PLACE && ci.rank == root;
  TypeMapPtr smap, rmap;
  if (!in_place)
    if (int e = check_part(me, call.comm, call.name, rcount, rtype, &rmap)) return e;
  if (ci.rank == root)
    if (int e = check_part(me, call.comm, call.name, scount, stype, &smap)) return e;
  std::size_t block = ci.rank == root ? sz(scount) * smap->size : sz(rcount) * rmap->size;
  std::vector<char> all;
  if (ci.rank == root) {
    all.resize(sz(ci.size) * block);
    if (scount)
      for (int i = 0; i < ci.size; ++i)
        pack(static_cast<const char*>(sendbuf) + static_cast<std::ptrdiff_t>(i) * scount * smap->extent(), sz(scount),
             *smap, all.data() + sz(i) * block);
  }
  std::vector<char> mine(block);
  Collective c(call);
  scatter_binomial(c, all.data(), mine.data(), block, root);
  if (!in_place && rcount) unpack(mine.data(), sz(rcount), *rmap, recvbuf);
  return finish(c);
}

int do_allgatherv(const Call& call, const void* sendbuf, int scount, TMPI_Datatype stype, void* recvbuf,
                  const int rcounts[], const int displs[], TMPI_Datatype rtype, bool uniform_blocks) {
  if (call.info.comm->inter()) {
    // MPI_Allgather's counts are uniform (given per local rank: any one will do)
    if (uniform_blocks) return inter_allgather(call, sendbuf, scount, stype, recvbuf, rcounts[0], rtype);
    return inter_allgatherv(call, sendbuf, scount, stype, recvbuf, rcounts, displs, rtype);
  }
  Subrank* me = call.me;
  const CommInfo& ci = call.info;
  bool in_place = sendbuf == TMPI_IN_PLACE;
  TypeMapPtr smap, rmap;
  if (!in_place)
    if (int e = check_part(me, call.comm, call.name, scount, stype, &smap)) return e;
  for (int i = 0; i < ci.size; ++i)
    if (int e = check_part(me, call.comm, call.name, rcounts[i], rtype, &rmap)) return e;
  std::vector<std::size_t> offset(sz(ci.size) + 1, 0);
  for (int i = 0; i < ci.size; ++i) offset[sz(i) + 1] = offset[sz(i)] + sz(rcounts[i]) * rmap->size;
  std::vector<char> all(offset.back());
  Collective c(call);
  std::unique_ptr<Piece> mine =
      in_place ? std::make_unique<Piece>(recvbuf, displs[ci.rank], sz(rcounts[ci.rank]), rmap, true, true)
               : std::make_unique<Piece>(sendbuf, 0, sz(scount), smap, true);
  std::size_t my_bytes = offset[sz(ci.rank) + 1] - offset[sz(ci.rank)];
  if (uniform_blocks) {
    std::vector<char> block(my_bytes);
    if (my_bytes) std::memcpy(block.data(), mine->data(), std::min(my_bytes, mine->bytes()));
    allgather(c, block.data(), all.data(), my_bytes);
  } else {
    if (my_bytes) std::memcpy(all.data() + offset[sz(ci.rank)], mine->data(), std::min(my_bytes, mine->bytes()));
    allgather_ring(c, all.data(), offset);
  }
  for (int i = 0; i < ci.size; ++i)
    if (rcounts[i])
      unpack(all.data() + offset[sz(i)], sz(rcounts[i]), *rmap,
             static_cast<char*>(recvbuf) + static_cast<std::ptrdiff_t>(displs[i]) * rmap->extent());
  return finish(c);
}

// Every rank sends each rank its block and receives one from each. `w`:
// MPI_Alltoallw's per-peer datatypes and byte displacements.
int do_alltoallw(const Call& call, const void* sendbuf, const int scounts[], const int sdispls[],
                 const TMPI_Datatype stypes[], void* recvbuf, const int rcounts[], const int rdispls[],
                 const TMPI_Datatype rtypes[], bool byte_displacements) {
  if (call.info.comm->inter())
    return inter_alltoallw(call, sendbuf, scounts, sdispls, stypes, recvbuf, rcounts, rdispls, rtypes,
                           byte_displacements);
  Subrank* me = call.me;
  const CommInfo& ci = call.info;
  bool in_place = sendbuf == TMPI_IN_PLACE;
  std::vector<TypeMapPtr> smaps(sz(ci.size)), rmaps(sz(ci.size));
  for (int i = 0; i < ci.size; ++i) {
    if (int e = check_part(me, call.comm, call.name, rcounts[i], rtypes[i], &rmaps[sz(i)])) return e;
    if (!in_place)
      if (int e = check_part(me, call.comm, call.name, scounts[i], stypes[i], &smaps[sz(i)])) return e;
  }
  auto piece = [&](const void* base, int displ, int count, const TypeMapPtr& map, bool load, bool copy) {
    // (in place, what goes out is copied before anything comes in)
    if (byte_displacements && copy)
      return std::make_unique<Piece>(static_cast<const char*>(base) + displ, 0, sz(count), map, true, true);
    if (byte_displacements) return Piece::at_bytes(base, displ, sz(count), map, load);
    return std::make_unique<Piece>(base, displ, sz(count), map, load, copy);
  };
  std::vector<std::unique_ptr<Piece>> out, in;
  for (int i = 0; i < ci.size; ++i) {
    out.push_back(in_place ? piece(recvbuf, rdispls[i], rcounts[i], rmaps[sz(i)], true, true)
                           : piece(sendbuf, sdispls[i], scounts[i], smaps[sz(i)], true, false));
    in.push_back(piece(recvbuf, rdispls[i], rcounts[i], rmaps[sz(i)], false, false));
  }
  Collective c(call);
  Exchange x(c);
  // Every receive first, so that a sibling's message meets a posted receive
  // (one copy); then the sends, in a rotating order that spreads the traffic.
  for (int k = 1; k < ci.size; ++k) {
    int from = (ci.rank - k + ci.size) % ci.size;
    x.recv(in[sz(from)]->data(), in[sz(from)]->bytes(), from, kTagAlltoall);
  }
  for (int k = 1; k < ci.size; ++k) {
    int to = (ci.rank + k) % ci.size;
    x.send(out[sz(to)]->data(), out[sz(to)]->bytes(), to, kTagAlltoall);
  }
  Piece& self_in = *in[sz(ci.rank)];
  Piece& self_out = *out[sz(ci.rank)];
  if (self_in.bytes()) std::memmove(self_in.data(), self_out.data(), std::min(self_in.bytes(), self_out.bytes()));
  x.wait();
  for (auto& p : in) p->store();
  return finish(c);
}

int do_alltoallv(const Call& call, const void* sendbuf, const int scounts[], const int sdispls[], TMPI_Datatype stype,
                 void* recvbuf, const int rcounts[], const int rdispls[], TMPI_Datatype rtype) {
  if (call.info.comm->inter()) {  // a block per rank of the remote group
    const std::size_t n = sz(call.info.comm->remote->size);
    std::vector<TMPI_Datatype> st(n, stype), rt(n, rtype);
    return inter_alltoallw(call, sendbuf, scounts, sdispls, st.data(), recvbuf, rcounts, rdispls, rt.data(), false);
  }
  std::vector<TMPI_Datatype> st(sz(call.info.size), stype), rt(sz(call.info.size), rtype);
  return do_alltoallw(call, sendbuf, scounts, sdispls, st.data(), recvbuf, rcounts, rdispls, rt.data(), false);
}

int do_alltoall(const Call& call, const void* sendbuf, int scount, TMPI_Datatype stype, void* recvbuf, int rcount,
                TMPI_Datatype rtype) {
  if (call.info.comm->inter()) return inter_alltoall(call, sendbuf, scount, stype, recvbuf, rcount, rtype);
  int n = call.info.size;
  TypeMapPtr smap, rmap;
  bool in_place = sendbuf == TMPI_IN_PLACE;
  if (int e = check_part(call.me, call.comm, call.name, rcount, rtype, &rmap)) return e;
  if (!in_place)
    if (int e = check_part(call.me, call.comm, call.name, scount, stype, &smap)) return e;
  std::size_t block = sz(rcount) * rmap->size;
  if (block > kSmallAlltoallBlock || n < 4) {
    std::vector<int> sc = uniform_counts(n, scount), sd = strided_displs(n, scount);
    std::vector<int> rc = uniform_counts(n, rcount), rd = strided_displs(n, rcount);
    return do_alltoallv(call, sendbuf, sc.data(), sd.data(), stype, recvbuf, rc.data(), rd.data(), rtype);
  }
  const void* src = in_place ? recvbuf : sendbuf;
  const TypeMapPtr& src_map = in_place ? rmap : smap;
  int src_count = in_place ? rcount : scount;
  std::vector<char> out(sz(n) * block), in(sz(n) * block);
  if (src_count)
    for (int i = 0; i < n; ++i)
      pack(static_cast<const char*>(src) + static_cast<std::ptrdiff_t>(i) * src_count * src_map->extent(),
           sz(src_count), *src_map, out.data() + sz(i) * block);
  Collective c(call);
  alltoall_bruck(c, out.data(), in.data(), block);
  if (rcount)
    for (int i = 0; i < n; ++i)
      unpack(in.data() + sz(i) * block, sz(rcount), *rmap,
             static_cast<char*>(recvbuf) + static_cast<std::ptrdiff_t>(i) * rcount * rmap->extent());
  return finish(c);
}

// Prefix reductions along the ranks, in rank order (a chain).
int do_scan(const Call& call, const void* sendbuf, void* recvbuf, int count, TMPI_Datatype type, TMPI_Op op,
            bool exclusive) {
  const CommInfo& ci = call.info;
  std::size_t bytes;
  TypeMapPtr map;
  if (int e = check_buffer(call.me, call.comm, call.name, count, type, &map, &bytes)) return e;
  Reduction red;
  if (int e = make_reduction(call.me, call.comm, call.name, op, type, count, map, &red)) return e;
  if (sendbuf == TMPI_IN_PLACE) sendbuf = recvbuf;
  Collective c(call);
  Flat in(sendbuf, sz(count), map, true);
  Flat out(recvbuf, sz(count), map, false);
  std::vector<char> mine(static_cast<const char*>(in.data()), static_cast<const char*>(in.data()) + bytes);
  std::vector<char> prefix(bytes);
  if (ci.rank > 0) {
    c.recv(prefix.data(), bytes, ci.rank - 1, kTagScan);  // ranks 0 .. rank-1 combined
    std::vector<char> upto(prefix);
    red.apply(prefix.data(), mine.data());  // mine = prefix OP mine
    if (exclusive && bytes) std::memcpy(out.data(), upto.data(), bytes);
  }
  if (ci.rank + 1 < ci.size) c.send(mine.data(), bytes, ci.rank + 1, kTagScan);
  if (!exclusive && bytes) std::memcpy(out.data(), mine.data(), bytes);
  if (!exclusive || ci.rank > 0) out.store();
  return finish(c);
}

// A reduction to rank 0 and a scatter of the result's parts.
int do_reduce_scatter(const Call& call, const void* sendbuf, void* recvbuf, const int rcounts[], TMPI_Datatype type,
                      TMPI_Op op) {
  if (call.info.comm->inter()) return inter_reduce_scatter(call, sendbuf, recvbuf, rcounts, type, op);
  const CommInfo& ci = call.info;
  long long sum = 0;
  std::vector<int> displs(sz(ci.size));
  for (int i = 0; i < ci.size; ++i) {
    if (rcounts[i] < 0)
      return mpi_error(call.me, call.comm, TMPI_ERR_COUNT, call.name, "negative count %d for rank %d", rcounts[i], i);
    if (sum + rcounts[i] > INT_MAX)
      return mpi_error(call.me, call.comm, TMPI_ERR_COUNT, call.name, "the counts add up to more than INT_MAX elements");
    displs[sz(i)] = static_cast<int>(sum);
    sum += rcounts[i];
  }
  int total = static_cast<int>(sum);
  std::size_t bytes;
  TypeMapPtr map;
  if (int e = check_buffer(call.me, call.comm, call.name, total, type, &map, &bytes)) return e;
  Reduction red;
  if (int e = make_reduction(call.me, call.comm, call.name, op, type, total, map, &red)) return e;
  const void* input = sendbuf == TMPI_IN_PLACE ? recvbuf : sendbuf;
  std::vector<char> result(bytes);
  Collective c(call);
  {
    Flat in(input, sz(total), map, true);
    reduce(c, in.data(), result.data(), red, 0, bytes);
  }
  std::vector<char> mine(sz(rcounts[ci.rank]) * map->size);
  if (ci.rank == 0) {
    Exchange x(c);
    for (int i = 1; i < ci.size; ++i)
      x.send(result.data() + sz(displs[sz(i)]) * map->size, sz(rcounts[i]) * map->size, i, kTagScatter);
    if (!mine.empty()) std::memcpy(mine.data(), result.data(), mine.size());
    x.wait();
  } else {
    c.recv(mine.data(), mine.size(), 0, kTagScatter);
  }
  if (!mine.empty()) unpack(mine.data(), sz(rcounts[ci.rank]), *map, recvbuf);
  return finish(c);
}

// Neighbourhood collectives on any process topology: block j comes from
// source j and block j goes to destination j, in MPI's order (topology.cc).
// On a graph a rank may be listed several times: its k-th message to a
// neighbour meets that neighbour's k-th receive from it, since messages
// between two ranks with one tag arrive in the order they were sent (as in
// MPI). On a Cartesian grid a message sent towards +1 is received as coming
// from -1, so the direction is part of its tag (a periodic dimension of
// size 1 or 2 has the same rank at both ends).
int do_neighbor_w(const Call& call, const void* sendbuf, const int scounts[], const TMPI_Aint sdispls[],
                  const TMPI_Datatype stypes[], void* recvbuf, const int rcounts[], const TMPI_Aint rdispls[],
                  const TMPI_Datatype rtypes[], NeighborBlocks blocks) {
  Neighbors nb;
  if (!topology_neighbors(*call.info.comm, &nb))
    return mpi_error(call.me, call.comm, TMPI_ERR_TOPOLOGY, call.name, "%s has no process topology",
                     comm_name(call.comm));
  const bool same_block = blocks == NeighborBlocks::kOneSendBlock;
  const bool bytes = blocks == NeighborBlocks::kByteDisplacements;
  std::vector<TypeMapPtr> smaps(nb.destinations.size()), rmaps(nb.sources.size());
  for (std::size_t j = 0; j < nb.sources.size(); ++j)
    if (int e = check_part(call.me, call.comm, call.name, rcounts[j], rtypes[j], &rmaps[j])) return e;
  for (std::size_t j = 0; j < nb.destinations.size(); ++j) {
    std::size_t s = same_block ? 0 : j;
    if (int e = check_part(call.me, call.comm, call.name, scounts[s], stypes[s], &smaps[j])) return e;
  }
  auto piece = [bytes](const void* base, TMPI_Aint displ, int count, const TypeMapPtr& map, bool load) {
    return bytes ? Piece::at_bytes(base, static_cast<std::ptrdiff_t>(displ), sz(count), map, load)
                 : std::make_unique<Piece>(base, static_cast<std::ptrdiff_t>(displ), sz(count), map, load);
  };
  // A graph's edges all use one tag. On a grid, what is sent towards +1
  // (odd j) is received as coming from -1 (even j): it travels as "up".
  auto recv_kind = [&](std::size_t j) { return nb.cartesian && j % 2 == 0 ? kTagNeighborUp : kTagNeighborDown; };
  auto send_kind = [&](std::size_t j) { return nb.cartesian && j % 2 == 1 ? kTagNeighborUp : kTagNeighborDown; };
  Collective c(call);
  Exchange x(c);
  std::vector<std::unique_ptr<Piece>> out, in;
  for (std::size_t j = 0; j < nb.sources.size(); ++j) {
    in.push_back(piece(recvbuf, rdispls[j], rcounts[j], rmaps[j], false));
    if (nb.sources[j] != TMPI_PROC_NULL) x.recv(in.back()->data(), in.back()->bytes(), nb.sources[j], recv_kind(j));
  }
  for (std::size_t j = 0; j < nb.destinations.size(); ++j) {
    std::size_t s = same_block ? 0 : j;
    if (!same_block || out.empty()) out.push_back(piece(sendbuf, sdispls[s], scounts[s], smaps[j], true));
    if (nb.destinations[j] != TMPI_PROC_NULL)
      x.send(out.back()->data(), out.back()->bytes(), nb.destinations[j], send_kind(j));
  }
  x.wait();
  for (std::size_t j = 0; j < nb.sources.size(); ++j)
    if (nb.sources[j] != TMPI_PROC_NULL) in[j]->store();
  return finish(c);
}

int do_neighbor(const Call& call, const void* sendbuf, const int scounts[], const int sdispls[], TMPI_Datatype stype,
                void* recvbuf, const int rcounts[], const int rdispls[], TMPI_Datatype rtype, bool same_block) {
  int indegree = 0, outdegree = 0;
  neighbor_degrees(call, &indegree, &outdegree);
  std::size_t ns = same_block ? 1 : sz(outdegree);
  std::vector<TMPI_Aint> sd(sdispls, sdispls + ns), rd(rdispls, rdispls + indegree);
  std::vector<TMPI_Datatype> st(ns, stype), rt(sz(indegree), rtype);
  return do_neighbor_w(call, sendbuf, scounts, sd.data(), st.data(), recvbuf, rcounts, rd.data(), rt.data(),
                       same_block ? NeighborBlocks::kOneSendBlock : NeighborBlocks::kPerNeighbor);
}

void neighbor_degrees(const Call& call, int* indegree, int* outdegree) {
  Neighbors nb;
  topology_neighbors(*call.info.comm, &nb);
  *indegree = static_cast<int>(nb.sources.size());
  *outdegree = static_cast<int>(nb.destinations.size());
}

}  // namespace tucana::mpi

using namespace tucana;
using namespace tucana::mpi;

extern "C" {

int TMPI_Barrier(TMPI_Comm comm) {
  TMPI_COLLECTIVE_CALL("MPI_Barrier", comm);
  return do_barrier(call);
}

int TMPI_Bcast(void* buffer, int count, TMPI_Datatype type, int root, TMPI_Comm comm) {
  TMPI_COLLECTIVE_CALL("MPI_Bcast", comm);
  return do_bcast(call, buffer, count, type, root);
}

int TMPI_Reduce(const void* sendbuf, void* recvbuf, int count, TMPI_Datatype type, TMPI_Op op, int root,
                TMPI_Comm comm) {
  TMPI_COLLECTIVE_CALL("MPI_Reduce", comm);
  return do_reduce(call, sendbuf, recvbuf, count, type, op, root);
}

int TMPI_Allreduce(const void* sendbuf, void* recvbuf, int count, TMPI_Datatype type, TMPI_Op op, TMPI_Comm comm) {
  TMPI_COLLECTIVE_CALL("MPI_Allreduce", comm);
  return do_allreduce(call, sendbuf, recvbuf, count, type, op);
}

int TMPI_Gather(const void* sendbuf, int sendcount, TMPI_Datatype sendtype, void* recvbuf, int recvcount,
                TMPI_Datatype recvtype, int root, TMPI_Comm comm) {
  TMPI_COLLECTIVE_CALL("MPI_Gather", comm);
  return do_gather(call, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root);
}

int TMPI_Gatherv(const void* sendbuf, int sendcount, TMPI_Datatype sendtype, void* recvbuf, const int recvcounts[],
                 const int displs[], TMPI_Datatype recvtype, int root, TMPI_Comm comm) {
  TMPI_COLLECTIVE_CALL("MPI_Gatherv", comm);
  return do_gatherv(call, sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, root);
}

int TMPI_Scatter(const void* sendbuf, int sendcount, TMPI_Datatype sendtype, void* recvbuf, int recvcount,
                 TMPI_Datatype recvtype, int root, TMPI_Comm comm) {
  TMPI_COLLECTIVE_CALL("MPI_Scatter", comm);
  return do_scatter(call, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root);
}

int TMPI_Scatterv(const void* sendbuf, const int sendcounts[], const int displs[], TMPI_Datatype sendtype,
                  void* recvbuf, int recvcount, TMPI_Datatype recvtype, int root, TMPI_Comm comm) {
  TMPI_COLLECTIVE_CALL("MPI_Scatterv", comm);
  return do_scatterv(call, sendbuf, sendcounts, displs, sendtype, recvbuf, recvcount, recvtype, root);
}

int TMPI_Allgather(const void* sendbuf, int sendcount, TMPI_Datatype sendtype, void* recvbuf, int recvcount,
                   TMPI_Datatype recvtype, TMPI_Comm comm) {
  TMPI_COLLECTIVE_CALL("MPI_Allgather", comm);
  int n = call.info.size;
  std::vector<int> counts = uniform_counts(n, recvcount), displs = strided_displs(n, recvcount);
  return do_allgatherv(call, sendbuf, sendcount, sendtype, recvbuf, counts.data(), displs.data(), recvtype, true);
}

int TMPI_Allgatherv(const void* sendbuf, int sendcount, TMPI_Datatype sendtype, void* recvbuf,
                    const int recvcounts[], const int displs[], TMPI_Datatype recvtype, TMPI_Comm comm) {
  TMPI_COLLECTIVE_CALL("MPI_Allgatherv", comm);
  return do_allgatherv(call, sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, false);
}

int TMPI_Alltoall(const void* sendbuf, int sendcount, TMPI_Datatype sendtype, void* recvbuf, int recvcount,
                  TMPI_Datatype recvtype, TMPI_Comm comm) {
  TMPI_COLLECTIVE_CALL("MPI_Alltoall", comm);
  return do_alltoall(call, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype);
}

int TMPI_Alltoallv(const void* sendbuf, const int sendcounts[], const int sdispls[], TMPI_Datatype sendtype,
                   void* recvbuf, const int recvcounts[], const int rdispls[], TMPI_Datatype recvtype,
                   TMPI_Comm comm) {
  TMPI_COLLECTIVE_CALL("MPI_Alltoallv", comm);
  return do_alltoallv(call, sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls, recvtype);
}

int TMPI_Alltoallw(const void* sendbuf, const int sendcounts[], const int sdispls[], const TMPI_Datatype sendtypes[],
                   void* recvbuf, const int recvcounts[], const int rdispls[], const TMPI_Datatype recvtypes[],
                   TMPI_Comm comm) {
  TMPI_COLLECTIVE_CALL("MPI_Alltoallw", comm);
  return do_alltoallw(call, sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts, rdispls, recvtypes, true);
}

int TMPI_Reduce_scatter(const void* sendbuf, void* recvbuf, const int recvcounts[], TMPI_Datatype type, TMPI_Op op,
                        TMPI_Comm comm) {
  TMPI_COLLECTIVE_CALL("MPI_Reduce_scatter", comm);
  return do_reduce_scatter(call, sendbuf, recvbuf, recvcounts, type, op);
}

int TMPI_Reduce_scatter_block(const void* sendbuf, void* recvbuf, int recvcount, TMPI_Datatype type, TMPI_Op op,
                              TMPI_Comm comm) {
  TMPI_COLLECTIVE_CALL("MPI_Reduce_scatter_block", comm);
  std::vector<int> counts = uniform_counts(call.info.size, recvcount);
  return do_reduce_scatter(call, sendbuf, recvbuf, counts.data(), type, op);
}

int TMPI_Scan(const void* sendbuf, void* recvbuf, int count, TMPI_Datatype type, TMPI_Op op, TMPI_Comm comm) {
  TMPI_COLLECTIVE_CALL("MPI_Scan", comm);
  return do_scan(call, sendbuf, recvbuf, count, type, op, false);
}

int TMPI_Exscan(const void* sendbuf, void* recvbuf, int count, TMPI_Datatype type, TMPI_Op op, TMPI_Comm comm) {
  TMPI_COLLECTIVE_CALL("MPI_Exscan", comm);
  return do_scan(call, sendbuf, recvbuf, count, type, op, true);
}

int TMPI_Neighbor_allgather(const void* sendbuf, int sendcount, TMPI_Datatype sendtype, void* recvbuf, int recvcount,
                            TMPI_Datatype recvtype, TMPI_Comm comm) {
  TMPI_COLLECTIVE_CALL("MPI_Neighbor_allgather", comm);
  int in = 0, out = 0;
  neighbor_degrees(call, &in, &out);
  std::vector<int> sc = uniform_counts(1, sendcount), sd = uniform_counts(1, 0);
  std::vector<int> rc = uniform_counts(in, recvcount), rd = strided_displs(in, recvcount);
  return do_neighbor(call, sendbuf, sc.data(), sd.data(), sendtype, recvbuf, rc.data(), rd.data(), recvtype, true);
}

int TMPI_Neighbor_allgatherv(const void* sendbuf, int sendcount, TMPI_Datatype sendtype, void* recvbuf,
                             const int recvcounts[], const int displs[], TMPI_Datatype recvtype, TMPI_Comm comm) {
  TMPI_COLLECTIVE_CALL("MPI_Neighbor_allgatherv", comm);
  std::vector<int> sc = uniform_counts(1, sendcount), sd = uniform_counts(1, 0);
  return do_neighbor(call, sendbuf, sc.data(), sd.data(), sendtype, recvbuf, recvcounts, displs, recvtype, true);
}

int TMPI_Neighbor_alltoall(const void* sendbuf, int sendcount, TMPI_Datatype sendtype, void* recvbuf, int recvcount,
                           TMPI_Datatype recvtype, TMPI_Comm comm) {
  TMPI_COLLECTIVE_CALL("MPI_Neighbor_alltoall", comm);
  int in = 0, out = 0;
  neighbor_degrees(call, &in, &out);
  std::vector<int> sc = uniform_counts(out, sendcount), sd = strided_displs(out, sendcount);
  std::vector<int> rc = uniform_counts(in, recvcount), rd = strided_displs(in, recvcount);
  return do_neighbor(call, sendbuf, sc.data(), sd.data(), sendtype, recvbuf, rc.data(), rd.data(), recvtype, false);
}

int TMPI_Neighbor_alltoallv(const void* sendbuf, const int sendcounts[], const int sdispls[], TMPI_Datatype sendtype,
                            void* recvbuf, const int recvcounts[], const int rdispls[], TMPI_Datatype recvtype,
                            TMPI_Comm comm) {
  TMPI_COLLECTIVE_CALL("MPI_Neighbor_alltoallv", comm);
  return do_neighbor(call, sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls, recvtype, false);
}

int TMPI_Neighbor_alltoallw(const void* sendbuf, const int sendcounts[], const TMPI_Aint sdispls[],
                            const TMPI_Datatype sendtypes[], void* recvbuf, const int recvcounts[],
                            const TMPI_Aint rdispls[], const TMPI_Datatype recvtypes[], TMPI_Comm comm) {
  TMPI_COLLECTIVE_CALL("MPI_Neighbor_alltoallw", comm);
  return do_neighbor_w(call, sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts, rdispls, recvtypes,
                       NeighborBlocks::kByteDisplacements);
}

int TMPI_Reduce_local(const void* inbuf, void* inoutbuf, int count, TMPI_Datatype type, TMPI_Op op) {
  const char* call = "MPI_Reduce_local";
  Subrank* me = enter(call);
  std::size_t bytes;
  TypeMapPtr map;
  if (int e = check_buffer(me, TMPI_COMM_WORLD, call, count, type, &map, &bytes)) return e;
  Reduction red;
  if (int e = make_reduction(me, TMPI_COMM_WORLD, call, op, type, count, map, &red)) return e;
  Flat in(inbuf, sz(count), map, true);
  Flat inout(inoutbuf, sz(count), map, true);
  red.apply(in.data(), inout.data());
  inout.store();
  return TMPI_SUCCESS;
}

int TMPI_Op_commutative(TMPI_Op op, int* commute) {
  Subrank* me = enter("MPI_Op_commutative");
  if (!op_name(op)) return mpi_error(me, TMPI_COMM_WORLD, TMPI_ERR_OP, "MPI_Op_commutative", "invalid operation %d", op);
  bool c = true;
  user_op(op, &c);
  *commute = c;
  return TMPI_SUCCESS;
}

int TMPI_Op_create(TMPI_User_function* function, int commute, TMPI_Op* op) {
  enter("MPI_Op_create");
  *op = create_user_op(function, commute != 0);
  return TMPI_SUCCESS;
}

int TMPI_Op_free(TMPI_Op* op) {
  Subrank* me = enter("MPI_Op_free");
  if (!free_user_op(*op)) return mpi_error(me, TMPI_COMM_WORLD, TMPI_ERR_OP, "MPI_Op_free", "not a user operation");
  *op = TMPI_OP_NULL;
  return TMPI_SUCCESS;
}

}  // extern "C"
