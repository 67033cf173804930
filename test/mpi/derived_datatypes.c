/*
 * derived_datatypes -- MPI derived datatypes (MPI-3.1 ch. 4): constructors,
 * type queries, point-to-point, packing, nonblocking and collective use.
 * Every message goes from rank r to rank (r+1)%size (also to itself at
 * world size 1); expected values are computed from the sender's rank.
 *
 *  1. Constructors: contiguous, vector (also with a negative stride and
 *     over a resized type), hvector (also of a vector), indexed (blocks out
 *     of order, and a negative displacement), hindexed, indexed_block,
 *     struct (non-zero lb), 2D subarray, resized (negative lb, extent larger
 *     than the data) and dup.  For each: MPI_Type_size, MPI_Type_get_extent
 *     and MPI_Type_get_true_extent against hand-computed values, then
 *      a) derived -> derived into a sentinel-filled buffer: selected
 *         elements hold the sender's values, every gap keeps the sentinel;
 *         MPI_Get_count (derived) = count, MPI_Get_elements = basic count,
 *      b) derived -> contiguous basic type: the packed order is the type
 *         map order; MPI_Get_count / MPI_Get_elements with the basic type,
 *      c) contiguous basic type -> derived (scatter),
 *      d) a message that is not a whole number of derived elements:
 *         MPI_Get_count gives MPI_UNDEFINED, MPI_Get_elements the number
 *         of basic elements, and only those were written.
 *  2. struct {int i; double d[2]; char c;} built from MPI_Get_address
 *     offsets, resized to sizeof(struct): 3 structs into a sentinel-filled
 *     array (padding bytes must stay untouched) and into a byte-packed
 *     layout described by another struct type with the same signature.
 *  3. 3D subarrays (the faces of a 6x5x4 C-order array of doubles, one per
 *     dimension): halo-like exchange from the high face into the low
 *     (ghost) face of the next rank, and the face received contiguously.
 *  4. MPI_BOTTOM with struct types of absolute addresses (two separate
 *     local variables): send from MPI_BOTTOM, receive into a pair struct;
 *     send a pair, receive at MPI_BOTTOM; both ends MPI_BOTTOM, nonblocking.
 *  5. MPI_Pack / MPI_Unpack / MPI_Pack_size: (int, vector of double) into
 *     one MPI_PACKED buffer, sent as MPI_PACKED, unpacked both with the
 *     vector type and as contiguous doubles; a derived-type message
 *     received as MPI_PACKED and unpacked; packed data received with the
 *     derived type.
 *  6. Nonblocking: every type of part 1, derived sends in both directions,
 *     derived and contiguous receives, all in flight, one MPI_Waitall.
 *  7. Collectives: MPI_Bcast of a vector type from every root (receivers
 *     using the vector type, then contiguous MPI_DOUBLE); MPI_Allreduce
 *     MPI_SUM of 8 MPI_INT whose result is then broadcast from every root
 *     as contiguous(4, MPI_INT) x 2.  (A predefined operation on a derived
 *     datatype is not defined by MPI-3.1 sec. 5.9.2 -- Open MPI rejects it
 *     with MPI_ERR_OP -- and user-defined operations are outside this test,
 *     so the reduction itself uses MPI_INT.)
 *  8. MPI_Type_dup of a type that is then freed; a type built from a type
 *     that is freed before the commit; types freed while a nonblocking send
 *     and receive using them are pending (free after Isend/Irecv, before
 *     the Waitall); 200 create/commit/dup/free cycles.
 *
 * Works for any world size >= 1.  Prints "OK derived_datatypes" on rank 0.
 */
#include <mpi.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TESTNAME "derived_datatypes"

#define SENT (-7)        /* sentinel for receive buffers */
#define SENT_BYTE 0x5A   /* sentinel byte for struct buffers */

static void fail(const char *what, const char *expected, const char *got,
                 int line)
{
    int rank = -1;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    fprintf(stderr, "FAIL %s: rank %d: %s (%s:%d) expected %s got %s\n",
            TESTNAME, rank, what, __FILE__, line, expected, got);
    fflush(stderr);
    MPI_Abort(MPI_COMM_WORLD, 1);
    exit(1);
}

#define CHECK(expected, got, ...)                                         \
    do {                                                                  \
        long long e_ = (long long)(expected), g_ = (long long)(got);      \
        if (e_ != g_) {                                                   \
            char c_[256], es_[32], gs_[32];                               \
            snprintf(c_, sizeof c_, __VA_ARGS__);                         \
            snprintf(es_, sizeof es_, "%lld", e_);                        \
            snprintf(gs_, sizeof gs_, "%lld", g_);                        \
            fail(c_, es_, gs_, __LINE__);                                 \
        }                                                                 \
    } while (0)

#define CHECKD(expected, got, ...)                                        \
    do {                                                                  \
        double e_ = (double)(expected), g_ = (double)(got);               \
        if (e_ != g_) {                                                   \
            char c_[256], es_[40], gs_[40];                               \
            snprintf(c_, sizeof c_, __VA_ARGS__);                         \
            snprintf(es_, sizeof es_, "%.17g", e_);                       \
            snprintf(gs_, sizeof gs_, "%.17g", g_);                       \
            fail(c_, es_, gs_, __LINE__);                                 \
        }                                                                 \
    } while (0)

/* got must be <= bound */
#define CHECK_LE(bound, got, ...)                                         \
    do {                                                                  \
        long long b_ = (long long)(bound), g_ = (long long)(got);         \
        if (g_ > b_) {                                                    \
            char c_[256], es_[40], gs_[32];                               \
            snprintf(c_, sizeof c_, __VA_ARGS__);                         \
            snprintf(es_, sizeof es_, "<= %lld", b_);                     \
            snprintf(gs_, sizeof gs_, "%lld", g_);                        \
            fail(c_, es_, gs_, __LINE__);                                 \
        }                                                                 \
    } while (0)

static void *xmalloc(size_t n)
{
    void *p = malloc(n ? n : 1);
    if (p == NULL)
        CHECK((long long)n, 0, "malloc failed");
    return p;
}

/* The value the sender `src` keeps at base-element position `pos` (relative
 * to the buffer pointer it passes to MPI).  Exact in both int and double. */
static long long val(int src, long pos)
{
    return (long long)src * 10000 + 1000 + pos;
}

/* ------------------------------------------------------------------ */
/* Buffers of ints or doubles                                          */
/* ------------------------------------------------------------------ */

static MPI_Datatype base_type(int dbl) { return dbl ? MPI_DOUBLE : MPI_INT; }
static long bsize(int dbl) { return dbl ? (long)sizeof(double) : (long)sizeof(int); }

static double getv(const void *b, int dbl, long i)
{
    return dbl ? ((const double *)b)[i] : (double)((const int *)b)[i];
}

static void setv(void *b, int dbl, long i, long long v)
{
    if (dbl)
        ((double *)b)[i] = (double)v;
    else
        ((int *)b)[i] = (int)v;
}

