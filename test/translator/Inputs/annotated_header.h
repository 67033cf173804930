// An annotated function in a header, for diag_annotation_in_included_file.c.
static inline void helper(double *a, int n) {
#pragma tucana superblock
  for (int i = 0; i < n; i++) {
#pragma tucana region(clear)
    a[i] = 0;
  }
}

static inline void helper_block(double *a) {
#pragma bamboo receive
  a[0] = 1;
}
