/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The mbufx authors
 */

/*
 * The arithmetic of mbufx-l3fwd's IPv4 fast path (app/l3fwd-mbufx/rfc1812.h)
 * against the slow, obvious reference, without EAL:
 *
 *  - l3fwd_ttl_dec4(): for every one of the 65536 checksum words, several
 *    TTLs and protocols, the header after the update must equal the
 *    reference exactly: TTL - 1, the checksum of RFC 1624 equation 3
 *    computed with 16-bit one's complement folding, every other byte
 *    unchanged; and a header whose checksum was right is still right.
 *  - l3fwd_cksum4_ok(): its verdict must be rte_ipv4_cksum()'s on every
 *    header with a right checksum, on the same headers with one bit or
 *    one checksum value off, and on edge words (all ones, all zeros).
 *  - l3fwd_martian4(): the table against the address classes of RFC 1812
 *    5.3.7, unicast and general.
 *  - l3fwd_fast4() (the common packet of the first pass) against a plain
 *    reference, and l3fwd_fast4_x4() (four at a time, vector when built
 *    for SSE4.1) against four l3fwd_fast4_x4_scalar() verdicts, bit for
 *    bit: taken mask, headers, destinations and the burst sums, in every
 *    classification and checksum mode, on groups of four mbufs whose
 *    fields and headers are drawn around every threshold the checks have.
 *
 * Exit status 0 when all hold, 1 at the first difference (printed).
 */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mbufx_test.h"
#include "rfc1812.h"

static unsigned long checks;

/* A standalone program (no EAL, nothing to release): the project's failure
 * line (mbufx_test.h), then exit at the first failure. */
#define CHECK(cond, msg, ...) do {					\
		checks++;						\
		TEST_CHECK_(cond, #cond, exit(1), msg, ##__VA_ARGS__);	\
	} while (0)

/* xorshift64: reproducible, seeded from the command line */
static uint64_t rng_state = 0x9e3779b97f4a7c15ULL;

static uint64_t
rng(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return rng_state;
}

/* One's complement sum of 16-bit words, folded. */
static uint16_t
fold(uint32_t s)
{
	while (s >> 16)
		s = (s & 0xffff) + (s >> 16);
	return (uint16_t)s;
}

/* A random 20-byte IPv4 header with version 4, IHL 5 and the given TTL. */
static void
random_hdr(struct rte_ipv4_hdr *ip, uint8_t ttl)
{
	uint8_t *p = (uint8_t *)ip;
	unsigned int i;

	for (i = 0; i < sizeof(*ip); i++)
		p[i] = (uint8_t)rng();
	ip->version_ihl = RTE_IPV4_VHL_DEF;
	ip->time_to_live = ttl;
}

