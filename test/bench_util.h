/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The mbufx authors
 */

/*
 * Helpers shared by the *_perf_autotest benchmarks: the repetitions
 * (MBUFX_BENCH_REPS), medians, the machine's load, and the result file
 * $MBUFX_BENCH_OUT/<name>.json (default bench-results/) in the schema that
 * devtools/bench-report.py reads:
 *
 *   bench_json_open()       {"bench": NAME, "title": TITLE,
 *                            "env": {ENV},
 *                            "rows": [
 *     (the benchmark)         {"case": ..., bench_json_variants(), ...},
 *   bench_json_close()       ]}
 */

#ifndef BENCH_UTIL_H
#define BENCH_UTIL_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <rte_atomic.h>
#include <rte_common.h>
#include <rte_cycles.h>

/* Never fewer repetitions than this, whatever MBUFX_BENCH_REPS says. */
#define BENCH_REPS_MIN 5u
/* The longest array bench_median() takes. */
#define BENCH_MEDIAN_MAX 64u

/* MBUFX_BENCH_REPS clamped to [BENCH_REPS_MIN, max]; def when unset. */
unsigned int bench_reps(unsigned int def, unsigned int max);

/* Median of v[0..n) (n <= BENCH_MEDIAN_MAX); v is not reordered. */
double bench_median(const double *v, unsigned int n);

/* The 1-minute load average (other work skews timings), -1 if unknown. */
double bench_loadavg(void);

/*
 * Create $MBUFX_BENCH_OUT/<name>.json (and the directory) and write the
 * head of the object up to the opening of "rows"; env holds the members of
 * "env", already JSON. path receives the file's name. NULL, after printing
 * why, when the file cannot be written.
 */
FILE *bench_json_open(const char *name, const char *title, const char *env,
		char *path, size_t len);

/* Close "rows" and the object, close f, print "wrote PATH"; 0 or -1. */
int bench_json_close(FILE *f, const char *path);

/*
 * The "values" and "runs" members of a row, for nv variants: key[v] with
 * its median val[v] and its nruns runs[v][] (runs[v] NULL: an empty list),
 * numbers with the given decimals.
 */
void bench_json_variants(FILE *f, unsigned int nv, const char *const key[],
		const double val[], const double *const runs[],
		unsigned int nruns, int decimals);

/*
 * A timestamp that waits for the instructions before it to execute, not for
 * their memory traffic: LFENCE, RDTSC, LFENCE on x86. rte_rdtsc_precise()
 * fences with MFENCE, which waits until every store has drained and (on AMD
 * Zen) every software prefetch has filled: a window would then be charged
 * the full latency of the prefetches and store misses it started, which in
 * a PMD run while the application works. Elsewhere rte_rdtsc_precise().
 */
static __rte_always_inline uint64_t
bench_stamp(void)
{
#if defined(RTE_ARCH_X86)
	uint64_t t;

	rte_rmb();
	t = rte_rdtsc();
	rte_rmb();
	return t;
#else
	return rte_rdtsc_precise();
#endif
}

#endif /* BENCH_UTIL_H */
