/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The mbufx authors
 */

/*
 * mbufx_xdp_tx_autotest, part two: the enqueue's rule (the program, its
 * queue pairs and the transmit core's other behaviours are in
 * test_xdp_tx.c). Which frames mbufx_xdp_tx_enqueue() takes, how each one
 * goes out and what it counts:
 * - one call mixing every kind of frame between good one-segment
 *   zero-copy ones (chains, the other pool's, clones, refcnt 2, external
 *   buffers, empty segments, malformed, empty, over the descriptor limit;
 *   one segment longer than a chunk in the jumbo pool): the return, every
 *   counter, the indexes, every descriptor (address and offset, length,
 *   XDP_PKT_CONTD), pending[] of every granule, the pools and the caller's
 *   own references, the bytes the kernel gets;
 * - room on the TX ring: a burst stops exactly at the frame that does not
 *   fit, leaving the rest untouched, with one fresh look at the ring per
 *   call; a copy without a buffer stops it too;
 * - random bursts, room and completions against a model of that rule
 *   written here: every call as predicted (seed printed,
 *   MBUFX_XDP_TX_SEED to repeat one).
 */

#include <inttypes.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_mbuf.h>
#include <rte_random.h>

#include "test_xdp_tx.h"
#include "xdp_check.h"
#include "xdp_fake_kernel.h"

/* ---- every kind of frame the enqueue tells apart, and its rule ---- */

#define SEG_MAX 24

/* What a frame is made of. */
enum kind {
	K_ZC,		/* direct, unshared segments of the UMEM pool */
	K_FOREIGN,	/* segments of the other pool */
	K_FCHAIN,	/* a UMEM-pool head, the other pool's tail */
	K_CLONE,	/* rte_pktmbuf_clone() of a UMEM-pool frame (its
			 * header of the UMEM pool too): indirect */
	K_REF2,		/* one segment, refcnt 2 */
	K_EXT,		/* one segment with an external buffer attached */
	K_EMPTYSEG,	/* a chain whose second segment is empty */
	K_BADLEN,	/* pkt_len past the data */
	K_SHORT,	/* pkt_len short of the data */
	K_EMPTY,	/* one empty segment, pkt_len 0 */
};

/* What the enqueue must do with a frame it takes. */
enum fate { F_ZC, F_COPY, F_MALFORMED, F_TOOMANY };

/* A frame as the test built it, recorded before the call (a zero-copy
 * chain is unlinked by it). */
struct rec {
	struct rte_mbuf *m;	/* what the caller passes */
	struct rte_mbuf *keep;	/* the test's own reference (the clone's
				 * original, the refcnt 2 mbuf), or NULL */
	enum kind kind;
	struct rte_mbuf *seg[SEG_MAX];
	void *buf[SEG_MAX];
	uint16_t doff[SEG_MAX];
	uint16_t dlen[SEG_MAX];
	uint16_t ref[SEG_MAX];
	uint32_t nseg;
	uint32_t len;		/* pkt_len */
	uint32_t sum;		/* the data_len */
	uint8_t seed;
	int zc_ok;		/* every segment may go out zero-copy */
	uint32_t mp_freed;	/* UMEM-pool buffers freeing m gives back */
};

static unsigned int ext_freed;

static void
ext_free(void *addr, void *opaque __rte_unused)
{
	free(addr);
	ext_freed++;
}

/* A frame of len bytes (pattern seed + i) in nseg segments, the first of
 * pool p0, the others of p1, each starting doff into its buffer (-1: the
 * pool's headroom). */
struct rte_mbuf *
frame_at(struct rte_mempool *p0, struct rte_mempool *p1, uint32_t len,
	 uint32_t nseg, uint8_t seed, int doff)
{
	struct rte_mbuf *head = NULL, *m;
	uint32_t i, k, off = 0, part;
	uint8_t *p;

	for (i = 0; i < nseg; i++) {
		part = i + 1 < nseg ? len / nseg : len - off;
		m = rte_pktmbuf_alloc(i == 0 ? p0 : p1);
		if (m == NULL)
			goto fail;
		if (doff >= 0)
			m->data_off = (uint16_t)doff;
		p = (uint8_t *)rte_pktmbuf_append(m, (uint16_t)part);
		if (p == NULL && part != 0) {
			rte_pktmbuf_free(m);
			goto fail;
		}
		for (k = 0; k < part; k++)
			p[k] = (uint8_t)(seed + off + k);
		off += part;
		if (head == NULL)
			head = m;
		else if (rte_pktmbuf_chain(head, m) != 0) {
			rte_pktmbuf_free(m);
			goto fail;
		}
	}
	return head;
fail:
	rte_pktmbuf_free(head);
	return NULL;
}

/* One segment of len bytes in an external buffer (header of pool). */
static struct rte_mbuf *
frame_ext(struct rte_mempool *pool, uint32_t len, uint8_t seed)
{
	struct rte_mbuf_ext_shared_info *shinfo;
	uint16_t blen = (uint16_t)(RTE_PKTMBUF_HEADROOM + len + 64);
	struct rte_mbuf *m;
	uint8_t *mem, *p;
	uint32_t k;

	mem = malloc(blen);
	if (mem == NULL)
		return NULL;
	shinfo = rte_pktmbuf_ext_shinfo_init_helper(mem, &blen, ext_free,
						    NULL);
	m = shinfo == NULL ? NULL : rte_pktmbuf_alloc(pool);
	if (m == NULL) {
		free(mem);
		return NULL;
	}
	rte_pktmbuf_attach_extbuf(m, mem, (rte_iova_t)(uintptr_t)mem, blen,
				  shinfo);
	p = (uint8_t *)rte_pktmbuf_append(m, (uint16_t)len);
	if (p == NULL) {
		rte_pktmbuf_free(m);
		return NULL;
	}
	for (k = 0; k < len; k++)
		p[k] = (uint8_t)(seed + k);
	return m;
}

/* Build a frame of kind k into r: 0, or -1 when a pool is dry. */
static int
rec_build(struct rec *r, enum kind k, struct rte_mempool *mp,
	  struct rte_mempool *src, uint32_t len, uint32_t nseg, int doff,
	  uint8_t seed)
{
	struct rte_mbuf *m = NULL, *s, *e;
	uint32_t i;

	memset(r, 0, sizeof(*r));
	r->kind = k;
	r->seed = seed;
	switch (k) {
	case K_ZC:
	case K_BADLEN:
	case K_SHORT:
		m = frame_at(mp, mp, len, nseg, seed, doff);
		r->zc_ok = 1;
		r->mp_freed = nseg;
		break;
	case K_FOREIGN:
		m = frame_at(src, src, len, nseg, seed, doff);
		break;
	case K_FCHAIN:
		m = frame_at(mp, src, len, 2, seed, doff);
		r->mp_freed = 1;
		break;
	case K_CLONE:
		r->keep = frame_at(mp, mp, len, nseg, seed, doff);
		if (r->keep == NULL)
			return -1;
		m = rte_pktmbuf_clone(r->keep, mp);
		if (m == NULL) {
			rte_pktmbuf_free(r->keep);
			return -1;
		}
		r->mp_freed = nseg;	/* the clone's headers */
		break;
	case K_REF2:
		m = frame_at(mp, mp, len, 1, seed, doff);
		if (m != NULL)
			rte_mbuf_refcnt_update(m, 1);
		r->keep = m;
		break;
	case K_EXT:
		m = frame_ext(mp, len, seed);
		r->mp_freed = 1;	/* the header */
		break;
	case K_EMPTYSEG:
		m = frame_at(mp, mp, len, 1, seed, doff);
		e = m == NULL ? NULL : rte_pktmbuf_alloc(mp);
		if (e == NULL || rte_pktmbuf_chain(m, e) != 0) {
			rte_pktmbuf_free(e);
			rte_pktmbuf_free(m);
			return -1;
		}
		r->mp_freed = 2;
		break;
	case K_EMPTY:
		m = rte_pktmbuf_alloc(mp);
		r->mp_freed = 1;
		break;
	}
	if (m == NULL)
		return -1;
	if (k == K_BADLEN)
		m->pkt_len += 7;
	else if (k == K_SHORT)
		m->pkt_len -= 1;
	r->m = m;
	r->len = m->pkt_len;
	for (s = m, i = 0; s != NULL && i < SEG_MAX; s = s->next, i++) {
		r->seg[i] = s;
		r->buf[i] = s->buf_addr;
		r->doff[i] = s->data_off;
		r->dlen[i] = s->data_len;
		r->ref[i] = rte_mbuf_refcnt_read(s);
		r->sum += s->data_len;
	}
	r->nseg = i;
	return 0;
}

