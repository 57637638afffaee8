/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The mbufx authors
 */

#ifndef MBUFX_STATS_H
#define MBUFX_STATS_H

/**
 * @file
 * mbufx zone-set counters, the netstat -m like dump, telemetry.
 *
 * Counters are kept per lcore inside the zone set and summed on read, so
 * the data path never executes an atomic instruction for them (non-EAL
 * threads share one slot that is updated atomically). They count what the
 * library does: mbufs a PMD takes from a zone pool directly are not in
 * alloc[] (the mempool driver's own statistics count those), late-attach
 * activity comes from the rx contexts bound to the zone pools
 * (mbufx_rx_stats_sum()).
 *
 * Telemetry (rte_telemetry, e.g. usertools/dpdk-telemetry.py):
 * - /mbufx/zones: list of zone-set names;
 * - /mbufx/zone,NAME: one zone set as a JSON dictionary with the fields of
 *   struct mbufx_zone_stats (per-zone arrays as hdr/pkt/jumbo).
 * The mempool driver registers its own commands under /mbufx/ as well
 * (/mbufx/pools, ...); these two names are the library's.
 */

#include <stdint.h>
#include <stdio.h>

#include "mbufx_zone.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Counters and occupancy of a zone set, summed over all lcores. */
struct mbufx_zone_stats {
	/* occupancy, read from the pools (0 for a disabled zone) */
	uint32_t size[MBUFX_ZONE_NUM];	/**< objects per zone */
	uint32_t avail[MBUFX_ZONE_NUM];	/**< free, caches included */
	uint32_t in_use[MBUFX_ZONE_NUM]; /**< size - avail */
	uint16_t data_room[MBUFX_ZONE_NUM]; /**< data room, headroom incl. */

	/* allocation */
	uint64_t alloc[MBUFX_ZONE_NUM];	/**< mbufs taken by the library */
	uint64_t alloc_fail;		/**< mbufx_alloc*() returning ENOMEM */
	uint64_t jumbo_fallback;	/**< jumbo requests served as chains */
	uint64_t pkt_fallback;		/**< packet requests served by jumbo */

	/* prepend, pullup, fan-out */
	uint64_t prepend_inplace;	/**< into writable leading space */
	uint64_t prepend_chained;	/**< a header mbuf was chained */
	uint64_t pullup_noop;		/**< already contiguous */
	uint64_t pullup_inplace;	/**< no allocation */
	/** an mbuf was allocated: a fresh first segment, or an indirect
	 * mbuf replacing a shared segment structure */
	uint64_t pullup_alloc;
	uint64_t fanout_hdr_alloc;	/**< header mbufs allocated */
	uint64_t fanout_hdr_saved;	/**< copies served by the original */
	uint64_t fanout_deep;		/**< copies made as private copies */
	uint64_t fanout_indirect;	/**< indirect mbufs sharing payload */

	/* late attach (mbufx_rx contexts bound to the zone pools) */
	uint64_t rx_refilled[MBUFX_ZONE_NUM];	/**< bare buffers handed out */
	uint64_t rx_attached[MBUFX_ZONE_NUM];	/**< buffers turned into mbufs */
	uint64_t rx_returned[MBUFX_ZONE_NUM];	/**< bare buffers given back */
	uint32_t rx_contexts[MBUFX_ZONE_NUM];	/**< live rx contexts */
};

/**
 * Read a zone set's counters and occupancy.
 *
 * The sum is not a snapshot: lcores keep counting while it is taken.
 *
 * @param zs
 *   Zone set.
 * @param st
 *   Filled on success.
 * @return
 *   0, or -EINVAL when zs or st is NULL.
 */
int mbufx_zone_set_stats(const struct mbufx_zone_set *zs,
		struct mbufx_zone_stats *st);

/**
 * Reset a zone set's counters to zero (occupancy is not a counter). Not
 * synchronised with lcores counting at the same time.
 *
 * @param zs
 *   Zone set.
 * @return
 *   0, or -EINVAL when zs is NULL.
 */
int mbufx_zone_set_stats_reset(struct mbufx_zone_set *zs);

/**
 * Print a zone set in the manner of FreeBSD's netstat -m: per zone the
 * mbufs in use / free / total, the data room and memory, then the
 * allocation, fallback, prepend, pullup, fan-out and late-attach counters.
 *
 * @param f
 *   Output stream (NULL = stdout).
 * @param zs
 *   Zone set; NULL prints every zone set.
 */
void mbufx_zone_set_dump(FILE *f, const struct mbufx_zone_set *zs);

#ifdef __cplusplus
}
#endif

#endif /* MBUFX_STATS_H */
