/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The mbufx authors
 */

/*
 * What differs between the DPDK releases the PMD builds on (22.11, 24.11,
 * 25.11), in one place; the rest of the PMD is written once.
 *
 * - 25.11 moved the per-queue counters out of struct rte_eth_stats into a
 *   struct eth_queue_stats that ethdev passes beside it (NULL when the
 *   caller wants totals only). The PMD fills a mbufx_xdp_qstats, which is
 *   that struct on 25.11 and rte_eth_stats itself before; the same field
 *   names exist in both. MBUFX_XDP_STATS_GET(fn) defines the ops entry
 *   fn_op() with the release's signature around
 *   int fn(struct rte_eth_dev *, struct rte_eth_stats *, mbufx_xdp_qstats *).
 */
#ifndef MBUFX_XDP_COMPAT_H
#define MBUFX_XDP_COMPAT_H

#include <ethdev_driver.h>
#include <rte_version.h>

#if RTE_VERSION >= RTE_VERSION_NUM(25, 11, 0, 0)
typedef struct eth_queue_stats mbufx_xdp_qstats;
#define MBUFX_XDP_STATS_GET(fn) \
static int \
fn##_op(struct rte_eth_dev *dev, struct rte_eth_stats *s, \
	struct eth_queue_stats *qs) \
{ \
	return fn(dev, s, qs); \
}
#else
typedef struct rte_eth_stats mbufx_xdp_qstats;
#define MBUFX_XDP_STATS_GET(fn) \
static int \
fn##_op(struct rte_eth_dev *dev, struct rte_eth_stats *s) \
{ \
	return fn(dev, s, s); \
}
#endif

#endif /* MBUFX_XDP_COMPAT_H */