/* The test's references once the enqueue took the frame. */
static int
rec_taken(const struct rec *r)
{
	if (r->keep != NULL) {
		CHECK_EQ(rte_mbuf_refcnt_read(r->keep), 1, "%s kept by the "
			 "test: refcnt", r->kind == K_CLONE ? "a clone's "
			 "original" : "an mbuf of refcnt 2");
		rte_pktmbuf_free(r->keep);
	}
	return 0;
}

/* A frame the enqueue did not take is still the caller's, as it was. */
static int
rec_untouched(const struct rec *r, const char *what)
{
	const struct rte_mbuf *s = r->m;
	uint32_t i;

	CHECK(s->nb_segs == r->nseg && s->pkt_len == r->len, "%s: nb_segs %u "
	      "pkt_len %u, were %u and %u", what, s->nb_segs, s->pkt_len,
	      r->nseg, r->len);
	for (i = 0; i < r->nseg; i++, s = s->next)
		CHECK(s == r->seg[i] && s->buf_addr == r->buf[i] &&
		      s->data_off == r->doff[i] && s->data_len == r->dlen[i] &&
		      rte_mbuf_refcnt_read(s) == r->ref[i], "%s: segment %u "
		      "changed", what, i);
	CHECK(s == NULL, "%s: segments added", what);
	return 0;
}

/* The untaken frame given back by the test. */
static void
rec_free(const struct rec *r)
{
	rte_pktmbuf_free(r->m);
	rte_pktmbuf_free(r->keep);
}

/* The buffers completions handed to the recycle ring, back in the pool:
 * each a bare buffer, as the pool keeps them (one segment, no next,
 * refcnt 1: a zero-copy chain's segments were unlinked). */
static int
freed_clean(struct mbufx_xdp_rxq *rq, const char *what)
{
	void *h[RING];
	const struct rte_mbuf *m;
	unsigned int n, i;

	n = rte_ring_dequeue_burst(rq->recycle, h, RTE_DIM(h), NULL);
	for (i = 0; i < n; i++) {
		m = h[i];
		CHECK(m->next == NULL && m->nb_segs == 1 &&
		      rte_mbuf_refcnt_read(m) == 1, "%s: a completed buffer "
		      "still chained (next %p, nb_segs %u, refcnt %u)", what,
		      (void *)m->next, m->nb_segs, rte_mbuf_refcnt_read(m));
	}
	rte_mempool_put_bulk(rq->mp, h, n);
	return 0;
}

/*
 * The rule of mbufx_xdp_tx_enqueue() for one frame, written plainly: a
 * frame whose pkt_len is not the sum of its data_len, or 0, is malformed;
 * one whose every segment is direct, unshared, of the UMEM pool and not
 * empty goes zero-copy, a descriptor per chunk-sized piece of each
 * segment, when those are at most maxd; anything else is copied into
 * ceil(len / chunk) bare buffers, when those are at most maxd; else it
 * has too many segments. *n: its descriptors.
 */
static enum fate
rule(const struct rec *r, uint32_t chunk, uint32_t maxd, uint32_t *n)
{
	uint32_t i, zn = 0;

	*n = 0;
	if (r->sum != r->len || r->len == 0)
		return F_MALFORMED;
	if (r->zc_ok) {
		for (i = 0; i < r->nseg; i++)
			zn += (r->dlen[i] + chunk - 1) / chunk;
		if (zn <= maxd) {
			*n = zn;
			return F_ZC;
		}
	}
	*n = (r->len + chunk - 1) / chunk;
	if (*n <= maxd)
		return F_COPY;
	*n = 0;
	return F_TOOMANY;
}

static uint64_t
granule(const struct mbufx_xdp_rxq *rq, const void *handle)
{
	return ((uintptr_t)handle - rq->base) >> MBUFX_XDP_GRANULE_SHIFT;
}

/*
 * The n descriptors of frame r at slot on, as fate f says: zero-copy, each
 * segment's buffer at its data offset, in chunk-sized pieces; copied, bare
 * UMEM buffers from offset 0 that were not in flight; XDP_PKT_CONTD on all
 * but the last. sh: the pending[] counts the rule predicts, updated.
 */
static int
descs_check(const struct mbufx_xdp_txq *tq, const struct rec *r,
	    enum fate f, uint32_t n, uint32_t slot, uint8_t *sh,
	    unsigned int j)
{
	const struct mbufx_xdp_rxq *rq = tq->rxq;
	const struct xdp_desc *ring = tq->tx.descs, *d;
	uint32_t k = 0, i, left, piece, pos;
	uint64_t g, off, want;

	if (f == F_ZC) {
		for (i = 0; i < r->nseg; i++) {
			off = (uintptr_t)r->buf[i] - rq->base;
			g = granule(rq, r->seg[i]);
			pos = r->doff[i];
			for (left = r->dlen[i]; left != 0; left -= piece) {
				piece = RTE_MIN(left, rq->chunk_size);
				d = &ring[(slot + k) & tq->tx.mask];
				k++;
				want = off | (uint64_t)pos <<
					XSK_UNALIGNED_BUF_OFFSET_SHIFT;
				CHECK(d->addr == want && d->len == piece &&
				      d->options == (k < n ? XDP_PKT_CONTD : 0),
				      "frame %u descriptor %u (zero-copy): addr "
				      "%#" PRIx64 " len %u options %#x, want %#"
				      PRIx64 ", %u, %#x", j, k - 1,
				      (uint64_t)d->addr,
				      d->len, d->options, want, piece,
				      k < n ? XDP_PKT_CONTD : 0);
				sh[g]++;
				pos += piece;
			}
		}
		CHECK_EQ(k, n, "frame %u: zero-copy descriptors", j);
		return 0;
	}
	for (left = r->len; k < n; k++, left -= piece) {
		piece = RTE_MIN(left, rq->chunk_size);
		d = &ring[(slot + k) & tq->tx.mask];
		off = d->addr & XSK_UNALIGNED_BUF_ADDR_MASK;
		CHECK((d->addr >> XSK_UNALIGNED_BUF_OFFSET_SHIFT) == 0 &&
		      off >= rq->buf_offset && off - rq->buf_offset <
		      rq->umem_len && (off - rq->buf_offset) %
		      RTE_CACHE_LINE_SIZE == 0, "frame %u descriptor %u "
		      "(copied): addr %#" PRIx64 " is no UMEM buffer's start",
		      j, k, (uint64_t)d->addr);
		g = (off - rq->buf_offset) >> MBUFX_XDP_GRANULE_SHIFT;
		CHECK(sh[g] == 0, "frame %u descriptor %u (copied): buffer "
		      "already in flight", j, k);
		CHECK(d->len == piece && d->options == (k + 1 < n ?
		      XDP_PKT_CONTD : 0), "frame %u descriptor %u (copied): "
		      "len %u options %#x, want %u", j, k, d->len, d->options,
		      piece);
		sh[g] = 1;
	}
	CHECK_EQ(left, 0, "frame %u: copied bytes", j);
	return 0;
}

