// Address arithmetic, C/Fortran handle conversions and the predefined
// attribute callbacks of the virtual MPI.
//
// Handles are small integers (MPI_Comm, MPI_Datatype, ...), so their Fortran
// form is the same integer. Requests are pointers: MPI_Request_c2f enters one
// in a process-wide table and gives its index (0 is MPI_REQUEST_NULL).
#include <tucana/tmpi.h>

#include <cstring>
#include <unordered_map>

#include "mpi/handle_table.h"
#include "sync/mutex.h"

namespace {

using tucana::mpi::HandleReuse;
using tucana::mpi::HandleTable;

// Numbers are never reused (nor freed): a Fortran number must convert back
// to its request for as long as the program keeps it.
struct RequestTable {
  HandleTable<TMPI_Request, HandleReuse::kNever> by_index{tucana::sync::LockLevel::kLeaf, "Fortran request handles",
                                                          1};
  std::unordered_map<TMPI_Request, TMPI_Fint> index_of TUCANA_GUARDED_BY(by_index.mutex());
};
RequestTable& requests() {
  static RequestTable* table = new RequestTable;  // never destroyed: used from exit handlers
  return *table;
}

}  // namespace

extern "C" {

TMPI_Aint TMPI_Aint_add(TMPI_Aint base, TMPI_Aint disp) { return base + disp; }
TMPI_Aint TMPI_Aint_diff(TMPI_Aint addr1, TMPI_Aint addr2) { return addr1 - addr2; }

TMPI_Fint TMPI_Comm_c2f(TMPI_Comm comm) { return comm; }
TMPI_Comm TMPI_Comm_f2c(TMPI_Fint comm) { return comm; }
TMPI_Fint TMPI_Errhandler_c2f(TMPI_Errhandler errhandler) { return errhandler; }
TMPI_Errhandler TMPI_Errhandler_f2c(TMPI_Fint errhandler) { return errhandler; }
TMPI_Fint TMPI_File_c2f(TMPI_File file) { return file; }
TMPI_File TMPI_File_f2c(TMPI_Fint file) { return file; }
TMPI_Fint TMPI_Group_c2f(TMPI_Group group) { return group; }
TMPI_Group TMPI_Group_f2c(TMPI_Fint group) { return group; }
TMPI_Fint TMPI_Info_c2f(TMPI_Info info) { return info; }
TMPI_Info TMPI_Info_f2c(TMPI_Fint info) { return info; }
TMPI_Fint TMPI_Message_c2f(TMPI_Message message) { return message; }
TMPI_Message TMPI_Message_f2c(TMPI_Fint message) { return message; }
TMPI_Fint TMPI_Op_c2f(TMPI_Op op) { return op; }
TMPI_Op TMPI_Op_f2c(TMPI_Fint op) { return op; }
TMPI_Fint TMPI_Type_c2f(TMPI_Datatype datatype) { return datatype; }
TMPI_Datatype TMPI_Type_f2c(TMPI_Fint datatype) { return datatype; }
TMPI_Fint TMPI_Win_c2f(TMPI_Win win) { return win; }
TMPI_Win TMPI_Win_f2c(TMPI_Fint win) { return win; }

TMPI_Fint TMPI_Request_c2f(TMPI_Request request) {
  if (request == TMPI_REQUEST_NULL) return 0;
  RequestTable& t = requests();
  tucana::sync::MutexLock hold(t.by_index.mutex());
  auto it = t.index_of.find(request);
  if (it != t.index_of.end()) return it->second;
  TMPI_Fint index = t.by_index.allocate_locked(request);
  t.index_of.emplace(request, index);
  return index;
}

TMPI_Request TMPI_Request_f2c(TMPI_Fint request) {
  return requests().by_index.find(request).value_or(TMPI_REQUEST_NULL);
}

// A Fortran status is the C status as TMPI_STATUS_SIZE integers.
int TMPI_Status_c2f(const TMPI_Status* c_status, TMPI_Fint* f_status) {
  if (!c_status || !f_status) return TMPI_ERR_ARG;
  std::memcpy(f_status, c_status, sizeof *c_status);
  return TMPI_SUCCESS;
}

int TMPI_Status_f2c(const TMPI_Fint* f_status, TMPI_Status* c_status) {
  if (!c_status || !f_status) return TMPI_ERR_ARG;
  std::memcpy(c_status, f_status, sizeof *c_status);
  return TMPI_SUCCESS;
}

// The predefined copy callbacks: NULL_COPY does not copy the attribute to the
// new object, DUP copies its value; NULL_DELETE does nothing.
#define TMPI_NULL_FNS(KIND, HANDLE)                                                                  \
  int TMPI_##KIND##_NULL_COPY_FN(HANDLE, int, void*, void*, void*, int* flag) {                      \
    *flag = 0;                                                                                       \
    return TMPI_SUCCESS;                                                                             \
  }                                                                                                  \
  int TMPI_##KIND##_DUP_FN(HANDLE, int, void*, void* in, void* out, int* flag) {                     \
    *static_cast<void**>(out) = in;                                                                  \
    *flag = 1;                                                                                       \
    return TMPI_SUCCESS;                                                                             \
  }                                                                                                  \
  int TMPI_##KIND##_NULL_DELETE_FN(HANDLE, int, void*, void*) { return TMPI_SUCCESS; }
TMPI_NULL_FNS(COMM, TMPI_Comm)
TMPI_NULL_FNS(TYPE, TMPI_Datatype)
TMPI_NULL_FNS(WIN, TMPI_Win)
#undef TMPI_NULL_FNS

int TMPI_CONVERSION_FN_NULL(void*, TMPI_Datatype, int, void*, TMPI_Offset, void*) { return TMPI_SUCCESS; }

}  // extern "C"
