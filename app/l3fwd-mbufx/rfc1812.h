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

/* A 32-bit word to p. */
static inline void
l3fwd_st32(uint8_t *p, uint32_t v)
{
	memcpy(p, &v, sizeof(v));
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

/*
 * The common IPv4 packet of the forwarding fast path: a direct mbuf with no
 * other reference (its headers are rewritten in place), a frame within
 * @p max_frame whose first segment holds Ethernet and a 20-byte IPv4 header
 * (by the ether type with @p sw_ptype, else by packet_type) to a unicast
 * destination, passing every check of l3fwd_check4_rest() (with the port's
 * checksum verdict when @p rx_cksum). @return its IPv4 header, or NULL for
 * every other packet (the general classifier then decides).
 */
static __rte_always_inline struct rte_ipv4_hdr *
l3fwd_fast4(const struct rte_mbuf *m, uint32_t max_frame, const bool sw_ptype,
	    const bool rx_cksum)
{
	struct rte_ether_hdr *eth = rte_pktmbuf_mtod(m, struct rte_ether_hdr *);
	struct rte_ipv4_hdr *ip = (struct rte_ipv4_hdr *)(eth + 1);

	if (unlikely(m->pkt_len > max_frame ||
		     m->data_len < RTE_ETHER_HDR_LEN + sizeof(*ip)))
		return NULL;
	if (unlikely(rte_mbuf_refcnt_read(m) != 1 || !RTE_MBUF_DIRECT(m)))
		return NULL;
	if (sw_ptype) {
		if (unlikely(eth->ether_type != RTE_BE16(RTE_ETHER_TYPE_IPV4)))
			return NULL;
	} else if (unlikely((m->packet_type & (RTE_PTYPE_L2_MASK | RTE_PTYPE_L3_MASK)) !=
			    (RTE_PTYPE_L2_ETHER | RTE_PTYPE_L3_IPV4))) {
		return NULL;
	}
	if (unlikely(ip->version_ihl != RTE_IPV4_VHL_DEF) ||
	    unlikely(l3fwd_check4_rest(m, ip, sizeof(*ip), rx_cksum, true) != 0))
		return NULL;
	return ip;
}

#if defined(RTE_ARCH_X86) && defined(__SSE4_1__) && defined(__SSSE3__)
#include <smmintrin.h>
#define L3FWD_FAST4_VEC 1
#endif

/* What the first pass sums of the input burst: bytes (pkt_len) and the OR
 * of nb_segs, in vector lanes when the four-at-a-time form is vector. */
struct l3fwd_sums {
#ifdef L3FWD_FAST4_VEC
	__m128i bytes;	/**< 32-bit lanes */
	__m128i segs;	/**< nb_segs in the low 16 bits of each lane */
#else
	uint32_t bytes;
	uint16_t segs;
#endif
};

static __rte_always_inline void
l3fwd_sums_init(struct l3fwd_sums *s)
{
#ifdef L3FWD_FAST4_VEC
	s->bytes = _mm_setzero_si128();
	s->segs = _mm_setzero_si128();
#else
	s->bytes = 0;
	s->segs = 0;
#endif
}

static __rte_always_inline void
l3fwd_sums_add(struct l3fwd_sums *s, const struct rte_mbuf *m)
{
#ifdef L3FWD_FAST4_VEC
	s->bytes = _mm_add_epi32(s->bytes, _mm_cvtsi32_si128((int)m->pkt_len));
	s->segs = _mm_or_si128(s->segs, _mm_cvtsi32_si128(m->nb_segs));
#else
	s->bytes += m->pkt_len;
	s->segs |= m->nb_segs;
#endif
}

/* The sums: bytes and the OR of nb_segs. */
static __rte_always_inline void
l3fwd_sums_get(const struct l3fwd_sums *s, uint32_t *bytes, uint16_t *segs)
{
#ifdef L3FWD_FAST4_VEC
	__m128i b = s->bytes, g = s->segs;

	b = _mm_add_epi32(b, _mm_shuffle_epi32(b, 0x4e));
	b = _mm_add_epi32(b, _mm_shuffle_epi32(b, 0xb1));
	g = _mm_or_si128(g, _mm_shuffle_epi32(g, 0x4e));
	g = _mm_or_si128(g, _mm_shuffle_epi32(g, 0xb1));
	*bytes = (uint32_t)_mm_cvtsi128_si32(b);
	*segs = (uint16_t)_mm_cvtsi128_si32(g);
#else
	*bytes = s->bytes;
	*segs = s->segs;
#endif
}

/* l3fwd_fast4() of pkts[0 .. 4) one by one, their sums added to @p sums:
 * the reference of the vector form, and its path for a group it does not
 * take whole. */
static __rte_always_inline unsigned int
l3fwd_fast4_x4_scalar_do(struct rte_mbuf *const *pkts, uint32_t max_frame,
			 const bool sw_ptype, const bool rx_cksum, void **l3, uint32_t *dst,
			 struct l3fwd_sums *sums, const bool dec)
{
	unsigned int i, ok = 0;

	for (i = 0; i < 4; i++)
		l3fwd_sums_add(sums, pkts[i]);
	for (i = 0; i < 4; i++) {
		struct rte_ipv4_hdr *ip = l3fwd_fast4(pkts[i], max_frame, sw_ptype, rx_cksum);

		l3[i] = ip;
		if (ip != NULL) {
			dst[i] = rte_be_to_cpu_32(ip->dst_addr);
			ok |= 1u << i;
			if (dec)
				l3fwd_ttl_dec4(ip);
		}
	}
	return ok;
}

static __rte_always_inline unsigned int
l3fwd_fast4_x4_scalar(struct rte_mbuf *const *pkts, uint32_t max_frame, const bool sw_ptype,
		      const bool rx_cksum, void **l3, uint32_t *dst, struct l3fwd_sums *sums)
{
	return l3fwd_fast4_x4_scalar_do(pkts, max_frame, sw_ptype, rx_cksum, l3, dst, sums,
					false);
}

#ifdef L3FWD_FAST4_VEC
/*
 * l3fwd_fast4() of four packets at once (SSE4.1): the same verdicts, bit for
 * bit, and the same sums. The mbuf fields (reference count, nb_segs,
 * offload flags, packet type, lengths) and the headers of the four are
 * loaded and transposed so that each 32-bit lane holds one packet's field
 * (x4_mbufs_load(), x4_hdrs_load()), and every check is one vector
 * operation or a few for all four. First the mbuf fields (x4_mbuf_checks()),
 * before any header is read; a group where one fails goes through
 * l3fwd_fast4() one by one (so a header is never read beyond data_len, and
 * a checksum the port did not call good is checked as the scalar form
 * does):
 *  - mbuf: reference count 1, neither indirect nor external;
 *  - frame: pkt_len <= max_frame, data_len >= 34;
 *  - the packet type, unless @p sw_ptype;
 *  - with @p rx_cksum, the port's checksum verdict good;
 * then the headers, for all four (a packet refused there is refused):
 *  - ether type 0x0800 (with @p sw_ptype) and version/IHL 0x45;
 *  - 20 <= total length <= pkt_len - 14, as one unsigned compare;
 *  - TTL > 1; source and destination first bytes not in {0, 127, 224-255}
 *    (l3fwd_martian4() unicast), as bytes: b + 32 <= 32 or b == 127
 *    (x4_checks());
 *  - header checksum (x4_cksum_ok()): with each 16-bit word w (as loaded:
 *    a byte swap is a factor 256, invertible modulo 0xffff) summed as the
 *    signed w ^ 0x8000 (pmaddwd), the sum S of the ten words is the lane
 *    plus 10 * 0x8000; it is right when S is a non-zero multiple of 0xffff
 *    (S < 2^20), i.e. when S times the inverse of 0xffff modulo 2^32, minus
 *    1, is at most 65536 unsigned (the divisibility test by
 *    multiplication); not made with @p rx_cksum (the port's verdict, good
 *    in all four, stands for it, as in l3fwd_check4_rest()).
 * The destinations (host order) go to dst[0 .. 4) and the headers to
 * l3[0 .. 4) (NULL for a packet refused). @return bit i set when pkts[i]
 * is taken. With @p dec (l3fwd_fast4_x4_dec()), the packets taken get
 * l3fwd_ttl_dec4(), as one vector addition over their TTL, protocol and
 * checksum words when all four are (x4_ttl_dec()).
 */

/* The fields of four mbufs, one lane each. */
struct x4_mbufs {
	__m128i pt;	/**< packet_type */
	__m128i pl;	/**< pkt_len */
	__m128i dl;	/**< data_len | vlan_tci << 16 */
	__m128i rc;	/**< data_off | refcnt << 16 */
	__m128i segs;	/**< nb_segs | port << 16 */
	__m128i olo;	/**< ol_flags, low half */
	__m128i ohi;	/**< ol_flags, high half */
};

/* Header bytes of four frames, one lane each: e frame bytes 10-13 (ending
 * with the ether type), r0-r4 the IPv4 header's five 32-bit words. */
struct x4_hdrs {
	__m128i e, r0, r1, r2, r3, r4;
};

/* The 4 x 4 transpose of 32-bit lanes: t[j] lane i is b[i] lane j. */
static __rte_always_inline void
x4_transpose(__m128i b0, __m128i b1, __m128i b2, __m128i b3, __m128i t[4])
{
	__m128i t0 = _mm_unpacklo_epi32(b0, b1), t1 = _mm_unpacklo_epi32(b2, b3);
	__m128i t2 = _mm_unpackhi_epi32(b0, b1), t3 = _mm_unpackhi_epi32(b2, b3);

	t[0] = _mm_unpacklo_epi64(t0, t1);
	t[1] = _mm_unpackhi_epi64(t0, t1);
	t[2] = _mm_unpacklo_epi64(t2, t3);
	t[3] = _mm_unpackhi_epi64(t2, t3);
}

/* 16 bytes at p, as one vector */
#define X4_LD(p) _mm_loadu_si128((const void *)(p))

/* The fields of four mbufs; with @p sw_ptype, no packet type (f->pt is
 * not set): 8 bytes of the second half-line each, pkt_len and data_len. */
static __rte_always_inline void
x4_mbufs_load(struct rte_mbuf *const *m, struct x4_mbufs *f, const bool sw_ptype)
{
	__m128i t[4], t0, t1;

	RTE_BUILD_BUG_ON(offsetof(struct rte_mbuf, refcnt) !=
			 offsetof(struct rte_mbuf, rearm_data) + 2);
	RTE_BUILD_BUG_ON(offsetof(struct rte_mbuf, nb_segs) !=
			 offsetof(struct rte_mbuf, rearm_data) + 4);
	RTE_BUILD_BUG_ON(offsetof(struct rte_mbuf, ol_flags) !=
			 offsetof(struct rte_mbuf, rearm_data) + 8);
	RTE_BUILD_BUG_ON(offsetof(struct rte_mbuf, pkt_len) !=
			 offsetof(struct rte_mbuf, packet_type) + 4);
	RTE_BUILD_BUG_ON(offsetof(struct rte_mbuf, data_len) !=
			 offsetof(struct rte_mbuf, packet_type) + 8);
	if (sw_ptype) {
		t0 = _mm_unpacklo_epi32(_mm_loadl_epi64((const void *)&m[0]->pkt_len),
					_mm_loadl_epi64((const void *)&m[1]->pkt_len));
		t1 = _mm_unpacklo_epi32(_mm_loadl_epi64((const void *)&m[2]->pkt_len),
					_mm_loadl_epi64((const void *)&m[3]->pkt_len));
		f->pl = _mm_unpacklo_epi64(t0, t1);
		f->dl = _mm_unpackhi_epi64(t0, t1);
	} else {
		x4_transpose(X4_LD(&m[0]->packet_type), X4_LD(&m[1]->packet_type),
			     X4_LD(&m[2]->packet_type), X4_LD(&m[3]->packet_type), t);
		f->pt = t[0];
		f->pl = t[1];
		f->dl = t[2];
	}
	x4_transpose(X4_LD(&m[0]->rearm_data), X4_LD(&m[1]->rearm_data),
		     X4_LD(&m[2]->rearm_data), X4_LD(&m[3]->rearm_data), t);
	f->rc = t[0];
	f->segs = t[1];
	f->olo = t[2];
	f->ohi = t[3];
}

static __rte_always_inline void
x4_hdrs_load(uint8_t *const h[4], struct x4_hdrs *x)
{
	__m128i t[4], t0, t1;

	/* IP header bytes 4-19: r1 id/frag, r2 TTL/proto/cksum, r3 src, r4 dst */
	x4_transpose(X4_LD(h[0] + RTE_ETHER_HDR_LEN + 4), X4_LD(h[1] + RTE_ETHER_HDR_LEN + 4),
		     X4_LD(h[2] + RTE_ETHER_HDR_LEN + 4), X4_LD(h[3] + RTE_ETHER_HDR_LEN + 4), t);
	x->r1 = t[0];
	x->r2 = t[1];
	x->r3 = t[2];
	x->r4 = t[3];
	/* frame bytes 10-17: e ends with the ether type, r0 is IP bytes 0-3 */
	t0 = _mm_unpacklo_epi32(_mm_loadl_epi64((const void *)(h[0] + RTE_ETHER_HDR_LEN - 4)),
				_mm_loadl_epi64((const void *)(h[1] + RTE_ETHER_HDR_LEN - 4)));
	t1 = _mm_unpacklo_epi32(_mm_loadl_epi64((const void *)(h[2] + RTE_ETHER_HDR_LEN - 4)),
				_mm_loadl_epi64((const void *)(h[3] + RTE_ETHER_HDR_LEN - 4)));
	x->e = _mm_unpacklo_epi64(t0, t1);
	x->r0 = _mm_unpackhi_epi64(t0, t1);
}

/* a <= b, unsigned, per 32-bit lane */
#define X4_LE(a, b) _mm_cmpeq_epi32(_mm_min_epu32((a), (b)), (a))

/* The checks of the mbuf fields: all ones in the lanes that pass. */
static __rte_always_inline __m128i
x4_mbuf_checks(const struct x4_mbufs *f, uint32_t max_frame, const bool sw_ptype,
	       const bool rx_cksum)
{
	const __m128i min_len = _mm_set1_epi32(RTE_ETHER_HDR_LEN +
					       sizeof(struct rte_ipv4_hdr) - 1);
	const __m128i ind_ext = _mm_set1_epi32((int)((RTE_MBUF_F_INDIRECT |
						      RTE_MBUF_F_EXTERNAL) >> 32));
	__m128i ok, v;

	/* data_len >= 34; pkt_len <= max_frame */
	ok = _mm_cmpgt_epi32(_mm_and_si128(f->dl, _mm_set1_epi32(0xffff)), min_len);
	ok = _mm_and_si128(ok, X4_LE(f->pl, _mm_set1_epi32((int)max_frame)));
	/* refcnt 1 and direct: the reference count (16 bits) OR the two flags
	 * (above bit 15 of the high half) is 1 */
	RTE_BUILD_BUG_ON(((RTE_MBUF_F_INDIRECT | RTE_MBUF_F_EXTERNAL) >> 32) & 0xffff);
	v = _mm_or_si128(_mm_srli_epi32(f->rc, 16), _mm_and_si128(f->ohi, ind_ext));
	ok = _mm_and_si128(ok, _mm_cmpeq_epi32(v, _mm_set1_epi32(1)));
	if (!sw_ptype) {
		v = _mm_and_si128(f->pt, _mm_set1_epi32(RTE_PTYPE_L2_MASK | RTE_PTYPE_L3_MASK));
		ok = _mm_and_si128(ok, _mm_cmpeq_epi32(v, _mm_set1_epi32(RTE_PTYPE_L2_ETHER |
									RTE_PTYPE_L3_IPV4)));
	}
	if (rx_cksum) {
		v = _mm_and_si128(f->olo, _mm_set1_epi32(RTE_MBUF_F_RX_IP_CKSUM_MASK));
		ok = _mm_and_si128(ok, _mm_cmpeq_epi32(v, _mm_set1_epi32(
			RTE_MBUF_F_RX_IP_CKSUM_GOOD)));
	}
	return ok;
}

/* The checks of the headers but the checksum: all ones in the lanes that
 * pass. */
static __rte_always_inline __m128i
x4_checks(__m128i pl, const struct x4_hdrs *x, const bool sw_ptype)
{
	const __m128i lo8 = _mm_set1_epi32(0xff);
	__m128i ok, v, y;

	/* the ether type (unless the packet type said) and version/IHL */
	if (sw_ptype) {
		v = _mm_blend_epi16(x->e, x->r0, 0x55);	/* 0x45, tos, 0x08, 0x00 */
		v = _mm_and_si128(v, _mm_set1_epi32((int)0xffff00ff));
		ok = _mm_cmpeq_epi32(v, _mm_set1_epi32(0x00080045));
	} else {
		ok = _mm_cmpeq_epi32(_mm_and_si128(x->r0, lo8), _mm_set1_epi32(RTE_IPV4_VHL_DEF));
	}
	/* 20 <= total length <= pkt_len - 14: total - 20 <= pkt_len - 34 */
	v = _mm_shuffle_epi8(x->r0, _mm_set_epi8(-1, -1, 14, 15, -1, -1, 10, 11,
						 -1, -1, 6, 7, -1, -1, 2, 3));
	v = _mm_sub_epi32(v, _mm_set1_epi32(sizeof(struct rte_ipv4_hdr)));
	y = _mm_sub_epi32(pl, _mm_set1_epi32(RTE_ETHER_HDR_LEN + sizeof(struct rte_ipv4_hdr)));
	ok = _mm_and_si128(ok, X4_LE(v, y));
	/* TTL > 1 */
	ok = _mm_and_si128(ok, _mm_cmpgt_epi32(_mm_and_si128(x->r2, lo8), _mm_set1_epi32(1)));
	/* martians: first bytes of source (lane bits 0-7) and destination (16-23) */
	v = _mm_blend_epi16(x->r3, _mm_slli_epi32(x->r4, 16), 0xaa);
	/* a byte b is good when b + 160 > -96 as a signed byte (b is neither
	 * 0 nor 224-255: b + 32 > 32 unsigned) and b != 127 */
	y = _mm_cmpgt_epi8(_mm_add_epi8(v, _mm_set1_epi8((char)160)), _mm_set1_epi8(-96));
	y = _mm_andnot_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8(127)), y);
	y = _mm_and_si128(y, _mm_set1_epi32(0x00ff00ff));
	return _mm_and_si128(ok, _mm_cmpeq_epi32(y, _mm_set1_epi32(0x00ff00ff)));
}

