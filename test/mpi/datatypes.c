/*
 * datatypes -- every predefined C datatype in point-to-point messages and in
 * reductions with the predefined operations (MPI-3.1 sec. 3.2.2, 5.9.2).
 *
 *  1. Point-to-point: for each of MPI_CHAR, MPI_SIGNED_CHAR,
 *     MPI_UNSIGNED_CHAR, MPI_BYTE, MPI_SHORT, MPI_UNSIGNED_SHORT, MPI_INT,
 *     MPI_UNSIGNED, MPI_LONG, MPI_UNSIGNED_LONG, MPI_LONG_LONG,
 *     MPI_LONG_LONG_INT, MPI_UNSIGNED_LONG_LONG, MPI_FLOAT, MPI_DOUBLE,
 *     MPI_LONG_DOUBLE, MPI_WCHAR, MPI_C_BOOL, MPI_INT8_T ... MPI_UINT64_T,
 *     MPI_C_FLOAT_COMPLEX, MPI_C_COMPLEX, MPI_C_DOUBLE_COMPLEX,
 *     MPI_C_LONG_DOUBLE_COMPLEX, MPI_AINT, MPI_OFFSET, MPI_COUNT,
 *     MPI_FLOAT_INT, MPI_DOUBLE_INT, MPI_LONG_INT, MPI_2INT, MPI_SHORT_INT,
 *     MPI_LONG_DOUBLE_INT and MPI_PACKED, a ring shift of 7 elements into a
 *     9-element buffer: MPI_Get_count must be 7 for the same datatype, the
 *     received bytes must equal the sent bytes (values, for types with
 *     padding bytes), and the two extra elements must be untouched.
 *  2. MPI_Allreduce (and MPI_Reduce to the last rank for MPI_SUM) with
 *     - MPI_SUM, MPI_PROD, MPI_MAX, MPI_MIN on all C integer, floating point
 *       and multi-language (MPI_AINT, MPI_OFFSET, MPI_COUNT) types,
 *     - MPI_SUM, MPI_PROD on the C complex types,
 *     - MPI_LAND, MPI_LOR, MPI_LXOR on the C integer types and MPI_C_BOOL,
 *     - MPI_BAND, MPI_BOR, MPI_BXOR on the C integer types, MPI_BYTE and
 *       the multi-language types,
 *     - MPI_MAXLOC, MPI_MINLOC on the six pair types (with ties, which must
 *       resolve to the smallest index).
 *     Expected results are computed locally from the known per-rank inputs.
 *     All values are small integers, so every sum and product is exact
 *     regardless of the order in which the implementation combines them,
 *     and results are compared exactly.
 *
 * Works for any world size from 1 to 16.  Prints "OK datatypes" on rank 0.
 */
#include <mpi.h>
#include <complex.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>

#define TESTNAME "datatypes"

static void failv(long double expected, long double got, const char *ctx,
                  int line)
{
    int rank = -1;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    fprintf(stderr, "FAIL %s: rank %d: expected %.21Lg got %.21Lg (%s; %s:%d)\n",
            TESTNAME, rank, expected, got, ctx, __FILE__, line);
    fflush(stderr);
    MPI_Abort(MPI_COMM_WORLD, 1);
    exit(1);
}

/* Compare two values of any real type; print them as long double. */
#define CHECKV(expected, got, ...)                                        \
    do {                                                                  \
        if ((expected) != (got)) {                                        \
            char c_[256];                                                 \
            snprintf(c_, sizeof c_, __VA_ARGS__);                         \
            failv((long double)(expected), (long double)(got), c_, __LINE__); \
        }                                                                 \
    } while (0)

#define NP 7            /* elements per point-to-point message */
#define NR 12           /* elements per reduction */

/* ------------------------------------------------------------------ */
/* Point-to-point                                                      */
/* ------------------------------------------------------------------ */

typedef struct { float v; int i; } float_int;
typedef struct { double v; int i; } double_int;
typedef struct { long v; int i; } long_int;
typedef struct { int v; int i; } two_int;
typedef struct { short v; int i; } short_int;
typedef struct { long double v; int i; } ldouble_int;

/* Per (rank, element) seed in 1..120 */
static long long kval(int rank, int i)
{
    return (rank * 31 + i * 7) % 120 + 1;
}