/* pending[] as predicted, granule by granule. */
static int
pending_check(const struct mbufx_xdp_txq *tq, const uint8_t *sh,
	      const char *what)
{
	uint64_t g;

	if (memcmp(sh, tq->pending, tq->nb_granules) == 0)
		return 0;
	for (g = 0; g < tq->nb_granules; g++)
		CHECK(sh[g] == tq->pending[g], "%s: pending[%" PRIu64 "] = %u,"
		      " want %u", what, g, tq->pending[g], sh[g]);
	return 0;
}

/* Every counter of the queue, by name: what st_check() compares. */
static const struct {
	const char *name;
	size_t off;
} st_fields[] = {
#define ST_FIELD(f) { #f, offsetof(struct mbufx_xdp_tx_stats, f) }
	ST_FIELD(packets), ST_FIELD(bytes), ST_FIELD(errors),
	ST_FIELD(malformed), ST_FIELD(too_many_segs), ST_FIELD(zc),
	ST_FIELD(copied), ST_FIELD(copy_nobuf), ST_FIELD(kicks),
	ST_FIELD(kicks_deferred), ST_FIELD(kick_errors),
	ST_FIELD(kicks_retried), ST_FIELD(kick_cycles), ST_FIELD(recycled),
	ST_FIELD(to_pool), ST_FIELD(comp_unknown), ST_FIELD(comp_missing),
#undef ST_FIELD
};

/* Every counter moved from s0 to s1 by exactly d. */
static int
st_check(const struct mbufx_xdp_tx_stats *s0,
	 const struct mbufx_xdp_tx_stats *s1,
	 const struct mbufx_xdp_tx_stats *d, const char *what)
{
	uint64_t a, b, w;
	unsigned int i;

	RTE_BUILD_BUG_ON(sizeof(st_fields) / sizeof(st_fields[0]) *
			 sizeof(uint64_t) != sizeof(*s0));
	for (i = 0; i < RTE_DIM(st_fields); i++) {
		memcpy(&a, (const char *)s0 + st_fields[i].off, sizeof(a));
		memcpy(&b, (const char *)s1 + st_fields[i].off, sizeof(b));
		memcpy(&w, (const char *)d + st_fields[i].off, sizeof(w));
		CHECK(b - a == w, "%s: %s moved by %" PRIu64 ", want %" PRIu64,
		      what, st_fields[i].name, b - a, w);
	}
	return 0;
}

/* Forget the frames the fake kernel kept (checked already). */
static void
frames_forget(void)
{
	uint32_t i;

	for (i = 0; i < fk.nb_frames && i < FK_FRAMES; i++) {
		free(fk.data[i]);
		fk.data[i] = NULL;
	}
	fk.nb_frames = 0;
}

/* Put the ring's indexes n entries on (small chains of 4, sent and
 * completed): what follows wraps around the ring's end, over entries that
 * have XDP_PKT_CONTD set. */
static int
roll(struct mbufx_xdp_rxq *rq, struct mbufx_xdp_txq *tq,
     struct rte_mempool *mp, uint32_t n)
{
	struct rte_mbuf *pkts[RING];
	void *h[RING];
	uint32_t i, s, left;

	for (i = 0, left = n; left != 0; i++, left -= s) {
		s = RTE_MIN(left, 4u);
		pkts[i] = frame(mp, 15 * s, s, (uint8_t)i);
		CHECK(pkts[i] != NULL, "frame");
	}
	CHECK_EQ(mbufx_xdp_tx_enqueue(tq, pkts, (uint16_t)i,
				      MBUFX_XDP_MAX_FRAGS), i, "taken");
	CHECK_EQ(fk_tx_consume(&fk, RING), n, "consumed");
	fk_tx_complete_all(&fk, 0);
	mbufx_xdp_tx_complete(tq);
	freed(rq, h, RTE_DIM(h));
	frames_forget();
	CHECK_EQ(tq->nb_inflight, 0, "in flight");
	return 0;
}

/* ---- one burst of every kind ---- */

struct spec {
	enum kind kind;
	uint32_t len;
	uint32_t nseg;
	int doff;		/* data_off of each segment, -1: headroom */
	enum fate fate;		/* what the enqueue must do */
	uint32_t descs;		/* with that many descriptors */
};

#define GOOD(len) { K_ZC, len, 1, -1, F_ZC, 1 }
#define MIXED_MAXD 4	/* a zero-copy device's limit of 4 descriptors */

/* The 2176-byte pool: chunk 2176 = the whole buffer, so no one segment
 * is longer than a chunk (mixed_jumbo has those). */
static const struct spec mixed_2k[] = {
	GOOD(60),
	{ K_ZC, 3000, 3, -1, F_ZC, 3 },		/* a zero-copy chain */
	GOOD(1),
	{ K_FOREIGN, 500, 1, -1, F_COPY, 1 },
	GOOD(1514),
	{ K_CLONE, 200, 1, -1, F_COPY, 1 },
	GOOD(100),
	{ K_REF2, 300, 1, -1, F_COPY, 1 },
	GOOD(2176 - 256),			/* chunk - 256 */
	{ K_BADLEN, 400, 1, -1, F_MALFORMED, 0 },
	GOOD(2048),				/* the most after the headroom */
	{ K_EMPTY, 0, 1, -1, F_MALFORMED, 0 },
	{ K_ZC, 2176, 1, 0, F_ZC, 1 },		/* the whole buffer: a chunk */
	{ K_SHORT, 400, 1, -1, F_MALFORMED, 0 },
	{ K_ZC, 64, 1, 37, F_ZC, 1 },		/* an odd data offset */
	{ K_ZC, 500, 5, -1, F_COPY, 1 },	/* 5 segments > 4: copied */
	GOOD(65),
	{ K_ZC, 10000, 5, -1, F_TOOMANY, 0 },	/* 5 chunks even copied */
	GOOD(66),
	{ K_FCHAIN, 1500, 2, -1, F_COPY, 1 },
	GOOD(67),
	{ K_EMPTYSEG, 700, 2, -1, F_COPY, 1 },
	GOOD(68),
	{ K_EXT, 800, 1, -1, F_COPY, 1 },
	{ K_FOREIGN, 3000, 2, -1, F_COPY, 2 },	/* 2176 + 824 */
	{ K_CLONE, 2500, 2, -1, F_COPY, 2 },
	{ K_ZC, 4000, 2, -1, F_ZC, 2 },
	GOOD(2000),
};

