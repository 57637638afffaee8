/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The mbufx authors
 */

/*
 * mempool_mbufx_perf_autotest: the mempool driver benchmark of `make bench`.
 * Never a pass/fail test on timing: it fails only when a pool misbehaves
 * (objects missing after a run) or the results cannot be written.
 *
 * Every driver runs the same case back to back, in one process, interleaved
 * (rep 1: mbufx, ring_mp_mc, ring_sp_sc, stack, bucket; rep 2: ...), for
 * MBUFX_BENCH_REPS repetitions (default 5, at least 5); the medians
 * are compared.
 * Pools are pktmbuf pools of 2176-byte data room (the packet class) with
 * fixed sizes, written to the JSON with everything else that matters.
 *
 *   (a) bulk      1 lcore: get 32, put 32; cycles per object (get + put),
 *                 cache 0 and 256
 *   (b) pipeline  lcore A gets 32 and hands them over an SP/SC rte_ring to
 *                 lcore B, which puts them back: cycles per object on B,
 *                 cache 0 and 256 (ring_sp_sc is valid: one thread gets,
 *                 one puts)
 *   (c) cold      a pool 8x the last-level cache (capped by
 *                 MBUFX_BENCH_COLD_MB, default 1024): get 32, write the first
 *                 data cache line of each, put 32; cycles per object. A LIFO
 *                 driver hands back the objects just freed (hot), the FIFO
 *                 ring walks the whole pool (cold). Cache 0.
 *
 * Targets (issues #2, #9): cache 0 at least 1.2x the best stock driver in
 * (a) and (b); with cache, (a) at least 1.0x ring_mp_mc and (b) at least
 * 1.0x the best stock driver; (c) at most 0.67x ring_mp_mc's cycles, i.e. a
 * ratio of at least 1.49.
 *
 * Output: $MBUFX_BENCH_OUT/driver.json (default bench-results/), in the
 * schema devtools/bench-report.py reads.
 */

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <rte_common.h>
#include <rte_cycles.h>
#include <rte_errno.h>
#include <rte_launch.h>
#include <rte_lcore.h>
#include <rte_mbuf.h>
#include <rte_mempool.h>
#include <rte_pause.h>
#include <rte_ring.h>

#include "bench_util.h"
#include "mbufx_test.h"

#define BURST 32
#define POOL_SIZE 8192		/* (a) and (b) */
#define BULK_OBJS (1u << 24)	/* objects per (a) run */
#define PIPE_OBJS (1u << 22)	/* objects per (b) run */
#define PIPE_RING 512
#define COLD_PASSES 2		/* (c) measured passes over the pool */
#define MAX_REPS 64
#define NB_DRV 5
#define NB_CACHE 2

static const char * const drv_name[NB_DRV] = {
	"mbufx", "ring_mp_mc", "ring_sp_sc", "stack", "bucket",
};
static const unsigned int cache_size[NB_CACHE] = { 0, 256 };

struct result {
	double runs[NB_DRV][MAX_REPS];
	int ok[NB_DRV];		/* the driver ran this case */
};

static unsigned int reps;

static struct rte_mempool *
pool_create(const char *tag, unsigned int drv, unsigned int n,
	    unsigned int cache)
{
	char name[RTE_MEMPOOL_NAMESIZE];

	snprintf(name, sizeof(name), "pf_%s_%u_%u", tag, drv, cache);
	return rte_pktmbuf_pool_create_by_ops(name, n, cache, 0,
					      RTE_MBUF_DEFAULT_BUF_SIZE,
					      rte_socket_id(), drv_name[drv]);
}

/* Every object back after a run: a driver that loses objects has no result. */
static int
pool_full(const struct rte_mempool *mp)
{
	if (rte_mempool_avail_count(mp) == mp->size)
		return 1;
	TEST_FAIL_MSG("pool %s: %u of %u objects back", mp->name,
		      rte_mempool_avail_count(mp), mp->size);
	return 0;
}

