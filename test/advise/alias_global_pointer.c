// Aliasing through pointers of global storage: a pointer whose initializer
// (or any assignment anywhere in the file) takes the address of an object, or
// lets an array decay, may point to that object; a global pointer assigned
// something the analysis cannot name may point to any object whose address
// is taken and whose type fits. After(i) writing such an object that
// Before(i+1) reads through the pointer is a dependence (issue: a loop of
// this shape was pipelined and printed a wrong result).
//
// RUN: %tucana-cco check %s -- | FileCheck %s -DFILE=%s --implicit-check-not=note: --implicit-check-not=warning:
// RUN: %tucana-cco rewrite --mpi %s -o %t.c -- | FileCheck %s -DFILE=%s --check-prefix=NOTE
#include <mpi.h>

static double acc[1];
static double *cur = acc;        /* initializer: an array decays */
static double total;
static double hist[4];
static double *hist_view = hist; /* 'hist' decays: its address is taken */
static double *tp;               /* assigned in set_total() */
static double *anyp;             /* assigned something not named: any double */
double *external_ptr(void);
static double sink[4];

static void set_total(void) { tp = &total; }
static void set_any(void) { anyp = external_ptr(); }

void through_initializer(int niter) {
  double s = 0, r = 0;
  // CHECK: [[FILE]]:[[@LINE+2]]:3: warning: loop over 'it': MPI_Allreduce at line [[@LINE+4]] is not safe to pipeline: After(i) writes 'acc' (line [[@LINE+5]]) which Before(i+1) reads (line [[@LINE+3]])
  // NOTE: [[FILE]]:[[@LINE+1]]:3: note: loop over 'it': not rewritten: MPI_Allreduce at line [[@LINE+3]] is unsafe: After(i) writes 'acc'
  for (int it = 0; it < niter; ++it) {
    s = cur[0] + 1;
    MPI_Allreduce(&s, &r, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    acc[0] += r;
  }
}

void through_assignment(int niter) {
  double s = 0, r = 0;
  set_total();
  // CHECK: [[FILE]]:[[@LINE+1]]:3: warning: loop over 'it': MPI_Allreduce at line [[@LINE+3]] is not safe to pipeline: After(i) writes 'total' (line [[@LINE+4]]) which Before(i+1) reads (line [[@LINE+2]])
  for (int it = 0; it < niter; ++it) {
    s = *tp * 2;
    MPI_Allreduce(&s, &r, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    total = r;
  }
}

void unknown_target(int niter) {
  int si = 0, ri = 0;
  set_any();
  // CHECK: [[FILE]]:[[@LINE+1]]:3: warning: loop over 'it': MPI_Allreduce at line [[@LINE+3]] is not safe to pipeline: After(i) writes 'hist' (line [[@LINE+4]]) which Before(i+1) reads (line [[@LINE+2]])
  for (int it = 0; it < niter; ++it) {
    si = (int)anyp[0];
    MPI_Allreduce(&si, &ri, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    hist[1] = ri;
  }
}

/* 'sink' decays (address taken) but no global pointer may point to it:
   the loop stays safe. */
void unrelated(int niter) {
  double s = 0, r = 0;
  // CHECK: [[FILE]]:[[@LINE+2]]:3: note: loop over 'it': MPI_Allreduce at line [[@LINE+4]] is safe to pipeline (replicates 's', 'r')
  // NOTE: [[FILE]]:[[@LINE+1]]:3: note: loop over 'it': pipelined MPI_Allreduce at line [[@LINE+3]]
  for (int it = 0; it < niter; ++it) {
    s = it;
    MPI_Allreduce(&s, &r, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    MPI_Reduce_local(&r, sink, 1, MPI_DOUBLE, MPI_SUM);
  }
}

/* A global pointer assigned a local pointer: what that local may point to
   in its function ('counts'), not every int whose address is taken. */
static int counts[4], other_counts[4];
static int *saved;
static void keep(void) {
  int *p = counts + 1;
  saved = p;
}
// CHECK: [[FILE]]:[[@LINE+1]]:22: note: MPI_Bcast at line [[@LINE+1]] cannot be pipelined: not in a loop
void publish(void) { MPI_Bcast(other_counts, 4, MPI_INT, 0, MPI_COMM_WORLD); }

void via_local(int niter) {
  int si = 0, ri = 0;
  keep();
  // CHECK: [[FILE]]:[[@LINE+1]]:3: warning: loop over 'it': MPI_Allreduce at line [[@LINE+3]] is not safe to pipeline: After(i) writes 'counts' (line [[@LINE+4]]) which Before(i+1) reads (line [[@LINE+2]])
  for (int it = 0; it < niter; ++it) {
    si = saved[0];
    MPI_Allreduce(&si, &ri, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    counts[0] = ri;
  }
  // CHECK: [[FILE]]:[[@LINE+2]]:3: note: loop over 'it': MPI_Allreduce at line [[@LINE+4]] is safe to pipeline (replicates 'si', 'ri')
  // NOTE: [[FILE]]:[[@LINE+1]]:3: note: loop over 'it': pipelined MPI_Allreduce at line [[@LINE+3]]
  for (int it = 0; it < niter; ++it) {
    si = saved[0];
    MPI_Allreduce(&si, &ri, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    other_counts[0] = ri;
  }
}