static void
test_ttl_dec(void)
{
	static const uint8_t ttls[] = { 1, 2, 3, 64, 128, 255 };
	static const uint8_t protos[] = { 0, 1, 6, 17, 0xfe, 0xff };
	struct rte_ipv4_hdr ip, before;
	unsigned int t, pr, i;
	uint32_t hc;

	for (t = 0; t < RTE_DIM(ttls); t++) {
		for (pr = 0; pr < RTE_DIM(protos); pr++) {
			for (hc = 0; hc <= 0xffff; hc++) {
				uint16_t m_old, m_new, hc_host, want;
				uint8_t ttl;

				random_hdr(&ip, ttls[t]);
				ip.next_proto_id = protos[pr];
				ip.hdr_checksum = rte_cpu_to_be_16((uint16_t)hc);
				before = ip;
				ttl = l3fwd_ttl_dec4(&ip);
				/* RFC 1624 eqn. 3: HC' = ~(~HC + ~m + m'), in network order */
				m_old = (uint16_t)(ttls[t] << 8 | protos[pr]);
				m_new = (uint16_t)((ttls[t] - 1) << 8 | protos[pr]);
				hc_host = (uint16_t)hc;
				want = (uint16_t)~fold((uint16_t)~hc_host + (uint16_t)~m_old +
						       (uint32_t)m_new);
				CHECK(ttl == ttls[t] - 1 && ip.time_to_live == ttls[t] - 1,
				      "TTL %u -> %u", ttls[t], ip.time_to_live);
				CHECK(ip.next_proto_id == protos[pr], "protocol %u -> %u",
				      protos[pr], ip.next_proto_id);
				CHECK(rte_be_to_cpu_16(ip.hdr_checksum) == want,
				      "TTL %u proto %u checksum 0x%04x -> 0x%04x, want 0x%04x",
				      ttls[t], protos[pr], hc_host,
				      rte_be_to_cpu_16(ip.hdr_checksum), want);
				ip.time_to_live = before.time_to_live;
				ip.hdr_checksum = before.hdr_checksum;
				CHECK(memcmp(&ip, &before, sizeof(ip)) == 0,
				      "bytes beside TTL and checksum changed");
			}
		}
	}
	/* a right checksum stays right */
	for (i = 0; i < 200000; i++) {
		random_hdr(&ip, (uint8_t)(1 + rng() % 255));
		ip.hdr_checksum = 0;
		ip.hdr_checksum = rte_ipv4_cksum(&ip);
		CHECK(rte_ipv4_cksum(&ip) == 0, "reference checksum");
		l3fwd_ttl_dec4(&ip);
		CHECK(rte_ipv4_cksum(&ip) == 0, "checksum wrong after the update (TTL %u)",
		      ip.time_to_live);
	}
}

static void
cksum_case(const struct rte_ipv4_hdr *ip)
{
	bool want = rte_ipv4_cksum(ip) == 0;

	CHECK(l3fwd_cksum4_ok(ip, sizeof(*ip)) == want,
	      "checksum 0x%04x: fast says %d, reference %d", ip->hdr_checksum, !want, want);
}

static void
test_cksum(void)
{
	struct rte_ipv4_hdr ip, bad;
	unsigned int i, bit;
	uint16_t right;

	for (i = 0; i < 300000; i++) {
		random_hdr(&ip, (uint8_t)rng());
		ip.hdr_checksum = 0;
		right = rte_ipv4_cksum(&ip);
		ip.hdr_checksum = right;
		cksum_case(&ip);
		CHECK(l3fwd_cksum4_ok(&ip, sizeof(ip)), "right checksum refused");
		/* one bit off anywhere: always wrong */
		bad = ip;
		bit = (unsigned int)(rng() % (8 * sizeof(ip)));
		((uint8_t *)&bad)[bit / 8] ^= (uint8_t)(1u << (bit % 8));
		if (bit >= 8)	/* keep version and IHL */
			cksum_case(&bad);
		/* the checksum's other encoding of the same sum, and any value */
		bad = ip;
		bad.hdr_checksum = (uint16_t)~bad.hdr_checksum;
		cksum_case(&bad);
		bad.hdr_checksum = (uint16_t)rng();
		cksum_case(&bad);
	}
	/* edge words: all ones and all zeros beside the version */
	memset(&ip, 0xff, sizeof(ip));
	ip.version_ihl = RTE_IPV4_VHL_DEF;
	for (i = 0; i <= 0xffff; i++) {
		ip.hdr_checksum = (uint16_t)i;
		cksum_case(&ip);
	}
	memset(&ip, 0, sizeof(ip));
	ip.version_ihl = RTE_IPV4_VHL_DEF;
	for (i = 0; i <= 0xffff; i++) {
		ip.hdr_checksum = (uint16_t)i;
		cksum_case(&ip);
	}
}

static bool
martian_src(uint8_t b)
{
	return b == 0 || b == 127 || b >= 224;
}

static bool
martian_dst(uint8_t b)
{
	return b == 0 || b == 127 || b >= 240;
}

