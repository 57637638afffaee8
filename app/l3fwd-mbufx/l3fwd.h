/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The mbufx authors
 */

/*
 * mbufx-l3fwd: an l3fwd-style IPv4/IPv6 router on mbufx zones.
 *
 * Per packet (fwd.c; l3fwd_core.h tells how it runs burst-wide and how to
 * call it without ports):
 *
 *   classify (port ptype or software) -> RFC 1812 checks (rfc1812.h), each
 *   failure dropped and counted by reason -> route lookup (lpm.c or em.c)
 *   returning a next-hop index -> TTL / hop limit decrement with incremental
 *   checksum update -> one of
 *     unicast        rewrite the Ethernet header in place
 *     encapsulated   replace the Ethernet header by Ethernet + VLAN, MPLS,
 *                    IPv4-in-IPv4 or GRE with mbufx_prepend() (in place in
 *                    the headroom when the buffer is private, chained
 *                    otherwise; counted per route) (encap.c)
 *     multicast      mbufx_fanout() into one copy per output port, each with
 *                    a private Ethernet header over a shared payload
 *   -> buffered Tx (app/common).
 *
 * Next hops come from the rule files (route_parse.c), whose format is
 * l3fwd's, extended with optional per-route actions and port lists.
 */

#ifndef L3FWD_H
#define L3FWD_H

#include <stdbool.h>
#include <stdint.h>

#include <rte_ether.h>
#include <rte_ip.h>
#include <rte_mbuf.h>

#include "app_lcore.h"
#include "app_opts.h"

#define L3FWD_MAX_ROUTES 4096
#define L3FWD_MAX_MCAST_PORTS 8
#define L3FWD_NO_ROUTE UINT32_MAX
/**
 * The IPv4 LPM table (rte_lpm) holds each route's next-hop index times
 * this: the byte offset of its counter in an array of uint64_t, and half
 * that of its 16-byte hop (fwd.c), addresses the forwarding loop forms
 * without a shift.
 */
#define L3FWD_LPM4_NH_SCALE 8

enum l3fwd_lookup {
	L3FWD_LOOKUP_LPM = 0,
	L3FWD_LOOKUP_EM,
};

enum l3fwd_encap {
	L3FWD_ENCAP_NONE = 0,
	L3FWD_ENCAP_VLAN,	/**< 802.1Q tag: 4 bytes */
	L3FWD_ENCAP_MPLS,	/**< one MPLS label, bottom of stack: 4 bytes */
	L3FWD_ENCAP_IPIP,	/**< outer IPv4, protocol 4 (41 for IPv6): 20 bytes */
	L3FWD_ENCAP_GRE,	/**< outer IPv4 + basic GRE: 24 bytes */
};

/** Drop reasons of mbufx-l3fwd (after the common ones). */
enum l3fwd_drop {
	L3FWD_DROP_NOT_IP = APP_DROP_COMMON_MAX, /**< neither IPv4 nor IPv6 */
	L3FWD_DROP_RUNT,	/**< frame shorter than Ethernet + minimal IP header */
	L3FWD_DROP_OVERSIZE,	/**< frame longer than --max-pkt-len */
	L3FWD_DROP_BAD_VERSION,	/**< IP version does not match the ether type */
	L3FWD_DROP_BAD_IHL,	/**< IPv4 header length < 20 */
	L3FWD_DROP_TRUNCATED,	/**< IP header runs past the frame */
	L3FWD_DROP_BAD_LEN,	/**< total / payload length vs frame */
	L3FWD_DROP_BAD_CKSUM,	/**< IPv4 header checksum */
	L3FWD_DROP_TTL,		/**< TTL / hop limit 0 or 1: expires here */
	L3FWD_DROP_MARTIAN,	/**< source or destination never forwarded */
	L3FWD_DROP_NO_ROUTE,	/**< no matching rule */
	L3FWD_DROP_ENCAP,	/**< no header mbuf for the encapsulation */
	L3FWD_DROP_FANOUT,	/**< no mbufs for the multicast copies */
	L3FWD_DROP_SHARED,	/**< no mbuf to make a shared packet's headers private */
	L3FWD_DROP_MAX,
};

