/* The runtime interface that tucana-translate generates calls to: a
 * superblock (an annotated loop, or a { } block run once) runs each of its
 * iterations as a set of regions, each executed once per iteration when the
 * regions it depends on are done. See docs/translator.md for the
 * translation scheme. C and C++.
 *
 * The translated loop keeps its own header: the condition and the increment
 * run exactly where and as often as in the original program. Inside each
 * iteration, the body is a dispatch loop:
 *
 *   tucana_superblock *sb = tucana_sb_begin(&desc);
 *   for (INIT; COND; INC) {
 *     for (int r; (r = tucana_sb_next(sb)) >= 0;)
 *       switch (r) { case 0: REGION0; tucana_sb_ran(sb, 0); break; ... }
 *   }
 *   tucana_sb_end(sb);
 *
 * A canonical counted loop whose regions' order-sensitive calls the graph
 * keeps in order (docs/translator.md, "The lookahead form") runs instead in
 * lookahead: its trip count is computed once before the loop, and each
 * region runs its iterations as far ahead of the other regions as its
 * dependencies allow; the loop variable is recomputed for each region:
 *
 *   tucana_superblock *sb = tucana_sb_begin_ahead(&desc, TRIPS);
 *   for (INIT; COND; INC) {
 *     for (long long k; (r = tucana_sb_next_ahead(sb, &k)) >= 0;) {
 *       i = START + k * STEP;
 *       switch (r) { case 0: REGION0; tucana_sb_ran(sb, 0); break; ... }
 *     }
 *     i = START + TRIPS * STEP;  (only for an i declared before the loop)
 *     break;
 *   }
 *   tucana_sb_end(sb);
 */
#ifndef TUCANA_SUPERBLOCK_H
#define TUCANA_SUPERBLOCK_H

#include <tucana/tmpi.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Region kinds (the Toucan form's three, or a named region of a graph). */
enum tucana_region_kind {
  TUCANA_REGION_RECEIVE = 0,
  TUCANA_REGION_SEND = 1,
  TUCANA_REGION_COMPUTE = 2,
  TUCANA_REGION_OTHER = 3
};

/* depends(x) (previous = 0) or depends(x*) (previous = 1). previous = 2:
 * x of this iteration has run its code; its requests may still be in
 * flight (the dependency of a split compute region on the regions whose
 * messages its interior overlaps; tucana_sb_await_deps waits for the rest). */
typedef struct tucana_dependency {
  int region;
  int previous;
} tucana_dependency;

#define TUCANA_DEP_SAME 0
#define TUCANA_DEP_PREVIOUS 1
#define TUCANA_DEP_RAN 2

typedef struct tucana_region_desc {
  const char *name;
  int kind;
  int ndeps;
  const tucana_dependency *deps;
} tucana_region_desc;

typedef struct tucana_superblock_desc {
  const char *where; /* "file.c:42", for reports */
  int nregions;
  const tucana_region_desc *regions;
} tucana_superblock_desc;

typedef struct tucana_superblock tucana_superblock;

/* Starts a superblock on the calling subrank (pushed on its superblock
 * stack; superblocks nest through calls, recursion included). */
tucana_superblock *tucana_sb_begin(const tucana_superblock_desc *desc);

/* The region to run next in the current iteration: one that has not run in
 * this iteration and whose dependencies are done (depends(x): x of this
 * iteration has run and its requests have completed; depends(x*): the same
 * for x of the previous iteration). Suspends the subrank (its worker runs
 * other subranks) while none is ready. Returns -1 once every region has run
 * in this iteration; the next call after that starts the next iteration. */
int tucana_sb_next(tucana_superblock *sb);

/* Lookahead (a loop of `trips` iterations, trips >= 0, known before it
 * starts): starts the superblock as tucana_sb_begin does. Each region runs
 * iterations 0..trips-1 in order; region r may run iteration j when it has
 * run j-1 and its dependencies of j (depends(x)) and j-1 (depends(x*)) are
 * done. */
tucana_superblock *tucana_sb_begin_ahead(const tucana_superblock_desc *desc, long long trips);

/* Lookahead: a region that may run now, its iteration in *iteration: the
 * ready region of the lowest iteration first, then the highest priority,
 * then the lowest index. A region runs at most a few iterations (the
 * runtime's bound) ahead of the slowest region. Suspends the subrank while
 * none is ready; returns -1 once every region has run every iteration.
 * Contract: sb was begun by tucana_sb_begin_ahead (tucana_sb_next is for
 * tucana_sb_begin's). */
int tucana_sb_next_ahead(tucana_superblock *sb, long long *iteration);

/* The region returned by tucana_sb_next (or _next_ahead) has run its code
 * for this iteration. It is done once the requests it posted have completed. A
 * region whose priority is negative gives its worker to another ready
 * subrank here (Bamboo's yielding rule). */
void tucana_sb_ran(tucana_superblock *sb, int region);

/* Sets the scheduling priority of `region` (or of every region of the
 * superblock when region is -1) from now on; default 0. Among the ready
 * regions of all subranks of a process, higher priorities run first. */
void tucana_sb_priority(tucana_superblock *sb, int region, int priority);

