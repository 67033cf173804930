#!/bin/bash
# tucanacc -MMD writes the dependency file with unescaped spaces in paths; gcc (plain mpicc) writes 'sp\ ace'.
# A Makefile that includes the .d file then fails:
#   make: *** No rule to make target 'ace/main.c', needed by 'main.o'.  Stop.
# (translator/wrapper problem in build integration; the program itself builds and runs.)
set -e
T=${TUCANA_BIN:-/work/tucana-snap/bin}
d=$(mktemp -d "/tmp/sp ace.XXXXXX")
printf '#include <mpi.h>\nint main(int c, char **v) { MPI_Init(&c, &v); MPI_Finalize(); return 0; }\n' > "$d/main.c"
cd "$d"
"$T/tucanacc" -MMD -c "$d/main.c" -o main.o
echo "tucanacc main.d:"; head -1 main.d
mpicc -MMD -c "$d/main.c" -o ref.o
echo "mpicc  ref.d:"; head -1 ref.d
printf 'all: main.o\n-include main.d\n' > Makefile
make all || echo "make FAILED (expected to succeed)"
rm -rf "$d"
