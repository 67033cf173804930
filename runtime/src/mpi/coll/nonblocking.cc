// Non-blocking collectives (MPI_I...): the blocking algorithm runs on a
// helper fiber of the subrank, and the request completes when it returns.
//
// The call's sequence number is drawn here, in the order the program makes
// its collective calls (which MPI requires to be the same at every member),
// so the helper's messages never meet those of another collective even when
// several run at once on one communicator. The helper is one more fiber on
// the subrank's worker: while it waits for messages, the subrank and its
// siblings compute.
//
// The helper looks its datatypes and operation up by handle when it runs,
// which may be after the program freed them (MPI_Type_free, MPI_Op_free:
// MPI allows both while operations that use them are pending). The call
// pins them, and the helper lets go when it is done.
#include <tucana/tmpi.h>

#include <algorithm>
#include <functional>
#include <memory>
#include <vector>

#include "mpi/coll/calls.h"
#include "mpi/datatype/datatype.h"
#include "sched/scheduler.h"

using namespace tucana;
using namespace tucana::mpi;

namespace {

// Helpers run collective algorithms (their buffers are on the heap) and
// user reduction functions: a modest stack is plenty by default
// (--helper-stack-size sets another).
constexpr std::size_t kHelperStack = 1u << 20;

std::size_t helper_stack_size(const Config& config) {
  return config.helper_stack_size ? config.helper_stack_size : std::min(config.stack_size, kHelperStack);
}

// The derived datatypes and the user operation of one non-blocking
// collective, pinned for as long as it runs.
class Pins {
 public:
  Pins(std::vector<TMPI_Datatype> types, TMPI_Op op) {
    for (TMPI_Datatype t : types)
      if (pin_type(t)) types_.push_back(t);
    if (pin_op(op)) op_ = op;
  }
  ~Pins() {
    for (TMPI_Datatype t : types_) unpin_type(t);
    if (op_ != TMPI_OP_NULL) unpin_op(op_);
  }
  Pins(const Pins&) = delete;
  Pins& operator=(const Pins&) = delete;

