// The predefined datatypes and reduction operations (tables in
// tucana/tmpi_datatypes.def and tucana/tmpi_ops.def).
#pragma once

#include <tucana/tmpi.h>

#include <complex>
#include <cstddef>
#include <cstdint>

namespace tucana {

// Layouts of the MAXLOC/MINLOC pair types.
template <typename T>
struct Pair {
  T value;
  int index;
};
template <typename T>
struct Pair2 {
  T value;
  T index;
};

namespace mpi {

enum class TypeClass { INT, UINT, FLOAT, COMPLEX, BOOL, LOGICAL, BYTE, PAIR, NONE };

// A predefined type as it lies in memory: MPI_Type_size is `size`, the
// bytes of data (for the MAXLOC/MINLOC pairs the sum of their two members,
// without the padding of the C struct); MPI_Type_get_extent is `extent`
// (the C type's sizeof, padding included); `align` is the C type's
// alignment (a struct type's extent is rounded up to its members' largest).
// A pair's data is two blocks: `first` bytes at offset 0 and the rest at
// `second_offset` (0 for the other types, which are one block).
struct TypeInfo {
  const char* name;  // "MPI_INT"
  std::size_t size;
  TypeClass cls;
  std::size_t extent;
  std::size_t align;
  std::size_t first;
  std::size_t second_offset;
};

// The description of a datatype handle, or null if it is not a valid one.
const TypeInfo* type_info(TMPI_Datatype type);

// The name of a reduction operation ("MPI_SUM"), or null if invalid.
const char* op_name(TMPI_Op op);

// User operations (MPI_Op_create) have handles from kFirstUserOp up.
constexpr TMPI_Op kFirstUserOp = 64;
// `big_count`: `fn` is really an MPI_User_function_c (MPI_Op_create_c),
// called with an MPI_Count length.
TMPI_Op create_user_op(TMPI_User_function* fn, bool commute, bool big_count = false);
// MPI_Op_free: false if `op` is not a user operation (or freed already).
bool free_user_op(TMPI_Op op);
// An operation that may run after the program freed `op` (a non-blocking
// collective) pins it first and unpins it when done: a freed operation
// stays usable until the last pin goes. pin_op is false (and nothing to
// unpin) for predefined and invalid operations.
bool pin_op(TMPI_Op op);
void unpin_op(TMPI_Op op);
// The function of a user operation (null if `op` is not one); *big_count
// (if given) tells that it is an MPI_User_function_c.
TMPI_User_function* user_op(TMPI_Op op, bool* commute, bool* big_count = nullptr);

// inout[i] = in[i] OP inout[i] for `count` elements of `type` (MPI's order
// for user operations), packed: element i at i * type_info(type)->size (a
// pair's index follows its value without padding). Returns false when `op`
// is not defined on `type`.
bool apply_op(TMPI_Op op, TMPI_Datatype type, const void* in, void* inout, std::size_t count);

}  // namespace mpi
}  // namespace tucana
