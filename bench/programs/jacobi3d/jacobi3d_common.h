/*
 * jacobi3d_common.h -- what the variants of jacobi3d share: common/block3d.h
 * (the grid, its blocks, the faces, the arguments, and after the timed loop
 * the checksum, self-check and report) with jacobi3d's parameters, and the
 * stencil, 7 points (common/jacobi7.h, which tpod shares).
 */
#ifndef JACOBI3D_COMMON_H
#define JACOBI3D_COMMON_H

#define PROGRAM_NAME "jacobi3d"
#define HALO 1 /* ghost layers on each side: the stencil's reach */
#define DEFAULT_SIZE 64
#define DEFAULT_ITERATIONS 50

#include "../common/block3d.h"
#include "../common/jacobi7.h"

#endif /* JACOBI3D_COMMON_H */
