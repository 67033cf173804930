// The collectives every program needs (Barrier, Bcast, Reduce, Allreduce),
// built on subrank point-to-point messages in the communicator's collective
// context, as in Bamboo's utility layer. The algorithms depend only on the
// communicator size and the root, never on how subranks map to processes,
// so a reduction gives the same bits at every virtualization factor.
#include <tucana/tmpi.h>

#include <cstring>
#include <vector>

#include "mpi/datatype.h"
#include "mpi/errors.h"
#include "mpi/request.h"

using namespace tucana;
using namespace tucana::mpi;

namespace {

enum CollectiveTag : int { kTagBarrier = 1, kTagBcast = 2, kTagReduce = 3 };

// One collective call in progress on one subrank.
struct Collective {
  Subrank* me;
  TMPI_Comm comm;
  CommInfo info;
  const char* call;

  Collective(Subrank* s, TMPI_Comm c, const CommInfo& ci, const char* name)
      : me(s), comm(c), info(ci), call(name) {
    if (!me->blocked.call) {
      me->blocked = BlockedIn{call, call, "source", TMPI_PROC_NULL, 0, comm};
      marked = true;
    }
  }
  ~Collective() {
    if (marked) me->blocked.call = nullptr;
  }
  Collective(const Collective&) = delete;
  Collective& operator=(const Collective&) = delete;

  void prepare(Request* r, comm::Operation::Kind kind, const void* buf, std::size_t bytes, int rank, int tag) {
    r->heap = false;
    init_request(r, me, kind, const_cast<void*>(buf), bytes, to_world(me, comm, rank), tag, info.coll_ctx);
    r->origin = kind == comm::Operation::Kind::Send ? "a send of the collective" : "a receive of the collective";
    r->comm = comm;
    r->peer_rank = rank;
  }
  void send(const void* buf, std::size_t bytes, int rank, int tag) {
    Request r;
    prepare(&r, comm::Operation::Kind::Send, buf, bytes, rank, tag);
    r.eager_ok = true;
    start_request(&r);
    note_peer("dest", rank, tag);
    wait_done(me, &r, call);
  }
  void recv(void* buf, std::size_t bytes, int rank, int tag) {
    Request r;
    prepare(&r, comm::Operation::Kind::Recv, buf, bytes, rank, tag);
    start_request(&r);
    note_peer("source", rank, tag);
    wait_done(me, &r, call);
  }

 private:
  // Records which message of the collective the subrank waits for.
  void note_peer(const char* label, int rank, int tag) {
    if (!marked) return;
    me->blocked.op = label[0] == 'd' ? "a send of the collective" : "a receive of the collective";
    me->blocked.peer_label = label;
    me->blocked.peer = rank;
    me->blocked.tag = tag;
  }

