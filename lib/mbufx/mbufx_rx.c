/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The mbufx authors
 */

/*
 * Late metadata attach: control path (create, free, stats, registry).
 *
 * An rx context caches, at create time, everything refill and attach need
 * so that neither ever looks at an mbuf header before the frame is in:
 *
 *   object ──► | rte_mbuf (2 lines) | priv | headroom | data ... |
 *              ^ handle                               ^ addr = handle + data_offset
 *
 *   data_offset = sizeof(struct rte_mbuf) + priv_size + headroom, where
 *   headroom = min(RTE_PKTMBUF_HEADROOM, data room) as rte_pktmbuf_init()
 *   and rte_pktmbuf_reset_headroom() compute it.
 *
 * IOVAs come from the pool's memory chunks (mp->mem_list): every chunk is
 * IOVA-contiguous by the mempool contract, so iova(va) = va + (chunk.iova -
 * chunk.addr) for any va inside the chunk, and an object never straddles two
 * chunks. When all chunks share one offset (IOVA as VA, a single chunk, or
 * physically contiguous chunks) the fast path is one addition. Otherwise
 * the offset changes only at page boundaries (a hugepage is physically
 * contiguous), so the context keeps one offset per page of the pool's span,
 * the largest page for which that holds: one load per buffer, whatever
 * order a LIFO pool hands buffers out in. Only when chunks of different
 * offsets share even a 4 KiB page (or the span is too sparse) does it fall
 * back to a branch-free binary search of the sorted chunk table. A fully
 * populated pool never gains chunks, so the tables cannot go stale. The
 * one offset and the page table are keyed on the handle (the object's own
 * address), not on the data address: an object and its data share a chunk,
 * so the data offset folds into the stored addend, and a refill computes
 * each IOVA from the handle alone (handle + addend, or handle + one load).
 *
 * The registry (a list under a spinlock) exists for mbufx_rx_stats_sum(): a
 * zone set reports attach counts of every context bound to its pools
 * without knowing about them. The fast path never takes the lock.
 */

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <sys/queue.h>

#include <rte_errno.h>
#include <rte_log.h>
#include <rte_malloc.h>
#include <rte_spinlock.h>

#include "mbufx_private.h"
#include "mbufx_rx.h"
#include "mbufx_stats.h"
#include "mbufx_zone.h"