static void fill_sent(void *b, int dbl, long n)
{
    for (long i = 0; i < n; i++)
        setv(b, dbl, i, SENT);
}

static void check_props(const char *name, MPI_Datatype t, long long size,
                        long long lb, long long extent, long long tlb,
                        long long textent)
{
    int sz = -1;
    MPI_Aint l = -12345, e = -12345, tl = -12345, te = -12345;
    MPI_Type_size(t, &sz);
    MPI_Type_get_extent(t, &l, &e);
    MPI_Type_get_true_extent(t, &tl, &te);
    CHECK(size, sz, "%s: MPI_Type_size", name);
    CHECK(lb, l, "%s: MPI_Type_get_extent lb", name);
    CHECK(extent, e, "%s: MPI_Type_get_extent extent", name);
    CHECK(tlb, tl, "%s: MPI_Type_get_true_extent true_lb", name);
    CHECK(textent, te, "%s: MPI_Type_get_true_extent true_extent", name);
}

/* ------------------------------------------------------------------ */
/* Test cases over one basic type, with their hand-computed type map   */
/* ------------------------------------------------------------------ */

/* All sizes and displacements in units of the basic type. */
struct tcase {
    char name[64];
    MPI_Datatype type;
    int dbl;            /* basic type: 0 MPI_INT, 1 MPI_DOUBLE */
    int count;          /* derived elements per message */
    long size, lb, ext, tlb, text;
    int nmap;           /* basic elements per derived element */
    int map[16];        /* their positions relative to the element's origin */
};

struct layout {
    int nsel;           /* basic elements in count derived elements */
    long idx[64];       /* their positions in type-map order */
    long span;          /* buffer length in basic elements */
    long origin;        /* the pointer given to MPI is start + origin */
    long ord[256];      /* ord[p] = k where idx[k] + origin == p, else -1 */
};

static void set_case(struct tcase *tc, const char *name, MPI_Datatype t,
                     int dbl, int count, long size, long lb, long ext,
                     long tlb, long text, int nmap, const int *map)
{
    snprintf(tc->name, sizeof tc->name, "%s", name);
    tc->type = t;
    tc->dbl = dbl;
    tc->count = count;
    tc->size = size;
    tc->lb = lb;
    tc->ext = ext;
    tc->tlb = tlb;
    tc->text = text;
    tc->nmap = nmap;
    for (int i = 0; i < nmap; i++)
        tc->map[i] = map[i];
    MPI_Type_commit(&tc->type);
}

static void make_layout(const struct tcase *tc, struct layout *L)
{
    long minp = 0, maxp = 0;
    L->nsel = tc->count * tc->nmap;
    CHECK_LE(64, L->nsel, "%s: test layout too large", tc->name);
    for (int k = 0; k < L->nsel; k++) {
        long p = (long)(k / tc->nmap) * tc->ext + tc->map[k % tc->nmap];
        L->idx[k] = p;
        if (k == 0 || p < minp)
            minp = p;
        if (k == 0 || p > maxp)
            maxp = p;
    }
    /* One sentinel element before and after the selected range. */
    L->span = maxp - minp + 3;
    L->origin = 1 - minp;
    CHECK_LE(256, L->span, "%s: test layout too large", tc->name);
    for (long p = 0; p < L->span; p++)
        L->ord[p] = -1;
    for (int k = 0; k < L->nsel; k++) {
        long p = L->idx[k] + L->origin;
        CHECK(-1, L->ord[p], "%s: test type map overlaps itself", tc->name);
        L->ord[p] = k;
    }
}

static void *at(void *buf, const struct tcase *tc, const struct layout *L)
{
    return (char *)buf + L->origin * bsize(tc->dbl);
}

static void fill_src(void *buf, const struct tcase *tc, const struct layout *L,
                     int src)
{
    for (long p = 0; p < L->span; p++)
        setv(buf, tc->dbl, p, val(src, p - L->origin));
}

/* The first nfilled selected elements hold src's values, all else SENT. */
static void check_scatter(const struct tcase *tc, const struct layout *L,
                          const void *buf, int src, long nfilled,
                          const char *what)
{
    for (long p = 0; p < L->span; p++) {
        long long e = (L->ord[p] >= 0 && L->ord[p] < nfilled)
                          ? val(src, p - L->origin) : SENT;
        CHECKD(e, getv(buf, tc->dbl, p), "%s, %s: element at position %ld",
               tc->name, what, p - L->origin);
    }
}

/* Contiguous: first n elements are src's selected values, then 2 x SENT. */
static void check_packed(const struct tcase *tc, const struct layout *L,
                         const void *buf, int src, const char *what)
{
    for (int k = 0; k < L->nsel + 2; k++) {
        long long e = k < L->nsel ? val(src, L->idx[k]) : SENT;
        CHECKD(e, getv(buf, tc->dbl, k), "%s, %s: contiguous element %d",
               tc->name, what, k);
    }
}