static void
test_martian(void)
{
	unsigned int s, d;

	for (s = 0; s < 256; s++) {
		for (d = 0; d < 256; d++) {
			rte_be32_t src = rte_cpu_to_be_32(s << 24 | 0x010203);
			rte_be32_t dst = rte_cpu_to_be_32(d << 24 | 0x040506);
			bool general = martian_src((uint8_t)s) || martian_dst((uint8_t)d);
			bool unicast = general || (d >= 224 && d < 240);

			CHECK(l3fwd_martian4(src, dst, false) == general, "%u -> %u", s, d);
			CHECK(l3fwd_martian4(src, dst, true) == unicast, "%u -> %u unicast",
			      s, d);
		}
	}
}

/* The common packet of the first pass, checked field by field the plain
 * way (RFC 1812 5.2.2 and 5.3.7, rte_ipv4_cksum()). */
static bool
ref_fast4(const struct rte_mbuf *m, uint32_t max_frame, bool sw_ptype, bool rx_cksum)
{
	const uint8_t *f = rte_pktmbuf_mtod(m, const uint8_t *);
	const struct rte_ipv4_hdr *ip = (const struct rte_ipv4_hdr *)(f + 14);
	uint64_t ck = m->ol_flags & RTE_MBUF_F_RX_IP_CKSUM_MASK;
	uint32_t total;

	if (m->pkt_len > max_frame || m->data_len < 34)
		return false;
	if (m->refcnt != 1 || (m->ol_flags & (RTE_MBUF_F_INDIRECT | RTE_MBUF_F_EXTERNAL)))
		return false;
	if (sw_ptype ? !(f[12] == 0x08 && f[13] == 0x00) :
	    (m->packet_type & RTE_PTYPE_L2_MASK) != RTE_PTYPE_L2_ETHER ||
	    (m->packet_type & RTE_PTYPE_L3_MASK) != RTE_PTYPE_L3_IPV4)
		return false;
	if (ip->version_ihl != 0x45)
		return false;
	total = (uint32_t)f[16] << 8 | f[17];
	if (total < 20 || (int64_t)total > (int64_t)m->pkt_len - 14)
		return false;
	if (!(rx_cksum && ck == RTE_MBUF_F_RX_IP_CKSUM_GOOD)) {
		if (rx_cksum && ck == RTE_MBUF_F_RX_IP_CKSUM_BAD)
			return false;
		if (rte_ipv4_cksum(ip) != 0)
			return false;
	}
	if (ip->time_to_live <= 1)
		return false;
	/* unicast forwarding: 0/8, 127/8 and 224/3 refused either way */
	if (f[26] == 0 || f[26] == 127 || f[26] >= 224 || f[30] == 0 || f[30] == 127 ||
	    f[30] >= 224)
		return false;
	return true;
}

static uint8_t
pick8(const uint8_t *v, unsigned int n)
{
	return rng() % 4 == 0 ? (uint8_t)rng() : v[rng() % n];
}

#define FAST_BUF 192

