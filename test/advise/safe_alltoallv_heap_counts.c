// IS as written: the count and displacement arrays are heap `int *`. After(i)
// reads them while Before(i+1) rewrites them; as count arguments of the
// MPI_Alltoallv they have comm-size elements, so they are carried (a copy of
// comm-size elements per iteration, taken at the post). A pointer the loop
// reassigns is not carried.
//
// RUN: %tucana-cco check %s -- | FileCheck %s -DFILE=%s
// RUN: %tucana-cco rewrite --mpi %s -o %t.c -- | FileCheck %s -DFILE=%s --check-prefix=NOTE
// RUN: grep -v "^// " %t.c | FileCheck %s --check-prefix=OUT
#include <mpi.h>

int *skeys, *rkeys;
long sum;

void bucket(int it, int n, int *sc, int *sd) {
  for (int p = 0; p < n; ++p) sc[p] = it + p;
  sd[0] = 0;
  for (int p = 1; p < n; ++p) sd[p] = sd[p - 1] + sc[p - 1];
  for (int k = 0; k < sd[n - 1] + sc[n - 1]; ++k) skeys[k] = k * it;
}

void displs(const int *rc, int *rd, int n) {
  rd[0] = 0;
  for (int p = 1; p < n; ++p) rd[p] = rd[p - 1] + rc[p - 1];
}

void use(const int *rc, const int *rd, int n) {
  for (int p = 0; p < n; ++p)
    for (int k = 0; k < rc[p]; ++k) sum += rkeys[rd[p] + k];
}

void run(int niter, int *scount, int *sdispl, int *rcount, int *rdispl) {
  int n;
  MPI_Comm_size(MPI_COMM_WORLD, &n);
  // CHECK: [[FILE]]:[[@LINE+3]]:3: warning: loop over 'it': MPI_Alltoall at line [[@LINE+5]]
  // CHECK: [[FILE]]:[[@LINE+2]]:3: note: loop over 'it': MPI_Alltoallv at line [[@LINE+6]] is safe to pipeline (replicates 'skeys', 'rkeys', 'scount', 'sdispl', 'rcount', 'rdispl')
  // NOTE: [[FILE]]:[[@LINE+1]]:3: note: loop over 'it': pipelined MPI_Alltoallv at line [[@LINE+5]]
  for (int it = 0; it < niter; ++it) {
    bucket(it, n, scount, sdispl);
    MPI_Alltoall(scount, 1, MPI_INT, rcount, 1, MPI_INT, MPI_COMM_WORLD);
    displs(rcount, rdispl, n);
    MPI_Alltoallv(skeys, scount, sdispl, MPI_INT, rkeys, rcount, rdispl, MPI_INT, MPI_COMM_WORLD);
    use(rcount, rdispl, n);
  }
  // OUT: size_t tucana_cco_ksz0_{{[0-9]+}} = 0;
  // OUT: tucana_cco_ksz0_[[S:[0-9]+]] = (size_t)tucana_cco_commsize(MPI_COMM_WORLD) * sizeof(*rcount);
  // OUT: memcpy(tucana_cco_keep0_[[S]] + (tucana_cco_n_[[S]] % 2) * tucana_cco_ksz0_[[S]], rcount, tucana_cco_ksz0_[[S]]);
  // OUT: memcpy(rcount, tucana_cco_keep0_[[S]] + ((tucana_cco_n_[[S]] + 1) % 2) * tucana_cco_ksz0_[[S]], tucana_cco_ksz0_[[S]]);
}

void swapped(int niter, int n, int *scount, int *sdispl, int *rcount, int *rdispl) {
  // The loop reassigns the pointers: their values are carried (a copy per
  // iteration parity), what they point to is not.
  // CHECK: [[FILE]]:[[@LINE+1]]:3: warning: loop over 'it': MPI_Alltoallv at line [[@LINE+5]] is not safe to pipeline: Before(i+1) writes 'rdispl' (line [[@LINE+4]]) which After(i) reads (line [[@LINE+6]])
  for (int it = 0; it < niter; ++it) {
    int *rc = rcount, *t = rcount;
    rcount = rdispl, rdispl = t;
    displs(rc, rdispl, n);
    MPI_Alltoallv(skeys, scount, sdispl, MPI_INT, rkeys, rc, rdispl, MPI_INT, MPI_COMM_WORLD);
    use(rc, rdispl, n);
  }
}
