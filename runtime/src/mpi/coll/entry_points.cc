// The blocking collective entry points (TMPI_Barrier ... TMPI_Neighbor_alltoallw)
// and the local reduction calls (TMPI_Reduce_local, TMPI_Op_*).
//
// Layer: the entry points. Each resolves its communicator (begin_call, via
// TMPI_COLLECTIVE_CALL) and hands the call to the collective calls
// (coll/calls.h); the local calls use the framework's Reduction and
// Flat (coll/framework.h) directly. Nothing below calls back into this file.
#include <tucana/tmpi.h>

#include <vector>

#include "mpi/coll/framework.h"
#include "mpi/coll/calls.h"
#include "mpi/datatype/datatype.h"

namespace tucana::mpi {
namespace {
std::size_t sz(int i) { return static_cast<std::size_t>(i); }
}  // namespace
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
  Entered me = enter(call);
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
  Entered me = enter("MPI_Op_commutative");
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
  Entered me = enter("MPI_Op_free");
  if (!free_user_op(*op)) return mpi_error(me, TMPI_COMM_WORLD, TMPI_ERR_OP, "MPI_Op_free", "not a user operation");
  *op = TMPI_OP_NULL;
  return TMPI_SUCCESS;
}

}  // extern "C"
