// User error handlers (MPI_Comm_create_errhandler, MPI_Win_create_errhandler,
// MPI_File_create_errhandler, MPI_Session_create_errhandler (session.cc)
// and the MPI-1 MPI_Errhandler_create/set/get), calling them
// (MPI_Comm_call_errhandler, MPI_Win_call_errhandler), and error classes,
// codes and strings the program adds (MPI_Add_error_class/code/string).
//
// Handles 1 and 2 are MPI_ERRORS_ARE_FATAL and MPI_ERRORS_RETURN; user
// handlers are process-wide numbers from 3 up, never reused (a freed handler
// stays attached where it was set, as MPI requires).
#include <tucana/tmpi.h>

#include <cassert>
#include <cstring>
#include <map>
#include <optional>
#include <string>

#include "mpi/errors.h"
#include "mpi/handle_table.h"
#include "sync/mutex.h"

using namespace tucana;
using namespace tucana::mpi;

namespace {

constexpr TMPI_Errhandler kFirstUserHandler = 3;

struct UserHandler {
  ErrhandlerKind kind;
  void* fn;
};

// The handlers (the program's) run without the lock. The added error
// classes and codes share the handlers' lock (a leaf: nothing else is
// taken under it).
struct ErrorTables {
  HandleTable<UserHandler, HandleReuse::kNever> handlers{sync::LockLevel::kLeaf, "error handlers and codes",
                                                         kFirstUserHandler};
  // Added error classes and codes (above MPI_ERR_LASTCODE): code -> class,
  // and their strings (never removed: user_error_text's result stays valid).
  std::map<int, int> class_of TUCANA_GUARDED_BY(handlers.mutex());
  std::map<int, std::string> text TUCANA_GUARDED_BY(handlers.mutex());
  int last_used TUCANA_GUARDED_BY(handlers.mutex()) = TMPI_ERR_LASTCODE;
};
ErrorTables& tables() {
  static ErrorTables* t = new ErrorTables;  // never destroyed
  return *t;
}

}  // namespace

namespace tucana::mpi {

int create_errhandler(ErrhandlerKind kind, void* fn, TMPI_Errhandler* errhandler) {
  *errhandler = tables().handlers.allocate(UserHandler{kind, fn});
  return TMPI_SUCCESS;
}

bool valid_errhandler(TMPI_Errhandler handler, ErrhandlerKind kind) {
  if (handler == TMPI_ERRORS_ARE_FATAL || handler == TMPI_ERRORS_RETURN) return true;
  std::optional<UserHandler> h = tables().handlers.find(handler);
  return h && h->kind == kind;
}

// Requires: `handler` came from create_errhandler (the callers check it).
void call_user_errhandler(TMPI_Errhandler handler, int* object, int code) {
  std::optional<UserHandler> h = tables().handlers.find(handler);
  assert(h && "call_user_errhandler: a user error handler");
  void* fn = h->fn;
  switch (h->kind) {
    case ErrhandlerKind::Comm: reinterpret_cast<TMPI_Comm_errhandler_function*>(fn)(object, &code); break;
    case ErrhandlerKind::Win: reinterpret_cast<TMPI_Win_errhandler_function*>(fn)(object, &code); break;
    case ErrhandlerKind::File: reinterpret_cast<TMPI_File_errhandler_function*>(fn)(object, &code); break;
    case ErrhandlerKind::Session: reinterpret_cast<TMPI_Session_errhandler_function*>(fn)(object, &code); break;
  }
}

const char* user_error_text(int code) {
  ErrorTables& t = tables();
  tucana::sync::MutexLock hold(t.handlers.mutex());
  auto it = t.text.find(code);
  if (it != t.text.end()) return it->second.c_str();
  return t.class_of.count(code) ? "" : nullptr;
}

int user_error_class(int code) {
  ErrorTables& t = tables();
  tucana::sync::MutexLock hold(t.handlers.mutex());
  auto it = t.class_of.find(code);
  return it == t.class_of.end() ? -1 : it->second;
}

int last_used_error_code() {
  ErrorTables& t = tables();
  tucana::sync::MutexLock hold(t.handlers.mutex());
  return t.last_used;
}

}  // namespace tucana::mpi

