// The role of each MPI call inside a region, and the argument positions of
// the calls that communicate: views of the MPI call table,
// runtime/include/tucana/tmpi_functions.def (its TMPI_FN and TMPI_ARGS rows).
#pragma once

#include <vector>

#include "llvm/ADT/StringRef.h"

namespace tucana::translate {

enum class MpiRole {
#define TUCANA_MPI_ROLE(R) R,
  TUCANA_MPI_ROLE(BlockingRecv) TUCANA_MPI_ROLE(PostRecv) TUCANA_MPI_ROLE(BlockingSend) TUCANA_MPI_ROLE(PostSend)
  TUCANA_MPI_ROLE(SendRecv) TUCANA_MPI_ROLE(Wait) TUCANA_MPI_ROLE(Start) TUCANA_MPI_ROLE(Collective)
  TUCANA_MPI_ROLE(PostCollective) TUCANA_MPI_ROLE(Forbidden) TUCANA_MPI_ROLE(Local)
#undef TUCANA_MPI_ROLE
};

struct MpiCallInfo {
  MpiRole role;
  const char* note;
  bool receives() const {
    return role == MpiRole::BlockingRecv || role == MpiRole::PostRecv || role == MpiRole::SendRecv;
  }
  bool sends() const { return role == MpiRole::BlockingSend || role == MpiRole::PostSend || role == MpiRole::SendRecv; }
  bool collective() const { return role == MpiRole::Collective || role == MpiRole::PostCollective; }
};

// The role of `name` (an MPI_ function); `known` is false for a name the
// table does not have (then: Local).
MpiCallInfo classify_mpi_call(llvm::StringRef name, bool* known = nullptr);

// ---------------------------------------------------------------- arguments
// The argument roles of the calls that communicate (TMPI_ARGS rows of the
// table), for tucana-cco and the superblock translation.

enum class MpiSize { None, One, TimesSize, V };

// A buffer argument: `buf` is its position; its byte size is
// count x extent(type) (One), times the communicator size (TimesSize), the
// span of counts[]/displs[] (V, `displs` their position) or unknown (None).
struct MpiBufferArg {
  int buf = -1, count = -1, type = -1, displs = -1;
  MpiSize size = MpiSize::None;
  bool read = false, written = false;
};

struct MpiCallArgs {
  const char* name = nullptr;
  const char* nonblocking = nullptr;   // the MPI-3 counterpart; nullptr for posts and waits
  const char* nonblocking2 = nullptr;  // a second one (MPI_Sendrecv: MPI_Irecv)
  bool collective = false;
  bool rooted = false;  // Reduce/Gather/Scatter/Bcast: buffers matter at some ranks only
  bool post = false;    // Isend/Irecv...: a post completed by a wait
  bool wait = false;    // Wait/Waitall
  // The runtime's posting form a superblock region calls instead of this
  // blocking call (tucana_sb_recv ...); nullptr: none.
  const char* sb_post = nullptr;
  int comm = -1, status = -1, request = -1;
  std::vector<MpiBufferArg> buffers;
  std::vector<int> read_arrays;  // count/displacement arrays, read until completion
};

// The argument roles of `name`; nullptr for a call that does not communicate
// (or that the table does not describe).
const MpiCallArgs* mpi_call_args(llvm::StringRef name);

}  // namespace tucana::translate