static int build_cases(struct tcase *tc)
{
    int n = 0;
    MPI_Datatype t, u;

    {
        static const int m[] = {0, 1, 2, 3, 4};
        MPI_Type_contiguous(5, MPI_INT, &t);
        set_case(&tc[n++], "contiguous(5, INT)", t, 0, 2, 5, 0, 5, 0, 5, 5, m);
    }
    {
        static const int m[] = {0, 1, 4, 5, 8, 9};
        MPI_Type_vector(3, 2, 4, MPI_INT, &t);
        set_case(&tc[n++], "vector(3, 2, 4, INT)", t, 0, 2, 6, 0, 10, 0, 10, 6, m);
    }
    {
        /* Blocks at 0, -2, -4: lb -4, ub 1. */
        static const int m[] = {0, -2, -4};
        MPI_Type_vector(3, 1, -2, MPI_INT, &t);
        set_case(&tc[n++], "vector(3, 1, -2, INT)", t, 0, 2, 3, -4, 5, -4, 5, 3, m);
    }
    {
        static const int m[] = {0, 1, 4, 5, 8, 9};
        MPI_Type_create_hvector(3, 2, 4 * (MPI_Aint)sizeof(double), MPI_DOUBLE, &t);
        set_case(&tc[n++], "hvector(3, 2, 4 doubles, DOUBLE)", t, 1, 2, 6, 0, 10, 0, 10, 6, m);
    }
    {
        /* Two vector(3,2,4) (extent 10) 12 ints apart: ub 12 + 10. */
        static const int m[] = {0, 1, 4, 5, 8, 9, 12, 13, 16, 17, 20, 21};
        MPI_Type_vector(3, 2, 4, MPI_INT, &u);
        MPI_Type_create_hvector(2, 1, 12 * (MPI_Aint)sizeof(int), u, &t);
        MPI_Type_free(&u);
        set_case(&tc[n++], "hvector(2, 1, 12 ints, vector(3, 2, 4, INT))", t, 0, 2,
                 12, 0, 22, 0, 22, 12, m);
    }
    {
        static const int bl[] = {2, 1, 3}, dp[] = {5, 0, 9};
        static const int m[] = {5, 6, 0, 9, 10, 11};
        MPI_Type_indexed(3, bl, dp, MPI_INT, &t);
        set_case(&tc[n++], "indexed({2,1,3}, {5,0,9}, INT)", t, 0, 2, 6, 0, 12, 0, 12, 6, m);
    }
    {
        static const int bl[] = {1, 2}, dp[] = {-1, 2};
        static const int m[] = {-1, 2, 3};
        MPI_Type_indexed(2, bl, dp, MPI_INT, &t);
        set_case(&tc[n++], "indexed({1,2}, {-1,2}, INT)", t, 0, 2, 3, -1, 5, -1, 5, 3, m);
    }
    {
        static const int bl[] = {1, 2};
        MPI_Aint dp[] = {3 * (MPI_Aint)sizeof(double), 0};
        static const int m[] = {3, 0, 1};
        MPI_Type_create_hindexed(2, bl, dp, MPI_DOUBLE, &t);
        set_case(&tc[n++], "hindexed({1,2}, {3,0} doubles, DOUBLE)", t, 1, 2, 3, 0, 4, 0, 4, 3, m);
    }
    {
        static const int dp[] = {4, 0, 8};
        static const int m[] = {4, 5, 0, 1, 8, 9};
        MPI_Type_create_indexed_block(3, 2, dp, MPI_INT, &t);
        set_case(&tc[n++], "indexed_block(3, 2, {4,0,8}, INT)", t, 0, 2, 6, 0, 10, 0, 10, 6, m);
    }
    {
        /* Data at ints 2, 5, 6: lb 2, ub 7. */
        int bl[] = {1, 2};
        MPI_Aint dp[] = {2 * (MPI_Aint)sizeof(int), 5 * (MPI_Aint)sizeof(int)};
        MPI_Datatype ty[] = {MPI_INT, MPI_INT};
        static const int m[] = {2, 5, 6};
        MPI_Type_create_struct(2, bl, dp, ty, &t);
        set_case(&tc[n++], "struct({1,2}, {2,5} ints, {INT,INT})", t, 0, 2, 3, 2, 5, 2, 5, 3, m);
    }
    {
        /* 4x6 array, rows 1..2, columns 2..4. */
        static const int sz[] = {4, 6}, sub[] = {2, 3}, st[] = {1, 2};
        static const int m[] = {8, 9, 10, 14, 15, 16};
        MPI_Type_create_subarray(2, sz, sub, st, MPI_ORDER_C, MPI_INT, &t);
        set_case(&tc[n++], "subarray({4,6}, {2,3}, {1,2}, INT)", t, 0, 2, 6, 0, 24, 8, 9, 6, m);
    }
    {
        static const int m[] = {0, 1};
        MPI_Type_contiguous(2, MPI_INT, &u);
        MPI_Type_create_resized(u, -2 * (MPI_Aint)sizeof(int), 5 * (MPI_Aint)sizeof(int), &t);
        MPI_Type_free(&u);
        set_case(&tc[n++], "resized(contiguous(2, INT), -2, 5)", t, 0, 3, 2, -2, 5, 0, 2, 2, m);
    }
    {
        /* Elements of extent 2 ints, stride 2 extents: data at 0, 4, 8;
         * ub 8 + 2 = 10, true ub 9. */
        static const int m[] = {0, 4, 8};
        MPI_Type_create_resized(MPI_INT, 0, 2 * (MPI_Aint)sizeof(int), &u);
        MPI_Type_vector(3, 1, 2, u, &t);
        MPI_Type_free(&u);
        set_case(&tc[n++], "vector(3, 1, 2, resized(INT, 0, 2))", t, 0, 2, 3, 0, 10, 0, 9, 3, m);
    }
    {
        static const int m[] = {0, 1, 4, 5, 8, 9};
        MPI_Type_vector(3, 2, 4, MPI_INT, &u);
        MPI_Type_commit(&u);
        MPI_Type_dup(u, &t);
        MPI_Type_free(&u);
        set_case(&tc[n++], "dup(vector(3, 2, 4, INT))", t, 0, 2, 6, 0, 10, 0, 10, 6, m);
    }
    return n;
}

#define MAXCASES 16

/* Parts 1a-d for one case. */
static void run_case(int rank, int size, const struct tcase *tc, int tag)
{
    int next = (rank + 1) % size, prev = (rank - 1 + size) % size;
    long bs = bsize(tc->dbl);
    MPI_Datatype base = base_type(tc->dbl);
    struct layout L;
    MPI_Status st;
    int cnt;
    void *sb, *rb, *cb, *cs;

    check_props(tc->name, tc->type, tc->size * bs, tc->lb * bs, tc->ext * bs,
                tc->tlb * bs, tc->text * bs);
    make_layout(tc, &L);
    sb = xmalloc((size_t)(L.span * bs));
    rb = xmalloc((size_t)(L.span * bs));
    cb = xmalloc((size_t)((L.nsel + 2) * bs));
    cs = xmalloc((size_t)(L.nsel * bs));
    fill_src(sb, tc, &L, rank);
    for (int k = 0; k < L.nsel; k++)
        setv(cs, tc->dbl, k, val(rank, L.idx[k]));

    /* a) derived -> derived */
    fill_sent(rb, tc->dbl, L.span);
    MPI_Sendrecv(at(sb, tc, &L), tc->count, tc->type, next, tag,
                 at(rb, tc, &L), tc->count, tc->type, prev, tag,
                 MPI_COMM_WORLD, &st);
    CHECK(prev, st.MPI_SOURCE, "%s: derived->derived source", tc->name);
    check_scatter(tc, &L, rb, prev, L.nsel, "derived->derived");
    MPI_Get_count(&st, tc->type, &cnt);
    CHECK(tc->count, cnt, "%s: derived->derived MPI_Get_count(derived)", tc->name);
    MPI_Get_elements(&st, tc->type, &cnt);
    CHECK(L.nsel, cnt, "%s: derived->derived MPI_Get_elements(derived)", tc->name);

    /* b) derived -> contiguous basic type */
    fill_sent(cb, tc->dbl, L.nsel + 2);
    MPI_Sendrecv(at(sb, tc, &L), tc->count, tc->type, next, tag + 1,
                 cb, L.nsel + 2, base, prev, tag + 1, MPI_COMM_WORLD, &st);
    check_packed(tc, &L, cb, prev, "derived->contiguous");
    MPI_Get_count(&st, base, &cnt);
    CHECK(L.nsel, cnt, "%s: derived->contiguous MPI_Get_count(basic)", tc->name);
    MPI_Get_elements(&st, base, &cnt);
    CHECK(L.nsel, cnt, "%s: derived->contiguous MPI_Get_elements(basic)", tc->name);

    /* c) contiguous basic type -> derived */
    fill_sent(rb, tc->dbl, L.span);
    MPI_Sendrecv(cs, L.nsel, base, next, tag + 2,
                 at(rb, tc, &L), tc->count, tc->type, prev, tag + 2,
                 MPI_COMM_WORLD, &st);
    check_scatter(tc, &L, rb, prev, L.nsel, "contiguous->derived");
    MPI_Get_count(&st, tc->type, &cnt);
    CHECK(tc->count, cnt, "%s: contiguous->derived MPI_Get_count(derived)", tc->name);

    /* d) not a whole number of derived elements */
    if (tc->nmap > 1) {
        int npart = (tc->count - 1) * tc->nmap + 1;
        fill_sent(rb, tc->dbl, L.span);
        MPI_Sendrecv(cs, npart, base, next, tag + 3,
                     at(rb, tc, &L), tc->count, tc->type, prev, tag + 3,
                     MPI_COMM_WORLD, &st);
        check_scatter(tc, &L, rb, prev, npart, "partial element");
        MPI_Get_count(&st, tc->type, &cnt);
        CHECK(MPI_UNDEFINED, cnt, "%s: partial element MPI_Get_count(derived)", tc->name);
        MPI_Get_elements(&st, tc->type, &cnt);
        CHECK(npart, cnt, "%s: partial element MPI_Get_elements(derived)", tc->name);
    }

    free(sb);
    free(rb);
    free(cb);
    free(cs);
}