/* The 9344-byte pool: chunk 4096, one segment up to 9344 bytes (frames
 * up to the fake kernel's FK_FRAME_MAX). */
static const struct spec mixed_9k[] = {
	GOOD(60),
	{ K_ZC, 9216, 1, -1, F_ZC, 3 },		/* 4096 + 4096 + 1024 */
	GOOD(1),
	{ K_ZC, 4096, 1, -1, F_ZC, 1 },		/* exactly a chunk */
	GOOD(100),
	{ K_ZC, 4097, 1, -1, F_ZC, 2 },		/* a chunk and a byte */
	GOOD(4096 - 256),
	{ K_CLONE, 9000, 1, -1, F_COPY, 3 },
	GOOD(61),
	{ K_ZC, 9200, 1, 0, F_ZC, 3 },		/* from the buffer's start */
	GOOD(62),
	{ K_ZC, 18432, 2, -1, F_TOOMANY, 0 },	/* 6 pieces, 5 copied */
	GOOD(63),
	{ K_ZC, 9000, 2, -1, F_ZC, 4 },		/* 2 + 2 pieces */
	GOOD(64),
	{ K_ZC, 5000, 5, -1, F_COPY, 2 },	/* 5 pieces > 4, 2 copied */
	{ K_BADLEN, 5000, 1, -1, F_MALFORMED, 0 },
	{ K_REF2, 5000, 1, -1, F_COPY, 2 },
	GOOD(65),
	{ K_FOREIGN, 2000, 1, -1, F_COPY, 1 },
	GOOD(66),
	{ K_EMPTY, 0, 1, -1, F_MALFORMED, 0 },
	GOOD(4000),
};

/*
 * One call with every kind of frame between good one-segment zero-copy
 * frames, wrapping around the ring's end: its return, every counter, the
 * indexes, every descriptor, pending[] of every granule, the pools, the
 * test's own references; then the frames the kernel gets, byte for byte,
 * and every buffer back after the completions (newest first).
 */
static int
mixed(struct mbufx_xdp_rxq *rq, struct mbufx_xdp_txq *tq,
      struct rte_mempool *mp, struct rte_mempool *src,
      const struct spec *t, unsigned int nt)
{
	struct mbufx_xdp_tx_stats st0, d = { 0 };
	struct rte_mbuf *pkts[64];
	struct rec r[64];
	uint32_t prod0, slot, n, descs = 0, bufs = 0, copies = 0, back = 0;
	unsigned int i, j, avail0, built = 0, exts = 0;
	uint8_t *sh = NULL;
	uint64_t g, sum;
	enum fate f;
	int ret = -1, passed = 0;

	RTE_VERIFY(nt <= RTE_DIM(r));
	if (roll(rq, tq, mp, RING - 9) != 0)
		return -1;
	sh = calloc(1, tq->nb_granules);
	CHECK(sh != NULL, "shadow");
	for (i = 0; i < nt; i++) {
		if (rec_build(&r[i], t[i].kind, mp, src, t[i].len, t[i].nseg,
			      t[i].doff, (uint8_t)(i * 7)) != 0)
			CHECK_GOTO(out, 0, "frame %u", i);
		built++;
		pkts[i] = r[i].m;
		f = rule(&r[i], rq->chunk_size, MIXED_MAXD, &n);
		CHECK_GOTO(out, f == t[i].fate && n == t[i].descs, "frame %u: "
			   "the test's rule says %d with %u descriptors, the "
			   "table %d with %u", i, f, n, t[i].fate, t[i].descs);
		descs += n;
		d.packets += f == F_ZC || f == F_COPY;
		d.bytes += f == F_ZC || f == F_COPY ? t[i].len : 0;
		d.zc += f == F_ZC;
		d.copied += f == F_COPY;
		d.malformed += f == F_MALFORMED;
		d.too_many_segs += f == F_TOOMANY;
		copies += f == F_COPY ? n : 0;
		back += f != F_ZC ? r[i].mp_freed : 0;
		exts += t[i].kind == K_EXT;
	}
	d.errors = d.malformed + d.too_many_segs;
	st0 = tq->st;
	prod0 = tq->tx.cached_prod;
	avail0 = rte_mempool_avail_count(mp);
	ext_freed = 0;

	passed = 1;
	CHECK_EQ_GOTO(out, mbufx_xdp_tx_enqueue(tq, pkts, (uint16_t)nt,
						MIXED_MAXD), nt, "taken");
	if (st_check(&st0, &tq->st, &d, "mixed") != 0)
		goto out;
	CHECK_EQ_GOTO(out, tq->tx.cached_prod - prod0, descs, "descriptors");
	CHECK_EQ_GOTO(out, *tq->tx.producer, tq->tx.cached_prod,
		      "producer published");
	CHECK_EQ_GOTO(out, tq->nb_inflight, descs, "in flight");
	for (slot = prod0, i = 0; i < nt; i++) {
		if (t[i].fate != F_ZC && t[i].fate != F_COPY)
			continue;
		if (descs_check(tq, &r[i], t[i].fate, t[i].descs, slot, sh,
				i) != 0)
			goto out;
		slot += t[i].descs;
	}
	if (pending_check(tq, sh, "mixed") != 0)
		goto out;
	for (sum = 0, g = 0; g < tq->nb_granules; g++) {
		sum += tq->pending[g];
		bufs += sh[g] != 0;
	}
	CHECK_EQ_GOTO(out, sum, descs, "pending[] in all");
	/* the copies came from the pool, what was dropped or copied went
	 * back to its pool, the test's own references stayed */
	CHECK_EQ_GOTO(out, rte_mempool_avail_count(mp), avail0 - copies +
		      back, "UMEM pool after the call");
	CHECK_EQ_GOTO(out, rte_mempool_avail_count(src), src->size,
		      "the other pool after the call");
	CHECK_EQ_GOTO(out, ext_freed, exts, "external buffers freed");
	for (i = 0; i < nt; i++)
		if (rec_taken(&r[i]) != 0)
			goto out;
	passed = 2;

	CHECK_EQ_GOTO(out, fk_tx_consume(&fk, RING), descs, "consumed");
	CHECK_GOTO(out, fk.invalid == 0 && fk.seg_drops == 0, "%" PRIu64
		   " invalid descriptors", fk.invalid);
	CHECK_EQ_GOTO(out, fk.nb_frames, d.packets, "frames sent");
	for (j = 0, i = 0; i < nt; i++)
		if (t[i].fate == F_ZC || t[i].fate == F_COPY)
			if (frame_check(j++, t[i].len, r[i].seed) != 0)
				goto out;
	frames_forget();
	st0 = tq->st;
	fk_tx_complete_all(&fk, 1);
	mbufx_xdp_tx_complete(tq);
	CHECK_EQ_GOTO(out, tq->nb_inflight, 0, "in flight after completion");
	memset(sh, 0, tq->nb_granules);
	if (pending_check(tq, sh, "completed") != 0)
		goto out;
	CHECK_EQ_GOTO(out, tq->st.recycled - st0.recycled + tq->st.to_pool -
		      st0.to_pool, bufs, "buffers back");
	CHECK_EQ_GOTO(out, tq->st.comp_unknown, 0, "unknown completions");
	if (freed_clean(rq, "mixed") != 0)
		goto out;
	ret = 0;
out:
	for (i = 0; i < built && passed < 2; i++) {
		if (!passed)
			rte_pktmbuf_free(r[i].m);
		rte_pktmbuf_free(r[i].keep);
	}
	free(sh);
	return ret;
}

