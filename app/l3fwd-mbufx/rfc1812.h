/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The mbufx authors
 */

/*
 * RFC 1812 (section 5.2.2 and 5.3) checks a router makes before forwarding,
 * and the TTL update. Each check returns 0 or the drop reason that counts
 * the packet: the header must be complete in the first segment (the caller
 * pulls it up), the version must match the ether type, the IPv4 header
 * length must be at least 20 bytes and within the frame, the total length
 * (IPv6: payload length) must fit the frame and cover the header, the IPv4
 * header checksum must be right (from the port's Rx flags when it verifies
 * them, else computed), the TTL must survive the decrement, and addresses
 * that are never forwarded (5.3.7: 0/8, 127/8 and class E destinations,
 * limited broadcast, multicast or class E sources) are refused.
 */

#ifndef L3FWD_RFC1812_H
#define L3FWD_RFC1812_H

#include <stddef.h>
#include <string.h>

#include <rte_byteorder.h>
#include <rte_ether.h>
#include <rte_ip.h>
#include <rte_mbuf.h>

#include "l3fwd.h"
#include "l3fwd_compat.h"

/*
 * First byte of an IPv4 address never forwarded (5.3.7): bit 0 as a source
 * (0/8, 127/8, multicast 224/4, class E 240/4), bit 1 as a destination (0/8,
 * 127/8, class E; multicast destinations are routed). Bit 2 marks multicast
 * destinations, for the unicast-only first pass of fwd.c (same lookup).
 */
#define L3FWD_MARTIAN_SRC 1
#define L3FWD_MARTIAN_DST 2
#define L3FWD_MCAST_DST 4
static const uint8_t l3fwd_martian4_tbl[256] = {
	[0] = L3FWD_MARTIAN_SRC | L3FWD_MARTIAN_DST,
	[127] = L3FWD_MARTIAN_SRC | L3FWD_MARTIAN_DST,
	[224 ... 239] = L3FWD_MARTIAN_SRC | L3FWD_MCAST_DST,
	[240 ... 255] = L3FWD_MARTIAN_SRC | L3FWD_MARTIAN_DST,
};

/*
 * A martian source or destination; with @p unicast, a multicast destination
 * too. Every first byte the table marks is a martian source, and with
 * multicast destinations refused the refused destinations are the same
 * set: the unicast test is one OR of two lookups.
 */
static __rte_always_inline bool
l3fwd_martian4(rte_be32_t src_be, rte_be32_t dst_be, const bool unicast)
{
	const uint8_t *s = (const uint8_t *)&src_be, *d = (const uint8_t *)&dst_be;

	if (unicast)
		return (l3fwd_martian4_tbl[s[0]] | l3fwd_martian4_tbl[d[0]]) != 0;
	return ((l3fwd_martian4_tbl[s[0]] & L3FWD_MARTIAN_SRC) |
		(l3fwd_martian4_tbl[d[0]] & L3FWD_MARTIAN_DST)) != 0;
}

/* A big-endian 16-bit field in host order, without the inline asm of
 * rte_be_to_cpu_16() (which keeps the compiler from folding the swap). */
static inline uint16_t
l3fwd_be16(rte_be16_t v)
{
#if RTE_BYTE_ORDER == RTE_LITTLE_ENDIAN
	return __builtin_bswap16(v);
#else
	return v;
#endif
}

/* A 32-bit word at p, zero-extended. */
static inline uint64_t
l3fwd_ld32(const uint8_t *p)
{
	uint32_t v;

	memcpy(&v, p, sizeof(v));	/* one unaligned load, no array on the stack */
	return v;
}

/* A 64-bit word at p. */
static inline uint64_t
l3fwd_ld64(const uint8_t *p)
{
	uint64_t v;

	memcpy(&v, p, sizeof(v));
	return v;
}