static void part_constructors(int rank, int size)
{
    struct tcase tc[MAXCASES];
    int n = build_cases(tc);
    for (int i = 0; i < n; i++) {
        run_case(rank, size, &tc[i], 100 + 10 * i);
        MPI_Type_free(&tc[i].type);
    }
}

/* ------------------------------------------------------------------ */
/* 2. struct {int; double[2]; char}                                    */
/* ------------------------------------------------------------------ */

struct rec {
    int i;
    double d[2];
    char c;
};

#define NREC 3

static void rec_fill(struct rec *r, int src, int k)
{
    r->i = src * 100 + k + 1;
    r->d[0] = src * 10 + k + 0.5;
    r->d[1] = -(k + 1.25) - src;
    r->c = (char)('A' + (src + k) % 26);
}

static void rec_check(const struct rec *r, int src, int k, const char *what)
{
    struct rec e;
    rec_fill(&e, src, k);
    CHECK(e.i, r->i, "struct %s: record %d field i", what, k);
    CHECKD(e.d[0], r->d[0], "struct %s: record %d field d[0]", what, k);
    CHECKD(e.d[1], r->d[1], "struct %s: record %d field d[1]", what, k);
    CHECK(e.c, r->c, "struct %s: record %d field c", what, k);
}

static void part_struct(int rank, int size)
{
    int next = (rank + 1) % size, prev = (rank - 1 + size) % size;
    struct rec proto, sr[NREC], rr[NREC + 1];
    MPI_Aint base, disp[3];
    int bl[3] = {1, 2, 1};
    MPI_Datatype ty[3] = {MPI_INT, MPI_DOUBLE, MPI_CHAR};
    MPI_Datatype t0, rt, pt;
    const long dsize = (long)(sizeof(int) + 2 * sizeof(double) + 1);
    const long tend = (long)offsetof(struct rec, c) + 1;
    unsigned char cov[sizeof(struct rec)];
    MPI_Status st;
    int cnt;

    memset(&proto, 0, sizeof proto);
    MPI_Get_address(&proto, &base);
    MPI_Get_address(&proto.i, &disp[0]);
    MPI_Get_address(&proto.d[0], &disp[1]);
    MPI_Get_address(&proto.c, &disp[2]);
    for (int j = 0; j < 3; j++)
        disp[j] -= base;
    CHECK(offsetof(struct rec, i), disp[0], "struct: MPI_Get_address offset of i");
    CHECK(offsetof(struct rec, d), disp[1], "struct: MPI_Get_address offset of d");
    CHECK(offsetof(struct rec, c), disp[2], "struct: MPI_Get_address offset of c");

    MPI_Type_create_struct(3, bl, disp, ty, &t0);
    {
        int sz;
        MPI_Aint lb, ext, tlb, text;
        MPI_Type_size(t0, &sz);
        MPI_Type_get_extent(t0, &lb, &ext);
        MPI_Type_get_true_extent(t0, &tlb, &text);
        CHECK(dsize, sz, "struct (before resize): MPI_Type_size");
        CHECK(0, lb, "struct (before resize): lb");
        /* The extent is rounded up for alignment by an amount that is up to
         * the implementation; it covers at least the data. */
        CHECK_LE(ext, tend, "struct (before resize): extent at least true extent");
        CHECK(0, tlb, "struct (before resize): true_lb");
        CHECK(tend, text, "struct (before resize): true_extent");
    }
    MPI_Type_create_resized(t0, 0, (MPI_Aint)sizeof(struct rec), &rt);
    MPI_Type_free(&t0);
    MPI_Type_commit(&rt);
    check_props("struct resized to sizeof(struct rec)", rt, dsize, 0,
                (long long)sizeof(struct rec), 0, tend);

    /* Same signature, byte-packed layout: i at 0, d at 4, c at 20. */
    {
        MPI_Aint pd[3] = {0, (MPI_Aint)sizeof(int),
                          (MPI_Aint)(sizeof(int) + 2 * sizeof(double))};
        MPI_Type_create_struct(3, bl, pd, ty, &t0);
        MPI_Type_create_resized(t0, 0, dsize, &pt);
        MPI_Type_free(&t0);
        MPI_Type_commit(&pt);
        check_props("packed-layout struct", pt, dsize, 0, dsize, 0, dsize);
    }

    memset(cov, 0, sizeof cov);
    memset(cov + offsetof(struct rec, i), 1, sizeof(int));
    memset(cov + offsetof(struct rec, d), 1, 2 * sizeof(double));
    memset(cov + offsetof(struct rec, c), 1, 1);

    memset(sr, 0, sizeof sr);
    for (int k = 0; k < NREC; k++)
        rec_fill(&sr[k], rank, k);

    /* Into an array of structs: fields set, padding and record 4 untouched. */
    memset(rr, SENT_BYTE, sizeof rr);
    MPI_Sendrecv(sr, NREC, rt, next, 200, rr, NREC, rt, prev, 200,
                 MPI_COMM_WORLD, &st);
    for (int k = 0; k < NREC; k++)
        rec_check(&rr[k], prev, k, "array");
    for (int k = 0; k < NREC + 1; k++) {
        const unsigned char *b = (const unsigned char *)&rr[k];
        for (size_t j = 0; j < sizeof(struct rec); j++)
            if (k == NREC || !cov[j])
                CHECK(SENT_BYTE, b[j], "struct array: record %d byte %zu "
                      "(padding or past the message) modified", k, j);
    }
    MPI_Get_count(&st, rt, &cnt);
    CHECK(NREC, cnt, "struct array: MPI_Get_count(struct)");
    MPI_Get_elements(&st, rt, &cnt);
    CHECK(4 * NREC, cnt, "struct array: MPI_Get_elements(struct)");

    /* Into the byte-packed layout. */
    {
        unsigned char pb[NREC * (sizeof(int) + 2 * sizeof(double) + 1) + 8];
        long tot = NREC * dsize;
        CHECK_LE((long)sizeof pb - 8, tot, "struct: packed buffer size");
        memset(pb, SENT_BYTE, sizeof pb);
        MPI_Sendrecv(sr, NREC, rt, next, 201, pb, NREC, pt, prev, 201,
                     MPI_COMM_WORLD, &st);
        for (int k = 0; k < NREC; k++) {
            struct rec r;
            memset(&r, 0, sizeof r);
            memcpy(&r.i, pb + k * dsize, sizeof(int));
            memcpy(r.d, pb + k * dsize + sizeof(int), 2 * sizeof(double));
            memcpy(&r.c, pb + k * dsize + sizeof(int) + 2 * sizeof(double), 1);
            rec_check(&r, prev, k, "packed layout");
        }
        for (long j = tot; j < (long)sizeof pb; j++)
            CHECK(SENT_BYTE, pb[j], "struct packed layout: byte %ld past the message", j);
        MPI_Get_count(&st, pt, &cnt);
        CHECK(NREC, cnt, "struct packed layout: MPI_Get_count");
    }

    MPI_Type_free(&rt);
    MPI_Type_free(&pt);
}

