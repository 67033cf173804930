/*
 * comm_only.h -- the switch behind the benchmark programs' `bound` variant
 * (NAME.bound: the Original source, NAME.c, compiled with -DBENCH_COMM_ONLY).
 *
 * With BENCH_COMM_ONLY defined, COMM_ONLY is 1 and the functions that compute
 * (the sweeps, cannon's block multiplication, multigrid's residual,
 * restriction and prolongation) return before computing; everything that
 * communicates runs as in the Original: the same messages (sizes, counts,
 * neighbours, tags), packed and unpacked, in the same iterations.  What is
 * left is the program's exchange alone, C, the time below which no schedule
 * of the program can end (run_bench.py's bound on hidden %: max(W, C), W the
 * NoComm time).  The results are then meaningless: report_results skips the
 * self-check and prints COMM_ONLY_LINE in place of the check and the verdict
 * (exit status 0).  bench/programs/check_variants.sh checks that a bound
 * build makes the Original's point-to-point calls.
 *
 * A constant, not #ifdef blocks, so that both builds compile every line.
 */
#ifndef BENCH_COMM_ONLY_H
#define BENCH_COMM_ONLY_H

#ifdef BENCH_COMM_ONLY
#define COMM_ONLY 1
#else
#define COMM_ONLY 0
#endif

/* Rank 0's last line in a bound build (run_bench.py looks for its start). */
#define COMM_ONLY_LINE                                                         \
    "comm-only: exchange alone, computation skipped (BENCH_COMM_ONLY); "       \
    "results not checked"

#endif /* BENCH_COMM_ONLY_H */
