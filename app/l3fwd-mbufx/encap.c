/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The mbufx authors
 */

/*
 * Per-route encapsulation. The received Ethernet header is replaced by the
 * new Ethernet header plus the encapsulation in one piece
 * (app_replace_front()):
 *
 *   VLAN   dst src 8100 | TCI type                     |  IP ...   (+4)
 *   MPLS   dst src 8847 | label TC S=1 TTL              |  IP ...   (+4)
 *   IPIP   dst src 0800 | outer IPv4, proto 4 (41)      |  IP ...   (+20)
 *   GRE    dst src 0800 | outer IPv4, proto 47 | GRE    |  IP ...   (+24)
 *
 * mbufx_prepend() writes into the headroom when the buffer is private (the
 * common case: a PMD just filled it), and chains a header-zone mbuf in front
 * only when it is shared or has no room. --encap-chain always chains a fresh
 * header mbuf instead, which is what DPDK's ipv4_multicast example does, to
 * measure what in-place prepend saves. Ethernet padding is trimmed first, so
 * that the outer header carries the datagram's length. The caller passes the
 * L3 length and TTL it has already read from the checked header.
 */

#include <string.h>

#include <rte_ether.h>
#include <rte_ip.h>
#include <rte_mbuf.h>

#include <mbufx.h>

#include "app_front.h"
#include "l3fwd_core.h"

#define OUTER_TTL 64

struct rte_ether_hdr *
l3fwd_encap(struct l3fwd_ctx *c, struct mbufx_zone_set *zs, uint32_t nh_idx,
	    struct rte_mbuf **mp, uint32_t l3_len, uint8_t ttl, bool v6)
{
	const struct l3fwd_nh *nh = &c->nh[nh_idx];
	struct rte_mbuf *old = *mp;
	struct rte_ether_hdr *eth;
	struct rte_ipv4_hdr *outer;

	if (old->pkt_len > RTE_ETHER_HDR_LEN + l3_len)
		rte_pktmbuf_trim(old, old->pkt_len - RTE_ETHER_HDR_LEN - l3_len);
	eth = app_replace_front(zs, mp, RTE_ETHER_HDR_LEN, RTE_ETHER_HDR_LEN + nh->encap_len,
				0, c->front_flags);
	if (unlikely(eth == NULL))
		return NULL;
	if (*mp == old)
		c->nh_inplace[nh_idx]++;
	else
		c->nh_chained[nh_idx]++;

	switch (nh->encap) {
	case L3FWD_ENCAP_VLAN: {
		struct rte_vlan_hdr *vh = (struct rte_vlan_hdr *)(eth + 1);

		eth->ether_type = RTE_BE16(RTE_ETHER_TYPE_VLAN);
		vh->vlan_tci = rte_cpu_to_be_16(nh->vlan_tci);
		vh->eth_proto = v6 ? RTE_BE16(RTE_ETHER_TYPE_IPV6) : RTE_BE16(RTE_ETHER_TYPE_IPV4);
		break;
	}
	case L3FWD_ENCAP_MPLS: {
		/* label, TC 0, bottom of stack, TTL; 2-byte aligned only */
		rte_be32_t lse = rte_cpu_to_be_32(nh->mpls_label << 12 | 1u << 8 | ttl);

		eth->ether_type = RTE_BE16(RTE_ETHER_TYPE_MPLS);
		memcpy(eth + 1, &lse, sizeof(lse));
		break;
	}
	case L3FWD_ENCAP_IPIP:
	case L3FWD_ENCAP_GRE:
		eth->ether_type = RTE_BE16(RTE_ETHER_TYPE_IPV4);
		outer = (struct rte_ipv4_hdr *)(eth + 1);
		outer->version_ihl = RTE_IPV4_VHL_DEF;
		outer->type_of_service = 0;
		outer->total_length = rte_cpu_to_be_16(nh->encap_len + l3_len);
		outer->packet_id = 0;
		outer->fragment_offset = 0;
		outer->time_to_live = OUTER_TTL;
		outer->src_addr = nh->tun_src;
		outer->dst_addr = nh->tun_dst;
		outer->hdr_checksum = 0;
		if (nh->encap == L3FWD_ENCAP_IPIP) {
			outer->next_proto_id = v6 ? IPPROTO_IPV6 : IPPROTO_IPIP;
		} else {
			rte_be16_t *gre = (rte_be16_t *)(outer + 1);

			outer->next_proto_id = IPPROTO_GRE;
			gre[0] = 0;	/* no checksum, key or sequence; version 0 */
			gre[1] = v6 ? RTE_BE16(RTE_ETHER_TYPE_IPV6) : RTE_BE16(RTE_ETHER_TYPE_IPV4);
		}
		outer->hdr_checksum = rte_ipv4_cksum(outer);
		break;
	default:
		break;
	}
	return eth;
}
