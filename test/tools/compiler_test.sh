#!/usr/bin/env bash
# tucanacc/tucanacxx as an mpicc user meets them: code only GCC accepts,
# dependency files under Make, mpicc's query options, large objects linked
# many times, a main() in a static library, objects from a plain compiler.
# Usage: compiler_test.sh BIN_DIR
. "$(dirname "${BASH_SOURCE[0]}")/common.sh" "$1"

cat >ring.h <<'C'
#define STEPS 4
C
cat >ring.c <<'C'
#include <mpi.h>
#include <stdio.h>
#include "ring.h"
int main(int argc, char **argv) {
  int rank, size, got = 0, out;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  MPI_Request req[2];
  out = rank;
  #pragma tucana superblock
  for (int it = 0; it < STEPS; it++) {
    #pragma tucana receive
    { MPI_Irecv(&got, 1, MPI_INT, (rank + size - 1) % size, 0, MPI_COMM_WORLD, &req[0]); }
    #pragma tucana send
    { MPI_Isend(&out, 1, MPI_INT, (rank + 1) % size, 0, MPI_COMM_WORLD, &req[1]); }
    #pragma tucana compute
    { MPI_Waitall(2, req, MPI_STATUSES_IGNORE); out = got; }
  }
  int sum = 0;
  MPI_Reduce(&out, &sum, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
  if (rank == 0) printf("ring sum %d size %d\n", sum, size);
  MPI_Finalize();
  return 0;
}
C

# --- code that GCC accepts and Clang does not --------------------------------
cat >nested.c <<'C'
#include <mpi.h>
#include <stdio.h>
int main(int argc, char **argv) {
  int rank;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  int twice(int x) { return 2 * x; }   /* a GCC nested function */
  int *p = 12345;                       /* int-conversion: a warning for GCC */
  (void)p;
  if (rank == 0) printf("nested %d\n", twice(21));
  MPI_Finalize();
  return 0;
}
C
check "GCC nested function, no annotation: compiled as it is" "$bin/tucanacc" -Wno-int-conversion -o nested nested.c
check "GCC nested function runs" expect_output "^nested 42" "$bin/tucana-run" -np 1 --vf 2 ./nested
sed 's|int twice|#pragma tucana superblock\n  for (int i = 0; i < 1; i++) {\n    #pragma tucana receive\n    { }\n    #pragma tucana send\n    { }\n    #pragma tucana compute\n    { }\n  }\n  int twice|' nested.c >nested_annotated.c
check "annotated, Clang cannot parse: says so and names --no-translate" \
  expect_fail_with "could not be translated.*|--no-translate compiles" "$bin/tucanacc" -Wno-int-conversion -o na nested_annotated.c
check "... and --no-translate compiles it" "$bin/tucanacc" --no-translate -Wno-int-conversion -o na nested_annotated.c
check "annotation from a macro is seen" bash -c "
  printf '#include <mpi.h>\n#define OVERLAP _Pragma(\"tucana superblock\")\nint main(int c, char **v) { MPI_Init(&c, &v); int x = 0; MPI_Request r[2];\n OVERLAP\n for (int i = 0; i < 2; i++) {\n _Pragma(\"tucana receive\") { MPI_Irecv(&x, 1, MPI_INT, 0, 0, MPI_COMM_SELF, &r[0]); }\n _Pragma(\"tucana send\") { MPI_Isend(&x, 1, MPI_INT, 0, 0, MPI_COMM_SELF, &r[1]); }\n _Pragma(\"tucana compute\") { MPI_Waitall(2, r, MPI_STATUSES_IGNORE); }\n }\n MPI_Finalize(); return 0; }\n' > macro.c
  '$bin/tucanacc' -c macro.c -o macro.o && nm -u macro.o | grep -q tucana_sb_begin"
check "undeclared MPI call is refused" expect_fail_with "does not declare: MPI_Made_up" bash -c \
  "printf '#include <mpi.h>\nint main(void){ MPI_Made_up(1); return 0; }\n' > made.c; '$bin/tucanacc' -Wno-implicit-function-declaration -c made.c"
check "... and leaves no object" test ! -e made.o

# --- mpicc's query options ------------------------------------------------------
check "-showme:compile" expect_output "^-I[^ ]*mpi-include|^-I[^ ]*include/tucana/mpi" "$bin/tucanacc" -showme:compile
check "-showme:link" expect_output "-Wl,--wrap=main .*-ltucana_main -ltucana " "$bin/tucanacc" -showme:link
check "-showme:version" expect_output "Tucana" "$bin/tucanacc" -showme:version
check "-showme prints, does not run" bash -c "'$bin/tucanacc' -showme -o never ring.c | grep -q tucana-translate && test ! -e never"
check "a plain compiler with -showme:compile/-showme:link" bash -c \
  "cc \$('$bin/tucanacc' -showme:compile) -Wno-unknown-pragmas -c ring.c -o plain_ring.o && cc plain_ring.o \$('$bin/tucanacc' -showme:link) -o plain_ring"
check "... runs under tucana-run" expect_output "^ring sum 6 size 4" "$bin/tucana-run" -np 2 --vf 2 ./plain_ring

# Linked with the libraries alone, without -Wl,--wrap=main (as CMake's FindMPI
# variables MPI_<LANG>_LIBRARIES are used by some projects): MPI_Init starts
# the runtime, which runs main again in every subrank.
check "linked without --wrap=main" bash -c \
  "cc plain_ring.o \$('$bin/tucanacc' -showme:link | sed 's/-Wl,--wrap=main//') -o nowrap_ring"
check "... runs virtualized" expect_output "^ring sum 6 size 4" "$bin/tucana-run" -np 2 --vf 2 ./nowrap_ring

# --- dependency files under Make ----------------------------------------------
mkdir mk && cp ring.c ring.h mk/
cat >mk/Makefile <<MK
CC = $bin/tucanacc
CFLAGS = -O2 -MMD -MP
ring: ring.o
	\$(CC) -o \$@ \$^
-include \$(wildcard *.d)
MK
check "make" make -C mk
check "the dependency file names the source, not a temporary copy" bash -c "grep -q '^ring.o: ring.c' mk/ring.d && ! grep -q tucanacc mk/ring.d"
check "second make: nothing to do" make -C mk -q
check "a changed header rebuilds" bash -c "sleep 1; touch mk/ring.h; ! make -C mk -q && make -C mk && make -C mk -q"
check "Make-built program runs" expect_output "^ring sum 6 size 4" "$bin/tucana-run" -np 2 --vf 2 ./mk/ring

# --- large objects, linked many times -------------------------------------------
{
  for i in $(seq 1 4000); do echo "int generated_function_$i(int x) { return x + $i; }"; done
} >big.c
check "compile a 4000-function object" "$bin/tucanacc" -c big.c -o big.o
links=0
for i in $(seq 1 20); do
  if "$bin/tucanacc" -o "ring_big" ring.c big.o >"link$i.log" 2>&1; then links=$((links + 1)); fi
done
check "20 links with the large object all succeed" test "$links" -eq 20

# --- main() in a static library --------------------------------------------------
check "objects for the archive" "$bin/tucanacc" -c ring.c -o ringmain.o
check "archive" ar rcs libringmain.a ringmain.o big.o
check "link a program whose main is in the archive" "$bin/tucanacc" -o from_lib -L. -lringmain
check "... runs" expect_output "^ring sum 6 size 4" "$bin/tucana-run" -np 2 --vf 2 ./from_lib
check "archive given by path" "$bin/tucanacc" -o from_lib2 libringmain.a
check "a shared library has no entry point" bash -c \
  "'$bin/tucanacc' -fPIC -shared -o libbig.so big.c && ! nm -D libbig.so | grep -q __wrap_main"

# --- objects that call the system MPI directly -----------------------------------
# Compiled with the system's mpicc (or mpif90), an object references MPI_Init,
# not Tucana's TMPI_Init: linked under the runtime its calls would reach the
# MPI library underneath it. An error at the link naming the object and the
# symbols, unless --allow-system-mpi.
if command -v mpicc >/dev/null 2>&1; then
  printf '#include <mpi.h>\nint sysmpi_rank(void) { int r; MPI_Comm_rank(MPI_COMM_WORLD, &r); return r; }\n' >sysmpi.c
  printf '#include <mpi.h>\nint sysmpi_rank(void);\nint main(int c, char **v) { MPI_Init(&c, &v); int r = sysmpi_rank(); MPI_Finalize(); return r < 0; }\n' >sysmain.c
  check "plain mpicc -c" mpicc -c sysmpi.c -o sysmpi.o
  check "an object compiled with plain mpicc is an error at the link, naming it and the symbols" \
    expect_fail_with "sysmpi.o references the system MPI library's own symbols \(.*MPI_Comm_rank.*\).*--allow-system-mpi" \
    "$bin/tucanacc" -o sysmpi sysmain.c sysmpi.o
  check "... and no program is left" test ! -e sysmpi
  check "... in a static library: names the archive's member" bash -c \
    "ar rcs libsysmpi.a sysmpi.o && ! '$bin/tucanacc' -o sysmpi sysmain.c -L. -lsysmpi 2>err.log && grep -q 'libsysmpi.a\\[sysmpi.o\\] references the system MPI' err.log"
  check "--allow-system-mpi links it" "$bin/tucanacc" --allow-system-mpi -o sysmpi sysmain.c sysmpi.o
  check "TUCANA_ALLOW_SYSTEM_MPI=1 links it" env TUCANA_ALLOW_SYSTEM_MPI=1 "$bin/tucanacc" -o sysmpi2 sysmain.c sysmpi.o
  check "an object compiled with tucanacc links as before" bash -c \
    "'$bin/tucanacc' -c sysmpi.c -o tsysmpi.o && '$bin/tucanacc' -o tsysmpi sysmain.c tsysmpi.o"
  if command -v mpif90 >/dev/null 2>&1; then
    printf '      subroutine frank(r)\n      include "mpif.h"\n      integer r, ierr\n      call MPI_COMM_RANK(MPI_COMM_WORLD, r, ierr)\n      end\n' >frank.f
    check "plain mpif90 -c" mpif90 -c frank.f -o frank.o
    check "a Fortran object of the system MPI is an error at the link" \
      expect_fail_with "frank.o references the system MPI library's own symbols \(mpi_comm_rank_" \
      "$bin/tucanacc" -o frank ring.c frank.o
  fi
fi

finish
