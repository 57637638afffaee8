/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The mbufx authors
 */

/*
 * Fan-out: n copies of a packet, each with private header bytes, payload
 * shared.
 *
 *   original m:  [ hdr | payload ...... ] -> [ payload ... ] -> ...
 *                  0    hdr_len     c
 *
 *   copy i:      [ leading space | bytes 0..c ]   header mbuf (private)
 *                  -> indirect(seg holding c, from c) -> indirect(next) ...
 *
 *   last copy:   m itself when its first segment is writable, holds the
 *                first hdr_len bytes and no other copy reads it (a deep
 *                copy, or c at its end): it stays writable by DPDK's rule.
 *                When the others do read it (c inside it):
 *                [ leading space | bytes 0..c ] -> m (from c) -> m's rest
 *                a header mbuf in front of m's own chain, no indirect mbuf.
 *
 * c is the split point: hdr_len, extended to the end of the segment that
 * holds byte hdr_len when that adds at most MBUFX_FANOUT_COPY_MAX bytes
 * (copying them costs less than an indirect mbuf and its refcount update on
 * the owner's cache line), or to pkt_len for short packets (deep copies,
 * from whichever zone holds the packet). An extension to a segment end is
 * dropped when it would need a bigger header buffer.
 *
 * Copies are built in chunks of at most FANOUT_BULK mbufs taken from the
 * pools on the stack: no heap, however many copies. A chunk that cannot be
 * had unwinds: the copies built so far are freed, which gives back every
 * mbuf and every reference they took, so m is as it was and the zones hold
 * what they held. Counters are committed only on success.
 *
 * m's first segment is never the first segment of a copy while the others
 * attach to it: its refcnt would count them, and nothing DPDK's mbuf
 * exposes can tell those references from any taken later (a clone, a
 * second holder), so its front could not be written safely by anyone. As
 * the second segment of the last copy it is payload like the others' (its
 * fields are set once, here, while every reference to it is this call's),
 * and becomes writable again by DPDK's rule when the other copies are gone.
 */

#include <errno.h>
#include <string.h>

#include <rte_errno.h>
#include <rte_mbuf.h>
#include <rte_memcpy.h>

#include "mbufx_mbuf.h"
#include "mbufx_private.h"
#include "mbufx_zone.h"

/* Mbufs fetched with one mempool call at most: the stack arrays. */
#define FANOUT_BULK 64

/* Split point c (see above). */
static uint32_t
split_point(const struct rte_mbuf *m, uint32_t hdr_len)
{
	const struct rte_mbuf *s;
	uint32_t off = 0;

	if (m->pkt_len - hdr_len <= MBUFX_FANOUT_COPY_MAX)
		return m->pkt_len;
	for (s = m; s != NULL; s = s->next) {
		if (off + s->data_len > hdr_len)
			break;
		off += s->data_len;
	}
	/* s != NULL: pkt_len > hdr_len */
	if (off + s->data_len - hdr_len <= MBUFX_FANOUT_COPY_MAX)
		return off + s->data_len;
	return hdr_len;
}

/* References held on the data of seg, the counter a clone increments. */
static uint16_t
data_refs(const struct rte_mbuf *seg)
{
	if (RTE_MBUF_HAS_EXTBUF(seg))
		return rte_mbuf_ext_refcnt_read(seg->shinfo);
	return rte_mbuf_refcnt_read(mbufx_seg_owner(seg));
}

/* Identity of that counter: segments with the same key share it. */
static const void *
data_key(const struct rte_mbuf *seg)
{
	if (RTE_MBUF_HAS_EXTBUF(seg))
		return seg->shinfo;
	return mbufx_seg_owner(seg);
}

/*
 * Whether every data counter of the segments to share (from first on, k
 * of them) takes ncopies more references per segment using it. Several
 * segments may share one counter (a chain of clones of one packet), so
 * each counter is charged for all its segments: quadratic, but only run
 * when the quick bound fails, i.e. when some counter is already high.
 */
static int
refs_fit(const struct rte_mbuf *first, unsigned int k, unsigned int ncopies)
{
	const struct rte_mbuf *s, *t;
	unsigned int i, j, users;

	for (s = first, i = 0; i < k; s = s->next) {
		if (s->data_len == 0)
			continue;
		users = 0;
		for (t = first, j = 0; j < k; t = t->next) {
			if (t->data_len == 0)
				continue;
			users += data_key(t) == data_key(s);
			j++;
		}
		if ((uint64_t)data_refs(s) + (uint64_t)ncopies * users >
				UINT16_MAX)
			return 0;
		i++;
	}
	return 1;
}

