/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The mbufx authors
 */

/* Autotests of the mbufx mempool driver (placeholder until the driver lands). */

#include <rte_mbuf.h>
#include <rte_mempool.h>

#include "mbufx_test.h"

static int
test_pool_basic(void)
{
	struct rte_mempool *mp;
	struct rte_mbuf *m[8];

	mp = rte_pktmbuf_pool_create_by_ops("t_basic", 1023, 0, 0, 2176,
					    SOCKET_ID_ANY, "mbufx");
	TEST_ASSERT_NOT_NULL(mp, "pool create");
	TEST_ASSERT_SUCCESS(rte_pktmbuf_alloc_bulk(mp, m, 8), "alloc");
	TEST_ASSERT_EQUAL(rte_mempool_avail_count(mp), 1015, "count");
	rte_pktmbuf_free_bulk(m, 8);
	TEST_ASSERT_EQUAL(rte_mempool_avail_count(mp), 1023, "count");
	rte_mempool_free(mp);
	return TEST_SUCCESS;
}

static const struct mbufx_test_suite mempool_mbufx_suite = {
	.name = "mempool_mbufx",
	.cases = {
		MBUFX_TEST_CASE(test_pool_basic),
		MBUFX_TEST_CASES_END(),
	},
};

static int
test_mempool_mbufx(void)
{
	return mbufx_test_suite_run(&mempool_mbufx_suite);
}

MBUFX_TEST_REGISTER(mempool_mbufx_autotest, test_mempool_mbufx);
