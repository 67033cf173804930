/*
 * libisolate.so: an LD_PRELOAD library for LULESH's "nocomm" timing run.
 *
 * Why not tools/nocomm (libtucana_nocomm.so): it completes receives without
 * filling their buffers, and LULESH's CommSyncPosVel then copies those
 * zeros into the coordinates of the nodes it shares with its neighbours; the
 * first time step finds a negative element volume and the program ends with
 * MPI_Abort(MPI_COMM_WORLD, VolumeError) (errorcode -1) before any timing.
 *
 * This library instead makes every rank see MPI_COMM_WORLD as a world of one
 * (MPI_Comm_size -> 1, MPI_Comm_rank -> 0): each rank then runs a valid
 * single-domain LULESH of the same per-domain size -s, with no halo exchange
 * at all (CommRecv/CommSend/CommSBN/... return at once when numRanks() == 1)
 * and no packing, while the MPI_Allreduce of the time step (and the final
 * MPI_Reduce) still go to the real MPI_COMM_WORLD, so the ranks stay in step
 * as in the original run. The arithmetic per element is the same, and the
 * result is a correct (single-domain) run, so nothing aborts. Standard
 * output of every rank but the real rank 0 goes to /dev/null (each rank
 * believes it is rank 0 and would print).
 *
 * Build: mpicc -O2 -shared -fPIC -o libisolate.so isolate.c
 * Use:   mpirun -np 8 -x LD_PRELOAD=$PWD/libisolate.so ./lulesh2.0 -s 30 -i 20
 */
#include <mpi.h>
#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>

static void quiet_if_not_root(void)
{
  int rank = 0;
  PMPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank == 0) {
    fprintf(stderr, "lulesh-isolate: active: every rank runs its own domain, no halo exchange (timing only)\n");
    return;
  }
  int fd = open("/dev/null", O_WRONLY);
  if (fd >= 0) {
    fflush(stdout);
    dup2(fd, 1);
    close(fd);
  }
}

int MPI_Init(int *argc, char ***argv)
{
  int rc = PMPI_Init(argc, argv);
  if (rc == MPI_SUCCESS) quiet_if_not_root();
  return rc;
}

int MPI_Init_thread(int *argc, char ***argv, int required, int *provided)
{
  int rc = PMPI_Init_thread(argc, argv, required, provided);
  if (rc == MPI_SUCCESS) quiet_if_not_root();
  return rc;
}

int MPI_Comm_size(MPI_Comm comm, int *size)
{
  if (comm == MPI_COMM_WORLD) {
    *size = 1;
    return MPI_SUCCESS;
  }
  return PMPI_Comm_size(comm, size);
}

int MPI_Comm_rank(MPI_Comm comm, int *rank)
{
  if (comm == MPI_COMM_WORLD) {
    *rank = 0;
    return MPI_SUCCESS;
  }
  return PMPI_Comm_rank(comm, rank);
}
