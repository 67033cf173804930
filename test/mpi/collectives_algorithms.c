/*
 * collectives_algorithms -- results of the reduction and data-movement
 * collectives across operations, datatypes, message sizes and roots
 * (MPI-3.1 sec. 5.4-5.9), so that every algorithm an implementation picks
 * (by size, by rank count, power of two or not) is exercised.
 *
 *  1. Every predefined reduction operation on its valid C types, with
 *     MPI_Allreduce (counts 1, 7, 1000, 20000) and MPI_Reduce (counts 7 and
 *     1000, roots 0, last and a rotating one):
 *       MPI_SUM, MPI_PROD, MPI_MAX, MPI_MIN on int, long, long long,
 *       unsigned, float and double;
 *       MPI_LAND, MPI_LOR, MPI_LXOR on int, long, long long, unsigned, short
 *       (only the truth value of the result is checked);
 *       MPI_BAND, MPI_BOR, MPI_BXOR on int, long, long long, unsigned,
 *       short, unsigned char, MPI_UINT64_T and MPI_BYTE;
 *       MPI_MAXLOC, MPI_MINLOC on MPI_2INT, MPI_DOUBLE_INT, MPI_FLOAT_INT and
 *       MPI_LONG_INT, with many ties, resolved to the lowest index (indices
 *       are not in rank order).
 *     All values are small integers, so every result is exact.
 *  2. MPI_Bcast, MPI_Allreduce (MPI_SUM), MPI_Reduce (MPI_SUM),
 *     MPI_Allgather, MPI_Gather, MPI_Scatter and MPI_Alltoall of integer-
 *     valued doubles with counts 0, 1, 3, 1000, 40000 and 300000 (2.4 MB)
 *     from every root; the per-rank blocks of the gathering/scattering
 *     calls are capped so that a buffer holds at most 1.2 M doubles.
 *  3. The MPI_IN_PLACE forms of MPI_Allreduce, MPI_Reduce (root),
 *     MPI_Allgather, MPI_Gather (root), MPI_Scatter (root) and MPI_Alltoall
 *     with the same counts.
 *
 * Rank 0 prints "checksum <name> <value>" lines: weighted sums of the
 * results, added over all ranks with an integer MPI_Allreduce.  They are
 * exact and fixed by MPI's definition of the operations, so a run under any
 * correct MPI with the same number of ranks prints the same lines.
 *
 * Works for any world size >= 1.  Prints "OK collectives_algorithms".
 */
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TESTNAME "collectives_algorithms"
#include "mpitest.h"

/* ------------------------------------------------------------ checksums */

#define MAXSUMS 256
struct sums {
    char name[MAXSUMS][64];
    long long val[MAXSUMS];
    int n;
};

/* add v to the checksum called name (created on first use; every rank
 * creates them in the same order) */
static void add_sum(struct sums *S, const char *name, long long v)
{
    for (int k = 0; k < S->n; k++)
        if (strcmp(S->name[k], name) == 0) {
            S->val[k] += v;
            return;
        }
    if (S->n == MAXSUMS)
        fail("too many checksums", MAXSUMS, S->n + 1, __LINE__);
    snprintf(S->name[S->n], sizeof S->name[S->n], "%s", name);
    S->val[S->n++] = v;
}

