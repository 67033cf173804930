/* -fcommon: the same tentative definitions as privatize_common.c. */
int counter;
int table[8];
void bump_other(void) {
  counter += 100;
  table[0] += 10;
}