 private:
  std::vector<TMPI_Datatype> types_;
  TMPI_Op op_ = TMPI_OP_NULL;
};

struct Task {
  Call call;
  Request* request;
  std::function<int(const Call&)> body;
  Pins pins;
};

void run_task(void* arg) {
  std::unique_ptr<Task> task(static_cast<Task*>(arg));
  int err = task->body(task->call);
  Request* r = task->request;
  task.reset();  // the arguments (and pins) are no longer needed when the request completes
  r->error = err;
  r->on_complete(r);
}

// A request for a collective on call.comm (not started).
Request* collective_request(const Call& call) {
  auto* r = new Request;
  init_request(r, call.me, comm::Operation::Kind::Recv, nullptr, 0, TMPI_PROC_NULL, 0, call.info.coll_ctx);
  r->collective = true;
  r->origin = call.name;
  r->comm = call.comm;
  r->peer_rank = TMPI_PROC_NULL;
  r->comm_ref = keep_alive(call.me, call.comm);  // null for MPI_COMM_WORLD/SELF, which live on
  return r;
}

// Starts `r` and runs `body` for it on a helper fiber.
void run_collective(const Call& call, Request* r, std::vector<TMPI_Datatype> types, TMPI_Op op,
                    std::function<int(const Call&)> body) {
  Call kept = call;
  kept.keep = keep_alive(call.me, call.comm);
  start_detached(r);
  Runtime& rt = Runtime::get();
  auto* task = new Task{kept, r, std::move(body), Pins(std::move(types), op)};
  // MPI calls made on the helper belong to the subrank (its Fiber::actor).
  rt.scheduler->spawn_transient(&run_task, task, helper_stack_size(rt.config), call.me,
                                call.me->world);
}

// `types` and `op`: the datatypes and operation the body looks up (any
// handle may be predefined or insignificant at this rank; those are not
// pinned).
int launch(const Call& call, TMPI_Request* request, std::vector<TMPI_Datatype> types, TMPI_Op op,
           std::function<int(const Call&)> body) {
  if (!request) return mpi_error(call.me, call.comm, TMPI_ERR_REQUEST, call.name, "null request pointer");
  Request* r = collective_request(call);
  *request = r;
  run_collective(call, r, std::move(types), op, std::move(body));
  return TMPI_SUCCESS;
}

// A persistent collective (MPI 4.0 MPI_Bcast_init...): the call returns an
// inactive request; each MPI_Start runs the collective as its MPI_I... form
// does. MPI lets the members start different persistent collectives in
// different orders (only the init calls are ordered), so each request runs
// on a communicator of its own: a duplicate of the program's, agreed on by
// a non-blocking MPI_Comm_idup that the init call starts (init calls are
// local) and the first start waits for; successive starts of one request
// are ordered by MPI (each waits for the last to complete), so they draw
// their sequence numbers there in the same order at every member. The
// datatypes and the operation stay pinned while the request lives.
struct PersistentState {
  Subrank* me = nullptr;
  TMPI_Comm own = TMPI_COMM_NULL;     // the private duplicate
  TMPI_Request dup = TMPI_REQUEST_NULL;  // its agreement
  std::unique_ptr<Pins> pins;
  PersistentState() = default;
  PersistentState(const PersistentState&) = delete;
  PersistentState& operator=(const PersistentState&) = delete;
  // Goes with the request (MPI_Request_free, on the subrank or its helper).
  // A duplicate not agreed on yet (a request freed before its first start)
  // stays until the end of the run: freeing it now would race with its
  // agreement, which the other members still take part in. (After
  // MPI_Finalize nothing is freed.)
  ~PersistentState() {
    bool agreed = true;
    if (dup) {
      std::uintptr_t expected = Request::kPending;
      if (dup->state.compare_exchange_strong(expected, Request::kFreeOnDone))
        agreed = false;  // the agreement frees its request when done
      else
        delete dup;
    }
    int finalized = 0;
    TMPI_Finalized(&finalized);
    if (agreed && own != TMPI_COMM_NULL && !finalized) TMPI_Comm_free(&own);
  }
  // MPI_SUCCESS once the duplicate is agreed on, or the agreement's error.
  int ready(const char* name) {
    if (!is_done(dup)) wait_done(me, dup, name);
    return dup->error;
  }
};

int persistent(const Call& call, TMPI_Request* request, std::vector<TMPI_Datatype> types, TMPI_Op op,
               std::function<int(const Call&)> body) {
  if (!request) return mpi_error(call.me, call.comm, TMPI_ERR_REQUEST, call.name, "null request pointer");
  auto state = std::make_shared<PersistentState>();
  state->me = call.me;
  std::shared_ptr<PendingDup> pending;
  Call dup_call;
  if (int e = start_idup(call.me, call.comm, &state->own, &pending, &dup_call, false)) return e;
  if (int e = launch(dup_call, &state->dup, {}, TMPI_OP_NULL,
                     [pending](const Call&) { return finish_idup(*pending); }))
    return e;
  state->pins = std::make_unique<Pins>(std::move(types), op);
  Request* r = collective_request(call);
  r->persistent = true;
  r->state.store(Request::kDone);  // inactive until MPI_Start
  const char* name = call.name;
  r->start_persistent = [state, name, body = std::move(body)](Request* self) -> int {
    self->active = true;
    self->error = 0;
    start_detached(self);
    run_on_helper(state->me, [state, name, body, self]() mutable {
      int err = state->ready(name);
      Call now;
      if (!err && begin_call(name, state->own, &now, &err)) {
        now.keep = keep_alive(state->me, state->own);
        err = body(now);
      }
      // Let go first: once the request completes, the program may free it
      // and finalize, and the state's destructor must not run after that.
      now = Call();
      state.reset();
      self->error = err;
      self->on_complete(self);  // (may delete self: MPI_Request_free while active)
    });
    return TMPI_SUCCESS;
  };
  *request = r;
  return TMPI_SUCCESS;
}

void run_closure(void* arg) {
  std::unique_ptr<std::function<void()>> body(static_cast<std::function<void()>*>(arg));
  (*body)();
}

template <typename T>
std::vector<T> copy_of(const T* a, int n) {
  return a ? std::vector<T>(a, a + std::max(n, 0)) : std::vector<T>();
}

// How many ranks a call's per-rank arrays describe: the remote group's on
// an intercommunicator (MPI 3.1 section 5.2.2), else the communicator's.
int peers(const Call& call) {
  return call.info.comm->inter() ? call.info.comm->remote->size : call.info.size;
}

// Whether this rank is the root of a rooted call (MPI_ROOT on an
// intercommunicator), the only one whose arrays are significant.
bool is_root(const Call& call, int root) {
  return call.info.comm->inter() ? root == TMPI_ROOT : call.info.rank == root;
}

std::vector<TMPI_Datatype> both(std::vector<TMPI_Datatype> a, const std::vector<TMPI_Datatype>& b) {
  a.insert(a.end(), b.begin(), b.end());
  return a;
}

}  // namespace

namespace tucana::mpi {

void run_on_helper(Subrank* me, std::function<void()> body) {
  Runtime& rt = Runtime::get();
  rt.scheduler->spawn_transient(&run_closure, new std::function<void()>(std::move(body)),
                                helper_stack_size(rt.config), me, me->world);
}

}  // namespace tucana::mpi

extern "C" {

// The agreement on the new pair runs on a helper fiber, like a
// non-blocking collective, with the sequence numbers drawn and the
// agreement registered here, in program order.
int TMPI_Comm_idup(TMPI_Comm comm, TMPI_Comm* newcomm, TMPI_Request* request) {
  const char* name = "MPI_Comm_idup";
  Entered me = enter(name);
  if (!request) return mpi_error(me, comm, TMPI_ERR_REQUEST, name, "null request pointer");
  std::shared_ptr<PendingDup> pending;
  Call call;
  if (int e = start_idup(me, comm, newcomm, &pending, &call)) return e;
  return launch(call, request, {}, TMPI_OP_NULL, [pending](const Call&) { return finish_idup(*pending); });
}

}  // extern "C"