/*
 * True when the IPv4 header checksum is right, i.e. when the one's
 * complement sum of the header's 16-bit words is 0xffff. That sum folds the
 * plain integer sum S of the words modulo 0xffff (2^16 = 1 there), so it is
 * 0xffff exactly when S is a non-zero multiple of 0xffff. The 20-byte header
 * (the common case) is read as two 64-bit words and one 32-bit word, whose
 * sum s with each carry out of bit 63 added back in (2^64 is 1 modulo
 * 0xffff) is congruent to S modulo 0xffff, byte order aside: a 64- or
 * 32-bit word is its 16-bit parts modulo 0xffff, and a byte-swapped 16-bit
 * word is 256 times itself, 256 being invertible modulo 0xffff. The
 * compiler tests "s % 0xffff == 0" with a multiply and a compare: no
 * folding. S is never 0 here: the caller has checked the version (4), so
 * the first byte is not 0.
 */
static inline bool
l3fwd_cksum4_ok(const struct rte_ipv4_hdr *ip, uint32_t hlen)
{
	const uint8_t *p = (const uint8_t *)ip;
	uint64_t s;

	if (unlikely(hlen != sizeof(*ip)))
		return rte_ipv4_cksum(ip) == 0;
	/* two 64-bit words and one 32-bit word, the carries added back in
	 * (2^64 is 1 modulo 0xffff too) */
	s = l3fwd_ld64(p);
	s += l3fwd_ld64(p + 8);
	s += s < l3fwd_ld64(p + 8);
	s += l3fwd_ld32(p + 16);
	s += s < l3fwd_ld32(p + 16);
	return s % 0xffff == 0;
}

/*
 * The checks that follow the version and header length: total length,
 * checksum, TTL, addresses, for a header of hlen bytes that the frame holds.
 * Inline with a constant hlen of 20 (the common header), the checksum is
 * the five-word sum. With @p unicast (constant), a multicast destination
 * fails too (as a martian: the caller of that variant only needs a no).
 */
static __rte_always_inline unsigned int
l3fwd_check4_rest(const struct rte_mbuf *m, const struct rte_ipv4_hdr *ip, uint32_t hlen,
		  bool port_cksum, const bool unicast)
{
	const uint32_t l3_len = m->pkt_len - RTE_ETHER_HDR_LEN;
	const uint32_t total = l3fwd_be16(ip->total_length);

	/* hlen <= total <= l3_len in one unsigned compare (hlen <= l3_len) */
	if (unlikely(total - hlen > l3_len - hlen))
		return L3FWD_DROP_BAD_LEN;
	if (port_cksum && (m->ol_flags & RTE_MBUF_F_RX_IP_CKSUM_MASK) ==
	    RTE_MBUF_F_RX_IP_CKSUM_GOOD) {
		/* verified by the port */
	} else if (port_cksum && (m->ol_flags & RTE_MBUF_F_RX_IP_CKSUM_MASK) ==
		   RTE_MBUF_F_RX_IP_CKSUM_BAD) {
		return L3FWD_DROP_BAD_CKSUM;
	} else if (unlikely(!l3fwd_cksum4_ok(ip, hlen))) {
		return L3FWD_DROP_BAD_CKSUM;
	}
	if (unlikely(ip->time_to_live <= 1))
		return L3FWD_DROP_TTL;
	if (unlikely(l3fwd_martian4(ip->src_addr, ip->dst_addr, unicast)))
		return L3FWD_DROP_MARTIAN;
	return 0;
}

/** @return 0, or the l3fwd_drop reason of an IPv4 packet at offset 14 of @p m. */
static inline unsigned int
l3fwd_check4(const struct rte_mbuf *m, const struct rte_ipv4_hdr *ip, bool port_cksum)
{
	const uint32_t l3_len = m->pkt_len - RTE_ETHER_HDR_LEN;
	const uint32_t hlen = (uint32_t)(ip->version_ihl & RTE_IPV4_HDR_IHL_MASK) *
			      RTE_IPV4_IHL_MULTIPLIER;

	if (unlikely((ip->version_ihl >> 4) != 4))
		return L3FWD_DROP_BAD_VERSION;
	if (unlikely(hlen < sizeof(struct rte_ipv4_hdr)))
		return L3FWD_DROP_BAD_IHL;
	if (unlikely(hlen > l3_len))
		return L3FWD_DROP_TRUNCATED;
	if (likely(hlen == sizeof(struct rte_ipv4_hdr)))
		return l3fwd_check4_rest(m, ip, sizeof(struct rte_ipv4_hdr), port_cksum, false);
	return l3fwd_check4_rest(m, ip, hlen, port_cksum, false);
}