/* The header checksum verdict (see above): all ones in the lanes where it
 * is right. */
static __rte_always_inline __m128i
x4_cksum_ok(const struct x4_hdrs *x)
{
	const __m128i flip = _mm_set1_epi16((short)0x8000), one = _mm_set1_epi16(1);
	__m128i s;

	s = _mm_madd_epi16(_mm_xor_si128(x->r0, flip), one);
	s = _mm_add_epi32(s, _mm_madd_epi16(_mm_xor_si128(x->r1, flip), one));
	s = _mm_add_epi32(s, _mm_madd_epi16(_mm_xor_si128(x->r2, flip), one));
	s = _mm_add_epi32(s, _mm_madd_epi16(_mm_xor_si128(x->r3, flip), one));
	s = _mm_add_epi32(s, _mm_madd_epi16(_mm_xor_si128(x->r4, flip), one));
	/* (s + 10 * 0x8000) * inv - 1, inv = 0xfffeffff (0xffff * inv = 1) */
	s = _mm_mullo_epi32(s, _mm_set1_epi32((int)0xfffeffffu));
	s = _mm_add_epi32(s, _mm_set1_epi32((int)(10u * 0x8000u * 0xfffeffffu - 1u)));
	return X4_LE(s, _mm_set1_epi32(65536));
}