  bool marked = false;
};

bool begin(const char* call, TMPI_Comm comm, Subrank** me, CommInfo* ci, int* err) {
  *me = enter(call);
  if (!comm_info(*me, comm, ci)) {
    *err = mpi_error(*me, TMPI_COMM_WORLD, TMPI_ERR_COMM, call, "invalid communicator %d", comm);
    return false;
  }
  return true;
}

int check_buffer(Subrank* me, TMPI_Comm comm, const char* call, int count, TMPI_Datatype type,
                 std::size_t* bytes) {
  if (count < 0) return mpi_error(me, comm, TMPI_ERR_COUNT, call, "negative count %d", count);
  const TypeInfo* t = type_info(type);
  if (!t) return mpi_error(me, comm, TMPI_ERR_TYPE, call, "invalid datatype %d", type);
  *bytes = static_cast<std::size_t>(count) * t->size;
  return TMPI_SUCCESS;
}

int check_op(Subrank* me, TMPI_Comm comm, const char* call, TMPI_Op op, TMPI_Datatype type) {
  if (!op_name(op)) return mpi_error(me, comm, TMPI_ERR_OP, call, "invalid operation %d", op);
  if (!apply_op(op, type, nullptr, nullptr, 0))
    return mpi_error(me, comm, TMPI_ERR_OP, call, "%s is not defined on %s", op_name(op), type_info(type)->name);
  return TMPI_SUCCESS;
}

// Dissemination barrier: ceil(log2 N) rounds of empty messages.
void barrier(Collective& c) {
  int n = c.info.size, r = c.info.rank;
  for (int k = 1; k < n; k <<= 1) {
    Request s;
    c.prepare(&s, comm::Operation::Kind::Send, nullptr, 0, (r + k) % n, kTagBarrier);
    s.eager_ok = true;
    start_request(&s);
    c.recv(nullptr, 0, (r - k + n) % n, kTagBarrier);
    // (the send is eager: a zero-byte message never waits for its receiver)
    wait_done(c.me, &s, c.call);
  }
}

// Binomial tree broadcast.
void bcast(Collective& c, void* buf, std::size_t bytes, int root) {
  int n = c.info.size, r = c.info.rank;
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

// Binomial tree reduction to `root`. Each node combines in rank order
// (lower relative rank as the left operand), so the result depends only on
// the communicator size and root.
void reduce(Collective& c, const void* sendbuf, void* recvbuf, int count, TMPI_Datatype type,
            TMPI_Op op, int root, std::size_t bytes) {
  int n = c.info.size, r = c.info.rank;
  int vr = (r - root + n) % n;
  std::vector<char> acc(static_cast<const char*>(sendbuf), static_cast<const char*>(sendbuf) + bytes);
  std::vector<char> tmp(bytes);
  for (int mask = 1; mask < n; mask <<= 1) {
    if ((vr & mask) == 0) {
      int src = vr | mask;
      if (src < n) {
        c.recv(tmp.data(), bytes, (src + root) % n, kTagReduce);
        apply_op(op, type, acc.data(), tmp.data(), static_cast<std::size_t>(count));
        acc.swap(tmp);
      }
    } else {
      c.send(acc.data(), bytes, ((vr & ~mask) + root) % n, kTagReduce);
      return;
    }
  }
  if (bytes) std::memcpy(recvbuf, acc.data(), bytes);
}

}  // namespace

extern "C" {

int TMPI_Barrier(TMPI_Comm comm) {
  Subrank* me;
  CommInfo ci;
  int err;
  if (!begin("MPI_Barrier", comm, &me, &ci, &err)) return err;
  Collective c(me, comm, ci, "MPI_Barrier");
  barrier(c);
  return TMPI_SUCCESS;
}

int TMPI_Bcast(void* buffer, int count, TMPI_Datatype type, int root, TMPI_Comm comm) {
  const char* call = "MPI_Bcast";
  Subrank* me;
  CommInfo ci;
  int err;
  if (!begin(call, comm, &me, &ci, &err)) return err;
  std::size_t bytes;
  if (int e = check_buffer(me, comm, call, count, type, &bytes)) return e;
  if (root < 0 || root >= ci.size)
    return mpi_error(me, comm, TMPI_ERR_ROOT, call, "invalid root %d (%s has ranks 0 to %d)", root, comm_name(comm), ci.size - 1);
  Collective c(me, comm, ci, call);
  bcast(c, buffer, bytes, root);
  return TMPI_SUCCESS;
}

int TMPI_Reduce(const void* sendbuf, void* recvbuf, int count, TMPI_Datatype type, TMPI_Op op,
                int root, TMPI_Comm comm) {
  const char* call = "MPI_Reduce";
  Subrank* me;
  CommInfo ci;
  int err;
  if (!begin(call, comm, &me, &ci, &err)) return err;
  std::size_t bytes;
  if (int e = check_buffer(me, comm, call, count, type, &bytes)) return e;
  if (int e = check_op(me, comm, call, op, type)) return e;
  if (root < 0 || root >= ci.size)
    return mpi_error(me, comm, TMPI_ERR_ROOT, call, "invalid root %d (%s has ranks 0 to %d)", root, comm_name(comm), ci.size - 1);
  if (sendbuf == TMPI_IN_PLACE) {
    if (ci.rank != root) return mpi_error(me, comm, TMPI_ERR_BUFFER, call, "MPI_IN_PLACE is only valid at the root");
    sendbuf = recvbuf;
  }
  Collective c(me, comm, ci, call);
  reduce(c, sendbuf, recvbuf, count, type, op, root, bytes);
  return TMPI_SUCCESS;
}

int TMPI_Allreduce(const void* sendbuf, void* recvbuf, int count, TMPI_Datatype type, TMPI_Op op,
                   TMPI_Comm comm) {
  const char* call = "MPI_Allreduce";
  Subrank* me;
  CommInfo ci;
  int err;
  if (!begin(call, comm, &me, &ci, &err)) return err;
  std::size_t bytes;
  if (int e = check_buffer(me, comm, call, count, type, &bytes)) return e;
  if (int e = check_op(me, comm, call, op, type)) return e;
  if (sendbuf == TMPI_IN_PLACE) sendbuf = recvbuf;
  Collective c(me, comm, ci, call);
  // Reduce to rank 0, then broadcast: every rank gets the same bits.
  reduce(c, sendbuf, recvbuf, count, type, op, 0, bytes);
  bcast(c, recvbuf, bytes, 0);
  return TMPI_SUCCESS;
}

}  // extern "C"
