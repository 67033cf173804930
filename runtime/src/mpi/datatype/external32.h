// The "external32" data representation (MPI 3.1 section 13.5.2) as
// conversions of packed data, for MPI_Pack_external (external32.cc) and for
// file views with the "external32" representation (io.cc).
//
// Packed native data is what pack() (typemap.h) writes: the predefined
// elements of a type signature back to back, each of its native packed size
// (type_map(t)->size). External32 data is the same elements, each of its
// external32 size, big-endian.
#pragma once

#include <tucana/tmpi.h>

#include <cstddef>

#include "mpi/datatype/typemap.h"

namespace tucana::mpi {

// The bytes one element of the predefined `type` takes in external32 (MPI
// 3.1 table 13.2; a pair type such as MPI_DOUBLE_INT counts both parts).
// Requires: 0 < type < TMPI_DATATYPE_END_ (a predefined handle, as the runs
// of a type signature are).
std::size_t external32_size(TMPI_Datatype type);

// Whether this machine can convert every predefined element of `map` (a
// long double needs an x87 or IEEE-quad long double on a little-endian
// host); when not, `*bad` gets the first type that cannot be converted.
bool external32_convertible(const TypeMap& map, TMPI_Datatype* bad);

// Converts the first `items` predefined elements of `map`'s type signature,
// tiled (element k of a signature of n elements is element k % n of copy
// k / n), from packed native data at `in` to external32 at `out`
// (to_external) or back. Returns the first predefined type with a value that
// does not fit the size it is converted to (its bytes are converted
// truncated), or TMPI_DATATYPE_NULL when all fit.
// Requires: external32_convertible(map); `in` and `out` hold the packed
// sizes of those `items` elements in their representations and do not
// overlap.
TMPI_Datatype external32_convert(const TypeMap& map, std::size_t items, bool to_external, const void* in,
                                 void* out);

}  // namespace tucana::mpi
