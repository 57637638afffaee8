/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The mbufx authors
 */

/*
 * The library across processes whose mempool ops numberings differ.
 *
 *   mbufx_mp_autotest   (the primary; it starts this same runner as
 *                        secondaries, MBUFX_MP_ROLE telling each what to do)
 *
 * A pool stores only its ops index; each process numbers its drivers in the
 * order it registers them. The primary creates a zone set on the mbufx
 * driver and one on the stock ring driver, then:
 * - a secondary that numbers its drivers as the primary does finds both
 *   sets, reads their counters, and mbufx_pool_ops_check() accepts every
 *   pool;
 * - a secondary given one more driver with -d (registered before the
 *   plugin directory, so the ring driver moves up) is refused the ring zone
 *   set (EXDEV from lookup and mbufx_pool_ops_check(), a zone set it
 *   creates on ring ops is refused too) but still finds the mbufx set,
 *   which this runner links (index 0 in both processes).
 * The expectation is computed from the primary's record, not assumed: a
 * platform on which the extra driver does not move the ring driver skips.
 *
 * MBUFX_MP_ROLE=foreign is for test/dpdk/multi-process.sh: this runner as a
 * secondary of dpdk-testpmd, which numbers mbufx differently; testpmd's
 * mb_pool_0 must be refused, and so must an mbufx pool created here.
 */

#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* dl_iterate_phdr() */
#endif
#include <dlfcn.h>
#include <errno.h>
#include <libgen.h>
#include <link.h>
#include <stdlib.h>
#include <string.h>

#include <rte_eal.h>
#include <rte_errno.h>
#include <rte_mbuf.h>
#include <rte_memzone.h>
#include <rte_mempool.h>

#include "mbufx.h"
#include "mbufx_test.h"
#include "test_mbufx_util.h"
#include "test_mempool_mbufx_util.h"

#define TEST_NAME "mbufx_mp_autotest"
#define SET_MBUFX "mpx_m"
#define SET_RING "mpx_r"
#define SECONDARY_SKIP TEST_SKIPPED

static struct mbufx_zone_set *zs_mbufx, *zs_ring;

/* Would this process call another driver on mp than the primary does? */
static int
numbering_differs(const struct rte_mempool *mp)
{
	const struct rte_memzone *mz = rte_memzone_lookup(MBUFX_OPS_RECORD_MZ);
	const char *rec;

	if (mz == NULL)
		return -1;
	rec = (const char *)mz->addr +
		(size_t)mp->ops_index * RTE_MEMPOOL_OPS_NAMESIZE;
	return strcmp(rec, rte_mempool_get_ops(mp->ops_index)->name) != 0;
}

/* A small zone set, packet zone only, on ops. */
static struct mbufx_zone_set *
zs_small(const char *name, const char *ops)
{
	struct mbufx_zone_params p;

	mbufx_zone_params_init(&p);
	p.ops_name = ops;
	p.flags = MBUFX_ZONE_F_NO_JUMBO | MBUFX_ZONE_F_NO_HDR;
	p.count[MBUFX_ZONE_PKT] = 63;
	p.cache[MBUFX_ZONE_PKT] = MBUFX_ZONE_CACHE_NONE;
	return mbufx_zone_set_create(name, SOCKET_ID_ANY, &p);
}

/* Same numbering as the primary: everything works. */
static int
secondary_same(void)
{
	struct mbufx_zone_stats st;
	struct mbufx_zone_set *zs;
	unsigned int z;

	zs = mbufx_zone_set_lookup(SET_MBUFX);
	TEST_ASSERT_NOT_NULL(zs, "lookup %s: %s", SET_MBUFX,
			     rte_strerror(rte_errno));
	zs = mbufx_zone_set_lookup(SET_RING);
	TEST_ASSERT_NOT_NULL(zs, "lookup %s: %s", SET_RING,
			     rte_strerror(rte_errno));
	TEST_ASSERT_SUCCESS(mbufx_zone_set_stats(zs, &st), "stats");
	for (z = 0; z < MBUFX_ZONE_NUM; z++)
		if (zs->pool[z] != NULL)
			TEST_ASSERT_SUCCESS(mbufx_pool_ops_check(zs->pool[z],
								 NULL),
					    "check %s", zs->pool[z]->name);
	return TEST_SUCCESS;
}