extern "C" {

int TMPI_Comm_create_errhandler(TMPI_Comm_errhandler_function* fn, TMPI_Errhandler* errhandler) {
  enter("MPI_Comm_create_errhandler");
  return create_errhandler(ErrhandlerKind::Comm, reinterpret_cast<void*>(fn), errhandler);
}

int TMPI_Win_create_errhandler(TMPI_Win_errhandler_function* fn, TMPI_Errhandler* errhandler) {
  enter("MPI_Win_create_errhandler");
  return create_errhandler(ErrhandlerKind::Win, reinterpret_cast<void*>(fn), errhandler);
}

int TMPI_File_create_errhandler(TMPI_File_errhandler_function* fn, TMPI_Errhandler* errhandler) {
  enter("MPI_File_create_errhandler");
  return create_errhandler(ErrhandlerKind::File, reinterpret_cast<void*>(fn), errhandler);
}

int TMPI_Errhandler_free(TMPI_Errhandler* errhandler) {
  Entered me = enter("MPI_Errhandler_free", true);  // (session handlers: before any session or MPI_Init)
  if (!errhandler || (*errhandler != TMPI_ERRORS_ARE_FATAL && *errhandler != TMPI_ERRORS_RETURN &&
                      !valid_errhandler(*errhandler, ErrhandlerKind::Comm) &&
                      !valid_errhandler(*errhandler, ErrhandlerKind::Win) &&
                      !valid_errhandler(*errhandler, ErrhandlerKind::File) &&
                      !valid_errhandler(*errhandler, ErrhandlerKind::Session)))
    return mpi_error(me, TMPI_COMM_WORLD, TMPI_ERR_ARG, "MPI_Errhandler_free", "invalid error handler");
  *errhandler = TMPI_ERRHANDLER_NULL;
  return TMPI_SUCCESS;
}

int TMPI_Comm_call_errhandler(TMPI_Comm comm, int errorcode) {
  Entered me = enter("MPI_Comm_call_errhandler");
  int rank;
  if (int err = TMPI_Comm_rank(comm, &rank)) return err;
  mpi_error(me, comm, errorcode, "MPI_Comm_call_errhandler", "error code %d raised by the program", errorcode);
  return TMPI_SUCCESS;  // the handler returned
}

// The MPI-1 names, removed in MPI 3.0.
int TMPI_Errhandler_create(TMPI_Handler_function* fn, TMPI_Errhandler* errhandler) {
  return TMPI_Comm_create_errhandler(fn, errhandler);
}
int TMPI_Errhandler_set(TMPI_Comm comm, TMPI_Errhandler errhandler) {
  return TMPI_Comm_set_errhandler(comm, errhandler);
}
int TMPI_Errhandler_get(TMPI_Comm comm, TMPI_Errhandler* errhandler) {
  return TMPI_Comm_get_errhandler(comm, errhandler);
}

int TMPI_Add_error_class(int* errorclass) {
  enter("MPI_Add_error_class", true);
  ErrorTables& t = tables();
  tucana::sync::MutexLock hold(t.handlers.mutex());
  *errorclass = ++t.last_used;
  t.class_of[*errorclass] = *errorclass;
  return TMPI_SUCCESS;
}

int TMPI_Add_error_code(int errorclass, int* errorcode) {
  Entered me = enter("MPI_Add_error_code", true);
  bool known = errorclass >= TMPI_SUCCESS && errorclass < TMPI_ERR_LASTCODE;
  if (!known) known = user_error_class(errorclass) == errorclass;
  if (!known)
    return mpi_error(me, TMPI_COMM_WORLD, TMPI_ERR_ARG, "MPI_Add_error_code", "%d is not an error class",
                     errorclass);
  ErrorTables& t = tables();
  tucana::sync::MutexLock hold(t.handlers.mutex());
  *errorcode = ++t.last_used;
  t.class_of[*errorcode] = errorclass;
  return TMPI_SUCCESS;
}

int TMPI_Add_error_string(int errorcode, const char* string) {
  Entered me = enter("MPI_Add_error_string", true);
  if (user_error_class(errorcode) < 0)
    return mpi_error(me, TMPI_COMM_WORLD, TMPI_ERR_ARG, "MPI_Add_error_string",
                     "%d is not an error class or code added by the program", errorcode);
  ErrorTables& t = tables();
  tucana::sync::MutexLock hold(t.handlers.mutex());
  t.text[errorcode].assign(string, strnlen(string, TMPI_MAX_ERROR_STRING - 1));
  return TMPI_SUCCESS;
}

}  // extern "C"
