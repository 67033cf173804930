// The collective calls on a resolved Call (coll/calls.h): each checks
// its arguments, lays the user's buffers out as contiguous bytes, runs an
// algorithm and reports the first error through the communicator's error
// handler. The simple algorithms (linear v-variants, all pairs at once,
// the scan chain, the neighbourhood exchange) are written out here; the
// others are in coll/algorithms.cc.
//
// Layer: the calls. They may call the algorithms (coll/algorithms.h),
// the framework (coll/framework.h) and, on an intercommunicator, the inter_*
// calls (intercomm.cc); they never call an entry point. Called by the
// blocking entry points (coll/entry_points.cc) and the non-blocking ones
// (nonblocking.cc).
#include <tucana/tmpi.h>

#include <algorithm>
#include <climits>
#include <cstring>
#include <memory>
#include <vector>

#include "mpi/coll/framework.h"
#include "mpi/coll/algorithms.h"
#include "mpi/coll/calls.h"
#include "mpi/datatype/datatype.h"

namespace tucana::mpi {

namespace {
std::size_t sz(int i) { return static_cast<std::size_t>(i); }

// The argument checks of a rooted gather or scatter, in MPI's order: the
// root; this rank's own part (`own_count` elements of `own_type`) unless it
// is MPI_IN_PLACE at the root; at the root, the part of each rank
// (`root_counts[i]` elements of `root_type` for i < `root_parts`: the one
// count of MPI_Gather/MPI_Scatter, or the per-rank counts of the v forms).
int check_rooted(const Call& call, int root, bool in_place, int own_count, TMPI_Datatype own_type,
                 TypeMapPtr* own_map, const int root_counts[], int root_parts, TMPI_Datatype root_type,
                 TypeMapPtr* root_map) {
  if (int e = check_root(call, root)) return e;
  if (!in_place)
    if (int e = check_part(call.me, call.comm, call.name, own_count, own_type, own_map)) return e;
  if (call.info.rank == root)
    for (int i = 0; i < root_parts; ++i)
      if (int e = check_part(call.me, call.comm, call.name, root_counts[i], root_type, root_map)) return e;
  return TMPI_SUCCESS;
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
  Reduction red;
  if (int e = check_reduction(call, count, type, op, &map, &bytes, &red)) return e;
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
  Reduction red;
  if (int e = check_reduction(call, count, type, op, &map, &bytes, &red)) return e;
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
  const CommInfo& ci = call.info;
  bool in_place = sendbuf == TMPI_IN_PLACE && ci.rank == root;
  TypeMapPtr smap, rmap;
  if (int e = check_rooted(call, root, in_place, scount, stype, &smap, rcounts, ci.size, rtype, &rmap)) return e;
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
  const CommInfo& ci = call.info;
  bool in_place = sendbuf == TMPI_IN_PLACE && ci.rank == root;
  TypeMapPtr smap, rmap;
  if (int e = check_rooted(call, root, in_place, scount, stype, &smap, &rcount, 1, rtype, &rmap)) return e;
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
  const CommInfo& ci = call.info;
  bool in_place = recvbuf == TMPI_IN_PLACE && ci.rank == root;
  TypeMapPtr smap, rmap;
  if (int e = check_rooted(call, root, in_place, rcount, rtype, &rmap, scounts, ci.size, stype, &smap)) return e;
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
  const CommInfo& ci = call.info;
  bool in_place = recvbuf == TMPI_IN_PLACE && ci.rank == root;
  TypeMapPtr smap, rmap;
  if (int e = check_rooted(call, root, in_place, rcount, rtype, &rmap, &scount, 1, stype, &smap)) return e;
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
  Reduction red;
  if (int e = check_reduction(call, count, type, op, &map, &bytes, &red)) return e;
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
  Reduction red;
  if (int e = check_reduction(call, total, type, op, &map, &bytes, &red)) return e;
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
