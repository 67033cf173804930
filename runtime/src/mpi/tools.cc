// The MPI tool information interface (MPI_T). Tucana exports no control or
// performance variables and no categories, which MPI 3.1 allows: the counts
// are zero, every index and name is invalid, and sessions can still be made.
// These functions may be called before MPI_Init and after MPI_Finalize, and
// return MPI_T error codes without calling an error handler.
#include <tucana/tmpi.h>

#include <atomic>

#include "core/runtime.h"

namespace {
// MPI_T_init_thread minus MPI_T_finalize: each subrank's own (a rank's
// MPI_T state is its own, and subranks on other workers may init and
// finalize at the same time); the process's outside subranks.
std::atomic<int> outside_initialized{0};

int initialized() {
  tucana::mpi::Subrank* s = tucana::mpi::current_subrank();
  return s ? s->mpi_t_initialized : outside_initialized.load();
}

void add_initialized(int n) {
  if (tucana::mpi::Subrank* s = tucana::mpi::current_subrank()) s->mpi_t_initialized += n;
  else outside_initialized += n;
}

// What a query of the empty MPI_T interface answers: `code` (a count of
// none, an invalid index, name or handle), or MPI_T_ERR_NOT_INITIALIZED
// outside MPI_T_init_thread ... MPI_T_finalize.
int answer(int code) { return initialized() <= 0 ? TMPI_T_ERR_NOT_INITIALIZED : code; }

// A count of none: *n = 0 once MPI_T is initialized.
int none(int* n) {
  int code = answer(TMPI_SUCCESS);
  if (code == TMPI_SUCCESS) *n = 0;
  return code;
}
}  // namespace

struct tmpi_t_pvar_session {
  int unused;
};

#define TMPI_T_CHECK_INIT() \
  if (initialized() <= 0) return TMPI_T_ERR_NOT_INITIALIZED

extern "C" {

int TMPI_T_init_thread(int required, int* provided) {
  if (provided) *provided = required < TMPI_THREAD_MULTIPLE ? required : TMPI_THREAD_MULTIPLE;
  add_initialized(1);
  return TMPI_SUCCESS;
}

int TMPI_T_finalize(void) {
  TMPI_T_CHECK_INIT();
  add_initialized(-1);
  return TMPI_SUCCESS;
}

int TMPI_T_cvar_get_num(int* num_cvar) { return none(num_cvar); }
int TMPI_T_pvar_get_num(int* num_pvar) { return none(num_pvar); }
int TMPI_T_category_get_num(int* num_cat) { return none(num_cat); }
// The (empty) set of categories never changes.
int TMPI_T_category_changed(int* stamp) { return none(stamp); }

// Lookups by index or name: there is nothing to find.
int TMPI_T_cvar_get_info(int, char*, int*, int*, TMPI_Datatype*, TMPI_T_enum*, char*, int*, int*, int*) {
  return answer(TMPI_T_ERR_INVALID_INDEX);
}
int TMPI_T_pvar_get_info(int, char*, int*, int*, int*, TMPI_Datatype*, TMPI_T_enum*, char*, int*, int*, int*, int*,
                         int*) {
  return answer(TMPI_T_ERR_INVALID_INDEX);
}
int TMPI_T_category_get_info(int, char*, int*, char*, int*, int*, int*, int*) {
  return answer(TMPI_T_ERR_INVALID_INDEX);
}
int TMPI_T_category_get_cvars(int, int, int[]) { return answer(TMPI_T_ERR_INVALID_INDEX); }
int TMPI_T_category_get_pvars(int, int, int[]) { return answer(TMPI_T_ERR_INVALID_INDEX); }
int TMPI_T_category_get_categories(int, int, int[]) { return answer(TMPI_T_ERR_INVALID_INDEX); }
int TMPI_T_cvar_get_index(const char*, int*) { return answer(TMPI_T_ERR_INVALID_NAME); }
int TMPI_T_pvar_get_index(const char*, int, int*) { return answer(TMPI_T_ERR_INVALID_NAME); }
int TMPI_T_category_get_index(const char*, int*) { return answer(TMPI_T_ERR_INVALID_NAME); }
int TMPI_T_cvar_handle_alloc(int, void*, TMPI_T_cvar_handle*, int*) { return answer(TMPI_T_ERR_INVALID_INDEX); }
int TMPI_T_pvar_handle_alloc(TMPI_T_pvar_session, int, void*, TMPI_T_pvar_handle*, int*) {
  return answer(TMPI_T_ERR_INVALID_INDEX);
}
// No enumeration or variable handle can exist.
int TMPI_T_enum_get_info(TMPI_T_enum, int*, char*, int*) { return answer(TMPI_T_ERR_INVALID_HANDLE); }
int TMPI_T_enum_get_item(TMPI_T_enum, int, int*, char*, int*) { return answer(TMPI_T_ERR_INVALID_HANDLE); }
int TMPI_T_cvar_handle_free(TMPI_T_cvar_handle*) { return answer(TMPI_T_ERR_INVALID_HANDLE); }
int TMPI_T_cvar_read(TMPI_T_cvar_handle, void*) { return answer(TMPI_T_ERR_INVALID_HANDLE); }
int TMPI_T_cvar_write(TMPI_T_cvar_handle, const void*) { return answer(TMPI_T_ERR_INVALID_HANDLE); }
int TMPI_T_pvar_handle_free(TMPI_T_pvar_session, TMPI_T_pvar_handle*) { return answer(TMPI_T_ERR_INVALID_HANDLE); }
int TMPI_T_pvar_read(TMPI_T_pvar_session, TMPI_T_pvar_handle, void*) { return answer(TMPI_T_ERR_INVALID_HANDLE); }
int TMPI_T_pvar_readreset(TMPI_T_pvar_session, TMPI_T_pvar_handle, void*) { return answer(TMPI_T_ERR_INVALID_HANDLE); }
int TMPI_T_pvar_write(TMPI_T_pvar_session, TMPI_T_pvar_handle, const void*) {
  return answer(TMPI_T_ERR_INVALID_HANDLE);
}
int TMPI_T_pvar_reset(TMPI_T_pvar_session, TMPI_T_pvar_handle) { return answer(TMPI_T_ERR_INVALID_HANDLE); }
int TMPI_T_pvar_start(TMPI_T_pvar_session, TMPI_T_pvar_handle) { return answer(TMPI_T_ERR_INVALID_HANDLE); }
int TMPI_T_pvar_stop(TMPI_T_pvar_session, TMPI_T_pvar_handle) { return answer(TMPI_T_ERR_INVALID_HANDLE); }

// Sessions hold no handles, but they are real objects.
int TMPI_T_pvar_session_create(TMPI_T_pvar_session* session) {
  TMPI_T_CHECK_INIT();
  *session = new tmpi_t_pvar_session{0};
  return TMPI_SUCCESS;
}
int TMPI_T_pvar_session_free(TMPI_T_pvar_session* session) {
  TMPI_T_CHECK_INIT();
  if (!session || *session == TMPI_T_PVAR_SESSION_NULL) return TMPI_T_ERR_INVALID_SESSION;
  delete *session;
  *session = TMPI_T_PVAR_SESSION_NULL;
  return TMPI_SUCCESS;
}

}  // extern "C"