/** A next hop: what a lookup yields. */
struct l3fwd_nh {
	uint16_t port;			/**< output port (unicast) */
	uint8_t encap;			/**< enum l3fwd_encap */
	uint8_t encap_len;		/**< bytes between Ethernet and the packet */
	uint16_t vlan_tci;		/**< VLAN: VID | PCP << 13 */
	uint32_t mpls_label;		/**< MPLS: label (20 bits) */
	rte_be32_t tun_src;		/**< IPIP/GRE outer source */
	rte_be32_t tun_dst;		/**< IPIP/GRE outer destination */
	uint8_t nb_ports;		/**< multicast: output ports; 0 = unicast */
	uint16_t ports[L3FWD_MAX_MCAST_PORTS];
	bool v6;			/**< an IPv6 rule */
	char text[120];			/**< the rule as parsed, for the summary */
};

/** A parsed rule (LPM prefix or EM 5-tuple) with its next-hop index. */
struct l3fwd_rule {
	bool v6;
	uint8_t depth;			/**< LPM prefix length */
	uint8_t ip_dst[16];		/**< network order (IPv4 in the first 4) */
	uint8_t ip_src[16];		/**< EM only */
	uint16_t port_dst, port_src;	/**< EM only, host order */
	uint8_t proto;			/**< EM only */
	uint32_t nh;			/**< index into l3fwd.nh[] */
	unsigned int line;		/**< line in its file, 0 = built-in default */
};

/** Configuration and tables, read-only once forwarding starts. */
struct l3fwd_conf {
	uint64_t portmask;
	bool promisc;
	bool parse_ptype;
	bool per_port_pool;
	bool no_numa;
	bool ipv6_flag;
	bool encap_chain;		/**< --encap-chain: always chain a header */
	uint32_t bench_gen;		/**< --bench-gen SIZE: software NIC, 0 = off */
	bool bench_rx_cksum;		/**< --bench-rx-cksum: its frames' cksum GOOD */
	enum l3fwd_lookup lookup;
	const char *rule_v4, *rule_v6;
	uint32_t max_frame;		/**< --max-pkt-len minus CRC */
	uint16_t nb_rxd, nb_txd;
	struct rte_ether_addr dst_mac[RTE_MAX_ETHPORTS];

	struct l3fwd_nh *nh;		/**< next hops */
	uint32_t nb_nh;
	struct l3fwd_rule *rules;	/**< parsed rules (build input) */
	uint32_t nb_rules;
	bool any_encap, any_mcast;

	struct app_common_opts common;
};

extern struct l3fwd_conf l3fwd;

/* route_parse.c */
/**
 * Load the rules: --rule_ipv4 / --rule_ipv6 files in the format of
 * --lookup, or the built-in defaults for every enabled port. Prints
 * "file:line: reason" and returns a negative errno on the first bad line.
 */
int l3fwd_routes_load(void);
/** Format a next hop's action, e.g. "port 1 vlan 100". */
void l3fwd_nh_format(const struct l3fwd_nh *nh, char *buf, size_t len);

struct rte_hash;
struct rte_lpm;
struct rte_lpm6;

/** Lookup tables of one socket (lpm.c or em.c fills them). */
struct l3fwd_tables {
	struct rte_lpm *lpm4;
	struct rte_lpm6 *lpm6;
	struct rte_hash *em4, *em6;
	uint32_t *em4_nh, *em6_nh;	/**< hash position -> next hop */
	uint32_t def4, def6;		/**< /0 routes, or L3FWD_NO_ROUTE */
};

extern struct l3fwd_tables l3fwd_tables[RTE_MAX_NUMA_NODES];

/* lpm.c / em.c: build the tables of @p socket from l3fwd.rules */
int l3fwd_lpm_build(int socket);
int l3fwd_em_build(int socket);
void l3fwd_tables_free(void);

/* fwd_lcore.c: the app's lcores around the core (l3fwd_core.h) */
int l3fwd_lcore_main(void *arg);
/** Set up the forwarding context of each forwarding lcore (after the ports). */
int l3fwd_lcores_init(void);
/** Free what l3fwd_lcores_init() allocated. */
void l3fwd_lcores_free(void);
void l3fwd_print_routes(FILE *f);
void l3fwd_json_routes(FILE *f);

#endif /* L3FWD_H */
