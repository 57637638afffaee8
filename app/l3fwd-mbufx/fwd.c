/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The mbufx authors
 */

/*
 * The forwarding core of mbufx-l3fwd: one burst in three passes (see
 * l3fwd_core.h), no port, lcore or global state touched on the way except
 * the read-only next hops and tables the context points to.
 */

#include <errno.h>
#include <string.h>

#include <rte_ether.h>
#include <rte_malloc.h>
#include <rte_prefetch.h>
#include <rte_vect.h>

#include <mbufx.h>

#include "app_front.h"
#include "app_ptype.h"
#include "l3fwd_core.h"
#include "lookup.h"
#include "rfc1812.h"

/* How far ahead of the packet being checked its data is prefetched. */
#define PREFETCH_AHEAD 4

/* Pass 1 verdict of a packet. */
enum {
	PKT_DROPPED = 0,
	PKT_V4,
	PKT_V6,
	PKT_V4_TTL,	/* IPv4 taken by l3fwd_fast4(): TTL already decremented */
	PKT_DONE,	/* rewritten in place already, to the hop in done[] */
};

int
l3fwd_ctx_init(struct l3fwd_ctx *c, int socket, const struct rte_ether_addr *src_mac,
	       uint64_t *drop)
{
	uint16_t port;
	uint32_t i;

	RTE_BUILD_BUG_ON(sizeof(struct l3fwd_hop) != 16);
	if (l3fwd.nh == NULL || l3fwd.nb_nh == 0 || drop == NULL || socket < 0 ||
	    socket >= RTE_MAX_NUMA_NODES ||
	    (l3fwd_tables[socket].lpm4 == NULL && l3fwd_tables[socket].em4 == NULL))
		return -EINVAL;
	c->t = &l3fwd_tables[socket];
	c->nh = l3fwd.nh;
	c->nb_nh = l3fwd.nb_nh;
	c->lookup = l3fwd.lookup;
	c->max_frame = l3fwd.max_frame;
	c->front_flags = l3fwd.encap_chain ? APP_FRONT_CHAIN : 0;
	c->drop = drop;
	c->nh_pkts = rte_zmalloc_socket("l3fwd_cnt",
					L3FWD_ROUTE_CTR_MAX * sizeof(uint64_t) * c->nb_nh,
					RTE_CACHE_LINE_SIZE, socket);
	/* one more: the hop of "no route", never plain */
	c->hop = rte_zmalloc_socket("l3fwd_hop", sizeof(*c->hop) * (c->nb_nh + 1),
				    RTE_CACHE_LINE_SIZE, socket);
	if (c->nh_pkts == NULL || c->hop == NULL) {
		l3fwd_ctx_free(c);
		return -ENOMEM;
	}
	c->nh_inplace = c->nh_pkts + L3FWD_ROUTE_ENCAP_INPLACE * c->nb_nh;
	c->nh_chained = c->nh_pkts + L3FWD_ROUTE_ENCAP_CHAINED * c->nb_nh;
	for (port = 0; port < RTE_MAX_ETHPORTS; port++) {
		memcpy(c->eth[port].b, &l3fwd.dst_mac[port], RTE_ETHER_ADDR_LEN);
		memset(c->eth[port].b + RTE_ETHER_ADDR_LEN, 0, RTE_ETHER_ADDR_LEN);
	}
	RTE_BUILD_BUG_ON(RTE_MAX_ETHPORTS > L3FWD_HOP_PORT + 1);
	for (i = 0; i < c->nb_nh; i++) {
		uint16_t port = c->nh[i].port;

		c->hop[i].mix = port | (uint32_t)(uint16_t)~port << 16 |
				(c->nh[i].encap != L3FWD_ENCAP_NONE ? L3FWD_HOP_NOT_PLAIN : 0);
	}
	c->hop[c->nb_nh].mix = L3FWD_HOP_NOT_PLAIN;
	c->def4 = c->t->def4 == L3FWD_NO_ROUTE ? c->nb_nh : c->t->def4;
	for (port = 0; port < RTE_MAX_ETHPORTS; port++)
		l3fwd_ctx_set_mac(c, port, src_mac != NULL ? &src_mac[port] : NULL);
	return 0;
}

void
l3fwd_ctx_set_mac(struct l3fwd_ctx *c, uint16_t port, const struct rte_ether_addr *src)
{
	uint32_t i;

	if (port >= RTE_MAX_ETHPORTS)
		return;
	if (src != NULL)
		memcpy(c->eth[port].b + RTE_ETHER_ADDR_LEN, src, RTE_ETHER_ADDR_LEN);
	for (i = 0; i < c->nb_nh; i++)
		if (c->nh[i].port == port)
			memcpy(c->hop[i].eth, c->eth[port].b, sizeof(c->hop[i].eth));
}

void
l3fwd_ctx_free(struct l3fwd_ctx *c)
{
	rte_free(c->nh_pkts);
	rte_free(c->hop);
	c->nh_pkts = c->nh_inplace = c->nh_chained = NULL;
	c->hop = NULL;
}

