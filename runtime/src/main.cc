// The process entry point of a program built with tucanacc/tucanacxx. The
// wrappers rename the program's own main to tucana_user_main, which the
// runtime runs once per subrank.
#include "mpi/runtime.h"

extern "C" int tucana_user_main(int argc, char** argv, char** envp);

int main(int argc, char** argv, char** envp) {
  return tucana::mpi::Runtime::run(argc, argv, envp, &tucana_user_main);
}
