/* mpi_thread_check.c -- which threads call the real MPI (tucana-run --progress).
 *
 * A shared library for LD_PRELOAD (tucana-run -x LD_PRELOAD=...), built with
 * the system's MPI, not with tucanacc: it interposes on the real MPI calls
 * that the runtime's transport makes (a program built with tucanacc calls
 * the virtual MPI, TMPI_*, so only the runtime reaches these), counts them,
 * and counts those made on another thread than the one that called
 * MPI_Init_thread. MPI_Finalize prints, once per process:
 *
 *   mpi_thread_check: rank R: N MPI calls, M off the thread that called
 *   MPI_Init_thread; requested LEVEL, provided LEVEL
 *
 * With --progress worker, M must be 0 and LEVEL MPI_THREAD_FUNNELED
 * (test/mpi/CMakeLists.txt, the progress_* tests). The runtime's own
 * assertion (Transport::assert_mpi_thread) checks the same from inside;
 * this checks it from outside, whatever path a call took.
 *
 * MPI_THREAD_CHECK_PROVIDE=L (0 to 3) makes MPI_Init_thread provide at most
 * thread level L, as a library without MPI_THREAD_MULTIPLE would. */
#include <mpi.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>

static pthread_t init_thread;
static atomic_int initialized;
static atomic_long calls, off_thread;
static int requested_level = -1, provided_level = -1;

static void note(void) {
  atomic_fetch_add(&calls, 1);
  if (atomic_load(&initialized) && !pthread_equal(pthread_self(), init_thread)) atomic_fetch_add(&off_thread, 1);
}

static const char *level_name(int level) {
  switch (level) {
    case MPI_THREAD_SINGLE: return "MPI_THREAD_SINGLE";
    case MPI_THREAD_FUNNELED: return "MPI_THREAD_FUNNELED";
    case MPI_THREAD_SERIALIZED: return "MPI_THREAD_SERIALIZED";
    case MPI_THREAD_MULTIPLE: return "MPI_THREAD_MULTIPLE";
  }
  return "none";
}

int MPI_Init_thread(int *argc, char ***argv, int required, int *provided) {
  init_thread = pthread_self();
  atomic_store(&initialized, 1);
  requested_level = required;
  int rc = PMPI_Init_thread(argc, argv, required, provided);
  const char *cap = getenv("MPI_THREAD_CHECK_PROVIDE");
  if (cap && *cap && atoi(cap) < *provided) *provided = atoi(cap);
  provided_level = *provided;
  note();
  return rc;
}

int MPI_Finalize(void) {
  note();
  int rank = -1;
  PMPI_Comm_rank(MPI_COMM_WORLD, &rank);
  fprintf(stderr, "mpi_thread_check: rank %d: %ld MPI calls, %ld off the thread that called MPI_Init_thread; "
                  "requested %s, provided %s\n",
          rank, atomic_load(&calls), atomic_load(&off_thread), level_name(requested_level),
          level_name(provided_level));
  fflush(stderr);
  return PMPI_Finalize();
}

int MPI_Isend(const void *buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm, MPI_Request *r) {
  note();
  return PMPI_Isend(buf, count, type, dest, tag, comm, r);
}

int MPI_Recv(void *buf, int count, MPI_Datatype type, int source, int tag, MPI_Comm comm, MPI_Status *st) {
  note();
  return PMPI_Recv(buf, count, type, source, tag, comm, st);
}

int MPI_Iprobe(int source, int tag, MPI_Comm comm, int *flag, MPI_Status *st) {
  note();
  return PMPI_Iprobe(source, tag, comm, flag, st);
}

int MPI_Improbe(int source, int tag, MPI_Comm comm, int *flag, MPI_Message *m, MPI_Status *st) {
  note();
  return PMPI_Improbe(source, tag, comm, flag, m, st);
}

int MPI_Mrecv(void *buf, int count, MPI_Datatype type, MPI_Message *m, MPI_Status *st) {
  note();
  return PMPI_Mrecv(buf, count, type, m, st);
}

int MPI_Imrecv(void *buf, int count, MPI_Datatype type, MPI_Message *m, MPI_Request *r) {
  note();
  return PMPI_Imrecv(buf, count, type, m, r);
}

int MPI_Test(MPI_Request *r, int *flag, MPI_Status *st) {
  note();
  return PMPI_Test(r, flag, st);
}

int MPI_Testsome(int n, MPI_Request *rs, int *outcount, int *indices, MPI_Status *sts) {
  note();
  return PMPI_Testsome(n, rs, outcount, indices, sts);
}

int MPI_Iallreduce(const void *in, void *out, int count, MPI_Datatype type, MPI_Op op, MPI_Comm comm,
                   MPI_Request *r) {
  note();
  return PMPI_Iallreduce(in, out, count, type, op, comm, r);
}

int MPI_Gather(const void *in, int n, MPI_Datatype t, void *out, int m, MPI_Datatype u, int root, MPI_Comm comm) {
  note();
  return PMPI_Gather(in, n, t, out, m, u, root, comm);
}

int MPI_Gatherv(const void *in, int n, MPI_Datatype t, void *out, const int *counts, const int *displs,
                MPI_Datatype u, int root, MPI_Comm comm) {
  note();
  return PMPI_Gatherv(in, n, t, out, counts, displs, u, root, comm);
}

int MPI_Comm_dup(MPI_Comm comm, MPI_Comm *out) {
  note();
  return PMPI_Comm_dup(comm, out);
}

int MPI_Comm_free(MPI_Comm *comm) {
  note();
  return PMPI_Comm_free(comm);
}

int MPI_Cancel(MPI_Request *r) {
  note();
  return PMPI_Cancel(r);
}

int MPI_Get_count(const MPI_Status *st, MPI_Datatype type, int *count) {
  note();
  return PMPI_Get_count(st, type, count);
}
