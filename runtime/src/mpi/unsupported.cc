// The MPI 3.1 functions that Tucana declares but does not run yet
// (tucana/tmpi_unsupported.def): each reports itself and fails cleanly.
#include <tucana/tmpi.h>

#include "mpi/errors.h"

using namespace tucana::mpi;

// Parameters are named in the table for the user's header and for HANDLE;
// most of them are unused here.
#pragma GCC diagnostic ignored "-Wunused-parameter"

extern "C" {
#define TMPI_UNSUPPORTED(NAME, PARAMS, HANDLE, REASON)                                   \
  int TMPI_##NAME PARAMS { return unsupported_call("MPI_" #NAME, REASON, HANDLE); }
#include <tucana/tmpi_unsupported.def>
#undef TMPI_UNSUPPORTED
}