/*
 * The scalar part of struct l3fwd_out while a burst is processed: a local
 * of the pass, kept in registers (the header rewrites store bytes, which
 * would force every field of *out to be reloaded after each one), written
 * back by out_done().
 */
struct out_acc {
	uint32_t bytes;
	uint16_t n;
	uint16_t port_or;
	uint16_t port_and;
	uint16_t segs;
};
#define OUT_ACC_INIT { .bytes = 0, .n = 0, .port_or = 0, .port_and = UINT16_MAX, .segs = 0 }

static __rte_always_inline void
out_add(struct l3fwd_out *out, struct out_acc *a, uint16_t port, struct rte_mbuf *m)
{
	out->buf[a->n] = m;
	out->port[a->n] = port;
	a->n++;
	a->port_or |= port;
	a->port_and &= port;
	a->bytes += m->pkt_len;
	a->segs |= m->nb_segs;
}

/* The output is @p m (out->buf, or the input array rewritten in place) with
 * the summaries in @p a. */
static __rte_always_inline void
out_done(struct l3fwd_out *out, const struct out_acc *a, struct rte_mbuf **m)
{
	out->m = m;
	out->n = a->n;
	out->port_or = a->port_or;
	out->port_and = a->port_and;
	out->bytes = a->bytes;
	out->segs = a->segs;
}

static __rte_always_inline void
drop(struct l3fwd_ctx *c, unsigned int reason, struct rte_mbuf *m)
{
	c->drop[reason]++;
	rte_pktmbuf_free(m);
}

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
 * Ethernet header over a shared payload. @return 0 or the drop reason. */
static unsigned int
fwd_multicast(struct l3fwd_ctx *c, const struct l3fwd_rx *rx, struct rte_mbuf *m,
	      uint32_t nh_idx, const uint8_t *dst, bool v6, struct l3fwd_out *out,
	      struct out_acc *acc)
{
	const struct l3fwd_nh *nh = &c->nh[nh_idx];
	struct rte_mbuf *copies[L3FWD_MAX_MCAST_PORTS];
	uint16_t ports[L3FWD_MAX_MCAST_PORTS];
	struct rte_ether_addr mac;
	unsigned int n = 0, i;

	for (i = 0; i < nh->nb_ports; i++)
		if (nh->ports[i] != rx->port)
			ports[n++] = nh->ports[i];
	if (n == 0)
		return L3FWD_DROP_NO_ROUTE;
	if (n == 1)
		copies[0] = m;
	else if (mbufx_fanout(rx->zs, m, RTE_ETHER_HDR_LEN, copies, n) < 0)
		return L3FWD_DROP_FANOUT;
	mcast_mac(&mac, dst, v6);
	for (i = 0; i < n; i++) {
		struct rte_ether_hdr *eth = rte_pktmbuf_mtod(copies[i], struct rte_ether_hdr *);

		eth->dst_addr = mac;
		memcpy(&eth->src_addr, c->eth[ports[i]].b + RTE_ETHER_ADDR_LEN,
		       RTE_ETHER_ADDR_LEN);
		out_add(out, acc, ports[i], copies[i]);
	}
	c->nh_pkts[nh_idx] += n;
	return 0;
}

/* The fixed IP header of len bytes after the Ethernet header at eth,
 * contiguous in the first segment (only a short first segment pays a
 * pullup, which may replace *m); NULL: a runt. */
static __rte_always_inline void *
ip_fixed_hdr(struct mbufx_zone_set *zs, struct rte_mbuf **m, void *eth, uint32_t len)
{
	if (likely((*m)->data_len >= RTE_ETHER_HDR_LEN + len))
		return (uint8_t *)eth + RTE_ETHER_HDR_LEN;
	if (unlikely((*m)->pkt_len < RTE_ETHER_HDR_LEN + len) ||
	    mbufx_pullup(zs, m, RTE_ETHER_HDR_LEN + len) == NULL)
		return NULL;
	return rte_pktmbuf_mtod_offset(*m, void *, RTE_ETHER_HDR_LEN);
}

/* Pass 1 for IPv4: header contiguous (options too) and RFC 1812 checks.
 * @return 0 or the drop reason. */
static __rte_always_inline unsigned int
check_ipv4(const struct l3fwd_rx *rx, struct rte_mbuf **m, void *eth,
	   struct rte_ipv4_hdr **ipp)
{
	struct rte_ipv4_hdr *ip;
	uint32_t hlen;

