/* A header of privatize_kinds.c: declarations only (no definition), and a
   macro that names a global. */
extern int total_hits;
extern double samples[8];
#define RECORD_HIT() (total_hits++)