int
test_mixed(struct mbufx_xdp_rxq *rqp, struct mbufx_xdp_txq *tqp,
	   struct rte_mempool *mp, struct rte_mempool *src)
{
	CHECK_EQ(rqp->chunk_size, 2176, "chunk of the 2176-byte pool");
	return mixed(rqp, tqp, mp, src, mixed_2k, RTE_DIM(mixed_2k));
}

int
test_mixed_jumbo(struct mbufx_xdp_rxq *rqp, struct mbufx_xdp_txq *tqp,
		 struct rte_mempool *mp, struct rte_mempool *src)
{
	CHECK_EQ(rqp->chunk_size, 4096, "chunk of the 9344-byte pool");
	return mixed(rqp, tqp, mp, src, mixed_9k, RTE_DIM(mixed_9k));
}

/* ---- room on the TX ring ---- */

/* n good one-segment frames of the UMEM pool into r[] and pkts[]. */
static int
goods(struct rec *r, struct rte_mbuf **pkts, unsigned int n,
      struct rte_mempool *mp, uint32_t len, uint8_t seed)
{
	unsigned int i;

	for (i = 0; i < n; i++) {
		CHECK_EQ(rec_build(&r[i], K_ZC, mp, NULL, len + i, 1, -1,
				   (uint8_t)(seed + i)), 0, "frame");
		pkts[i] = r[i].m;
	}
	return 0;
}

static void
shadow_add(const struct mbufx_xdp_txq *tq, uint8_t *sh, uint64_t addr)
{
	sh[((addr & XSK_UNALIGNED_BUF_ADDR_MASK) - tq->rxq->buf_offset) >>
	   MBUFX_XDP_GRANULE_SHIFT]++;
}

/* pending[] as the rings say it must be: a count per descriptor on the
 * TX ring, consumed (owed by the kernel, or of a frame it has not seen
 * the end of), or completed and not drained;
 * nb_inflight their number. */
static int
pending_rings_check(const struct mbufx_xdp_txq *tq, uint8_t *sh,
		    const char *what)
{
	const struct xdp_desc *tx = tq->tx.descs;
	const uint64_t *cq = tq->cq.descs;
	uint32_t p, n = 0, i;

	memset(sh, 0, tq->nb_granules);
	for (p = *tq->tx.consumer; p != tq->tx.cached_prod; p++, n++)
		shadow_add(tq, sh, tx[p & tq->tx.mask].addr);
	for (i = 0; i < fk.cur_descs; i++, n++)	/* a frame half consumed */
		shadow_add(tq, sh, fk.cur_addr[i]);
	for (i = 0; i < fk.nb_owed; i++, n++)
		shadow_add(tq, sh, fk.owed[i]);
	for (p = tq->cq.cached_cons; p != *tq->cq.producer; p++, n++)
		shadow_add(tq, sh, cq[p & tq->cq.mask]);
	CHECK_EQ(tq->nb_inflight, n, "%s: in flight", what);
	return pending_check(tq, sh, what);
}

/* What a room_burst() must see. */
struct room_want {
	unsigned int taken;
	uint64_t drained;	/* completions the call drains */
	uint64_t nobuf;		/* copy_nobuf */
	uint32_t comp_at;	/* where the call drained, or as it was */
	uint32_t cached_cons;	/* the consumer as the call last read it */
};

/*
 * One burst against the room the ring has: the frames taken, their
 * descriptors from the producer on, every counter, nb_inflight, comp_at,
 * the cached consumer, pending[]; the untaken frames untouched (then
 * freed).
 */
static int
room_burst(struct mbufx_xdp_txq *tq, struct rec *r, struct rte_mbuf **pkts,
	   unsigned int nb, uint32_t maxd, const struct room_want *w,
	   uint8_t *sh, const char *what)
{
	struct mbufx_xdp_tx_stats st0 = tq->st, d = { 0 };
	uint32_t prod0 = tq->tx.cached_prod, slot = prod0, n;
	uint64_t inflight0 = tq->nb_inflight;
	unsigned int i, taken = 0;
	enum fate f;
	int ret = 0;

	taken = mbufx_xdp_tx_enqueue(tq, pkts, (uint16_t)nb, maxd);
	CHECK_EQ_GOTO(out, taken, w->taken, "%s: frames taken", what);
	memset(sh, 0, tq->nb_granules);
	for (i = 0; i < taken; i++) {
		f = rule(&r[i], tq->rxq->chunk_size, maxd, &n);
		d.packets++;
		d.bytes += r[i].len;
		d.zc += f == F_ZC;
		d.copied += f == F_COPY;
		if (descs_check(tq, &r[i], f, n, slot, sh, i) != 0)
			goto out;
		slot += n;
	}
	d.recycled = w->drained;
	d.copy_nobuf = w->nobuf;
	if (st_check(&st0, &tq->st, &d, what) != 0)
		goto out;
	CHECK_EQ_GOTO(out, tq->tx.cached_prod, slot, "%s: producer", what);
	CHECK_EQ_GOTO(out, *tq->tx.producer, slot, "%s: published", what);
	CHECK_EQ_GOTO(out, tq->nb_inflight, inflight0 + (slot - prod0) -
		      w->drained, "%s: in flight", what);
	CHECK_EQ_GOTO(out, tq->comp_at, w->comp_at, "%s: comp_at", what);
	CHECK_EQ_GOTO(out, tq->tx.cached_cons, w->cached_cons,
		      "%s: cached consumer", what);
	if (pending_rings_check(tq, sh, what) != 0)
		goto out;
	for (i = taken; i < nb; i++)
		if (rec_untouched(&r[i], what) != 0)
			goto out;
	ret = 1;
out:
	for (i = taken; i < nb; i++)
		rec_free(&r[i]);
	return ret == 1 ? 0 : -1;
}

/* n one-descriptor frames on the ring, not consumed; comp_at then at the
 * producer. */
static int
fill(struct mbufx_xdp_txq *tq, struct rte_mempool *mp, uint32_t n)
{
	struct rte_mbuf *pkts[RING];
	uint32_t i;

	for (i = 0; i < n; i++) {
		pkts[i] = frame(mp, 60, 1, (uint8_t)i);
		CHECK(pkts[i] != NULL, "frame");
	}
	CHECK_EQ(mbufx_xdp_tx_enqueue(tq, pkts, (uint16_t)n, 1), n, "fill");
	mbufx_xdp_tx_complete(tq);
	CHECK_EQ(tq->comp_at, tq->tx.cached_prod, "comp_at");
	return 0;
}

/*
 * Room: a descriptor per one-segment frame, a chain its count; the call
 * stops at the first frame that does not fit and leaves it and the rest
 * the caller's, untouched. The room is judged from the cached consumer,
 * re-read at the start only when it shows less room than the burst has
 * frames; a frame that does not fit gets one fresh look (completions
 * drained, consumer re-read), once per call. A copy without a buffer
 * stops the call too (copy_nobuf).
 */