/* ------------------------------------------------------------------ */
/* 3. 3D subarray faces                                                */
/* ------------------------------------------------------------------ */

#define NX 6
#define NY 5
#define NZ 4

static long lin3(const int c[3])
{
    return ((long)c[0] * NY + c[1]) * NZ + c[2];
}

static void part_subarray(int rank, int size)
{
    int next = (rank + 1) % size, prev = (rank - 1 + size) % size;
    const int N[3] = {NX, NY, NZ};
    const long total = (long)NX * NY * NZ;
    const long long ds = (long long)sizeof(double);
    double sa[NX * NY * NZ], ra[NX * NY * NZ], cb[NX * NY * NZ + 1];

    for (long p = 0; p < total; p++)
        sa[p] = (double)val(rank, p);

    for (int d = 0; d < 3; d++) {
        int sub[3] = {NX, NY, NZ}, hi[3] = {0, 0, 0}, lo[3] = {0, 0, 0};
        int last[3], c[3];
        MPI_Datatype th, tl;
        MPI_Status st;
        int cnt, nface, k;
        char name[64];

        sub[d] = 1;
        hi[d] = N[d] - 1;
        nface = sub[0] * sub[1] * sub[2];
        MPI_Type_create_subarray(3, N, sub, hi, MPI_ORDER_C, MPI_DOUBLE, &th);
        MPI_Type_create_subarray(3, N, sub, lo, MPI_ORDER_C, MPI_DOUBLE, &tl);
        MPI_Type_commit(&th);
        MPI_Type_commit(&tl);

        for (int j = 0; j < 3; j++)
            last[j] = hi[j] + sub[j] - 1;
        snprintf(name, sizeof name, "subarray 6x5x4 high face of dim %d", d);
        check_props(name, th, nface * ds, 0, total * ds,
                    lin3(hi) * ds, (lin3(last) - lin3(hi) + 1) * ds);
        for (int j = 0; j < 3; j++)
            last[j] = lo[j] + sub[j] - 1;
        snprintf(name, sizeof name, "subarray 6x5x4 low face of dim %d", d);
        check_props(name, tl, nface * ds, 0, total * ds,
                    0, (lin3(last) + 1) * ds);

        /* High face of prev -> low (ghost) face here. */
        for (long p = 0; p < total; p++)
            ra[p] = SENT;
        MPI_Sendrecv(sa, 1, th, next, 300 + d, ra, 1, tl, prev, 300 + d,
                     MPI_COMM_WORLD, &st);
        for (c[0] = 0; c[0] < NX; c[0]++)
            for (c[1] = 0; c[1] < NY; c[1]++)
                for (c[2] = 0; c[2] < NZ; c[2]++) {
                    int s[3] = {c[0], c[1], c[2]};
                    double e = SENT;
                    if (c[d] == 0) {
                        s[d] = N[d] - 1;
                        e = (double)val(prev, lin3(s));
                    }
                    CHECKD(e, ra[lin3(c)], "subarray dim %d: face->face element (%d,%d,%d)",
                           d, c[0], c[1], c[2]);
                }
        MPI_Get_count(&st, tl, &cnt);
        CHECK(1, cnt, "subarray dim %d: MPI_Get_count(subarray)", d);
        MPI_Get_elements(&st, tl, &cnt);
        CHECK(nface, cnt, "subarray dim %d: MPI_Get_elements(subarray)", d);

        /* High face -> contiguous, in C order. */
        for (int j = 0; j < nface + 1; j++)
            cb[j] = SENT;
        MPI_Sendrecv(sa, 1, th, next, 310 + d, cb, nface + 1, MPI_DOUBLE, prev,
                     310 + d, MPI_COMM_WORLD, &st);
        k = 0;
        for (c[0] = hi[0]; c[0] < hi[0] + sub[0]; c[0]++)
            for (c[1] = hi[1]; c[1] < hi[1] + sub[1]; c[1]++)
                for (c[2] = hi[2]; c[2] < hi[2] + sub[2]; c[2]++, k++)
                    CHECKD((double)val(prev, lin3(c)), cb[k],
                           "subarray dim %d: face->contiguous element %d", d, k);
        CHECKD(SENT, cb[nface], "subarray dim %d: element past the face", d);
        MPI_Get_count(&st, MPI_DOUBLE, &cnt);
        CHECK(nface, cnt, "subarray dim %d: MPI_Get_count(MPI_DOUBLE)", d);

        MPI_Type_free(&th);
        MPI_Type_free(&tl);
    }
}

/* ------------------------------------------------------------------ */
/* 4. MPI_BOTTOM                                                       */
/* ------------------------------------------------------------------ */

struct pair {
    int i;
    double d;
};

static MPI_Datatype abs_type(int *ip, double *dp)
{
    MPI_Aint ad[2];
    int bl[2] = {1, 1};
    MPI_Datatype ty[2] = {MPI_INT, MPI_DOUBLE}, t;
    int sz;
    MPI_Get_address(ip, &ad[0]);
    MPI_Get_address(dp, &ad[1]);
    MPI_Type_create_struct(2, bl, ad, ty, &t);
    MPI_Type_commit(&t);
    MPI_Type_size(t, &sz);
    CHECK(sizeof(int) + sizeof(double), sz, "MPI_BOTTOM: size of absolute struct type");
    return t;
}