/* l3fwd_ttl_dec4() of the four frames at h[] (the IPv4 header at 14), r2
 * their TTL, protocol and checksum words. */
static __rte_always_inline void
x4_ttl_dec(__m128i r2, uint8_t *const h[4])
{
	__m128i c;

	c = _mm_cmpeq_epi32(_mm_max_epu32(r2, _mm_set1_epi32((int)0xfffe0000u)), r2);
	c = _mm_and_si128(c, _mm_set1_epi32(0x10000));
	r2 = _mm_add_epi32(_mm_add_epi32(r2, c), _mm_set1_epi32(0xffff));
	l3fwd_st32(h[0] + RTE_ETHER_HDR_LEN + 8, (uint32_t)_mm_extract_epi32(r2, 0));
	l3fwd_st32(h[1] + RTE_ETHER_HDR_LEN + 8, (uint32_t)_mm_extract_epi32(r2, 1));
	l3fwd_st32(h[2] + RTE_ETHER_HDR_LEN + 8, (uint32_t)_mm_extract_epi32(r2, 2));
	l3fwd_st32(h[3] + RTE_ETHER_HDR_LEN + 8, (uint32_t)_mm_extract_epi32(r2, 3));
}

static __rte_always_inline unsigned int
l3fwd_fast4_x4_do(struct rte_mbuf *const *pkts, uint32_t max_frame, const bool sw_ptype,
		  const bool rx_cksum, void **l3, uint32_t *dst, struct l3fwd_sums *sums,
		  const bool dec)
{
	struct x4_mbufs f;
	struct x4_hdrs x;
	uint8_t *h[4];
	unsigned int i, res;
	__m128i ok;

	x4_mbufs_load(pkts, &f, sw_ptype);
	sums->bytes = _mm_add_epi32(sums->bytes, f.pl);
	/* the ports in the high halves: l3fwd_sums_get() keeps the low 16 bits */
	sums->segs = _mm_or_si128(sums->segs, f.segs);
	/* the mbuf checks pass in all four, or one by one */
	ok = x4_mbuf_checks(&f, max_frame, sw_ptype, rx_cksum);
	if (unlikely(_mm_movemask_ps(_mm_castsi128_ps(ok)) != 0xf)) {
		for (i = 0, res = 0; i < 4; i++) {
			struct rte_ipv4_hdr *ip = l3fwd_fast4(pkts[i], max_frame, sw_ptype,
							      rx_cksum);

			l3[i] = ip;
			if (ip != NULL) {
				dst[i] = rte_be_to_cpu_32(ip->dst_addr);
				res |= 1u << i;
				if (dec)
					l3fwd_ttl_dec4(ip);
			}
		}
		return res;
	}
	for (i = 0; i < 4; i++) {
		h[i] = rte_pktmbuf_mtod(pkts[i], uint8_t *);
		l3[i] = h[i] + RTE_ETHER_HDR_LEN;
	}
	x4_hdrs_load(h, &x);
	/* the destinations, host order, for the lookup */
	_mm_storeu_si128((void *)dst, _mm_shuffle_epi8(x.r4, _mm_set_epi8(12, 13, 14, 15,
		8, 9, 10, 11, 4, 5, 6, 7, 0, 1, 2, 3)));
	ok = x4_checks(f.pl, &x, sw_ptype);
	if (!rx_cksum)
		ok = _mm_and_si128(ok, x4_cksum_ok(&x));
	res = (unsigned int)_mm_movemask_ps(_mm_castsi128_ps(ok));
	if (unlikely(res != 0xf)) {
		for (i = 0; i < 4; i++)
			if (!(res & (1u << i)))
				l3[i] = NULL;
			else if (dec)
				l3fwd_ttl_dec4(l3[i]);
		return res;
	}
	if (dec)
		x4_ttl_dec(x.r2, h);
	return res;
}

