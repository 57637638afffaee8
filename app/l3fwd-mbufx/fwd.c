/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The mbufx authors
 */

/*
 * The forwarding path of mbufx-l3fwd (see l3fwd.h for the picture). One
 * packet at a time; the lookups, checks and Tx buffering are inline.
 */

#include <stdio.h>

#include <rte_ether.h>
#include <rte_malloc.h>
#include <rte_prefetch.h>

#include <mbufx.h>

#include "app_pools.h"
#include "app_ptype.h"
#include "app_run.h"
#include "l3fwd.h"
#include "lookup.h"
#include "rfc1812.h"

/* Multicast MAC of an IPv4 (01:00:5e + low 23 bits) or IPv6 (33:33 + low 32) group */
static inline void
mcast_mac(struct rte_ether_addr *mac, const uint8_t *dst, bool v6)
{
	if (v6) {
		mac->addr_bytes[0] = 0x33;
		mac->addr_bytes[1] = 0x33;
		memcpy(&mac->addr_bytes[2], dst + 12, 4);
	} else {
		mac->addr_bytes[0] = 0x01;
		mac->addr_bytes[1] = 0x00;
		mac->addr_bytes[2] = 0x5e;
		mac->addr_bytes[3] = dst[1] & 0x7f;
		mac->addr_bytes[4] = dst[2];
		mac->addr_bytes[5] = dst[3];
	}
}

/* One copy per port of the group except the input port, each with its own
 * Ethernet header over a shared payload. */
static void
fwd_multicast(struct app_lcore *lc, struct mbufx_zone_set *zs, struct rte_mbuf *m,
	      uint16_t in_port, const struct l3fwd_nh *nh, uint32_t nh_idx,
	      const uint8_t *dst, bool v6)
{
	struct l3fwd_lcore *x = lc->priv;
	struct rte_mbuf *copies[L3FWD_MAX_MCAST_PORTS];
	uint16_t out[L3FWD_MAX_MCAST_PORTS];
	struct rte_ether_addr mac;
	unsigned int n = 0, i;

	for (i = 0; i < nh->nb_ports; i++)
		if (nh->ports[i] != in_port)
			out[n++] = nh->ports[i];
	if (n == 0) {
		app_drop(lc, in_port, L3FWD_DROP_NO_ROUTE, m);
		return;
	}
	if (n == 1)
		copies[0] = m;
	else if (mbufx_fanout(zs, m, RTE_ETHER_HDR_LEN, copies, n) < 0) {
		app_drop(lc, in_port, L3FWD_DROP_FANOUT, m);
		return;
	}
	mcast_mac(&mac, dst, v6);
	for (i = 0; i < n; i++) {
		struct rte_ether_hdr *eth = rte_pktmbuf_mtod(copies[i], struct rte_ether_hdr *);

		eth->dst_addr = mac;
		eth->src_addr = app_port_state[out[i]].mac;
		app_tx(lc, out[i], copies[i]);
	}
	x->nh_pkts[nh_idx] += n;
}

/* Unicast: rewrite the Ethernet header, or encapsulate; then queue for Tx. */
static inline void
fwd_unicast(struct app_lcore *lc, struct rte_mbuf *m, uint16_t in_port,
	    const struct l3fwd_nh *nh, uint32_t nh_idx, bool v6)
{
	struct l3fwd_lcore *x = lc->priv;
	struct rte_ether_hdr *eth;

	if (nh->encap != L3FWD_ENCAP_NONE) {
		eth = l3fwd_encap(lc, nh, nh_idx, &m, v6);
		if (unlikely(eth == NULL)) {
			app_drop(lc, in_port, L3FWD_DROP_ENCAP, m);
			return;
		}
	} else {
		eth = rte_pktmbuf_mtod(m, struct rte_ether_hdr *);
	}
	eth->dst_addr = l3fwd.dst_mac[nh->port];
	eth->src_addr = app_port_state[nh->port].mac;
	x->nh_pkts[nh_idx]++;
	app_tx(lc, nh->port, m);
}

/* Make the first len bytes contiguous (only short first segments pay). */
static inline void *
l3_hdr(struct mbufx_zone_set *zs, struct rte_mbuf **m, uint32_t len)
{
	if (likely((*m)->data_len >= len))
		return rte_pktmbuf_mtod_offset(*m, void *, RTE_ETHER_HDR_LEN);
	if (mbufx_pullup(zs, m, len) == NULL)
		return NULL;
	return rte_pktmbuf_mtod_offset(*m, void *, RTE_ETHER_HDR_LEN);
}

