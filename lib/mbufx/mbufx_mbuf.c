/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The mbufx authors
 */

/*
 * Prepend, pullup and the calls built on them.
 *
 * All follow one discipline: decide everything and allocate everything
 * first, then change the packet with operations that cannot fail. So a
 * failure leaves the packet bit for bit as it was, and nothing leaks.
 *
 * Bytes are written only where mbufx_seg_writable() allows: DPDK's own
 * reference counts, nothing remembered besides them. Fields are written
 * only in segment structures the caller owns alone (refcnt 1); a segment
 * structure shared by several chains that must be shortened is replaced by
 * an indirect mbuf attached to it ("replacement" below), the only
 * allocation the allocation-free pullup path can need.
 *
 * pullup_common() is the one engine: "the first len bytes contiguous in
 * the first segment, writable if asked, with front bytes of writable
 * leading space". mbufx_pullup(), mbufx_unshare_hdr(),
 * mbufx_prepend_contig() and mbufx_vlan_insert() are its parameters.
 *
 * Headers and replacements come from the zone that fits and, when it is
 * dry, from the next larger one (counted as hdr_fallback).
 */

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <rte_byteorder.h>
#include <rte_errno.h>
#include <rte_ether.h>
#include <rte_mbuf.h>
#include <rte_memcpy.h>

#include "mbufx_mbuf.h"
#include "mbufx_private.h"
#include "mbufx_zone.h"

/* ---- compatibility ---------------------------------------------------- */

/* Part of the MBUFX_0.1 ABI; no segment has a private front beyond what
 * mbufx_seg_writable() says, and nothing needs clearing. */
uint16_t
mbufx_own_front(const struct rte_mbuf *seg __rte_unused)
{
	return 0;
}

void
mbufx_own_front_clear(struct rte_mbuf *m __rte_unused)
{
}

/* The segment structure is the caller's alone: its fields may change. */
static inline int
struct_private(const struct rte_mbuf *seg)
{
	return rte_mbuf_refcnt_read(seg) == 1;
}

#ifdef MBUFX_DEBUG
void
mbufx_debug_stale_head(const struct rte_mbuf *m, const char *fn)
{
	MBUFX_LOG(CRIT, "%s(): mbuf %p is no longer the first segment of its "
		  "packet (a call that may change the head replaced it): use "
		  "the pointer the call wrote back", fn, (const void *)m);
	abort();
}
#endif

void
mbufx_copy_metadata(struct rte_mbuf *dst, const struct rte_mbuf *src)
{
	__mbufx_copy_metadata(dst, src);
}

/* ---- prepend ---------------------------------------------------------- */

/* In place into len bytes of private leading space. */
static inline void *
prepend_inplace(struct mbufx_zone_set *zs, struct rte_mbuf *m, uint16_t len)
{
	if (unlikely((uint64_t)m->pkt_len + len > UINT32_MAX)) {
		rte_errno = EOVERFLOW;
		return NULL;
	}
	m->data_off -= len;
	m->data_len += len;
	m->pkt_len += len;
	MBUFX_ZONE_STAT_ADD(zs, prepend_inplace, 1);
	return rte_pktmbuf_mtod(m, void *);
}

/* The rest of mbufx_prepend(), out of line so that the in-place path stays
 * short: a chained header. */
static __rte_noinline void *
prepend_slow(struct mbufx_zone_set *zs, struct rte_mbuf **mp, uint16_t len)
{
	enum mbufx_zone_id zid, pref;
	struct rte_mbuf *m = *mp, *h;

	if (mbufx_hdr_pool(zs, len, &zid) == NULL) {
		rte_errno = EINVAL;
		return NULL;
	}
	if (m->nb_segs == RTE_MBUF_MAX_NB_SEGS ||
	    (uint64_t)m->pkt_len + len > UINT32_MAX) {
		rte_errno = EOVERFLOW;
		return NULL;
	}
	pref = zid;
	h = mbufx_lib_alloc(zs, &zid);
	if (h == NULL) {
		rte_errno = ENOMEM;
		return NULL;
	}
	h->data_off = h->buf_len - len;
	h->data_len = len;
	h->pkt_len = m->pkt_len + len;
	h->nb_segs = m->nb_segs + 1;
	h->next = m;
	__mbufx_copy_metadata(h, m);
	MBUFX_DEBUG_DEMOTE(m);
	*mp = h;
	mbufx_lib_count(zs, pref, zid, 1);
	MBUFX_ZONE_STAT_ADD(zs, prepend_chained, 1);
	return rte_pktmbuf_mtod(h, void *);
}