/* First segment to share and the bytes to skip in it; count the segments
 * to share in *k. Fails when a data reference counter would overflow. */
static int
share_plan(struct rte_mbuf *m, uint32_t c, unsigned int ncopies,
	   struct rte_mbuf **first, uint32_t *skip, unsigned int *k)
{
	struct rte_mbuf *s;
	uint32_t off = 0;
	unsigned int n = 0;
	uint16_t refs, max_refs = 0;

	*first = NULL;
	*skip = 0;
	for (s = m; s != NULL; off += s->data_len, s = s->next) {
		if (off + s->data_len <= c || s->data_len == 0)
			continue;
		if (*first == NULL) {
			*first = s;
			*skip = c > off ? c - off : 0;
		}
		refs = data_refs(s);
		max_refs = RTE_MAX(max_refs, refs);
		n++;
	}
	*k = n;
	if (n + 1 > RTE_MBUF_MAX_NB_SEGS)
		return -EOVERFLOW;
	/* quick bound: every shared segment on the fullest counter */
	if ((uint64_t)max_refs + (uint64_t)ncopies * n <= UINT16_MAX)
		return 0;
	return refs_fit(*first, n, ncopies) ? 0 : -EOVERFLOW;
}

/* Mbufs one call took, per zone, committed on success. */
struct fanout_acc {
	uint32_t alloc[MBUFX_ZONE_NUM];
	uint32_t fallback;
};

/* n >= 1 mbufs from zone pref or, when it is dry, a larger one. */
static inline int
take(struct mbufx_zone_set *zs, enum mbufx_zone_id pref, struct rte_mbuf **v,
     unsigned int n, struct fanout_acc *a)
{
	enum mbufx_zone_id z = pref;

	if (unlikely(rte_pktmbuf_alloc_bulk(zs->pool[pref], v, n) != 0)) {
		z = (enum mbufx_zone_id)(pref + 1);
		if (z >= MBUFX_ZONE_NUM || mbufx_lib_get(zs, &z, v, n) < 0)
			return -ENOMEM;
		a->fallback += n;
	}
	a->alloc[z] += n;
	return 0;
}

/* Header mbuf h of a copy: the first c bytes of m at the end of its
 * buffer, m's metadata, room for k more segments. */
static inline void
header_init(struct rte_mbuf *h, const struct rte_mbuf *m, uint32_t c,
	    unsigned int k)
{
	/* even: the copied headers stay 2-byte aligned (rte_ether_hdr) */
	h->data_off = (uint16_t)((h->buf_len - c) & ~1u);
	h->data_len = (uint16_t)c;
	mbufx_copy_front(rte_pktmbuf_mtod(h, uint8_t *), m, c);
	__mbufx_copy_metadata(h, m);
	h->pkt_len = m->pkt_len;
	h->nb_segs = (uint16_t)(k + 1);
}

/* Indirect mbuf x shares segment s (from skip on), linked after tail. */
static inline void
share_one(struct rte_mbuf *tail, struct rte_mbuf *x, struct rte_mbuf *s,
	  uint32_t skip)
{
	rte_pktmbuf_attach(x, s);
	x->data_off += skip;
	x->data_len -= skip;
	tail->next = x;
}

/* All counters of one successful call through one slot look-up: nalloc
 * header mbufs, nind indirect ones, deep copies or not, m kept as a copy. */
static void
fanout_count(struct mbufx_zone_set *zs, const struct fanout_acc *a,
	     unsigned int nalloc, unsigned int nind, int deep, int own)
{
	unsigned int lc = rte_lcore_id(), z;

	if (unlikely(lc >= RTE_MAX_LCORE)) {
		for (z = 0; z < MBUFX_ZONE_NUM; z++)
			MBUFX_ZONE_STAT_ADD(zs, alloc[z], a->alloc[z]);
		MBUFX_ZONE_STAT_ADD(zs, hdr_fallback, a->fallback);
		MBUFX_ZONE_STAT_ADD(zs, fanout_hdr_alloc, nalloc);
		MBUFX_ZONE_STAT_ADD(zs, fanout_indirect, nind);
		MBUFX_ZONE_STAT_ADD(zs, fanout_deep, deep ? nalloc : 0);
		MBUFX_ZONE_STAT_ADD(zs, fanout_hdr_saved, own ? 1 : 0);
		return;
	}
	for (z = 0; z < MBUFX_ZONE_NUM; z++)
		MBUFX_ZONE_CTR(zs, lc, alloc[z]) += a->alloc[z];
	MBUFX_ZONE_CTR(zs, lc, hdr_fallback) += a->fallback;
	MBUFX_ZONE_CTR(zs, lc, fanout_hdr_alloc) += nalloc;
	MBUFX_ZONE_CTR(zs, lc, fanout_indirect) += nind;
	MBUFX_ZONE_CTR(zs, lc, fanout_deep) += deep ? nalloc : 0;
	MBUFX_ZONE_CTR(zs, lc, fanout_hdr_saved) += own ? 1 : 0;
}