	ip = ip_fixed_hdr(rx->zs, m, eth, sizeof(*ip));
	if (unlikely(ip == NULL))
		return L3FWD_DROP_RUNT;
	*ipp = ip;
	/* version 4 and a 20-byte header (in the frame): one compare */
	if (likely(ip->version_ihl == RTE_IPV4_VHL_DEF))
		return l3fwd_check4_rest(*m, ip, sizeof(*ip), rx->rx_cksum, false);
	/* options: the whole header contiguous too (if the frame holds it) */
	hlen = rte_ipv4_hdr_len(ip);
	if (hlen > sizeof(*ip) && hlen + RTE_ETHER_HDR_LEN <= (*m)->pkt_len &&
	    (*m)->data_len < RTE_ETHER_HDR_LEN + hlen) {
		if (mbufx_pullup(rx->zs, m, RTE_ETHER_HDR_LEN + hlen) == NULL)
			return L3FWD_DROP_TRUNCATED;
		ip = rte_pktmbuf_mtod_offset(*m, struct rte_ipv4_hdr *, RTE_ETHER_HDR_LEN);
		*ipp = ip;
	}
	return l3fwd_check4(*m, ip, rx->rx_cksum);
}

static __rte_always_inline unsigned int
check_ipv6(const struct l3fwd_rx *rx, struct rte_mbuf **m, void *eth,
	   struct rte_ipv6_hdr **ipp)
{
	struct rte_ipv6_hdr *ip;

	ip = ip_fixed_hdr(rx->zs, m, eth, sizeof(*ip));
	if (unlikely(ip == NULL))
		return L3FWD_DROP_RUNT;
	*ipp = ip;
	return l3fwd_check6(*m, ip);
}

/* Pass 1 on one packet that l3fwd_fast4() did not take: @return PKT_V4 /
 * PKT_V6 with the header in *l3, or PKT_DROPPED after counting and freeing
 * it. Out of line: the uncommon case. */
static __rte_noinline unsigned int
classify(struct l3fwd_ctx *c, const struct l3fwd_rx *rx, struct rte_mbuf **mp, void **l3)
{
	struct rte_mbuf *m = *mp;
	struct rte_ether_hdr *eth;
	unsigned int reason, kind;
	uint32_t ptype;

	if (unlikely(m->pkt_len > c->max_frame)) {
		reason = L3FWD_DROP_OVERSIZE;
		goto dropped;
	}
	if (unlikely(m->data_len < RTE_ETHER_HDR_LEN)) {
		reason = L3FWD_DROP_RUNT;
		goto dropped;
	}
	eth = rte_pktmbuf_mtod(m, struct rte_ether_hdr *);
	if (rx->sw_ptype) {
		/* what app_ptype_parse() would say, without building a ptype */
		kind = likely(eth->ether_type == RTE_BE16(RTE_ETHER_TYPE_IPV4)) ? PKT_V4 :
		       eth->ether_type == RTE_BE16(RTE_ETHER_TYPE_IPV6) ? PKT_V6 : PKT_DROPPED;
	} else {
		ptype = m->packet_type;
		/* IP right after a plain Ethernet header only (no VLAN, no tunnel) */
		if ((ptype & RTE_PTYPE_L2_MASK) != RTE_PTYPE_L2_ETHER &&
		    (ptype & RTE_PTYPE_L2_MASK) != RTE_PTYPE_UNKNOWN)
			ptype = RTE_PTYPE_UNKNOWN;
		kind = RTE_ETH_IS_IPV4_HDR(ptype) ? PKT_V4 :
		       RTE_ETH_IS_IPV6_HDR(ptype) ? PKT_V6 : PKT_DROPPED;
	}
	if (likely(kind == PKT_V4))
		reason = check_ipv4(rx, mp, eth, (struct rte_ipv4_hdr **)l3);
	else if (kind == PKT_V6)
		reason = check_ipv6(rx, mp, eth, (struct rte_ipv6_hdr **)l3);
	else
		reason = L3FWD_DROP_NOT_IP;
	if (likely(reason == 0))
		return kind;
dropped:
	drop(c, reason, *mp);
	return PKT_DROPPED;
}

/*
 * The IPv4 lookups return the next hop as the table holds it, times
 * L3FWD_LPM4_NH_SCALE ("nh8"): hop8() and ctr8() address its hop and
 * counter. An LPM miss gives def8, c->def4 (the /0 route, else c->nb_nh:
 * the hop of "no route") times the scale, so that every result addresses
 * c->hop[].
 */
static __rte_always_inline uint32_t
lpm_lookup4(const struct rte_lpm *lpm, uint32_t def8, uint32_t dst)
{
	uint32_t nh;

	return rte_lpm_lookup(lpm, dst, &nh) == 0 ? nh : def8;
}

/* The hop of next hop nh8 / L3FWD_LPM4_NH_SCALE. */
static __rte_always_inline const struct l3fwd_hop *
hop8(const struct l3fwd_hop *hops, uint32_t nh8)
{
	RTE_BUILD_BUG_ON(sizeof(*hops) != 2 * L3FWD_LPM4_NH_SCALE);
	return (const struct l3fwd_hop *)((const uint8_t *)hops + (size_t)nh8 * 2);
}

