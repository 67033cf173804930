// Classification of MPI calls inside superblocks (table: MpiCalls.def).
#pragma once

#include "llvm/ADT/StringRef.h"

namespace tucana::translate {

enum class MpiCallClass { Allowed, Send, Recv, SendRecv, Wait, Collective, Forbidden };

struct MpiCallInfo {
  MpiCallClass cls;
  const char* note;
};

// How `name` is treated inside a superblock (Allowed when not in the table).
MpiCallInfo classify_mpi_call(llvm::StringRef name);

}  // namespace tucana::translate
