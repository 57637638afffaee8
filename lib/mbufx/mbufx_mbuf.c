/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The mbufx authors
 */

/*
 * Prepend and pullup.
 *
 * Both follow one discipline: decide everything and allocate everything
 * first, then change the packet with operations that cannot fail. So a
 * failure leaves the packet bit for bit as it was, and nothing leaks.
 *
 * Bytes are written only where mbufx_seg_writable() allows. Fields are
 * written only in segment structures the caller owns alone (refcnt 1);
 * a segment structure shared by several chains that must be shortened is
 * replaced by an indirect mbuf attached to it ("replacement" below), the
 * only allocation the allocation-free pullup path can need.
 */

#include <errno.h>
#include <string.h>

#include <rte_errno.h>
#include <rte_mbuf.h>
#include <rte_memcpy.h>

#include "mbufx_mbuf.h"
#include "mbufx_private.h"
#include "mbufx_zone.h"

void
mbufx_copy_metadata(struct rte_mbuf *dst, const struct rte_mbuf *src)
{
	__mbufx_copy_metadata(dst, src);
}

void *
mbufx_prepend(struct mbufx_zone_set *zs, struct rte_mbuf **mp, uint16_t len)
{
	enum mbufx_zone_id zid;
	struct rte_mempool *pool;
	struct rte_mbuf *m, *h;

	if (zs == NULL || mp == NULL || *mp == NULL) {
		rte_errno = EINVAL;
		return NULL;
	}
	m = *mp;
	if (len == 0)
		return rte_pktmbuf_mtod(m, void *);
	if (rte_pktmbuf_headroom(m) >= len && mbufx_seg_writable(m)) {
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
	pool = mbufx_hdr_pool(zs, len, &zid);
	if (pool == NULL) {
		rte_errno = EINVAL;
		return NULL;
	}
	if (m->nb_segs == RTE_MBUF_MAX_NB_SEGS ||
	    (uint64_t)m->pkt_len + len > UINT32_MAX) {
		rte_errno = EOVERFLOW;
		return NULL;
	}
	h = rte_pktmbuf_alloc(pool);
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
	*mp = h;
	MBUFX_ZONE_STAT_ADD(zs, alloc[zid], 1);
	MBUFX_ZONE_STAT_ADD(zs, prepend_chained, 1);
	return rte_pktmbuf_mtod(h, void *);
}

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
		struct rte_mbuf **r, unsigned int *nalloc)
{
	enum mbufx_zone_id zid;
	struct rte_mempool *pool;

	*r = NULL;
	if (part == NULL || rte_mbuf_refcnt_read(part) == 1)
		return 0;
	pool = mbufx_hdr_pool(zs, 0, &zid);
	*r = rte_pktmbuf_alloc(pool);
	if (*r == NULL)
		return -ENOMEM;
	MBUFX_ZONE_STAT_ADD(zs, alloc[zid], 1);
	(*nalloc)++;
	return 0;
}

static void *
pullup_common(struct mbufx_zone_set *zs, struct rte_mbuf **mp, uint32_t len,
	      int want_writable)
{
	struct rte_mbuf *m, *h, *part, *r, *rest;
	unsigned int nfull, nalloc = 0;
	enum mbufx_zone_id zid;
	struct rte_mempool *pool;
	uint32_t rem, need;
	uint16_t off;
	int w;

	if (zs == NULL || mp == NULL || *mp == NULL || len > (*mp)->pkt_len) {
		rte_errno = EINVAL;
		return NULL;
	}
	m = *mp;
	w = mbufx_seg_writable(m);
	if (len == 0 || (m->data_len >= len && (w || !want_writable))) {
		MBUFX_ZONE_STAT_ADD(zs, pullup_noop, 1);
		return rte_pktmbuf_mtod(m, void *);
	}

	if (w && m->buf_len >= len) {
		/* In place: m's whole buffer is ours. */
		need = len - m->data_len;
		consume_plan(m->next, need, &nfull, &part, &rem);
		if (replacement_get(zs, part, &r, &nalloc) < 0) {
			rte_errno = ENOMEM;
			return NULL;
		}
		if (rte_pktmbuf_tailroom(m) < need) {
			/* even: headers stay 2-byte aligned (rte_ether_hdr) */
			off = (uint16_t)((m->buf_len - len) & ~1u);
			memmove((uint8_t *)m->buf_addr + off,
				rte_pktmbuf_mtod(m, void *), m->data_len);
			m->data_off = off;
		}
		mbufx_copy_front(rte_pktmbuf_mtod_offset(m, uint8_t *, m->data_len),
				 m->next, need);
		m->next = consume_apply(m->next, nfull, part, rem, r);
		m->data_len = (uint16_t)len;
		m->nb_segs -= nfull;
		if (nalloc == 0)
			MBUFX_ZONE_STAT_ADD(zs, pullup_inplace, 1);
		else
			MBUFX_ZONE_STAT_ADD(zs, pullup_alloc, 1);
		return rte_pktmbuf_mtod(m, void *);
	}

	/* A fresh first segment. */
	pool = mbufx_hdr_pool(zs, len, &zid);
	if (pool == NULL) {
		rte_errno = ENOSPC;
		return NULL;
	}
	consume_plan(m, len, &nfull, &part, &rem);
	if (nfull == 0 && m->nb_segs == RTE_MBUF_MAX_NB_SEGS) {
		rte_errno = EOVERFLOW;
		return NULL;
	}
	h = rte_pktmbuf_alloc(pool);
	if (h == NULL) {
		rte_errno = ENOMEM;
		return NULL;
	}
	if (replacement_get(zs, part, &r, &nalloc) < 0) {
		rte_pktmbuf_free(h);
		rte_errno = ENOMEM;
		return NULL;
	}
	MBUFX_ZONE_STAT_ADD(zs, alloc[zid], 1);
	h->data_off = (uint16_t)((h->buf_len - len) & ~1u);	/* 2-byte aligned */
	h->data_len = (uint16_t)len;
	mbufx_copy_front(rte_pktmbuf_mtod(h, uint8_t *), m, len);
	__mbufx_copy_metadata(h, m);
	h->pkt_len = m->pkt_len;
	h->nb_segs = (uint16_t)(m->nb_segs - nfull + 1);
	rest = consume_apply(m, nfull, part, rem, r);
	h->next = rest;
	*mp = h;
	MBUFX_ZONE_STAT_ADD(zs, pullup_alloc, 1);
	return rte_pktmbuf_mtod(h, void *);
}

void *
mbufx_pullup(struct mbufx_zone_set *zs, struct rte_mbuf **m, uint32_t len)
{
	return pullup_common(zs, m, len, 0);
}

void *
mbufx_unshare_hdr(struct mbufx_zone_set *zs, struct rte_mbuf **m,
		  uint32_t len)
{
	return pullup_common(zs, m, len, 1);
}