static void part_bottom(int rank, int size)
{
    int next = (rank + 1) % size, prev = (rank - 1 + size) % size;
    int a = rank * 3 + 1, ra;
    double b = rank + 0.25, rb;
    struct pair pr, sp;
    MPI_Datatype as, ar, pt, t0;
    MPI_Status st;
    int cnt;

    as = abs_type(&a, &b);
    ar = abs_type(&ra, &rb);
    {
        MPI_Aint base, ad[2];
        int bl[2] = {1, 1};
        MPI_Datatype ty[2] = {MPI_INT, MPI_DOUBLE};
        MPI_Get_address(&pr, &base);
        MPI_Get_address(&pr.i, &ad[0]);
        MPI_Get_address(&pr.d, &ad[1]);
        ad[0] -= base;
        ad[1] -= base;
        MPI_Type_create_struct(2, bl, ad, ty, &t0);
        MPI_Type_create_resized(t0, 0, (MPI_Aint)sizeof(struct pair), &pt);
        MPI_Type_free(&t0);
        MPI_Type_commit(&pt);
    }

    /* MPI_BOTTOM -> pair */
    pr.i = SENT;
    pr.d = SENT;
    MPI_Sendrecv(MPI_BOTTOM, 1, as, next, 400, &pr, 1, pt, prev, 400,
                 MPI_COMM_WORLD, &st);
    CHECK(prev * 3 + 1, pr.i, "MPI_BOTTOM send -> pair: int");
    CHECKD(prev + 0.25, pr.d, "MPI_BOTTOM send -> pair: double");
    MPI_Get_count(&st, pt, &cnt);
    CHECK(1, cnt, "MPI_BOTTOM send -> pair: MPI_Get_count");
    MPI_Get_elements(&st, pt, &cnt);
    CHECK(2, cnt, "MPI_BOTTOM send -> pair: MPI_Get_elements");

    /* pair -> MPI_BOTTOM */
    sp.i = rank * 5 + 2;
    sp.d = rank - 0.5;
    ra = SENT;
    rb = SENT;
    MPI_Sendrecv(&sp, 1, pt, next, 401, MPI_BOTTOM, 1, ar, prev, 401,
                 MPI_COMM_WORLD, &st);
    CHECK(prev * 5 + 2, ra, "pair -> MPI_BOTTOM receive: int");
    CHECKD(prev - 0.5, rb, "pair -> MPI_BOTTOM receive: double");
    MPI_Get_count(&st, ar, &cnt);
    CHECK(1, cnt, "pair -> MPI_BOTTOM receive: MPI_Get_count");

    /* MPI_BOTTOM at both ends, nonblocking */
    {
        MPI_Request rq[2];
        ra = SENT;
        rb = SENT;
        MPI_Irecv(MPI_BOTTOM, 1, ar, prev, 402, MPI_COMM_WORLD, &rq[0]);
        MPI_Isend(MPI_BOTTOM, 1, as, next, 402, MPI_COMM_WORLD, &rq[1]);
        MPI_Waitall(2, rq, MPI_STATUSES_IGNORE);
        CHECK(prev * 3 + 1, ra, "MPI_BOTTOM -> MPI_BOTTOM: int");
        CHECKD(prev + 0.25, rb, "MPI_BOTTOM -> MPI_BOTTOM: double");
    }

    MPI_Type_free(&as);
    MPI_Type_free(&ar);
    MPI_Type_free(&pt);
}

/* ------------------------------------------------------------------ */
/* 5. MPI_Pack / MPI_Unpack                                            */
/* ------------------------------------------------------------------ */

#define PV_N 4          /* vector(4, 1, 2, DOUBLE): doubles 0, 2, 4, 6 */
#define PV_SPAN 9       /* receive buffers: extent 7 + 2 spare */

static void check_pv(const double *r, int src, const char *what)
{
    for (int j = 0; j < PV_SPAN; j++) {
        double e = (j % 2 == 0 && j / 2 < PV_N) ? (double)val(src, j) : SENT;
        CHECKD(e, r[j], "pack: %s element %d", what, j);
    }
}

static void part_pack(int rank, int size)
{
    int next = (rank + 1) % size, prev = (rank - 1 + size) % size;
    MPI_Datatype vt;
    double sd[PV_SPAN], rd[PV_SPAN];
    int s1 = -1, s2 = -1, bufsize, pos = 0, p1, q, cnt, hdr = rank * 7 + 3, h;
    char *sb, *rb;
    MPI_Status st;

    MPI_Type_vector(PV_N, 1, 2, MPI_DOUBLE, &vt);
    MPI_Type_commit(&vt);
    for (int j = 0; j < PV_SPAN; j++)
        sd[j] = (double)val(rank, j);

    MPI_Pack_size(1, MPI_INT, MPI_COMM_WORLD, &s1);
    MPI_Pack_size(1, vt, MPI_COMM_WORLD, &s2);
    CHECK_LE(s1, (long)sizeof(int), "MPI_Pack_size(1, MPI_INT) at least sizeof(int)");
    CHECK_LE(s2, (long)(PV_N * sizeof(double)), "MPI_Pack_size(1, vector) at least its data");
    bufsize = s1 + s2;
    sb = xmalloc((size_t)bufsize);
    rb = xmalloc((size_t)bufsize);

    MPI_Pack(&hdr, 1, MPI_INT, sb, bufsize, &pos, MPI_COMM_WORLD);
    p1 = pos;
    CHECK_LE(s1, p1, "MPI_Pack of one int: position within MPI_Pack_size");
    MPI_Pack(sd, 1, vt, sb, bufsize, &pos, MPI_COMM_WORLD);
    CHECK_LE(bufsize, pos, "MPI_Pack of int + vector: position within MPI_Pack_size");
    CHECK_LE(pos - 1, p1, "MPI_Pack of the vector advanced the position");

    /* The same shape is packed on every rank, so the sender's packed size is
     * our own. */
    MPI_Sendrecv(sb, pos, MPI_PACKED, next, 500, rb, bufsize, MPI_PACKED, prev,
                 500, MPI_COMM_WORLD, &st);
    MPI_Get_count(&st, MPI_PACKED, &cnt);
    CHECK(pos, cnt, "MPI_PACKED message: MPI_Get_count(MPI_PACKED)");

    q = 0;
    h = SENT;
    for (int j = 0; j < PV_SPAN; j++)
        rd[j] = SENT;
    MPI_Unpack(rb, cnt, &q, &h, 1, MPI_INT, MPI_COMM_WORLD);
    CHECK(p1, q, "MPI_Unpack of the int: position");
    MPI_Unpack(rb, cnt, &q, rd, 1, vt, MPI_COMM_WORLD);
    CHECK(cnt, q, "MPI_Unpack of int + vector: position");
    CHECK(prev * 7 + 3, h, "MPI_Unpack: int");
    check_pv(rd, prev, "unpacked with the vector type");

    /* Unpack the vector part as contiguous doubles. */
    q = 0;
    h = SENT;
    for (int j = 0; j < PV_SPAN; j++)
        rd[j] = SENT;
    MPI_Unpack(rb, cnt, &q, &h, 1, MPI_INT, MPI_COMM_WORLD);
    MPI_Unpack(rb, cnt, &q, rd, PV_N, MPI_DOUBLE, MPI_COMM_WORLD);
    CHECK(cnt, q, "MPI_Unpack of int + 4 doubles: position");
    CHECK(prev * 7 + 3, h, "MPI_Unpack (contiguous): int");
    for (int j = 0; j < PV_SPAN; j++)
        CHECKD(j < PV_N ? (double)val(prev, 2 * j) : SENT, rd[j],
               "pack: unpacked as contiguous doubles, element %d", j);

    /* Derived-type message received as MPI_PACKED, then unpacked. */
    MPI_Sendrecv(sd, 1, vt, next, 501, rb, s2, MPI_PACKED, prev, 501,
                 MPI_COMM_WORLD, &st);
    MPI_Get_count(&st, MPI_PACKED, &cnt);
    CHECK_LE(s2, cnt, "vector received as MPI_PACKED: byte count within MPI_Pack_size");
    q = 0;
    for (int j = 0; j < PV_SPAN; j++)
        rd[j] = SENT;
    MPI_Unpack(rb, cnt, &q, rd, 1, vt, MPI_COMM_WORLD);
    CHECK(cnt, q, "vector received as MPI_PACKED: MPI_Unpack position");
    check_pv(rd, prev, "received as MPI_PACKED, unpacked");

    /* Packed data received with the derived type. */
    pos = 0;
    MPI_Pack(sd, 1, vt, sb, bufsize, &pos, MPI_COMM_WORLD);
    for (int j = 0; j < PV_SPAN; j++)
        rd[j] = SENT;
    MPI_Sendrecv(sb, pos, MPI_PACKED, next, 502, rd, 1, vt, prev, 502,
                 MPI_COMM_WORLD, &st);
    check_pv(rd, prev, "sent as MPI_PACKED, received with the vector type");
    MPI_Get_count(&st, vt, &cnt);
    CHECK(1, cnt, "sent as MPI_PACKED, received with the vector type: MPI_Get_count");

    free(sb);
    free(rb);
    MPI_Type_free(&vt);
}

