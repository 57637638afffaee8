/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The mbufx authors
 */

/*
 * mempool_mbufx_jumbo_autotest: jumbo-class memory. Every 9000-byte data
 * buffer is IOVA-contiguous (checked at both ends with rte_mem_virt2iova) and
 * buf_iova agrees; in IOVA-as-VA mode (meson runs it with --iova-mode=va
 * too) the whole pool is one chunk; wherever the ring driver populates a
 * pool (external memory, anonymous memory, RTE_MEMPOOL_F_NO_IOVA_CONTIG),
 * the jumbo class does too; the placement is logged once per pool, and
 * iova_contig_pool describes the pool.
 */

#include <stdlib.h>
#include <string.h>

#include <rte_eal.h>
#include <rte_errno.h>
#include <rte_log.h>
#include <rte_mbuf.h>
#include <rte_memory.h>
#include <rte_memzone.h>
#include <rte_mempool.h>

#include "mbufx_consts.h"
#include "mbufx_test.h"
#include "test_mempool_mbufx_util.h"

#define JUMBO_ROOM 9344	/* testpmd's data room for 9216-byte frames */

static const char *
iova_mode(void)
{
	return rte_eal_iova_mode() == RTE_IOVA_VA ? "VA" : "PA";
}

struct iova_check {
	unsigned int bad;
	unsigned int n;
	rte_iova_t (*iova)(const void *va);
};

/* An mbuf's data buffer is IOVA-contiguous and buf_iova is its IOVA. */
static void
iova_check_obj(struct rte_mempool *mp, void *arg, void *obj, unsigned int i)
{
	struct iova_check *c = arg;
	struct rte_mbuf *m = obj;
	char *first = m->buf_addr, *last = first + m->buf_len - 1;
	rte_iova_t a = c->iova(first), b = c->iova(last);

	RTE_SET_USED(mp);
	RTE_SET_USED(i);
	c->n++;
	if (a == RTE_BAD_IOVA || b == RTE_BAD_IOVA ||
	    b - a != m->buf_len - 1u || a != m->buf_iova)
		c->bad++;
}

static rte_iova_t
eal_iova(const void *va)
{
	return rte_mem_virt2iova(va);
}

/* IOVA of a byte of external memory, from its memseg (fake IOVAs here). */
static rte_iova_t
ext_iova(const void *va)
{
	const struct rte_memseg *ms = rte_mem_virt2memseg(va, NULL);

	if (ms == NULL || ms->iova == RTE_BAD_IOVA)
		return RTE_BAD_IOVA;
	return ms->iova + RTE_PTR_DIFF(va, ms->addr);
}

/* Objects of pool mp not IOVA-contiguous, iova() telling IOVAs. */
static struct iova_check
iova_check_pool(struct rte_mempool *mp, rte_iova_t (*iova)(const void *va))
{
	struct iova_check c = { 0, 0, iova };

	rte_mempool_obj_iter(mp, iova_check_obj, &c);
	return c;
}

/* Every mbuf of the pool at once takes a 9000-byte frame in one segment. */
static int
jumbo_frames_fit(struct rte_mempool *mp)
{
	unsigned int i, n = mp->size;
	struct rte_mbuf **m;
	int ret = TEST_SUCCESS;

	m = calloc(n, sizeof(*m));
	TEST_ASSERT_NOT_NULL(m, "calloc");
	TEST_EXPECT_SUCCESS(ret, rte_pktmbuf_alloc_bulk(mp, m, n),
			    "all %u mbufs of %s", n, mp->name);
	if (ret == TEST_SUCCESS) {
		for (i = 0; i < n && ret == TEST_SUCCESS; i++)
			TEST_EXPECT_NOT_NULL(ret, rte_pktmbuf_append(m[i], 9000),
					     "mbuf %u of %s", i, mp->name);
		rte_pktmbuf_free_bulk(m, n);
	}
	free(m);
	return ret;
}