/* What one call decided: the split, the zones, the segments to share. */
struct fanout_plan {
	struct mbufx_zone_set *zs;
	struct rte_mbuf *m;
	struct rte_mbuf *first;		/* first segment to share */
	uint32_t c;			/* split point */
	uint32_t skip;			/* bytes of first not shared */
	unsigned int k;			/* segments shared per copy */
	enum mbufx_zone_id hz;		/* zone of the header mbufs */
	enum mbufx_zone_id cz;		/* zone of the indirect mbufs */
	struct fanout_acc a;
};

/* Indirect mbufs in hand for the copies of a chunk: v[nh + used] is next. */
struct fanout_refill {
	unsigned int used;
	unsigned int avail;
	unsigned int need;		/* still to take, k > FANOUT_BULK - 1 */
};

/* Step 1: the split point and the zones of the header and indirect mbufs. */
static inline int
fanout_split(struct fanout_plan *p, uint16_t hdr_len)
{
	const struct rte_mbuf *m = p->m;
	enum mbufx_zone_id hz2;
	uint32_t c;

	if (mbufx_hdr_pool(p->zs, hdr_len, &p->hz) == NULL)
		return -EINVAL;
	c = split_point(m, hdr_len);
	if (c != hdr_len &&
	    (mbufx_hdr_pool(p->zs, c, &hz2) == NULL || hz2 != p->hz)) {
		/* the documented deep copy of a short packet takes the
		 * bigger buffer; a mere extension to a segment end does not */
		if (c == m->pkt_len && m->pkt_len - hdr_len <=
		    MBUFX_FANOUT_COPY_MAX &&
		    mbufx_hdr_pool(p->zs, c, &hz2) != NULL)
			p->hz = hz2;
		else
			c = hdr_len;
	}
	p->c = c;
	p->cz = MBUFX_ZONE_PKT;
	mbufx_hdr_pool(p->zs, 0, &p->cz);
	return 0;
}

/*
 * Step 2: the last copy (m itself, m behind a header of its own, or no
 * copy of m) and the segments the copies share. *nalloc is the number of
 * copies built from header mbufs; *hl the header in front of m, if any.
 */
static inline int
fanout_last_copy(struct fanout_plan *p, uint16_t hdr_len, unsigned int n,
		 unsigned int *nalloc, int *own, struct rte_mbuf **hl)
{
	struct rte_mbuf *m = p->m;

	*own = mbufx_seg_writable(m) && m->data_len >= hdr_len;
	*nalloc = *own ? n - 1 : n;
	if (share_plan(m, p->c, *nalloc, &p->first, &p->skip, &p->k) < 0)
		return -EOVERFLOW;
	if (!(*own && *nalloc != 0 && p->k != 0 && p->first == m))
		return 0;
	/* the copies read m's first segment: m goes behind a header of its
	 * own (see above), or into no copy at all when its chain has no room
	 * for one more segment */
	*own = 0;
	if (m->nb_segs < RTE_MBUF_MAX_NB_SEGS)
		return take(p->zs, p->hz, hl, 1, &p->a);
	*nalloc = n;
	if (share_plan(m, p->c, *nalloc, &p->first, &p->skip, &p->k) < 0)
		return -EOVERFLOW;
	return 0;
}

/* Step 3a: the mbufs of a chunk of nh copies, headers first (one chunk
 * holds every mbuf of its copies: 1 + k <= FANOUT_BULK). */
static inline int
fanout_chunk_take(struct fanout_plan *p, struct rte_mbuf **v, unsigned int nh)
{
	if (p->hz == p->cz)
		return take(p->zs, p->hz, v, nh * (1 + p->k), &p->a);
	if (take(p->zs, p->hz, v, nh, &p->a) < 0)
		return -ENOMEM;
	if (p->k != 0 && take(p->zs, p->cz, &v[nh], nh * p->k, &p->a) < 0) {
		rte_pktmbuf_free_bulk(v, nh);
		return -ENOMEM;
	}
	return 0;
}