namespace {

// launch (MPI_I...) or persistent (MPI_..._init): the one body serves both.
using Launcher = int (*)(const Call&, TMPI_Request*, std::vector<TMPI_Datatype>, TMPI_Op,
                         std::function<int(const Call&)>);

int nb_barrier(Launcher go, const char* name, TMPI_Comm comm, TMPI_Request* request) {
  TMPI_COLLECTIVE_CALL(name, comm);
  return go(call, request, {}, TMPI_OP_NULL, [](const Call& c) { return do_barrier(c); });
}

int nb_bcast(Launcher go, const char* name, void* buffer, int count, TMPI_Datatype type, int root, TMPI_Comm comm,
             TMPI_Request* request) {
  TMPI_COLLECTIVE_CALL(name, comm);
  return go(call, request, {type}, TMPI_OP_NULL,
            [=](const Call& c) { return do_bcast(c, buffer, count, type, root); });
}

int nb_reduce(Launcher go, const char* name, const void* sendbuf, void* recvbuf, int count, TMPI_Datatype type,
              TMPI_Op op, int root, TMPI_Comm comm, TMPI_Request* request) {
  TMPI_COLLECTIVE_CALL(name, comm);
  return go(call, request, {type}, op,
            [=](const Call& c) { return do_reduce(c, sendbuf, recvbuf, count, type, op, root); });
}

int nb_allreduce(Launcher go, const char* name, const void* sendbuf, void* recvbuf, int count, TMPI_Datatype type,
                 TMPI_Op op, TMPI_Comm comm, TMPI_Request* request) {
  TMPI_COLLECTIVE_CALL(name, comm);
  return go(call, request, {type}, op,
            [=](const Call& c) { return do_allreduce(c, sendbuf, recvbuf, count, type, op); });
}

int nb_gather(Launcher go, const char* name, const void* sendbuf, int sendcount, TMPI_Datatype sendtype,
              void* recvbuf, int recvcount, TMPI_Datatype recvtype, int root, TMPI_Comm comm, TMPI_Request* request) {
  TMPI_COLLECTIVE_CALL(name, comm);
  return go(call, request, {sendtype, recvtype}, TMPI_OP_NULL, [=](const Call& c) {
    return do_gather(c, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root);
  });
}

int nb_gatherv(Launcher go, const char* name, const void* sendbuf, int sendcount, TMPI_Datatype sendtype,
               void* recvbuf, const int recvcounts[], const int displs[], TMPI_Datatype recvtype, int root,
               TMPI_Comm comm, TMPI_Request* request) {
  TMPI_COLLECTIVE_CALL(name, comm);
  bool root_side = is_root(call, root);  // only the root's arrays are significant
  auto rc = copy_of(root_side ? recvcounts : nullptr, peers(call));
  auto rd = copy_of(root_side ? displs : nullptr, peers(call));
  return go(call, request, {sendtype, recvtype}, TMPI_OP_NULL, [=](const Call& c) {
    return do_gatherv(c, sendbuf, sendcount, sendtype, recvbuf, rc.data(), rd.data(), recvtype, root);
  });
}

int nb_scatter(Launcher go, const char* name, const void* sendbuf, int sendcount, TMPI_Datatype sendtype,
               void* recvbuf, int recvcount, TMPI_Datatype recvtype, int root, TMPI_Comm comm,
               TMPI_Request* request) {
  TMPI_COLLECTIVE_CALL(name, comm);
  return go(call, request, {sendtype, recvtype}, TMPI_OP_NULL, [=](const Call& c) {
    return do_scatter(c, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root);
  });
}

int nb_scatterv(Launcher go, const char* name, const void* sendbuf, const int sendcounts[], const int displs[],
                TMPI_Datatype sendtype, void* recvbuf, int recvcount, TMPI_Datatype recvtype, int root,
                TMPI_Comm comm, TMPI_Request* request) {
  TMPI_COLLECTIVE_CALL(name, comm);
  bool root_side = is_root(call, root);
  auto sc = copy_of(root_side ? sendcounts : nullptr, peers(call));
  auto sd = copy_of(root_side ? displs : nullptr, peers(call));
  return go(call, request, {sendtype, recvtype}, TMPI_OP_NULL, [=](const Call& c) {
    return do_scatterv(c, sendbuf, sc.data(), sd.data(), sendtype, recvbuf, recvcount, recvtype, root);
  });
}

int nb_allgather(Launcher go, const char* name, const void* sendbuf, int sendcount, TMPI_Datatype sendtype,
                 void* recvbuf, int recvcount, TMPI_Datatype recvtype, TMPI_Comm comm, TMPI_Request* request) {
  TMPI_COLLECTIVE_CALL(name, comm);
  auto rc = uniform_counts(call.info.size, recvcount), rd = strided_displs(call.info.size, recvcount);
  return go(call, request, {sendtype, recvtype}, TMPI_OP_NULL, [=](const Call& c) {
    return do_allgatherv(c, sendbuf, sendcount, sendtype, recvbuf, rc.data(), rd.data(), recvtype, true);
  });
}

int nb_allgatherv(Launcher go, const char* name, const void* sendbuf, int sendcount, TMPI_Datatype sendtype,
                  void* recvbuf, const int recvcounts[], const int displs[], TMPI_Datatype recvtype, TMPI_Comm comm,
                  TMPI_Request* request) {
  TMPI_COLLECTIVE_CALL(name, comm);
  auto rc = copy_of(recvcounts, peers(call)), rd = copy_of(displs, peers(call));
  return go(call, request, {sendtype, recvtype}, TMPI_OP_NULL, [=](const Call& c) {
    return do_allgatherv(c, sendbuf, sendcount, sendtype, recvbuf, rc.data(), rd.data(), recvtype, false);
  });
}

int nb_alltoall(Launcher go, const char* name, const void* sendbuf, int sendcount, TMPI_Datatype sendtype,
                void* recvbuf, int recvcount, TMPI_Datatype recvtype, TMPI_Comm comm, TMPI_Request* request) {
  TMPI_COLLECTIVE_CALL(name, comm);
  return go(call, request, {sendtype, recvtype}, TMPI_OP_NULL, [=](const Call& c) {
    return do_alltoall(c, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype);
  });
}

int nb_alltoallv(Launcher go, const char* name, const void* sendbuf, const int sendcounts[], const int sdispls[],
                 TMPI_Datatype sendtype, void* recvbuf, const int recvcounts[], const int rdispls[],
                 TMPI_Datatype recvtype, TMPI_Comm comm, TMPI_Request* request) {
  TMPI_COLLECTIVE_CALL(name, comm);
  int n = peers(call);
  bool in_place = sendbuf == TMPI_IN_PLACE;
  auto sc = copy_of(in_place ? nullptr : sendcounts, n), sd = copy_of(in_place ? nullptr : sdispls, n);
  auto rc = copy_of(recvcounts, n), rd = copy_of(rdispls, n);
  return go(call, request, {sendtype, recvtype}, TMPI_OP_NULL, [=](const Call& c) {
    return do_alltoallv(c, sendbuf, sc.data(), sd.data(), sendtype, recvbuf, rc.data(), rd.data(), recvtype);
  });
}

int nb_alltoallw(Launcher go, const char* name, const void* sendbuf, const int sendcounts[], const int sdispls[],
                 const TMPI_Datatype sendtypes[], void* recvbuf, const int recvcounts[], const int rdispls[],
                 const TMPI_Datatype recvtypes[], TMPI_Comm comm, TMPI_Request* request) {
  TMPI_COLLECTIVE_CALL(name, comm);
  int n = peers(call);
  bool in_place = sendbuf == TMPI_IN_PLACE;
  auto sc = copy_of(in_place ? nullptr : sendcounts, n), sd = copy_of(in_place ? nullptr : sdispls, n);
  auto st = copy_of(in_place ? nullptr : sendtypes, n);
  auto rc = copy_of(recvcounts, n), rd = copy_of(rdispls, n), rt = copy_of(recvtypes, n);
  return go(call, request, both(st, rt), TMPI_OP_NULL, [=](const Call& c) {
    return do_alltoallw(c, sendbuf, sc.data(), sd.data(), st.data(), recvbuf, rc.data(), rd.data(), rt.data(), true);
  });
}

int nb_reduce_scatter(Launcher go, const char* name, const void* sendbuf, void* recvbuf, const int recvcounts[],
                      TMPI_Datatype type, TMPI_Op op, TMPI_Comm comm, TMPI_Request* request) {
  TMPI_COLLECTIVE_CALL(name, comm);
  auto rc = copy_of(recvcounts, call.info.size);
  return go(call, request, {type}, op,
            [=](const Call& c) { return do_reduce_scatter(c, sendbuf, recvbuf, rc.data(), type, op); });
}

int nb_reduce_scatter_block(Launcher go, const char* name, const void* sendbuf, void* recvbuf, int recvcount,
                            TMPI_Datatype type, TMPI_Op op, TMPI_Comm comm, TMPI_Request* request) {
  TMPI_COLLECTIVE_CALL(name, comm);
  auto rc = uniform_counts(call.info.size, recvcount);
  return go(call, request, {type}, op,
            [=](const Call& c) { return do_reduce_scatter(c, sendbuf, recvbuf, rc.data(), type, op); });
}

int nb_scan(Launcher go, const char* name, const void* sendbuf, void* recvbuf, int count, TMPI_Datatype type,
            TMPI_Op op, TMPI_Comm comm, TMPI_Request* request) {
  TMPI_COLLECTIVE_CALL(name, comm);
  return go(call, request, {type}, op,
            [=](const Call& c) { return do_scan(c, sendbuf, recvbuf, count, type, op, false); });
}

int nb_exscan(Launcher go, const char* name, const void* sendbuf, void* recvbuf, int count, TMPI_Datatype type,
              TMPI_Op op, TMPI_Comm comm, TMPI_Request* request) {
  TMPI_COLLECTIVE_CALL(name, comm);
  return go(call, request, {type}, op,
            [=](const Call& c) { return do_scan(c, sendbuf, recvbuf, count, type, op, true); });
}

int nb_neighbor_allgather(Launcher go, const char* name, const void* sendbuf, int sendcount, TMPI_Datatype sendtype,
                          void* recvbuf, int recvcount, TMPI_Datatype recvtype, TMPI_Comm comm,
                          TMPI_Request* request) {
  TMPI_COLLECTIVE_CALL(name, comm);
  int in = 0, out = 0;
  neighbor_degrees(call, &in, &out);
  auto sc = uniform_counts(1, sendcount), sd = uniform_counts(1, 0);
  auto rc = uniform_counts(in, recvcount), rd = strided_displs(in, recvcount);
  return go(call, request, {sendtype, recvtype}, TMPI_OP_NULL, [=](const Call& c) {
    return do_neighbor(c, sendbuf, sc.data(), sd.data(), sendtype, recvbuf, rc.data(), rd.data(), recvtype, true);
  });
}

int nb_neighbor_alltoall(Launcher go, const char* name, const void* sendbuf, int sendcount, TMPI_Datatype sendtype,
                         void* recvbuf, int recvcount, TMPI_Datatype recvtype, TMPI_Comm comm,
                         TMPI_Request* request) {
  TMPI_COLLECTIVE_CALL(name, comm);
  int in = 0, out = 0;
  neighbor_degrees(call, &in, &out);
  auto sc = uniform_counts(out, sendcount), sd = strided_displs(out, sendcount);
  auto rc = uniform_counts(in, recvcount), rd = strided_displs(in, recvcount);
  return go(call, request, {sendtype, recvtype}, TMPI_OP_NULL, [=](const Call& c) {
    return do_neighbor(c, sendbuf, sc.data(), sd.data(), sendtype, recvbuf, rc.data(), rd.data(), recvtype, false);
  });
}

int nb_neighbor_allgatherv(Launcher go, const char* name, const void* sendbuf, int sendcount, TMPI_Datatype sendtype,
                           void* recvbuf, const int recvcounts[], const int displs[], TMPI_Datatype recvtype,
                           TMPI_Comm comm, TMPI_Request* request) {
  TMPI_COLLECTIVE_CALL(name, comm);
  int in = 0, out = 0;
  neighbor_degrees(call, &in, &out);
  auto sc = uniform_counts(1, sendcount), sd = uniform_counts(1, 0);
  auto rc = copy_of(recvcounts, in), rd = copy_of(displs, in);
  return go(call, request, {sendtype, recvtype}, TMPI_OP_NULL, [=](const Call& c) {
    return do_neighbor(c, sendbuf, sc.data(), sd.data(), sendtype, recvbuf, rc.data(), rd.data(), recvtype, true);
  });
}

int nb_neighbor_alltoallv(Launcher go, const char* name, const void* sendbuf, const int sendcounts[],
                          const int sdispls[], TMPI_Datatype sendtype, void* recvbuf, const int recvcounts[],
                          const int rdispls[], TMPI_Datatype recvtype, TMPI_Comm comm, TMPI_Request* request) {
  TMPI_COLLECTIVE_CALL(name, comm);
  int in = 0, out = 0;
  neighbor_degrees(call, &in, &out);
  auto sc = copy_of(sendcounts, out), sd = copy_of(sdispls, out);
  auto rc = copy_of(recvcounts, in), rd = copy_of(rdispls, in);
  return go(call, request, {sendtype, recvtype}, TMPI_OP_NULL, [=](const Call& c) {
    return do_neighbor(c, sendbuf, sc.data(), sd.data(), sendtype, recvbuf, rc.data(), rd.data(), recvtype, false);
  });
}

int nb_neighbor_alltoallw(Launcher go, const char* name, const void* sendbuf, const int sendcounts[],
                          const TMPI_Aint sdispls[], const TMPI_Datatype sendtypes[], void* recvbuf,
                          const int recvcounts[], const TMPI_Aint rdispls[], const TMPI_Datatype recvtypes[],
                          TMPI_Comm comm, TMPI_Request* request) {
  TMPI_COLLECTIVE_CALL(name, comm);
  int in = 0, out = 0;
  neighbor_degrees(call, &in, &out);
  auto sc = copy_of(sendcounts, out), rc = copy_of(recvcounts, in);
  auto sd = copy_of(sdispls, out), rd = copy_of(rdispls, in);
  auto st = copy_of(sendtypes, out), rt = copy_of(recvtypes, in);
  return go(call, request, both(st, rt), TMPI_OP_NULL, [=](const Call& c) {
    return do_neighbor_w(c, sendbuf, sc.data(), sd.data(), st.data(), recvbuf, rc.data(), rd.data(), rt.data(),
                         NeighborBlocks::kByteDisplacements);
  });
}

}  // namespace