/* The counter of next hop nh8 / L3FWD_LPM4_NH_SCALE in ctr[]. */
static __rte_always_inline uint64_t *
ctr8(uint64_t *ctr, uint32_t nh8)
{
	RTE_BUILD_BUG_ON(sizeof(*ctr) != L3FWD_LPM4_NH_SCALE);
	return (uint64_t *)((uint8_t *)ctr + nh8);
}

/* Pass 2, LPM: the next hops (nh8) of four IPv4 destinations (host order). */
static __rte_always_inline void
lpm_lookup4_x4(const struct rte_lpm *lpm, uint32_t def8, const uint32_t *dst, uint32_t *nh8)
{
	xmm_t v;

	memcpy(&v, dst, sizeof(v));		/* one unaligned vector load */
	rte_lpm_lookupx4(lpm, v, nh8, def8);
}

/* The next hop of a tbl24 entry that holds one (struct rte_lpm_tbl_entry:
 * next_hop in the low 24 bits, then valid and valid_group). */
#define LPM_TBL24_NH 0x00ffffffu

/*
 * Pass 2, LPM, the usual case: the next hops (nh8) of four IPv4 destinations
 * (host order) when each one's tbl24 entry is valid and not a tbl8 group
 * (its prefix at most /24 long). The entry minus RTE_LPM_LOOKUP_SUCCESS has
 * neither bit of RTE_LPM_VALID_EXT_ENTRY_BITMASK set exactly then (and the
 * same low 24 bits), so one OR over the four tells. @return false when one
 * is not (a miss, or a longer prefix): the caller looks the four up again
 * with rte_lpm_lookupx4().
 */
static __rte_always_inline bool
lpm_tbl24_x4(const struct rte_lpm *lpm, const uint32_t *dst, uint32_t *x0, uint32_t *x1,
	     uint32_t *x2, uint32_t *x3)
{
	uint32_t e0, e1, e2, e3;
#ifdef L3FWD_FAST4_VEC
	/* the four tbl24 indices in one shift */
	uint32_t i24[4] __rte_aligned(16);

	_mm_store_si128((void *)i24, _mm_srli_epi32(_mm_loadu_si128((const void *)dst), 8));
#else
	const uint32_t i24[4] = { dst[0] >> 8, dst[1] >> 8, dst[2] >> 8, dst[3] >> 8 };
#endif

	memcpy(&e0, &lpm->tbl24[i24[0]], sizeof(e0));
	memcpy(&e1, &lpm->tbl24[i24[1]], sizeof(e1));
	memcpy(&e2, &lpm->tbl24[i24[2]], sizeof(e2));
	memcpy(&e3, &lpm->tbl24[i24[3]], sizeof(e3));
	e0 -= RTE_LPM_LOOKUP_SUCCESS;
	e1 -= RTE_LPM_LOOKUP_SUCCESS;
	e2 -= RTE_LPM_LOOKUP_SUCCESS;
	e3 -= RTE_LPM_LOOKUP_SUCCESS;
	*x0 = e0 & LPM_TBL24_NH;
	*x1 = e1 & LPM_TBL24_NH;
	*x2 = e2 & LPM_TBL24_NH;
	*x3 = e3 & LPM_TBL24_NH;
	return ((e0 | e1 | e2 | e3) & RTE_LPM_VALID_EXT_ENTRY_BITMASK) == 0;
}

/* Pass 2, LPM: the next hops (nh8) of n IPv4 destinations, four at a time. */
static __rte_always_inline void
lpm_lookup4_burst(const struct l3fwd_ctx *c, const uint32_t *dst, unsigned int n,
		  uint32_t *nh8)
{
	const struct rte_lpm *lpm = c->t->lpm4;
	const uint32_t def8 = c->def4 * L3FWD_LPM4_NH_SCALE;
	unsigned int i;

	for (i = 0; i + 4 <= n; i += 4)
		lpm_lookup4_x4(lpm, def8, &dst[i], &nh8[i]);
	for (; i < n; i++)
		nh8[i] = lpm_lookup4(lpm, def8, dst[i]);
}

/* Pass 2, LPM: the n4 IPv4 destinations (host order, packet index in at[]),
 * IPv6 one by one. */
static __rte_always_inline void
lookup_lpm(const struct l3fwd_ctx *c, void *const *l3, const uint8_t *kind, uint16_t n,
	   const uint32_t *dst, const uint16_t *at, uint16_t n4, bool any6, uint32_t *idx)
{
	uint32_t idx4[L3FWD_BURST_MAX];
	uint16_t i;

	if (unlikely(any6))
		for (i = 0; i < n; i++)
			if (kind[i] == PKT_V6)
				idx[i] = l3fwd_lpm_lookup6(c->t, L3FWD_IP6_BYTES(
						((const struct rte_ipv6_hdr *)l3[i])->dst_addr));
	lpm_lookup4_burst(c, dst, n4, idx4);
	for (i = 0; i < n4; i++)
		idx[at[i]] = idx4[i] / L3FWD_LPM4_NH_SCALE;
}

