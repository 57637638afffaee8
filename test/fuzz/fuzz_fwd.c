/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The mbufx authors
 */

/*
 * fuzz_fwd: the forwarding paths of mbufx-l3fwd and mbufx-l2fwd on
 * arbitrary frames, through their cores (l3fwd_core.h, l2fwd_core.h): the
 * same burst functions the apps' lcores call, without ports.
 *
 * Set-up (once): one zone set on the mbufx driver; mbufx-l3fwd's rules
 * loaded and built twice, LPM and EM (IPv4 and IPv6, every encapsulation
 * action, multicast groups, default routes), each with its own context.
 *
 * Input: a flags byte, a port byte, then up to 16 packets, each
 *   length (2 bytes), segment count and boundaries, headroom, whether it is
 *   a clone of a buffer another reference still holds, packet type and Rx
 *   checksum flags, then its bytes.
 *   flags bits 0-1  0: l3fwd LPM, 1: l3fwd EM, 2-3: l2fwd
 *         bit 2     classify in software (else packet_type from the input)
 *         bit 3     l3fwd: trust the Rx checksum flags; l2fwd: MAC updating
 *         bit 4     l3fwd: --encap-chain
 *         bit 5     l3fwd: jumbo frames accepted (--max-pkt-len 9600)
 *         bit 6     the header zone is dry while the burst runs
 *         bit 7     the packet zone is dry too
 *   port byte: input port (0-3); for l2fwd also which of its options
 *   (mirror with or without a tag, VLAN push or pop on the output) apply.
 *
 * Checked before each l3fwd burst: the four-at-a-time first pass
 * (l3fwd_fast4_x4(), vector) says what the one-by-one form says of every
 * group of four inputs. Checked after each burst: every input is accounted for (dropped and
 * counted, or handed back with an output port the configuration allows),
 * each output passes rte_mbuf_check(), an IPv4 frame l3fwd forwards
 * unencapsulated has a non-zero TTL and a valid header checksum (when the
 * input's checksum was verified in software), bytes shared with a clone's
 * other reference were never written, and once the outputs are freed every
 * zone is full again.
 */

#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <rte_errno.h>
#include <rte_ip.h>
#include <rte_malloc.h>
#include <rte_mbuf.h>

#include "app_front.h"
#include "fuzz_common.h"
#include "l2fwd_core.h"
#include "l3fwd_core.h"
#include "rfc1812.h"

#define NB_PORTS 4
#define MAX_PKTS 16
#define MAX_SEGS 6
#define MAX_LEN 9700
#define HOG_MAX 1024

static const char rules_lpm4[] =
	"R198.18.0.0/24 0\n"
	"R198.18.1.0/24 1\n"
	"R198.18.2.0/24 2 vlan 100:3\n"
	"R198.18.3.0/24 3 mpls 1000\n"
	"R10.0.0.0/8 1 ipip 192.0.2.1 192.0.2.2\n"
	"R10.2.0.0/16 2 gre 192.0.2.1 192.0.2.3\n"
	"R224.1.1.0/24 0,1,2,3\n"
	"R239.0.0.0/8 1,2\n"
	"R0.0.0.0/0 3\n";
static const char rules_lpm6[] =
	"R2001:200:0:0::/64 0\n"
	"R2001:200:0:1::/64 1 vlan 5\n"
	"R2001:200:0:2::/64 2 mpls 77\n"
	"R2001:db8::/32 3 ipip 192.0.2.1 192.0.2.9\n"
	"R2001:db9::/32 1 gre 192.0.2.1 192.0.2.9\n"
	"Rff0e::/16 0,1,2\n"
	"R::/0 2\n";
static const char rules_em4[] =
	"R198.18.0.1 198.18.0.2 9 9 17 0\n"
	"R198.18.1.1 198.18.0.2 9 9 17 1 vlan 7\n"
	"R198.18.2.1 198.18.0.2 80 1024 6 2 gre 1.2.3.4 5.6.7.8\n"
	"R198.18.3.1 198.18.0.2 0 0 1 3 ipip 1.2.3.4 5.6.7.9\n"
	"R224.1.1.1 198.18.0.2 9 9 17 0,1,2\n";
static const char rules_em6[] =
	"R2001:200:0:1::1 2001:200:0:0::1 9 9 17 1 mpls 100\n"
	"R2001:200:0:2::1 2001:200:0:0::1 9 9 17 2\n"
	"Rff0e::1 2001:200:0:0::1 9 9 17 0,3\n";