/* (a) one lcore, get 32 then put 32: cycles per object */
static double
run_bulk(struct rte_mempool *mp, unsigned int nb_objs)
{
	void *objs[BURST];
	uint64_t t0, i;

	t0 = rte_rdtsc();
	for (i = 0; i < nb_objs / BURST; i++) {
		while (rte_mempool_get_bulk(mp, objs, BURST) != 0)
			rte_pause();
		rte_mempool_put_bulk(mp, objs, BURST);
	}
	return (double)(rte_rdtsc() - t0) / nb_objs;
}

/* (b) the pipeline: lcore A gets and hands over, the main lcore puts */
struct pipe_arg {
	struct rte_mempool *mp;
	struct rte_ring *ring;
	uint64_t nb_objs;
	volatile uint32_t go;
};

static int
pipe_getter(void *arg)
{
	struct pipe_arg *pa = arg;
	void *objs[BURST];
	uint64_t sent = 0;
	unsigned int b, k;

	while (__atomic_load_n(&pa->go, __ATOMIC_ACQUIRE) == 0)
		rte_pause();
	while (sent < pa->nb_objs) {
		b = RTE_MIN((uint64_t)BURST, pa->nb_objs - sent);
		if (rte_mempool_get_bulk(pa->mp, objs, b) != 0) {
			rte_pause();
			continue;
		}
		for (k = 0; k < b; )
			k += rte_ring_sp_enqueue_burst(pa->ring, &objs[k],
						       b - k, NULL);
		sent += b;
	}
	return 0;
}

static double
run_pipe(struct rte_mempool *mp, struct rte_ring *ring, unsigned int lcore,
	 uint64_t nb_objs)
{
	struct pipe_arg pa = { .mp = mp, .ring = ring, .nb_objs = nb_objs };
	void *objs[BURST];
	uint64_t got = 0, t0, t1;
	unsigned int k;

	if (rte_eal_remote_launch(pipe_getter, &pa, lcore) != 0)
		return -1;
	t0 = rte_rdtsc();
	__atomic_store_n(&pa.go, 1, __ATOMIC_RELEASE);
	while (got < nb_objs) {
		k = rte_ring_sc_dequeue_burst(ring, objs, BURST, NULL);
		if (k == 0) {
			rte_pause();
			continue;
		}
		rte_mempool_put_bulk(mp, objs, k);
		got += k;
	}
	t1 = rte_rdtsc();
	rte_eal_wait_lcore(lcore);
	return (double)(t1 - t0) / nb_objs;
}

/* (c) get 32, first write to each data line, put 32: cycles per object */
static double
run_cold(struct rte_mempool *mp, uint64_t nb_objs)
{
	const size_t data_off = sizeof(struct rte_mbuf) +
		rte_pktmbuf_priv_size(mp) + RTE_PKTMBUF_HEADROOM;
	void *objs[BURST];
	uint64_t t0, i;
	unsigned int k;

	t0 = rte_rdtsc();
	for (i = 0; i < nb_objs / BURST; i++) {
		while (rte_mempool_get_bulk(mp, objs, BURST) != 0)
			rte_pause();
		for (k = 0; k < BURST; k++)
			*(volatile uint64_t *)((char *)objs[k] + data_off) = i;
		rte_mempool_put_bulk(mp, objs, BURST);
	}
	return (double)(rte_rdtsc() - t0) / nb_objs;
}

/* Last-level cache size in bytes, 0 when unknown. */
static size_t
llc_bytes(void)
{
	long v = 0;

#ifdef _SC_LEVEL3_CACHE_SIZE
	v = sysconf(_SC_LEVEL3_CACHE_SIZE);
	if (v <= 0)
		v = sysconf(_SC_LEVEL2_CACHE_SIZE);
#endif
	return v > 0 ? (size_t)v : 0;
}

/* --- JSON ---------------------------------------------------------------- */

