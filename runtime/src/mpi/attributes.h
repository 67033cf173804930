// User attributes on communicators, datatypes and windows (attributes.cc),
// as the rest of the virtual MPI uses them.
#pragma once

#include <tucana/tmpi.h>

namespace tucana::mpi {

enum class AttrKind { Comm, Type, Win };

// The value of user attribute `keyval` on the object, if set. A
// communicator is one of the calling subrank's handles.
bool get_attribute(AttrKind kind, int handle, int keyval, void** value);
// MPI_Comm_dup, MPI_Type_dup: runs the copy callbacks of `from`'s attributes
// and sets those they ask for on `to`. An error of a callback is returned
// (the attributes copied before it stay on `to`: the caller frees `to`).
int copy_attributes(AttrKind kind, int from, int to);
// MPI_Comm_free, MPI_Type_free, MPI_Win_free (and MPI_COMM_SELF at
// MPI_Finalize): runs the delete callbacks of the object's attributes and
// forgets them.
int delete_attributes(AttrKind kind, int handle);

}  // namespace tucana::mpi
