/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The mbufx authors
 */

/*
 * The forwarding core of mbufx-l2fwd (MAC update, VLAN push and pop,
 * mirroring), callable without ports.
 *
 * How to drive it (the app does it per lcore; a test or fuzz harness in one
 * thread after rte_eal_init()):
 *
 *   1. Fill a table of RTE_MAX_ETHPORTS struct l2fwd_port_conf: for each
 *      input port its output port (dst), whether frames sent on it are
 *      tagged (push, push_tci) or untagged (pop), and whether frames
 *      received on it are mirrored (mirror, mirror_port, mirror_tci).
 *   2. l2fwd_ctx_init(&ctx, ports, mac_updating, src_macs, drop) with the
 *      source MAC of every port (NULL: zeros) and at least L2FWD_DROP_MAX
 *      drop counters indexed by enum l2fwd_drop.
 *   3. Per burst received on a port:
 *        struct l2fwd_rx rx = { .zs = zs, .port = 0 };
 *        dropped = l2fwd_process_burst(&ctx, &rx, pkts, n, &out);
 *      Every input mbuf is consumed: freed and counted in ctx.drop[reason]
 *      (the return value is how many), or handed back in out.m[0 .. out.n)
 *      with its output port in out.port[] (a mirrored frame twice). The
 *      zone set in rx serves the fan-out copies, tags and pullups.
 *      ctx.cnt counts tags pushed and popped and mirror copies.
 */

#ifndef L2FWD_CORE_H
#define L2FWD_CORE_H

#include <stdint.h>

#include <rte_ether.h>
#include <rte_mbuf.h>

#include <mbufx.h>

#include "l2fwd.h"

/** Most packets l2fwd_process_burst() takes at once. */
#define L2FWD_BURST_MAX 64
/** Most packets it hands back (each frame forwarded and mirrored). */
#define L2FWD_OUT_MAX (2 * L2FWD_BURST_MAX)

/** The port a burst came from. */
struct l2fwd_rx {
	struct mbufx_zone_set *zs;	/**< zone set for copies, tags, pullups */
	uint16_t port;
};

/** Forwarding context of one thread. */
struct l2fwd_ctx {
	const struct l2fwd_port_conf *port;	/**< [RTE_MAX_ETHPORTS] */
	bool mac_updating;			/**< rewrite MACs as l2fwd does */
	uint64_t *drop;				/**< [L2FWD_DROP_MAX] */
	struct l2fwd_counters cnt;
	struct rte_ether_addr src_mac[RTE_MAX_ETHPORTS];
};

/** Output of one burst: packets and their output ports, in order. */
struct l2fwd_out {
	uint16_t n;
	uint16_t port[L2FWD_OUT_MAX];
	struct rte_mbuf *m[L2FWD_OUT_MAX];
};

/**
 * Set up @p c (zeroed counters).
 * @param ports per-port configuration, RTE_MAX_ETHPORTS entries (kept)
 * @param src_mac source MAC of each port, or NULL for zeros
 * @param drop drop counters, at least L2FWD_DROP_MAX entries (kept)
 */
void l2fwd_ctx_init(struct l2fwd_ctx *c, const struct l2fwd_port_conf *ports,
		    bool mac_updating, const struct rte_ether_addr *src_mac, uint64_t *drop);

/**
 * Forward a burst received on @p rx->port (see the top of this file).
 * @param n at most L2FWD_BURST_MAX
 * @return packets dropped (freed and counted by reason).
 */
uint16_t l2fwd_process_burst(struct l2fwd_ctx *c, const struct l2fwd_rx *rx,
			     struct rte_mbuf **pkts, uint16_t n, struct l2fwd_out *out);

#endif /* L2FWD_CORE_H */
