/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The mbufx authors
 */

/*
 * Software packet-type classification for ports that do not classify L3
 * (net_ring, net_null, net_pcap, net_memif, vhost, af_packet, ...) or when
 * --parse-ptype asks for it. Only what forwarding dispatches on is set: L2
 * Ethernet and the L3 family. It classifies; validating the header is the
 * forwarding path's job (RFC 1812 checks in mbufx-l3fwd).
 */

#ifndef APP_PTYPE_H
#define APP_PTYPE_H

#include <rte_byteorder.h>
#include <rte_ether.h>
#include <rte_mbuf.h>
#include <rte_mbuf_ptype.h>

static inline uint32_t
app_ptype_parse(const struct rte_mbuf *m)
{
	const struct rte_ether_hdr *eth;

	if (m->data_len < sizeof(*eth))
		return RTE_PTYPE_UNKNOWN;
	eth = rte_pktmbuf_mtod(m, const struct rte_ether_hdr *);
	switch (eth->ether_type) {
	case RTE_BE16(RTE_ETHER_TYPE_IPV4):
		return RTE_PTYPE_L2_ETHER | RTE_PTYPE_L3_IPV4_EXT_UNKNOWN;
	case RTE_BE16(RTE_ETHER_TYPE_IPV6):
		return RTE_PTYPE_L2_ETHER | RTE_PTYPE_L3_IPV6_EXT_UNKNOWN;
	case RTE_BE16(RTE_ETHER_TYPE_VLAN):
		return RTE_PTYPE_L2_ETHER_VLAN;
	default:
		return RTE_PTYPE_L2_ETHER;
	}
}

#endif /* APP_PTYPE_H */
