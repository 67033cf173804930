// The collective calls on a resolved Call (coll/calls.cc), shared by
// the blocking entry points (coll/entry_points.cc) and the non-blocking ones
// (nonblocking.cc). Each checks its arguments, runs the algorithm, and
// returns an MPI error code (after reporting it through the communicator's
// error handler).
#pragma once

#include <vector>

#include "mpi/coll/framework.h"
#include "mpi/coll/algorithms.h"  // intercomm.cc and communicator.cc run them too

namespace tucana::mpi {

int do_barrier(const Call& call);
int do_bcast(const Call& call, void* buffer, int count, TMPI_Datatype type, int root);
int do_reduce(const Call& call, const void* sendbuf, void* recvbuf, int count, TMPI_Datatype type, TMPI_Op op,
              int root);
int do_allreduce(const Call& call, const void* sendbuf, void* recvbuf, int count, TMPI_Datatype type, TMPI_Op op);
int do_gather(const Call& call, const void* sendbuf, int scount, TMPI_Datatype stype, void* recvbuf, int rcount,
              TMPI_Datatype rtype, int root);
int do_gatherv(const Call& call, const void* sendbuf, int scount, TMPI_Datatype stype, void* recvbuf,
               const int rcounts[], const int displs[], TMPI_Datatype rtype, int root);
int do_scatter(const Call& call, const void* sendbuf, int scount, TMPI_Datatype stype, void* recvbuf, int rcount,
               TMPI_Datatype rtype, int root);
int do_scatterv(const Call& call, const void* sendbuf, const int scounts[], const int displs[], TMPI_Datatype stype,
                void* recvbuf, int rcount, TMPI_Datatype rtype, int root);
// uniform_blocks: every rank's block has the same size (MPI_Allgather).
int do_allgatherv(const Call& call, const void* sendbuf, int scount, TMPI_Datatype stype, void* recvbuf,
                  const int rcounts[], const int displs[], TMPI_Datatype rtype, bool uniform_blocks);
int do_alltoall(const Call& call, const void* sendbuf, int scount, TMPI_Datatype stype, void* recvbuf, int rcount,
                TMPI_Datatype rtype);
int do_alltoallv(const Call& call, const void* sendbuf, const int scounts[], const int sdispls[], TMPI_Datatype stype,
                 void* recvbuf, const int rcounts[], const int rdispls[], TMPI_Datatype rtype);
// byte_displacements: MPI_Alltoallw's displacements (bytes, not elements).
int do_alltoallw(const Call& call, const void* sendbuf, const int scounts[], const int sdispls[],
                 const TMPI_Datatype stypes[], void* recvbuf, const int rcounts[], const int rdispls[],
                 const TMPI_Datatype rtypes[], bool byte_displacements);
int do_scan(const Call& call, const void* sendbuf, void* recvbuf, int count, TMPI_Datatype type, TMPI_Op op,
            bool exclusive);
int do_reduce_scatter(const Call& call, const void* sendbuf, void* recvbuf, const int rcounts[], TMPI_Datatype type,
                      TMPI_Op op);
// The neighbourhood collectives on any process topology: counts,
// displacements and datatypes per source (receives) and per destination
// (sends), in MPI's neighbour order.
enum class NeighborBlocks {
  kPerNeighbor,        // displacements in elements of the datatype
  kOneSendBlock,       // the allgather variants: send block 0 to every destination
  kByteDisplacements,  // MPI_Neighbor_alltoallw
};
int do_neighbor_w(const Call& call, const void* sendbuf, const int scounts[], const TMPI_Aint sdispls[],
                  const TMPI_Datatype stypes[], void* recvbuf, const int rcounts[], const TMPI_Aint rdispls[],
                  const TMPI_Datatype rtypes[], NeighborBlocks blocks);
// The same with one datatype each way. same_block: one send block for every
// neighbour (the allgather variants).
int do_neighbor(const Call& call, const void* sendbuf, const int scounts[], const int sdispls[], TMPI_Datatype stype,
                void* recvbuf, const int rcounts[], const int rdispls[], TMPI_Datatype rtype, bool same_block);
// The numbers of sources and destinations of the communicator's topology
// (0 and 0 without one).
void neighbor_degrees(const Call& call, int* indegree, int* outdegree);

// n copies of `value`, and the displacements 0, step, 2 step, ...
std::vector<int> uniform_counts(int n, int value);
std::vector<int> strided_displs(int n, int step);

}  // namespace tucana::mpi

// Starts a collective entry point: keeps the caller's errno over the call
// (fiber::KeepCallErrno), resolves `COMM` for call `NAME` into
// `call` (drawing its sequence number), or returns the error.
#define TMPI_COLLECTIVE_CALL(NAME, COMM)                       \
  tucana::fiber::KeepCallErrno keep_caller_errno;              \
  tucana::mpi::Call call;                                      \
  int begin_error = 0;                                         \
  if (!tucana::mpi::begin_call(NAME, COMM, &call, &begin_error)) return begin_error

namespace tucana::mpi {

}  // namespace tucana::mpi