enum { APP_LPM, APP_EM, APP_L2 };

static struct mbufx_zone_set *zs;
static struct l3fwd_ctx ctx3[2];		/* LPM, EM */
static struct l3fwd_tables tables3[2];
static uint64_t drop3[L3FWD_DROP_MAX];
static struct l2fwd_ctx ctx2;
static struct l2fwd_port_conf ports2[RTE_MAX_ETHPORTS];
static uint64_t drop2[L2FWD_DROP_MAX];

/* clones' other references: the bytes they must keep */
static struct rte_mbuf *orig[MAX_PKTS];
static uint8_t *orig_bytes[MAX_PKTS];
static unsigned int nb_orig;

static struct rte_mbuf *hog[HOG_MAX];
static unsigned int nb_hog;

static const char *
memfd_path(const char *name, const char *text)
{
	static char paths[4][64];
	static unsigned int k;
	int fd = memfd_create(name, 0);

	if (fd < 0 || write(fd, text, strlen(text)) != (ssize_t)strlen(text)) {
		perror("memfd");
		exit(1);
	}
	snprintf(paths[k], sizeof(paths[k]), "/proc/self/fd/%d", fd);
	return paths[k++];
}

/* Load rules of one lookup kind, build its tables and its context. */
static void
setup_l3(int kind, const char *r4, const char *r6)
{
	struct rte_ether_addr src[RTE_MAX_ETHPORTS];
	uint16_t p;
	int rc;

	l3fwd.nh = NULL;	/* the other context keeps its own */
	l3fwd.rules = NULL;
	l3fwd.nb_nh = 0;
	l3fwd.nb_rules = 0;
	l3fwd.lookup = kind == APP_LPM ? L3FWD_LOOKUP_LPM : L3FWD_LOOKUP_EM;
	l3fwd.portmask = (1u << NB_PORTS) - 1;
	l3fwd.max_frame = RTE_ETHER_MAX_LEN - RTE_ETHER_CRC_LEN;
	l3fwd.rule_v4 = memfd_path("r4", r4);
	l3fwd.rule_v6 = memfd_path("r6", r6);
	for (p = 0; p < RTE_MAX_ETHPORTS; p++) {
		memset(&src[p], 0, sizeof(src[p]));
		src[p].addr_bytes[0] = RTE_ETHER_LOCAL_ADMIN_ADDR;
		src[p].addr_bytes[4] = 0xaa;
		src[p].addr_bytes[5] = (uint8_t)p;
		l3fwd.dst_mac[p] = src[p];
		l3fwd.dst_mac[p].addr_bytes[4] = 0xbb;
	}
	rc = l3fwd_routes_load();
	if (rc == 0)
		rc = kind == APP_LPM ? l3fwd_lpm_build(0) : l3fwd_em_build(0);
	if (rc == 0)
		rc = l3fwd_ctx_init(&ctx3[kind], 0, src, drop3);
	if (rc != 0) {
		fprintf(stderr, "fuzz_fwd: l3fwd set-up failed: %d\n", rc);
		exit(1);
	}
	/* keep the tables apart from the global slot the next build uses */
	tables3[kind] = l3fwd_tables[0];
	memset(&l3fwd_tables[0], 0, sizeof(l3fwd_tables[0]));
	ctx3[kind].t = &tables3[kind];
}

int
LLVMFuzzerInitialize(int *argc, char ***argv)
{
	struct mbufx_zone_params p;
	unsigned int z;

	fuzz_eal_init("fuzz_fwd", 0);
	mbufx_zone_params_init(&p);
	p.count[MBUFX_ZONE_HDR] = 255;
	p.count[MBUFX_ZONE_PKT] = 255;
	p.count[MBUFX_ZONE_JUMBO] = 31;
	for (z = 0; z < MBUFX_ZONE_NUM; z++)
		p.cache[z] = MBUFX_ZONE_CACHE_NONE;
	zs = mbufx_zone_set_create("fzfwd", SOCKET_ID_ANY, &p);
	if (zs == NULL) {
		fprintf(stderr, "fuzz_fwd: zone set: %s\n", rte_strerror(rte_errno));
		exit(1);
	}
	setup_l3(APP_LPM, rules_lpm4, rules_lpm6);
	setup_l3(APP_EM, rules_em4, rules_em6);
	l2fwd_ctx_init(&ctx2, ports2, true, NULL, drop2);
	for (z = 0; z < MAX_PKTS; z++) {
		orig_bytes[z] = malloc(MAX_LEN);
		if (orig_bytes[z] == NULL)
			exit(1);
	}
	return 0;
}

