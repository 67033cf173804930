/* A header with what tucanacc cannot rewrite: a mutable variable defined
   in it, and an inline function and a macro that name a global. */
static int header_counter;
extern int seen;
static inline int read_seen(void) { return seen; }
#define BUMP_SEEN() (seen++)