RTE_LOG_REGISTER(mbufx_rx_logtype, lib.mbufx.rx, NOTICE);
#define RX_LOG(level, fmt, ...) \
	rte_log(RTE_LOG_ ## level, mbufx_rx_logtype, "mbufx_rx: " fmt "\n", \
		##__VA_ARGS__)

struct mbufx_rx_priv {
	struct mbufx_rx rx;	/* first: the public pointer */
	TAILQ_ENTRY(mbufx_rx_priv) next;
	struct mbufx_rx_chunk chunks[];
};

static TAILQ_HEAD(, mbufx_rx_priv) rx_registry =
	TAILQ_HEAD_INITIALIZER(rx_registry);
static rte_spinlock_t rx_registry_lock = RTE_SPINLOCK_INITIALIZER;

struct chunk_walk {
	struct mbufx_rx_chunk *c;
	unsigned int n, max;
	unsigned int bad;
};

static void
chunk_collect(struct rte_mempool *mp __rte_unused, void *opaque,
	      struct rte_mempool_memhdr *hdr, unsigned int idx __rte_unused)
{
	struct chunk_walk *w = opaque;
	struct mbufx_rx_chunk *c;

	if (w->n == w->max)
		return;
	c = &w->c[w->n++];
	c->start = (uintptr_t)hdr->addr;
	c->end = c->start + hdr->len;
	if (hdr->iova == RTE_BAD_IOVA) {
		w->bad++;
		c->delta = 0;
	} else {
		c->delta = hdr->iova - (uint64_t)c->start;
	}
}

static int
chunk_cmp(const void *a, const void *b)
{
	const struct mbufx_rx_chunk *x = a, *y = b;

	return x->start < y->start ? -1 : x->start > y->start;
}

/* Sort, merge neighbours with the same offset; returns the new count. */
static unsigned int
chunk_table_build(struct mbufx_rx_chunk *c, unsigned int n)
{
	unsigned int i, out = 0;

	qsort(c, n, sizeof(*c), chunk_cmp);
	for (i = 1; i < n; i++) {
		if (c[i].start == c[out].end && c[i].delta == c[out].delta)
			c[out].end = c[i].end;
		else
			c[++out] = c[i];
	}
	return n == 0 ? 0 : out + 1;
}

static int
pool_geometry(const struct rte_mempool *mp, uint16_t *headroom, uint16_t *room,
	      uint32_t *data_offset)
{
	const struct rte_pktmbuf_pool_private *pp;
	uint32_t data_room;

	if (mp->private_data_size < sizeof(*pp)) {
		RX_LOG(ERR, "pool %s is not a pktmbuf pool", mp->name);
		return -EINVAL;
	}
	pp = rte_mempool_get_priv((struct rte_mempool *)(uintptr_t)mp);
	data_room = pp->mbuf_data_room_size;
	if (pp->flags & RTE_PKTMBUF_POOL_F_PINNED_EXT_BUF) {
		RX_LOG(ERR, "pool %s holds pinned external buffers", mp->name);
		return -ENOTSUP;
	}
	if (mp->elt_size < sizeof(struct rte_mbuf) + pp->mbuf_priv_size +
			data_room) {
		RX_LOG(ERR, "pool %s: element of %u bytes is not a pktmbuf",
		       mp->name, mp->elt_size);
		return -EINVAL;
	}
	*headroom = RTE_MIN((uint32_t)RTE_PKTMBUF_HEADROOM, data_room);
	*room = data_room - *headroom;
	if (*room == 0) {
		RX_LOG(ERR, "pool %s: data room %u leaves nothing after headroom",
		       mp->name, data_room);
		return -EINVAL;
	}
	*data_offset = sizeof(struct rte_mbuf) + pp->mbuf_priv_size +
		*headroom;
	if (mp->populated_size != mp->size || mp->nb_mem_chunks == 0) {
		RX_LOG(ERR, "pool %s is not fully populated (%u of %u)",
		       mp->name, mp->populated_size, mp->size);
		return -EINVAL;
	}
	return 0;
}

static uint64_t
rearm_word(uint16_t headroom, uint16_t port)
{
	struct rte_mbuf mb;
	uint64_t w;

	memset(&mb, 0, sizeof(mb));
	mb.data_off = headroom;
	rte_mbuf_refcnt_set(&mb, 1);
	mb.nb_segs = 1;
	mb.port = port;
	memcpy(&w, RTE_PTR_ADD(&mb, offsetof(struct rte_mbuf, rearm_data)),
	       sizeof(w));
	return w;
}

/*
 * Largest page (2^shift, 4 KiB to 1 GiB) such that no page holds two chunks
 * with different offsets, and the pool's span needs at most
 * PAGE_TABLE_MAX entries. 0 when there is none: fall back to the search.
 */
#define PAGE_SHIFT_MIN 12
#define PAGE_SHIFT_MAX 30
#define PAGE_TABLE_MAX 65536

static unsigned int
page_table_fits(const struct mbufx_rx_chunk *c, unsigned int n,
		unsigned int shift, uint64_t *delta, uint8_t *used)
{
	uintptr_t base = c[0].start >> shift, pg;
	size_t entries = ((c[n - 1].end - 1) >> shift) - base + 1;
	unsigned int i;

	if (entries > PAGE_TABLE_MAX)
		return 0;
	memset(used, 0, entries);
	for (i = 0; i < n; i++)
		for (pg = c[i].start >> shift; pg <= (c[i].end - 1) >> shift;
		     pg++) {
			if (used[pg - base] && delta[pg - base] != c[i].delta)
				return 0;
			used[pg - base] = 1;
			delta[pg - base] = c[i].delta;
		}
	return (unsigned int)entries;
}

static unsigned int
page_table_choose(const struct mbufx_rx_chunk *c, unsigned int n,
		  unsigned int *shift)
{
	uint64_t *delta = malloc(sizeof(*delta) * PAGE_TABLE_MAX);
	uint8_t *used = malloc(PAGE_TABLE_MAX);
	unsigned int s, entries = 0;

	if (delta != NULL && used != NULL)
		for (s = PAGE_SHIFT_MAX; s >= PAGE_SHIFT_MIN; s--) {
			entries = page_table_fits(c, n, s, delta, used);
			if (entries != 0) {
				*shift = s;
				break;
			}
		}
	free(delta);
	free(used);
	return entries;
}

/*
 * The pool's memory chunks, sorted and merged (chunk_table_build()), into a
 * malloc()ed table of *n entries. NULL with rte_errno set: ENOMEM, or
 * ENOTSUP when a chunk has no IOVA and the caller needs IOVAs.
 */
static struct mbufx_rx_chunk *
chunks_read(struct rte_mempool *mp, uint32_t flags, unsigned int *n)
{
	struct chunk_walk w;

	w.c = malloc(sizeof(*w.c) * mp->nb_mem_chunks);
	if (w.c == NULL) {
		rte_errno = ENOMEM;
		return NULL;
	}
	w.n = 0;
	w.max = mp->nb_mem_chunks;
	w.bad = 0;
	rte_mempool_mem_iter(mp, chunk_collect, &w);
	if (w.bad != 0 && (flags & MBUFX_RX_F_NO_IOVA) == 0) {
		RX_LOG(ERR, "pool %s: %u of %u memory chunks have no IOVA "
		       "(create with MBUFX_RX_F_NO_IOVA for a software path)",
		       mp->name, w.bad, w.n);
		free(w.c);
		rte_errno = ENOTSUP;
		return NULL;
	}
	*n = chunk_table_build(w.c, w.n);
	return w.c;
}

/*
 * How IOVAs are computed over the n sorted chunks c (see the top of the
 * file); for PAGES, the page size in *shift and the table's entries in
 * *pages.
 */
static enum mbufx_rx_iova_kind
iova_kind_choose(const struct mbufx_rx_chunk *c, unsigned int n,
		 uint32_t flags, unsigned int *shift, unsigned int *pages)
{
	unsigned int i;

	*pages = 0;
	if (flags & MBUFX_RX_F_NO_IOVA)
		return MBUFX_RX_IOVA_NONE;
	for (i = 1; i < n; i++)
		if (c[i].delta != c[0].delta)
			break;
	if (i >= n)
		return MBUFX_RX_IOVA_LINEAR;
	*pages = page_table_choose(c, n, shift);
	return *pages != 0 ? MBUFX_RX_IOVA_PAGES : MBUFX_RX_IOVA_TABLE;
}

/* Every chunk's pages of the PAGES table; pages between chunks stay unused. */
static void
page_table_fill(struct mbufx_rx *rx, uint64_t *page_iova, unsigned int shift,
		unsigned int pages)
{
	const uintptr_t base = rx->chunks[0].start >> shift;
	unsigned int i;
	uintptr_t pg;

	rx->page_shift = shift;
	rx->nb_pages = pages;
	for (i = 0; i < rx->nb_chunks; i++)
		for (pg = rx->chunks[i].start >> shift;
		     pg <= (rx->chunks[i].end - 1) >> shift; pg++)
			page_iova[pg - base] = rx->chunks[i].delta +
				rx->data_offset;
	/* indexed by a handle's page number: biased by the first page's */
	rx->page_iova = (const uint64_t *)((uintptr_t)page_iova -
					   base * sizeof(*page_iova));
}

struct mbufx_rx *
mbufx_rx_create(struct rte_mempool *mp, uint16_t port, uint32_t flags)
{
	enum mbufx_rx_iova_kind kind;
	struct mbufx_rx_chunk *tmp;
	struct mbufx_rx_priv *p;
	struct mbufx_rx *rx;
	uint16_t headroom, room;
	uint32_t data_offset;
	unsigned int n, shift = 0, pages;
	size_t sz;
	int ret;

	RTE_BUILD_BUG_ON(offsetof(struct rte_mbuf, rearm_data) % 8 != 0);
	RTE_BUILD_BUG_ON(offsetof(struct rte_mbuf, port) + sizeof(uint16_t) -
			 offsetof(struct rte_mbuf, rearm_data) != 8);
	RTE_BUILD_BUG_ON(offsetof(struct rte_mbuf, vlan_tci_outer) >=
			 RTE_CACHE_LINE_MIN_SIZE);

	/* checks: arguments, pktmbuf geometry, a pool numbered our way */
	if (mp == NULL || (flags & ~MBUFX_RX_F_NO_IOVA) != 0) {
		rte_errno = EINVAL;
		return NULL;
	}
	ret = pool_geometry(mp, &headroom, &room, &data_offset);
	if (ret == 0)
		ret = mbufx_pool_ops_check(mp, NULL);
	if (ret != 0) {
		rte_errno = -ret;
		return NULL;
	}

	/* the IOVA tables */
	tmp = chunks_read(mp, flags, &n);
	if (tmp == NULL)
		return NULL;
	kind = iova_kind_choose(tmp, n, flags, &shift, &pages);

	/* one allocation: context, chunk table, page table */
	sz = sizeof(*p) + sizeof(p->chunks[0]) * n;
	p = rte_zmalloc_socket("mbufx_rx", sz + sizeof(uint64_t) * pages,
			       RTE_CACHE_LINE_SIZE, mp->socket_id);
	if (p == NULL) {
		free(tmp);
		rte_errno = ENOMEM;
		return NULL;
	}
	memcpy(p->chunks, tmp, sizeof(*tmp) * n);
	free(tmp);

	rx = &p->rx;
	rx->mp = mp;
	rx->port = port;
	rx->headroom = headroom;
	rx->room = room;
	rx->data_offset = data_offset;
	rx->flags = (uint16_t)flags;
	rx->rearm = rearm_word(headroom, port);
	rx->chunks = p->chunks;
	rx->nb_chunks = n;
	rx->iova_kind = kind;
	rx->iova_add = (kind == MBUFX_RX_IOVA_LINEAR ? p->chunks[0].delta : 0) +
		data_offset;
	if (kind == MBUFX_RX_IOVA_PAGES)
		page_table_fill(rx, RTE_PTR_ADD(p, sz), shift, pages);

	/* publish */
	rte_spinlock_lock(&rx_registry_lock);
	TAILQ_INSERT_TAIL(&rx_registry, p, next);
	rte_spinlock_unlock(&rx_registry_lock);
	return rx;
}

#define RX_CTR(f, d) \
	MBUFX_STAT_FIELD(struct mbufx_rx_stats, f, MBUFX_STAT_COUNTER, d)

/* struct mbufx_rx_stats, in struct order: the one list of its names. The
 * counters are uint64_t written by the fast path (MBUFX_RX_CNT_ADD); posted,
 * the last field, is derived from them when read. */
static const struct mbufx_stat_field rx_stats_fields[] = {
	RX_CTR(refilled, "late-attach buffers handed out by refill"),
	RX_CTR(refill_fails, "refill calls that got fewer than asked"),
	RX_CTR(refill_missed, "buffers asked for but not available"),
	RX_CTR(attached, "buffers turned into mbufs by attach"),
	RX_CTR(returned, "buffers given back unused"),
	RX_CTR(recycled, "buffers posted again without the pool"),
	MBUFX_STAT_FIELD(struct mbufx_rx_stats, posted, MBUFX_STAT_GAUGE,
			 "buffers currently posted"),
};

const struct mbufx_stat_field *
mbufx_rx_stats_fields(unsigned int *n)
{
	*n = RTE_DIM(rx_stats_fields);
	return rx_stats_fields;
}

static inline uint64_t *
stat_u64(struct mbufx_rx_stats *st, const struct mbufx_stat_field *f)
{
	return RTE_PTR_ADD(st, f->offset);
}

static void
counters_read(const struct mbufx_rx *rx, struct mbufx_rx_stats *st)
{
	unsigned int i;

	RTE_BUILD_BUG_ON(offsetof(struct mbufx_rx_stats, posted) !=
			 sizeof(struct mbufx_rx_stats) - sizeof(uint64_t));
	memset(st, 0, sizeof(*st));
	for (i = 0; i < RTE_DIM(rx_stats_fields); i++)
		if (rx_stats_fields[i].kind == MBUFX_STAT_COUNTER)
			*stat_u64(st, &rx_stats_fields[i]) = __atomic_load_n(
				(const uint64_t *)RTE_PTR_ADD(&rx->cnt,
					rx_stats_fields[i].offset),
				__ATOMIC_RELAXED);
	st->posted = st->refilled + st->recycled - st->attached -
		st->returned;
}

void
mbufx_rx_free(struct mbufx_rx *rx)
{
	struct mbufx_rx_priv *p = (struct mbufx_rx_priv *)rx;
	struct mbufx_rx_stats st;

	if (rx == NULL)
		return;
	rte_spinlock_lock(&rx_registry_lock);
	TAILQ_REMOVE(&rx_registry, p, next);
	rte_spinlock_unlock(&rx_registry_lock);
	counters_read(rx, &st);
	if (st.posted != 0)
		RX_LOG(WARNING, "pool %s: context freed with %" PRIu64
		       " buffers still posted", rx->mp->name, st.posted);
	rte_free(p);
}

int
mbufx_rx_info_get(const struct mbufx_rx *rx, struct mbufx_rx_info *info)
{
	if (rx == NULL || info == NULL)
		return -EINVAL;
	info->mp = rx->mp;
	info->port = rx->port;
	info->headroom = rx->headroom;
	info->room = rx->room;
	info->data_offset = rx->data_offset;
	return 0;
}

int
mbufx_rx_chunk_get(const struct mbufx_rx *rx, unsigned int idx,
		   uintptr_t *start, uintptr_t *end)
{
	if (rx == NULL || start == NULL || end == NULL)
		return -EINVAL;
	if (idx >= rx->nb_chunks)
		return -ENOENT;
	*start = rx->chunks[idx].start;
	*end = rx->chunks[idx].end;
	return 0;
}

int
mbufx_rx_stats_get(const struct mbufx_rx *rx, struct mbufx_rx_stats *st)
{
	if (rx == NULL || st == NULL)
		return -EINVAL;
	counters_read(rx, st);
	return 0;
}

int
mbufx_rx_stats_sum(const struct rte_mempool *mp, struct mbufx_rx_stats *st)
{
	struct mbufx_rx_priv *p;
	struct mbufx_rx_stats one;
	unsigned int i;
	int n = 0;

	if (mp == NULL || st == NULL)
		return -EINVAL;
	memset(st, 0, sizeof(*st));
	rte_spinlock_lock(&rx_registry_lock);
	TAILQ_FOREACH(p, &rx_registry, next) {
		if (p->rx.mp != mp)
			continue;
		counters_read(&p->rx, &one);
		for (i = 0; i < RTE_DIM(rx_stats_fields); i++)
			*stat_u64(st, &rx_stats_fields[i]) +=
				mbufx_stat_value(&one, &rx_stats_fields[i], 0);
		n++;
	}
	rte_spinlock_unlock(&rx_registry_lock);
	return n;
}

void
mbufx_rx_dump(FILE *f, const struct mbufx_rx *rx)
{
	static const char * const kind[] = {
		[MBUFX_RX_IOVA_LINEAR] = "linear",
		[MBUFX_RX_IOVA_TABLE] = "table",
		[MBUFX_RX_IOVA_NONE] = "none",
		[MBUFX_RX_IOVA_PAGES] = "pages",
	};
	struct mbufx_rx_stats st;
	unsigned int i;

	if (f == NULL || rx == NULL)
		return;
	counters_read(rx, &st);
	fprintf(f, "mbufx_rx pool=%s port=%u flags=0x%x headroom=%u room=%u "
		"data_offset=%u iova=%s chunks=%u pages=%u of %u KiB\n",
		rx->mp->name, rx->port, rx->flags, rx->headroom, rx->room,
		rx->data_offset, kind[rx->iova_kind], rx->nb_chunks,
		rx->nb_pages, rx->nb_pages ? 1u << (rx->page_shift - 10) : 0);
	for (i = 0; i < rx->nb_chunks; i++)
		fprintf(f, "  chunk %u: va 0x%" PRIxPTR "-0x%" PRIxPTR
			" iova-va 0x%" PRIx64 "\n", i, rx->chunks[i].start,
			rx->chunks[i].end, rx->chunks[i].delta);
	mbufx_stats_dump_counters(f, &st, rx_stats_fields,
				  RTE_DIM(rx_stats_fields));
	fprintf(f, "  %" PRIu64 " buffers currently posted (posted)\n",
		st.posted);
}

unsigned int
mbufx_rx_get_partial(struct rte_mempool *mp, void **objs, unsigned int n)
{
	unsigned int got = 0, k = n / 2;

	/* halve until a bulk fits; the final k == 1 phase drains what is left */
	while (k > 0 && got < n) {
		k = RTE_MIN(k, n - got);
		if (rte_mempool_get_bulk(mp, &objs[got], k) == 0)
			got += k;
		else
			k /= 2;
	}
	return got;
}