/* Ends the superblock: waits (suspending the subrank) until every request
 * posted in it has completed, then pops it from the superblock stack. */
void tucana_sb_end(tucana_superblock *sb);

/* Interior/boundary splitting of a compute region (docs/translator.md,
 * "Splitting a compute region"). The generated code of a split region:
 *
 *   case K: tucana_sb_track_buffers(sb) was called after tucana_sb_begin;
 *     n = tucana_split_boxes(D, box, halo, boxes);
 *     split = n > 0 && tucana_sb_split_clear(sb, nspans, spans);
 *     if (split) NEST over boxes[0] (the interior);
 *     tucana_sb_await_deps(sb);
 *     the region as written, its nest over boxes[1..n-1] (split) or boxes[n]
 */

/* A byte range [lo, hi) that the interior of a split region reads or
 * writes. */
typedef struct tucana_span {
  const void *lo;
  const void *hi;
  int written;
} tucana_span;

/* The superblock records the buffer of every request its regions post from
 * now on (for tucana_sb_split_clear). */
void tucana_sb_track_buffers(tucana_superblock *sb);

/* 1 when the running region's interior may run now: no written span
 * overlaps another span, and no span overlaps the buffer of a request
 * posted in this iteration by a region it depends on with
 * TUCANA_DEP_RAN (in flight or complete: a receive's data is read after the
 * interior, a send's is on its way). 0 when one does, or when such a region
 * posted a request whose buffer is not one contiguous range. */
int tucana_sb_split_clear(tucana_superblock *sb, int nspans, const tucana_span *spans);

/* Waits (suspending the subrank) until every dependency of the running
 * region is done, TUCANA_DEP_RAN ones included: from here on the region
 * runs with every guarantee of its dependencies as written. */
void tucana_sb_await_deps(tucana_superblock *sb);

/* The boxes of a split loop nest of `n` loops (n <= TUCANA_SPLIT_MAX_LOOPS):
 * box[2d], box[2d+1] are loop d's iterations [lo, hi), halo[2d] and
 * halo[2d+1] how many at its low and high end may read received data.
 * Writes boxes[b * 2n + 2d + {0, 1}]: box 0 the interior, boxes 1 .. k-1 the
 * boundary (disjoint, with the interior they are the whole box), box k the
 * whole box; returns k, or 0 when the interior is empty (box 0 is then the
 * whole box). `boxes` holds (2n + 2) * 2n values. */
#define TUCANA_SPLIT_MAX_LOOPS 8
static inline int tucana_split_boxes(int n, const long long *box, const int *halo, long long *boxes) {
  int d, e, k = 1;
  long long *inner = boxes;
  for (d = 0; d < n; d++) {
    inner[2 * d] = box[2 * d] + halo[2 * d];
    inner[2 * d + 1] = box[2 * d + 1] - halo[2 * d + 1];
    if (inner[2 * d] >= inner[2 * d + 1]) {
      for (e = 0; e < 2 * n; e++) boxes[e] = box[e];
      return 0;
    }
  }
  /* Loop d's low and high slabs: loops before d over the interior, loops
   * after d over the whole box. */
  for (d = 0; d < n; d++) {
    int side;
    for (side = 0; side < 2; side++) {
      long long lo = side ? inner[2 * d + 1] : box[2 * d];
      long long hi = side ? box[2 * d + 1] : inner[2 * d];
      long long *b = boxes + 2 * n * k;
      if (lo >= hi) continue;
      for (e = 0; e < n; e++) {
        b[2 * e] = e < d ? inner[2 * e] : box[2 * e];
        b[2 * e + 1] = e < d ? inner[2 * e + 1] : box[2 * e + 1];
      }
      b[2 * d] = lo;
      b[2 * d + 1] = hi;
      k++;
    }
  }
  for (e = 0; e < 2 * n; e++) boxes[2 * n * k + e] = box[e];
  return k;
}

/* Blocking point-to-point calls inside receive and send blocks, reinterpreted
 * (the Bamboo front end, docs/annotations.md): when a region of a superblock
 * is running on the calling subrank (here or in a function it calls), the
 * call is posted as the non-blocking one, attributed to that region, and
 * returns at once; its completion is a dependency of the regions that depend
 * on that region, and `status` (unless TMPI_STATUS_IGNORE) is filled before
 * any of them runs. Outside a running region they are the blocking calls.
 * Contract: buffers and `status` stay valid until the region is done (the
 * translator only reinterpets calls whose arguments outlive the region). */
int tucana_sb_recv(void *buf, int count, TMPI_Datatype type, int source, int tag, TMPI_Comm comm,
                   TMPI_Status *status);
int tucana_sb_send(const void *buf, int count, TMPI_Datatype type, int dest, int tag, TMPI_Comm comm);
int tucana_sb_sendrecv(const void *sendbuf, int sendcount, TMPI_Datatype sendtype, int dest, int sendtag,
                       void *recvbuf, int recvcount, TMPI_Datatype recvtype, int source, int recvtag,
                       TMPI_Comm comm, TMPI_Status *status);

#ifdef __cplusplus
}
#endif

#endif /* TUCANA_SUPERBLOCK_H */