/* One more driver loaded first: the ring driver's index moved. */
static int
secondary_shifted(void)
{
	struct rte_mempool *ring_pkt;
	struct mbufx_zone_set *zs;
	int differs;

	ring_pkt = rte_mempool_lookup(SET_RING "_pkt");
	TEST_ASSERT_NOT_NULL(ring_pkt, "pool " SET_RING "_pkt");
	differs = numbering_differs(ring_pkt);
	TEST_ASSERT(differs >= 0, "the primary recorded no ops numbering");
	printf("    ring pool at ops index %d: \"%s\" here, %s in the primary\n",
	       ring_pkt->ops_index, rte_mempool_get_ops(ring_pkt->ops_index)->name,
	       differs ? "another driver" : "the same");
	if (!differs)
		return SECONDARY_SKIP;

	zs = mbufx_zone_set_lookup(SET_MBUFX);
	TEST_ASSERT_NOT_NULL(zs, "the mbufx set is numbered alike: %s",
			     rte_strerror(rte_errno));
	zs = mbufx_zone_set_lookup(SET_RING);
	TEST_ASSERT(zs == NULL && rte_errno == EXDEV,
		    "lookup of the ring set: want EXDEV, got %p (%s)",
		    (void *)zs, rte_strerror(rte_errno));
	TEST_ASSERT_EQUAL(mbufx_pool_ops_check(ring_pkt, NULL), -EXDEV,
			  "check against the record");
	TEST_ASSERT_EQUAL(mbufx_pool_ops_check(ring_pkt, "ring_mp_mc"), -EXDEV,
			  "check against the name");
	TEST_ASSERT_EQUAL(mbufx_pool_ops_check(NULL, NULL), -EINVAL, "NULL");

	/* late attach would call the wrong driver on refill and return */
	TEST_ASSERT(mbufx_rx_create(ring_pkt, 0, 0) == NULL && rte_errno == EXDEV,
		    "rx context on the misnumbered pool: want EXDEV (%s)",
		    rte_strerror(rte_errno));

	/* a zone set this process creates would be misread by the others */
	zs = zs_small("mpx_s", "ring_mp_mc");
	TEST_ASSERT(zs == NULL && rte_errno == EXDEV,
		    "create on ring ops: want EXDEV, got %p (%s)", (void *)zs,
		    rte_strerror(rte_errno));
	TEST_ASSERT_NULL(rte_mempool_lookup("mpx_s_pkt"), "pool left behind");
	return TEST_SUCCESS;
}

/* A secondary of dpdk-testpmd (test/dpdk/multi-process.sh). */
static int
secondary_foreign(void)
{
	struct rte_mempool *mp;

	mp = rte_mempool_lookup("mb_pool_0");
	TEST_ASSERT_NOT_NULL(mp, "testpmd's mb_pool_0");
	printf("    mb_pool_0 at ops index %d: \"%s\" here\n", mp->ops_index,
	       rte_mempool_get_ops(mp->ops_index)->name);
	TEST_ASSERT_EQUAL(numbering_differs(mp), 1, "numbering alike");
	TEST_ASSERT_EQUAL(mbufx_pool_ops_check(mp, NULL), -EXDEV,
			  "mb_pool_0 accepted");
	TEST_ASSERT_EQUAL(mbufx_pool_ops_check(mp, MBUFX_OPS_NAME), -EXDEV,
			  "mb_pool_0 accepted as mbufx");
	/* the driver refuses to make a pool the primary would misread */
	mp = rte_pktmbuf_pool_create_by_ops("mpx_f", 63, 0, 0,
					    RTE_MBUF_DEFAULT_BUF_SIZE,
					    SOCKET_ID_ANY, MBUFX_OPS_NAME);
	TEST_ASSERT(mp == NULL && rte_errno == EXDEV,
		    "mbufx pool created here: %p (%s)", (void *)mp,
		    rte_strerror(rte_errno));
	return TEST_SUCCESS;
}

