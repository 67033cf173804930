/* Parameters of the ring program (a header, so that the build tests can
 * check that changing it rebuilds what includes it). */
#ifndef RING_H
#define RING_H
#define RING_CELLS 64
#define RING_STEPS 20
double ring_checksum(const double *u, int n);
#endif
