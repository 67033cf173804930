/*
 * jacobi3d_common.h -- what the variants of jacobi3d share: common/block3d.h
 * (the grid, its blocks, the faces, the arguments, and after the timed loop
 * the checksum, self-check and report) with jacobi3d's parameters, and the
 * stencil, 7 points.
 */
#ifndef JACOBI3D_COMMON_H
#define JACOBI3D_COMMON_H

#define PROGRAM_NAME "jacobi3d"
#define HALO 1 /* ghost layers on each side: the stencil's reach */
#define DEFAULT_SIZE 64
#define DEFAULT_ITERATIONS 50

#include "../common/block3d.h"

/*
 * One Jacobi sweep over the local box [lo, hi) of owned points of u into
 * unew (the ghosts that the box reaches must be current); returns the
 * largest change.
 */
static double sweep_box(const double *u, double *unew, const Block *b,
                        const int lo[3], const int hi[3])
{
    double diff = 0.0;
    const size_t sy = b->sy, sz = b->sz;
    /* [xs, xe): the part of a row off the fixed boundary along x */
    int xs = HALO - b->first[0] + HALO;
    int xe = b->n[0] - HALO - b->first[0] + HALO;
    xs = xs < lo[0] ? lo[0] : xs > hi[0] ? hi[0] : xs;
    xe = xe > hi[0] ? hi[0] : xe < xs ? xs : xe;
    for (int z = lo[2]; z < hi[2]; z++) {
        int bz = on_boundary(b, 2, z);
        for (int y = lo[1]; y < hi[1]; y++) {
            size_t row = idx(b, 0, y, z);
            if (bz || on_boundary(b, 1, y)) {
                for (int x = lo[0]; x < hi[0]; x++)
                    unew[row + x] = u[row + x];
                continue;
            }
            for (int x = lo[0]; x < xs; x++)
                unew[row + x] = u[row + x];
            for (int x = xe; x < hi[0]; x++)
                unew[row + x] = u[row + x];
            for (int x = xs; x < xe; x++) {
                size_t c = row + (size_t)x;
                double v = (u[c - 1] + u[c + 1] + u[c - sy] + u[c + sy] +
                            u[c - sz] + u[c + sz]) / 6.0;
                double d = fabs(v - u[c]);
                unew[c] = v;
                diff = d > diff ? d : diff;
            }
        }
    }
    return diff;
}

#endif /* JACOBI3D_COMMON_H */
