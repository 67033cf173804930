/* Only GCC accepts this file (a nested function): Clang cannot translate it. */
int visits;
int twice_plus_visits(int x) {
  int twice(int y) { return 2 * y; }
  return twice(x) + visits++;
}
