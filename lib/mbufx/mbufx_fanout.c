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
 *   last copy:   m itself when its first segment is writable and holds
 *                the first hdr_len bytes.
 *
 * c is the split point: hdr_len, extended to the end of the segment that
 * holds byte hdr_len when that adds at most MBUFX_FANOUT_COPY_MAX bytes
 * (copying them costs less than an indirect mbuf and its refcount update on
 * the owner's cache line), or to pkt_len for short packets (deep copies).
 * c is pulled back to hdr_len when it would need a bigger header buffer.
 *
 * Everything is allocated before anything is attached; on failure all
 * mbufs go back and m is as it was.
 */

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <rte_errno.h>
#include <rte_mbuf.h>
#include <rte_memcpy.h>

#include "mbufx_mbuf.h"
#include "mbufx_private.h"
#include "mbufx_zone.h"

/* Mbufs fetched with one mempool call at most. */
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

/* Get n mbufs from mp into v, all or nothing. A request for zero mbufs
 * never reaches the pool: without a per-lcore cache the stock ring driver
 * refuses it. */
static inline int
get_n(struct rte_mempool *mp, struct rte_mbuf **v, unsigned int n)
{
	unsigned int i, k;

	if (n == 0)
		return 0;
	if (likely(n <= FANOUT_BULK))
		return rte_pktmbuf_alloc_bulk(mp, v, n) == 0 ? 0 : -ENOMEM;
	for (i = 0; i < n; i += k) {
		k = RTE_MIN(n - i, (unsigned int)FANOUT_BULK);
		if (rte_pktmbuf_alloc_bulk(mp, &v[i], k) != 0) {
			rte_pktmbuf_free_bulk(v, i);
			return -ENOMEM;
		}
	}
	return 0;
}

/* Build one copy from header h and k fresh mbufs cl[]. */
static struct rte_mbuf *
copy_build(struct rte_mbuf *m, struct rte_mbuf *h, uint32_t c,
	   struct rte_mbuf *first, uint32_t skip, struct rte_mbuf **cl,
	   unsigned int k)
{
	struct rte_mbuf *s = first, *tail = h;
	unsigned int j = 0;

	/* even: the copied headers stay 2-byte aligned (rte_ether_hdr) */
	h->data_off = (uint16_t)((h->buf_len - c) & ~1u);
	h->data_len = (uint16_t)c;
	mbufx_copy_front(rte_pktmbuf_mtod(h, uint8_t *), m, c);
	__mbufx_copy_metadata(h, m);
	h->pkt_len = m->pkt_len;
	h->nb_segs = (uint16_t)(k + 1);
	for (; j < k; s = s->next) {
		if (s->data_len == 0)
			continue;
		rte_pktmbuf_attach(cl[j], s);
		if (j == 0) {
			cl[j]->data_off += skip;
			cl[j]->data_len -= skip;
		}
		tail->next = cl[j];
		tail = cl[j];
		j++;
	}
	return h;
}

/* All counters of one call through one slot look-up. */
static void
fanout_count(struct mbufx_zone_set *zs, enum mbufx_zone_id hz,
	     enum mbufx_zone_id cz, unsigned int nalloc, unsigned int k,
	     int deep, int own)
{
	struct mbufx_zone_stats *st;
	unsigned int lc = rte_lcore_id();

	if (unlikely(lc >= RTE_MAX_LCORE)) {
		MBUFX_ZONE_STAT_ADD(zs, alloc[hz], nalloc);
		MBUFX_ZONE_STAT_ADD(zs, alloc[cz], nalloc * k);
		MBUFX_ZONE_STAT_ADD(zs, fanout_hdr_alloc, nalloc);
		MBUFX_ZONE_STAT_ADD(zs, fanout_indirect, nalloc * k);
		MBUFX_ZONE_STAT_ADD(zs, fanout_deep, deep ? nalloc : 0);
		MBUFX_ZONE_STAT_ADD(zs, fanout_hdr_saved, own ? 1 : 0);
		return;
	}
	st = &zs->stats[lc];
	st->alloc[hz] += nalloc;
	st->alloc[cz] += nalloc * k;
	st->fanout_hdr_alloc += nalloc;
	st->fanout_indirect += nalloc * k;
	st->fanout_deep += deep ? nalloc : 0;
	st->fanout_hdr_saved += own ? 1 : 0;
}

int
mbufx_fanout(struct mbufx_zone_set *zs, struct rte_mbuf *m, uint16_t hdr_len,
	     struct rte_mbuf **copies, unsigned int n)
{
	struct rte_mbuf *stack[FANOUT_BULK];
	struct rte_mbuf **v = stack, *first;
	struct rte_mempool *hpool, *cpool;
	enum mbufx_zone_id hz, cz = MBUFX_ZONE_HDR, hz2;
	unsigned int i, k, nalloc, per, total;
	uint32_t c, skip;
	int own, ret;

	if (zs == NULL || m == NULL || copies == NULL || n == 0 ||
	    hdr_len > m->pkt_len)
		return -EINVAL;
	hpool = mbufx_hdr_pool(zs, hdr_len, &hz);
	if (hpool == NULL)
		return -EINVAL;
	c = split_point(m, hdr_len);
	if (c != hdr_len && (mbufx_hdr_pool(zs, c, &hz2) == NULL || hz2 != hz))
		c = hdr_len;
	cpool = mbufx_hdr_pool(zs, 0, &cz);

	own = mbufx_seg_writable(m) && m->data_len >= hdr_len;
	nalloc = own ? n - 1 : n;
	ret = share_plan(m, c, nalloc, &first, &skip, &k);
	if (ret < 0)
		return ret;

	if (nalloc != 0) {
		per = 1 + k;
		if ((uint64_t)nalloc * per > UINT32_MAX / sizeof(*v))
			return -ENOMEM; /* no zone set holds that many */
		total = nalloc * per;
		if (total > FANOUT_BULK) {
			v = malloc(sizeof(*v) * total);
			if (v == NULL)
				return -ENOMEM;
		}
		/* headers first, then the indirect mbufs of every copy */
		if (hpool == cpool) {
			ret = get_n(hpool, v, total);
		} else {
			ret = get_n(hpool, v, nalloc);
			if (ret == 0) {
				ret = get_n(cpool, &v[nalloc], total - nalloc);
				if (ret < 0)
					rte_pktmbuf_free_bulk(v, nalloc);
			}
		}
		if (ret < 0) {
			if (v != stack)
				free(v);
			return ret;
		}
		for (i = 0; i < nalloc; i++)
			copies[i] = copy_build(m, v[i], c, first, skip,
					       &v[nalloc + i * k], k);
		if (v != stack)
			free(v);
	}
	fanout_count(zs, hz, cz, nalloc, k, c == m->pkt_len, own);
	if (own)
		copies[n - 1] = m;
	else
		rte_pktmbuf_free(m);
	return (int)n;
}
