#include "mpi/errors.h"

#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <set>
#include <string>

#include "sync/mutex.h"
#include "omp/threads.h"
#include "tasks/task.h"

namespace tucana::mpi {

void note_polling(Subrank* me, const BlockedIn& what) {
  // The subrank's own record, or its task's (a helper fiber has none).
  Actor* actor = tasks::calling_actor(me);
  if (!actor || actor->polling) return;
  {
    sync::MutexLock lock(polling_mutex());
    actor->polling = true;
    actor->blocked = what;
  }
  Runtime::get().scheduler->begin_polling();
}

const char* error_text(int code) {
  switch (code) {
    case TMPI_SUCCESS: return "MPI_SUCCESS: no error";
    case TMPI_ERR_BUFFER: return "MPI_ERR_BUFFER: invalid buffer pointer";
    case TMPI_ERR_COUNT: return "MPI_ERR_COUNT: invalid count argument";
    case TMPI_ERR_TYPE: return "MPI_ERR_TYPE: invalid datatype";
    case TMPI_ERR_TAG: return "MPI_ERR_TAG: invalid tag";
    case TMPI_ERR_COMM: return "MPI_ERR_COMM: invalid communicator";
    case TMPI_ERR_RANK: return "MPI_ERR_RANK: invalid rank";
    case TMPI_ERR_REQUEST: return "MPI_ERR_REQUEST: invalid request";
    case TMPI_ERR_ROOT: return "MPI_ERR_ROOT: invalid root";
    case TMPI_ERR_GROUP: return "MPI_ERR_GROUP: invalid group";
    case TMPI_ERR_OP: return "MPI_ERR_OP: invalid reduce operation";
    case TMPI_ERR_TOPOLOGY: return "MPI_ERR_TOPOLOGY: invalid communicator topology";
    case TMPI_ERR_DIMS: return "MPI_ERR_DIMS: invalid dimension argument";
    case TMPI_ERR_ARG: return "MPI_ERR_ARG: invalid argument of some other kind";
    case TMPI_ERR_UNKNOWN: return "MPI_ERR_UNKNOWN: unknown error";
    case TMPI_ERR_TRUNCATE: return "MPI_ERR_TRUNCATE: message truncated";
    case TMPI_ERR_OTHER: return "MPI_ERR_OTHER: known error not in this list";
    case TMPI_ERR_INTERN: return "MPI_ERR_INTERN: internal error";
    case TMPI_ERR_IN_STATUS: return "MPI_ERR_IN_STATUS: error code is in status";
    case TMPI_ERR_PENDING: return "MPI_ERR_PENDING: pending request";
    case TMPI_ERR_UNSUPPORTED_OPERATION: return "MPI_ERR_UNSUPPORTED_OPERATION: operation not supported by Tucana";
    case TMPI_ERR_ACCESS: return "MPI_ERR_ACCESS: permission denied";
    case TMPI_ERR_AMODE: return "MPI_ERR_AMODE: invalid file access mode";
    case TMPI_ERR_ASSERT: return "MPI_ERR_ASSERT: invalid assertion";
    case TMPI_ERR_BAD_FILE: return "MPI_ERR_BAD_FILE: invalid file name";
    case TMPI_ERR_BASE: return "MPI_ERR_BASE: invalid base address";
    case TMPI_ERR_CONVERSION: return "MPI_ERR_CONVERSION: error in a data conversion function";
    case TMPI_ERR_DISP: return "MPI_ERR_DISP: invalid displacement";
    case TMPI_ERR_DUP_DATAREP: return "MPI_ERR_DUP_DATAREP: data representation already registered";
    case TMPI_ERR_FILE_EXISTS: return "MPI_ERR_FILE_EXISTS: file exists";
    case TMPI_ERR_FILE_IN_USE: return "MPI_ERR_FILE_IN_USE: file in use";
    case TMPI_ERR_FILE: return "MPI_ERR_FILE: invalid file handle";
    case TMPI_ERR_INFO_KEY: return "MPI_ERR_INFO_KEY: info key too long";
    case TMPI_ERR_INFO_NOKEY: return "MPI_ERR_INFO_NOKEY: no such info key";
    case TMPI_ERR_INFO_VALUE: return "MPI_ERR_INFO_VALUE: info value too long";
    case TMPI_ERR_INFO: return "MPI_ERR_INFO: invalid info object";
    case TMPI_ERR_IO: return "MPI_ERR_IO: I/O error";
    case TMPI_ERR_KEYVAL: return "MPI_ERR_KEYVAL: invalid attribute key";
    case TMPI_ERR_LOCKTYPE: return "MPI_ERR_LOCKTYPE: invalid lock type";
    case TMPI_ERR_NAME: return "MPI_ERR_NAME: invalid service name";
    case TMPI_ERR_NO_MEM: return "MPI_ERR_NO_MEM: out of memory";
    case TMPI_ERR_NOT_SAME: return "MPI_ERR_NOT_SAME: arguments differ between the processes of a collective";
    case TMPI_ERR_NO_SPACE: return "MPI_ERR_NO_SPACE: not enough space";
    case TMPI_ERR_NO_SUCH_FILE: return "MPI_ERR_NO_SUCH_FILE: no such file";
    case TMPI_ERR_PORT: return "MPI_ERR_PORT: invalid port name";
    case TMPI_ERR_QUOTA: return "MPI_ERR_QUOTA: quota exceeded";
    case TMPI_ERR_READ_ONLY: return "MPI_ERR_READ_ONLY: file is read-only";
    case TMPI_ERR_RMA_ATTACH: return "MPI_ERR_RMA_ATTACH: memory cannot be attached";
    case TMPI_ERR_RMA_CONFLICT: return "MPI_ERR_RMA_CONFLICT: conflicting accesses to a window";
    case TMPI_ERR_RMA_RANGE: return "MPI_ERR_RMA_RANGE: target memory outside the window";
    case TMPI_ERR_RMA_SHARED: return "MPI_ERR_RMA_SHARED: memory cannot be shared";
    case TMPI_ERR_RMA_SYNC: return "MPI_ERR_RMA_SYNC: wrong synchronization of RMA calls";
    case TMPI_ERR_RMA_FLAVOR: return "MPI_ERR_RMA_FLAVOR: wrong window flavor";
    case TMPI_ERR_SERVICE: return "MPI_ERR_SERVICE: invalid service";
    case TMPI_ERR_SIZE: return "MPI_ERR_SIZE: invalid size";
    case TMPI_ERR_SPAWN: return "MPI_ERR_SPAWN: cannot spawn processes";
    case TMPI_ERR_UNSUPPORTED_DATAREP: return "MPI_ERR_UNSUPPORTED_DATAREP: unsupported data representation";
    case TMPI_ERR_WIN: return "MPI_ERR_WIN: invalid window";
    case TMPI_ERR_SESSION: return "MPI_ERR_SESSION: invalid session";
    case TMPI_T_ERR_MEMORY: return "MPI_T_ERR_MEMORY: out of memory";
    case TMPI_T_ERR_NOT_INITIALIZED: return "MPI_T_ERR_NOT_INITIALIZED: MPI_T not initialized";
    case TMPI_T_ERR_CANNOT_INIT: return "MPI_T_ERR_CANNOT_INIT: MPI_T cannot be initialized";
    case TMPI_T_ERR_INVALID_INDEX: return "MPI_T_ERR_INVALID_INDEX: invalid variable or category index";
    case TMPI_T_ERR_INVALID_ITEM: return "MPI_T_ERR_INVALID_ITEM: invalid enumeration item";
    case TMPI_T_ERR_INVALID_HANDLE: return "MPI_T_ERR_INVALID_HANDLE: invalid handle";
    case TMPI_T_ERR_OUT_OF_HANDLES: return "MPI_T_ERR_OUT_OF_HANDLES: no more handles";
    case TMPI_T_ERR_OUT_OF_SESSIONS: return "MPI_T_ERR_OUT_OF_SESSIONS: no more sessions";
    case TMPI_T_ERR_INVALID_SESSION: return "MPI_T_ERR_INVALID_SESSION: invalid session";
    case TMPI_T_ERR_CVAR_SET_NOT_NOW: return "MPI_T_ERR_CVAR_SET_NOT_NOW: variable cannot be set now";
    case TMPI_T_ERR_CVAR_SET_NEVER: return "MPI_T_ERR_CVAR_SET_NEVER: variable cannot be set";
    case TMPI_T_ERR_PVAR_NO_STARTSTOP: return "MPI_T_ERR_PVAR_NO_STARTSTOP: variable cannot be started or stopped";
    case TMPI_T_ERR_PVAR_NO_WRITE: return "MPI_T_ERR_PVAR_NO_WRITE: variable cannot be written";
    case TMPI_T_ERR_PVAR_NO_ATOMIC: return "MPI_T_ERR_PVAR_NO_ATOMIC: variable cannot be read and reset atomically";
    case TMPI_T_ERR_INVALID_NAME: return "MPI_T_ERR_INVALID_NAME: no variable or category of that name";
    case TMPI_T_ERR_INVALID: return "MPI_T_ERR_INVALID: invalid use of the tool interface";
    default: return nullptr;
  }
}

namespace {

// `object`: the handle of the communicator, window or file the error is
// on, for the program's own handler.
int report(const Subrank* me, TMPI_Errhandler handler, int object, int code, const char* call, const char* fmt,
           va_list ap) {
  if (handler == TMPI_ERRORS_RETURN) return code;
  if (handler != TMPI_ERRORS_ARE_FATAL) {  // the program's own handler decides
    call_user_errhandler(handler, &object, code);
    return code;
  }
  char msg[1024];
  std::vsnprintf(msg, sizeof msg, fmt, ap);
  std::fprintf(stderr, "tucana: error: subrank %d: %s: %s\n", me ? me->world : -1, call, msg);
  if (Runtime* rt = Runtime::instance()) rt->abort(code ? code : 1);
  std::exit(code ? code : 1);
}

}  // namespace

int mpi_error(const Subrank* me, TMPI_Comm comm, int code, const char* call, const char* fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int err = report(me, comm_errhandler(me, comm), comm, code, call, fmt, ap);
  va_end(ap);
  return err;
}

int report_error(const Subrank* me, TMPI_Errhandler handler, int object, int code, const char* call,
                 const char* fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int err = report(me, handler, object, code, call, fmt, ap);
  va_end(ap);
  return err;
}

int unsupported_call(const char* call, const char* reason, TMPI_Comm comm) {
  Entered me = enter(call, true);
  if (comm_errhandler(me, comm) != TMPI_ERRORS_RETURN)
    return mpi_error(me, comm, TMPI_ERR_UNSUPPORTED_OPERATION, call, "%s is not supported by Tucana: %s", call,
                     reason);
  // The program handles the error itself: say it once, not on every retry.
  static sync::Mutex lock(sync::LockLevel::kLeaf, "unsupported calls reported");
  static std::set<std::string> reported TUCANA_GUARDED_BY(lock);
  sync::MutexLock hold(lock);
  if (reported.insert(call).second)
    std::fprintf(stderr, "tucana: warning: subrank %d: %s is not supported by Tucana: %s (returned MPI_ERR_UNSUPPORTED_OPERATION)\n",
                 me->world, call, reason);
  return TMPI_ERR_UNSUPPORTED_OPERATION;
}

namespace {

Subrank* entering_subrank(const char* call, bool before_init_ok) {
  Subrank* me = current_subrank();
  if (!me && thread_subrank())
    fatal("%s called by an OpenMP thread or a thread that subrank %d started: Tucana gives "
          "MPI_THREAD_FUNNELED, only the subrank's own thread may call MPI (docs/privatization.md, "
          "\"OpenMP and threads inside a subrank\")",
          call, thread_subrank()->world);
  if (me && omp::region_depth() > 0)
    fatal("%s called by subrank %d inside an OpenMP parallel region: Tucana runs a subrank's MPI "
          "calls between its parallel regions, not inside one (its fiber cannot leave the worker "
          "while its team runs; docs/privatization.md, \"OpenMP and threads inside a subrank\")",
          call, me->world);
  if (!me)
    fatal("%s called outside a subrank (from a thread the program created, a static "
          "constructor, or an atexit handler); Tucana runs MPI calls only in the program's main "
          "and what it calls",
          call);
  Actor* actor = tasks::calling_actor(me);
  if (actor && actor->polling) {
    {
      sync::MutexLock lock(polling_mutex());
      actor->polling = false;
      actor->blocked.call = nullptr;
    }
    Runtime::get().scheduler->end_polling();
  }
  if (!before_init_ok) {
    if (!me->initialized && me->sessions == 0)
      mpi_error(me, TMPI_COMM_WORLD, TMPI_ERR_OTHER, call, "called before MPI_Init (and outside any MPI session)");
    if (me->finalized) mpi_error(me, TMPI_COMM_WORLD, TMPI_ERR_OTHER, call, "called after MPI_Finalize");
  }
  return me;
}

}  // namespace

Entered enter(const char* call, bool before_init_ok) {
  const int caller_errno = *fiber::errno_here();  // before any work of the runtime's
  return Entered(entering_subrank(call, before_init_ok), caller_errno);
}

}  // namespace tucana::mpi