/**
 * Decrement the TTL (at least 1: checked before) and update the checksum
 * incrementally (RFC 1624, eqn. 3). @return the new TTL.
 */
static inline uint8_t
l3fwd_ttl_dec4(struct rte_ipv4_hdr *ip)
{
	/*
	 * The 16-bit word m holding the TTL (high byte) goes to m - 0x100, so
	 * ~m + m' = 0xfeff whatever the TTL and protocol: HC' = ~(~HC + 0xfeff),
	 * which is HC + 0x100 with the end-around carry, a result of 0xffff
	 * written as 0 (the same value for every one of the 65536 HC).
	 * Computed on the word as loaded (one's complement sums commute with
	 * the byte swap).
	 */
#if RTE_BYTE_ORDER == RTE_LITTLE_ENDIAN
	/*
	 * TTL, protocol and checksum are one 32-bit word w = TTL | proto << 8
	 * | hc << 16, hc being the checksum as loaded, for which HC + 0x100 is
	 * hc + 1. One addition does both: w - 1 + 0x10000 (the TTL is at
	 * least 1, so no borrow reaches the protocol), plus the end-around
	 * carry 0x10000 when hc + 1 >= 0xffff, i.e. hc >= 0xfffe; the carry
	 * out of bit 31 is the one's complement 0xffff -> 0 wrap.
	 */
	uint8_t *p = (uint8_t *)ip + offsetof(struct rte_ipv4_hdr, time_to_live);
	uint32_t w;

	RTE_BUILD_BUG_ON(offsetof(struct rte_ipv4_hdr, hdr_checksum) !=
			 offsetof(struct rte_ipv4_hdr, time_to_live) + 2);
	memcpy(&w, p, sizeof(w));
	w += 0xffff + (w >= 0xfffe0000u ? 0x10000u : 0);
	memcpy(p, &w, sizeof(w));
	return (uint8_t)w;
#else
	uint32_t sum = (uint32_t)ip->hdr_checksum + rte_cpu_to_be_16(0x0100);

	ip->hdr_checksum = (rte_be16_t)(sum + (sum >= 0xffff));
	return --ip->time_to_live;
#endif
}

static inline bool
l3fwd_martian6(const uint8_t *src, const uint8_t *dst)
{
	static const uint8_t zero[15];

	/* multicast source; unspecified (::) or loopback (::1) destination */
	return src[0] == 0xff ||
	       (memcmp(dst, zero, 15) == 0 && (dst[15] == 0 || dst[15] == 1));
}

/** @return 0, or the l3fwd_drop reason of an IPv6 packet at offset 14 of @p m. */
static inline unsigned int
l3fwd_check6(const struct rte_mbuf *m, const struct rte_ipv6_hdr *ip)
{
	const uint32_t l3_len = m->pkt_len - RTE_ETHER_HDR_LEN;

	if (unlikely((rte_be_to_cpu_32(ip->vtc_flow) >> 28) != 6))
		return L3FWD_DROP_BAD_VERSION;
	if (unlikely(rte_be_to_cpu_16(ip->payload_len) + sizeof(*ip) > l3_len))
		return L3FWD_DROP_BAD_LEN;
	if (unlikely(ip->hop_limits <= 1))
		return L3FWD_DROP_TTL;
	if (unlikely(l3fwd_martian6(L3FWD_IP6_BYTES(ip->src_addr),
				    L3FWD_IP6_BYTES(ip->dst_addr))))
		return L3FWD_DROP_MARTIAN;
	return 0;
}

#endif /* L3FWD_RFC1812_H */