void *
mbufx_prepend(struct mbufx_zone_set *zs, struct rte_mbuf **mp, uint16_t len)
{
	struct rte_mbuf *m;

	if (zs == NULL || mp == NULL || *mp == NULL) {
		rte_errno = EINVAL;
		return NULL;
	}
	m = *mp;
	MBUFX_DEBUG_HEAD(m);
	if (len == 0)
		return rte_pktmbuf_mtod(m, void *);
	if (likely(rte_pktmbuf_headroom(m) >= len && mbufx_seg_writable(m)))
		return prepend_inplace(zs, m, len);
	return prepend_slow(zs, mp, len);
}

/* ---- pullup ----------------------------------------------------------- */

/*
 * Where taking `len` bytes off the front of the chain starting at s ends:
 * *nfull segments are consumed whole, then *part (NULL if none) loses
 * *rem bytes (0 < *rem < part->data_len).
 */
static void
consume_plan(struct rte_mbuf *s, uint32_t len, unsigned int *nfull,
	     struct rte_mbuf **part, uint32_t *rem)
{
	unsigned int n = 0;

	while (s != NULL && s->data_len <= len) {
		len -= s->data_len;
		s = s->next;
		n++;
		if (len == 0)
			break;
	}
	*nfull = n;
	*part = len != 0 ? s : NULL;
	*rem = len;
}

/*
 * Drop `nfull` whole segments from the front of the chain at s and cut
 * `rem` bytes from the next one (through replacement r when its structure
 * is shared). Returns the new front of the chain.
 */
static struct rte_mbuf *
consume_apply(struct rte_mbuf *s, unsigned int nfull, struct rte_mbuf *part,
	      uint32_t rem, struct rte_mbuf *r)
{
	struct rte_mbuf *next;

	while (nfull-- != 0) {
		next = s->next;
		rte_pktmbuf_free_seg(s);
		s = next;
	}
	if (part == NULL)
		return s;
	RTE_ASSERT(s == part);
	if (r != NULL) {
		rte_pktmbuf_attach(r, part);
		r->data_off += rem;
		r->data_len -= rem;
		r->next = part->next;
		rte_pktmbuf_free_seg(part);
		return r;
	}
	part->data_off += rem;
	part->data_len -= rem;
	return part;
}

/* A replacement for `part` when its structure is shared, or NULL. */
static int
replacement_get(struct mbufx_zone_set *zs, const struct rte_mbuf *part,
		struct rte_mbuf **r)
{
	enum mbufx_zone_id zid = MBUFX_ZONE_PKT, pref;

	*r = NULL;
	if (part == NULL || struct_private(part))
		return 0;
	mbufx_hdr_pool(zs, 0, &zid);
	pref = zid;
	*r = mbufx_lib_alloc(zs, &zid);
	if (*r == NULL)
		return -ENOMEM;
	mbufx_lib_count(zs, pref, zid, 1);
	return 1;
}

/* Where the first `len` bytes of m (whose whole buffer is writable, data
 * made at least len long) go: where they are unless they need `front`
 * bytes of leading space or more room behind. Data that moves lands so
 * that the packet's start (front bytes before it) is at an even offset:
 * headers stay 2-byte aligned as rte_ether_hdr requires. */
static uint16_t
inplace_offset(const struct rte_mbuf *m, uint32_t len, uint16_t front)
{
	uint32_t off = m->data_off;

	if (off + len > m->buf_len) {
		off = m->buf_len - len;
		off -= (off - front) & 1;	/* buf_len >= len + front */
	}
	if (off < front)
		off = front;
	return (uint16_t)off;
}

/*
 * Pullup in place: m's whole buffer is the caller's and holds keep + front
 * bytes. The bytes behind m's data come from the following segments, which
 * lose them (a shared one through a replacement).
 */
