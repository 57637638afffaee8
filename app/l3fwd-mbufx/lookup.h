/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The mbufx authors
 */

/*
 * Route lookups of the fast path, inline: longest prefix match (rte_lpm,
 * rte_lpm6) or exact match on the 5-tuple (rte_hash). Both return an index
 * into l3fwd.nh[], or L3FWD_NO_ROUTE. Tables are built by lpm.c and em.c.
 */

#ifndef L3FWD_LOOKUP_H
#define L3FWD_LOOKUP_H

#include <rte_hash.h>
#include <rte_ip.h>
#include <rte_lpm.h>
#include <rte_lpm6.h>
#include <rte_tcp.h>
#include <rte_udp.h>

#include "l3fwd.h"
#include "l3fwd_compat.h"

/** EM keys, fields in network order as in the packet. */
struct l3fwd_em_key4 {
	rte_be32_t dst;
	rte_be32_t src;
	rte_be16_t dport;
	rte_be16_t sport;
	uint8_t proto;
	uint8_t pad[3];
};

struct l3fwd_em_key6 {
	uint8_t dst[16];
	uint8_t src[16];
	rte_be16_t dport;
	rte_be16_t sport;
	uint8_t proto;
	uint8_t pad[3];
};

static inline uint32_t
l3fwd_lpm_lookup4(const struct l3fwd_tables *t, rte_be32_t dst)
{
	uint32_t nh;

	if (rte_lpm_lookup(t->lpm4, rte_be_to_cpu_32(dst), &nh) == 0)
		return nh / L3FWD_LPM4_NH_SCALE;
	return t->def4;
}

static inline uint32_t
l3fwd_lpm_lookup6(const struct l3fwd_tables *t, const uint8_t *dst)
{
	uint32_t nh;

	if (rte_lpm6_lookup(t->lpm6, l3fwd_lpm6_ip(dst), &nh) == 0)
		return nh;
	return t->def6;
}

/* L4 ports when the L4 header is in the segment, else 0 */
static inline void
l3fwd_em_ports(const void *l4, uint8_t proto, uint32_t avail, rte_be16_t *sport,
	       rte_be16_t *dport)
{
	const struct rte_udp_hdr *u = l4;

	*sport = 0;
	*dport = 0;
	if ((proto == IPPROTO_UDP || proto == IPPROTO_TCP || proto == IPPROTO_SCTP) &&
	    avail >= 4) {
		*sport = u->src_port;
		*dport = u->dst_port;
	}
}

/* The EM key of an IPv4 header with l3_avail bytes in its segment */
static inline void
l3fwd_em_key4_fill(struct l3fwd_em_key4 *k, const struct rte_ipv4_hdr *ip, uint32_t l3_avail)
{
	const uint32_t hlen = rte_ipv4_hdr_len(ip);

	k->dst = ip->dst_addr;
	k->src = ip->src_addr;
	k->proto = ip->next_proto_id;
	memset(k->pad, 0, sizeof(k->pad));
	l3fwd_em_ports((const uint8_t *)ip + hlen, ip->next_proto_id,
		       l3_avail >= hlen ? l3_avail - hlen : 0, &k->sport, &k->dport);
}

static inline void
l3fwd_em_key6_fill(struct l3fwd_em_key6 *k, const struct rte_ipv6_hdr *ip, uint32_t l3_avail)
{
	memcpy(k->dst, L3FWD_IP6_BYTES(ip->dst_addr), 16);
	memcpy(k->src, L3FWD_IP6_BYTES(ip->src_addr), 16);
	k->proto = ip->proto;
	memset(k->pad, 0, sizeof(k->pad));
	l3fwd_em_ports(ip + 1, ip->proto, l3_avail - sizeof(*ip), &k->sport, &k->dport);
}

#endif /* L3FWD_LOOKUP_H */
