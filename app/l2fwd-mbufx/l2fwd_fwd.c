/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The mbufx authors
 */

/* The forwarding core of mbufx-l2fwd (see l2fwd.h and l2fwd_core.h). */

#include <string.h>

#include <rte_ether.h>
#include <rte_prefetch.h>

#include <mbufx.h>

#include "app_front.h"
#include "l2fwd_core.h"

#define MAC_LEN (2 * RTE_ETHER_ADDR_LEN)
#define TAG_LEN ((uint16_t)sizeof(struct rte_vlan_hdr))

void
l2fwd_ctx_init(struct l2fwd_ctx *c, const struct l2fwd_port_conf *ports, bool mac_updating,
	       const struct rte_ether_addr *src_mac, uint64_t *drop)
{
	memset(c, 0, sizeof(*c));
	c->port = ports;
	c->mac_updating = mac_updating;
	c->drop = drop;
	if (src_mac != NULL)
		memcpy(c->src_mac, src_mac, sizeof(c->src_mac));
}

/* Insert an 802.1Q tag after the MAC addresses (MACs kept, 4 bytes more). */
static inline int
vlan_push(struct mbufx_zone_set *zs, struct rte_mbuf **m, uint16_t tci)
{
	rte_be16_t *tag;
	uint8_t *p;

	p = app_replace_front(zs, m, MAC_LEN, MAC_LEN + TAG_LEN, MAC_LEN, 0);
	if (unlikely(p == NULL))
		return -1;
	/* TPID, TCI; the original ether type follows as the inner one */
	tag = (rte_be16_t *)(p + MAC_LEN);
	tag[0] = RTE_BE16(RTE_ETHER_TYPE_VLAN);
	tag[1] = rte_cpu_to_be_16(tci);
	return 0;
}

/* Remove the outer 802.1Q tag, if any (MACs kept). @return 1: untagged. */
static inline int
vlan_pop(struct mbufx_zone_set *zs, struct rte_mbuf **m)
{
	const uint32_t tagged = MAC_LEN + TAG_LEN + 2;
	const struct rte_ether_hdr *eth = rte_pktmbuf_mtod(*m, struct rte_ether_hdr *);

	if (eth->ether_type != RTE_BE16(RTE_ETHER_TYPE_VLAN) || (*m)->pkt_len < tagged)
		return 1;
	/* a fan-out copy may hold only the Ethernet header in its first segment */
	if ((*m)->data_len < tagged && mbufx_pullup(zs, m, tagged) == NULL)
		return -1;
	return app_replace_front(zs, m, MAC_LEN + TAG_LEN, MAC_LEN, MAC_LEN, 0) == NULL ?
	       -1 : 0;
}

/* One frame: mirror, MAC update, tag; @return 0, or the drop reason after
 * counting and freeing it. */
static inline unsigned int
l2fwd_one(struct l2fwd_ctx *c, const struct l2fwd_rx *rx, struct rte_mbuf *m,
	  struct l2fwd_out *out)
{
	const struct l2fwd_port_conf *pc = &c->port[rx->port];
	const struct l2fwd_port_conf *dst = &c->port[pc->dst];
	struct rte_mbuf *copies[2];
	struct rte_ether_hdr *eth;
	unsigned int reason;
	int rc;

	if (unlikely(m->data_len < RTE_ETHER_HDR_LEN)) {
		reason = L2FWD_DROP_RUNT;
		goto dropped;
	}
	if (pc->mirror) {
		/* copies[0] is forwarded, copies[1] mirrored as received */
		if (mbufx_fanout(rx->zs, m, RTE_ETHER_HDR_LEN, copies, 2) == 2) {
			struct rte_mbuf *mc = copies[1];

			m = copies[0];
			if (pc->mirror_tci == 0 || vlan_push(rx->zs, &mc, pc->mirror_tci) == 0) {
				c->cnt.mirrored++;
				out->port[out->n] = pc->mirror_port;
				out->m[out->n++] = mc;
			} else {
				c->cnt.mirror_fail++;
				rte_pktmbuf_free(mc);
			}
		} else {
			c->cnt.mirror_fail++;
		}
	}
	if (c->mac_updating) {
		/* a shared frame (fuzz_fwd feeds clones) is never written */
		if (unlikely(app_own_front(rx->zs, &m, RTE_ETHER_HDR_LEN) < 0)) {
			reason = L2FWD_DROP_SHARED;
			goto dropped;
		}
		eth = rte_pktmbuf_mtod(m, struct rte_ether_hdr *);
		eth->dst_addr.addr_bytes[0] = RTE_ETHER_LOCAL_ADMIN_ADDR;
		memset(&eth->dst_addr.addr_bytes[1], 0, 4);
		eth->dst_addr.addr_bytes[5] = (uint8_t)pc->dst;
		eth->src_addr = c->src_mac[pc->dst];
	}
	if (dst->pop) {
		rc = vlan_pop(rx->zs, &m);
		if (unlikely(rc < 0))
			goto vlan_drop;
		c->cnt.popped += rc == 0;
	}
	if (dst->push) {
		if (unlikely(vlan_push(rx->zs, &m, dst->push_tci) < 0))
			goto vlan_drop;
		c->cnt.pushed++;
	}
	out->port[out->n] = pc->dst;
	out->m[out->n++] = m;
	return 0;
vlan_drop:
	reason = L2FWD_DROP_VLAN;
dropped:
	c->drop[reason]++;
	rte_pktmbuf_free(m);
	return reason;
}

uint16_t
l2fwd_process_burst(struct l2fwd_ctx *c, const struct l2fwd_rx *rx,
		    struct rte_mbuf **pkts, uint16_t n, struct l2fwd_out *out)
{
	uint16_t i, dropped = 0;

	/* a longer burst would overrun out: a bug in the caller */
	RTE_VERIFY(n <= L2FWD_BURST_MAX);
	out->n = 0;
	for (i = 0; i < n; i++)
		rte_prefetch0(rte_pktmbuf_mtod(pkts[i], void *));
	for (i = 0; i < n; i++)
		dropped += l2fwd_one(c, rx, pkts[i], out) != 0;
	return dropped;
}