/* One mbuf of a group: fields and header near the thresholds. */
static void
fast_mbuf(struct rte_mbuf *m, uint8_t *buf, uint32_t max_frame)
{
	static const uint8_t first[] = { 0, 1, 10, 126, 127, 128, 198, 223, 224, 239, 240, 255 };
	static const uint8_t ttls[] = { 0, 1, 2, 64, 255 };
	static const uint8_t vhl[] = { 0x45, 0x45, 0x45, 0x44, 0x46, 0x4f, 0x55, 0x65, 0x05 };
	static const uint64_t ol[] = {
		0, RTE_MBUF_F_RX_IP_CKSUM_GOOD, RTE_MBUF_F_RX_IP_CKSUM_BAD,
		RTE_MBUF_F_RX_IP_CKSUM_NONE, RTE_MBUF_F_RX_IP_CKSUM_GOOD | RTE_MBUF_F_RX_L4_CKSUM_BAD,
		RTE_MBUF_F_INDIRECT, RTE_MBUF_F_EXTERNAL, RTE_MBUF_F_RX_IP_CKSUM_GOOD |
		RTE_MBUF_F_EXTERNAL,
	};
	static const uint32_t ptypes[] = {
		RTE_PTYPE_L2_ETHER | RTE_PTYPE_L3_IPV4,
		RTE_PTYPE_L2_ETHER | RTE_PTYPE_L3_IPV4 | RTE_PTYPE_L4_UDP,
		RTE_PTYPE_L2_ETHER | RTE_PTYPE_L3_IPV4_EXT, RTE_PTYPE_L2_ETHER_VLAN |
		RTE_PTYPE_L3_IPV4, RTE_PTYPE_L3_IPV4, RTE_PTYPE_L2_ETHER | RTE_PTYPE_L3_IPV6, 0,
	};
	struct rte_ipv4_hdr *ip;
	/* even: struct rte_ether_hdr is 2-byte aligned, and PMDs and the
	 * mbufx library start frames at even offsets */
	uint16_t off = (uint16_t)(rng() % 32 * 2);
	uint32_t total;
	unsigned int i;

	memset(m, 0, sizeof(*m));
	m->buf_addr = buf;
	m->buf_len = FAST_BUF;
	m->data_off = off;
	m->refcnt = rng() % 8 == 0 ? (uint16_t)(rng() % 3) : 1;
	m->nb_segs = rng() % 4 == 0 ? (uint16_t)(rng() % 5 + 1) : 1;
	m->port = (uint16_t)rng();
	m->ol_flags = rng() % 2 ? ol[rng() % RTE_DIM(ol)] : 0;
	m->packet_type = rng() % 8 == 0 ? (uint32_t)rng() : ptypes[rng() % RTE_DIM(ptypes)];
	m->vlan_tci = (uint16_t)rng();
	m->hash.rss = (uint32_t)rng();
	switch (rng() % 6) {
	case 0:
		m->data_len = (uint16_t)(rng() % 40);
		break;
	case 1:
		m->data_len = (uint16_t)(33 + rng() % 3);
		break;
	default:
		m->data_len = (uint16_t)(34 + rng() % (FAST_BUF - 64 - 34));
	}
	switch (rng() % 6) {
	case 0:
		m->pkt_len = (uint32_t)rng() % 64;
		break;
	case 1:
		m->pkt_len = max_frame + (uint32_t)(rng() % 3) - 1;
		break;
	case 2:
		m->pkt_len = (uint32_t)rng();
		break;
	default:
		m->pkt_len = m->data_len + (uint32_t)(rng() % 2 ? 0 : rng() % 2000);
	}
	for (i = 0; i < FAST_BUF; i++)
		buf[i] = (uint8_t)rng();
	buf[off + 12] = rng() % 8 ? 0x08 : (uint8_t)rng();
	buf[off + 13] = rng() % 8 ? 0x00 : (uint8_t)rng();
	ip = (struct rte_ipv4_hdr *)(buf + off + 14);
	ip->version_ihl = pick8(vhl, RTE_DIM(vhl));
	ip->time_to_live = pick8(ttls, RTE_DIM(ttls));
	((uint8_t *)&ip->src_addr)[0] = pick8(first, RTE_DIM(first));
	((uint8_t *)&ip->dst_addr)[0] = pick8(first, RTE_DIM(first));
	switch (rng() % 5) {
	case 0:
		total = (uint32_t)(rng() % 0x10000);
		break;
	case 1:
		total = (uint32_t)(19 + rng() % 3);
		break;
	default:
		total = m->pkt_len - 14 + (uint32_t)(rng() % 3) - 2 + (rng() % 2 ? 0 : 1);
	}
	ip->total_length = rte_cpu_to_be_16((uint16_t)total);
	ip->hdr_checksum = 0;
	ip->hdr_checksum = rte_ipv4_cksum(ip);
	switch (rng() % 6) {
	case 0:
		ip->hdr_checksum = (uint16_t)rng();
		break;
	case 1:
		ip->hdr_checksum = (uint16_t)~ip->hdr_checksum;
		break;
	case 2:
		((uint8_t *)ip)[1 + rng() % 19] ^= (uint8_t)(1u << (rng() % 8));
		break;
	}
}

