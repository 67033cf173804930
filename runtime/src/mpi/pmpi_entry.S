/* The weak entry points TMPI_X of every MPI function (see tucana/tmpi.h).
 *
 * The runtime implements MPI_X under the profiling name PTMPI_X; a program's
 * MPI_X calls TMPI_X, defined here as a weak symbol whose whole body is a
 * tail jump to PTMPI_X (arguments, varargs and return value untouched). A
 * tool that defines MPI_X (as mpiP, Score-P and TAU do) defines TMPI_X
 * strongly, the linker takes it instead of this one, and the tool reaches
 * Tucana through PMPI_X = PTMPI_X. A C alias cannot do this: an alias must
 * live in the translation unit that defines its target. */

#if defined(__x86_64__)
#define TMPI_JUMP(TARGET) jmp TARGET@PLT
#elif defined(__aarch64__)
#define TMPI_JUMP(TARGET) b TARGET
#else
#error "pmpi_entry.S: no tail jump for this architecture (add one: one instruction)"
#endif

#define TMPI_WEAK_ENTRY(NAME)                                                  \
  .section .text.TMPI_##NAME, "ax", %progbits;                                 \
  .weak TMPI_##NAME;                                                           \
  .type TMPI_##NAME, %function;                                                \
  .p2align 4;                                                                  \
  TMPI_##NAME:                                                                 \
  TMPI_JUMP(PTMPI_##NAME);                                                     \
  .size TMPI_##NAME, . - TMPI_##NAME;

#define TMPI_FN(NAME, PARAMS, ROLE, NOTE) TMPI_WEAK_ENTRY(NAME)
#define TMPI_FN_R(RET, NAME, PARAMS, ROLE, NOTE) TMPI_WEAK_ENTRY(NAME)
#define TMPI_UNSUPPORTED(NAME, PARAMS, HANDLE, REASON) TMPI_WEAK_ENTRY(NAME)
#include <tucana/tmpi_functions.def>
#include <tucana/tmpi_unsupported.def>

  .section .note.GNU-stack, "", %progbits