static __rte_always_inline unsigned int
l3fwd_fast4_x4(struct rte_mbuf *const *pkts, uint32_t max_frame, const bool sw_ptype,
	       const bool rx_cksum, void **l3, uint32_t *dst, struct l3fwd_sums *sums)
{
	return l3fwd_fast4_x4_do(pkts, max_frame, sw_ptype, rx_cksum, l3, dst, sums, false);
}

/* l3fwd_fast4_x4(), and l3fwd_ttl_dec4() on every packet taken. */
static __rte_always_inline unsigned int
l3fwd_fast4_x4_dec(struct rte_mbuf *const *pkts, uint32_t max_frame, const bool sw_ptype,
		   const bool rx_cksum, void **l3, uint32_t *dst, struct l3fwd_sums *sums)
{
	return l3fwd_fast4_x4_do(pkts, max_frame, sw_ptype, rx_cksum, l3, dst, sums, true);
}
#else
static __rte_always_inline unsigned int
l3fwd_fast4_x4(struct rte_mbuf *const *pkts, uint32_t max_frame, const bool sw_ptype,
	       const bool rx_cksum, void **l3, uint32_t *dst, struct l3fwd_sums *sums)
{
	return l3fwd_fast4_x4_scalar(pkts, max_frame, sw_ptype, rx_cksum, l3, dst, sums);
}

static __rte_always_inline unsigned int
l3fwd_fast4_x4_dec(struct rte_mbuf *const *pkts, uint32_t max_frame, const bool sw_ptype,
		   const bool rx_cksum, void **l3, uint32_t *dst, struct l3fwd_sums *sums)
{
	return l3fwd_fast4_x4_scalar_do(pkts, max_frame, sw_ptype, rx_cksum, l3, dst, sums,
					true);
}
#endif

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