int
test_room(struct mbufx_xdp_rxq *rqp, struct mbufx_xdp_txq *tqp,
	  struct rte_mempool *mp, struct rte_mempool *src)
{
	struct rte_mbuf *pkts[16];
	struct rec r[16];
	struct room_want w;
	void **stash = NULL;
	unsigned int nstash = 0, i;
	uint8_t *sh;
	uint32_t p;
	void *h[RING];
	int ret = -1;

	sh = calloc(1, tqp->nb_granules);
	stash = calloc(rte_mempool_avail_count(mp), sizeof(*stash));
	CHECK_GOTO(out, sh != NULL && stash != NULL, "shadow");
	/* A: 5 free, nothing consumed (the consumer re-read: 6 frames > 5):
	 * 3 singles and a chain of 2 fit; the single after them gets its
	 * fresh look (comp_at moves) and stops the call */
	if (fill(tqp, mp, RING - 5) != 0 ||
	    goods(r, pkts, 3, mp, 100, 1) != 0 ||
	    rec_build(&r[3], K_ZC, mp, src, 2000, 2, -1, 4) != 0 ||
	    goods(&r[4], &pkts[4], 2, mp, 200, 5) != 0)
		goto out;
	pkts[3] = r[3].m;
	w = (struct room_want){ .taken = 4, .comp_at = RING, .cached_cons = 0 };
	if (room_burst(tqp, r, pkts, 6, 18, &w, sh, "A") != 0)
		goto out;

	/* B: 4 consumed and completed: 4 singles take the room, the copied
	 * chain after them (2 descriptors) gets the fresh look, which drains
	 * the 4 completions and finds no room */
	CHECK_EQ_GOTO(out, fk_tx_consume(&fk, 4), 4, "consumed");
	CHECK_EQ_GOTO(out, fk_tx_complete_all(&fk, 0), 4, "completed");
	if (goods(r, pkts, 4, mp, 300, 10) != 0 ||
	    rec_build(&r[4], K_FOREIGN, src, src, 3000, 2, -1, 14) != 0 ||
	    goods(&r[5], &pkts[5], 1, mp, 400, 15) != 0)
		goto out;
	pkts[4] = r[4].m;
	p = tqp->tx.cached_prod;
	w = (struct room_want){ .taken = 4, .drained = 4, .comp_at = p + 4,
				.cached_cons = 4 };
	if (room_burst(tqp, r, pkts, 6, 18, &w, sh, "B") != 0)
		goto out;

	/* C: the ring consumed but the cached consumer 5 short of the
	 * producer; 4 frames fit that view, so it is not re-read at the
	 * start: the chain of 3 after 3 singles gets the fresh look, which
	 * drains the 100 completions given and finds the room */
	fk_tx_consume(&fk, RING);
	if (goods(r, pkts, 1, mp, 500, 20) != 0)
		goto out;
	w = (struct room_want){ .taken = 1, .comp_at = tqp->comp_at,
				.cached_cons = *tqp->tx.consumer };
	if (room_burst(tqp, r, pkts, 1, 18, &w, sh, "C0") != 0 ||
	    fill(tqp, mp, RING - 1 - 5) != 0)
		goto out;
	p = tqp->tx.cached_prod;
	CHECK_EQ_GOTO(out, fk_tx_consume(&fk, RING), RING - 5, "consumed");
	for (i = 0; i < 100; i++)
		CHECK_EQ_GOTO(out, fk_tx_complete_at(&fk, 0), 0, "complete");
	if (goods(r, pkts, 3, mp, 600, 30) != 0 ||
	    rec_build(&r[3], K_ZC, mp, src, 2100, 3, -1, 33) != 0)
		goto out;
	pkts[3] = r[3].m;
	w = (struct room_want){ .taken = 4, .drained = 100, .comp_at = p + 3,
				.cached_cons = p };
	if (room_burst(tqp, r, pkts, 4, 18, &w, sh, "C") != 0)
		goto out;

	/* D: one fresh look per call: 10 free as cached, 14 in fact; 6
	 * singles and a chain of 3 fit the cached view, the next chain's
	 * fresh look finds 5 and takes it, the third chain stops the call
	 * without another look */
	if (fill(tqp, mp, RING - 6 - 10) != 0)
		goto out;
	CHECK_EQ_GOTO(out, fk_tx_consume(&fk, 4), 4, "consumed");
	if (goods(r, pkts, 6, mp, 700, 40) != 0)
		goto out;
	for (i = 0; i < 3; i++) {
		if (rec_build(&r[6 + i], K_ZC, mp, src, 1800, 3, -1,
			      (uint8_t)(50 + i)) != 0)
			goto out;
		pkts[6 + i] = r[6 + i].m;
	}
	p = tqp->tx.cached_prod;
	w = (struct room_want){ .taken = 8, .comp_at = p + 9,
				.cached_cons = *tqp->tx.consumer };
	if (room_burst(tqp, r, pkts, 9, 18, &w, sh, "D") != 0)
		goto out;

	/* E: no buffer to copy into: the single before goes, the copy and
	 * what follows stay the caller's */
	fk_tx_consume(&fk, RING);
	while (fk.nb_owed != 0) {
		fk_tx_complete_all(&fk, 0);
		mbufx_xdp_tx_complete(tqp);
	}
	mbufx_xdp_tx_complete(tqp);
	freed(rqp, h, RTE_DIM(h));
	if (goods(r, pkts, 1, mp, 800, 60) != 0 ||
	    rec_build(&r[1], K_FOREIGN, src, src, 500, 1, -1, 61) != 0 ||
	    goods(&r[2], &pkts[2], 1, mp, 900, 62) != 0)
		goto out;
	pkts[1] = r[1].m;
	nstash = rte_mempool_avail_count(mp);
	CHECK_EQ_GOTO(out, rte_mempool_get_bulk(mp, stash, nstash), 0,
		      "stash");
	w = (struct room_want){ .taken = 1, .nobuf = 1,
				.comp_at = tqp->comp_at,
				.cached_cons = *tqp->tx.consumer };
	if (room_burst(tqp, r, pkts, 3, 18, &w, sh, "E") != 0)
		goto out;
	ret = 0;
out:
	if (nstash != 0)
		rte_mempool_put_bulk(mp, stash, nstash);
	fk_tx_consume(&fk, RING);
	while (fk.nb_owed != 0) {
		fk_tx_complete_all(&fk, 0);
		mbufx_xdp_tx_complete(tqp);
	}
	mbufx_xdp_tx_complete(tqp);
	frames_forget();
	free(stash);
	free(sh);
	return ret;
}

/* ---- random bursts against the rule ---- */

/*
 * The enqueue written plainly, call by call: the queue's indexes, the
 * completions it drains (at the start once TX_COMP_BATCH (32) descriptors
 * went out since the last drain, and at a frame's fresh look), pending[]
 * (sh), the UMEM pool's free buffers, and each frame's fate.
 */
struct model {
	uint8_t *sh;
	uint64_t inflight;
	uint32_t prod, ccons, comp_at, cq_cons;
	uint32_t recycle_free;
	uint32_t avail;
	struct mbufx_xdp_tx_stats st;	/* deltas of the call */
	enum fate fate[32];
	uint32_t n[32];
};

