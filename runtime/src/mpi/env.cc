// Environment and communicator queries of the virtual MPI.
#include <tucana/tmpi.h>

#include <chrono>
#include <cstdio>
#include <cstring>

#include "mpi/datatype.h"
#include "mpi/errors.h"

using namespace tucana;
using namespace tucana::mpi;

namespace tucana::mpi {

bool comm_info(const Subrank* me, TMPI_Comm comm, CommInfo* out) {
  if (comm == TMPI_COMM_WORLD) {
    *out = CommInfo{Runtime::get().layout.total, me->world, kWorldP2P, kWorldColl};
    return true;
  }
  if (comm == TMPI_COMM_SELF) {
    *out = CommInfo{1, 0, kSelfP2P, kSelfColl};
    return true;
  }
  return false;
}

int to_world(const Subrank* me, TMPI_Comm comm, int rank) {
  return comm == TMPI_COMM_SELF ? me->world : rank;
}

int from_world(const Subrank* me, TMPI_Comm comm, int world) {
  if (world < 0) return world;  // MPI_ANY_SOURCE, MPI_PROC_NULL
  return comm == TMPI_COMM_SELF ? (world == me->world ? 0 : TMPI_UNDEFINED) : world;
}

const char* comm_name(TMPI_Comm comm) {
  switch (comm) {
    case TMPI_COMM_WORLD: return "MPI_COMM_WORLD";
    case TMPI_COMM_SELF: return "MPI_COMM_SELF";
    case TMPI_COMM_NULL: return "MPI_COMM_NULL";
    default: return "an unknown communicator";
  }
}

}  // namespace tucana::mpi

