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

#include "mpi/collectives_api.h"
#include "mpi/datatype.h"
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

// `types` and `op`: the datatypes and operation the body looks up (any
// handle may be predefined or insignificant at this rank; those are not
// pinned).
int launch(const Call& call, TMPI_Request* request, std::vector<TMPI_Datatype> types, TMPI_Op op,
           std::function<int(const Call&)> body) {
  if (!request) return mpi_error(call.me, call.comm, TMPI_ERR_REQUEST, call.name, "null request pointer");
  Call kept = call;
  kept.keep = keep_alive(call.me, call.comm);
  auto* r = new Request;
  init_request(r, call.me, comm::Operation::Kind::Recv, nullptr, 0, TMPI_PROC_NULL, 0, call.info.coll_ctx);
  r->collective = true;
  r->origin = call.name;
  r->comm = call.comm;
  r->peer_rank = TMPI_PROC_NULL;
  r->comm_ref = kept.keep;  // null for MPI_COMM_WORLD/SELF, which live on
  start_detached(r);
  *request = r;
  Runtime& rt = Runtime::get();
  auto* task = new Task{kept, r, std::move(body), Pins(std::move(types), op)};
  // MPI calls made on the helper belong to the subrank (f->user).
  rt.scheduler->spawn_transient(&run_task, task, helper_stack_size(rt.config), call.me,
                                call.me->world);
  return TMPI_SUCCESS;
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

int TMPI_Ibarrier(TMPI_Comm comm, TMPI_Request* request) {
  TMPI_COLLECTIVE_CALL("MPI_Ibarrier", comm);
  return launch(call, request, {}, TMPI_OP_NULL, [](const Call& c) { return do_barrier(c); });
}

int TMPI_Ibcast(void* buffer, int count, TMPI_Datatype type, int root, TMPI_Comm comm, TMPI_Request* request) {
  TMPI_COLLECTIVE_CALL("MPI_Ibcast", comm);
  return launch(call, request, {type}, TMPI_OP_NULL,
                [=](const Call& c) { return do_bcast(c, buffer, count, type, root); });
}

int TMPI_Ireduce(const void* sendbuf, void* recvbuf, int count, TMPI_Datatype type, TMPI_Op op, int root,
                 TMPI_Comm comm, TMPI_Request* request) {
  TMPI_COLLECTIVE_CALL("MPI_Ireduce", comm);
  return launch(call, request, {type}, op,
                [=](const Call& c) { return do_reduce(c, sendbuf, recvbuf, count, type, op, root); });
}

int TMPI_Iallreduce(const void* sendbuf, void* recvbuf, int count, TMPI_Datatype type, TMPI_Op op, TMPI_Comm comm,
                    TMPI_Request* request) {
  TMPI_COLLECTIVE_CALL("MPI_Iallreduce", comm);
  return launch(call, request, {type}, op,
                [=](const Call& c) { return do_allreduce(c, sendbuf, recvbuf, count, type, op); });
}

int TMPI_Igather(const void* sendbuf, int sendcount, TMPI_Datatype sendtype, void* recvbuf, int recvcount,
                 TMPI_Datatype recvtype, int root, TMPI_Comm comm, TMPI_Request* request) {
  TMPI_COLLECTIVE_CALL("MPI_Igather", comm);
  return launch(call, request, {sendtype, recvtype}, TMPI_OP_NULL, [=](const Call& c) {
    return do_gather(c, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root);
  });
}

int TMPI_Igatherv(const void* sendbuf, int sendcount, TMPI_Datatype sendtype, void* recvbuf, const int recvcounts[],
                  const int displs[], TMPI_Datatype recvtype, int root, TMPI_Comm comm, TMPI_Request* request) {
  TMPI_COLLECTIVE_CALL("MPI_Igatherv", comm);
  bool root_side = is_root(call, root);  // only the root's arrays are significant
  auto rc = copy_of(root_side ? recvcounts : nullptr, peers(call));
  auto rd = copy_of(root_side ? displs : nullptr, peers(call));
  return launch(call, request, {sendtype, recvtype}, TMPI_OP_NULL, [=](const Call& c) {
    return do_gatherv(c, sendbuf, sendcount, sendtype, recvbuf, rc.data(), rd.data(), recvtype, root);
  });
}

int TMPI_Iscatter(const void* sendbuf, int sendcount, TMPI_Datatype sendtype, void* recvbuf, int recvcount,
                  TMPI_Datatype recvtype, int root, TMPI_Comm comm, TMPI_Request* request) {
  TMPI_COLLECTIVE_CALL("MPI_Iscatter", comm);
  return launch(call, request, {sendtype, recvtype}, TMPI_OP_NULL, [=](const Call& c) {
    return do_scatter(c, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root);
  });
}

int TMPI_Iscatterv(const void* sendbuf, const int sendcounts[], const int displs[], TMPI_Datatype sendtype,
                   void* recvbuf, int recvcount, TMPI_Datatype recvtype, int root, TMPI_Comm comm,
                   TMPI_Request* request) {
  TMPI_COLLECTIVE_CALL("MPI_Iscatterv", comm);
  bool root_side = is_root(call, root);
  auto sc = copy_of(root_side ? sendcounts : nullptr, peers(call));
  auto sd = copy_of(root_side ? displs : nullptr, peers(call));
  return launch(call, request, {sendtype, recvtype}, TMPI_OP_NULL, [=](const Call& c) {
    return do_scatterv(c, sendbuf, sc.data(), sd.data(), sendtype, recvbuf, recvcount, recvtype, root);
  });
}

int TMPI_Iallgather(const void* sendbuf, int sendcount, TMPI_Datatype sendtype, void* recvbuf, int recvcount,
                    TMPI_Datatype recvtype, TMPI_Comm comm, TMPI_Request* request) {
  TMPI_COLLECTIVE_CALL("MPI_Iallgather", comm);
  auto rc = uniform_counts(call.info.size, recvcount), rd = strided_displs(call.info.size, recvcount);
  return launch(call, request, {sendtype, recvtype}, TMPI_OP_NULL, [=](const Call& c) {
    return do_allgatherv(c, sendbuf, sendcount, sendtype, recvbuf, rc.data(), rd.data(), recvtype, true);
  });
}

int TMPI_Iallgatherv(const void* sendbuf, int sendcount, TMPI_Datatype sendtype, void* recvbuf,
                     const int recvcounts[], const int displs[], TMPI_Datatype recvtype, TMPI_Comm comm,
                     TMPI_Request* request) {
  TMPI_COLLECTIVE_CALL("MPI_Iallgatherv", comm);
  auto rc = copy_of(recvcounts, peers(call)), rd = copy_of(displs, peers(call));
  return launch(call, request, {sendtype, recvtype}, TMPI_OP_NULL, [=](const Call& c) {
    return do_allgatherv(c, sendbuf, sendcount, sendtype, recvbuf, rc.data(), rd.data(), recvtype, false);
  });
}

int TMPI_Ialltoall(const void* sendbuf, int sendcount, TMPI_Datatype sendtype, void* recvbuf, int recvcount,
                   TMPI_Datatype recvtype, TMPI_Comm comm, TMPI_Request* request) {
  TMPI_COLLECTIVE_CALL("MPI_Ialltoall", comm);
  return launch(call, request, {sendtype, recvtype}, TMPI_OP_NULL, [=](const Call& c) {
    return do_alltoall(c, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype);
  });
}

int TMPI_Ialltoallv(const void* sendbuf, const int sendcounts[], const int sdispls[], TMPI_Datatype sendtype,
                    void* recvbuf, const int recvcounts[], const int rdispls[], TMPI_Datatype recvtype,
                    TMPI_Comm comm, TMPI_Request* request) {
  TMPI_COLLECTIVE_CALL("MPI_Ialltoallv", comm);
  int n = peers(call);
  bool in_place = sendbuf == TMPI_IN_PLACE;
  auto sc = copy_of(in_place ? nullptr : sendcounts, n), sd = copy_of(in_place ? nullptr : sdispls, n);
  auto rc = copy_of(recvcounts, n), rd = copy_of(rdispls, n);
  return launch(call, request, {sendtype, recvtype}, TMPI_OP_NULL, [=](const Call& c) {
    return do_alltoallv(c, sendbuf, sc.data(), sd.data(), sendtype, recvbuf, rc.data(), rd.data(), recvtype);
  });
}

int TMPI_Ialltoallw(const void* sendbuf, const int sendcounts[], const int sdispls[], const TMPI_Datatype sendtypes[],
                    void* recvbuf, const int recvcounts[], const int rdispls[], const TMPI_Datatype recvtypes[],
                    TMPI_Comm comm, TMPI_Request* request) {
  TMPI_COLLECTIVE_CALL("MPI_Ialltoallw", comm);
  int n = peers(call);
  bool in_place = sendbuf == TMPI_IN_PLACE;
  auto sc = copy_of(in_place ? nullptr : sendcounts, n), sd = copy_of(in_place ? nullptr : sdispls, n);
  auto st = copy_of(in_place ? nullptr : sendtypes, n);
  auto rc = copy_of(recvcounts, n), rd = copy_of(rdispls, n), rt = copy_of(recvtypes, n);
  return launch(call, request, both(st, rt), TMPI_OP_NULL, [=](const Call& c) {
    return do_alltoallw(c, sendbuf, sc.data(), sd.data(), st.data(), recvbuf, rc.data(), rd.data(), rt.data(), true);
  });
}

int TMPI_Ireduce_scatter(const void* sendbuf, void* recvbuf, const int recvcounts[], TMPI_Datatype type, TMPI_Op op,
                         TMPI_Comm comm, TMPI_Request* request) {
  TMPI_COLLECTIVE_CALL("MPI_Ireduce_scatter", comm);
  auto rc = copy_of(recvcounts, call.info.size);
  return launch(call, request, {type}, op,
                [=](const Call& c) { return do_reduce_scatter(c, sendbuf, recvbuf, rc.data(), type, op); });
}

int TMPI_Ireduce_scatter_block(const void* sendbuf, void* recvbuf, int recvcount, TMPI_Datatype type, TMPI_Op op,
                               TMPI_Comm comm, TMPI_Request* request) {
  TMPI_COLLECTIVE_CALL("MPI_Ireduce_scatter_block", comm);
  auto rc = uniform_counts(call.info.size, recvcount);
  return launch(call, request, {type}, op,
                [=](const Call& c) { return do_reduce_scatter(c, sendbuf, recvbuf, rc.data(), type, op); });
}

int TMPI_Iscan(const void* sendbuf, void* recvbuf, int count, TMPI_Datatype type, TMPI_Op op, TMPI_Comm comm,
               TMPI_Request* request) {
  TMPI_COLLECTIVE_CALL("MPI_Iscan", comm);
  return launch(call, request, {type}, op,
                [=](const Call& c) { return do_scan(c, sendbuf, recvbuf, count, type, op, false); });
}

int TMPI_Iexscan(const void* sendbuf, void* recvbuf, int count, TMPI_Datatype type, TMPI_Op op, TMPI_Comm comm,
                 TMPI_Request* request) {
  TMPI_COLLECTIVE_CALL("MPI_Iexscan", comm);
  return launch(call, request, {type}, op,
                [=](const Call& c) { return do_scan(c, sendbuf, recvbuf, count, type, op, true); });
}

int TMPI_Ineighbor_allgather(const void* sendbuf, int sendcount, TMPI_Datatype sendtype, void* recvbuf,
                             int recvcount, TMPI_Datatype recvtype, TMPI_Comm comm, TMPI_Request* request) {
  TMPI_COLLECTIVE_CALL("MPI_Ineighbor_allgather", comm);
  int in = 0, out = 0;
  neighbor_degrees(call, &in, &out);
  auto sc = uniform_counts(1, sendcount), sd = uniform_counts(1, 0);
  auto rc = uniform_counts(in, recvcount), rd = strided_displs(in, recvcount);
  return launch(call, request, {sendtype, recvtype}, TMPI_OP_NULL, [=](const Call& c) {
    return do_neighbor(c, sendbuf, sc.data(), sd.data(), sendtype, recvbuf, rc.data(), rd.data(), recvtype, true);
  });
}

int TMPI_Ineighbor_alltoall(const void* sendbuf, int sendcount, TMPI_Datatype sendtype, void* recvbuf, int recvcount,
                            TMPI_Datatype recvtype, TMPI_Comm comm, TMPI_Request* request) {
  TMPI_COLLECTIVE_CALL("MPI_Ineighbor_alltoall", comm);
  int in = 0, out = 0;
  neighbor_degrees(call, &in, &out);
  auto sc = uniform_counts(out, sendcount), sd = strided_displs(out, sendcount);
  auto rc = uniform_counts(in, recvcount), rd = strided_displs(in, recvcount);
  return launch(call, request, {sendtype, recvtype}, TMPI_OP_NULL, [=](const Call& c) {
    return do_neighbor(c, sendbuf, sc.data(), sd.data(), sendtype, recvbuf, rc.data(), rd.data(), recvtype, false);
  });
}

int TMPI_Ineighbor_allgatherv(const void* sendbuf, int sendcount, TMPI_Datatype sendtype, void* recvbuf,
                              const int recvcounts[], const int displs[], TMPI_Datatype recvtype, TMPI_Comm comm,
                              TMPI_Request* request) {
  TMPI_COLLECTIVE_CALL("MPI_Ineighbor_allgatherv", comm);
  int in = 0, out = 0;
  neighbor_degrees(call, &in, &out);
  auto sc = uniform_counts(1, sendcount), sd = uniform_counts(1, 0);
  auto rc = copy_of(recvcounts, in), rd = copy_of(displs, in);
  return launch(call, request, {sendtype, recvtype}, TMPI_OP_NULL, [=](const Call& c) {
    return do_neighbor(c, sendbuf, sc.data(), sd.data(), sendtype, recvbuf, rc.data(), rd.data(), recvtype, true);
  });
}

int TMPI_Ineighbor_alltoallv(const void* sendbuf, const int sendcounts[], const int sdispls[], TMPI_Datatype sendtype,
                             void* recvbuf, const int recvcounts[], const int rdispls[], TMPI_Datatype recvtype,
                             TMPI_Comm comm, TMPI_Request* request) {
  TMPI_COLLECTIVE_CALL("MPI_Ineighbor_alltoallv", comm);
  int in = 0, out = 0;
  neighbor_degrees(call, &in, &out);
  auto sc = copy_of(sendcounts, out), sd = copy_of(sdispls, out);
  auto rc = copy_of(recvcounts, in), rd = copy_of(rdispls, in);
  return launch(call, request, {sendtype, recvtype}, TMPI_OP_NULL, [=](const Call& c) {
    return do_neighbor(c, sendbuf, sc.data(), sd.data(), sendtype, recvbuf, rc.data(), rd.data(), recvtype, false);
  });
}

int TMPI_Ineighbor_alltoallw(const void* sendbuf, const int sendcounts[], const TMPI_Aint sdispls[],
                             const TMPI_Datatype sendtypes[], void* recvbuf, const int recvcounts[],
                             const TMPI_Aint rdispls[], const TMPI_Datatype recvtypes[], TMPI_Comm comm,
                             TMPI_Request* request) {
  TMPI_COLLECTIVE_CALL("MPI_Ineighbor_alltoallw", comm);
  int in = 0, out = 0;
  neighbor_degrees(call, &in, &out);
  auto sc = copy_of(sendcounts, out), rc = copy_of(recvcounts, in);
  auto sd = copy_of(sdispls, out), rd = copy_of(rdispls, in);
  auto st = copy_of(sendtypes, out), rt = copy_of(recvtypes, in);
  return launch(call, request, both(st, rt), TMPI_OP_NULL, [=](const Call& c) {
    return do_neighbor_w(c, sendbuf, sc.data(), sd.data(), st.data(), recvbuf, rc.data(), rd.data(), rt.data(),
                         NeighborBlocks::kByteDisplacements);
  });
}

}  // extern "C"
