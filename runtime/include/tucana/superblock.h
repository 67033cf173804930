/* The runtime interface that tucana-translate generates calls to: a
 * superblock (an annotated loop) runs as a set of regions, each executed once
 * per iteration when the regions it depends on are done. See
 * docs/translator.md for the translation scheme. C and C++. */
#ifndef TUCANA_SUPERBLOCK_H
#define TUCANA_SUPERBLOCK_H

#include <tucana/tmpi.h>

#ifdef __cplusplus
#include <type_traits> /* std::decay: copies of an 'auto' loop variable */
extern "C" {
#endif

/* Region kinds (the Toucan form's three, or a named region of a graph). */
enum tucana_region_kind {
  TUCANA_REGION_RECEIVE = 0,
  TUCANA_REGION_SEND = 1,
  TUCANA_REGION_COMPUTE = 2,
  TUCANA_REGION_OTHER = 3
};

/* depends(x) (previous = 0) or depends(x*) (previous = 1). */
typedef struct tucana_dependency {
  int region;
  int previous;
} tucana_dependency;

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

/* Starts a superblock on the calling subrank (pushed on its superblock stack). */
tucana_superblock *tucana_sb_begin(const tucana_superblock_desc *desc);

/* The region to run next: one whose dependencies for its next iteration are
 * done. Suspends the subrank (its worker runs other subranks) while none is
 * ready. Returns -1 once every region has finished and every request posted
 * in the superblock has completed. */
int tucana_sb_next(tucana_superblock *sb);

/* The region returned by tucana_sb_next has run its code for one iteration.
 * It is done once the requests it posted have completed. */
void tucana_sb_ran(tucana_superblock *sb, int region);

/* The region has no further iteration (the loop condition was false). */
void tucana_sb_finish(tucana_superblock *sb, int region);

/* Ends the superblock (popped from the subrank's superblock stack). */
void tucana_sb_end(tucana_superblock *sb);

/* Replacements of MPI_Wait / MPI_Waitall inside a superblock. The regions'
 * dependencies already guarantee these requests (the region only runs once
 * they are complete), so these return at once, filling the statuses and
 * releasing the requests. A request the graph does not cover is waited for,
 * with a one-time warning naming the region. */
int tucana_sb_wait(tucana_superblock *sb, TMPI_Request *request, TMPI_Status *status);
int tucana_sb_waitall(tucana_superblock *sb, int count, TMPI_Request requests[], TMPI_Status statuses[]);

#ifdef __cplusplus
}
#endif

#endif /* TUCANA_SUPERBLOCK_H */