static void
fast_case(struct rte_mbuf *m, uint32_t max_frame, bool sw_ptype, bool rx_cksum,
	  uint8_t (*saved)[FAST_BUF])
{
	struct rte_mbuf *pkts[4] = { &m[0], &m[1], &m[2], &m[3] };
	void *l3v[4], *l3s[4];
	uint32_t dv[4], ds[4], bv, bs;
	struct l3fwd_sums sv, ss;
	unsigned int i, okv, oks;
	uint16_t gv, gs;

	l3fwd_sums_init(&sv);
	l3fwd_sums_init(&ss);
	okv = l3fwd_fast4_x4(pkts, max_frame, sw_ptype, rx_cksum, l3v, dv, &sv);
	oks = l3fwd_fast4_x4_scalar(pkts, max_frame, sw_ptype, rx_cksum, l3s, ds, &ss);
	CHECK(okv == oks, "x4 0x%x, scalar 0x%x (sw_ptype %d rx_cksum %d)", okv, oks,
	      sw_ptype, rx_cksum);
	for (i = 0; i < 4; i++) {
		bool ref = ref_fast4(&m[i], max_frame, sw_ptype, rx_cksum);

		CHECK(l3v[i] == l3s[i], "packet %u: header %p, scalar %p", i, l3v[i], l3s[i]);
		/* the reference knows valid mbufs only (pkt_len >= data_len);
		 * the two forms agree on any */
		if (m[i].pkt_len >= m[i].data_len) {
			CHECK(!!(oks & (1u << i)) == ref, "packet %u: fast4 %d, reference %d "
			      "(sw_ptype %d rx_cksum %d, pkt_len %u data_len %u)", i,
			      !!(oks & (1u << i)), ref, sw_ptype, rx_cksum, m[i].pkt_len,
			      m[i].data_len);
			CHECK(l3s[i] == (ref ? rte_pktmbuf_mtod_offset(&m[i], void *, 14) : NULL),
			      "packet %u: header %p", i, l3s[i]);
		}
		if (l3s[i] != NULL)
			CHECK(dv[i] == ds[i] && ds[i] == rte_be_to_cpu_32(
				rte_pktmbuf_mtod_offset(&m[i], struct rte_ipv4_hdr *,
							14)->dst_addr),
			      "packet %u: destination 0x%x, scalar 0x%x", i, dv[i], ds[i]);
	}
	l3fwd_sums_get(&sv, &bv, &gv);
	l3fwd_sums_get(&ss, &bs, &gs);
	CHECK(bv == bs && gv == gs, "sums %u/%u, scalar %u/%u", bv, gv, bs, gs);
	/* with the TTL update: the same verdicts, and the frames as after
	 * l3fwd_ttl_dec4() on each packet taken, every other byte unchanged */
	{
		uint8_t before[4][FAST_BUF];

		for (i = 0; i < 4; i++)
			memcpy(before[i], m[i].buf_addr, FAST_BUF);
		l3fwd_sums_init(&sv);
		okv = l3fwd_fast4_x4_dec(pkts, max_frame, sw_ptype, rx_cksum, l3v, dv, &sv);
		CHECK(okv == oks, "with the TTL update 0x%x, without 0x%x", okv, oks);
		for (i = 0; i < 4; i++) {
			if (oks & (1u << i))
				l3fwd_ttl_dec4((struct rte_ipv4_hdr *)(before[i] + m[i].data_off + 14));
			CHECK(memcmp(before[i], m[i].buf_addr, FAST_BUF) == 0,
			      "packet %u: frame after the TTL update differs", i);
			memcpy(m[i].buf_addr, saved[i], FAST_BUF);
		}
	}
	CHECK(bs == m[0].pkt_len + m[1].pkt_len + m[2].pkt_len + m[3].pkt_len &&
	      gs == (m[0].nb_segs | m[1].nb_segs | m[2].nb_segs | m[3].nb_segs), "sums");
}