static int
secondary_main(void)
{
	const char *role = getenv("MBUFX_MP_ROLE");

	TEST_ASSERT_NOT_NULL(role, "secondary without MBUFX_MP_ROLE");
	if (strcmp(role, "same") == 0)
		return secondary_same();
	if (strcmp(role, "shifted") == 0)
		return secondary_shifted();
	if (strcmp(role, "foreign") == 0)
		return secondary_foreign();
	TEST_FAIL_MSG("unknown role %s", role);
	return TEST_FAILED;
}

/* The directory this process loaded the stock ring driver from. */
static int
find_ring_plugin(struct dl_phdr_info *info, size_t size, void *arg)
{
	char path[PATH_MAX];
	char *dir = arg;

	RTE_SET_USED(size);
	if (strstr(info->dlpi_name, "/librte_mempool_ring.so") == NULL)
		return 0;
	snprintf(path, sizeof(path), "%s", info->dlpi_name);
	snprintf(dir, PATH_MAX, "%s", dirname(path));
	return 1;
}

static int
mp_setup(void)
{
	zs_mbufx = tu_zs_create_n(SET_MBUFX, 31, 63, 3);
	TEST_ASSERT_NOT_NULL(zs_mbufx, "create %s: %s", SET_MBUFX,
			     rte_strerror(rte_errno));
	zs_ring = zs_small(SET_RING, "ring_mp_mc");
	TEST_ASSERT_NOT_NULL(zs_ring, "create %s: %s", SET_RING,
			     rte_strerror(rte_errno));
	return TEST_SUCCESS;
}

static void
mp_teardown(void)
{
	mbufx_zone_set_free(zs_ring);
	mbufx_zone_set_free(zs_mbufx);
}

static int
test_same_numbering(void)
{
	TEST_ASSERT_EQUAL(mu_run_secondary(TEST_NAME, "same", NULL), 0,
			  "secondary numbering alike");
	return TEST_SUCCESS;
}

static int
test_other_numbering(void)
{
	static char dir[PATH_MAX], plugin[PATH_MAX + 32];
	const char *extra[] = { "-d", plugin, NULL };
	int ret;

	if (dl_iterate_phdr(find_ring_plugin, dir) == 0) {
		printf("    the ring driver is not a plugin here: skipped\n");
		return TEST_SKIPPED;
	}
	snprintf(plugin, sizeof(plugin), "%s/librte_mempool_bucket.so", dir);
	ret = mu_run_secondary(TEST_NAME, "shifted", extra);
	if (ret == SECONDARY_SKIP) {
		printf("    -d %s did not move the ring driver: skipped\n",
		       plugin);
		return TEST_SKIPPED;
	}
	TEST_ASSERT_EQUAL(ret, 0, "secondary with -d %s", plugin);
	return TEST_SUCCESS;
}

static const struct mbufx_test_suite mp_suite = {
	.name = "mbufx_mp",
	.setup = mp_setup,
	.teardown = mp_teardown,
	.cases = {
		MBUFX_TEST_CASE(test_same_numbering),
		MBUFX_TEST_CASE(test_other_numbering),
		MBUFX_TEST_CASES_END(),
	},
};

static int
test_mbufx_mp(void)
{
	if (rte_eal_process_type() == RTE_PROC_SECONDARY)
		return secondary_main();
	if (mbufx_test_no_huge()) {
		printf("secondary processes need hugepages: skipped\n");
		return TEST_SKIPPED;
	}
	return mbufx_test_suite_run(&mp_suite);
}

MBUFX_TEST_REGISTER(mbufx_mp_autotest, test_mbufx_mp);
