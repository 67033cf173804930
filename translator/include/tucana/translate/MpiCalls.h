// The role of each MPI call inside a region (table: MpiCalls.def, the
// runtime's function list with a role per function).
#pragma once

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

}  // namespace tucana::translate