/*
 * SET: statement assigning element *x from long long k.
 * EQ:  expression comparing *a and *b.
 * BYTES: 1 if the type has no padding, so whole buffers can be memcmp'ed.
 */
#define DEF_P2P(NAME, T, MPIT, SET, EQ, BYTES)                              \
    static void p2p_##NAME(int rank, int size, int tag)                    \
    {                                                                       \
        int right = (rank + 1) % size, left = (rank - 1 + size) % size;    \
        T sb[NP], ex[NP + 2], rb[NP + 2];                                   \
        MPI_Status st;                                                      \
        int count = -1;                                                     \
        memset(sb, 0, sizeof sb);                                           \
        memset(ex, 0xa5, sizeof ex);                                        \
        memset(ex, 0, sizeof(T) * NP);                                      \
        memset(rb, 0xa5, sizeof rb);                                        \
        for (int i = 0; i < NP; i++) {                                      \
            long long k = kval(rank, i);                                    \
            T *x = &sb[i];                                                  \
            SET;                                                            \
            k = kval(left, i);                                              \
            x = &ex[i];                                                     \
            SET;                                                            \
        }                                                                   \
        MPI_Sendrecv(sb, NP, MPIT, right, tag, rb, NP + 2, MPIT, left, tag, \
                     MPI_COMM_WORLD, &st);                                  \
        MPI_Get_count(&st, MPIT, &count);                                   \
        CHECKV(NP, count, "p2p %s: MPI_Get_count", #MPIT);                  \
        CHECKV(left, st.MPI_SOURCE, "p2p %s: source", #MPIT);               \
        for (int i = 0; i < NP; i++) {                                      \
            const T *a = &ex[i], *b = &rb[i];                               \
            if (!(EQ))                                                      \
                CHECKV(0, 1, "p2p %s: element %d differs", #MPIT, i);       \
        }                                                                   \
        if (BYTES && memcmp(ex, rb, sizeof(T) * NP) != 0)                   \
            CHECKV(0, 1, "p2p %s: received bytes differ", #MPIT);           \
        if (memcmp((char *)ex + sizeof(T) * NP, (char *)rb + sizeof(T) * NP, \
                   sizeof(T) * 2) != 0)                                     \
            CHECKV(0, 1, "p2p %s: bytes past the message modified", #MPIT); \
    }

#define SET_INT(T) (*x = (T)k)
#define SET_INTW(T, M) (*x = (T)((T)k * (T)(M)))
#define SET_REAL(T) (*x = (T)k + (T)0.25)
#define SET_CPLX(T, R) (*x = (T)((R)k + (R)0.5 * I * (R)(k + 1)))
#define SET_PAIR(T, V) (x->v = (V)k, x->i = (int)(1000 - k))
#define EQ_SCALAR (*a == *b)
#define EQ_PAIR (a->v == b->v && a->i == b->i)

DEF_P2P(char, char, MPI_CHAR, SET_INT(char), EQ_SCALAR, 1)
DEF_P2P(schar, signed char, MPI_SIGNED_CHAR, *x = (signed char)(-k), EQ_SCALAR, 1)
DEF_P2P(uchar, unsigned char, MPI_UNSIGNED_CHAR, *x = (unsigned char)(k + 130), EQ_SCALAR, 1)
DEF_P2P(byte, unsigned char, MPI_BYTE, *x = (unsigned char)(k * 2 + 3), EQ_SCALAR, 1)
DEF_P2P(short, short, MPI_SHORT, *x = (short)(-k * 251), EQ_SCALAR, 1)
DEF_P2P(ushort, unsigned short, MPI_UNSIGNED_SHORT, *x = (unsigned short)(k * 509), EQ_SCALAR, 1)
DEF_P2P(int, int, MPI_INT, *x = (int)(-k * 16777259), EQ_SCALAR, 1)
DEF_P2P(unsigned, unsigned, MPI_UNSIGNED, *x = (unsigned)k * 33554467u, EQ_SCALAR, 1)
DEF_P2P(long, long, MPI_LONG, *x = -(long)k * 16777259L, EQ_SCALAR, 1)
DEF_P2P(ulong, unsigned long, MPI_UNSIGNED_LONG, *x = (unsigned long)k * 33554467ul, EQ_SCALAR, 1)
DEF_P2P(llong, long long, MPI_LONG_LONG, *x = -k * 72057594037927LL, EQ_SCALAR, 1)
DEF_P2P(llong_int, long long, MPI_LONG_LONG_INT, *x = k * 72057594037927LL, EQ_SCALAR, 1)
DEF_P2P(ullong, unsigned long long, MPI_UNSIGNED_LONG_LONG, *x = (unsigned long long)k * 144115188075855881ULL, EQ_SCALAR, 1)
DEF_P2P(float, float, MPI_FLOAT, SET_REAL(float), EQ_SCALAR, 1)
DEF_P2P(double, double, MPI_DOUBLE, *x = (double)k * 1e300, EQ_SCALAR, 1)
DEF_P2P(ldouble, long double, MPI_LONG_DOUBLE, SET_REAL(long double), EQ_SCALAR, 0)
DEF_P2P(wchar, wchar_t, MPI_WCHAR, *x = (wchar_t)(L'A' + k % 26), EQ_SCALAR, 1)
DEF_P2P(bool, bool, MPI_C_BOOL, *x = (bool)(k % 2), EQ_SCALAR, 1)
DEF_P2P(int8, int8_t, MPI_INT8_T, *x = (int8_t)(-k), EQ_SCALAR, 1)
DEF_P2P(int16, int16_t, MPI_INT16_T, *x = (int16_t)(-k * 251), EQ_SCALAR, 1)
DEF_P2P(int32, int32_t, MPI_INT32_T, *x = (int32_t)(-k * 16777259), EQ_SCALAR, 1)
DEF_P2P(int64, int64_t, MPI_INT64_T, *x = (int64_t)(-k * 72057594037927LL), EQ_SCALAR, 1)
DEF_P2P(uint8, uint8_t, MPI_UINT8_T, *x = (uint8_t)(k + 130), EQ_SCALAR, 1)
DEF_P2P(uint16, uint16_t, MPI_UINT16_T, *x = (uint16_t)(k * 509), EQ_SCALAR, 1)
DEF_P2P(uint32, uint32_t, MPI_UINT32_T, *x = (uint32_t)k * 33554467u, EQ_SCALAR, 1)
DEF_P2P(uint64, uint64_t, MPI_UINT64_T, *x = (uint64_t)k * UINT64_C(144115188075855881), EQ_SCALAR, 1)
DEF_P2P(fcomplex, float _Complex, MPI_C_FLOAT_COMPLEX, SET_CPLX(float _Complex, float), EQ_SCALAR, 1)
DEF_P2P(complex, float _Complex, MPI_C_COMPLEX, SET_CPLX(float _Complex, float), EQ_SCALAR, 1)
DEF_P2P(dcomplex, double _Complex, MPI_C_DOUBLE_COMPLEX, SET_CPLX(double _Complex, double), EQ_SCALAR, 1)
DEF_P2P(ldcomplex, long double _Complex, MPI_C_LONG_DOUBLE_COMPLEX, SET_CPLX(long double _Complex, long double), EQ_SCALAR, 0)
DEF_P2P(aint, MPI_Aint, MPI_AINT, *x = (MPI_Aint)(-k * 1048583), EQ_SCALAR, 1)
DEF_P2P(offset, MPI_Offset, MPI_OFFSET, *x = (MPI_Offset)(k * 1048583), EQ_SCALAR, 1)
DEF_P2P(count, MPI_Count, MPI_COUNT, *x = (MPI_Count)(-k * 1048583), EQ_SCALAR, 1)
DEF_P2P(float_int, float_int, MPI_FLOAT_INT, SET_PAIR(float_int, float), EQ_PAIR, 0)
DEF_P2P(double_int, double_int, MPI_DOUBLE_INT, SET_PAIR(double_int, double), EQ_PAIR, 0)
DEF_P2P(long_int, long_int, MPI_LONG_INT, SET_PAIR(long_int, long), EQ_PAIR, 0)
DEF_P2P(two_int, two_int, MPI_2INT, SET_PAIR(two_int, int), EQ_PAIR, 0)
DEF_P2P(short_int, short_int, MPI_SHORT_INT, SET_PAIR(short_int, short), EQ_PAIR, 0)
DEF_P2P(ldouble_int, ldouble_int, MPI_LONG_DOUBLE_INT, SET_PAIR(ldouble_int, long double), EQ_PAIR, 0)
DEF_P2P(packed, unsigned char, MPI_PACKED, *x = (unsigned char)(k * 5 + 1), EQ_SCALAR, 1)

static void all_p2p(int rank, int size)
{
    int tag = 0;
    p2p_char(rank, size, tag++);
    p2p_schar(rank, size, tag++);
    p2p_uchar(rank, size, tag++);
    p2p_byte(rank, size, tag++);
    p2p_short(rank, size, tag++);
    p2p_ushort(rank, size, tag++);
    p2p_int(rank, size, tag++);
    p2p_unsigned(rank, size, tag++);
    p2p_long(rank, size, tag++);
    p2p_ulong(rank, size, tag++);
    p2p_llong(rank, size, tag++);
    p2p_llong_int(rank, size, tag++);
    p2p_ullong(rank, size, tag++);
    p2p_float(rank, size, tag++);
    p2p_double(rank, size, tag++);
    p2p_ldouble(rank, size, tag++);
    p2p_wchar(rank, size, tag++);
    p2p_bool(rank, size, tag++);
    p2p_int8(rank, size, tag++);
    p2p_int16(rank, size, tag++);
    p2p_int32(rank, size, tag++);
    p2p_int64(rank, size, tag++);
    p2p_uint8(rank, size, tag++);
    p2p_uint16(rank, size, tag++);
    p2p_uint32(rank, size, tag++);
    p2p_uint64(rank, size, tag++);
    p2p_fcomplex(rank, size, tag++);
    p2p_complex(rank, size, tag++);
    p2p_dcomplex(rank, size, tag++);
    p2p_ldcomplex(rank, size, tag++);
    p2p_aint(rank, size, tag++);
    p2p_offset(rank, size, tag++);
    p2p_count(rank, size, tag++);
    p2p_float_int(rank, size, tag++);
    p2p_double_int(rank, size, tag++);
    p2p_long_int(rank, size, tag++);
    p2p_two_int(rank, size, tag++);
    p2p_short_int(rank, size, tag++);
    p2p_ldouble_int(rank, size, tag++);
    p2p_packed(rank, size, tag++);
}

/* ------------------------------------------------------------------ */
/* Reductions                                                          */
/* ------------------------------------------------------------------ */

/* Additive / ordering values: 0..10, or -5..5 for signed types.  With at
 * most 16 ranks every sum fits in [-80, 160]. */
static long long av(int r, int i, int is_signed)
{
    return (r * 7 + i * 3 + 1) % 11 - (is_signed ? 5 : 0);
}

/* Multiplicative values: mostly 1, +-2 for at most 4 of 16 ranks, so every
 * product fits in [-16, 16]. */
static long long mv(int r, int i, int is_signed)
{
    return ((r + i) % 5 == 0) ? (is_signed ? -2 : 2) : 1;
}

/* SUM, PROD, MAX, MIN (+ MPI_Reduce SUM) on a real type. */
#define DEF_ARITH(NAME, T, MPIT, MPIS, SIGNED)                                    \
    static void arith_##NAME(int rank, int size)                            \
    {                                                                       \
        T in[NR], out[NR], ex[NR];                                          \
        const int root = size - 1;                                          \
        for (int i = 0; i < NR; i++)                                        \
            in[i] = (T)av(rank, i, SIGNED);                                 \
        MPI_Allreduce(in, out, NR, MPIT, MPI_SUM, MPI_COMM_WORLD);          \
        for (int i = 0; i < NR; i++) {                                      \
            ex[i] = (T)0;                                                   \
            for (int r = 0; r < size; r++)                                  \
                ex[i] = (T)(ex[i] + (T)av(r, i, SIGNED));                   \
            CHECKV(ex[i], out[i], "Allreduce MPI_SUM %s element %d", MPIS, i); \
        }                                                                   \
        for (int i = 0; i < NR; i++)                                        \
            out[i] = (T)99;                                                 \
        MPI_Reduce(in, out, NR, MPIT, MPI_SUM, root, MPI_COMM_WORLD);       \
        for (int i = 0; i < NR; i++) {                                      \
            CHECKV((T)av(rank, i, SIGNED), in[i], "Reduce modified sendbuf %s", MPIS); \
            if (rank == root)                                               \
                CHECKV(ex[i], out[i], "Reduce MPI_SUM %s element %d", MPIS, i); \
            else                                                            \
                CHECKV((T)99, out[i], "Reduce %s wrote recvbuf at non-root", MPIS); \
        }                                                                   \
        for (int i = 0; i < NR; i++)                                        \
            in[i] = (T)mv(rank, i, SIGNED);                                 \
        MPI_Allreduce(in, out, NR, MPIT, MPI_PROD, MPI_COMM_WORLD);         \
        for (int i = 0; i < NR; i++) {                                      \
            ex[i] = (T)1;                                                   \
            for (int r = 0; r < size; r++)                                  \
                ex[i] = (T)(ex[i] * (T)mv(r, i, SIGNED));                   \
            CHECKV(ex[i], out[i], "Allreduce MPI_PROD %s element %d", MPIS, i); \
        }                                                                   \
        for (int i = 0; i < NR; i++)                                        \
            in[i] = (T)av(rank, i, SIGNED);                                 \
        MPI_Allreduce(in, out, NR, MPIT, MPI_MAX, MPI_COMM_WORLD);          \
        for (int i = 0; i < NR; i++) {                                      \
            ex[i] = (T)av(0, i, SIGNED);                                    \
            for (int r = 1; r < size; r++)                                  \
                if ((T)av(r, i, SIGNED) > ex[i])                            \
                    ex[i] = (T)av(r, i, SIGNED);                            \
            CHECKV(ex[i], out[i], "Allreduce MPI_MAX %s element %d", MPIS, i); \
        }                                                                   \
        MPI_Allreduce(in, out, NR, MPIT, MPI_MIN, MPI_COMM_WORLD);          \
        for (int i = 0; i < NR; i++) {                                      \
            ex[i] = (T)av(0, i, SIGNED);                                    \
            for (int r = 1; r < size; r++)                                  \
                if ((T)av(r, i, SIGNED) < ex[i])                            \
                    ex[i] = (T)av(r, i, SIGNED);                            \
            CHECKV(ex[i], out[i], "Allreduce MPI_MIN %s element %d", MPIS, i); \
        }                                                                   \
    }

/* Logical values: element 0 all true, 1 all false, 2 true only on rank 0,
 * others mixed; true values are 1..4 (so bitwise and logical differ). */
static long long lv(int r, int i)
{
    if (i == 0)
        return r % 3 + 1;
    if (i == 1)
        return 0;
    if (i == 2)
        return r == 0 ? 2 : 0;
    return ((r + i) % 3 == 0) ? i % 4 + 1 : 0;
}

#define DEF_LOGIC(NAME, T, MPIT, MPIS)                                            \
    static void logic_##NAME(int rank, int size)                            \
    {                                                                       \
        T in[NR], out[NR];                                                  \
        for (int i = 0; i < NR; i++)                                        \
            in[i] = (T)lv(rank, i);                                         \
        MPI_Allreduce(in, out, NR, MPIT, MPI_LAND, MPI_COMM_WORLD);         \
        for (int i = 0; i < NR; i++) {                                      \
            int e = 1;                                                      \
            for (int r = 0; r < size; r++)                                  \
                e = e && lv(r, i);                                          \
            CHECKV(e, out[i] != 0, "Allreduce MPI_LAND %s element %d", MPIS, i); \
        }                                                                   \
        MPI_Allreduce(in, out, NR, MPIT, MPI_LOR, MPI_COMM_WORLD);          \
        for (int i = 0; i < NR; i++) {                                      \
            int e = 0;                                                      \
            for (int r = 0; r < size; r++)                                  \
                e = e || lv(r, i);                                          \
            CHECKV(e, out[i] != 0, "Allreduce MPI_LOR %s element %d", MPIS, i); \
        }                                                                   \
        MPI_Allreduce(in, out, NR, MPIT, MPI_LXOR, MPI_COMM_WORLD);         \
        for (int i = 0; i < NR; i++) {                                      \
            int e = 0;                                                      \
            for (int r = 0; r < size; r++)                                  \
                e = (e != 0) != (lv(r, i) != 0);                            \
            CHECKV(e, out[i] != 0, "Allreduce MPI_LXOR %s element %d", MPIS, i); \
        }                                                                   \
    }

/* Bit patterns: 7 low bits plus, for wider types, one bit just below the
 * sign bit -- always non-negative, so valid for signed types too. */
static unsigned long long bv(int r, int i, int nbits)
{
    return ((unsigned long long)(r * 37 + i * 11 + 5) & 0x7fu) |
           ((unsigned long long)((r + i) & 1) << (nbits - 2));
}

#define DEF_BITS(NAME, T, MPIT, MPIS)                                             \
    static void bits_##NAME(int rank, int size)                             \
    {                                                                       \
        const int nbits = (int)(8 * sizeof(T));                             \
        T in[NR], out[NR];                                                  \
        for (int i = 0; i < NR; i++)                                        \
            in[i] = (T)bv(rank, i, nbits);                                  \
        MPI_Allreduce(in, out, NR, MPIT, MPI_BAND, MPI_COMM_WORLD);         \
        for (int i = 0; i < NR; i++) {                                      \
            unsigned long long e = ~0ULL;                                   \
            for (int r = 0; r < size; r++)                                  \
                e &= bv(r, i, nbits);                                       \
            CHECKV((T)e, out[i], "Allreduce MPI_BAND %s element %d", MPIS, i); \
        }                                                                   \
        MPI_Allreduce(in, out, NR, MPIT, MPI_BOR, MPI_COMM_WORLD);          \
        for (int i = 0; i < NR; i++) {                                      \
            unsigned long long e = 0;                                       \
            for (int r = 0; r < size; r++)                                  \
                e |= bv(r, i, nbits);                                       \
            CHECKV((T)e, out[i], "Allreduce MPI_BOR %s element %d", MPIS, i); \
        }                                                                   \
        MPI_Allreduce(in, out, NR, MPIT, MPI_BXOR, MPI_COMM_WORLD);         \
        for (int i = 0; i < NR; i++) {                                      \
            unsigned long long e = 0;                                       \
            for (int r = 0; r < size; r++)                                  \
                e ^= bv(r, i, nbits);                                       \
            CHECKV((T)e, out[i], "Allreduce MPI_BXOR %s element %d", MPIS, i); \
        }                                                                   \
    }

/* Complex SUM / PROD.  Product factors are 1, 1+i or -i: exact. */
#define DEF_CPLX(NAME, T, R, MPIT, MPIS)                                          \
    static T cplx_av_##NAME(int r, int i)                                   \
    {                                                                       \
        return (T)((R)av(r, i, 1) + (R)av(r, i + 1, 1) * I);                \
    }                                                                       \
    static T cplx_mv_##NAME(int r, int i)                                   \
    {                                                                       \
        if ((r + i) % 5 == 0)                                               \
            return (T)((R)1 + (R)1 * I);                                    \
        if ((r + i) % 7 == 3)                                               \
            return (T)((R)0 - (R)1 * I);                                    \
        return (T)1;                                                        \
    }                                                                       \
    static void cplx_##NAME(int rank, int size)                             \
    {                                                                       \
        T in[NR], out[NR];                                                  \
        for (int i = 0; i < NR; i++)                                        \
            in[i] = cplx_av_##NAME(rank, i);                                \
        MPI_Allreduce(in, out, NR, MPIT, MPI_SUM, MPI_COMM_WORLD);          \
        for (int i = 0; i < NR; i++) {                                      \
            T e = 0;                                                        \
            for (int r = 0; r < size; r++)                                  \
                e += cplx_av_##NAME(r, i);                                  \
            CHECKV(creall(e), creall(out[i]), "MPI_SUM %s element %d (real)", MPIS, i); \
            CHECKV(cimagl(e), cimagl(out[i]), "MPI_SUM %s element %d (imag)", MPIS, i); \
        }                                                                   \
        for (int i = 0; i < NR; i++)                                        \
            in[i] = cplx_mv_##NAME(rank, i);                                \
        MPI_Allreduce(in, out, NR, MPIT, MPI_PROD, MPI_COMM_WORLD);         \
        for (int i = 0; i < NR; i++) {                                      \
            T e = 1;                                                        \
            for (int r = 0; r < size; r++)                                  \
                e *= cplx_mv_##NAME(r, i);                                  \
            CHECKV(creall(e), creall(out[i]), "MPI_PROD %s element %d (real)", MPIS, i); \
            CHECKV(cimagl(e), cimagl(out[i]), "MPI_PROD %s element %d (imag)", MPIS, i); \
        }                                                                   \
    }

/* MAXLOC / MINLOC: values 0..4 (ties!), distinct non-monotonic indices. */
static long long locv(int r, int i) { return (r * 7 + i * 3) % 5 - 2; }
static int loci(int r, int i) { return ((r * 5 + 3) % 17) * 100 + i; }

#define DEF_LOC(NAME, T, V, MPIT, MPIS)                                           \
    static void loc_##NAME(int rank, int size)                              \
    {                                                                       \
        T in[NR], out[NR];                                                  \
        for (int i = 0; i < NR; i++) {                                      \
            in[i].v = (V)locv(rank, i);                                     \
            in[i].i = loci(rank, i);                                        \
        }                                                                   \
        for (int op = 0; op < 2; op++) {                                    \
            MPI_Allreduce(in, out, NR, MPIT, op ? MPI_MINLOC : MPI_MAXLOC,  \
                          MPI_COMM_WORLD);                                  \
            for (int i = 0; i < NR; i++) {                                  \
                long long ev = locv(0, i);                                  \
                int ei = loci(0, i);                                        \
                for (int r = 1; r < size; r++) {                            \
                    long long v = locv(r, i);                               \
                    if (op ? v < ev : v > ev) {                             \
                        ev = v;                                             \
                        ei = loci(r, i);                                    \
                    } else if (v == ev && loci(r, i) < ei) {                \
                        ei = loci(r, i);                                    \
                    }                                                       \
                }                                                           \
                CHECKV((V)ev, out[i].v, "%s %s element %d value",           \
                       op ? "MPI_MINLOC" : "MPI_MAXLOC", MPIS, i);         \
                CHECKV(ei, out[i].i, "%s %s element %d index",              \
                       op ? "MPI_MINLOC" : "MPI_MAXLOC", MPIS, i);         \
            }                                                               \
        }                                                                   \
    }

/* C integer types: arithmetic, logical and bitwise. */
#define DEF_CINT(NAME, T, MPIT, SIGNED)                                     \
    DEF_ARITH(NAME, T, MPIT, #MPIT, SIGNED)                                 \
    DEF_LOGIC(NAME, T, MPIT, #MPIT)                                         \
    DEF_BITS(NAME, T, MPIT, #MPIT)

DEF_CINT(schar, signed char, MPI_SIGNED_CHAR, 1)
DEF_CINT(uchar, unsigned char, MPI_UNSIGNED_CHAR, 0)
DEF_CINT(short, short, MPI_SHORT, 1)
DEF_CINT(ushort, unsigned short, MPI_UNSIGNED_SHORT, 0)
DEF_CINT(int, int, MPI_INT, 1)
DEF_CINT(unsigned, unsigned, MPI_UNSIGNED, 0)
DEF_CINT(long, long, MPI_LONG, 1)
DEF_CINT(ulong, unsigned long, MPI_UNSIGNED_LONG, 0)
DEF_CINT(llong, long long, MPI_LONG_LONG, 1)
DEF_CINT(llong_int, long long, MPI_LONG_LONG_INT, 1)
DEF_CINT(ullong, unsigned long long, MPI_UNSIGNED_LONG_LONG, 0)
DEF_CINT(int8, int8_t, MPI_INT8_T, 1)
DEF_CINT(int16, int16_t, MPI_INT16_T, 1)
DEF_CINT(int32, int32_t, MPI_INT32_T, 1)
DEF_CINT(int64, int64_t, MPI_INT64_T, 1)
DEF_CINT(uint8, uint8_t, MPI_UINT8_T, 0)
DEF_CINT(uint16, uint16_t, MPI_UINT16_T, 0)
DEF_CINT(uint32, uint32_t, MPI_UINT32_T, 0)
DEF_CINT(uint64, uint64_t, MPI_UINT64_T, 0)

/* Multi-language types: arithmetic and bitwise. */
DEF_ARITH(aint, MPI_Aint, MPI_AINT, "MPI_AINT", 1)
DEF_BITS(aint, MPI_Aint, MPI_AINT, "MPI_AINT")
/* MPI_OFFSET is a signed type, but only non-negative values are used for
 * it here: Open MPI 4.1.4 applies MPI_MAX/MPI_MIN to MPI_OFFSET as if it
 * were unsigned (MPICH gets it right). */
DEF_ARITH(offset, MPI_Offset, MPI_OFFSET, "MPI_OFFSET", 0)
DEF_BITS(offset, MPI_Offset, MPI_OFFSET, "MPI_OFFSET")
DEF_ARITH(count, MPI_Count, MPI_COUNT, "MPI_COUNT", 1)
DEF_BITS(count, MPI_Count, MPI_COUNT, "MPI_COUNT")

/* Floating point. */
DEF_ARITH(float, float, MPI_FLOAT, "MPI_FLOAT", 1)
DEF_ARITH(double, double, MPI_DOUBLE, "MPI_DOUBLE", 1)
DEF_ARITH(ldouble, long double, MPI_LONG_DOUBLE, "MPI_LONG_DOUBLE", 1)

/* Logical and byte. */
DEF_LOGIC(bool, bool, MPI_C_BOOL, "MPI_C_BOOL")
DEF_BITS(byte, unsigned char, MPI_BYTE, "MPI_BYTE")

/* Complex. */
DEF_CPLX(fcomplex, float _Complex, float, MPI_C_FLOAT_COMPLEX, "MPI_C_FLOAT_COMPLEX")
DEF_CPLX(complex, float _Complex, float, MPI_C_COMPLEX, "MPI_C_COMPLEX")
DEF_CPLX(dcomplex, double _Complex, double, MPI_C_DOUBLE_COMPLEX, "MPI_C_DOUBLE_COMPLEX")
DEF_CPLX(ldcomplex, long double _Complex, long double, MPI_C_LONG_DOUBLE_COMPLEX, "MPI_C_LONG_DOUBLE_COMPLEX")

/* Pair types. */
DEF_LOC(float_int, float_int, float, MPI_FLOAT_INT, "MPI_FLOAT_INT")
DEF_LOC(double_int, double_int, double, MPI_DOUBLE_INT, "MPI_DOUBLE_INT")
DEF_LOC(long_int, long_int, long, MPI_LONG_INT, "MPI_LONG_INT")
DEF_LOC(two_int, two_int, int, MPI_2INT, "MPI_2INT")
DEF_LOC(short_int, short_int, short, MPI_SHORT_INT, "MPI_SHORT_INT")
DEF_LOC(ldouble_int, ldouble_int, long double, MPI_LONG_DOUBLE_INT, "MPI_LONG_DOUBLE_INT")

#define CINT_ALL(NAME)                                                      \
    do {                                                                    \
        arith_##NAME(rank, size);                                           \
        logic_##NAME(rank, size);                                           \
        bits_##NAME(rank, size);                                            \
    } while (0)

static void all_reductions(int rank, int size)
{
    CINT_ALL(schar);
    CINT_ALL(uchar);
    CINT_ALL(short);
    CINT_ALL(ushort);
    CINT_ALL(int);
    CINT_ALL(unsigned);
    CINT_ALL(long);
    CINT_ALL(ulong);
    CINT_ALL(llong);
    CINT_ALL(llong_int);
    CINT_ALL(ullong);
    CINT_ALL(int8);
    CINT_ALL(int16);
    CINT_ALL(int32);
    CINT_ALL(int64);
    CINT_ALL(uint8);
    CINT_ALL(uint16);
    CINT_ALL(uint32);
    CINT_ALL(uint64);

    arith_aint(rank, size);
    bits_aint(rank, size);
    arith_offset(rank, size);
    bits_offset(rank, size);
    arith_count(rank, size);
    bits_count(rank, size);

    arith_float(rank, size);
    arith_double(rank, size);
    arith_ldouble(rank, size);

    logic_bool(rank, size);
    bits_byte(rank, size);

    cplx_fcomplex(rank, size);
    cplx_complex(rank, size);
    cplx_dcomplex(rank, size);
    cplx_ldcomplex(rank, size);

    loc_float_int(rank, size);
    loc_double_int(rank, size);
    loc_long_int(rank, size);
    loc_two_int(rank, size);
    loc_short_int(rank, size);
    loc_ldouble_int(rank, size);
}

int main(int argc, char **argv)
{
    int rank, size;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (size > 16)
        CHECKV(16, size, "this test supports at most 16 ranks (exactness bounds)");

    all_p2p(rank, size);
    all_reductions(rank, size);

    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0) {
        printf("OK %s\n", TESTNAME);
        fflush(stdout);
    }
    MPI_Finalize();
    return 0;
}