static int
jumbo_pool_check(unsigned int n, unsigned int room, unsigned int cache)
{
	struct rte_mempool *mp;
	struct iova_check c;
	char name[32];
	int ret = TEST_SUCCESS;

	snprintf(name, sizeof(name), "jumbo_%u_%u", n, cache);
	mp = rte_pktmbuf_pool_create_by_ops(name, n, cache, 0, room,
					    SOCKET_ID_ANY, MU_OPS);
	TEST_ASSERT_NOT_NULL(mp, "create %s: %s", name, rte_strerror(rte_errno));
	c = iova_check_pool(mp, eal_iova);
	printf("%s: %u objects, %u chunks, IOVA mode %s, %u not contiguous\n",
	       name, c.n, mp->nb_mem_chunks, iova_mode(), c.bad);
	TEST_EXPECT_EQUAL(ret, c.n, n, "objects of %s", name);
	TEST_EXPECT_EQUAL(ret, c.bad, 0, "objects of %s not IOVA-contiguous",
			  name);
	if (rte_eal_iova_mode() == RTE_IOVA_VA)
		TEST_EXPECT_EQUAL(ret, mp->nb_mem_chunks, 1,
				  "VA mode: %s in one chunk", name);
	if (ret == TEST_SUCCESS)
		ret = jumbo_frames_fit(mp);
	if (ret == TEST_SUCCESS)
		ret = mu_check_full(mp);
	rte_mempool_free(mp);
	return ret;
}

static int
test_jumbo_contig(void)
{
	TEST_RUN(jumbo_pool_check(512, RTE_PKTMBUF_HEADROOM + MBUFX_JUMBO_FRAME_LEN, 0));
	TEST_RUN(jumbo_pool_check(2048, JUMBO_ROOM, 64));
	/* 4096 x 9.5 KiB = 39 MiB: near the size where PA mode gives up */
	TEST_RUN(jumbo_pool_check(4096, JUMBO_ROOM, 256));
	return TEST_SUCCESS;
}

/*
 * A jumbo pool on external memory (rte_malloc_heap_memory_add) whose pages
 * are not IOVA-contiguous, in either IOVA mode: the ring driver takes it with
 * page-bounded objects, so a jumbo-class pool must too (no IOVA-contiguous
 * chunk to be had, in VA mode as well: external memory has its own IOVAs).
 */
static int
test_jumbo_external_memory(void)
{
	struct mu_ext_heap heap;
	struct rte_mempool *mp;
	struct iova_check c;
	unsigned int n = 1024;
	int ret = TEST_SUCCESS;

	TEST_RUN(mu_ext_heap_create(&heap, "mbufx_ext"));
	/* the premise: the stock driver succeeds here */
	mp = rte_pktmbuf_pool_create_by_ops("ext_ring", n, 0, 0, JUMBO_ROOM,
					    heap.socket, "ring_mp_mc");
	TEST_EXPECT_NOT_NULL(ret, mp, "ring driver on external memory: %s",
			     rte_strerror(rte_errno));
	rte_mempool_free(mp);

	mp = rte_pktmbuf_pool_create_by_ops("ext_jumbo", n, 0, 0, JUMBO_ROOM,
					    heap.socket, MU_OPS);
	if (ret == TEST_SUCCESS)
		TEST_EXPECT_NOT_NULL(ret, mp, "jumbo pool on external memory "
				     "(IOVA mode %s): %s", iova_mode(),
				     rte_strerror(rte_errno));
	if (mp != NULL) {
		c = iova_check_pool(mp, ext_iova);
		printf("external memory: %u objects, %u chunks, %u not "
		       "IOVA-contiguous\n", c.n, mp->nb_mem_chunks, c.bad);
		TEST_EXPECT_EQUAL(ret, c.n, n, "objects");
		TEST_EXPECT_EQUAL(ret, c.bad, 0, "objects not IOVA-contiguous");
		if (mu_check_full(mp) != TEST_SUCCESS ||
		    mu_check_drain(mp, "main lcore") != TEST_SUCCESS)
			ret = TEST_FAILED;
		rte_mempool_free(mp);
	}
	if (mu_ext_heap_destroy(&heap) != TEST_SUCCESS)
		ret = TEST_FAILED;
	return ret;
}