/* One segment of len bytes from the packet or jumbo zone, headroom hr. */
static struct rte_mbuf *
seg_alloc(struct fuzz_in *in, uint32_t len, uint16_t hr)
{
	struct rte_mbuf *m;
	uint32_t room;

	m = rte_pktmbuf_alloc(zs->pool[len + hr <= zs->room[MBUFX_ZONE_PKT] +
				       RTE_PKTMBUF_HEADROOM ?
				       MBUFX_ZONE_PKT : MBUFX_ZONE_JUMBO]);
	if (m == NULL)
		return NULL;
	room = m->buf_len;
	if (len > room) {
		rte_pktmbuf_free(m);
		return NULL;
	}
	m->data_off = (uint16_t)RTE_MIN((uint32_t)hr, (room - len) & ~1u);
	fuzz_bytes(in, rte_pktmbuf_append(m, (uint16_t)len), len);
	return m;
}

/* A packet of the input, or NULL when the zones ran out (the input then
 * ends). Clones keep their other reference in orig[]. */
static struct rte_mbuf *
pkt_build(struct fuzz_in *in, bool sw_ptype)
{
	uint32_t len = fuzz_u16(in) % MAX_LEN, cut[MAX_SEGS], left, k;
	unsigned int nseg = 1 + fuzz_below(in, MAX_SEGS), i;
	uint8_t opt = fuzz_u8(in);
	/* even: PMDs deliver frames 2-byte aligned, as DPDK's rte_ether_hdr
	 * (__rte_aligned(2)) requires */
	uint16_t hr = opt & 1 ? fuzz_below(in, 512) & ~1u : RTE_PKTMBUF_HEADROOM;
	struct rte_mbuf *m = NULL, *s, *c;
	uint32_t ptype = sw_ptype ? 0 : fuzz_u32(in);
	uint64_t cks = fuzz_u8(in);
	const void *p;

	/* segment lengths: cut points from the input, the rest in the last */
	left = len;
	for (i = 0; i < nseg; i++) {
		k = i + 1 == nseg ? left : fuzz_below(in, RTE_MIN(left, 9000u) + 1);
		cut[i] = k;
		left -= k;
	}
	if (left != 0)
		return NULL;
	for (i = 0; i < nseg; i++) {
		s = seg_alloc(in, cut[i], i == 0 ? hr : (uint16_t)fuzz_below(in, 64));
		if (s == NULL || (m != NULL && rte_pktmbuf_chain(m, s) != 0)) {
			rte_pktmbuf_free(s);
			rte_pktmbuf_free(m);
			return NULL;
		}
		if (m == NULL)
			m = s;
	}
	m->port = 0;
	m->packet_type = ptype;
	m->ol_flags = (cks & 3) == 0 ? RTE_MBUF_F_RX_IP_CKSUM_GOOD :
		(cks & 3) == 1 ? RTE_MBUF_F_RX_IP_CKSUM_BAD :
		(cks & 3) == 2 ? RTE_MBUF_F_RX_IP_CKSUM_NONE : RTE_MBUF_F_RX_IP_CKSUM_UNKNOWN;
	if ((opt & 2) && nb_orig < MAX_PKTS) {
		/* the forwarder gets a clone: the original must stay as it is */
		c = rte_pktmbuf_clone(m, zs->pool[MBUFX_ZONE_HDR]);
		if (c == NULL) {
			rte_pktmbuf_free(m);
			return NULL;
		}
		p = rte_pktmbuf_read(m, 0, m->pkt_len, orig_bytes[nb_orig]);
		FUZZ_CHECK(p != NULL, "read");
		if (p != orig_bytes[nb_orig])	/* contiguous: not copied */
			memcpy(orig_bytes[nb_orig], p, m->pkt_len);
		orig[nb_orig++] = m;
		m = c;
	}
	return m;
}

static void
hog_zone(enum mbufx_zone_id z)
{
	struct rte_mbuf *m;

	while (nb_hog < HOG_MAX && (m = rte_pktmbuf_alloc(zs->pool[z])) != NULL)
		hog[nb_hog++] = m;
}

static uint64_t
sum(const uint64_t *v, unsigned int n)
{
	uint64_t s = 0;
	unsigned int i;

	for (i = 0; i < n; i++)
		s += v[i];
	return s;
}

