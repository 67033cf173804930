// The process entry point of a program built with tucanacc/tucanacxx.
//
// The program keeps its own `main`; the wrappers link with -Wl,--wrap=main,
// so the C start-up code calls __wrap_main (here) and the program's main is
// reached as __real_main, once per subrank. Objects compiled by any compiler
// (plain mpicc included) and a main() inside a static library link as they
// are; nothing is renamed in the objects.

#include "core/runtime.h"

extern "C" int __real_main(int argc, char** argv, char** envp);
// The OMPT tool (omp/ompt.cc): nothing in a program refers to it, so this
// reference brings it into every program (libomp looks for it at its start).
extern "C" void tucana_omp_tool_anchor(void);
__attribute__((used)) static void (*const keep_omp_tool)(void) = &tucana_omp_tool_anchor;

extern "C" int __wrap_main(int argc, char** argv, char** envp) {
  return tucana::mpi::Runtime::run(argc, argv, envp, &__real_main);
}
