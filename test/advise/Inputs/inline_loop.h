// A loop in an inline function of a header: not analyzed (only the main
// file's functions are), and not edited.
static inline void inline_loop(int n) {
  double x = 0, y = 0;
  for (int i = 0; i < n; ++i) {
    MPI_Allreduce(&x, &y, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    x += y;
  }
}
