/*
 * is -- benchmark program: the structure of NAS IS (a parallel bucket sort
 * of integer keys whose time is the all-to-all key exchange), in plain C99
 * and MPI.  This file is the *Original* variant (the only one written by
 * hand): each iteration's MPI_Alltoall of the counts and MPI_Alltoallv of
 * the keys complete before the local sort, as in NAS IS.
 *
 * Usage: is [KEYS [MAXKEY [ITERATIONS]]]  (defaults: 65536 2048 10, NAS
 *        class S; KEYS and MAXKEY >= 1, MAXKEY <= 2^30, any rank count)
 *
 * The problem: in iteration t = 1 .. ITERATIONS, KEYS keys in [0, MAXKEY),
 * key g = the mean of two hashes of (g, t) (a triangular distribution, so
 * the buckets differ in size, as NAS IS's do), to be sorted.  It depends on
 * the arguments only, not on the rank count.
 *
 * Distribution: rank r of P generates the keys g in [r KEYS / P, (r+1) KEYS
 * / P) and receives the key values [r MAXKEY / P, (r+1) MAXKEY / P) (its
 * bucket).  One iteration (the loop body; the two collectives are
 * top-level statements of it):
 *   generate_keys(keys, t)                 writes keys
 *   bucket_keys(keys -> sendbuf, scount, sdispl)
 *                                          the keys grouped by destination
 *   MPI_Alltoall(scount -> rcount)         how many each rank receives
 *   receive_displacements(rcount -> rdispl)
 *   MPI_Alltoallv(sendbuf -> recvbuf)      the keys to their buckets
 *   sort_keys(recvbuf -> sorted, hist)     a counting sort of the bucket
 *   partial_verify(sorted, t, result)      writes result[t-1]: the keys
 *                                          received, their weighted sum, and
 *                                          how many are below each test key
 * The parts after the exchange read recvbuf, rcount, rdispl and write only
 * sorted, hist and step t's entries of result; those before it write only
 * keys, sendbuf, scount, sdispl (and rdispl after the counts).  The buffers
 * are heap pointers.
 *
 * Self-check after the loop: (1) the last iteration's sorted buckets are
 * globally sorted (each nondecreasing and inside its key range, and the
 * ranges in rank order: MPI_Allgather of first, last and count); (2) every
 * iteration conserved the number of keys, and the last one the multiset
 * (a hash sum of the keys generated equals that of the keys sorted); (3)
 * the ranks of the test keys do not decrease; (4) up to 2^22 keys times
 * iterations, rank 0 generates every key of every iteration itself and
 * compares the checksum and the test-key ranks.
 *
 * Output (rank 0):
 *   is ranks <P> keys <KEYS> maxkey <MAXKEY> iterations <I> bucket sizes
 *      <min>..<max> (last iteration)
 *   time <seconds of the iteration loop, the maximum over the ranks>
 *   checksum <sum over the iterations and keys of 1 + key % 1000>
 *   ranks <how many keys of the last iteration are below each test key>
 *   check <which checks ran>
 *   is: OK                     (or a FAILED line, and exit status 1)
 * checksum and ranks are exact integers, the same for any number of ranks.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NTEST 5                    /* test keys of the partial verification */
#define RESULT (2 + NTEST)         /* entries of result per iteration */
#define SERIAL_CHECK_LIMIT (1 << 22) /* keys times iterations */

/* The sizes and this rank's share: set before the loop, read-only in it. */
struct keyspace {
    long long keys;   /* per iteration, all ranks */
    int maxkey;
    int size;
    long long g0;     /* the first key this rank generates */
    int nlocal;       /* how many */
    int lo, hi;       /* the key values this rank sorts: [lo, hi) */
    int capacity;     /* of recvbuf and sorted */
    int test[NTEST];  /* the test keys */
};