/*
 * Other ways to populate a jumbo pool: anonymous memory
 * (rte_mempool_populate_anon), and RTE_MEMPOOL_F_NO_IOVA_CONTIG. Wherever the
 * ring driver populates the pool, the jumbo class does too, with every object
 * IOVA-contiguous when its IOVA is known.
 */
static struct rte_mempool *
jumbo_pool_by(const char *name, const char *ops, unsigned int n,
	      unsigned int flags, int anon)
{
	struct rte_mempool *mp;
	int ret;

	mp = mu_pktpool_empty(name, ops, n, JUMBO_ROOM, SOCKET_ID_ANY, flags);
	if (mp == NULL)
		return NULL;
	ret = anon ? rte_mempool_populate_anon(mp) :
		rte_mempool_populate_default(mp);
	if (ret != (int)n) {
		rte_mempool_free(mp);
		return NULL;
	}
	rte_mempool_obj_iter(mp, rte_pktmbuf_init, NULL);
	return mp;
}

/* As eal_iova(), objects of unknown IOVA counted as contiguous. */
static void
iova_known_check(struct rte_mempool *mp, void *arg, void *obj, unsigned int i)
{
	if (rte_mempool_virt2iova(obj) == RTE_BAD_IOVA)
		return;
	iova_check_obj(mp, arg, obj, i);
}

static int
test_jumbo_populate_variants(void)
{
	static const struct {
		const char *name;
		unsigned int flags;
		int anon;
	} v[] = {
		{ "default", 0, 0 },
		{ "anon", 0, 1 },
		{ "no_iova_contig", RTE_MEMPOOL_F_NO_IOVA_CONTIG, 0 },
		{ "no_iova_contig_anon", RTE_MEMPOOL_F_NO_IOVA_CONTIG, 1 },
	};
	struct rte_mempool *mp;
	struct iova_check c;
	unsigned int i, n = 600;
	int ring_ok, ret = TEST_SUCCESS;

	for (i = 0; i < RTE_DIM(v); i++) {
		mp = jumbo_pool_by("jv_ring", "ring_mp_mc", n, v[i].flags,
				   v[i].anon);
		ring_ok = mp != NULL;
		rte_mempool_free(mp);
		mp = jumbo_pool_by("jv_mbufx", MU_OPS, n, v[i].flags,
				   v[i].anon);
		printf("jumbo pool, %s: ring %s, mbufx %s\n", v[i].name,
		       ring_ok ? "populated" : "failed",
		       mp != NULL ? "populated" : "failed");
		if (mp == NULL) {
			TEST_EXPECT(ret, !ring_ok, "%s: the ring driver "
				    "populates this pool", v[i].name);
			continue;
		}
		c = (struct iova_check){ 0, 0, eal_iova };
		rte_mempool_obj_iter(mp, iova_known_check, &c);
		printf("    %u chunks, %u of %u checked objects not "
		       "IOVA-contiguous\n", mp->nb_mem_chunks, c.bad, c.n);
		TEST_EXPECT_EQUAL(ret, c.bad, 0, "%s: objects not "
				  "IOVA-contiguous", v[i].name);
		if (mu_check_full(mp) != TEST_SUCCESS ||
		    mu_check_drain(mp, "main lcore") != TEST_SUCCESS)
			ret = TEST_FAILED;
		rte_mempool_free(mp);
	}
	return ret;
}

/*
 * The placement of a jumbo pool in IOVA-as-VA mode, as a user reads it.
 * rte_mempool_populate_default() sizes and populates a pool chunk by chunk
 * (halving its reservations on ENOMEM); pool_step() is one of its steps, done
 * by hand so that the chunks are known: ask the driver for the size of the
 * rest, reserve at most step bytes, populate them. (The driver's pool state
 * exists from the first populate on, so the first step is sized by the
 * default rule: page-bounded, as under a fragmented heap.)
 */
