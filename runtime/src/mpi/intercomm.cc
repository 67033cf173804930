// Collectives on intercommunicators (MPI 3.1 section 5.2.2), built on the
// intracommunicator algorithms: a Call of begin_call describes the local
// group, view_call gives the remote group and the union of both groups,
// all in the intercommunicator's collective context.
//
// Every member of both groups draws the same sequence numbers for a call
// (InterCalls draws three more whatever the member's role), so the
// messages of consecutive calls never meet. A rooted call moves its data
// between the root and the other group's rank 0 (the leader), which works
// with its own group by an intracommunicator algorithm; an all-to-all call
// moves each group's data between the leaders.
#include <tucana/tmpi.h>

#include <cstring>
#include <memory>
#include <vector>

#include "mpi/collectives_api.h"
#include "mpi/datatype.h"

namespace tucana::mpi {

namespace {

std::size_t sz(int i) { return static_cast<std::size_t>(i); }

// The views of one call on an intercommunicator.
struct InterCalls {
  explicit InterCalls(const Call& call)
      : local(call),
        remote(view_call(call, call.info.comm->remote.get(), TMPI_UNDEFINED)),
        local2(view_call(call, call.info.comm, call.info.rank)),
        both(view_call(call, call.info.comm->merged.get(), call.info.comm->merged->rank)) {}
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

int no_in_place(const Call& c, const void* buf) {
  if (buf != TMPI_IN_PLACE) return TMPI_SUCCESS;
  return mpi_error(c.me, c.comm, TMPI_ERR_BUFFER, c.name, "MPI_IN_PLACE is not valid on an intercommunicator");
}

// The first error of a sequence of steps (every step still runs, so that
// the other members do not hang).
int first_error(int a, int b) { return a ? a : b; }

}  // namespace

int inter_barrier(const Call& call) {
  InterCalls v(call);
  Collective c(v.both);  // nobody leaves before every member of both groups came
  barrier(c);
  return finish(c);
}

int inter_bcast(const Call& call, void* buffer, int count, TMPI_Datatype type, int root) {
  InterCalls v(call);
  if (int e = check_inter_root(call, root)) return e;
  if (root == TMPI_PROC_NULL) return TMPI_SUCCESS;
  std::size_t bytes;
  TypeMapPtr map;
  if (int e = check_buffer(call.me, call.comm, call.name, count, type, &map, &bytes)) return e;
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
  if (int e = check_inter_root(call, root)) return e;
  if (root == TMPI_PROC_NULL) return TMPI_SUCCESS;
  std::size_t bytes;
  TypeMapPtr map;
  if (int e = check_buffer(call.me, call.comm, call.name, count, type, &map, &bytes)) return e;
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
  int err;
  {
    Collective c(v.local);  // the group's reduction, in its rank order, at its rank 0
    reduce(c, in.data(), acc.data(), red, 0, bytes);
    err = finish(c);
  }
  if (call.info.rank != 0) return err;
  Collective c(v.remote);
  c.send(acc.data(), bytes, root, kTagReduce);
  return first_error(err, finish(c));
}

int inter_allreduce(const Call& call, const void* sendbuf, void* recvbuf, int count, TMPI_Datatype type, TMPI_Op op) {
  InterCalls v(call);
  std::size_t bytes;
  TypeMapPtr map;
  if (int e = check_buffer(call.me, call.comm, call.name, count, type, &map, &bytes)) return e;
  Reduction red;
  if (int e = make_reduction(call.me, call.comm, call.name, op, type, count, map, &red)) return e;
  if (int e = no_in_place(call, sendbuf)) return e;
  Flat in(sendbuf, sz(count), map, true);
  Flat out(recvbuf, sz(count), map, false);
  std::vector<char> acc(bytes);
  int err;
  {
    Collective c(v.local);
    reduce(c, in.data(), acc.data(), red, 0, bytes);
    err = finish(c);
  }
  if (call.info.rank == 0) {  // the leaders swap their groups' results
    Collective c(v.remote);
    c.sendrecv(acc.data(), bytes, 0, out.data(), bytes, 0, kTagAllreduce);
    err = first_error(err, finish(c));
  }
  Collective c(v.local2);
  bcast(c, out.data(), bytes, 0);
  out.store();
  return first_error(err, finish(c));
}

int inter_gather(const Call& call, const void* sendbuf, int scount, TMPI_Datatype stype, void* recvbuf, int rcount,
                 TMPI_Datatype rtype, int root) {
  InterCalls v(call);
  if (int e = check_inter_root(call, root)) return e;
  if (root == TMPI_PROC_NULL) return TMPI_SUCCESS;
  TypeMapPtr map;
  if (root == TMPI_ROOT) {
    if (int e = check_part(call.me, call.comm, call.name, rcount, rtype, &map)) return e;
    const int n = call.info.comm->remote->size;
    std::vector<std::unique_ptr<Piece>> blocks;
    Collective c(v.remote);
    Exchange x(c);
    for (int i = 0; i < n; ++i) {
      const std::ptrdiff_t at = static_cast<std::ptrdiff_t>(i) * rcount;
      blocks.push_back(std::make_unique<Piece>(recvbuf, at, sz(rcount), map, false));
      x.recv(blocks.back()->data(), blocks.back()->bytes(), i, kTagGather);
    }
    x.wait();
    for (auto& b : blocks) b->store();
    return finish(c);
  }
  if (int e = check_part(call.me, call.comm, call.name, scount, stype, &map)) return e;
  if (int e = no_in_place(call, sendbuf)) return e;
  Piece mine(sendbuf, 0, sz(scount), map, true);
  Collective c(v.remote);
  c.send(mine.data(), mine.bytes(), root, kTagGather);
  return finish(c);
}

int inter_scatter(const Call& call, const void* sendbuf, int scount, TMPI_Datatype stype, void* recvbuf, int rcount,
                  TMPI_Datatype rtype, int root) {
  InterCalls v(call);
  if (int e = check_inter_root(call, root)) return e;
  if (root == TMPI_PROC_NULL) return TMPI_SUCCESS;
  TypeMapPtr map;
  if (root == TMPI_ROOT) {
    if (int e = check_part(call.me, call.comm, call.name, scount, stype, &map)) return e;
    const int n = call.info.comm->remote->size;
    std::vector<std::unique_ptr<Piece>> blocks;
    Collective c(v.remote);
    Exchange x(c);
    for (int i = 0; i < n; ++i) {
      const std::ptrdiff_t at = static_cast<std::ptrdiff_t>(i) * scount;
      blocks.push_back(std::make_unique<Piece>(sendbuf, at, sz(scount), map, true));
      x.send(blocks.back()->data(), blocks.back()->bytes(), i, kTagScatter);
    }
    x.wait();
    return finish(c);
  }
  if (int e = check_part(call.me, call.comm, call.name, rcount, rtype, &map)) return e;
  if (int e = no_in_place(call, recvbuf)) return e;
  Piece mine(recvbuf, 0, sz(rcount), map, false);
  Collective c(v.remote);
  c.recv(mine.data(), mine.bytes(), root, kTagScatter);
  mine.store();
  return finish(c);
}

int inter_allgather(const Call& call, const void* sendbuf, int scount, TMPI_Datatype stype, void* recvbuf, int rcount,
                    TMPI_Datatype rtype) {
  InterCalls v(call);
  TypeMapPtr smap, rmap;
  if (int e = no_in_place(call, sendbuf)) return e;
  if (int e = check_part(call.me, call.comm, call.name, scount, stype, &smap)) return e;
  if (int e = check_part(call.me, call.comm, call.name, rcount, rtype, &rmap)) return e;
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
  if (call.info.rank == 0) {
    Collective c(v.remote);
    c.sendrecv(ours.data(), ours.size(), 0, theirs.data(), theirs.size(), 0, kTagAllgather);
    err = first_error(err, finish(c));
  }
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
  if (int e = no_in_place(call, sendbuf)) return e;
  if (int e = check_part(call.me, call.comm, call.name, scount, stype, &smap)) return e;
  if (int e = check_part(call.me, call.comm, call.name, rcount, rtype, &rmap)) return e;
  const int n = call.info.comm->remote->size;
  std::vector<std::unique_ptr<Piece>> out, in;
  for (int i = 0; i < n; ++i) {
    out.push_back(std::make_unique<Piece>(sendbuf, static_cast<std::ptrdiff_t>(i) * scount, sz(scount), smap, true));
    in.push_back(std::make_unique<Piece>(recvbuf, static_cast<std::ptrdiff_t>(i) * rcount, sz(rcount), rmap, false));
  }
  Collective c(v.remote);
  Exchange x(c);
  for (int i = 0; i < n; ++i) x.recv(in[sz(i)]->data(), in[sz(i)]->bytes(), i, kTagAlltoall);
  for (int k = 0; k < n; ++k) {  // a rotating order spreads the traffic
    int to = (call.info.rank + k) % n;
    x.send(out[sz(to)]->data(), out[sz(to)]->bytes(), to, kTagAlltoall);
  }
  x.wait();
  for (auto& p : in) p->store();
  return finish(c);
}

}  // namespace tucana::mpi