/* Pass 2, EM: one bulk hash lookup per family. */
static __rte_always_inline void
lookup_em(const struct l3fwd_ctx *c, struct rte_mbuf **pkts, void *const *l3,
	  const uint8_t *kind, uint16_t n, uint32_t *idx)
{
	struct l3fwd_em_key4 k4[L3FWD_BURST_MAX];
	struct l3fwd_em_key6 k6[L3FWD_BURST_MAX];
	const void *keys4[L3FWD_BURST_MAX], *keys6[L3FWD_BURST_MAX];
	uint16_t at4[L3FWD_BURST_MAX], at6[L3FWD_BURST_MAX];
	int32_t pos[L3FWD_BURST_MAX];
	uint16_t i, n4 = 0, n6 = 0;

	for (i = 0; i < n; i++) {
		if (kind[i] == PKT_V4 || kind[i] == PKT_V4_TTL) {
			l3fwd_em_key4_fill(&k4[n4], l3[i], pkts[i]->data_len - RTE_ETHER_HDR_LEN);
			keys4[n4] = &k4[n4];
			at4[n4++] = i;
		} else if (kind[i] == PKT_V6) {
			l3fwd_em_key6_fill(&k6[n6], l3[i], pkts[i]->data_len - RTE_ETHER_HDR_LEN);
			keys6[n6] = &k6[n6];
			at6[n6++] = i;
		}
	}
	if (n4 != 0) {
		rte_hash_lookup_bulk(c->t->em4, keys4, n4, pos);
		for (i = 0; i < n4; i++)
			idx[at4[i]] = pos[i] >= 0 ? c->t->em4_nh[pos[i]] : L3FWD_NO_ROUTE;
	}
	if (n6 != 0) {
		rte_hash_lookup_bulk(c->t->em6, keys6, n6, pos);
		for (i = 0; i < n6; i++)
			idx[at6[i]] = pos[i] >= 0 ? c->t->em6_nh[pos[i]] : L3FWD_NO_ROUTE;
	}
}

/* The output port of a hop. */
static __rte_always_inline uint16_t
hop_port(const struct l3fwd_hop *hop)
{
	return (uint16_t)(hop->mix & L3FWD_HOP_PORT);
}

/* Pass 3, the unicast rewrite: both MACs at @p eth in one 12-byte copy,
 * counted in @p ctr (the next hop's packets). */
static __rte_always_inline void
rewrite_unicast(const struct l3fwd_hop *hop, uint64_t *ctr, void *eth)
{
#ifdef L3FWD_FAST4_VEC
	/* the hop in one load, its first 12 bytes in two stores */
	__m128i h = _mm_loadu_si128((const void *)hop);
	uint32_t w = (uint32_t)_mm_extract_epi32(h, 2);

	RTE_BUILD_BUG_ON(offsetof(struct l3fwd_hop, eth) != 0 || sizeof(*hop) != 16);
	_mm_storel_epi64(eth, h);
	memcpy((uint8_t *)eth + 8, &w, sizeof(w));
#else
	memcpy(eth, hop->eth, sizeof(hop->eth));
#endif
	(*ctr)++;
}

/* Pass 3 on one routed packet *mp (an IPv4 one with its TTL decremented
 * already when @p ttl_done): @return 0 or the drop reason (the packet to
 * drop in *mp). */
static __rte_always_inline unsigned int
forward(struct l3fwd_ctx *c, const struct l3fwd_rx *rx, struct rte_mbuf **mp, void *l3,
	bool v6, uint32_t nh_idx, struct l3fwd_out *out, struct out_acc *acc,
	const bool unicast, bool ttl_done)
{
	const struct l3fwd_hop *hop;
	struct rte_mbuf *m = *mp;
	const uint8_t *dst;
	struct rte_ether_hdr *eth;
	uint32_t l3_len;
	uint8_t ttl;
	bool mcast;

	/* L3FWD_NO_ROUTE, or c->nb_nh (an LPM miss) */
	if (unlikely(nh_idx >= c->nb_nh))
		return L3FWD_DROP_NO_ROUTE;
	/* the TTL and MACs are rewritten in place, never in a shared segment
	 * (its other holders read it): own Ethernet + the longest IPv4 header */
	if (unlikely(!mbufx_seg_writable(m))) {
		if (app_own_front(rx->zs, mp, RTE_ETHER_HDR_LEN + 15 * 4) < 0)
			return L3FWD_DROP_SHARED;
		m = *mp;
		l3 = rte_pktmbuf_mtod_offset(m, void *, RTE_ETHER_HDR_LEN);
	}
	hop = &c->hop[nh_idx];
	if (v6) {
		struct rte_ipv6_hdr *ip = l3;

		ttl = --ip->hop_limits;
		dst = L3FWD_IP6_BYTES(ip->dst_addr);
		mcast = dst[0] == 0xff;
	} else {
		struct rte_ipv4_hdr *ip = l3;

		ttl = ttl_done ? ip->time_to_live : l3fwd_ttl_dec4(ip);
		dst = (const uint8_t *)&ip->dst_addr;
		/* 224.0.0.0/4 (DPDK's RTE_IS_IPV4_MCAST shifts a signed int) */
		mcast = (dst[0] >> 4) == 0xe;
	}
	if (!unicast && unlikely(mcast)) {
		if (c->nh[nh_idx].nb_ports == 0)
			return L3FWD_DROP_NO_ROUTE;
		return fwd_multicast(c, rx, m, nh_idx, dst, v6, out, acc);
	}
	if (unlikely(hop->mix & L3FWD_HOP_NOT_PLAIN)) {
		if (v6)
			l3_len = rte_be_to_cpu_16(((struct rte_ipv6_hdr *)l3)->payload_len) +
				 sizeof(struct rte_ipv6_hdr);
		else
			l3_len = rte_be_to_cpu_16(((struct rte_ipv4_hdr *)l3)->total_length);
		eth = l3fwd_encap(c, rx->zs, nh_idx, &m, l3_len, ttl, v6);
		if (unlikely(eth == NULL))
			return L3FWD_DROP_ENCAP;
	} else {
		/* the parsed header is 14 bytes into the first segment */
		eth = (struct rte_ether_hdr *)((uint8_t *)l3 - RTE_ETHER_HDR_LEN);
	}
	rewrite_unicast(hop, &c->nh_pkts[nh_idx], eth);
	out_add(out, acc, hop_port(hop), m);
	return 0;
}