/* Step 3b: copy h = v[j] of a chunk of nh: its header, then the k shared
 * segments, refilling the indirect mbufs as used (nh == 1 then). */
static inline int
fanout_copy_build(struct fanout_plan *p, struct rte_mbuf **v, unsigned int nh,
		  unsigned int j, struct fanout_refill *r)
{
	struct rte_mbuf *h = v[j], *tail = h, *s = p->first;
	unsigned int t;

	header_init(h, p->m, p->c, p->k);
	for (t = 0; t < p->k; t++, s = s->next) {
		if (r->used == r->avail) {
			r->avail = RTE_MIN(r->need,
					   (unsigned int)FANOUT_BULK - 1);
			r->used = 0;
			/* nh == 1: nothing else held */
			if (take(p->zs, p->cz, &v[1], r->avail, &p->a) < 0)
				return -ENOMEM;
			r->need -= r->avail;
		}
		while (s->data_len == 0)
			s = s->next;
		share_one(tail, v[nh + r->used], s, t == 0 ? p->skip : 0);
		tail = v[nh + r->used++];
	}
	return 0;
}

/* Step 4: the last copy, once every other copy is built. */
static inline void
fanout_finish(struct fanout_plan *p, struct rte_mbuf **copies, unsigned int n,
	      int own, struct rte_mbuf *hl)
{
	struct rte_mbuf *m = p->m;

	if (own) {
		copies[n - 1] = m;
	} else if (hl != NULL) {
		header_init(hl, m, p->c, 0);
		hl->nb_segs = (uint16_t)(m->nb_segs + 1);
		hl->next = m;
		m->data_off += (uint16_t)p->c;
		m->data_len -= (uint16_t)p->c;
		copies[n - 1] = hl;
	} else {
		rte_pktmbuf_free(m);
	}
}

int
mbufx_fanout(struct mbufx_zone_set *zs, struct rte_mbuf *m, uint16_t hdr_len,
	     struct rte_mbuf **copies, unsigned int n)
{
	struct rte_mbuf *v[FANOUT_BULK];
	struct fanout_plan p = { .zs = zs, .m = m };
	struct fanout_refill r;
	struct rte_mbuf *hl = NULL;
	unsigned int i, j, nalloc, per, nh, built = 0;
	int own, ret;

	if (zs == NULL || m == NULL || copies == NULL || n == 0 ||
	    hdr_len > m->pkt_len)
		return -EINVAL;
	MBUFX_DEBUG_HEAD(m);
	if (fanout_split(&p, hdr_len) < 0)
		return -EINVAL;
	ret = fanout_last_copy(&p, hdr_len, n, &nalloc, &own, &hl);
	if (ret < 0)
		return ret;

	/* Chunks of nh copies: headers v[0..nh), their k indirect mbufs
	 * each from v[nh] on, refilled (k > FANOUT_BULK - 1 only) as used. */
	per = 1 + p.k;
	for (i = 0; i < nalloc; i += nh) {
		if (per <= FANOUT_BULK) {
			/* the common case, one chunk, needs no division */
			nh = nalloc - i;
			if (unlikely(nh * per > FANOUT_BULK))
				nh = FANOUT_BULK / per;
			if (fanout_chunk_take(&p, v, nh) < 0)
				goto unwind;
			r = (struct fanout_refill){ 0, nh * p.k, 0 };
		} else {
			nh = 1;
			if (take(zs, p.hz, v, 1, &p.a) < 0)
				goto unwind;
			r = (struct fanout_refill){ 0, 0, p.k };
		}
		for (j = 0; j < nh; j++) {
			copies[built++] = v[j];
			if (fanout_copy_build(&p, v, nh, j, &r) < 0)
				goto unwind;
		}
	}
	fanout_count(zs, &p.a, nalloc + (hl != NULL), nalloc * p.k,
		     p.c == m->pkt_len, own);
	fanout_finish(&p, copies, n, own, hl);
	return (int)n;

unwind:
	/* every reference the built copies took goes back with them */
	while (built > 0)
		rte_pktmbuf_free(copies[--built]);
	if (hl != NULL)
		rte_pktmbuf_free(hl);
	return -ENOMEM;
}
