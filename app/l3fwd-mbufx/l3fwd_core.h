/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The mbufx authors
 */

/*
 * The forwarding core of mbufx-l3fwd, callable without ports.
 *
 * How to drive it (what the app does per lcore, what a test or fuzz harness
 * does in one thread after rte_eal_init()):
 *
 *   1. Configure and load the routes into the global `l3fwd`:
 *        l3fwd.lookup = L3FWD_LOOKUP_LPM;   (or _EM)
 *        l3fwd.portmask = 0x3;              (ports rules may name)
 *        l3fwd.rule_v4 = "r4.txt";          (NULL: 198.18.P.0/24 -> P)
 *        l3fwd.rule_v6 = NULL;
 *        l3fwd.max_frame = 1514;            (--max-pkt-len minus CRC)
 *        l3fwd_routes_load();               (< 0: bad rule, printed)
 *      and build the tables of a socket: l3fwd_lpm_build(0) or
 *      l3fwd_em_build(0) (after l3fwd_routes_load(); free them with
 *      l3fwd_tables_free()).
 *   2. l3fwd_ctx_init(&ctx, 0, src_macs, drop) with a zeroed ctx, the
 *      source MAC of every port (NULL: zeros) and an array of at least
 *      L3FWD_DROP_MAX drop counters indexed by enum l3fwd_drop.
 *   3. Per burst received on a port (any mbufs: the core allocates only
 *      from the zone set given in rx, for pullup, encapsulation and
 *      multicast copies):
 *        struct l3fwd_rx rx = { .zs = zs, .port = 0, .sw_ptype = true };
 *        dropped = l3fwd_process_burst(&ctx, &rx, pkts, n, &out);
 *      Every input mbuf is consumed: either freed and counted in
 *      ctx.drop[reason] (the return value is how many), or handed back in
 *      out.m[0 .. out.n) with its output port in out.port[] (multicast:
 *      one entry per copy), with their bytes (out.bytes), out.segs == 1
 *      when none is a chain, and out.port_or == out.port_and when all go
 *      to one port. The caller sends or frees those (out.m may be pkts
 *      itself). out.rx_bytes and out.rx_chains count the input burst.
 *   4. l3fwd_ctx_free(&ctx); l3fwd_tables_free().
 *
 * The burst is processed in three passes so that each step works on many
 * packets: (1) classify and check (RFC 1812, rfc1812.h) with the packet data
 * prefetched ahead, dropping with a reason; (2) route lookups of the
 * survivors, four IPv4 addresses at a time (from the tbl24 entries of
 * rte_lpm when all four routes are there, else rte_lpm_lookupx4) or one bulk
 * hash lookup (rte_hash_lookup_bulk); (3) TTL / hop-limit decrement with an
 * incremental checksum and the Ethernet rewrite (a 12-byte copy of the
 * precomputed MAC pair of the output port), or encapsulation, or multicast
 * fan-out. The header parsed in (1) is passed to (2) and (3), never looked
 * up again.
 *
 * The common packet (a frame within the MTU, Ethernet and a 20-byte IPv4
 * header to a unicast destination in its first segment, a direct mbuf with
 * no other reference, every check passed) takes a short path in (1), with
 * the port's classification and checksum modes compiled in, four packets at
 * a time (rfc1812.h), its TTL and checksum updated there. Under LPM the
 * three steps run per group of four in one loop: (1) on the group, then
 * (2) and (3) on it in order, without the per-packet family and index
 * indirections and without a multicast test. The output's count, bytes,
 * chain and one-port summaries are kept in registers during the burst and
 * written once at its end (the one-port summary and the plain-rewrite test
 * are one OR per packet: struct l3fwd_hop). When every packet is taken and
 * rewritten in place (no drop, no encapsulation: the usual burst), the
 * output is the input array itself, its bytes and chains those (1) summed.
 * At the first group of four that is not, the rest of the burst gets (1)
 * and goes on out of line, through the general classifier for the packets
 * the short path left, into the output's own array, after the packets
 * already forwarded. Under EM, (1) runs over the burst, then the rest.
 */

#ifndef L3FWD_CORE_H
#define L3FWD_CORE_H

#include <stdint.h>

#include <rte_ether.h>
#include <rte_mbuf.h>

#include <mbufx.h>

#include "l3fwd.h"

/** Most packets l3fwd_process_burst() takes at once. */
#define L3FWD_BURST_MAX 64
/** Most packets it can hand back (every one a full multicast fan-out). */
#define L3FWD_OUT_MAX (L3FWD_BURST_MAX * L3FWD_MAX_MCAST_PORTS)

/** Destination and source MAC of an output port, as written into a frame. */
struct l3fwd_eth {
	uint8_t b[2 * RTE_ETHER_ADDR_LEN];
};

/** Output port bits of struct l3fwd_hop.mix. */
#define L3FWD_HOP_PORT 0x7fffu
/** Set in struct l3fwd_hop.mix when the hop is not a plain rewrite. */
#define L3FWD_HOP_NOT_PLAIN 0x8000u

/**
 * What the rewrite of a unicast packet needs of its next hop, in 16 bytes.
 * mix holds the output port (bits 0-14, L3FWD_HOP_PORT),
 * L3FWD_HOP_NOT_PLAIN for a hop that is not a plain MAC rewrite (an
 * encapsulation, or the entry c->hop[c->nb_nh] that stands for "no
 * route"), and the complement of the port in bits 16-31: the OR of the
 * mix words of a burst's hops is at once the OR of their ports (low
 * bits), the complement of the AND of their ports (high half) and whether
 * any is not plain, one operation per packet.
 */