/* The fixed IP header (len bytes), contiguous; a runt is dropped (NULL). */
static __rte_always_inline void *
ip_fixed_hdr(struct app_lcore *lc, struct mbufx_zone_set *zs, struct rte_mbuf **m,
       uint16_t port, uint32_t len)
{
	void *ip;

	if (unlikely((*m)->pkt_len < RTE_ETHER_HDR_LEN + len)) {
		app_drop(lc, port, L3FWD_DROP_RUNT, *m);
		return NULL;
	}
	ip = l3_hdr(zs, m, RTE_ETHER_HDR_LEN + len);
	if (unlikely(ip == NULL))
		app_drop(lc, port, L3FWD_DROP_RUNT, *m);
	return ip;
}

/* Route idx found: one copy per port of a multicast group, or unicast. */
static __rte_always_inline void
fwd_route(struct app_lcore *lc, struct mbufx_zone_set *zs, struct rte_mbuf *m,
	  uint16_t port, uint32_t idx, const uint8_t *dst, bool mcast, bool v6)
{
	const struct l3fwd_nh *nh = &l3fwd.nh[idx];

	if (unlikely(mcast)) {
		if (nh->nb_ports == 0)
			app_drop(lc, port, L3FWD_DROP_NO_ROUTE, m);
		else
			fwd_multicast(lc, zs, m, port, nh, idx, dst, v6);
		return;
	}
	fwd_unicast(lc, m, port, nh, idx, v6);
}

static inline void
fwd_ipv4(struct app_lcore *lc, struct mbufx_zone_set *zs, struct rte_mbuf *m,
	 uint16_t port, bool port_cksum)
{
	const struct l3fwd_lcore *x = lc->priv;
	struct rte_ipv4_hdr *ip;
	unsigned int reason;
	uint32_t idx, hlen;

	ip = ip_fixed_hdr(lc, zs, &m, port, sizeof(*ip));
	if (unlikely(ip == NULL))
		return;
	hlen = rte_ipv4_hdr_len(ip);
	if (unlikely(hlen > sizeof(*ip) && hlen + RTE_ETHER_HDR_LEN <= m->pkt_len)) {
		ip = l3_hdr(zs, &m, RTE_ETHER_HDR_LEN + hlen);
		if (unlikely(ip == NULL)) {
			app_drop(lc, port, L3FWD_DROP_TRUNCATED, m);
			return;
		}
	}
	reason = l3fwd_check4(m, ip, port_cksum);
	if (unlikely(reason != 0)) {
		app_drop(lc, port, reason, m);
		return;
	}
	if (l3fwd.lookup == L3FWD_LOOKUP_LPM)
		idx = l3fwd_lpm_lookup4(x->t, ip->dst_addr);
	else
		idx = l3fwd_em_lookup4(x->t, ip, m->data_len - RTE_ETHER_HDR_LEN - hlen);
	if (unlikely(idx == L3FWD_NO_ROUTE)) {
		app_drop(lc, port, L3FWD_DROP_NO_ROUTE, m);
		return;
	}
	l3fwd_ttl_dec4(ip);
	/* 224.0.0.0/4 (DPDK's RTE_IS_IPV4_MCAST shifts a signed int) */
	fwd_route(lc, zs, m, port, idx, (const uint8_t *)&ip->dst_addr,
		  (rte_be_to_cpu_32(ip->dst_addr) >> 28) == 0xe, false);
}

static inline void
fwd_ipv6(struct app_lcore *lc, struct mbufx_zone_set *zs, struct rte_mbuf *m, uint16_t port)
{
	const struct l3fwd_lcore *x = lc->priv;
	struct rte_ipv6_hdr *ip;
	unsigned int reason;
	uint32_t idx;

	ip = ip_fixed_hdr(lc, zs, &m, port, sizeof(*ip));
	if (unlikely(ip == NULL))
		return;
	reason = l3fwd_check6(m, ip);
	if (unlikely(reason != 0)) {
		app_drop(lc, port, reason, m);
		return;
	}
	if (l3fwd.lookup == L3FWD_LOOKUP_LPM)
		idx = l3fwd_lpm_lookup6(x->t, ip->dst_addr);
	else
		idx = l3fwd_em_lookup6(x->t, ip, m->data_len - RTE_ETHER_HDR_LEN - sizeof(*ip));
	if (unlikely(idx == L3FWD_NO_ROUTE)) {
		app_drop(lc, port, L3FWD_DROP_NO_ROUTE, m);
		return;
	}
	ip->hop_limits--;
	fwd_route(lc, zs, m, port, idx, ip->dst_addr, ip->dst_addr[0] == 0xff,
		  true);
}

