/* The old EXTERN idiom: the file with main defines every global, the other
 * files only declare them. */
#ifndef PRIVATIZE_HEADERS_GLOBALS_H
#define PRIVATIZE_HEADERS_GLOBALS_H
#ifdef MAIN
#define EXTERN
#else
#define EXTERN extern
#endif
EXTERN int nblocks;
EXTERN double total;
EXTERN int table[4];
/* One per file that includes it (and per subrank). */
static int header_calls;
/* A header's inline function reading and writing globals. */
static inline int bump(void) { return ++header_calls + nblocks; }
#define NBLOCKS_PLUS(k) (nblocks + (k))
#endif