static void print_sums(struct sums *S)
{
    long long *tot = xmalloc(sizeof(long long) * (size_t)S->n);
    int n = S->n, nmax = -1;
    MPI_Allreduce(&n, &nmax, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    CHECK(nmax, S->n, "number of checksums differs between ranks");
    MPI_Allreduce(S->val, tot, S->n, MPI_LONG_LONG, MPI_SUM, MPI_COMM_WORLD);
    if (wrank == 0) {
        for (int k = 0; k < S->n; k++)
            printf("checksum %s %lld\n", S->name[k], tot[k]);
        fflush(stdout);
    }
    free(tot);
}

/* ------------------------------------------------------ part 1: operations */

enum kind { K_SIGNED, K_UNSIGNED, K_FLOAT, K_BYTE };

struct tdesc {
    const char *name;
    MPI_Datatype dt;
    size_t size;
    enum kind kind;
    int arith, logical, bitwise;
};

static void store(const struct tdesc *t, void *buf, long i, long long v)
{
    switch (t->size * 10 + (size_t)t->kind) {
    case sizeof(int) * 10 + K_SIGNED: ((int *)buf)[i] = (int)v; return;
    case sizeof(unsigned) * 10 + K_UNSIGNED: ((unsigned *)buf)[i] = (unsigned)v; return;
    case sizeof(short) * 10 + K_SIGNED: ((short *)buf)[i] = (short)v; return;
    case 1 * 10 + K_UNSIGNED:
    case 1 * 10 + K_BYTE: ((unsigned char *)buf)[i] = (unsigned char)v; return;
    case sizeof(float) * 10 + K_FLOAT: ((float *)buf)[i] = (float)v; return;
    case sizeof(double) * 10 + K_FLOAT: ((double *)buf)[i] = (double)v; return;
    case 8 * 10 + K_SIGNED: ((int64_t *)buf)[i] = (int64_t)v; return;
    case 8 * 10 + K_UNSIGNED: ((uint64_t *)buf)[i] = (uint64_t)v; return;
    }
    fail("store: unknown type", 0, (long long)t->size, __LINE__);
}

static long long load(const struct tdesc *t, const void *buf, long i)
{
    switch (t->size * 10 + (size_t)t->kind) {
    case sizeof(int) * 10 + K_SIGNED: return ((const int *)buf)[i];
    case sizeof(unsigned) * 10 + K_UNSIGNED: return ((const unsigned *)buf)[i];
    case sizeof(short) * 10 + K_SIGNED: return ((const short *)buf)[i];
    case 1 * 10 + K_UNSIGNED:
    case 1 * 10 + K_BYTE: return ((const unsigned char *)buf)[i];
    case sizeof(float) * 10 + K_FLOAT: return (long long)((const float *)buf)[i];
    case sizeof(double) * 10 + K_FLOAT: return (long long)((const double *)buf)[i];
    case 8 * 10 + K_SIGNED: return (long long)((const int64_t *)buf)[i];
    case 8 * 10 + K_UNSIGNED: return (long long)((const uint64_t *)buf)[i];
    }
    fail("load: unknown type", 0, (long long)t->size, __LINE__);
    return 0;
}

enum opk { O_SUM, O_PROD, O_MAX, O_MIN, O_LAND, O_LOR, O_LXOR, O_BAND, O_BOR, O_BXOR, NOPK };
static const char *op_name[NOPK] = {"sum", "prod", "max", "min", "land",
                                    "lor", "lxor", "band", "bor", "bxor"};
static MPI_Op op_handle(int o)
{
    switch (o) {
    case O_SUM: return MPI_SUM;
    case O_PROD: return MPI_PROD;
    case O_MAX: return MPI_MAX;
    case O_MIN: return MPI_MIN;
    case O_LAND: return MPI_LAND;
    case O_LOR: return MPI_LOR;
    case O_LXOR: return MPI_LXOR;
    case O_BAND: return MPI_BAND;
    case O_BOR: return MPI_BOR;
    default: return MPI_BXOR;
    }
}

/* input of rank r, element i, for operation o on a type of kind k */
static long long opval(int o, enum kind k, int r, long i, int size)
{
    int neg = (k == K_SIGNED || k == K_FLOAT);
    long long x;
    switch (o) {
    case O_SUM:
        x = (r * 7 + i * 3) % 11;
        return neg ? x - 5 : x;
    case O_PROD:
        /* product over <= 16 ranks stays within +-2^8 */
        if ((r + i) % 4 == 0)
            return 2;
        if (neg && (r + i) % 5 == 1)
            return -1;
        return 1;
    case O_MAX:
    case O_MIN:
        x = (r * 13 + i * 7) % 23;
        return neg ? x - 11 : x;
    case O_LAND:
        if ((r + i) % (size + 1) == 0)
            return 0;
        return neg && r % 2 ? -3 : 3;
    case O_LOR:
        return ((r * 3 + i) % (size + 2) == 0) ? 5 : 0;
    case O_LXOR:
        return ((r + i) % 3 == 0) ? (neg ? -7 : 7) : 0;
    case O_BAND:
        /* bit b is cleared by at most one rank, so some bits survive */
        x = 0x7F;
        for (int bit = 0; bit < 7; bit++)
            if ((r + i * 3 + bit * 5) % (size + 4) == 0)
                x &= ~(1LL << bit);
        return x;
    case O_BOR:
        return 1 << ((r * 3 + i) % 7);
    default:
        return (r * 37 + i * 11) & 0x7F;
    }
}

static long long opexpect(int o, enum kind k, long i, int size)
{
    long long acc = opval(o, k, 0, i, size);
    if (o >= O_LAND && o <= O_LXOR)
        acc = acc != 0;
    for (int r = 1; r < size; r++) {
        long long v = opval(o, k, r, i, size);
        switch (o) {
        case O_SUM: acc += v; break;
        case O_PROD: acc *= v; break;
        case O_MAX: acc = v > acc ? v : acc; break;
        case O_MIN: acc = v < acc ? v : acc; break;
        case O_LAND: acc = acc && v; break;
        case O_LOR: acc = acc || v; break;
        case O_LXOR: acc = (acc != 0) != (v != 0); break;
        case O_BAND: acc &= v; break;
        case O_BOR: acc |= v; break;
        default: acc ^= v; break;
        }
    }
    return acc;
}

static void check_op_result(const struct tdesc *t, int o, const void *rb, long n, const char *what,
                            int root)
{
    for (long i = 0; i < n; i++) {
        long long e = opexpect(o, t->kind, i, wsize), g = load(t, rb, i);
        if (o >= O_LAND && o <= O_LXOR)
            g = g != 0;
        if (e != g)
            CHECK(e, g, "%s %s on %s (count %ld, root %d) element %ld", what, op_name[o], t->name, n,
                  root, i);
    }
}

static void part_ops(struct sums *S)
{
    const struct tdesc types[] = {
        {"int", MPI_INT, sizeof(int), K_SIGNED, 1, 1, 1},
        {"long", MPI_LONG, sizeof(long), K_SIGNED, 1, 1, 1},
        {"long_long", MPI_LONG_LONG, sizeof(long long), K_SIGNED, 1, 1, 1},
        {"unsigned", MPI_UNSIGNED, sizeof(unsigned), K_UNSIGNED, 1, 1, 1},
        {"float", MPI_FLOAT, sizeof(float), K_FLOAT, 1, 0, 0},
        {"double", MPI_DOUBLE, sizeof(double), K_FLOAT, 1, 0, 0},
        {"short", MPI_SHORT, sizeof(short), K_SIGNED, 0, 1, 1},
        {"unsigned_char", MPI_UNSIGNED_CHAR, 1, K_UNSIGNED, 0, 0, 1},
        {"uint64_t", MPI_UINT64_T, 8, K_UNSIGNED, 0, 0, 1},
        {"byte", MPI_BYTE, 1, K_BYTE, 0, 0, 1},
    };
    static const long acounts[] = {1, 7, 1000, 20000};
    static const long rcounts[] = {7, 1000};
    const long maxn = 20000;
    void *sb = xmalloc(8 * (size_t)maxn), *rb = xmalloc(8 * (size_t)maxn);
    int combo = 0;

    if (sizeof(long) != 8 || sizeof(long long) != 8)
        fail("this test assumes 8-byte long and long long", 8, (long long)sizeof(long), __LINE__);

    for (size_t ti = 0; ti < sizeof types / sizeof types[0]; ti++) {
        const struct tdesc *t = &types[ti];
        for (int o = 0; o < NOPK; o++) {
            if ((o <= O_MIN && !t->arith) || (o >= O_LAND && o <= O_LXOR && !t->logical) ||
                (o >= O_BAND && !t->bitwise))
                continue;
            char nm[64];
            snprintf(nm, sizeof nm, "op_%s_%s", op_name[o], t->name);
            combo++;
            for (size_t ci = 0; ci < sizeof acounts / sizeof acounts[0]; ci++) {
                long n = acounts[ci];
                for (long i = 0; i < n; i++) {
                    store(t, sb, i, opval(o, t->kind, wrank, i, wsize));
                    store(t, rb, i, 99);
                }
                MPI_Allreduce(sb, rb, (int)n, t->dt, op_handle(o), MPI_COMM_WORLD);
                check_op_result(t, o, rb, n, "Allreduce", -1);
                long long cs = 0;
                for (long i = 0; i < n; i++) {
                    long long g = load(t, rb, i);
                    if (o >= O_LAND && o <= O_LXOR)
                        g = g != 0;
                    cs += g * (i % 5 + 1);
                }
                add_sum(S, nm, wrank == 0 ? cs : 0);
            }
            int roots[3] = {0, wsize - 1, combo % wsize};
            for (size_t ci = 0; ci < sizeof rcounts / sizeof rcounts[0]; ci++) {
                long n = rcounts[ci];
                for (int k = 0; k < 3; k++) {
                    int root = roots[k];
                    for (long i = 0; i < n; i++) {
                        store(t, sb, i, opval(o, t->kind, wrank, i, wsize));
                        store(t, rb, i, 99);
                    }
                    MPI_Reduce(sb, rb, (int)n, t->dt, op_handle(o), root, MPI_COMM_WORLD);
                    if (wrank == root)
                        check_op_result(t, o, rb, n, "Reduce", root);
                    else
                        for (long i = 0; i < n; i++)
                            CHECK(99, load(t, rb, i), "Reduce %s on %s: non-root recvbuf touched",
                                  op_name[o], t->name);
                }
            }
        }
    }
    free(sb);
    free(rb);
}

/* MAXLOC / MINLOC */

static int loc_v(int r, long i) { return (int)((r * 7 + i * 3) % 5); }
static int loc_idx(int r, long i, int size) { return (size - r) * 3 + (int)(i % 2); }

/* expected (value, index) over all ranks for element i */
static void loc_expect(int maxloc, long i, int size, int *ev, int *ei)
{
    *ev = loc_v(0, i);
    *ei = loc_idx(0, i, size);
    for (int r = 1; r < size; r++) {
        int v = loc_v(r, i), x = loc_idx(r, i, size);
        if ((maxloc && v > *ev) || (!maxloc && v < *ev) || (v == *ev && x < *ei)) {
            *ev = v;
            *ei = x;
        }
    }
}

#define LOC_TEST(STRUCT_T, VALUE_T, DT, NAME)                                            \
    do {                                                                                  \
        STRUCT_T *s_ = xmalloc(sizeof(STRUCT_T) * (size_t)n);                             \
        STRUCT_T *r_ = xmalloc(sizeof(STRUCT_T) * (size_t)n);                             \
        for (int ml = 0; ml < 2; ml++) {                                                  \
            char nm_[64];                                                                 \
            snprintf(nm_, sizeof nm_, "op_%s_%s", ml ? "maxloc" : "minloc", NAME);        \
            for (int rr = -1; rr < (n > 10 ? 1 : wsize); rr++) {                          \
                for (long i = 0; i < n; i++) {                                            \
                    s_[i].v = (VALUE_T)loc_v(wrank, i);                                   \
                    s_[i].i = loc_idx(wrank, i, wsize);                                   \
                    r_[i].v = (VALUE_T)-1;                                                \
                    r_[i].i = -1;                                                         \
                }                                                                         \
                if (rr < 0)                                                               \
                    MPI_Allreduce(s_, r_, (int)n, DT, ml ? MPI_MAXLOC : MPI_MINLOC,       \
                                  MPI_COMM_WORLD);                                        \
                else                                                                      \
                    MPI_Reduce(s_, r_, (int)n, DT, ml ? MPI_MAXLOC : MPI_MINLOC, rr,      \
                               MPI_COMM_WORLD);                                           \
                if (rr >= 0 && wrank != rr)                                               \
                    continue;                                                             \
                long long cs_ = 0;                                                        \
                for (long i = 0; i < n; i++) {                                            \
                    int ev_, ei_;                                                         \
                    loc_expect(ml, i, wsize, &ev_, &ei_);                                 \
                    CHECK(ev_, (long long)r_[i].v, "%s %s (count %ld, root %d) value %ld", \
                          rr < 0 ? "Allreduce" : "Reduce", nm_, n, rr, i);                \
                    CHECK(ei_, r_[i].i, "%s %s (count %ld, root %d) index %ld",           \
                          rr < 0 ? "Allreduce" : "Reduce", nm_, n, rr, i);                \
                    cs_ += ((long long)r_[i].v * 1000 + r_[i].i) * (i % 5 + 1);           \
                }                                                                         \
                if (rr < 0)                                                               \
                    add_sum(S, nm_, wrank == 0 ? cs_ : 0);                                   \
            }                                                                             \
        }                                                                                 \
        free(s_);                                                                         \
        free(r_);                                                                         \
    } while (0)

struct s2int { int v; int i; };
struct sdi { double v; int i; };
struct sfi { float v; int i; };
struct sli { long v; int i; };

static void part_loc(struct sums *S)
{
    static const long counts[] = {1, 6, 5000};
    for (size_t k = 0; k < sizeof counts / sizeof counts[0]; k++) {
        long n = counts[k];
        LOC_TEST(struct s2int, int, MPI_2INT, "2int");
        LOC_TEST(struct sdi, double, MPI_DOUBLE_INT, "double_int");
        LOC_TEST(struct sfi, float, MPI_FLOAT_INT, "float_int");
        LOC_TEST(struct sli, long, MPI_LONG_INT, "long_int");
    }
}

/* ------------------------------------------- part 2 and 3: sizes and roots */

#define CAP 1200000L /* doubles per gathered/scattered buffer */
#define POISON (-7.0)

/* element i of the data rank r contributes; distinct per (r, i), < 2^17 */
static double dv(int r, long i, int key) { return (double)((r * 40503L + i * 7 + key * 1009L) % 131071); }

static void fillp(double *b, long n)
{
    for (long i = 0; i < n; i++)
        b[i] = POISON;
}

static long long wsum(const double *b, long n)
{
    long long s = 0;
    for (long i = 0; i < n; i++)
        s += (long long)b[i] * (i % 7 + 1);
    return s;
}

#define CHECKD(expected, got, ...)                                                  \
    do {                                                                            \
        double e__ = (expected), g__ = (got);                                       \
        if (e__ != g__)                                                             \
            CHECK((long long)e__, (long long)g__, __VA_ARGS__);                     \
    } while (0)

static void part_sizes(struct sums *S)
{
    static const long counts[] = {0, 1, 3, 1000, 40000, 300000};
    const long maxc = 300000;
    double *a = xmalloc(sizeof(double) * (size_t)(CAP + 8));
    double *b = xmalloc(sizeof(double) * (size_t)(CAP + 8));
    double *c = xmalloc(sizeof(double) * (size_t)(maxc + 8));
    char nm[64];

    for (size_t ci = 0; ci < sizeof counts / sizeof counts[0]; ci++) {
        long n = counts[ci];
        long blk = n * wsize <= CAP ? n : CAP / wsize; /* per-rank block */
        long tot = blk * wsize;
        int key = (int)ci;

        /* --- Bcast from every root */
        snprintf(nm, sizeof nm, "bcast_n%ld", n);
        for (int root = 0; root < wsize; root++) {
            for (long i = 0; i < n + 8; i++)
                c[i] = (wrank == root && i < n) ? dv(root, i, key) : POISON;
            MPI_Bcast(c, (int)n, MPI_DOUBLE, root, MPI_COMM_WORLD);
            for (long i = 0; i < n + 8; i++)
                CHECKD(i < n ? dv(root, i, key) : POISON, c[i], "Bcast n %ld root %d element %ld", n,
                       root, i);
            add_sum(S, nm, wsum(c, n));
        }

        /* --- Allreduce SUM, plain and in place */
        for (int inplace = 0; inplace < 2; inplace++) {
            snprintf(nm, sizeof nm, "allreduce_sum%s_n%ld", inplace ? "_inplace" : "", n);
            for (long i = 0; i < n + 8; i++) {
                a[i] = i < n ? dv(wrank, i, key) : POISON;
                c[i] = inplace && i < n ? a[i] : POISON;
            }
            if (inplace)
                MPI_Allreduce(MPI_IN_PLACE, c, (int)n, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
            else
                MPI_Allreduce(a, c, (int)n, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
            for (long i = 0; i < n + 8; i++) {
                double e = POISON;
                if (i < n) {
                    e = 0;
                    for (int r = 0; r < wsize; r++)
                        e += dv(r, i, key);
                }
                CHECKD(e, c[i], "Allreduce%s n %ld element %ld", inplace ? "(IN_PLACE)" : "", n, i);
            }
            add_sum(S, nm, wsum(c, n));
        }

        /* --- Reduce SUM to every root, plain and in place */
        for (int inplace = 0; inplace < 2; inplace++) {
            snprintf(nm, sizeof nm, "reduce_sum%s_n%ld", inplace ? "_inplace" : "", n);
            for (int root = 0; root < wsize; root++) {
                for (long i = 0; i < n + 8; i++) {
                    a[i] = i < n ? dv(wrank, i, key + root) : POISON;
                    c[i] = inplace && wrank == root && i < n ? a[i] : POISON;
                }
                if (inplace && wrank == root) {
#ifdef MPICH_NUMVERSION
                    /* MPICH 4.0 (ch4:ucx) crashes in MPI_Reduce with
                     * MPI_IN_PLACE at a non-zero root from ~500 doubles on;
                     * the native MPICH build reduces from a copy instead
                     * (same result; Tucana's own mpi.h never defines this) */
                    if (root != 0) {
                        memcpy(a, c, sizeof(double) * (size_t)n);
                        MPI_Reduce(a, c, (int)n, MPI_DOUBLE, MPI_SUM, root, MPI_COMM_WORLD);
                    } else
#endif
                        MPI_Reduce(MPI_IN_PLACE, c, (int)n, MPI_DOUBLE, MPI_SUM, root,
                                   MPI_COMM_WORLD);
                } else {
                    MPI_Reduce(a, c, (int)n, MPI_DOUBLE, MPI_SUM, root, MPI_COMM_WORLD);
                }
                for (long i = 0; i < n + 8; i++) {
                    double e = POISON;
                    if (i < n && wrank == root) {
                        e = 0;
                        for (int r = 0; r < wsize; r++)
                            e += dv(r, i, key + root);
                    }
                    CHECKD(e, c[i], "Reduce%s n %ld root %d element %ld",
                           inplace ? "(IN_PLACE)" : "", n, root, i);
                    if (i < n)
                        CHECKD(dv(wrank, i, key + root), a[i], "Reduce n %ld modified sendbuf", n);
                }
                if (wrank == root)
                    add_sum(S, nm, wsum(c, n));
            }
        }

        /* --- Allgather, plain and in place (block blk) */
        for (int inplace = 0; inplace < 2; inplace++) {
            snprintf(nm, sizeof nm, "allgather%s_n%ld", inplace ? "_inplace" : "", n);
            fillp(b, tot + 8);
            for (long i = 0; i < blk; i++) {
                a[i] = dv(wrank, i, key);
                if (inplace)
                    b[wrank * blk + i] = a[i];
            }
            if (inplace)
                MPI_Allgather(MPI_IN_PLACE, (int)blk, MPI_DOUBLE, b, (int)blk, MPI_DOUBLE,
                              MPI_COMM_WORLD);
            else
                MPI_Allgather(a, (int)blk, MPI_DOUBLE, b, (int)blk, MPI_DOUBLE, MPI_COMM_WORLD);
            for (long k = 0; k < tot + 8; k++)
                CHECKD(k < tot ? dv((int)(k / blk), k % blk, key) : POISON, b[k],
                       "Allgather%s block %ld element %ld", inplace ? "(IN_PLACE)" : "", blk, k);
            add_sum(S, nm, wsum(b, tot));
        }

        /* --- Gather to every root, plain and in place */
        for (int inplace = 0; inplace < 2; inplace++) {
            snprintf(nm, sizeof nm, "gather%s_n%ld", inplace ? "_inplace" : "", n);
            for (int root = 0; root < wsize; root++) {
                fillp(b, tot + 8);
                for (long i = 0; i < blk; i++) {
                    a[i] = dv(wrank, i, key + root);
                    if (inplace && wrank == root)
                        b[wrank * blk + i] = a[i];
                }
                if (inplace && wrank == root)
                    MPI_Gather(MPI_IN_PLACE, (int)blk, MPI_DOUBLE, b, (int)blk, MPI_DOUBLE, root,
                               MPI_COMM_WORLD);
                else
                    MPI_Gather(a, (int)blk, MPI_DOUBLE, b, (int)blk, MPI_DOUBLE, root,
                               MPI_COMM_WORLD);
                for (long k = 0; k < tot + 8; k++)
                    CHECKD(k < tot && wrank == root ? dv((int)(k / blk), k % blk, key + root) : POISON,
                           b[k], "Gather%s block %ld root %d element %ld",
                           inplace ? "(IN_PLACE)" : "", blk, root, k);
                if (wrank == root)
                    add_sum(S, nm, wsum(b, tot));
            }
        }

        /* --- Scatter from every root, plain and in place */
        for (int inplace = 0; inplace < 2; inplace++) {
            snprintf(nm, sizeof nm, "scatter%s_n%ld", inplace ? "_inplace" : "", n);
            for (int root = 0; root < wsize; root++) {
                for (long k = 0; k < tot; k++)
                    b[k] = wrank == root ? dv((int)(k / blk), k % blk, key + 2 * root) : POISON;
                fillp(c, blk + 8);
                if (inplace && wrank == root) {
                    MPI_Scatter(b, (int)blk, MPI_DOUBLE, MPI_IN_PLACE, (int)blk, MPI_DOUBLE, root,
                                MPI_COMM_WORLD);
                    memcpy(c, b + (long)wrank * blk, sizeof(double) * (size_t)blk);
                } else {
                    MPI_Scatter(b, (int)blk, MPI_DOUBLE, c, (int)blk, MPI_DOUBLE, root,
                                MPI_COMM_WORLD);
                }
                for (long i = 0; i < blk + 8; i++)
                    CHECKD(i < blk ? dv(wrank, i, key + 2 * root) : POISON, c[i],
                           "Scatter%s block %ld root %d element %ld", inplace ? "(IN_PLACE)" : "",
                           blk, root, i);
                add_sum(S, nm, wsum(c, blk));
            }
        }

        /* --- Alltoall, plain and in place: element i of the block from s
         * to d is dv(s * size + d, i) */
        for (int inplace = 0; inplace < 2; inplace++) {
            snprintf(nm, sizeof nm, "alltoall%s_n%ld", inplace ? "_inplace" : "", n);
            for (long k = 0; k < tot; k++)
                a[k] = dv(wrank * wsize + (int)(k / blk), k % blk, key);
            fillp(b, tot + 8);
            if (inplace) {
                memcpy(b, a, sizeof(double) * (size_t)tot);
                MPI_Alltoall(MPI_IN_PLACE, (int)blk, MPI_DOUBLE, b, (int)blk, MPI_DOUBLE,
                             MPI_COMM_WORLD);
            } else {
                MPI_Alltoall(a, (int)blk, MPI_DOUBLE, b, (int)blk, MPI_DOUBLE, MPI_COMM_WORLD);
            }
            for (long k = 0; k < tot + 8; k++)
                CHECKD(k < tot ? dv((int)(k / blk) * wsize + wrank, k % blk, key) : POISON, b[k],
                       "Alltoall%s block %ld element %ld", inplace ? "(IN_PLACE)" : "", blk, k);
            add_sum(S, nm, wsum(b, tot));
        }
    }
    free(a);
    free(b);
    free(c);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    struct sums *S = xmalloc(sizeof *S);
    S->n = 0;

    part_ops(S);
    part_loc(S);
    part_sizes(S);

    print_sums(S);
    free(S);
    MPI_Barrier(MPI_COMM_WORLD);
    if (wrank == 0) {
        printf("OK %s\n", TESTNAME);
        fflush(stdout);
    }
    MPI_Finalize();
    return 0;
}
