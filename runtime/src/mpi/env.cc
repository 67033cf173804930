// Environment and communicator queries of the virtual MPI.
#include <tucana/tmpi.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "mpi/attributes.h"
#include "mpi/datatype/datatype.h"
#include "mpi/errors.h"
#include "mpi/rma/rma.h"
#include "tasks/task.h"

using namespace tucana;
using namespace tucana::mpi;

// The program's own main, by its symbol name (C++ may not name ::main). In a
// program linked with -Wl,--wrap=main this is the runtime's entry point,
// which start_unwrapped() never reaches.
extern "C" int tucana_program_main(int, char**, char**) __asm__("main");
extern "C" char** environ;

namespace {

// MPI_Init called by a main that the runtime did not start: the program was
// linked with Tucana's libraries but without -Wl,--wrap=main (CMake's
// FindMPI variables MPI_<LANG>_LIBRARIES without MPI_<LANG>_LINK_FLAGS, for
// instance). Start the runtime now: it runs main from the beginning in every
// subrank, and the process ends when they have. The code main ran before
// MPI_Init runs once more in each subrank.
[[noreturn]] void start_unwrapped(int* argc, char*** argv) {
  static std::vector<std::string> words;
  static std::vector<char*> args;
  if (!argc || !argv) {  // MPI_Init(NULL, NULL): the command line from /proc
    if (FILE* f = std::fopen("/proc/self/cmdline", "r")) {
      std::string word;
      for (int c; (c = std::fgetc(f)) != EOF;) {
        if (c) word += static_cast<char>(c);
        else words.push_back(word), word.clear();
      }
      std::fclose(f);
    }
    for (auto& w : words) args.push_back(w.data());
  } else {
    args.assign(*argv, *argv + *argc);
  }
  int n = static_cast<int>(args.size());
  args.push_back(nullptr);
  std::exit(Runtime::run(n, args.data(), environ, &tucana_program_main));
}

}  // namespace

extern "C" {

int TMPI_Init(int* argc, char*** argv) {
  int provided;
  return TMPI_Init_thread(argc, argv, TMPI_THREAD_SINGLE, &provided);
}

int TMPI_Init_thread(int* argc, char*** argv, int required, int* provided) {
  if (!Runtime::instance()) start_unwrapped(argc, argv);
  Entered me = enter("MPI_Init", true);
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
  Entered me = enter("MPI_Finalize");
  if (tasks::Task* t = tasks::current_task())
    fatal("MPI_Finalize called by task %d ('%s') of subrank %d: call it from the subrank's own code", t->id,
          t->label, me->world);
  // Its tasks may still call MPI: they finish first.
  tasks::wait_for_children("MPI_Finalize");
  // MPI_COMM_SELF's attributes go first: libraries hang clean-up on them.
  delete_attributes(AttrKind::Comm, TMPI_COMM_SELF);
  rma_finalize(me);
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
  // A task is like a thread the program created: not the main thread.
  *flag = current_subrank() != nullptr && !tasks::current_task();
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
  if (!text) text = user_error_text(errorcode);
  int n = text ? std::snprintf(string, TMPI_MAX_ERROR_STRING, "%s", text)
               : std::snprintf(string, TMPI_MAX_ERROR_STRING, "unknown error code %d", errorcode);
  *resultlen = n;
  return text ? TMPI_SUCCESS : TMPI_ERR_ARG;
}

int TMPI_Error_class(int errorcode, int* errorclass) {
  *errorclass = errorcode;
  if (error_text(errorcode)) return TMPI_SUCCESS;
  *errorclass = user_error_class(errorcode);
  return *errorclass >= 0 ? TMPI_SUCCESS : TMPI_ERR_ARG;
}

double TMPI_Wtime(void) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

double TMPI_Wtick(void) {
  return std::chrono::duration<double>(std::chrono::steady_clock::duration(1)).count();
}

int TMPI_Pcontrol(const int level, ...) {
  (void)level;  // no profiling library to talk to
  return TMPI_SUCCESS;
}

int TMPI_Alloc_mem(TMPI_Aint size, TMPI_Info info, void* baseptr) {
  (void)info;
  Entered me = enter("MPI_Alloc_mem");
  void* p = std::malloc(size > 0 ? static_cast<std::size_t>(size) : 1);
  if (!p) return mpi_error(me, TMPI_COMM_WORLD, TMPI_ERR_OTHER, "MPI_Alloc_mem", "out of memory (%ld bytes)", static_cast<long>(size));
  *static_cast<void**>(baseptr) = p;
  return TMPI_SUCCESS;
}

int TMPI_Free_mem(void* base) {
  enter("MPI_Free_mem");
  std::free(base);
  return TMPI_SUCCESS;
}

}  // extern "C"