extern "C" {

int TMPI_Init(int* argc, char*** argv) {
  int provided;
  return TMPI_Init_thread(argc, argv, TMPI_THREAD_SINGLE, &provided);
}

int TMPI_Init_thread(int* argc, char*** argv, int required, int* provided) {
  (void)argc;
  (void)argv;
  Subrank* me = enter("MPI_Init", true);
  if (me->initialized)
    return mpi_error(me, TMPI_COMM_WORLD, TMPI_ERR_OTHER, "MPI_Init", "MPI is already initialized");
  // A subrank is one fiber: its own calls are serialized by construction, but
  // threads the program starts itself must not call MPI (FUNNELED).
  me->thread_level = required < TMPI_THREAD_FUNNELED ? required : TMPI_THREAD_FUNNELED;
  if (provided) *provided = me->thread_level;
  me->initialized = true;
  return TMPI_SUCCESS;
}

int TMPI_Initialized(int* flag) {
  Subrank* me = current_subrank();
  *flag = me && me->initialized;
  return TMPI_SUCCESS;
}

int TMPI_Finalized(int* flag) {
  Subrank* me = current_subrank();
  *flag = me && me->finalized;
  return TMPI_SUCCESS;
}

int TMPI_Finalize(void) {
  Subrank* me = enter("MPI_Finalize");
  me->finalized = true;
  Runtime::get().subrank_finalized(me);
  return TMPI_SUCCESS;
}

int TMPI_Abort(TMPI_Comm comm, int errorcode) {
  Subrank* me = current_subrank();
  std::fprintf(stderr, "tucana: subrank %d called MPI_Abort(%s, %d)\n", me ? me->world : -1,
               comm_name(comm), errorcode);
  Runtime::get().abort(errorcode);
}

int TMPI_Query_thread(int* provided) {
  *provided = enter("MPI_Query_thread")->thread_level;
  return TMPI_SUCCESS;
}

int TMPI_Is_thread_main(int* flag) {
  *flag = current_subrank() != nullptr;
  return TMPI_SUCCESS;
}

int TMPI_Get_version(int* version, int* subversion) {
  *version = TMPI_VERSION;
  *subversion = TMPI_SUBVERSION;
  return TMPI_SUCCESS;
}

int TMPI_Get_library_version(char* version, int* resultlen) {
  int n = std::snprintf(version, TMPI_MAX_LIBRARY_VERSION_STRING,
                        "Tucana virtual MPI (subranks as fibers over the system MPI)");
  *resultlen = n;
  return TMPI_SUCCESS;
}

int TMPI_Get_processor_name(char* name, int* resultlen) {
  const std::string& n = Runtime::get().transport.processor_name();
  std::size_t len = n.size() < TMPI_MAX_PROCESSOR_NAME - 1 ? n.size() : TMPI_MAX_PROCESSOR_NAME - 1;
  std::memcpy(name, n.data(), len);
  name[len] = '\0';
  *resultlen = static_cast<int>(len);
  return TMPI_SUCCESS;
}

int TMPI_Error_string(int errorcode, char* string, int* resultlen) {
  const char* text = error_text(errorcode);
  int n = text ? std::snprintf(string, TMPI_MAX_ERROR_STRING, "%s", text)
               : std::snprintf(string, TMPI_MAX_ERROR_STRING, "unknown error code %d", errorcode);
  *resultlen = n;
  return text ? TMPI_SUCCESS : TMPI_ERR_ARG;
}

int TMPI_Error_class(int errorcode, int* errorclass) {
  *errorclass = errorcode;
  return error_text(errorcode) ? TMPI_SUCCESS : TMPI_ERR_ARG;
}

double TMPI_Wtime(void) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

double TMPI_Wtick(void) {
  return std::chrono::duration<double>(std::chrono::steady_clock::duration(1)).count();
}

int TMPI_Comm_rank(TMPI_Comm comm, int* rank) {
  Subrank* me = enter("MPI_Comm_rank");
  CommInfo ci;
  if (!comm_info(me, comm, &ci))
    return mpi_error(me, TMPI_COMM_WORLD, TMPI_ERR_COMM, "MPI_Comm_rank", "invalid communicator %d", comm);
  *rank = ci.rank;
  return TMPI_SUCCESS;
}

int TMPI_Comm_size(TMPI_Comm comm, int* size) {
  Subrank* me = enter("MPI_Comm_size");
  CommInfo ci;
  if (!comm_info(me, comm, &ci))
    return mpi_error(me, TMPI_COMM_WORLD, TMPI_ERR_COMM, "MPI_Comm_size", "invalid communicator %d", comm);
  *size = ci.size;
  return TMPI_SUCCESS;
}

int TMPI_Comm_get_attr(TMPI_Comm comm, int keyval, void* value, int* flag) {
  Subrank* me = enter("MPI_Comm_get_attr");
  CommInfo ci;
  if (!comm_info(me, comm, &ci))
    return mpi_error(me, TMPI_COMM_WORLD, TMPI_ERR_COMM, "MPI_Comm_get_attr", "invalid communicator %d", comm);
  // Predefined attributes are returned as pointers to int, as MPI says.
  static int tag_ub, host = TMPI_PROC_NULL, io = TMPI_ANY_SOURCE, wtime_global = 0, universe, appnum = 0;
  tag_ub = Runtime::get().transport.user_tag_ub();
  universe = Runtime::get().layout.total;
  int* result = nullptr;
  switch (keyval) {
    case TMPI_TAG_UB: result = &tag_ub; break;
    case TMPI_HOST: result = &host; break;
    case TMPI_IO: result = &io; break;
    case TMPI_WTIME_IS_GLOBAL: result = &wtime_global; break;
    case TMPI_UNIVERSE_SIZE: result = &universe; break;
    case TMPI_APPNUM: result = &appnum; break;
    default: break;
  }
  *flag = result != nullptr;
  if (result) *static_cast<int**>(value) = result;
  return TMPI_SUCCESS;
}

int TMPI_Comm_set_errhandler(TMPI_Comm comm, TMPI_Errhandler errhandler) {
  Subrank* me = enter("MPI_Comm_set_errhandler");
  if (errhandler != TMPI_ERRORS_ARE_FATAL && errhandler != TMPI_ERRORS_RETURN)
    return mpi_error(me, comm, TMPI_ERR_ARG, "MPI_Comm_set_errhandler",
                     "only MPI_ERRORS_ARE_FATAL and MPI_ERRORS_RETURN are supported");
  if (comm == TMPI_COMM_WORLD) me->errhandler_world = errhandler;
  else if (comm == TMPI_COMM_SELF) me->errhandler_self = errhandler;
  else return mpi_error(me, TMPI_COMM_WORLD, TMPI_ERR_COMM, "MPI_Comm_set_errhandler", "invalid communicator %d", comm);
  return TMPI_SUCCESS;
}

int TMPI_Comm_get_errhandler(TMPI_Comm comm, TMPI_Errhandler* errhandler) {
  Subrank* me = enter("MPI_Comm_get_errhandler");
  if (comm == TMPI_COMM_WORLD) *errhandler = me->errhandler_world;
  else if (comm == TMPI_COMM_SELF) *errhandler = me->errhandler_self;
  else return mpi_error(me, TMPI_COMM_WORLD, TMPI_ERR_COMM, "MPI_Comm_get_errhandler", "invalid communicator %d", comm);
  return TMPI_SUCCESS;
}


}  // extern "C"