/* forward(), and a packet it refuses dropped and counted: @return 1 when
 * dropped, else 0. */
static __rte_always_inline uint16_t
forward_or_drop(struct l3fwd_ctx *c, const struct l3fwd_rx *rx, struct rte_mbuf **mp,
		void *l3, bool v6, uint32_t nh_idx, struct l3fwd_out *out,
		struct out_acc *acc, const bool unicast, bool ttl_done)
{
	unsigned int reason = forward(c, rx, mp, l3, v6, nh_idx, out, acc, unicast,
				      ttl_done);

	if (likely(reason == 0))
		return 0;
	drop(c, reason, *mp);
	return 1;
}

/*
 * Passes 1 to 3 of a burst that the usual path did not take whole: the
 * packets before k were rewritten in place (to the hops done[0 .. k), as
 * nh8), l3[i]
 * is the IPv4 header of every later packet l3fwd_fast4() took (its
 * destination in dst[i], host order), NULL for the others, which classify()
 * now decides. Out of line: the uncommon burst. @return the drops.
 */
static __rte_noinline uint16_t
process_rest(struct l3fwd_ctx *c, const struct l3fwd_rx *rx, struct rte_mbuf **pkts,
	     uint16_t n, struct l3fwd_out *out, void **l3, uint32_t *dst, unsigned int k,
	     const uint32_t *done)
{
	uint32_t idx[L3FWD_BURST_MAX], dst4[L3FWD_BURST_MAX];
	uint16_t at[L3FWD_BURST_MAX];
	uint8_t kind[L3FWD_BURST_MAX];
	uint16_t i, dropped = 0, n4 = 0, n6 = 0;
	struct out_acc acc = OUT_ACC_INIT;

	for (i = 0; i < n; i++) {
		if (i < k) {
			kind[i] = PKT_DONE;
			idx[i] = done[i] / L3FWD_LPM4_NH_SCALE;
			continue;
		}
		if (l3[i] != NULL) {
			kind[i] = PKT_V4_TTL;
		} else {
			kind[i] = (uint8_t)classify(c, rx, &pkts[i], &l3[i]);
			if (kind[i] == PKT_DROPPED) {
				dropped++;
				continue;
			}
			if (kind[i] == PKT_V6) {
				n6++;
				continue;
			}
			dst[i] = rte_be_to_cpu_32(((struct rte_ipv4_hdr *)l3[i])->dst_addr);
		}
		dst4[n4] = dst[i];
		at[n4++] = i;
	}
	if (dropped == n) {
		out_done(out, &acc, out->buf);
		return dropped;
	}
	/* pass 2: route lookups */
	if (c->lookup == L3FWD_LOOKUP_LPM)
		lookup_lpm(c, l3, kind, n, dst4, at, n4, n6 != 0, idx);
	else
		lookup_em(c, pkts, l3, kind, n, idx);
	/* pass 3: rewrite and hand out */
	for (i = 0; i < n; i++) {
		if (kind[i] == PKT_DONE)
			out_add(out, &acc, hop_port(&c->hop[idx[i]]), pkts[i]);
		else if (kind[i] != PKT_DROPPED)
			dropped += forward_or_drop(c, rx, &pkts[i], l3[i], kind[i] == PKT_V6,
						   idx[i], out, &acc, false,
						   kind[i] == PKT_V4_TTL);
	}
	out_done(out, &acc, out->buf);
	return dropped;
}

