// The collective algorithms on contiguous bytes (coll/algorithms.cc):
// the message patterns of the collectives, on a Collective of the framework.
//
// Layer: the algorithms. They call only the framework (coll/framework.h); the
// collective calls (coll/calls.h, intercomm.cc) and communicator.cc
// call them. Every algorithm depends only on the communicator size and the
// root, and combines in a fixed order.
#pragma once

#include <cstddef>
#include <vector>

#include "mpi/coll/framework.h"

namespace tucana::mpi {

// The sizes at which the collectives switch algorithm (kLargeBcast, ...):
// one table, which tucana-advise's cost model reads too.
#define TMPI_THRESHOLD(NAME, BYTES, WHAT) constexpr std::size_t k##NAME = BYTES;
#include <tucana/tmpi_collective_thresholds.def>
#undef TMPI_THRESHOLD

void barrier(Collective& c);
void bcast(Collective& c, void* buf, std::size_t bytes, int root);
// Reduces every rank's `sendbuf` to `recvbuf` at `root` (recvbuf may be null
// elsewhere). Fixed order: the result depends only on size and root.
void reduce(Collective& c, const void* sendbuf, void* recvbuf, const Reduction& red, int root, std::size_t bytes);
// `inout` holds this rank's contribution and receives the result, the same
// bits at every rank.
void allreduce(Collective& c, void* inout, const Reduction& red, std::size_t bytes);
// Every rank's `block` bytes, in rank order, into `all` (size * block).
void allgather(Collective& c, const void* mine, void* all, std::size_t block);
// Blocks of any size, in rank order: `offset[i]`/`offset[i+1]` bound rank i's
// block in `all`, which holds this rank's block already (a ring).
void allgather_ring(Collective& c, char* all, const std::vector<std::size_t>& offset);
// Equal blocks to `root` into `all` (size * block bytes, in rank order, at
// the root only), along a binomial tree.
void gather_binomial(Collective& c, const void* mine, void* all, std::size_t block, int root);
// Equal blocks from `root` (`all`: size * block bytes in rank order, at the
// root) into `mine`, along a binomial tree.
void scatter_binomial(Collective& c, const void* all, void* mine, std::size_t block, int root);
// Equal packed blocks, Bruck's way: `out` holds block i for rank i, `in`
// receives block i from rank i.
void alltoall_bruck(Collective& c, const char* out, char* in, std::size_t block);

}  // namespace tucana::mpi