static void
step_mz_free(struct rte_mempool_memhdr *memhdr, void *opaque)
{
	RTE_SET_USED(memhdr);
	rte_memzone_free(opaque);
}

static int
pool_step(struct rte_mempool *mp, size_t step, unsigned int id)
{
	const struct rte_mempool_ops *ops = rte_mempool_get_ops(mp->ops_index);
	const struct rte_memzone *mz;
	size_t min_chunk, align, pg = RTE_PGSIZE_2M;
	char name[RTE_MEMZONE_NAMESIZE];
	unsigned int flags = 0;
	ssize_t sz;
	int n;

	sz = ops->calc_mem_size(mp, mp->size - mp->populated_size,
				rte_bsf64(pg), &min_chunk, &align);
	if (sz < 0)
		return (int)sz;
	if (min_chunk == (size_t)sz)
		flags = RTE_MEMZONE_IOVA_CONTIG;
	snprintf(name, sizeof(name), "%s_s%u", mp->name, id);
	mz = rte_memzone_reserve_aligned(name, RTE_MIN((size_t)sz, step),
					 mp->socket_id, flags, align);
	if (mz == NULL)
		return -rte_errno;
	if (flags != 0)
		n = rte_mempool_populate_iova(mp, mz->addr, mz->iova, mz->len,
					      step_mz_free, (void *)(uintptr_t)mz);
	else
		n = rte_mempool_populate_virt(mp, mz->addr, mz->len, pg,
					      step_mz_free, (void *)(uintptr_t)mz);
	if (n <= 0)
		rte_memzone_free(mz);
	return n;
}

/* An empty jumbo-class pktmbuf pool on the driver, populated step by step. */
static struct rte_mempool *
jumbo_pool_steps(const char *name, unsigned int n, int socket, size_t step)
{
	struct rte_mempool *mp;
	unsigned int id = 0;

	mp = mu_pktpool_empty(name, MU_OPS, n, JUMBO_ROOM, socket, 0);
	if (mp == NULL)
		return NULL;
	while (mp->populated_size < mp->size)
		if (pool_step(mp, step, id++) <= 0) {
			rte_mempool_free(mp);
			return NULL;
		}
	rte_mempool_obj_iter(mp, rte_pktmbuf_init, NULL);
	return mp;
}

/* Lines of the log text buf about pool name that contain what. */
static unsigned int
log_lines_of(const char *buf, const char *name, const char *what)
{
	char key[RTE_MEMPOOL_NAMESIZE + 32];
	const char *p = buf, *eol, *w;
	unsigned int k = 0;

	snprintf(key, sizeof(key), "mbufx_mempool: pool %s:", name);
	while ((p = strstr(p, key)) != NULL) {
		eol = strchr(p, '\n');
		if (eol == NULL)
			eol = p + strlen(p);
		w = what == NULL ? p : strstr(p, what);
		if (w != NULL && w < eol)
			k++;
		p = eol;
	}
	return k;
}

/* A jumbo pool on external memory, populated in steps: one placement line. */
static int
placement_logged_once(void)
{
	struct mu_ext_heap heap;
	struct rte_mempool *mp;
	int logtype, level, ret = TEST_SUCCESS;
	unsigned int lines, placement;
	char *log;

	TEST_RUN(mu_ext_heap_create(&heap, "mbufx_place"));
	logtype = rte_log_register("pmd.mempool.mbufx");
	level = rte_log_get_level(logtype);
	rte_log_set_level(logtype, RTE_LOG_DEBUG);
	mu_log_start();
	/* 1024 x 9.5 KiB in 2 MiB steps: every step past the first probes */
	mp = jumbo_pool_steps("place_ext", 1024, heap.socket, RTE_PGSIZE_2M);
	log = mu_log_stop();
	rte_log_set_level(logtype, level);
	TEST_EXPECT_NOT_NULL(ret, log, "log capture");
	TEST_EXPECT_NOT_NULL(ret, mp, "place_ext: %s", rte_strerror(rte_errno));
	if (mp != NULL && log != NULL) {
		lines = log_lines_of(log, "place_ext", NULL);
		placement = log_lines_of(log, "place_ext", "placement");
		printf("place_ext: %u chunks, %u log lines, %u on placement:"
		       "\n%s", mp->nb_mem_chunks, lines, placement, log);
		TEST_EXPECT_EQUAL(ret, placement, 1, "placement log lines");
		if (mu_check_full(mp) != TEST_SUCCESS)
			ret = TEST_FAILED;
	}
	free(log);
	rte_mempool_free(mp);
	if (mu_ext_heap_destroy(&heap) != TEST_SUCCESS)
		ret = TEST_FAILED;
	return ret;
}