static void *xmalloc(size_t bytes)
{
    void *p = calloc(1, bytes > 0 ? bytes : 1);
    if (p == NULL) {
        fprintf(stderr, "is: out of memory\n");
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    return p;
}

/* splitmix64 */
static unsigned long long mix64(unsigned long long x)
{
    x += 0x9E3779B97F4A7C15ULL;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ULL;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBULL;
    return x ^ (x >> 31);
}

/* Key g of iteration t: the mean of two uniform values in [0, maxkey). */
static int key_of(long long g, int t, int maxkey)
{
    unsigned long long h = 0x100000000ULL * (unsigned long long)t +
                           2 * (unsigned long long)g;
    unsigned long long a = (mix64(h) >> 11) % (unsigned long long)maxkey;
    unsigned long long b = (mix64(h + 1) >> 11) % (unsigned long long)maxkey;
    return (int)((a + b) / 2);
}

/* First element of part r when n things are split over p parts. */
static long long first_of(int r, int p, long long n)
{
    return (long long)r * n / p;
}

/* The rank whose key range holds key k. */
static int owner(int k, int size, int maxkey)
{
    return (int)(((long long)(k + 1) * size + maxkey - 1) / maxkey) - 1;
}

/* This rank's keys of iteration t.  Writes keys. */
static void generate_keys(int *keys, int t, const struct keyspace *ks)
{
    for (int i = 0; i < ks->nlocal; i++)
        keys[i] = key_of(ks->g0 + i, t, ks->maxkey);
}

/* The keys grouped by destination rank into sendbuf: scount[d] of them for
 * rank d, from sdispl[d].  Reads keys, writes sendbuf, scount, sdispl. */
static void bucket_keys(const int *keys, int *sendbuf, int *scount,
                        int *sdispl, const struct keyspace *ks)
{
    for (int d = 0; d < ks->size; d++)
        scount[d] = 0;
    for (int i = 0; i < ks->nlocal; i++)
        scount[owner(keys[i], ks->size, ks->maxkey)]++;
    sdispl[0] = 0;
    for (int d = 1; d < ks->size; d++)
        sdispl[d] = sdispl[d - 1] + scount[d - 1];
    for (int d = 0; d < ks->size; d++)
        scount[d] = 0;
    for (int i = 0; i < ks->nlocal; i++) {
        int d = owner(keys[i], ks->size, ks->maxkey);
        sendbuf[sdispl[d] + scount[d]++] = keys[i];
    }
}

/* rdispl from rcount; stops the run if the bucket outgrows recvbuf.
 * Reads rcount, writes rdispl. */
static void receive_displacements(const int *rcount, int *rdispl,
                                  const struct keyspace *ks)
{
    long long n = 0;
    for (int s = 0; s < ks->size; s++) {
        rdispl[s] = (int)n;
        n += rcount[s];
    }
    if (n > ks->capacity) {
        fprintf(stderr, "is: a bucket of %lld keys exceeds the buffers (%d)\n",
                n, ks->capacity);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
}

/* Counting sort of the received keys (all in [lo, hi)) into sorted; hist
 * ends as the inclusive prefix counts: hist[k - lo] = how many keys <= k.
 * Reads recvbuf, rcount, rdispl; writes sorted and hist. */
static void sort_keys(const int *recvbuf, const int *rcount,
                      const int *rdispl, int *sorted, int *hist,
                      const struct keyspace *ks)
{
    int n = rdispl[ks->size - 1] + rcount[ks->size - 1];
    int range = ks->hi - ks->lo;
    for (int k = 0; k < range; k++)
        hist[k] = 0;
    for (int i = 0; i < n; i++)
        hist[recvbuf[i] - ks->lo]++;
    int at = 0;
    for (int k = 0; k < range; k++) {
        int c = hist[k];
        for (int j = 0; j < c; j++)
            sorted[at + j] = ks->lo + k;
        at += c;
        hist[k] = at;
    }
}

/* result[RESULT (t-1) ...]: the keys sorted here, their sum of 1 + key %
 * 1000, and per test key how many of them are below it.  Reads sorted,
 * hist, rcount, rdispl; writes those RESULT entries. */
static void partial_verify(const int *sorted, const int *hist,
                           const int *rcount, const int *rdispl, int t,
                           long long *result, const struct keyspace *ks)
{
    int n = rdispl[ks->size - 1] + rcount[ks->size - 1];
    long long weighted = 0;
    for (int i = 0; i < n; i++)
        weighted += 1 + sorted[i] % 1000;
    long long *r = result + (size_t)RESULT * (t - 1);
    r[0] = n;
    r[1] = weighted;
    for (int j = 0; j < NTEST; j++) {
        int k = ks->test[j];
        r[2 + j] = k <= ks->lo ? 0 : k >= ks->hi ? n : hist[k - 1 - ks->lo];
    }
}

int main(int argc, char **argv)
{
    int rank, size;
    long long keys_total = 65536;
    int maxkey = 2048, iterations = 10;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (argc > 1)
        keys_total = atoll(argv[1]);
    if (argc > 2)
        maxkey = atoi(argv[2]);
    if (argc > 3)
        iterations = atoi(argv[3]);
    if (keys_total < 1 || keys_total > 0x7fffffffLL || maxkey < 1 ||
        maxkey > (1 << 30) || iterations < 1) {
        if (rank == 0)
            fprintf(stderr,
                    "usage: %s [KEYS [MAXKEY [ITERATIONS]]]: 1 <= KEYS < "
                    "2^31, 1 <= MAXKEY <= 2^30, ITERATIONS >= 1\n",
                    argv[0]);
        MPI_Finalize();
        return 1;
    }

    struct keyspace ks;
    ks.keys = keys_total;
    ks.maxkey = maxkey;
    ks.size = size;
    ks.g0 = first_of(rank, size, keys_total);
    ks.nlocal = (int)(first_of(rank + 1, size, keys_total) - ks.g0);
    ks.lo = (int)first_of(rank, size, maxkey);
    ks.hi = (int)first_of(rank + 1, size, maxkey);
    /* A bucket holds at most about twice the mean (the triangular
     * distribution's peak); the margin covers small runs' fluctuations. */
    long long cap = 5 * keys_total / (2LL * size) + 4096;
    ks.capacity = (int)(cap < keys_total ? cap : keys_total);
    for (int j = 0; j < NTEST; j++)
        ks.test[j] = (int)((long long)(j + 1) * maxkey / (NTEST + 1));

    int *keys = xmalloc((size_t)ks.nlocal * sizeof(int));
    int *sendbuf = xmalloc((size_t)ks.nlocal * sizeof(int));
    int *recvbuf = xmalloc((size_t)ks.capacity * sizeof(int));
    int *sorted = xmalloc((size_t)ks.capacity * sizeof(int));
    int *hist = xmalloc((size_t)(ks.hi - ks.lo) * sizeof(int));
    int *scount = xmalloc((size_t)size * sizeof(int));
    int *sdispl = xmalloc((size_t)size * sizeof(int));
    int *rcount = xmalloc((size_t)size * sizeof(int));
    int *rdispl = xmalloc((size_t)size * sizeof(int));
    long long *result =
        xmalloc((size_t)RESULT * iterations * sizeof(long long));

    MPI_Barrier(MPI_COMM_WORLD);
    double t0 = MPI_Wtime();

    for (int iter = 1; iter <= iterations; iter++) {
        generate_keys(keys, iter, &ks);
        bucket_keys(keys, sendbuf, scount, sdispl, &ks);
        MPI_Alltoall(scount, 1, MPI_INT, rcount, 1, MPI_INT, MPI_COMM_WORLD);
        receive_displacements(rcount, rdispl, &ks);
        MPI_Alltoallv(sendbuf, scount, sdispl, MPI_INT, recvbuf, rcount,
                      rdispl, MPI_INT, MPI_COMM_WORLD);
        sort_keys(recvbuf, rcount, rdispl, sorted, hist, &ks);
        partial_verify(sorted, hist, rcount, rdispl, iter, result, &ks);
    }

    double elapsed = MPI_Wtime() - t0, time_max = 0.0;
    MPI_Allreduce(&elapsed, &time_max, 1, MPI_DOUBLE, MPI_MAX,
                  MPI_COMM_WORLD);

    long long *total = xmalloc((size_t)RESULT * iterations * sizeof(long long));
    MPI_Allreduce(result, total, RESULT * iterations, MPI_LONG_LONG, MPI_SUM,
                  MPI_COMM_WORLD);

    /* (1) the last iteration's buckets: locally sorted and in range; the
     * ranges in rank order (first, last, count of every rank). */
    int n = rdispl[size - 1] + rcount[size - 1];
    long long bad = 0;
    for (int i = 0; i < n; i++)
        if (sorted[i] < ks.lo || sorted[i] >= ks.hi ||
            (i > 0 && sorted[i] < sorted[i - 1]))
            bad++;
    int mine[3] = {n > 0 ? sorted[0] : 0, n > 0 ? sorted[n - 1] : 0, n};
    int *ends = xmalloc((size_t)3 * size * sizeof(int));
    MPI_Allgather(mine, 3, MPI_INT, ends, 3, MPI_INT, MPI_COMM_WORLD);
    int prev = -1, nmin = n, nmax = n;
    for (int r = 0; r < size; r++) {
        if (ends[3 * r + 2] == 0)
            continue;
        if (ends[3 * r] < prev)
            bad++;
        prev = ends[3 * r + 1];
    }
    for (int r = 0; r < size; r++) {
        nmin = ends[3 * r + 2] < nmin ? ends[3 * r + 2] : nmin;
        nmax = ends[3 * r + 2] > nmax ? ends[3 * r + 2] : nmax;
    }

    /* (2) the multiset of the last iteration: hash sums of the keys
     * generated (again) and of the keys sorted. */
    generate_keys(keys, iterations, &ks);
    unsigned long long hs[2] = {0, 0}, hs_all[2];
    for (int i = 0; i < ks.nlocal; i++)
        hs[0] += mix64((unsigned long long)keys[i]);
    for (int i = 0; i < n; i++)
        hs[1] += mix64((unsigned long long)sorted[i]);
    MPI_Allreduce(hs, hs_all, 2, MPI_UNSIGNED_LONG_LONG, MPI_SUM,
                  MPI_COMM_WORLD);
    long long bad_all = 0;
    MPI_Allreduce(&bad, &bad_all, 1, MPI_LONG_LONG, MPI_SUM, MPI_COMM_WORLD);

    int ok = bad_all == 0 && hs_all[0] == hs_all[1];
    int lost = 0, unordered = 0, serial_wrong = 0;
    long long checksum = 0;
    for (int t = 1; t <= iterations; t++) {
        const long long *r = total + (size_t)RESULT * (t - 1);
        checksum += r[1];
        if (r[0] != keys_total)
            lost++;
        for (int j = 0; j < NTEST; j++)
            if (r[2 + j] < 0 || r[2 + j] > keys_total ||
                (j > 0 && r[2 + j] < r[1 + j]))
                unordered++;
    }
    ok = ok && lost == 0 && unordered == 0;

    /* (4) at small sizes rank 0 redoes every iteration alone. */
    int serial = keys_total * iterations <= SERIAL_CHECK_LIMIT;
    if (serial && rank == 0) {
        for (int t = 1; t <= iterations; t++) {
            const long long *r = total + (size_t)RESULT * (t - 1);
            long long weighted = 0, below[NTEST] = {0};
            for (long long g = 0; g < keys_total; g++) {
                int k = key_of(g, t, maxkey);
                weighted += 1 + k % 1000;
                for (int j = 0; j < NTEST; j++)
                    below[j] += k < ks.test[j];
            }
            if (weighted != r[1])
                serial_wrong++;
            for (int j = 0; j < NTEST; j++)
                if (below[j] != r[2 + j])
                    serial_wrong++;
        }
        if (serial_wrong)
            ok = 0;
    }
    MPI_Bcast(&ok, 1, MPI_INT, 0, MPI_COMM_WORLD);

    if (rank == 0) {
        const long long *last = total + (size_t)RESULT * (iterations - 1);
        printf("is ranks %d keys %lld maxkey %d iterations %d bucket sizes "
               "%d..%d (last iteration)\n",
               size, keys_total, maxkey, iterations, nmin, nmax);
        printf("time %.6f\n", time_max);
        printf("checksum %lld\n", checksum);
        printf("ranks");
        for (int j = 0; j < NTEST; j++)
            printf(" %lld", last[2 + j]);
        printf("\n");
        printf("check full sort of the last iteration, key counts of every "
               "iteration%s\n",
               serial ? ", checksum and test-key ranks against a serial "
                        "recount"
                      : "");
        if (ok)
            printf("is: OK\n");
        else
            printf("is: FAILED (%lld keys out of order or range, multiset "
                   "%s, %d iterations lost keys, %d test ranks out of "
                   "order, %d serial mismatches)\n",
                   bad_all, hs_all[0] == hs_all[1] ? "kept" : "changed", lost,
                   unordered, serial_wrong);
        fflush(stdout);
    }

    free(keys);
    free(sendbuf);
    free(recvbuf);
    free(sorted);
    free(hist);
    free(scount);
    free(sdispl);
    free(rcount);
    free(rdispl);
    free(result);
    free(total);
    free(ends);
    MPI_Finalize();
    return ok ? 0 : 1;
}
