/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The mbufx authors
 */

/*
 * Buffer pools of the sample apps: one mbufx zone set per NUMA socket that has
 * an enabled port (or one per port with --per-port-pool), each holding a 2K
 * packet zone, a jumbo zone and a small header zone.
 *
 * Which zone feeds a port's receive queues is decided here, once:
 *
 *   largest frame + headroom <= packet-zone room   -> packet zone
 *   larger, --scatter                              -> packet zone, Rx scatter
 *   larger                                         -> jumbo zone, one segment
 *
 * --pool-ops NAME builds the same zone sets on a stock mempool driver, so the
 * same binary measures mbufx against ring_mp_mc. At exit app_pools_audit()
 * checks that every zone is full again and names the zones that are not.
 */

#ifndef APP_POOLS_H
#define APP_POOLS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include <rte_ethdev.h>
#include <rte_mempool.h>

#include <mbufx.h>

#include "app_opts.h"

/** What the app needs from its pools. */
struct app_pool_req {
	uint64_t portmask;	/**< enabled ports */
	uint32_t max_frame;	/**< longest frame received, bytes (no CRC) */
	uint32_t auto_mbufs;	/**< mbufs one zone set needs for rings and caches */
	bool per_port;		/**< one zone set per port instead of per socket */
	bool no_numa;		/**< everything on socket 0 */
};

/**
 * Packet-zone mbufs a zone set needs when nothing else is said: every Rx
 * descriptor (@p nb_rxd_total over all queues), the Tx ring of each of
 * @p nb_lcores queues on each of @p nb_ports ports (@p nb_txd descriptors),
 * each lcore's Tx buffers and mempool cache, and a reserve.
 */
uint32_t app_pools_auto_mbufs(unsigned int nb_rxd_total, unsigned int nb_ports,
			      unsigned int nb_lcores, unsigned int nb_txd);

/**
 * Create the zone sets. Prints the reason and returns a negative errno on
 * failure (the caller exits before starting any port).
 */
int app_pools_create(const struct app_common_opts *o, const struct app_pool_req *req);

/** Zone set that serves allocations for packets received on @p port. */
struct mbufx_zone_set *app_pools_of_port(uint16_t port);

/** Pool that feeds the receive queues of @p port (see the table above). */
struct rte_mempool *app_pools_rx_pool(uint16_t port);

/** True when the receive queues of @p port need Rx scatter. */
bool app_pools_rx_scatter(uint16_t port);

/** Number of distinct receive pools over all enabled ports. */
unsigned int app_pools_nb_rx_pools(void);

/** Append "zone in-use/total" of every zone set to @p buf (for stats lines). */
int app_pools_format_use(char *buf, size_t len);

/** Print the netstat -m like view of every zone set. */
void app_pools_dump(FILE *f);

/** Write the zone sets as a JSON array (for --summary). */
void app_pools_json(FILE *f);

/**
 * Check that every zone is full again. Prints a line per zone with mbufs
 * still out. @return 0, or -EBUSY when something leaked.
 */
int app_pools_audit(FILE *f);

/** Free every zone set. */
void app_pools_free(void);

#endif /* APP_POOLS_H */
