// The process entry point of a program built with tucanacc/tucanacxx.
//
// The program keeps its own `main`; the wrappers link with -Wl,--wrap=main,
// so the C start-up code calls __wrap_main (here) and the program's main is
// reached as __real_main, once per subrank. Objects compiled by any compiler
// (plain mpicc included) and a main() inside a static library link as they
// are; nothing is renamed in the objects.
//
// This object also defines exit(), which takes the place of libc's for the
// program (a definition in the executable comes before any shared library's).
// exit() on a subrank must not run the process's exit handlers there: they
// would run on the subrank's fiber stack, and the runtime's own destructors
// unmap that stack. It ends the subrank instead; the process exits once,
// from the main thread's stack, when the last subrank has ended.
#include <dlfcn.h>

#include <cstdlib>

#include "mpi/runtime.h"

extern "C" int __real_main(int argc, char** argv, char** envp);

// tucana-run looks for this string to tell a Tucana program from one built
// with plain mpicc (it survives strip: it is data, not a symbol).
extern "C" __attribute__((used)) const char tucana_runtime_marker[] = "TUCANA-RUNTIME: built with tucanacc";

extern "C" int __wrap_main(int argc, char** argv, char** envp) {
  return tucana::mpi::Runtime::run(argc, argv, envp, &__real_main);
}

extern "C" void exit(int status) noexcept {
  tucana::mpi::Runtime::exit_called(status);  // returns only outside subranks
  using ExitFunction = void (*)(int);
  static auto libc_exit = reinterpret_cast<ExitFunction>(dlsym(RTLD_NEXT, "exit"));
  if (!libc_exit) std::_Exit(status);
  libc_exit(status);
  __builtin_unreachable();
}