static void
model_drain(const struct mbufx_xdp_txq *tq, struct model *md)
{
	const struct mbufx_xdp_rxq *rq = tq->rxq;
	const uint64_t *cq = tq->cq.descs;
	uint32_t end = *tq->cq.producer, nfreed = 0, r;
	uint64_t off, g;

	md->comp_at = md->prod;
	for (; md->cq_cons != end; md->cq_cons++) {
		off = cq[md->cq_cons & tq->cq.mask] &
			XSK_UNALIGNED_BUF_ADDR_MASK;
		g = (off - rq->buf_offset) >> MBUFX_XDP_GRANULE_SHIFT;
		if (off < rq->buf_offset || g >= tq->nb_granules ||
		    md->sh[g] == 0) {
			md->st.comp_unknown++;
			continue;
		}
		md->inflight--;
		if (--md->sh[g] == 0)
			nfreed++;
	}
	r = RTE_MIN(nfreed, md->recycle_free);
	md->recycle_free -= r;
	md->st.recycled += r;
	md->st.to_pool += nfreed - r;
	md->avail += nfreed - r;
}

/* Room from the cached consumer, re-read when it shows less than want. */
static uint32_t
model_free(const struct mbufx_xdp_txq *tq, struct model *md, uint32_t want)
{
	uint32_t f = tq->tx.size - (md->prod - md->ccons);

	if (f >= want)
		return f;
	md->ccons = *tq->tx.consumer;
	return tq->tx.size - (md->prod - md->ccons);
}

/* The frames the call takes. */
static unsigned int
model_enqueue(const struct mbufx_xdp_txq *tq, struct model *md,
	      const struct rec *r, unsigned int nb, uint32_t maxd)
{
	uint32_t free_n, used = 0, n;
	unsigned int i;
	int fresh = 0;
	enum fate f;

	if (md->prod - md->comp_at >= 32)
		model_drain(tq, md);
	free_n = model_free(tq, md, nb);
	for (i = 0; i < nb; i++) {
		f = rule(&r[i], tq->rxq->chunk_size, maxd, &n);
		md->fate[i] = f;
		md->n[i] = n;
		if (f == F_MALFORMED || f == F_TOOMANY) {
			md->st.errors++;
			if (f == F_MALFORMED)
				md->st.malformed++;
			else
				md->st.too_many_segs++;
			md->avail += r[i].mp_freed;
			continue;
		}
		if (n > free_n - used) {
			if (fresh)
				break;
			model_drain(tq, md);
			free_n = used + model_free(tq, md, n);
			fresh = 1;
			if (n > free_n - used)
				break;
		}
		if (f == F_COPY) {
			if (md->avail < n) {
				md->st.copy_nobuf++;
				break;
			}
			md->avail += r[i].mp_freed - n;
			md->st.copied++;
		} else {
			md->st.zc++;
		}
		md->prod += n;
		md->inflight += n;
		used += n;
		md->st.packets++;
		md->st.bytes += r[i].len;
	}
	return i;
}

/* A random frame: mostly one good segment of any length and offset. */
static int
model_frame(struct rec *r, struct rte_mempool *mp, struct rte_mempool *src,
	    uint32_t chunk)
{
	const uint32_t room = rte_pktmbuf_data_room_size(mp);
	const uint32_t sroom = rte_pktmbuf_data_room_size(src) -
		RTE_PKTMBUF_HEADROOM;
	const uint64_t x = rte_rand();
	const uint8_t seed = (uint8_t)(x >> 56);
	uint32_t sel = x % 64, len, nseg = 1, seg;
	int doff = -1;
	enum kind k = K_ZC;

	seg = room - RTE_PKTMBUF_HEADROOM;
	if (sel < 44) {
		if ((x >> 8) % 8 == 0) {
			doff = (int)((x >> 12) % (RTE_PKTMBUF_HEADROOM + 1));
			seg = room - (uint32_t)doff;
		}
		switch ((x >> 20) % 8) {
		case 0: len = 1; break;
		case 1: len = seg; break;
		case 2: len = RTE_MIN(seg, chunk - 256); break;
		case 3: len = RTE_MIN(seg, chunk); break;
		default: len = 1 + (uint32_t)((x >> 24) % seg); break;
		}
		if (len > FK_FRAME_MAX)
			len = FK_FRAME_MAX;
		return rec_build(r, K_ZC, mp, src, len, 1, doff, seed);
	}
	if (sel < 50) {		/* chains, some past the limits */
		nseg = 2 + (uint32_t)(x >> 8) % 5;
		len = nseg + (uint32_t)((x >> 16) %
			RTE_MIN(nseg * (seg - 8), (uint32_t)FK_FRAME_MAX - nseg));
	} else {
		len = 1 + (uint32_t)((x >> 16) % RTE_MIN(seg, sroom));
	}
	switch (sel) {
	case 50: case 51: k = K_FOREIGN; break;
	case 52: k = K_FOREIGN; nseg = 2; len = RTE_MAX(len, 2u); break;
	case 53: k = K_FCHAIN; len = RTE_MAX(len, 2u); break;
	case 54: case 55: k = K_CLONE; break;
	case 56: k = K_REF2; break;
	case 57: k = K_EXT; break;
	case 58: k = K_EMPTYSEG; break;
	case 59: k = K_BADLEN; break;
	case 60: k = K_SHORT; len = RTE_MAX(len, 2u); break;
	case 61: k = K_EMPTY; len = 0; break;
	default: break;
	}
	if (k == K_FOREIGN && nseg == 1)
		len = RTE_MIN(len, sroom);
	return rec_build(r, k, mp, src, len, nseg, -1, seed);
}

/* The frames the fake kernel got since the last look: the expected ones,
 * in order, byte for byte. */
struct model_fifo {
	uint32_t len[1024];
	uint8_t seed[1024];
	uint32_t head, tail;
};

static int
model_frames_check(struct model_fifo *q, uint32_t round)
{
	uint32_t j, i;

	CHECK(fk.invalid == 0 && fk.seg_drops == 0, "round %u: %" PRIu64
	      " invalid descriptors", round, fk.invalid);
	for (j = 0; j < fk.nb_frames; j++, q->head++) {
		CHECK(q->head != q->tail, "round %u: frame %u not sent", round,
		      j);
		i = q->head % RTE_DIM(q->len);
		if (frame_check(j, q->len[i], q->seed[i]) != 0)
			return -1;
	}
	frames_forget();
	return 0;
}

/*
 * Random bursts (1 to 32 frames, mostly good single segments, every other
 * kind too), random room (the kernel consumes all, part or nothing),
 * completions in random order or none, sometimes lost, the recycle
 * ring drained or not, the pool sometimes almost dry; after every call
 * its return, every counter, the indexes, comp_at, the cached consumer,
 * every descriptor, pending[] of every granule, the pool's free count and
 * the caller's frames exactly as the rule says. At the end every buffer
 * is back.
 */
static int
model_run(struct mbufx_xdp_rxq *rq, struct mbufx_xdp_txq *tq,
	  struct rte_mempool *mp, struct rte_mempool *src, uint32_t rounds)
{
	static struct model_fifo fifo;
	static const uint32_t maxds[] = { 1, 2, 4, 8, MBUFX_XDP_MAX_FRAGS };
	struct mbufx_xdp_tx_stats st0;
	struct rte_mbuf *pkts[32];
	struct model md = { 0 };
	struct rec r[32];
	void **stash = NULL;
	uint32_t round, nb, i, slot, maxd, nstash, lost = 0, exts, ext_want;
	uint32_t stopped = 0;
	unsigned int taken, want;
	int ret = -1;

