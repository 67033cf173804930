/* The definitions that privatize_kinds.c declares in privatize_kinds.h:
   privatized here, used there (one copy per subrank, not two). */
#include "privatize_kinds.h"
int total_hits;
double samples[8];