/*
 * A jumbo pool populated in steps of step bytes: its number of chunks and
 * /mbufx/pool's iova_contig_pool for it.
 */
static int
placement_chunks(const char *name, size_t step, unsigned int chunks,
		 long long contig)
{
	struct rte_mempool *mp;
	long long c;
	int ret = TEST_SUCCESS;

	mp = jumbo_pool_steps(name, 512, SOCKET_ID_ANY, step);
	TEST_ASSERT_NOT_NULL(mp, "%s: %s", name, rte_strerror(rte_errno));
	c = mu_tel_pool_field(name, "iova_contig_pool", NULL, 0);
	printf("%s: %u chunks, iova_contig_pool %lld\n", name,
	       mp->nb_mem_chunks, c);
	TEST_EXPECT_EQUAL(ret, mp->nb_mem_chunks, chunks, "chunks of %s", name);
	TEST_EXPECT_EQUAL(ret, c, contig,
			  "iova_contig_pool of %s (-1: no telemetry)", name);
	if (mu_check_full(mp) != TEST_SUCCESS)
		ret = TEST_FAILED;
	rte_mempool_free(mp);
	return ret;
}

/*
 * IOVA-as-VA mode. A pool whose memory has no IOVA-contiguous run falls back
 * to page-bounded placement and says so in ONE log line, however many steps
 * populate it (OVS rate-limits DPDK's log: one line per step drowned its
 * other messages). And iova_contig_pool describes the pool: 1 for a pool in
 * one IOVA-contiguous chunk, 0 for one of two chunks even when each chunk is
 * packed.
 */
static int
test_jumbo_placement_va(void)
{
	int ret = TEST_SUCCESS;

	if (rte_eal_iova_mode() != RTE_IOVA_VA) {
		printf("IOVA mode PA: the one-chunk placement is VA mode's\n");
		return TEST_SKIPPED;
	}
	/*
	 * External memory, no two pages IOVA-contiguous: every probe fails
	 * (without hugepages the EAL calls such memory contiguous).
	 */
	if (rte_eal_has_hugepages())
		ret = placement_logged_once();
	/* the EAL's memory: one chunk, then the same pool in two chunks */
	if (placement_chunks("place_one", SIZE_MAX, 1, 1) != TEST_SUCCESS)
		ret = TEST_FAILED;
	/* 512 x 9.5 KiB = 4.7 MiB in 3 MiB steps: two packed chunks */
	if (placement_chunks("place_two", 3u << 20, 2, 0) != TEST_SUCCESS)
		ret = TEST_FAILED;
	return ret;
}

static const struct mbufx_test_suite jumbo_suite = {
	.name = "mempool_mbufx_jumbo",
	.cases = {
		MBUFX_TEST_CASE(test_jumbo_contig),
		MBUFX_TEST_CASE(test_jumbo_external_memory),
		MBUFX_TEST_CASE(test_jumbo_populate_variants),
		MBUFX_TEST_CASE(test_jumbo_placement_va),
		MBUFX_TEST_CASES_END(),
	},
};

static int
test_mempool_mbufx_jumbo(void)
{
	return mbufx_test_suite_run(&jumbo_suite);
}

MBUFX_TEST_REGISTER(mempool_mbufx_jumbo_autotest, test_mempool_mbufx_jumbo);