static __rte_always_inline void
l3fwd_burst(struct app_lcore *lc, uint16_t port, struct rte_mbuf **pkts, uint16_t n)
{
	const struct app_port_state *ps = &app_port_state[port];
	struct mbufx_zone_set *zs = app_pools_of_port(port);
	uint16_t i;

	for (i = 0; i < n; i++)
		rte_prefetch0(rte_pktmbuf_mtod(pkts[i], void *));
	for (i = 0; i < n; i++) {
		struct rte_mbuf *m = pkts[i];
		uint32_t ptype;

		if (unlikely(m->pkt_len > l3fwd.max_frame)) {
			app_drop(lc, port, L3FWD_DROP_OVERSIZE, m);
			continue;
		}
		if (unlikely(m->pkt_len < RTE_ETHER_HDR_LEN || m->data_len < RTE_ETHER_HDR_LEN)) {
			app_drop(lc, port, L3FWD_DROP_RUNT, m);
			continue;
		}
		ptype = ps->sw_ptype ? app_ptype_parse(m) : m->packet_type;
		/* IP right after a plain Ethernet header only (no VLAN, no tunnel) */
		if ((ptype & RTE_PTYPE_L2_MASK) != RTE_PTYPE_L2_ETHER &&
		    (ptype & RTE_PTYPE_L2_MASK) != RTE_PTYPE_UNKNOWN)
			ptype = RTE_PTYPE_UNKNOWN;
		if (RTE_ETH_IS_IPV4_HDR(ptype))
			fwd_ipv4(lc, zs, m, port, ps->rx_cksum);
		else if (RTE_ETH_IS_IPV6_HDR(ptype))
			fwd_ipv6(lc, zs, m, port);
		else
			app_drop(lc, port, L3FWD_DROP_NOT_IP, m);
	}
}

int
l3fwd_lcore_main(void *arg __rte_unused)
{
	return app_lcore_run(l3fwd_burst);
}

int
l3fwd_lcores_init(void)
{
	unsigned int lcore;

	RTE_LCORE_FOREACH(lcore) {
		struct app_lcore *lc = &app_lcores[lcore];
		struct l3fwd_lcore *x;
		int socket = l3fwd.no_numa ? 0 : (int)rte_lcore_to_socket_id(lcore);

		if (lc->n_rxq == 0)
			continue;
		x = rte_zmalloc_socket("l3fwd_lcore", sizeof(*x), RTE_CACHE_LINE_SIZE, socket);
		if (x == NULL)
			return -ENOMEM;
		x->t = &l3fwd_tables[socket];
		x->nh_pkts = rte_zmalloc_socket("l3fwd_cnt", 3 * sizeof(uint64_t) * l3fwd.nb_nh,
						RTE_CACHE_LINE_SIZE, socket);
		if (x->nh_pkts == NULL)
			return -ENOMEM;
		x->nh_inplace = x->nh_pkts + l3fwd.nb_nh;
		x->nh_chained = x->nh_inplace + l3fwd.nb_nh;
		lc->priv = x;
	}
	return 0;
}

static void
nh_sum(uint32_t i, uint64_t *pkts, uint64_t *inplace, uint64_t *chained)
{
	unsigned int lcore;

	*pkts = *inplace = *chained = 0;
	RTE_LCORE_FOREACH(lcore) {
		const struct l3fwd_lcore *x = app_lcores[lcore].priv;

		if (x == NULL)
			continue;
		*pkts += x->nh_pkts[i];
		*inplace += x->nh_inplace[i];
		*chained += x->nh_chained[i];
	}
}

void
l3fwd_print_routes(FILE *f)
{
	uint64_t pkts, inplace, chained;
	char act[96];
	uint32_t i;

	fprintf(f, "routes (%s):\n%-44s %-30s %12s %12s %12s\n",
		l3fwd.lookup == L3FWD_LOOKUP_LPM ? "lpm" : "em", "rule", "action", "packets",
		"encap-inpl", "encap-chain");
	for (i = 0; i < l3fwd.nb_nh; i++) {
		nh_sum(i, &pkts, &inplace, &chained);
		l3fwd_nh_format(&l3fwd.nh[i], act, sizeof(act));
		fprintf(f, "%-44s %-30s %12" PRIu64 " %12" PRIu64 " %12" PRIu64 "\n",
			l3fwd.nh[i].text, act, pkts, inplace, chained);
	}
}

void
l3fwd_json_routes(FILE *f)
{
	uint64_t pkts, inplace, chained;
	char act[96];
	uint32_t i;

	fprintf(f, ", \"routes\": [");
	for (i = 0; i < l3fwd.nb_nh; i++) {
		nh_sum(i, &pkts, &inplace, &chained);
		l3fwd_nh_format(&l3fwd.nh[i], act, sizeof(act));
		fprintf(f, "%s{\"rule\": \"%s\", \"action\": \"%s\", \"pkts\": %" PRIu64
			", \"encap_inplace\": %" PRIu64 ", \"encap_chained\": %" PRIu64 "}",
			i ? ", " : "", l3fwd.nh[i].text, act, pkts, inplace, chained);
	}
	fprintf(f, "]");
}