/* ------------------------------------------------------------------ */
/* 6. Nonblocking                                                      */
/* ------------------------------------------------------------------ */

static void part_nonblocking(int rank, int size)
{
    int next = (rank + 1) % size, prev = (rank - 1 + size) % size;
    struct tcase tc[MAXCASES];
    struct layout L[MAXCASES];
    void *sb[MAXCASES], *rb[MAXCASES], *cb[MAXCASES];
    MPI_Request rq[4 * MAXCASES];
    MPI_Status st[4 * MAXCASES];
    int n = build_cases(tc), cnt;

    for (int i = 0; i < n; i++) {
        long bs = bsize(tc[i].dbl);
        make_layout(&tc[i], &L[i]);
        sb[i] = xmalloc((size_t)(L[i].span * bs));
        rb[i] = xmalloc((size_t)(L[i].span * bs));
        cb[i] = xmalloc((size_t)((L[i].nsel + 2) * bs));
        fill_src(sb[i], &tc[i], &L[i], rank);
        fill_sent(rb[i], tc[i].dbl, L[i].span);
        fill_sent(cb[i], tc[i].dbl, L[i].nsel + 2);
    }
    /* Sends to next first (possibly unexpected at the receiver), then the
     * receives, then the sends to prev. */
    for (int i = 0; i < n; i++)
        MPI_Isend(at(sb[i], &tc[i], &L[i]), tc[i].count, tc[i].type, next,
                  600 + i, MPI_COMM_WORLD, &rq[4 * i]);
    for (int i = 0; i < n; i++) {
        MPI_Irecv(at(rb[i], &tc[i], &L[i]), tc[i].count, tc[i].type, prev,
                  600 + i, MPI_COMM_WORLD, &rq[4 * i + 1]);
        MPI_Irecv(cb[i], L[i].nsel + 2, base_type(tc[i].dbl), next, 700 + i,
                  MPI_COMM_WORLD, &rq[4 * i + 2]);
    }
    for (int i = n - 1; i >= 0; i--)
        MPI_Isend(at(sb[i], &tc[i], &L[i]), tc[i].count, tc[i].type, prev,
                  700 + i, MPI_COMM_WORLD, &rq[4 * i + 3]);
    MPI_Waitall(4 * n, rq, st);

    for (int i = 0; i < n; i++) {
        check_scatter(&tc[i], &L[i], rb[i], prev, L[i].nsel, "nonblocking derived receive");
        CHECK(prev, st[4 * i + 1].MPI_SOURCE, "%s: nonblocking derived receive source", tc[i].name);
        MPI_Get_count(&st[4 * i + 1], tc[i].type, &cnt);
        CHECK(tc[i].count, cnt, "%s: nonblocking derived receive MPI_Get_count", tc[i].name);
        check_packed(&tc[i], &L[i], cb[i], next, "nonblocking contiguous receive");
        CHECK(next, st[4 * i + 2].MPI_SOURCE, "%s: nonblocking contiguous receive source", tc[i].name);
        MPI_Get_count(&st[4 * i + 2], base_type(tc[i].dbl), &cnt);
        CHECK(L[i].nsel, cnt, "%s: nonblocking contiguous receive MPI_Get_count", tc[i].name);
        free(sb[i]);
        free(rb[i]);
        free(cb[i]);
        MPI_Type_free(&tc[i].type);
    }
}

/* ------------------------------------------------------------------ */
/* 7. Collectives                                                      */
/* ------------------------------------------------------------------ */