static void
test_fast4(void)
{
	static uint8_t buf[4][FAST_BUF], saved[4][FAST_BUF];
	static const uint32_t frames[] = { 1514, 9600, 60, 100 };
	struct rte_mbuf m[4];
	unsigned long taken = 0, groups, edges = 0;
	unsigned int i, mode;
	uint32_t max_frame;

	for (groups = 0; groups < 400000; groups++) {
		max_frame = frames[rng() % RTE_DIM(frames)];
		for (i = 0; i < 4; i++)
			fast_mbuf(&m[i], buf[i], max_frame);
		/* sometimes all four the common packet, so the vector form's
		 * own verdict path runs whole */
		if (groups % 4 == 0)
			for (i = 0; i < 4; i++) {
				struct rte_ipv4_hdr *ip;

				m[i].refcnt = 1;
				m[i].ol_flags &= ~(RTE_MBUF_F_INDIRECT | RTE_MBUF_F_EXTERNAL);
				m[i].data_len = (uint16_t)RTE_MAX(m[i].data_len, 34);
				m[i].pkt_len = RTE_MIN(RTE_MAX(m[i].pkt_len, m[i].data_len),
						       max_frame);
				ip = rte_pktmbuf_mtod_offset(&m[i], struct rte_ipv4_hdr *, 14);
				ip->version_ihl = 0x45;
				ip->time_to_live = (uint8_t)RTE_MAX(ip->time_to_live, 2);
				ip->total_length = rte_cpu_to_be_16((uint16_t)(m[i].pkt_len - 14));
				if (((uint8_t *)&ip->src_addr)[0] >= 224)
					((uint8_t *)&ip->src_addr)[0] = 10;
				if (((uint8_t *)&ip->dst_addr)[0] >= 224)
					((uint8_t *)&ip->dst_addr)[0] = 198;
				ip->hdr_checksum = 0;
				ip->hdr_checksum = rte_ipv4_cksum(ip);
				/* often a checksum word at the end-around carry of
				 * the TTL update (as loaded: 0xfffd-0x0001), set
				 * through the identification field */
				if (rng() % 2) {
					static const uint16_t edge[] = {
						0xfffd, 0xfffe, 0x0000, 0x0001,
					};
					uint16_t want = edge[rng() % RTE_DIM(edge)];

					ip->packet_id = 0;
					ip->hdr_checksum = 0;
					ip->packet_id = fold((uint16_t)~want +
							     (uint32_t)rte_ipv4_cksum(ip));
					ip->hdr_checksum = rte_ipv4_cksum(ip);
					edges += ip->hdr_checksum == want;
				}
			}
		for (i = 0; i < 4; i++)
			memcpy(saved[i], buf[i], FAST_BUF);
		for (mode = 0; mode < 4; mode++)
			fast_case(m, max_frame, mode & 1, mode & 2, saved);
		for (i = 0; i < 4; i++)
			taken += ref_fast4(&m[i], max_frame, true, false);
	}
	/* the draw must reach both verdicts often */
	CHECK(taken > groups / 2 && taken < groups * 3, "%lu of %lu packets taken", taken,
	      groups * 4);
	CHECK(edges > groups / 4, "%lu checksums at the carry edge", edges);
#ifdef L3FWD_FAST4_VEC
	printf("l3fwd rfc1812: four at a time: SSE4.1 form against the scalar one\n");
#else
	printf("l3fwd rfc1812: four at a time: scalar form only (no SSE4.1)\n");
#endif
}

int
main(int argc, char **argv)
{
	if (argc > 1)
		rng_state = strtoull(argv[1], NULL, 0) | 1;
	test_ttl_dec();
	test_cksum();
	test_martian();
	test_fast4();
	printf("l3fwd rfc1812: %lu checks passed\n", checks);
	return 0;
}