static void *
pullup_inplace(struct mbufx_zone_set *zs, struct rte_mbuf *m, uint32_t keep,
	       uint16_t front)
{
	uint32_t need = keep - m->data_len, rem = 0;
	struct rte_mbuf *part = NULL, *r;
	unsigned int nfull = 0;
	uint16_t off;
	int nrep;

	if (need != 0)
		consume_plan(m->next, need, &nfull, &part, &rem);
	nrep = replacement_get(zs, part, &r);
	if (nrep < 0) {
		rte_errno = ENOMEM;
		return NULL;
	}
	off = inplace_offset(m, keep, front);
	if (off != m->data_off) {
		memmove((uint8_t *)m->buf_addr + off,
			rte_pktmbuf_mtod(m, void *), m->data_len);
		m->data_off = off;
	}
	mbufx_copy_front(rte_pktmbuf_mtod_offset(m, uint8_t *, m->data_len),
			 m->next, need);
	m->next = consume_apply(m->next, nfull, part, rem, r);
	m->data_len = (uint16_t)keep;
	m->nb_segs -= nfull;
	if (nrep == 0)
		MBUFX_ZONE_STAT_ADD(zs, pullup_inplace, 1);
	else
		MBUFX_ZONE_STAT_ADD(zs, pullup_alloc, 1);
	return rte_pktmbuf_mtod(m, void *);
}

/*
 * Pullup into a fresh first segment h holding the first len bytes (front
 * bytes of leading space before them); the chain loses those bytes behind
 * h, a shared segment through a replacement.
 */
static void *
pullup_fresh(struct mbufx_zone_set *zs, struct rte_mbuf **mp, uint32_t len,
	     uint16_t front)
{
	struct rte_mbuf *m = *mp, *h, *part, *r, *rest;
	enum mbufx_zone_id zid, pref;
	unsigned int nfull;
	uint32_t rem;

	if (mbufx_hdr_pool(zs, len + front, &zid) == NULL) {
		rte_errno = ENOSPC;
		return NULL;
	}
	consume_plan(m, len, &nfull, &part, &rem);
	if (nfull == 0 && m->nb_segs == RTE_MBUF_MAX_NB_SEGS) {
		rte_errno = EOVERFLOW;
		return NULL;
	}
	pref = zid;
	h = mbufx_lib_alloc(zs, &zid);
	if (h == NULL) {
		rte_errno = ENOMEM;
		return NULL;
	}
	if (replacement_get(zs, part, &r) < 0) {
		rte_pktmbuf_free(h);
		rte_errno = ENOMEM;
		return NULL;
	}
	mbufx_lib_count(zs, pref, zid, 1);
	/* bytes at the end, the packet's start (after front more bytes are
	 * prepended) at an even offset: headers stay 2-byte aligned as
	 * rte_ether_hdr requires */
	h->data_off = (uint16_t)(front +
		((h->buf_len - len - front) & ~1u));
	h->data_len = (uint16_t)len;
	mbufx_copy_front(rte_pktmbuf_mtod(h, uint8_t *), m, len);
	__mbufx_copy_metadata(h, m);
	h->pkt_len = m->pkt_len;
	h->nb_segs = (uint16_t)(m->nb_segs - nfull + 1);
	rest = consume_apply(m, nfull, part, rem, r);
	if (rest == m)
		MBUFX_DEBUG_DEMOTE(m);
	h->next = rest;
	*mp = h;
	MBUFX_ZONE_STAT_ADD(zs, pullup_alloc, 1);
	return rte_pktmbuf_mtod(h, void *);
}

/*
 * The first len bytes contiguous in the first segment, writable when
 * want_writable, and at least front bytes of writable leading space in
 * front of them (front != 0 implies want_writable): nothing to do, in
 * place, or a fresh first segment, in that order of preference.
 */
static void *
pullup_common(struct mbufx_zone_set *zs, struct rte_mbuf **mp, uint32_t len,
	      int want_writable, uint16_t front)
{
	struct rte_mbuf *m;
	uint32_t keep;
	int w;

	if (zs == NULL || mp == NULL || *mp == NULL || len > (*mp)->pkt_len) {
		rte_errno = EINVAL;
		return NULL;
	}
	m = *mp;
	MBUFX_DEBUG_HEAD(m);
	w = mbufx_seg_writable(m);
	if (m->data_len >= len &&
	    (!want_writable || (w && m->data_off >= front))) {
		MBUFX_ZONE_STAT_ADD(zs, pullup_noop, 1);
		return rte_pktmbuf_mtod(m, void *);
	}
	keep = RTE_MAX(len, (uint32_t)m->data_len);
	if (w && m->buf_len >= keep + front)
		return pullup_inplace(zs, m, keep, front);
	return pullup_fresh(zs, mp, len, front);
}

