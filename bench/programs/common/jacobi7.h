/*
 * jacobi7.h -- the 7-point Jacobi stencil over common/block3d.h's grid:
 * jacobi3d's, which tpod computes too.  Included by their headers
 * (jacobi3d_common.h, tpod_common.h) after block3d.h, with HALO 1.
 */
#ifndef BENCH_JACOBI7_H
#define BENCH_JACOBI7_H

#ifndef BENCH_BLOCK3D_H
#error "include common/block3d.h first"
#endif
#if HALO != 1
#error "the 7-point stencil reaches one ghost layer: HALO 1"
#endif

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

#endif /* BENCH_JACOBI7_H */
