// Collectives on intercommunicators (MPI 3.1 section 5.2.2), built on the
// intracommunicator algorithms: a Call of begin_call describes the local
// group, view_call gives the remote group and the union of both groups,
// all in the intercommunicator's collective context.
//
// Every member of both groups uses the same sequence numbers for a call
// (begin_call draws kInterViews of them whatever the member's role, in
// program order, also for the non-blocking forms), so the messages of
// consecutive calls never meet. A rooted call moves its data
// between the root and the other group's rank 0 (the leader), which works
// with its own group by an intracommunicator algorithm; an all-to-all call
// moves each group's data between the leaders.
#include <tucana/tmpi.h>

#include <cassert>
#include <cstring>
#include <memory>
#include <vector>

#include "mpi/coll/calls.h"
#include "mpi/datatype/datatype.h"

namespace tucana::mpi {

namespace {

std::size_t sz(int i) { return static_cast<std::size_t>(i); }

// The views of one call on an intercommunicator.
struct InterCalls {
  explicit InterCalls(const Call& call)
      : local(call),
        remote(view_call_at(call, call.info.comm->remote.get(), TMPI_UNDEFINED, 1)),
        local2(view_call_at(call, call.info.comm, call.info.rank, 2)),
        both(view_call_at(call, call.info.comm->merged.get(), call.info.comm->merged->rank, 3)) {}
  const Call& local;  // the local group, first step
  Call remote;        // the remote group (send to and receive from its ranks)
  Call local2;        // the local group, last step
  Call both;          // the union of both groups
};

// Checks a root argument on an intercommunicator: MPI_ROOT, MPI_PROC_NULL,
// or a rank of the remote group.
int check_inter_root(const Call& c, int root) {
  if (root == TMPI_ROOT || root == TMPI_PROC_NULL) return TMPI_SUCCESS;
  int n = c.info.comm->remote->size;
  if (root < 0 || root >= n)
    return mpi_error(c.me, c.comm, TMPI_ERR_ROOT, c.name,
                     "invalid root %d on an intercommunicator (MPI_ROOT at the root, MPI_PROC_NULL at the rest of "
                     "its group, the root's rank in the remote group, 0 to %d, at the other group)",
                     root, n - 1);
  return TMPI_SUCCESS;
}

// The checks of MPI_Bcast's and MPI_Reduce's arguments on an
// intercommunicator: the root, then the buffer of `count` elements of
// `type` (sets *map and *bytes) unless `root` is MPI_PROC_NULL, which has
// nothing to check or do.
int check_rooted_buffer(const Call& c, int root, int count, TMPI_Datatype type, TypeMapPtr* map,
                        std::size_t* bytes) {
  if (int e = check_inter_root(c, root)) return e;
  if (root == TMPI_PROC_NULL) return TMPI_SUCCESS;
  return check_buffer(c.me, c.comm, c.name, count, type, map, bytes);
}

int no_in_place(const Call& c, const void* buf) {
  if (buf != TMPI_IN_PLACE) return TMPI_SUCCESS;
  return mpi_error(c.me, c.comm, TMPI_ERR_BUFFER, c.name, "MPI_IN_PLACE is not valid on an intercommunicator");
}

// The argument checks of MPI_Allgather and MPI_Alltoall on an
// intercommunicator, in this order: no MPI_IN_PLACE, the send part, the
// receive part.
int check_uniform(const Call& call, const void* sendbuf, int scount, TMPI_Datatype stype, TypeMapPtr* smap,
                  int rcount, TMPI_Datatype rtype, TypeMapPtr* rmap) {
  if (int e = no_in_place(call, sendbuf)) return e;
  if (int e = check_part(call.me, call.comm, call.name, scount, stype, smap)) return e;
  return check_part(call.me, call.comm, call.name, rcount, rtype, rmap);
}

// The first error of a sequence of steps (every step still runs, so that
// the other members do not hang).
int first_error(int a, int b) { return a ? a : b; }

// This group's reduction of `in` into `acc` at its rank 0, in its rank
// order: the first step of every reduction on an intercommunicator.
int reduce_in_group(InterCalls& v, const void* in, void* acc, const Reduction& red, std::size_t bytes) {
  Collective c(v.local);
  reduce(c, in, acc, red, 0, bytes);
  return finish(c);
}

// The leaders (rank 0 of each group) swap `out` for the other group's `in`;
// the other ranks do nothing. Returns `err`, the error so far, if set, else
// the swap's.
int swap_at_leaders(InterCalls& v, const void* out, std::size_t out_bytes, void* in, std::size_t in_bytes, int kind,
                    int err) {
  if (v.local.info.rank != 0) return err;
  Collective c(v.remote);
  c.sendrecv(out, out_bytes, 0, in, in_bytes, 0, kind);
  return first_error(err, finish(c));
}

// Which way the data of a rooted call goes between the root and the other
// group: to the root (MPI_Gatherv) or from it (MPI_Scatterv).
enum class Flow { kGather, kScatter };

// The root's side: block i is `counts[i]` elements of `type` at element
// `displs[i]` of `buf`, received from (gather) or sent to (scatter) rank i
// of the remote group; every part is checked first.
int root_side(const Call& call, InterCalls& v, const void* buf, const int counts[], const int displs[],
              TMPI_Datatype type, Flow flow) {
  const bool gather = flow == Flow::kGather;
  const int n = call.info.comm->remote->size;
  std::vector<std::unique_ptr<Piece>> blocks;
  for (int i = 0; i < n; ++i) {
    TypeMapPtr map;
    if (int e = check_part(call.me, call.comm, call.name, counts[i], type, &map)) return e;
    blocks.push_back(std::make_unique<Piece>(buf, displs[i], sz(counts[i]), map, !gather));
  }
  Collective c(v.remote);
  Exchange x(c);
  for (int i = 0; i < n; ++i) {
    Piece& b = *blocks[sz(i)];
    if (gather)
      x.recv(b.data(), b.bytes(), i, kTagGather);
    else
      x.send(b.data(), b.bytes(), i, kTagScatter);
  }
  x.wait();
  if (gather)
    for (auto& b : blocks) b->store();
  return finish(c);
}

// The side of a rank of the other group: its `count` elements of `type` at
// `buf` go to (gather) or come from (scatter) the root, rank `root` of the
// remote group.
int member_side(const Call& call, InterCalls& v, const void* buf, int count, TMPI_Datatype type, int root, Flow flow) {
  const bool gather = flow == Flow::kGather;
  TypeMapPtr map;
  if (int e = check_part(call.me, call.comm, call.name, count, type, &map)) return e;
  if (int e = no_in_place(call, buf)) return e;
  Piece mine(buf, 0, sz(count), map, gather);
  Collective c(v.remote);
  if (gather) {
    c.send(mine.data(), mine.bytes(), root, kTagGather);
  } else {
    c.recv(mine.data(), mine.bytes(), root, kTagScatter);
    mine.store();
  }
  return finish(c);
}

// One block to and one from every rank of the remote group, sent in a
// rotating order. `out[i]` / `in[i]`: the blocks for / from remote rank i.
int exchange_with_remote(InterCalls& v, std::vector<std::unique_ptr<Piece>>& out,
                         std::vector<std::unique_ptr<Piece>>& in, int kind) {
  const int n = static_cast<int>(in.size());
  assert(out.size() == in.size());
  Collective c(v.remote);
  Exchange x(c);
  for (int i = 0; i < n; ++i) x.recv(in[sz(i)]->data(), in[sz(i)]->bytes(), i, kind);
  for (int k = 0; k < n; ++k) {
    int to = (v.local.info.rank + k) % n;
    x.send(out[sz(to)]->data(), out[sz(to)]->bytes(), to, kind);
  }
  x.wait();
  for (auto& p : in) p->store();
  return finish(c);
}

}  // namespace

int inter_barrier(const Call& call) {
  InterCalls v(call);
  Collective c(v.both);  // nobody leaves before every member of both groups came
  barrier(c);
  return finish(c);
}

int inter_bcast(const Call& call, void* buffer, int count, TMPI_Datatype type, int root) {
  InterCalls v(call);
  std::size_t bytes;
  TypeMapPtr map;
  if (int e = check_rooted_buffer(call, root, count, type, &map, &bytes)) return e;
  if (root == TMPI_PROC_NULL) return TMPI_SUCCESS;
  if (root == TMPI_ROOT) {
    Collective c(v.remote);
    Flat flat(buffer, sz(count), map, true);
    c.send(flat.data(), bytes, 0, kTagBcast);
    return finish(c);
  }
  Flat flat(buffer, sz(count), map, false);
  int err = TMPI_SUCCESS;
  if (call.info.rank == 0) {
    Collective c(v.remote);
    c.recv(flat.data(), bytes, root, kTagBcast);
    err = finish(c);
  }
  Collective c(v.local2);
  bcast(c, flat.data(), bytes, 0);
  flat.store();
  return first_error(err, finish(c));
}

int inter_reduce(const Call& call, const void* sendbuf, void* recvbuf, int count, TMPI_Datatype type, TMPI_Op op,
                 int root) {
  InterCalls v(call);
  std::size_t bytes;
  TypeMapPtr map;
  if (int e = check_rooted_buffer(call, root, count, type, &map, &bytes)) return e;
  if (root == TMPI_PROC_NULL) return TMPI_SUCCESS;
  if (root == TMPI_ROOT) {
    Flat out(recvbuf, sz(count), map, false);
    Collective c(v.remote);
    c.recv(out.data(), bytes, 0, kTagReduce);
    out.store();
    return finish(c);
  }
  Reduction red;
  if (int e = make_reduction(call.me, call.comm, call.name, op, type, count, map, &red)) return e;
  if (int e = no_in_place(call, sendbuf)) return e;
  Flat in(sendbuf, sz(count), map, true);
  std::vector<char> acc(bytes);
  int err = reduce_in_group(v, in.data(), acc.data(), red, bytes);
  if (call.info.rank != 0) return err;
  Collective c(v.remote);
  c.send(acc.data(), bytes, root, kTagReduce);
  return first_error(err, finish(c));
}

int inter_allreduce(const Call& call, const void* sendbuf, void* recvbuf, int count, TMPI_Datatype type, TMPI_Op op) {
  InterCalls v(call);
  std::size_t bytes;
  TypeMapPtr map;
  Reduction red;
  if (int e = check_reduction(call, count, type, op, &map, &bytes, &red)) return e;
  if (int e = no_in_place(call, sendbuf)) return e;
  Flat in(sendbuf, sz(count), map, true);
  Flat out(recvbuf, sz(count), map, false);
  std::vector<char> acc(bytes);
  int err = reduce_in_group(v, in.data(), acc.data(), red, bytes);
  err = swap_at_leaders(v, acc.data(), bytes, out.data(), bytes, kTagAllreduce, err);  // the groups' results
  Collective c(v.local2);
  bcast(c, out.data(), bytes, 0);
  out.store();
  return first_error(err, finish(c));
}

// MPI_Gather and MPI_Scatter are their v forms with equal blocks, one
// after another (the counts and displacements matter at the root only).
int inter_gather(const Call& call, const void* sendbuf, int scount, TMPI_Datatype stype, void* recvbuf, int rcount,
                 TMPI_Datatype rtype, int root) {
  const int n = call.info.comm->remote->size;
  std::vector<int> counts = uniform_counts(n, rcount), displs = strided_displs(n, rcount);
  return inter_gatherv(call, sendbuf, scount, stype, recvbuf, counts.data(), displs.data(), rtype, root);
}

int inter_scatter(const Call& call, const void* sendbuf, int scount, TMPI_Datatype stype, void* recvbuf, int rcount,
                  TMPI_Datatype rtype, int root) {
  const int n = call.info.comm->remote->size;
  std::vector<int> counts = uniform_counts(n, scount), displs = strided_displs(n, scount);
  return inter_scatterv(call, sendbuf, counts.data(), displs.data(), stype, recvbuf, rcount, rtype, root);
}

int inter_allgather(const Call& call, const void* sendbuf, int scount, TMPI_Datatype stype, void* recvbuf, int rcount,
                    TMPI_Datatype rtype) {
  InterCalls v(call);
  TypeMapPtr smap, rmap;
  if (int e = check_uniform(call, sendbuf, scount, stype, &smap, rcount, rtype, &rmap)) return e;
  const int n = call.info.comm->remote->size;
  Piece mine(sendbuf, 0, sz(scount), smap, true);
  const std::size_t block = mine.bytes(), rblock = sz(rcount) * rmap->size;
  std::vector<char> ours(sz(call.info.size) * block), theirs(sz(n) * rblock);
  int err;
  {
    Collective c(v.local);
    allgather(c, mine.data(), ours.data(), block);
    err = finish(c);
  }
  err = swap_at_leaders(v, ours.data(), ours.size(), theirs.data(), theirs.size(), kTagAllgather, err);
  Collective c(v.local2);
  bcast(c, theirs.data(), theirs.size(), 0);
  if (rcount)
    for (int i = 0; i < n; ++i)
      unpack(theirs.data() + sz(i) * rblock, sz(rcount), *rmap,
             static_cast<char*>(recvbuf) + static_cast<std::ptrdiff_t>(i) * rcount * rmap->extent());
  return first_error(err, finish(c));
}

int inter_alltoall(const Call& call, const void* sendbuf, int scount, TMPI_Datatype stype, void* recvbuf, int rcount,
                   TMPI_Datatype rtype) {
  InterCalls v(call);
  TypeMapPtr smap, rmap;
  if (int e = check_uniform(call, sendbuf, scount, stype, &smap, rcount, rtype, &rmap)) return e;
  const int n = call.info.comm->remote->size;
  std::vector<std::unique_ptr<Piece>> out, in;
  for (int i = 0; i < n; ++i) {
    out.push_back(std::make_unique<Piece>(sendbuf, static_cast<std::ptrdiff_t>(i) * scount, sz(scount), smap, true));
    in.push_back(std::make_unique<Piece>(recvbuf, static_cast<std::ptrdiff_t>(i) * rcount, sz(rcount), rmap, false));
  }
  return exchange_with_remote(v, out, in, kTagAlltoall);
}

int inter_alltoallw(const Call& call, const void* sendbuf, const int scounts[], const int sdispls[],
                    const TMPI_Datatype stypes[], void* recvbuf, const int rcounts[], const int rdispls[],
                    const TMPI_Datatype rtypes[], bool byte_displacements) {
  InterCalls v(call);
  if (int e = no_in_place(call, sendbuf)) return e;
  const int n = call.info.comm->remote->size;
  std::vector<std::unique_ptr<Piece>> out, in;
  for (int i = 0; i < n; ++i) {
    TypeMapPtr smap, rmap;
    if (int e = check_part(call.me, call.comm, call.name, scounts[i], stypes[i], &smap)) return e;
    if (int e = check_part(call.me, call.comm, call.name, rcounts[i], rtypes[i], &rmap)) return e;
    if (byte_displacements) {
      out.push_back(Piece::at_bytes(sendbuf, sdispls[i], sz(scounts[i]), smap, true));
      in.push_back(Piece::at_bytes(recvbuf, rdispls[i], sz(rcounts[i]), rmap, false));
    } else {
      out.push_back(std::make_unique<Piece>(sendbuf, sdispls[i], sz(scounts[i]), smap, true));
      in.push_back(std::make_unique<Piece>(recvbuf, rdispls[i], sz(rcounts[i]), rmap, false));
    }
  }
  return exchange_with_remote(v, out, in, kTagAlltoall);
}

int inter_allgatherv(const Call& call, const void* sendbuf, int scount, TMPI_Datatype stype, void* recvbuf,
                     const int rcounts[], const int displs[], TMPI_Datatype rtype) {
  InterCalls v(call);
  TypeMapPtr smap, rmap;
  if (int e = no_in_place(call, sendbuf)) return e;
  if (int e = check_part(call.me, call.comm, call.name, scount, stype, &smap)) return e;
  const int n = call.info.comm->remote->size;
  std::vector<std::unique_ptr<Piece>> out, in;
  for (int i = 0; i < n; ++i) {
    if (int e = check_part(call.me, call.comm, call.name, rcounts[i], rtype, &rmap)) return e;
    out.push_back(std::make_unique<Piece>(sendbuf, 0, sz(scount), smap, true));  // the same block to everyone
    in.push_back(std::make_unique<Piece>(recvbuf, displs[i], sz(rcounts[i]), rmap, false));
  }
  return exchange_with_remote(v, out, in, kTagAllgather);
}

int inter_gatherv(const Call& call, const void* sendbuf, int scount, TMPI_Datatype stype, void* recvbuf,
                  const int rcounts[], const int displs[], TMPI_Datatype rtype, int root) {
  InterCalls v(call);
  if (int e = check_inter_root(call, root)) return e;
  if (root == TMPI_PROC_NULL) return TMPI_SUCCESS;
  if (root == TMPI_ROOT) return root_side(call, v, recvbuf, rcounts, displs, rtype, Flow::kGather);
  return member_side(call, v, sendbuf, scount, stype, root, Flow::kGather);
}

int inter_scatterv(const Call& call, const void* sendbuf, const int scounts[], const int displs[],
                   TMPI_Datatype stype, void* recvbuf, int rcount, TMPI_Datatype rtype, int root) {
  InterCalls v(call);
  if (int e = check_inter_root(call, root)) return e;
  if (root == TMPI_PROC_NULL) return TMPI_SUCCESS;
  if (root == TMPI_ROOT) return root_side(call, v, sendbuf, scounts, displs, stype, Flow::kScatter);
  return member_side(call, v, recvbuf, rcount, rtype, root, Flow::kScatter);
}

int inter_reduce_scatter(const Call& call, const void* sendbuf, void* recvbuf, const int rcounts[],
                         TMPI_Datatype type, TMPI_Op op) {
  InterCalls v(call);
  const int n = call.info.size;
  int total = 0;
  for (int i = 0; i < n; ++i) {
    if (rcounts[i] < 0)
      return mpi_error(call.me, call.comm, TMPI_ERR_COUNT, call.name, "negative count %d for rank %d", rcounts[i], i);
    total += rcounts[i];
  }
  std::size_t bytes;
  TypeMapPtr map;
  Reduction red;
  if (int e = check_reduction(call, total, type, op, &map, &bytes, &red)) return e;
  if (int e = no_in_place(call, sendbuf)) return e;
  Flat in(sendbuf, sz(total), map, true);
  std::vector<char> acc(bytes), theirs(bytes);
  int err = reduce_in_group(v, in.data(), acc.data(), red, bytes);
  err = swap_at_leaders(v, acc.data(), bytes, theirs.data(), bytes, kTagAllreduce, err);  // the groups' reductions
  // The other group's reduction, scattered over this group by rcounts.
  const std::size_t element = map->size;
  Piece mine(recvbuf, 0, sz(rcounts[call.info.rank]), map, false);
  Collective c(v.local2);
  Exchange x(c);
  if (call.info.rank == 0) {
    std::size_t at = 0;
    for (int i = 0; i < n; ++i) {
      if (i == 0)
        std::memcpy(mine.data(), theirs.data(), sz(rcounts[0]) * element);
      else
        x.send(theirs.data() + at, sz(rcounts[i]) * element, i, kTagScatter);
      at += sz(rcounts[i]) * element;
    }
  } else {
    x.recv(mine.data(), mine.bytes(), 0, kTagScatter);
  }
  x.wait();
  mine.store();
  return first_error(err, finish(c));
}

}  // namespace tucana::mpi
