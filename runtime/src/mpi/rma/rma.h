// One-sided communication shared with the rest of the virtual MPI (rma.cc).
#pragma once

#include "core/runtime.h"

namespace tucana::mpi {

// MPI_Finalize of `me`: ends the agents of the windows it did not free, so
// that the process can end.
void rma_finalize(Subrank* me);

}  // namespace tucana::mpi
