/* A header with a task pragma in an inline function (diag_task_placement.c):
 * tucana-translate rewrites only the file it is given, so this is an error. */
static inline int twice(int v) {
  int r = 0;
  /* the pragma below is line 6 */
#pragma tucana task shared(r)
  r = 2 * v;
#pragma tucana taskwait
  return r;
}