struct row {
	char name[96];
	const struct result *res;
	const char *baseline;	/* NULL: the best stock driver */
	double target;		/* ratio to reach, 0: none */
	const char *note;
};

static void
json_row(FILE *f, const struct row *r, int last)
{
	const char *key[NB_DRV];
	const double *runs[NB_DRV];
	double med[NB_DRV], val[NB_DRV], ratio;
	unsigned int d, nv = 0;
	int base = -1;

	for (d = 0; d < NB_DRV; d++)
		if (r->res->ok[d]) {
			med[d] = bench_median(r->res->runs[d], reps);
			key[nv] = drv_name[d];
			val[nv] = med[d];
			runs[nv++] = r->res->runs[d];
		}
	for (d = 1; d < NB_DRV; d++) {
		if (!r->res->ok[d])
			continue;
		if (r->baseline != NULL ? strcmp(drv_name[d], r->baseline) == 0 :
		    (base < 0 || med[d] < med[base]))
			base = d;
	}
	fprintf(f, "  {\"case\": \"%s\", \"metric\": \"cycles/obj\", "
		"\"better\": \"lower\",\n   ", r->name);
	bench_json_variants(f, nv, key, val, runs, reps, 2);
	if (r->res->ok[0] && base > 0) {
		ratio = med[base] / med[0];
		fprintf(f, ",\n   \"baseline\": \"%s\", \"ratio\": %.3f",
			drv_name[base], ratio);
		if (r->target > 0)
			fprintf(f, ", \"target\": %.2f, \"met\": %s", r->target,
				ratio >= r->target ? "true" : "false");
		else
			fprintf(f, ", \"target\": null, \"met\": null");
		printf("%-44s mbufx %8.2f  %-10s %8.2f  ratio %.2f%s\n",
		       r->name, med[0], drv_name[base], med[base], ratio,
		       r->target > 0 ? (ratio >= r->target ? "  met" :
					"  MISSED") : "");
	}
	if (r->note != NULL)
		fprintf(f, ",\n   \"note\": \"%s\"", r->note);
	fprintf(f, "}%s\n", last ? "" : ",");
}

static int
write_json(const struct row *rows, unsigned int nb_rows, const char *env)
{
	char path[512];
	unsigned int i;
	FILE *f;

	f = bench_json_open("driver", "mempool driver: mbufx against the "
			    "stock drivers (cycles per object, lower is better)",
			    env, path, sizeof(path));
	if (f == NULL)
		return -1;
	for (i = 0; i < nb_rows; i++)
		json_row(f, &rows[i], i == nb_rows - 1);
	return bench_json_close(f, path);
}

/* --- the benchmark ------------------------------------------------------- */

static struct result res_bulk[NB_CACHE], res_pipe[NB_CACHE], res_cold;