static void part_collectives(int rank, int size)
{
    struct tcase tc;
    struct layout L;
    MPI_Datatype t;
    double buf[64], cb[64];

    {
        /* vector(4, 1, 3, DOUBLE): doubles 0, 3, 6, 9, extent 10. */
        static const int m[] = {0, 3, 6, 9};
        MPI_Type_vector(4, 1, 3, MPI_DOUBLE, &t);
        set_case(&tc, "bcast vector(4, 1, 3, DOUBLE)", t, 1, 2, 4, 0, 10, 0, 10, 4, m);
        check_props(tc.name, tc.type, 32, 0, 80, 0, 80);
        make_layout(&tc, &L);
        CHECK_LE(64, L.span, "bcast buffer size");
    }
    for (int root = 0; root < size; root++) {
        /* Everyone uses the vector type. */
        if (rank == root)
            fill_src(buf, &tc, &L, root);
        else
            fill_sent(buf, 1, L.span);
        MPI_Bcast(at(buf, &tc, &L), tc.count, tc.type, root, MPI_COMM_WORLD);
        if (rank == root) {
            for (long p = 0; p < L.span; p++)
                CHECKD((double)val(root, p - L.origin), buf[p],
                       "bcast root %d: root's buffer changed at %ld", root, p);
        } else {
            check_scatter(&tc, &L, buf, root, L.nsel, "bcast (vector everywhere)");
        }

        /* Root uses the vector type, the others contiguous doubles. */
        if (rank == root) {
            fill_src(buf, &tc, &L, root);
            MPI_Bcast(at(buf, &tc, &L), tc.count, tc.type, root, MPI_COMM_WORLD);
        } else {
            fill_sent(cb, 1, L.nsel + 2);
            MPI_Bcast(cb, L.nsel, MPI_DOUBLE, root, MPI_COMM_WORLD);
            check_packed(&tc, &L, cb, root, "bcast (contiguous receivers)");
        }
    }
    MPI_Type_free(&tc.type);

    /* Allreduce MPI_SUM on MPI_INT x 8; the result broadcast as
     * contiguous(4, MPI_INT) x 2 from every root. */
    {
        int in[8], o[9], b[9];
        MPI_Datatype c4;
        MPI_Type_contiguous(4, MPI_INT, &c4);
        MPI_Type_commit(&c4);
        check_props("contiguous(4, INT)", c4, 4 * (long)sizeof(int), 0,
                    4 * (long)sizeof(int), 0, 4 * (long)sizeof(int));
        for (int i = 0; i < 8; i++)
            in[i] = rank * 10 + i + 1;
        for (int i = 0; i < 9; i++)
            o[i] = SENT;
        MPI_Allreduce(in, o, 8, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
        for (int i = 0; i < 8; i++) {
            long long e = 10LL * size * (size - 1) / 2 + (long long)size * (i + 1);
            CHECK(e, o[i], "Allreduce SUM MPI_INT x 8: element %d", i);
        }
        CHECK(SENT, o[8], "Allreduce MPI_INT x 8: element past the end");
        for (int root = 0; root < size; root++) {
            for (int i = 0; i < 9; i++)
                b[i] = rank == root ? (i < 8 ? o[i] + root : SENT) : SENT;
            MPI_Bcast(b, 2, c4, root, MPI_COMM_WORLD);
            for (int i = 0; i < 9; i++)
                CHECK(i < 8 ? o[i] + root : SENT, b[i],
                      "Bcast contiguous(4, INT) x 2 from root %d: element %d", root, i);
        }
        MPI_Type_free(&c4);
    }
}

/* ------------------------------------------------------------------ */
/* 8. MPI_Type_dup and MPI_Type_free                                   */
/* ------------------------------------------------------------------ */

static void part_dup_free(int rank, int size)
{
    int next = (rank + 1) % size, prev = (rank - 1 + size) % size;
    struct tcase tc;
    MPI_Datatype v, d, inner, outer;

    /* A dup outlives its original. */
    {
        static const int m[] = {0, 1, 4, 5, 8, 9};
        MPI_Type_vector(3, 2, 4, MPI_INT, &v);
        MPI_Type_commit(&v);
        MPI_Type_dup(v, &d);
        MPI_Type_free(&v);
        CHECK(1, v == MPI_DATATYPE_NULL, "MPI_Type_free sets the handle to MPI_DATATYPE_NULL");
        set_case(&tc, "dup(vector(3, 2, 4, INT)), original freed", d, 0, 2, 6, 0, 10, 0, 10, 6, m);
        run_case(rank, size, &tc, 800);
        MPI_Type_free(&tc.type);
    }

    /* A type whose building block is freed before it is committed. */
    {
        /* vector(2, 1, 3): ints 0 and 3, extent 4; two of them. */
        static const int m[] = {0, 3, 4, 7};
        MPI_Type_vector(2, 1, 3, MPI_INT, &inner);
        MPI_Type_contiguous(2, inner, &outer);
        MPI_Type_free(&inner);
        set_case(&tc, "contiguous(2, vector(2, 1, 3, INT)), inner freed", outer, 0, 2,
                 4, 0, 8, 0, 8, 4, m);
        run_case(rank, size, &tc, 810);
        MPI_Type_free(&tc.type);
    }

    /* Types freed while operations using them are pending. */
    {
        static const int ms[] = {0, 1, 4, 5, 8, 9};
        static const int bl[] = {2, 1, 3}, dp[] = {5, 0, 9};
        static const int mr[] = {5, 6, 0, 9, 10, 11};
        struct tcase ts, tr;
        struct layout Ls, Lr;
        int sbuf[64], rbuf[64];
        MPI_Request rq[2];
        MPI_Status st[2];

        MPI_Type_vector(3, 2, 4, MPI_INT, &v);
        set_case(&ts, "vector(3, 2, 4, INT) freed while pending", v, 0, 2, 6, 0, 10, 0, 10, 6, ms);
        MPI_Type_indexed(3, bl, dp, MPI_INT, &d);
        set_case(&tr, "indexed({2,1,3}, {5,0,9}, INT) freed while pending", d, 0, 2, 6, 0, 12, 0, 12, 6, mr);
        make_layout(&ts, &Ls);
        make_layout(&tr, &Lr);
        CHECK_LE(64, Ls.span, "free-pending buffer size");
        CHECK_LE(64, Lr.span, "free-pending buffer size");
        fill_src(sbuf, &ts, &Ls, rank);
        fill_sent(rbuf, 0, Lr.span);

        MPI_Irecv(at(rbuf, &tr, &Lr), tr.count, tr.type, prev, 820, MPI_COMM_WORLD, &rq[0]);
        MPI_Isend(at(sbuf, &ts, &Ls), ts.count, ts.type, next, 820, MPI_COMM_WORLD, &rq[1]);
        MPI_Type_free(&ts.type);
        MPI_Type_free(&tr.type);
        CHECK(1, ts.type == MPI_DATATYPE_NULL, "freed pending send type is MPI_DATATYPE_NULL");
        MPI_Waitall(2, rq, st);
        /* The sender's vector and our indexed type have the same signature:
         * the i-th int of the message is prev's vector element i. */
        for (long p = 0; p < Lr.span; p++) {
            long k = Lr.ord[p];
            long long e = k >= 0 ? val(prev, Ls.idx[k]) : SENT;
            CHECK(e, rbuf[p], "type freed while pending: element at position %ld",
                  p - Lr.origin);
        }
    }

    /* Many create/commit/dup/free cycles. */
    for (int i = 0; i < 200; i++) {
        MPI_Datatype a, b;
        int sz;
        MPI_Type_vector(2 + i % 5, 1 + i % 3, 7, MPI_DOUBLE, &a);
        MPI_Type_commit(&a);
        MPI_Type_dup(a, &b);
        MPI_Type_size(b, &sz);
        CHECK((2 + i % 5) * (1 + i % 3) * (long)sizeof(double), sz,
              "create/dup/free cycle %d: size of the dup", i);
        MPI_Type_free(&a);
        MPI_Type_free(&b);
    }
}

int main(int argc, char **argv)
{
    int rank, size;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);

    part_constructors(rank, size);
    part_struct(rank, size);
    part_subarray(rank, size);
    part_bottom(rank, size);
    part_pack(rank, size);
    part_nonblocking(rank, size);
    part_collectives(rank, size);
    part_dup_free(rank, size);

    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0) {
        printf("OK %s\n", TESTNAME);
        fflush(stdout);
    }
    MPI_Finalize();
    return 0;
}