	memset(&fifo, 0, sizeof(fifo));
	md.sh = calloc(1, tq->nb_granules);
	stash = calloc(mp->size, sizeof(*stash));
	CHECK_GOTO(out, md.sh != NULL && stash != NULL, "model");
	for (round = 0; round < rounds; round++) {
		nb = 1 + (uint32_t)rte_rand_max(32);
		maxd = maxds[rte_rand_max(RTE_DIM(maxds))];
		for (i = 0; i < nb; i++) {
			if (model_frame(&r[i], mp, src, rq->chunk_size) != 0)
				break;
			pkts[i] = r[i].m;
		}
		nb = i;
		nstash = 0;
		if (rte_rand_max(64) == 0) {	/* the pool almost dry */
			nstash = rte_mempool_avail_count(mp);
			nstash -= RTE_MIN(nstash, (uint32_t)rte_rand_max(4));
			CHECK_GOTO(out, rte_mempool_get_bulk(mp, stash,
							     nstash) == 0,
				   "stash");
		}
		/* the prediction, from the queue as it stands */
		memset(&md.st, 0, sizeof(md.st));
		md.inflight = tq->nb_inflight;
		md.prod = tq->tx.cached_prod;
		md.ccons = tq->tx.cached_cons;
		md.comp_at = tq->comp_at;
		md.cq_cons = tq->cq.cached_cons;
		md.recycle_free = rte_ring_free_count(rq->recycle);
		md.avail = rte_mempool_avail_count(mp);
		want = model_enqueue(tq, &md, r, nb, maxd);
		stopped += want < nb;
		for (ext_want = 0, i = 0; i < want; i++)
			ext_want += r[i].kind == K_EXT && md.fate[i] != F_ZC;
		st0 = tq->st;
		slot = tq->tx.cached_prod;
		exts = ext_freed;

		taken = mbufx_xdp_tx_enqueue(tq, pkts, (uint16_t)nb, maxd);
		CHECK_EQ_GOTO(out, taken, want, "round %u: taken of %u (max "
			      "%u descriptors)", round, nb, maxd);
		if (st_check(&st0, &tq->st, &md.st, "model") != 0)
			goto out;
		CHECK_GOTO(out, tq->tx.cached_prod == md.prod &&
			   *tq->tx.producer == md.prod &&
			   tq->tx.cached_cons == md.ccons &&
			   tq->comp_at == md.comp_at &&
			   tq->cq.cached_cons == md.cq_cons &&
			   tq->nb_inflight == md.inflight, "round %u: producer"
			   " %u/%u (%u), cached consumer %u (%u), comp_at %u "
			   "(%u), completions drained to %u (%u), in flight %"
			   PRIu64 " (%" PRIu64 ")", round, tq->tx.cached_prod,
			   *tq->tx.producer, md.prod, tq->tx.cached_cons,
			   md.ccons, tq->comp_at, md.comp_at,
			   tq->cq.cached_cons, md.cq_cons, tq->nb_inflight,
			   md.inflight);
		CHECK_EQ_GOTO(out, rte_mempool_avail_count(mp), md.avail,
			      "round %u: UMEM pool", round);
		CHECK_EQ_GOTO(out, rte_ring_free_count(rq->recycle),
			      md.recycle_free, "round %u: recycle ring", round);
		CHECK_EQ_GOTO(out, ext_freed - exts, ext_want,
			      "round %u: external buffers freed", round);
		for (i = 0; i < taken; i++) {
			if (md.fate[i] == F_ZC || md.fate[i] == F_COPY) {
				if (descs_check(tq, &r[i], md.fate[i],
						md.n[i], slot, md.sh, i) != 0)
					goto out;
				slot += md.n[i];
				fifo.len[fifo.tail % RTE_DIM(fifo.len)] =
					r[i].len;
				fifo.seed[fifo.tail++ % RTE_DIM(fifo.len)] =
					r[i].seed;
			}
			if (rec_taken(&r[i]) != 0)
				goto out;
		}
		for (i = taken; i < nb; i++) {
			if (rec_untouched(&r[i], "untaken") != 0)
				goto out;
			rec_free(&r[i]);
		}
		if (pending_check(tq, md.sh, "model") != 0)
			goto out;
		if (nstash != 0)
			rte_mempool_put_bulk(mp, stash, nstash);

		/* the kernel: consume nothing (half the rounds: the ring
		 * fills), all or part; complete some,
		 * in any order, or none; sometimes lose one */
		switch (rte_rand_max(8)) {
		case 0: case 1: case 2: case 3: break;	/* the ring fills */
		case 4: fk_tx_consume(&fk, RING); break;
		default:
			fk_tx_consume(&fk, (uint32_t)rte_rand_max(48));
			break;
		}
		if (model_frames_check(&fifo, round) != 0)
			goto out;
		if (rte_rand_max(8) != 0)
			for (i = (uint32_t)rte_rand_max(fk.nb_owed + 1); i > 0;
			     i--)
				if (fk_tx_complete_at(&fk, (uint32_t)
					rte_rand_max(fk.nb_owed)) != 0)
					break;
		if (fk.nb_owed != 0 && rte_rand_max(256) == 0) {
			fk_tx_lose_at(&fk, (uint32_t)rte_rand_max(fk.nb_owed));
			lost++;
		}
		if (rte_rand_max(4) == 0 &&	/* the Rx side refills */
		    freed_clean(rq, "model") != 0)
			goto out;
	}
	/* everything completes but what was lost */
	fk_tx_consume(&fk, RING);
	if (model_frames_check(&fifo, round) != 0)
		goto out;
	while (fk.nb_owed != 0) {
		fk_tx_complete_all(&fk, 0);
		mbufx_xdp_tx_complete(tq);
	}
	mbufx_xdp_tx_complete(tq);
	CHECK_EQ_GOTO(out, tq->nb_inflight, lost, "in flight at the end");
	CHECK_EQ_GOTO(out, tq->st.comp_unknown, 0, "unknown completions");
	printf("model (chunk %u): %u rounds, %" PRIu64 " frames (%" PRIu64
	       " zero-copy, %" PRIu64 " copied), %" PRIu64 " malformed, %"
	       PRIu64 " too many segments, %" PRIu64 " short of a buffer, %u "
	       "completions lost; %u calls stopped short\n", rq->chunk_size,
	       rounds, tq->st.packets,
	       tq->st.zc, tq->st.copied, tq->st.malformed,
	       tq->st.too_many_segs, tq->st.copy_nobuf, lost, stopped);
	mbufx_xdp_txq_release(tq);
	CHECK_EQ_GOTO(out, tq->st.comp_missing, lost, "missing at teardown");
	ret = 0;
out:
	free(stash);
	free(md.sh);
	return ret;
}

int
test_model(struct mbufx_xdp_rxq *rqp, struct mbufx_xdp_txq *tqp,
	   struct rte_mempool *mp, struct rte_mempool *src)
{
	return model_run(rqp, tqp, mp, src, 16000);
}

int
test_model_jumbo(struct mbufx_xdp_rxq *rqp, struct mbufx_xdp_txq *tqp,
		 struct rte_mempool *mp, struct rte_mempool *src)
{
	return model_run(rqp, tqp, mp, src, 6000);
}