/* (a) and (b): pools of POOL_SIZE for every driver and cache size. */
static int
bench_small(unsigned int worker)
{
	struct rte_mempool *mp[NB_DRV][NB_CACHE] = { { NULL } };
	struct rte_ring *ring = NULL;
	unsigned int d, c, r;
	double v;
	int ret = TEST_FAILED;

	ring = rte_ring_create("pf_pipe", PIPE_RING, rte_socket_id(),
			       RING_F_SP_ENQ | RING_F_SC_DEQ);
	TEST_ASSERT_NOT_NULL(ring, "ring: %s", rte_strerror(rte_errno));
	for (d = 0; d < NB_DRV; d++)
		for (c = 0; c < NB_CACHE; c++) {
			mp[d][c] = pool_create("s", d, POOL_SIZE, cache_size[c]);
			if (mp[d][c] == NULL)
				printf("%s cache %u: no pool (%s): left out\n",
				       drv_name[d], cache_size[c],
				       rte_strerror(rte_errno));
		}
	if (mp[0][0] == NULL || mp[0][1] == NULL)
		goto out;

	for (r = 0; r < reps; r++) {
		for (c = 0; c < NB_CACHE; c++)
			for (d = 0; d < NB_DRV; d++) {
				if (mp[d][c] == NULL)
					continue;
				run_bulk(mp[d][c], BULK_OBJS / 16); /* warm */
				v = run_bulk(mp[d][c], BULK_OBJS);
				if (!pool_full(mp[d][c]))
					goto out;
				res_bulk[c].runs[d][r] = v;
				res_bulk[c].ok[d] = 1;
			}
		if (worker == RTE_MAX_LCORE)
			continue;
		for (c = 0; c < NB_CACHE; c++)
			for (d = 0; d < NB_DRV; d++) {
				if (mp[d][c] == NULL)
					continue;
				run_pipe(mp[d][c], ring, worker, PIPE_OBJS / 16);
				v = run_pipe(mp[d][c], ring, worker, PIPE_OBJS);
				if (v < 0 || !pool_full(mp[d][c]))
					goto out;
				res_pipe[c].runs[d][r] = v;
				res_pipe[c].ok[d] = 1;
			}
		printf("rep %u/%u: bulk and pipeline done\n", r + 1, reps);
		fflush(stdout);
	}
	ret = TEST_SUCCESS;
out:
	for (d = 0; d < NB_DRV; d++)
		for (c = 0; c < NB_CACHE; c++)
			rte_mempool_free(mp[d][c]);
	rte_ring_free(ring);
	return ret;
}

/* (c): one big pool at a time (they do not fit side by side). */
static int
bench_cold(unsigned int *nb_objs)
{
	struct rte_mempool *mp;
	unsigned int d, r;
	double v;

	for (r = 0; r < reps; r++) {
		for (d = 0; d < NB_DRV; d++) {
			mp = pool_create("c", d, *nb_objs, 0);
			/* not enough memory: halve, for every driver alike */
			while (mp == NULL && d == 0 && r == 0 &&
			       *nb_objs > 32768) {
				*nb_objs /= 2;
				mp = pool_create("c", d, *nb_objs, 0);
			}
			if (mp == NULL) {
				printf("%s cold pool of %u: %s: left out\n",
				       drv_name[d], *nb_objs,
				       rte_strerror(rte_errno));
				if (d == 0)
					return TEST_FAILED;
				continue;
			}
			run_cold(mp, *nb_objs);	/* one pass: steady state */
			v = run_cold(mp, (uint64_t)*nb_objs * COLD_PASSES);
			if (!pool_full(mp)) {
				rte_mempool_free(mp);
				return TEST_FAILED;
			}
			rte_mempool_free(mp);
			res_cold.runs[d][r] = v;
			res_cold.ok[d] = 1;
		}
		printf("rep %u/%u: cold pool done\n", r + 1, reps);
		fflush(stdout);
	}
	return TEST_SUCCESS;
}

