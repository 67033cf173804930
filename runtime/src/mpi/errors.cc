#include "mpi/errors.h"

#include <cstdarg>
#include <cstdio>
#include <cstdlib>

namespace tucana::mpi {

void note_polling(Subrank* me, const BlockedIn& what) {
  if (me->polling) return;
  me->polling = true;
  me->blocked = what;
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
    default: return nullptr;
  }
}

int mpi_error(const Subrank* me, TMPI_Comm comm, int code, const char* call, const char* fmt, ...) {
  TMPI_Errhandler handler = comm_errhandler(me, comm);
  if (handler == TMPI_ERRORS_RETURN) return code;
  char msg[1024];
  va_list ap;
  va_start(ap, fmt);
  std::vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  std::fprintf(stderr, "tucana: error: subrank %d: %s: %s\n", me ? me->world : -1, call, msg);
  if (Runtime* rt = Runtime::instance()) rt->abort(code ? code : 1);
  std::exit(code ? code : 1);
}

void fatal(const char* fmt, ...) {
  char msg[1024];
  va_list ap;
  va_start(ap, fmt);
  std::vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  std::fprintf(stderr, "tucana: error: %s\n", msg);
  if (Runtime* rt = Runtime::instance()) rt->abort(1);
  std::exit(1);
}

Subrank* enter(const char* call, bool before_init_ok) {
  Subrank* me = current_subrank();
  if (!me)
    fatal("%s called outside a subrank (from a thread the program created, a static "
          "constructor, or an atexit handler); Tucana runs MPI calls only in the program's main "
          "and what it calls",
          call);
  if (me->polling) {
    me->polling = false;
    me->blocked.call = nullptr;
    Runtime::get().scheduler->end_polling();
  }
  if (!before_init_ok) {
    if (!me->initialized) mpi_error(me, TMPI_COMM_WORLD, TMPI_ERR_OTHER, call, "called before MPI_Init");
    if (me->finalized) mpi_error(me, TMPI_COMM_WORLD, TMPI_ERR_OTHER, call, "called after MPI_Finalize");
  }
  return me;
}

}  // namespace tucana::mpi
