/* Only GCC accepts this file (a nested function), and it has no variables
 * of static storage duration: compiled as it is, nothing is shared. */
int twice_of(int x) {
  int twice(int y) { return 2 * y; }
  return twice(x);
}