static int
test_mempool_mbufx_perf(void)
{
	size_t llc = llc_bytes(), cold_cap, elt;
	unsigned int worker, cold_objs, i, c;
	struct row rows[2 * NB_CACHE + 1];
	char env[2048], cold_note[160];
	double load0;
	const char *cap;

	reps = bench_reps(5, MAX_REPS);
	worker = rte_get_next_lcore(-1, 1, 0);
	if (worker >= RTE_MAX_LCORE)
		printf("one lcore only: no pipeline case (run with -l 0-1)\n");

	cap = getenv("MBUFX_BENCH_COLD_MB");
	cold_cap = (size_t)(cap != NULL ? atoi(cap) : 1024) << 20;
	elt = sizeof(struct rte_mbuf) + RTE_MBUF_DEFAULT_BUF_SIZE + 64;
	cold_objs = (unsigned int)(RTE_MIN(8 * (llc ? llc : 32u << 20),
					   cold_cap) / elt);

	load0 = bench_loadavg();
	printf("drivers interleaved, %u repetitions; pools of %u mbufs "
	       "(2176-byte data room)\n", reps, POOL_SIZE);
	if (bench_small(worker) != TEST_SUCCESS)
		return TEST_FAILED;
	printf("cold pool: %u mbufs (LLC %zu KiB)\n", cold_objs, llc >> 10);
	if (bench_cold(&cold_objs) != TEST_SUCCESS)
		return TEST_FAILED;

	i = 0;
	for (c = 0; c < NB_CACHE; c++) {
		snprintf(rows[i].name, sizeof(rows[i].name),
			 "(a) 1 lcore bulk get/put 32, cache %u", cache_size[c]);
		rows[i].res = &res_bulk[c];
		rows[i].baseline = c == 0 ? NULL : "ring_mp_mc";
		rows[i].target = c == 0 ? 1.2 : 1.0;
		rows[i].note = c == 0 ? "baseline: the best stock driver" :
			"the mempool cache serves every get and put of 32, the "
			"driver is not called in steady state: this row "
			"measures the cache, a few percent either way is noise";
		i++;
	}
	if (worker < RTE_MAX_LCORE)
		for (c = 0; c < NB_CACHE; c++) {
			snprintf(rows[i].name, sizeof(rows[i].name),
				 "(b) 2-lcore pipeline via rte_ring, cache %u",
				 cache_size[c]);
			rows[i].res = &res_pipe[c];
			rows[i].baseline = NULL;
			rows[i].target = c == 0 ? 1.2 : 1.0;
			rows[i].note = "baseline: the best stock driver";
			i++;
		}
	snprintf(rows[i].name, sizeof(rows[i].name),
		 "(c) cold pool, get + data-line write, cache 0");
	rows[i].res = &res_cold;
	rows[i].baseline = "ring_mp_mc";
	rows[i].target = 1.49;
	snprintf(cold_note, sizeof(cold_note),
		 "target: mbufx cycles at most 0.67x ring_mp_mc; pool %.1fx "
		 "the LLC%s", llc ? (double)cold_objs * elt / llc : 0.0,
		 (size_t)cold_objs * elt < 8 * llc ?
		 " (8x capped by MBUFX_BENCH_COLD_MB or memory)" : "");
	rows[i].note = cold_note;
	i++;

	snprintf(env, sizeof(env),
		 "\"repetitions\": \"%u, drivers interleaved, medians\", "
		 "\"pool\": \"%u pktmbufs, data room %u, (a) and (b)\", "
		 "\"cold_pool\": \"%u pktmbufs = %zu MiB (LLC %zu KiB, cap "
		 "MBUFX_BENCH_COLD_MB %zu)\", "
		 "\"burst\": \"%u\", \"objects_per_run\": \"(a) %u, (b) %u, "
		 "(c) %u passes\", \"pipeline_ring\": \"%u, SP/SC\", "
		 "\"lcores\": \"main %u, worker %d\", \"tsc_hz\": \"%" PRIu64
		 "\", \"ring_sp_sc\": \"valid: one thread gets, one puts\", "
		 "\"loadavg\": \"%.2f at start, %.2f at end (1 min; the "
		 "machine's other work skews the 2-lcore case most)\"",
		 reps, POOL_SIZE, RTE_MBUF_DEFAULT_BUF_SIZE, cold_objs,
		 ((size_t)cold_objs * elt) >> 20, llc >> 10, cold_cap >> 20,
		 BURST, BULK_OBJS, PIPE_OBJS, COLD_PASSES, PIPE_RING,
		 rte_get_main_lcore(),
		 worker < RTE_MAX_LCORE ? (int)worker : -1, rte_get_tsc_hz(),
		 load0, bench_loadavg());
	return write_json(rows, i, env) == 0 ? TEST_SUCCESS : TEST_FAILED;
}

MBUFX_TEST_REGISTER(mempool_mbufx_perf_autotest, test_mempool_mbufx_perf);
