/* blocks in called functions, in a second source file: receive/send/compute blocks with file-static buffers */
#include <mpi.h>
static double inbox[3], outbox[3];
static MPI_Request req[2];
static int posted;
void post_receive(int peer, int tag) {
#pragma tucana receive
  { MPI_Irecv(inbox, 3, MPI_DOUBLE, peer, tag, MPI_COMM_WORLD, &req[0]); posted++; }
}
void post_send(int peer, int tag, const double *u) {
#pragma tucana send
  {
    for (int i = 0; i < 3; i++) outbox[i] = u[i] * 0.5;
    MPI_Isend(outbox, 3, MPI_DOUBLE, peer, tag, MPI_COMM_WORLD, &req[1]);
  }
}
double absorb(double *u) {
  double s = 0;
#pragma tucana compute
  {
    MPI_Waitall(2, req, MPI_STATUSES_IGNORE);
    for (int i = 0; i < 3; i++) { u[i] = 0.75 * u[i] + inbox[2 - i]; s += u[i]; }
  }
  return s;
}
int posted_count(void) { return posted; }
