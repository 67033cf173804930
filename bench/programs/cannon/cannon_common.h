/*
 * cannon_common.h -- what every variant of cannon (cannon.c,
 * cannon_annotated.c, cannon_explicit.c, cannon_overlap.c) shares, outside
 * main(): the entries of A and B, the default process grid, the block
 * ownership, xmalloc.  The problem, the output and the self-check are
 * described in cannon.c's header comment.  Static functions, types and
 * constants only: no global or static variable (the subranks of a Tucana
 * process would share it), and no pragma (the annotations stay in the
 * variant files).
 */
#ifndef CANNON_COMMON_H
#define CANNON_COMMON_H

#include <cblas.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TAG_A 0 /* tag = TAG_A or TAG_B + 2 * (the receiving block) */
#define TAG_B 1
#define MAX_Q 100            /* keeps the tags below 32767, MPI's minimum */
#define FULL_CHECK_LIMIT 512 /* check every entry up to this N */
#define SAMPLES 2048         /* entries checked per block above it */

/* Entries of A and B: integers in [-5, 5] and [-6, 6]. */
static double a_entry(int i, int j)
{
    return (double)((3 * i + 5 * j + 1) % 11 - 5);
}

static double b_entry(int i, int j)
{
    return (double)((7 * i + 2 * j + 3) % 13 - 6);
}

static void *xmalloc(size_t bytes)
{
    void *p = calloc(1, bytes > 0 ? bytes : 1);
    if (p == NULL) {
        fprintf(stderr, "cannon: out of memory\n");
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    return p;
}

/* The smallest Q with Q * Q a multiple of (and not below) size. */
static int default_grid(int size)
{
    int q = 1;
    while (q * q < size || (q * q) % size != 0)
        q++;
    return q;
}

/* First block of rank r (r = size: the number of blocks nb). */
static int first_block(int r, int size, int nb)
{
    return (int)((long long)r * nb / size);
}

/* The rank that owns block g: the largest r with first_block(r) <= g. */
static int owner(int g, int size, int nb)
{
    return (int)(((long long)(g + 1) * size + nb - 1) / nb) - 1;
}

#endif /* CANNON_COMMON_H */