struct l3fwd_hop {
	uint8_t eth[2 * RTE_ETHER_ADDR_LEN];	/**< MACs of the output port */
	uint32_t mix;				/**< see above */
};

/** What the core needs to know about the port a burst came from. */
struct l3fwd_rx {
	struct mbufx_zone_set *zs;	/**< zone set for pullup, encap, copies */
	uint16_t port;			/**< input port (multicast never sends back) */
	bool sw_ptype;			/**< classify in software (else packet_type) */
	bool rx_cksum;			/**< ol_flags carry a valid IPv4 cksum verdict */
};

/** What each next hop counts, in the order of struct l3fwd_ctx's counters. */
enum l3fwd_route_ctr {
	L3FWD_ROUTE_PKTS,		/**< packets (multicast: copies) sent */
	L3FWD_ROUTE_ENCAP_INPLACE,	/**< encapsulations in the headroom */
	L3FWD_ROUTE_ENCAP_CHAINED,	/**< encapsulations in a chained header */
	L3FWD_ROUTE_CTR_MAX,
};

/** Forwarding context: tables, next hops, MACs and counters of one thread. */
struct l3fwd_ctx {
	const struct l3fwd_tables *t;	/**< lookup tables of the thread's socket */
	const struct l3fwd_nh *nh;	/**< next hops (l3fwd.nh) */
	uint32_t nb_nh;
	enum l3fwd_lookup lookup;
	uint32_t max_frame;		/**< longest frame accepted (no CRC) */
	uint32_t def4;			/**< LPM miss: the /0 route, else nb_nh */
	unsigned int front_flags;	/**< APP_FRONT_CHAIN with --encap-chain */
	uint64_t *drop;			/**< [L3FWD_DROP_MAX] by enum l3fwd_drop */
	/** Route counters (enum l3fwd_route_ctr): counter k of next hop i
	 * is nh_pkts[k * nb_nh + i]; the other two point into the same array. */
	uint64_t *nh_pkts;		/**< [nb_nh] packets (copies) per next hop */
	uint64_t *nh_inplace;		/**< [nb_nh] encapsulations in the headroom */
	uint64_t *nh_chained;		/**< [nb_nh] encapsulations chained */
	struct l3fwd_hop *hop;		/**< [nb_nh + 1] from nh[] and eth[] */
	struct l3fwd_eth eth[RTE_MAX_ETHPORTS];	/**< per output port */
};

/**
 * Output of one burst: packets and their output ports, in order, with what
 * the caller needs to send them without another pass: their bytes, and
 * whether they all go to one port (port_or == port_and: all to port[0]).
 * Also what the caller counts of the input burst, summed on the way.
 */
struct l3fwd_out {
	uint16_t n;
	uint16_t port_or;		/**< OR of port[0 .. n) (0 when n is 0) */
	uint16_t port_and;		/**< AND of port[0 .. n) (all ones when n is 0) */
	uint32_t bytes;			/**< sum of m[i]->pkt_len */
	uint16_t segs;			/**< OR of m[i]->nb_segs (1: no chain) */
	uint16_t rx_chains;		/**< input packets that were chains */
	uint32_t rx_bytes;		/**< sum of the input packets' pkt_len */
	/**
	 * The packets: the caller's own pkts array when every packet was
	 * forwarded in place, unicast (the usual burst: nothing copied), else
	 * buf. Valid until the next call or until pkts is reused.
	 */
	struct rte_mbuf **m;
	uint16_t port[L3FWD_OUT_MAX];
	struct rte_mbuf *buf[L3FWD_OUT_MAX];
};

/**
 * Set up @p c for the tables of @p socket and the loaded next hops
 * (l3fwd.nh), with zeroed per-next-hop counters. Change a MAC in c->eth[]
 * later with l3fwd_ctx_set_mac().
 * @param src_mac source MAC of each port (RTE_MAX_ETHPORTS entries), or NULL
 * @param drop drop counters, at least L3FWD_DROP_MAX entries
 * @return 0, -EINVAL (no routes loaded, no tables for @p socket) or -ENOMEM.
 */
int l3fwd_ctx_init(struct l3fwd_ctx *c, int socket, const struct rte_ether_addr *src_mac,
		   uint64_t *drop);

/** Set the source MAC of @p port in @p c (and in its next hops). */
void l3fwd_ctx_set_mac(struct l3fwd_ctx *c, uint16_t port, const struct rte_ether_addr *src);

/** Free the counters of @p c. */
void l3fwd_ctx_free(struct l3fwd_ctx *c);

/**
 * Forward a burst received on @p rx->port (see the top of this file).
 * @param n at most L3FWD_BURST_MAX
 * @return packets dropped (freed and counted by reason).
 */
uint16_t l3fwd_process_burst(struct l3fwd_ctx *c, const struct l3fwd_rx *rx,
			     struct rte_mbuf **pkts, uint16_t n, struct l3fwd_out *out);

/**
 * Replace the Ethernet header of @p *m (L3 of @p l3_len bytes at offset 14,
 * TTL @p ttl) by the next hop's Ethernet + encapsulation header.
 * @return the new Ethernet header (MACs not written), or NULL when no header
 * mbuf was available (packet unchanged).
 */
struct rte_ether_hdr *l3fwd_encap(struct l3fwd_ctx *c, struct mbufx_zone_set *zs,
				  uint32_t nh_idx, struct rte_mbuf **m, uint32_t l3_len,
				  uint8_t ttl, bool v6);

#endif /* L3FWD_CORE_H */