/* The input's counts (out->rx_*), from the first pass's sums, before
 * anything is freed or changed. @return the OR of nb_segs. */
static __rte_always_inline uint16_t
rx_counts(const struct l3fwd_sums *sums, struct rte_mbuf *const *pkts, uint16_t n,
	  struct l3fwd_out *out)
{
	uint32_t bytes;
	uint16_t i, segs;

	l3fwd_sums_get(sums, &bytes, &segs);
	out->rx_bytes = bytes;
	out->rx_chains = 0;
	if (unlikely(segs > 1))
		for (i = 0; i < n; i++)
			out->rx_chains += pkts[i]->nb_segs > 1;
	return segs;
}

/* Where the data of a received packet starts: a hint, so that the actual
 * data_off need not be read. */
#define PREFETCH_DATA(m) rte_prefetch0((uint8_t *)(m)->buf_addr + RTE_PKTMBUF_HEADROOM)

/* The data of pkts[i .. i + 4), those in the burst. */
static __rte_always_inline void
prefetch4(struct rte_mbuf *const *pkts, unsigned int i, unsigned int n)
{
	unsigned int j;

	if (likely(i + 4 <= n)) {
		PREFETCH_DATA(pkts[i]);
		PREFETCH_DATA(pkts[i + 1]);
		PREFETCH_DATA(pkts[i + 2]);
		PREFETCH_DATA(pkts[i + 3]);
	} else {
		for (j = i; j < n; j++)
			PREFETCH_DATA(pkts[j]);
	}
}

/*
 * Pass 1 of pkts[0 .. n) (a burst, or what is left of it):
 * l3fwd_fast4_x4_dec() four packets at a time, l3fwd_fast4() on the last
 * ones (the data PREFETCH_AHEAD on prefetched), the sums added to @p sums.
 */
static __rte_always_inline void
first_pass(struct rte_mbuf **pkts, unsigned int n, uint32_t max_frame, const bool sw_ptype,
	   const bool rx_cksum, void **l3, uint32_t *dst, struct l3fwd_sums *sums)
{
	struct rte_ipv4_hdr *ip;
	unsigned int i;

	for (i = 0; i + 4 <= n; i += 4) {
		prefetch4(pkts, i + PREFETCH_AHEAD, n);
		l3fwd_fast4_x4_dec(&pkts[i], max_frame, sw_ptype, rx_cksum, &l3[i], &dst[i], sums);
	}
	for (; i < n; i++) {
		l3fwd_sums_add(sums, pkts[i]);
		ip = l3fwd_fast4(pkts[i], max_frame, sw_ptype, rx_cksum);
		l3[i] = ip;
		if (ip != NULL) {
			dst[i] = rte_be_to_cpu_32(ip->dst_addr);
			l3fwd_ttl_dec4(ip);
		}
	}
}

/* The output of a burst forwarded in place whole: pkts, the OR of the
 * hops' mix words in @p mix, the hops in nh8[]. */
static __rte_always_inline void
inplace_done(struct l3fwd_out *out, struct rte_mbuf **pkts, uint16_t n,
	     const struct l3fwd_sums *sums, uint32_t mix, const struct l3fwd_hop *hops,
	     const uint32_t *nh8)
{
	struct out_acc acc = { .n = n, .port_or = mix & L3FWD_HOP_PORT,
			       .port_and = (uint16_t)~(mix >> 16) };
	uint16_t i;

	acc.segs = rx_counts(sums, pkts, n, out);
	acc.bytes = out->rx_bytes;
	/* every packet's port, as the output promises: one value when they
	 * are the same (a fill the compiler vectorizes) */
	if (likely(acc.port_or == acc.port_and))
		for (i = 0; i < n; i++)
			out->port[i] = acc.port_or;
	else
		for (i = 0; i < n; i++)
			out->port[i] = hop_port(hop8(hops, nh8[i]));
	out_done(out, &acc, pkts);
}

/*
 * One burst, with the port's classification (sw_ptype) and checksum
 * (rx_cksum) modes as constants, under LPM in one loop over groups of four
 * (the data of the next four prefetched): pass 1 (l3fwd_fast4_x4_dec(),
 * which decrements the TTL of the packets it takes and sums the burst's
 * bytes and nb_segs), pass 2 (lpm_tbl24_x4(), else rte_lpm_lookupx4())
 * and pass 3 (the four unicast rewrites in place), with no per-packet kind
 * or index indirection and no output array: pkts is the output. At the
 * first group that is not the usual one (a packet pass 1 did not take, a
 * hop that is not a plain rewrite) the rest of the burst gets pass 1 and
 * goes on in process_rest(),
 * which knows the packets forwarded in place (and every later step knows
 * the TTL of a packet pass 1 took is done: PKT_V4_TTL, forward()'s
 * ttl_done). Under EM, pass 1 runs over the burst and process_rest()
 * follows.
 */
