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
#include "mpi/typemap.h"

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
                 TypeMapPtr* map, std::size_t* bytes) {
  if (count < 0) return mpi_error(me, comm, TMPI_ERR_COUNT, call, "negative count %d", count);
  *map = type_map(type);
  if (!*map) return mpi_error(me, comm, TMPI_ERR_TYPE, call, "invalid datatype %d", type);
  if (!(*map)->committed)
    return mpi_error(me, comm, TMPI_ERR_TYPE, call, "datatype %d is not committed (MPI_Type_commit)", type);
  *bytes = static_cast<std::size_t>(count) * (*map)->size;
  return TMPI_SUCCESS;
}

// Reductions run on the predefined type a datatype is made of.
int check_op(Subrank* me, TMPI_Comm comm, const char* call, TMPI_Op op, const TypeMap& map) {
  if (!op_name(op)) return mpi_error(me, comm, TMPI_ERR_OP, call, "invalid operation %d", op);
  if (map.basic == TMPI_DATATYPE_NULL)
    return mpi_error(me, comm, TMPI_ERR_OP, call, "%s needs a datatype made of one predefined type", op_name(op));
  if (!apply_op(op, map.basic, nullptr, nullptr, 0))
    return mpi_error(me, comm, TMPI_ERR_OP, call, "%s is not defined on %s", op_name(op), type_info(map.basic)->name);
  return TMPI_SUCCESS;
}

// A collective's buffer as contiguous bytes: the user's buffer itself when
// its datatype is contiguous, else a packed copy that store() unpacks back.
class Flat {
 public:
  Flat(const void* buf, std::size_t count, const TypeMapPtr& map, bool load)
      : buf_(const_cast<void*>(buf)), count_(count), map_(map) {
    if (map->contiguous()) {
      data_ = buf_;
      return;
    }
    copy_.resize(count * map->size);
    data_ = copy_.data();
    if (load && buf) pack(buf, count, *map, copy_.data());
  }
  void* data() const { return data_; }
  void store() {
    if (data_ != buf_) unpack(copy_.data(), count_, *map_, buf_);
  }

 private:
  void* buf_;
  std::size_t count_;
  TypeMapPtr map_;
  std::vector<char> copy_;
  void* data_;
};

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
  TypeMapPtr map;
  if (int e = check_buffer(me, comm, call, count, type, &map, &bytes)) return e;
  if (root < 0 || root >= ci.size)
    return mpi_error(me, comm, TMPI_ERR_ROOT, call, "invalid root %d (%s has ranks 0 to %d)", root, comm_name(comm), ci.size - 1);
  Collective c(me, comm, ci, call);
  Flat flat(buffer, static_cast<std::size_t>(count), map, ci.rank == root);
  bcast(c, flat.data(), bytes, root);
  if (ci.rank != root) flat.store();
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
  TypeMapPtr map;
  if (int e = check_buffer(me, comm, call, count, type, &map, &bytes)) return e;
  if (int e = check_op(me, comm, call, op, *map)) return e;
  if (root < 0 || root >= ci.size)
    return mpi_error(me, comm, TMPI_ERR_ROOT, call, "invalid root %d (%s has ranks 0 to %d)", root, comm_name(comm), ci.size - 1);
  if (sendbuf == TMPI_IN_PLACE) {
    if (ci.rank != root) return mpi_error(me, comm, TMPI_ERR_BUFFER, call, "MPI_IN_PLACE is only valid at the root");
    sendbuf = recvbuf;
  }
  Collective c(me, comm, ci, call);
  Flat in(sendbuf, static_cast<std::size_t>(count), map, true);
  Flat out(recvbuf, static_cast<std::size_t>(count), map, false);
  reduce(c, in.data(), out.data(), static_cast<int>(static_cast<std::size_t>(count) * map->basic_count), map->basic,
         op, root, bytes);
  if (ci.rank == root) out.store();
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
  TypeMapPtr map;
  if (int e = check_buffer(me, comm, call, count, type, &map, &bytes)) return e;
  if (int e = check_op(me, comm, call, op, *map)) return e;
  if (sendbuf == TMPI_IN_PLACE) sendbuf = recvbuf;
  Collective c(me, comm, ci, call);
  Flat in(sendbuf, static_cast<std::size_t>(count), map, true);
  Flat out(recvbuf, static_cast<std::size_t>(count), map, false);
  // Reduce to rank 0, then broadcast: every rank gets the same bits.
  reduce(c, in.data(), out.data(), static_cast<int>(static_cast<std::size_t>(count) * map->basic_count), map->basic,
         op, 0, bytes);
  bcast(c, out.data(), bytes, 0);
  out.store();
  return TMPI_SUCCESS;
}

}  // extern "C"
