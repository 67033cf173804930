// Info objects shared with the rest of the virtual MPI (info.cc).
#pragma once

#include <tucana/tmpi.h>

namespace tucana::mpi {

// A new, empty info object (MPI_Comm_get_info, MPI_Win_get_info).
TMPI_Info new_info();
// MPI_INFO_NULL, MPI_INFO_ENV or a live info object.
bool valid_info(TMPI_Info info);

}  // namespace tucana::mpi