void *
mbufx_pullup(struct mbufx_zone_set *zs, struct rte_mbuf **m, uint32_t len)
{
	return pullup_common(zs, m, len, 0, 0);
}

void *
mbufx_unshare_hdr(struct mbufx_zone_set *zs, struct rte_mbuf **m,
		  uint32_t len)
{
	return pullup_common(zs, m, len, 1, 0);
}

int
mbufx_append_data(struct rte_mbuf *m, const void *src, uint32_t len)
{
	const uint8_t *p = src;
	struct rte_mbuf *s, *t;
	uint64_t space = 0;
	uint16_t k;

	if (m == NULL || (src == NULL && len != 0))
		return -EINVAL;
	if (len == 0)
		return 0;
	/* pkt_len is the head structure's: it must be ours alone. A refcnt
	 * above 1 also counts clones attached to a direct head, which cannot be
	 * told from a second holder */
	if (rte_mbuf_refcnt_read(m) != 1)
		return -EBUSY;
	if ((uint64_t)m->pkt_len + len > UINT32_MAX)
		return -ENOSPC;
	/* The segment holding the last byte, or the head of an empty chain. */
	t = m;
	for (s = m->next; s != NULL; s = s->next)
		if (s->data_len != 0)
			t = s;
	for (s = t; s != NULL && space < len; s = s->next)
		space += mbufx_trailing_space(s);
	if (space < len)
		return -ENOSPC;
	m->pkt_len += len;
	for (s = t; len != 0; s = s->next) {
		k = (uint16_t)RTE_MIN((uint32_t)mbufx_trailing_space(s), len);
		if (k == 0)
			continue;
		memcpy(rte_pktmbuf_mtod_offset(s, uint8_t *, s->data_len), p, k);
		s->data_len += k;
		p += k;
		len -= k;
	}
	return 0;
}

void *
mbufx_prepend_contig(struct mbufx_zone_set *zs, struct rte_mbuf **mp,
		     uint16_t len, uint32_t contig)
{
	struct rte_mbuf *m, *m0;
	uint32_t rest;

	if (zs == NULL || mp == NULL || *mp == NULL) {
		rte_errno = EINVAL;
		return NULL;
	}
	m0 = *mp;
	rest = contig > len ? contig - len : 0;
	if (rest > m0->pkt_len) {
		rte_errno = EINVAL;
		return NULL;
	}
	if ((uint64_t)m0->pkt_len + len > UINT32_MAX) {
		rte_errno = EOVERFLOW;
		return NULL;
	}
	if (pullup_common(zs, mp, rest, 1, len) == NULL)
		return NULL;
	m = *mp;
	m->data_off -= len;
	m->data_len += len;
	m->pkt_len += len;
	if (m == m0)
		MBUFX_ZONE_STAT_ADD(zs, prepend_inplace, 1);
	else
		MBUFX_ZONE_STAT_ADD(zs, prepend_chained, 1);
	return rte_pktmbuf_mtod(m, void *);
}

int
mbufx_vlan_insert(struct mbufx_zone_set *zs, struct rte_mbuf **mp)
{
	const uint32_t macs = 2 * RTE_ETHER_ADDR_LEN;
	const uint16_t vlen = sizeof(struct rte_vlan_hdr);
	struct rte_mbuf *m;
	uint8_t *p;
	uint16_t v;

	if (mp == NULL || *mp == NULL || (*mp)->pkt_len < macs)
		return -EINVAL;
	p = mbufx_prepend_contig(zs, mp, vlen, vlen + macs);
	if (p == NULL)
		return -rte_errno;
	m = *mp;
	/* byte copies: the header need not be 2-byte aligned */
	memmove(p, p + vlen, macs);
	v = rte_cpu_to_be_16(RTE_ETHER_TYPE_VLAN);
	memcpy(p + macs, &v, sizeof(v));
	v = rte_cpu_to_be_16(m->vlan_tci);
	memcpy(p + macs + sizeof(v), &v, sizeof(v));
	m->ol_flags &= ~(RTE_MBUF_F_RX_VLAN_STRIPPED | RTE_MBUF_F_TX_VLAN);
	if (m->ol_flags & RTE_MBUF_F_TX_TUNNEL_MASK)
		m->outer_l2_len += vlen;
	else
		m->l2_len += vlen;
	return 0;
}
