/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The mbufx authors
 */

/* The forwarding path of mbufx-l2fwd (see l2fwd.h). */

#include <string.h>

#include <rte_ether.h>
#include <rte_prefetch.h>

#include <mbufx.h>

#include "app_pools.h"
#include "app_run.h"
#include "l2fwd.h"

#define MAC_LEN (2 * RTE_ETHER_ADDR_LEN)

/*
 * Insert an 802.1Q tag after the MAC addresses: drop the 12 MAC bytes and
 * prepend 16 (MACs + tag). Only the data offset moves when the buffer is
 * private; a shared one gets a header mbuf in front and is never written.
 */
static inline int
vlan_push(struct mbufx_zone_set *zs, struct rte_mbuf **m, uint16_t tci)
{
	uint8_t macs[MAC_LEN];
	rte_be16_t *tag;
	uint8_t *p;

	rte_memcpy(macs, rte_pktmbuf_mtod(*m, void *), MAC_LEN);
	rte_pktmbuf_adj(*m, MAC_LEN);
	p = mbufx_prepend(zs, m, MAC_LEN + sizeof(struct rte_vlan_hdr));
	if (unlikely(p == NULL)) {
		rte_pktmbuf_prepend(*m, MAC_LEN);	/* bytes untouched: undo */
		return -1;
	}
	/* MACs, TPID, TCI; the original ether type follows as the inner one */
	rte_memcpy(p, macs, MAC_LEN);
	tag = (rte_be16_t *)(p + MAC_LEN);
	tag[0] = RTE_BE16(RTE_ETHER_TYPE_VLAN);
	tag[1] = rte_cpu_to_be_16(tci);
	return 0;
}

/* Remove the outer 802.1Q tag, if any: drop MACs + tag, prepend the MACs. */
static inline int
vlan_pop(struct mbufx_zone_set *zs, struct rte_mbuf **m)
{
	const uint32_t tagged = MAC_LEN + sizeof(struct rte_vlan_hdr) + 2;
	const struct rte_ether_hdr *eth = rte_pktmbuf_mtod(*m, struct rte_ether_hdr *);
	uint8_t macs[MAC_LEN];
	uint8_t *p;

	if (eth->ether_type != RTE_BE16(RTE_ETHER_TYPE_VLAN) || (*m)->pkt_len < tagged)
		return 1;
	/* a fan-out copy may hold only the Ethernet header in its first segment */
	if ((*m)->data_len < tagged) {
		eth = mbufx_pullup(zs, m, tagged);
		if (eth == NULL)
			return -1;
	}
	rte_memcpy(macs, eth, MAC_LEN);
	rte_pktmbuf_adj(*m, MAC_LEN + sizeof(struct rte_vlan_hdr));
	p = mbufx_prepend(zs, m, MAC_LEN);
	if (unlikely(p == NULL)) {
		rte_pktmbuf_prepend(*m, MAC_LEN + sizeof(struct rte_vlan_hdr));
		return -1;
	}
	rte_memcpy(p, macs, MAC_LEN);
	return 0;
}

static inline void
l2fwd_one(struct app_lcore *lc, struct mbufx_zone_set *zs, uint16_t in,
	  struct rte_mbuf *m)
{
	const struct l2fwd_port_conf *pc = &l2fwd.port[in];
	const struct l2fwd_port_conf *out = &l2fwd.port[pc->dst];
	struct l2fwd_lcore *x = lc->priv;
	struct rte_mbuf *copies[2];
	struct rte_ether_hdr *eth;
	int rc;

	if (pc->mirror) {
		/* copies[0] is forwarded, copies[1] mirrored as received */
		if (mbufx_fanout(zs, m, RTE_ETHER_HDR_LEN, copies, 2) == 2) {
			struct rte_mbuf *mc = copies[1];

			m = copies[0];
			if (pc->mirror_tci == 0 || vlan_push(zs, &mc, pc->mirror_tci) == 0) {
				x->mirrored++;
				app_tx(lc, pc->mirror_port, mc);
			} else {
				x->mirror_fail++;
				rte_pktmbuf_free(mc);
			}
		} else {
			x->mirror_fail++;
		}
	}
	if (l2fwd.mac_updating) {
		eth = rte_pktmbuf_mtod(m, struct rte_ether_hdr *);
		eth->dst_addr.addr_bytes[0] = RTE_ETHER_LOCAL_ADMIN_ADDR;
		memset(&eth->dst_addr.addr_bytes[1], 0, 4);
		eth->dst_addr.addr_bytes[5] = (uint8_t)pc->dst;
		eth->src_addr = app_port_state[pc->dst].mac;
	}
	if (out->pop) {
		rc = vlan_pop(zs, &m);
		if (unlikely(rc < 0)) {
			app_drop(lc, in, L2FWD_DROP_VLAN, m);
			return;
		}
		x->popped += rc == 0;
	}
	if (out->push) {
		if (unlikely(vlan_push(zs, &m, out->push_tci) < 0)) {
			app_drop(lc, in, L2FWD_DROP_VLAN, m);
			return;
		}
		x->pushed++;
	}
	app_tx(lc, pc->dst, m);
}

static __rte_always_inline void
l2fwd_burst(struct app_lcore *lc, uint16_t port, struct rte_mbuf **pkts, uint16_t n)
{
	struct mbufx_zone_set *zs = app_pools_of_port(port);
	uint16_t i;

	for (i = 0; i < n; i++)
		rte_prefetch0(rte_pktmbuf_mtod(pkts[i], void *));
	for (i = 0; i < n; i++) {
		if (unlikely(pkts[i]->data_len < RTE_ETHER_HDR_LEN)) {
			app_drop(lc, port, L2FWD_DROP_RUNT, pkts[i]);
			continue;
		}
		l2fwd_one(lc, zs, port, pkts[i]);
	}
}

int
l2fwd_lcore_main(void *arg __rte_unused)
{
	return app_lcore_run(l2fwd_burst);
}