static __rte_always_inline uint16_t
process_burst(struct l3fwd_ctx *c, const struct l3fwd_rx *rx, struct rte_mbuf **pkts,
	      uint16_t n, struct l3fwd_out *out, const bool sw_ptype, const bool rx_cksum)
{
	/* locals: the byte stores of the rewrite could alias *c and nh8[] */
	const struct l3fwd_hop *hops = c->hop;
	const struct rte_lpm *lpm = c->t->lpm4;
	const uint32_t def8 = c->def4 * L3FWD_LPM4_NH_SCALE, max_frame = c->max_frame;
	uint64_t *nh_pkts = c->nh_pkts;
	uint32_t nh8[L3FWD_BURST_MAX], dst[L3FWD_BURST_MAX];
	void *l3[L3FWD_BURST_MAX];
	const struct l3fwd_hop *h0, *h1, *h2, *h3;
	uint32_t mix = 0, m, x0, x1, x2, x3;
	unsigned int i, k = 0, j = 0;
	struct l3fwd_sums sums;

	/* a longer burst would overrun the arrays: a bug in the caller */
	RTE_VERIFY(n <= L3FWD_BURST_MAX);
	l3fwd_sums_init(&sums);
	RTE_BUILD_BUG_ON(PREFETCH_AHEAD != 4);
	prefetch4(pkts, 0, n);
	if (c->lookup != L3FWD_LOOKUP_LPM)
		goto rest;
#define ETH_OF(i) ((uint8_t *)l3[i] - RTE_ETHER_HDR_LEN)
	for (i = 0; i + 4 <= n; i += 4) {
		prefetch4(pkts, i + PREFETCH_AHEAD, n);
		k = i;
		j = i + 4;
		if (unlikely(l3fwd_fast4_x4_dec(&pkts[i], max_frame, sw_ptype, rx_cksum, &l3[i],
						&dst[i], &sums) != 0xf))
			goto rest;
		if (likely(lpm_tbl24_x4(lpm, &dst[i], &x0, &x1, &x2, &x3))) {
			nh8[i] = x0;
			nh8[i + 1] = x1;
			nh8[i + 2] = x2;
			nh8[i + 3] = x3;
		} else {
			lpm_lookup4_x4(lpm, def8, &dst[i], &nh8[i]);
			x0 = nh8[i];
			x1 = nh8[i + 1];
			x2 = nh8[i + 2];
			x3 = nh8[i + 3];
		}
		h0 = hop8(hops, x0);
		h1 = hop8(hops, x1);
		h2 = hop8(hops, x2);
		h3 = hop8(hops, x3);
		m = h0->mix | h1->mix | h2->mix | h3->mix;
		if (unlikely(m & L3FWD_HOP_NOT_PLAIN))
			goto rest;
		rewrite_unicast(h0, ctr8(nh_pkts, x0), ETH_OF(i));
		rewrite_unicast(h1, ctr8(nh_pkts, x1), ETH_OF(i + 1));
		rewrite_unicast(h2, ctr8(nh_pkts, x2), ETH_OF(i + 2));
		rewrite_unicast(h3, ctr8(nh_pkts, x3), ETH_OF(i + 3));
		mix |= m;
	}
	for (; i < n; i++) {
		k = i;
		j = i + 1;
		l3fwd_sums_add(&sums, pkts[i]);
		l3[i] = l3fwd_fast4(pkts[i], max_frame, sw_ptype, rx_cksum);
		if (unlikely(l3[i] == NULL))
			goto rest;
		dst[i] = rte_be_to_cpu_32(((struct rte_ipv4_hdr *)l3[i])->dst_addr);
		l3fwd_ttl_dec4(l3[i]);
		x0 = lpm_lookup4(lpm, def8, dst[i]);
		nh8[i] = x0;
		h0 = hop8(hops, x0);
		if (unlikely(h0->mix & L3FWD_HOP_NOT_PLAIN))
			goto rest;
		rewrite_unicast(h0, ctr8(nh_pkts, x0), ETH_OF(i));
		mix |= h0->mix;
	}
#undef ETH_OF
	inplace_done(out, pkts, n, &sums, mix, hops, nh8);
	return 0;
rest:
	first_pass(&pkts[j], n - j, max_frame, sw_ptype, rx_cksum, &l3[j], &dst[j], &sums);
	rx_counts(&sums, pkts, n, out);
	return process_rest(c, rx, pkts, n, out, l3, dst, k, nh8);
}
#undef PREFETCH_DATA

uint16_t
l3fwd_process_burst(struct l3fwd_ctx *c, const struct l3fwd_rx *rx,
		    struct rte_mbuf **pkts, uint16_t n, struct l3fwd_out *out)
{
	if (rx->sw_ptype)
		return rx->rx_cksum ? process_burst(c, rx, pkts, n, out, true, true) :
			process_burst(c, rx, pkts, n, out, true, false);
	return rx->rx_cksum ? process_burst(c, rx, pkts, n, out, false, true) :
		process_burst(c, rx, pkts, n, out, false, false);
}