extern "C" {

int TMPI_Comm_idup_with_info(TMPI_Comm comm, TMPI_Info info, TMPI_Comm* newcomm, TMPI_Request* request) {
  (void)info;  // no hints are used (as MPI_Comm_dup_with_info)
  return TMPI_Comm_idup(comm, newcomm, request);
}

int TMPI_Ibarrier(TMPI_Comm comm, TMPI_Request* request) { return nb_barrier(launch, "MPI_Ibarrier", comm, request); }

int TMPI_Barrier_init(TMPI_Comm comm, TMPI_Info info, TMPI_Request* request) {
  (void)info;  // no hints are used
  return nb_barrier(persistent, "MPI_Barrier_init", comm, request);
}

int TMPI_Ibcast(void* buffer, int count, TMPI_Datatype type, int root, TMPI_Comm comm, TMPI_Request* request) {
  return nb_bcast(launch, "MPI_Ibcast", buffer, count, type, root, comm, request);
}

int TMPI_Bcast_init(void* buffer, int count, TMPI_Datatype type, int root, TMPI_Comm comm, TMPI_Info info,
                    TMPI_Request* request) {
  (void)info;  // no hints are used
  return nb_bcast(persistent, "MPI_Bcast_init", buffer, count, type, root, comm, request);
}

int TMPI_Ireduce(const void* sendbuf, void* recvbuf, int count, TMPI_Datatype type, TMPI_Op op, int root,
                 TMPI_Comm comm, TMPI_Request* request) {
  return nb_reduce(launch, "MPI_Ireduce", sendbuf, recvbuf, count, type, op, root, comm, request);
}

int TMPI_Reduce_init(const void* sendbuf, void* recvbuf, int count, TMPI_Datatype type, TMPI_Op op, int root,
                     TMPI_Comm comm, TMPI_Info info, TMPI_Request* request) {
  (void)info;  // no hints are used
  return nb_reduce(persistent, "MPI_Reduce_init", sendbuf, recvbuf, count, type, op, root, comm, request);
}

int TMPI_Iallreduce(const void* sendbuf, void* recvbuf, int count, TMPI_Datatype type, TMPI_Op op, TMPI_Comm comm,
                    TMPI_Request* request) {
  return nb_allreduce(launch, "MPI_Iallreduce", sendbuf, recvbuf, count, type, op, comm, request);
}

int TMPI_Allreduce_init(const void* sendbuf, void* recvbuf, int count, TMPI_Datatype type, TMPI_Op op, TMPI_Comm comm,
                        TMPI_Info info, TMPI_Request* request) {
  (void)info;  // no hints are used
  return nb_allreduce(persistent, "MPI_Allreduce_init", sendbuf, recvbuf, count, type, op, comm, request);
}

int TMPI_Igather(const void* sendbuf, int sendcount, TMPI_Datatype sendtype, void* recvbuf, int recvcount,
                 TMPI_Datatype recvtype, int root, TMPI_Comm comm, TMPI_Request* request) {
  return nb_gather(launch, "MPI_Igather", sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm,
                   request);
}

int TMPI_Gather_init(const void* sendbuf, int sendcount, TMPI_Datatype sendtype, void* recvbuf, int recvcount,
                     TMPI_Datatype recvtype, int root, TMPI_Comm comm, TMPI_Info info, TMPI_Request* request) {
  (void)info;  // no hints are used
  return nb_gather(persistent, "MPI_Gather_init", sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root,
                   comm, request);
}

int TMPI_Igatherv(const void* sendbuf, int sendcount, TMPI_Datatype sendtype, void* recvbuf, const int recvcounts[],
                  const int displs[], TMPI_Datatype recvtype, int root, TMPI_Comm comm, TMPI_Request* request) {
  return nb_gatherv(launch, "MPI_Igatherv", sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, root,
                    comm, request);
}

int TMPI_Gatherv_init(const void* sendbuf, int sendcount, TMPI_Datatype sendtype, void* recvbuf,
                      const int recvcounts[], const int displs[], TMPI_Datatype recvtype, int root, TMPI_Comm comm,
                      TMPI_Info info, TMPI_Request* request) {
  (void)info;  // no hints are used
  return nb_gatherv(persistent, "MPI_Gatherv_init", sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs,
                    recvtype, root, comm, request);
}

int TMPI_Iscatter(const void* sendbuf, int sendcount, TMPI_Datatype sendtype, void* recvbuf, int recvcount,
                  TMPI_Datatype recvtype, int root, TMPI_Comm comm, TMPI_Request* request) {
  return nb_scatter(launch, "MPI_Iscatter", sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm,
                    request);
}

int TMPI_Scatter_init(const void* sendbuf, int sendcount, TMPI_Datatype sendtype, void* recvbuf, int recvcount,
                      TMPI_Datatype recvtype, int root, TMPI_Comm comm, TMPI_Info info, TMPI_Request* request) {
  (void)info;  // no hints are used
  return nb_scatter(persistent, "MPI_Scatter_init", sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root,
                    comm, request);
}

int TMPI_Iscatterv(const void* sendbuf, const int sendcounts[], const int displs[], TMPI_Datatype sendtype,
                   void* recvbuf, int recvcount, TMPI_Datatype recvtype, int root, TMPI_Comm comm,
                   TMPI_Request* request) {
  return nb_scatterv(launch, "MPI_Iscatterv", sendbuf, sendcounts, displs, sendtype, recvbuf, recvcount, recvtype,
                     root, comm, request);
}

int TMPI_Scatterv_init(const void* sendbuf, const int sendcounts[], const int displs[], TMPI_Datatype sendtype,
                       void* recvbuf, int recvcount, TMPI_Datatype recvtype, int root, TMPI_Comm comm, TMPI_Info info,
                       TMPI_Request* request) {
  (void)info;  // no hints are used
  return nb_scatterv(persistent, "MPI_Scatterv_init", sendbuf, sendcounts, displs, sendtype, recvbuf, recvcount,
                     recvtype, root, comm, request);
}

int TMPI_Iallgather(const void* sendbuf, int sendcount, TMPI_Datatype sendtype, void* recvbuf, int recvcount,
                    TMPI_Datatype recvtype, TMPI_Comm comm, TMPI_Request* request) {
  return nb_allgather(launch, "MPI_Iallgather", sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm,
                      request);
}

int TMPI_Allgather_init(const void* sendbuf, int sendcount, TMPI_Datatype sendtype, void* recvbuf, int recvcount,
                        TMPI_Datatype recvtype, TMPI_Comm comm, TMPI_Info info, TMPI_Request* request) {
  (void)info;  // no hints are used
  return nb_allgather(persistent, "MPI_Allgather_init", sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype,
                      comm, request);
}

int TMPI_Iallgatherv(const void* sendbuf, int sendcount, TMPI_Datatype sendtype, void* recvbuf,
                     const int recvcounts[], const int displs[], TMPI_Datatype recvtype, TMPI_Comm comm,
                     TMPI_Request* request) {
  return nb_allgatherv(launch, "MPI_Iallgatherv", sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype,
                       comm, request);
}

int TMPI_Allgatherv_init(const void* sendbuf, int sendcount, TMPI_Datatype sendtype, void* recvbuf,
                         const int recvcounts[], const int displs[], TMPI_Datatype recvtype, TMPI_Comm comm,
                         TMPI_Info info, TMPI_Request* request) {
  (void)info;  // no hints are used
  return nb_allgatherv(persistent, "MPI_Allgatherv_init", sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs,
                       recvtype, comm, request);
}

int TMPI_Ialltoall(const void* sendbuf, int sendcount, TMPI_Datatype sendtype, void* recvbuf, int recvcount,
                   TMPI_Datatype recvtype, TMPI_Comm comm, TMPI_Request* request) {
  return nb_alltoall(launch, "MPI_Ialltoall", sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm,
                     request);
}

int TMPI_Alltoall_init(const void* sendbuf, int sendcount, TMPI_Datatype sendtype, void* recvbuf, int recvcount,
                       TMPI_Datatype recvtype, TMPI_Comm comm, TMPI_Info info, TMPI_Request* request) {
  (void)info;  // no hints are used
  return nb_alltoall(persistent, "MPI_Alltoall_init", sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype,
                     comm, request);
}

int TMPI_Ialltoallv(const void* sendbuf, const int sendcounts[], const int sdispls[], TMPI_Datatype sendtype,
                    void* recvbuf, const int recvcounts[], const int rdispls[], TMPI_Datatype recvtype,
                    TMPI_Comm comm, TMPI_Request* request) {
  return nb_alltoallv(launch, "MPI_Ialltoallv", sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls,
                      recvtype, comm, request);
}

int TMPI_Alltoallv_init(const void* sendbuf, const int sendcounts[], const int sdispls[], TMPI_Datatype sendtype,
                        void* recvbuf, const int recvcounts[], const int rdispls[], TMPI_Datatype recvtype,
                        TMPI_Comm comm, TMPI_Info info, TMPI_Request* request) {
  (void)info;  // no hints are used
  return nb_alltoallv(persistent, "MPI_Alltoallv_init", sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts,
                      rdispls, recvtype, comm, request);
}

int TMPI_Ialltoallw(const void* sendbuf, const int sendcounts[], const int sdispls[], const TMPI_Datatype sendtypes[],
                    void* recvbuf, const int recvcounts[], const int rdispls[], const TMPI_Datatype recvtypes[],
                    TMPI_Comm comm, TMPI_Request* request) {
  return nb_alltoallw(launch, "MPI_Ialltoallw", sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts, rdispls,
                      recvtypes, comm, request);
}

int TMPI_Alltoallw_init(const void* sendbuf, const int sendcounts[], const int sdispls[],
                        const TMPI_Datatype sendtypes[], void* recvbuf, const int recvcounts[], const int rdispls[],
                        const TMPI_Datatype recvtypes[], TMPI_Comm comm, TMPI_Info info, TMPI_Request* request) {
  (void)info;  // no hints are used
  return nb_alltoallw(persistent, "MPI_Alltoallw_init", sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts,
                      rdispls, recvtypes, comm, request);
}

int TMPI_Ireduce_scatter(const void* sendbuf, void* recvbuf, const int recvcounts[], TMPI_Datatype type, TMPI_Op op,
                         TMPI_Comm comm, TMPI_Request* request) {
  return nb_reduce_scatter(launch, "MPI_Ireduce_scatter", sendbuf, recvbuf, recvcounts, type, op, comm, request);
}

int TMPI_Reduce_scatter_init(const void* sendbuf, void* recvbuf, const int recvcounts[], TMPI_Datatype type,
                             TMPI_Op op, TMPI_Comm comm, TMPI_Info info, TMPI_Request* request) {
  (void)info;  // no hints are used
  return nb_reduce_scatter(persistent, "MPI_Reduce_scatter_init", sendbuf, recvbuf, recvcounts, type, op, comm,
                           request);
}

int TMPI_Ireduce_scatter_block(const void* sendbuf, void* recvbuf, int recvcount, TMPI_Datatype type, TMPI_Op op,
                               TMPI_Comm comm, TMPI_Request* request) {
  return nb_reduce_scatter_block(launch, "MPI_Ireduce_scatter_block", sendbuf, recvbuf, recvcount, type, op, comm,
                                 request);
}

int TMPI_Reduce_scatter_block_init(const void* sendbuf, void* recvbuf, int recvcount, TMPI_Datatype type, TMPI_Op op,
                                   TMPI_Comm comm, TMPI_Info info, TMPI_Request* request) {
  (void)info;  // no hints are used
  return nb_reduce_scatter_block(persistent, "MPI_Reduce_scatter_block_init", sendbuf, recvbuf, recvcount, type, op,
                                 comm, request);
}

int TMPI_Iscan(const void* sendbuf, void* recvbuf, int count, TMPI_Datatype type, TMPI_Op op, TMPI_Comm comm,
               TMPI_Request* request) {
  return nb_scan(launch, "MPI_Iscan", sendbuf, recvbuf, count, type, op, comm, request);
}

int TMPI_Scan_init(const void* sendbuf, void* recvbuf, int count, TMPI_Datatype type, TMPI_Op op, TMPI_Comm comm,
                   TMPI_Info info, TMPI_Request* request) {
  (void)info;  // no hints are used
  return nb_scan(persistent, "MPI_Scan_init", sendbuf, recvbuf, count, type, op, comm, request);
}

int TMPI_Iexscan(const void* sendbuf, void* recvbuf, int count, TMPI_Datatype type, TMPI_Op op, TMPI_Comm comm,
                 TMPI_Request* request) {
  return nb_exscan(launch, "MPI_Iexscan", sendbuf, recvbuf, count, type, op, comm, request);
}

int TMPI_Exscan_init(const void* sendbuf, void* recvbuf, int count, TMPI_Datatype type, TMPI_Op op, TMPI_Comm comm,
                     TMPI_Info info, TMPI_Request* request) {
  (void)info;  // no hints are used
  return nb_exscan(persistent, "MPI_Exscan_init", sendbuf, recvbuf, count, type, op, comm, request);
}

int TMPI_Ineighbor_allgather(const void* sendbuf, int sendcount, TMPI_Datatype sendtype, void* recvbuf, int recvcount,
                             TMPI_Datatype recvtype, TMPI_Comm comm, TMPI_Request* request) {
  return nb_neighbor_allgather(launch, "MPI_Ineighbor_allgather", sendbuf, sendcount, sendtype, recvbuf, recvcount,
                               recvtype, comm, request);
}

int TMPI_Neighbor_allgather_init(const void* sendbuf, int sendcount, TMPI_Datatype sendtype, void* recvbuf,
                                 int recvcount, TMPI_Datatype recvtype, TMPI_Comm comm, TMPI_Info info,
                                 TMPI_Request* request) {
  (void)info;  // no hints are used
  return nb_neighbor_allgather(persistent, "MPI_Neighbor_allgather_init", sendbuf, sendcount, sendtype, recvbuf,
                               recvcount, recvtype, comm, request);
}

int TMPI_Ineighbor_alltoall(const void* sendbuf, int sendcount, TMPI_Datatype sendtype, void* recvbuf, int recvcount,
                            TMPI_Datatype recvtype, TMPI_Comm comm, TMPI_Request* request) {
  return nb_neighbor_alltoall(launch, "MPI_Ineighbor_alltoall", sendbuf, sendcount, sendtype, recvbuf, recvcount,
                              recvtype, comm, request);
}

int TMPI_Neighbor_alltoall_init(const void* sendbuf, int sendcount, TMPI_Datatype sendtype, void* recvbuf,
                                int recvcount, TMPI_Datatype recvtype, TMPI_Comm comm, TMPI_Info info,
                                TMPI_Request* request) {
  (void)info;  // no hints are used
  return nb_neighbor_alltoall(persistent, "MPI_Neighbor_alltoall_init", sendbuf, sendcount, sendtype, recvbuf,
                              recvcount, recvtype, comm, request);
}

int TMPI_Ineighbor_allgatherv(const void* sendbuf, int sendcount, TMPI_Datatype sendtype, void* recvbuf,
                              const int recvcounts[], const int displs[], TMPI_Datatype recvtype, TMPI_Comm comm,
                              TMPI_Request* request) {
  return nb_neighbor_allgatherv(launch, "MPI_Ineighbor_allgatherv", sendbuf, sendcount, sendtype, recvbuf, recvcounts,
                                displs, recvtype, comm, request);
}

int TMPI_Neighbor_allgatherv_init(const void* sendbuf, int sendcount, TMPI_Datatype sendtype, void* recvbuf,
                                  const int recvcounts[], const int displs[], TMPI_Datatype recvtype, TMPI_Comm comm,
                                  TMPI_Info info, TMPI_Request* request) {
  (void)info;  // no hints are used
  return nb_neighbor_allgatherv(persistent, "MPI_Neighbor_allgatherv_init", sendbuf, sendcount, sendtype, recvbuf,
                                recvcounts, displs, recvtype, comm, request);
}

int TMPI_Ineighbor_alltoallv(const void* sendbuf, const int sendcounts[], const int sdispls[], TMPI_Datatype sendtype,
                             void* recvbuf, const int recvcounts[], const int rdispls[], TMPI_Datatype recvtype,
                             TMPI_Comm comm, TMPI_Request* request) {
  return nb_neighbor_alltoallv(launch, "MPI_Ineighbor_alltoallv", sendbuf, sendcounts, sdispls, sendtype, recvbuf,
                               recvcounts, rdispls, recvtype, comm, request);
}

int TMPI_Neighbor_alltoallv_init(const void* sendbuf, const int sendcounts[], const int sdispls[],
                                 TMPI_Datatype sendtype, void* recvbuf, const int recvcounts[], const int rdispls[],
                                 TMPI_Datatype recvtype, TMPI_Comm comm, TMPI_Info info, TMPI_Request* request) {
  (void)info;  // no hints are used
  return nb_neighbor_alltoallv(persistent, "MPI_Neighbor_alltoallv_init", sendbuf, sendcounts, sdispls, sendtype,
                               recvbuf, recvcounts, rdispls, recvtype, comm, request);
}

int TMPI_Ineighbor_alltoallw(const void* sendbuf, const int sendcounts[], const TMPI_Aint sdispls[],
                             const TMPI_Datatype sendtypes[], void* recvbuf, const int recvcounts[],
                             const TMPI_Aint rdispls[], const TMPI_Datatype recvtypes[], TMPI_Comm comm,
                             TMPI_Request* request) {
  return nb_neighbor_alltoallw(launch, "MPI_Ineighbor_alltoallw", sendbuf, sendcounts, sdispls, sendtypes, recvbuf,
                               recvcounts, rdispls, recvtypes, comm, request);
}

int TMPI_Neighbor_alltoallw_init(const void* sendbuf, const int sendcounts[], const TMPI_Aint sdispls[],
                                 const TMPI_Datatype sendtypes[], void* recvbuf, const int recvcounts[],
                                 const TMPI_Aint rdispls[], const TMPI_Datatype recvtypes[], TMPI_Comm comm,
                                 TMPI_Info info, TMPI_Request* request) {
  (void)info;  // no hints are used
  return nb_neighbor_alltoallw(persistent, "MPI_Neighbor_alltoallw_init", sendbuf, sendcounts, sdispls, sendtypes,
                               recvbuf, recvcounts, rdispls, recvtypes, comm, request);
}

}  // extern "C"
