// getopt(), getopt_long() and getopt_long_only() with GNU semantics on a
// GetoptState of their own: glibc has no reentrant getopt to call.
#pragma once

#include <getopt.h>

#include "libc/libc_state.h"

namespace tucana::libc {

// One call of glibc's getopt_long (long_only: getopt_long_only; longopts
// null: getopt) on the state `d`: the same return value, the same effects on
// d's optind, optarg and optopt, on argv (permutation), *longindex, the
// options' flags, and the same messages on stderr (when d.opterr is not 0
// and optstring does not start with ':', after any '+' or '-'), as glibc
// 2.36 for the same sequence of calls. d.optind = 0 starts a new scan.
// Contract: argv[0, argc) are valid strings and optstring is not null, as
// for glibc.
int getopt_parse(GetoptState& d, int argc, char** argv, const char* optstring, const option* longopts,
                 int* longindex, bool long_only);

}  // namespace tucana::libc