/* An IPv4 frame out of l3fwd (forwarded, or the outer header of IPIP or
 * GRE): TTL left, header checksum right. Only when the input was checked
 * in software: classified by the core (packet_type from a NIC is trusted)
 * and its checksum verified (the Rx flags are trusted too). */
static void
check_l3_out(const struct rte_mbuf *m)
{
	const struct rte_ether_hdr *eth = rte_pktmbuf_mtod(m, const struct rte_ether_hdr *);
	uint8_t buf[sizeof(struct rte_ipv4_hdr)];
	const struct rte_ipv4_hdr *ip;

	if (eth->ether_type != RTE_BE16(RTE_ETHER_TYPE_IPV4))
		return;
	ip = rte_pktmbuf_read(m, RTE_ETHER_HDR_LEN, sizeof(buf), buf);
	FUZZ_CHECK(ip != NULL, "IPv4 output shorter than its header");
	FUZZ_CHECK(ip->time_to_live != 0, "TTL 0 forwarded");
	if (rte_ipv4_hdr_len(ip) == sizeof(*ip))
		FUZZ_CHECK(rte_ipv4_cksum(ip) == 0, "IPv4 header checksum 0x%04x wrong",
			   ip->hdr_checksum);
}

/* Where the packet's bytes first differ from b, -1 when they do not. */
static int
diff_at(const struct rte_mbuf *m, const uint8_t *b)
{
	const struct rte_mbuf *s;
	uint32_t off = 0, i;
	const uint8_t *p;

	for (s = m; s != NULL; off += s->data_len, s = s->next) {
		p = rte_pktmbuf_mtod(s, const uint8_t *);
		for (i = 0; i < s->data_len; i++)
			if (p[i] != b[off + i])
				return (int)(off + i);
	}
	return -1;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct l3fwd_out out3;
	static struct l2fwd_out out2;
	struct fuzz_in in = { data, size };
	uint8_t flags = fuzz_u8(&in), pb = fuzz_u8(&in);
	int app = flags & 3 ? ((flags & 3) == 1 ? APP_EM : APP_L2) : APP_LPM;
	bool sw_ptype = flags & 4;
	uint16_t port = pb % NB_PORTS, n = 0, dropped, nout, i;
	struct rte_mbuf *pkts[MAX_PKTS], *m;
	const char *why = NULL;
	uint32_t out_bytes, in_bytes;
	uint16_t in_chains;
	uint64_t d0;
	int at;

	nb_orig = 0;
	while (in.n > 0 && n < MAX_PKTS && (m = pkt_build(&in, sw_ptype)) != NULL)
		pkts[n++] = m;
	if (flags & 0x40)
		hog_zone(MBUFX_ZONE_HDR);
	if (flags & 0x80)
		hog_zone(MBUFX_ZONE_PKT);

	if (app == APP_L2) {
		struct l2fwd_rx rx = { .zs = zs, .port = port };
		struct l2fwd_port_conf *pc = &ports2[port], *oc;

		memset(ports2, 0, sizeof(ports2));
		for (i = 0; i < NB_PORTS; i++)
			ports2[i].dst = i ^ 1;
		oc = &ports2[pc->dst];
		pc->mirror = pb & 0x04;
		pc->mirror_port = (port + 2) % NB_PORTS;
		pc->mirror_tci = pb & 0x08 ? 1 + (pb >> 4) : 0;
		oc->push = pb & 0x10;
		oc->push_tci = 100 | (uint16_t)((pb >> 5) << 13);
		oc->pop = !oc->push && (pb & 0x20);
		ctx2.mac_updating = flags & 8;

		d0 = sum(drop2, RTE_DIM(drop2));
		dropped = l2fwd_process_burst(&ctx2, &rx, pkts, n, &out2);
		FUZZ_CHECK(sum(drop2, RTE_DIM(drop2)) - d0 == dropped, "drops not counted");
		nout = out2.n;
		FUZZ_CHECK(nout + dropped >= n && nout <= 2 * n, "%u in, %u out, %u dropped",
			   n, nout, dropped);
		for (i = 0; i < nout; i++) {
			FUZZ_CHECK(rte_mbuf_check(out2.m[i], 1, &why) == 0, "output %u: %s", i, why);
			FUZZ_CHECK(out2.port[i] == pc->dst ||
				   (pc->mirror && out2.port[i] == pc->mirror_port),
				   "output to port %u", out2.port[i]);
			rte_pktmbuf_free(out2.m[i]);
		}
	} else {
		struct l3fwd_ctx *c = &ctx3[app];
		struct l3fwd_rx rx = {
			.zs = zs, .port = port, .sw_ptype = sw_ptype, .rx_cksum = flags & 8,
		};

		c->front_flags = flags & 0x10 ? APP_FRONT_CHAIN : 0;
		c->max_frame = flags & 0x20 ? 9600 - RTE_ETHER_CRC_LEN :
			RTE_ETHER_MAX_LEN - RTE_ETHER_CRC_LEN;
		in_bytes = 0;
		in_chains = 0;
		for (i = 0; i < n; i++) {
			in_bytes += pkts[i]->pkt_len;
			in_chains += pkts[i]->nb_segs > 1;
		}
		/* the first pass four at a time (vector) against the same
		 * packets one by one, bit for bit */
		for (i = 0; i + 4 <= n; i += 4) {
			void *l3v[4], *l3s[4];
			uint32_t dv[4], ds[4], bv, bs;
			struct l3fwd_sums sv, ss;
			unsigned int okv, oks, j;
			uint16_t gv, gs;

			l3fwd_sums_init(&sv);
			l3fwd_sums_init(&ss);
			okv = l3fwd_fast4_x4(&pkts[i], c->max_frame, sw_ptype, rx.rx_cksum, l3v,
					     dv, &sv);
			oks = l3fwd_fast4_x4_scalar(&pkts[i], c->max_frame, sw_ptype,
						    rx.rx_cksum, l3s, ds, &ss);
			FUZZ_CHECK(okv == oks, "packets %u-%u: four at a time 0x%x, one by one 0x%x",
				   i, i + 3, okv, oks);
			for (j = 0; j < 4; j++)
				FUZZ_CHECK(l3v[j] == l3s[j] && (l3s[j] == NULL || dv[j] == ds[j]),
					   "packet %u: header or destination differs", i + j);
			l3fwd_sums_get(&sv, &bv, &gv);
			l3fwd_sums_get(&ss, &bs, &gs);
			FUZZ_CHECK(bv == bs && gv == gs, "packets %u-%u: sums differ", i, i + 3);
		}
		d0 = sum(drop3, RTE_DIM(drop3));
		dropped = l3fwd_process_burst(c, &rx, pkts, n, &out3);
		FUZZ_CHECK(out3.rx_bytes == in_bytes && out3.rx_chains == in_chains,
			   "input %u bytes %u chains, %u and %u said", in_bytes, in_chains,
			   out3.rx_bytes, out3.rx_chains);
		FUZZ_CHECK(sum(drop3, RTE_DIM(drop3)) - d0 == dropped, "drops not counted");
		nout = out3.n;
		FUZZ_CHECK(nout + dropped >= n && nout <= n * L3FWD_MAX_MCAST_PORTS,
			   "%u in, %u out, %u dropped", n, nout, dropped);
		out_bytes = 0;
		for (i = 0; i < nout; i++) {
			out_bytes += out3.m[i]->pkt_len;
			FUZZ_CHECK(out3.port_or != out3.port_and ||
				   out3.port[i] == out3.port[0], "one port said, %u and %u",
				   out3.port[0], out3.port[i]);
		}
		FUZZ_CHECK(out_bytes == out3.bytes, "%u bytes out, %u said", out_bytes,
			   out3.bytes);
		for (i = 0; i < nout; i++)
			FUZZ_CHECK(out3.m[i]->nb_segs == 1 || out3.segs > 1,
				   "output %u is a chain, segs %u said", i, out3.segs);
		for (i = 0; i < nout; i++) {
			FUZZ_CHECK(rte_mbuf_check(out3.m[i], 1, &why) == 0, "output %u: %s", i, why);
			FUZZ_CHECK(out3.port[i] < NB_PORTS, "output to port %u", out3.port[i]);
			if (sw_ptype && !rx.rx_cksum)
				check_l3_out(out3.m[i]);
			rte_pktmbuf_free(out3.m[i]);
		}
	}

	rte_pktmbuf_free_bulk(hog, nb_hog);
	nb_hog = 0;
	for (i = 0; i < nb_orig; i++) {
		FUZZ_CHECK(rte_mbuf_check(orig[i], 1, &why) == 0, "original %u: %s", i, why);
		at = diff_at(orig[i], orig_bytes[i]);
		FUZZ_CHECK(at < 0, "the forwarder wrote into shared packet %u, byte %d", i, at);
		rte_pktmbuf_free(orig[i]);
	}
	FUZZ_CHECK(mbufx_zone_set_audit(zs, stderr) == 0, "mbufs not back in their zones");
	return 0;
}
