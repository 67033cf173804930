# Shared by the advise_*_test.sh scripts that run tools/advise/advise_test.c:
# common.sh with BIN_DIR ($1), then
#   src      advise_test.c's path      advise   the driver in BIN_DIR
#   mpiexec  the launcher ($2)         prog     the built advise_test ($3)
#   over     --oversubscribe when the launcher is Open MPI's
#   line_a, line_s  the lines of its marked MPI_Alltoall and MPI_Sendrecv
src=$(cd "$(dirname "${BASH_SOURCE[0]}")/../../tools/advise" && pwd)/advise_test.c
. "$(dirname "${BASH_SOURCE[0]}")/common.sh" "$1"
advise="$bin/tucana-advise"
mpiexec=${2:-}
prog=${3:-}
over=()
if [ -n "$mpiexec" ] && "$mpiexec" --version 2>&1 | grep -qE "Open ?MPI|OpenRTE"; then over=(--oversubscribe); fi
line_a=$(grep -n '/\* ALLTOALL \*/' "$src" | cut -d: -f1)
line_s=$(grep -n '/\* SENDRECV \*/' "$src" | cut -d: -f1)
