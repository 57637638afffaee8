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
 *
 * Exit status 0 when all hold, 1 at the first difference (printed).
 */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rfc1812.h"

static unsigned long checks;

#define CHECK(cond, ...) do {						\
		checks++;						\
		if (!(cond)) {						\
			printf("FAIL %s:%d: ", __func__, __LINE__);	\
			printf(__VA_ARGS__);				\
			printf("\n");					\
			exit(1);					\
		}							\
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

int
main(int argc, char **argv)
{
	if (argc > 1)
		rng_state = strtoull(argv[1], NULL, 0) | 1;
	test_ttl_dec();
	test_cksum();
	test_martian();
	printf("l3fwd rfc1812: %lu checks passed\n", checks);
	return 0;
}
