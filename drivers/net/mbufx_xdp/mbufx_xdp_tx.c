/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The mbufx authors
 */

/*
 * net_mbufx_xdp transmit core: descriptors from mbufs (zero-copy or copied
 * into bare UMEM buffers), completions back to the receive side. No socket
 * here (see mbufx_xdp_tx.h).
 *
 * Completions are matched by address, never by position: kernels complete
 * out of submission order (copy mode since the out-of-order segment frees,
 * zero-copy drivers by design) and give no completion at all for what they
 * drop (zero-copy frames over the device's segment limit, copy-mode frames
 * dropped in xsk_build_skb). A completion address, masked, is the UMEM
 * offset of its buffer's buf_addr; pending[] holds, per 64-byte granule of
 * the UMEM, how many descriptors of the buffer starting there are still the
 * kernel's (several when a long zero-copy segment goes out in chunk-sized
 * pieces). The buffer is freed when its count reaches zero; an address that
 * names no buffer in flight is counted and ignored. A completion that never
 * comes costs its buffer until teardown, never transmit capacity: room on
 * the TX ring is all that limits a burst (the kernel reserves a completion
 * slot before it consumes a TX descriptor, and the completion ring is as
 * large as the TX ring).
 */

#include <errno.h>
#include <string.h>

#include <rte_cycles.h>
#include <rte_malloc.h>
#include <rte_mempool.h>
#include <rte_ring.h>

#include "mbufx_xdp_tx.h"

#define TX_COPY (1u << 31)	/* mbufx_xdp_tx_enqueue: this frame is copied */
#define TX_COMP_BATCH 32	/* drain completions once this many went out */

uint32_t
mbufx_xdp_tx_max_descs(int zc, int sg, uint32_t zc_max_segs)
{
	if (!sg)
		return 1;
	if (zc)
		return RTE_MAX(1u, RTE_MIN(zc_max_segs,
					   (uint32_t)MBUFX_XDP_MAX_FRAGS));
	return MBUFX_XDP_MAX_FRAGS;
}

int
mbufx_xdp_txq_init(struct mbufx_xdp_txq *q, struct mbufx_xdp_rxq *rxq,
		   uint32_t nb_desc, int socket)
{
	memset(q, 0, sizeof(*q));
	q->rxq = rxq;
	q->nb_desc = nb_desc;
	q->nb_granules = rxq->nb_bits;
	q->pending = rte_zmalloc_socket("mbufx_xdp_pending",
					RTE_ALIGN_CEIL(q->nb_granules, 8),
					RTE_CACHE_LINE_SIZE, socket);
	return q->pending == NULL ? -ENOMEM : 0;
}

void
mbufx_xdp_txq_fini(struct mbufx_xdp_txq *q)
{
	rte_free(q->pending);
	q->pending = NULL;
	q->rxq = NULL;
}

static inline void *
granule_handle(const struct mbufx_xdp_txq *q, uint64_t g)
{
	return (void *)(q->rxq->base + (g << MBUFX_XDP_GRANULE_SHIFT));
}

/* The granule of a buffer's handle, in the UMEM starting at base. */
static inline uint64_t
handle_granule(uintptr_t base, const void *h)
{
	return ((uintptr_t)h - base) >> MBUFX_XDP_GRANULE_SHIFT;
}

void
mbufx_xdp_txq_release(struct mbufx_xdp_txq *q)
{
	uint64_t g, w;

	if (q->pending == NULL)
		return;
	/* every buffer not completed yet is ours again */
	for (g = 0; g < q->nb_granules; g += 8) {
		memcpy(&w, &q->pending[g], sizeof(w));
		if (w == 0)
			continue;
		for (unsigned int i = 0; i < 8 && g + i < q->nb_granules; i++)
			if (q->pending[g + i] != 0) {
				q->st.comp_missing += q->pending[g + i];
				q->pending[g + i] = 0;
				rte_mempool_put(q->rxq->mp,
						granule_handle(q, g + i));
			}
	}
	q->nb_inflight = 0;
}

/*
 * Completed descriptors: their buffers to the Rx side, else the pool. A
 * completion address names a buffer in flight when its granule
 * (mbufx_xdp_addr_granule(), the receive side's rule) has a pending count
 * that is not zero; one of that buffer's descriptors completed, and the
 * buffer is free when the count drops to zero. Anything else is counted
 * and ignored.
 * The queue's fields are read once, into locals (the pending[] byte stores
 * may alias anything: a field read in the loop would be loaded again per
 * completion), and the counters are added once per drain.
 */
void
mbufx_xdp_tx_complete(struct mbufx_xdp_txq *tq)
{
	struct mbufx_xdp_rxq *core = tq->rxq;
	const uint64_t *ring = tq->cq.descs;
	const uint32_t mask = tq->cq.mask, cons = tq->cq.cached_cons;
	const uint64_t bo = core->buf_offset, nb_gran = tq->nb_granules;
	const uintptr_t base = core->base;
	uint8_t *pending = tq->pending;
	uint32_t n = mbufx_xdp_cons_avail(&tq->cq), i, j, k, nh, sent;
	uint64_t unknown = 0, h, g;
	void *hs[64];

	tq->comp_at = tq->tx.cached_prod;
	for (i = 0; i < n; i += k) {
		k = RTE_MIN(n - i, (uint32_t)RTE_DIM(hs));
		nh = 0;
		for (j = 0; j < k; j++) {
			g = mbufx_xdp_addr_granule(ring[(cons + i + j) & mask],
						   bo, &h);
			if (unlikely(g >= nb_gran || pending[g] == 0)) {
				unknown++;
				continue;
			}
			if (--pending[g] == 0)
				hs[nh++] = (void *)(base + h);
		}
		sent = rte_ring_sp_enqueue_burst(core->recycle, hs, nh, NULL);
		tq->st.recycled += sent;
		if (sent < nh) {
			rte_mempool_put_bulk(core->mp, &hs[sent], nh - sent);
			tq->st.to_pool += nh - sent;
		}
	}
	if (n != 0) {
		tq->nb_inflight -= n - unknown;
		tq->st.comp_unknown += unknown;
		mbufx_xdp_cons_release(&tq->cq, n);
	}
}

static inline void
tx_desc(struct mbufx_xdp_txq *tq, uint32_t slot, uint64_t addr, uint32_t len,
	uint32_t options)
{
	struct xdp_desc *d = &((struct xdp_desc *)tq->tx.descs)[slot &
								tq->tx.mask];

	d->addr = addr;
	d->len = len;
	d->options = options;
}

/*
 * Descriptors m needs to go out zero-copy, or 0 when it cannot: a segment
 * is shared, indirect, external, of another pool or empty. *len: the sum
 * of the segments' data_len.
 */
static inline uint32_t
tx_zc_descs(const struct mbufx_xdp_txq *tq, const struct rte_mbuf *m,
	    uint32_t *len)
{
	const struct mbufx_xdp_rxq *core = tq->rxq;
	uint32_t n = 0, sum = 0;
	int zc = 1;

	for (; m != NULL; m = m->next) {
		if (m->pool != core->mp || !RTE_MBUF_DIRECT(m) ||
		    rte_mbuf_refcnt_read(m) != 1 || m->data_len == 0)
			zc = 0;
		sum += m->data_len;
		n += likely(m->data_len <= core->chunk_size) ? 1 :
			(m->data_len + core->chunk_size - 1) /
			core->chunk_size;
	}
	*len = sum;
	return zc ? n : 0;
}

/* Zero-copy: the PMD owns every segment from here; n descriptors. */
static void
tx_zc(struct mbufx_xdp_txq *tq, struct rte_mbuf *m, uint32_t n)
{
	const struct mbufx_xdp_rxq *core = tq->rxq;
	uint32_t slot = tq->tx.cached_prod, left, piece, pos, k = 0;
	struct rte_mbuf *next;
	uint64_t off;
	uint8_t *cnt;

	for (; m != NULL; m = next) {
		next = m->next;
		off = (uintptr_t)m->buf_addr - core->base;
		pos = m->data_off;
		cnt = &tq->pending[handle_granule(core->base, m)];
		for (left = m->data_len; left != 0; left -= piece) {
			piece = RTE_MIN(left, core->chunk_size);
			k++;
			tx_desc(tq, slot++, off | ((uint64_t)pos <<
					XSK_UNALIGNED_BUF_OFFSET_SHIFT),
				piece, k < n ? XDP_PKT_CONTD : 0);
			(*cnt)++;	/* freed once every piece completed */
			pos += piece;
		}
		if (next != NULL) {
			/* pool invariant now: it may go back bare */
			m->next = NULL;
			m->nb_segs = 1;
		}
	}
}

/* Copy into n bare buffers of the UMEM pool; 0 or -ENOBUFS. The caller
 * checked that pkt_len is the sum of the segments. */
static int
tx_copy(struct mbufx_xdp_txq *tq, struct rte_mbuf *m, uint32_t n)
{
	const struct mbufx_xdp_rxq *core = tq->rxq;
	uint32_t slot = tq->tx.cached_prod, i, piece, left, k, soff = 0;
	const struct rte_mbuf *s = m;
	void *h[MBUFX_XDP_MAX_FRAGS];
	uint8_t *dst;

	if (rte_mempool_get_bulk(core->mp, h, n) != 0)
		return -ENOBUFS;
	left = m->pkt_len;
	for (i = 0; i < n; i++) {
		piece = RTE_MIN(left, core->chunk_size);
		dst = RTE_PTR_ADD(h[i], core->buf_offset);
		for (k = 0; k < piece; ) {
			uint32_t c = RTE_MIN(piece - k,
					     (uint32_t)s->data_len - soff);

			memcpy(dst + k, rte_pktmbuf_mtod_offset(s, uint8_t *,
								soff), c);
			k += c;
			soff += c;
			if (soff == s->data_len && s->next != NULL) {
				s = s->next;
				soff = 0;
			}
		}
		tx_desc(tq, slot++, mbufx_xdp_umem_off(core, h[i]), piece,
			i + 1 < n ? XDP_PKT_CONTD : 0);
		tq->pending[handle_granule(core->base, h[i])]++;
		left -= piece;
	}
	rte_pktmbuf_free(m);
	return 0;
}

static inline void
tx_drop(struct mbufx_xdp_txq *tq, struct rte_mbuf *m, uint64_t *why)
{
	(*why)++;
	tq->st.errors++;
	rte_pktmbuf_free(m);
}

/*
 * The common frame, one descriptor: a single direct, unshared segment of
 * the pool, of 1 to chunk_size bytes, pkt_len equal to its data_len (the
 * checks tx_zc_descs() and the malformed test make, for one segment).
 * Takes the leading run of such frames in pkts[], at most room of them,
 * with the queue's fields in locals and the counters added once; returns
 * how many. The first other frame is the general loop's. The queue's
 * fields are read once: the pending[] byte stores may alias anything, so
 * a field read inside the loop would be loaded again for every frame.
 */
static inline uint16_t
tx_singles(struct mbufx_xdp_txq *tq, struct rte_mbuf **pkts, uint16_t nb,
	   uint32_t room)
{
	const struct mbufx_xdp_rxq *core = tq->rxq;
	const struct rte_mempool *mp = core->mp;
	const uintptr_t base = core->base;
	const uint32_t chunk = core->chunk_size, mask = tq->tx.mask;
	struct xdp_desc *ring = tq->tx.descs;
	uint8_t *pending = tq->pending;
	const uint32_t slot0 = tq->tx.cached_prod;
	const uint32_t lim = RTE_MIN((uint32_t)nb, room);
	uint64_t bytes = 0;
	uint32_t i;

	for (i = 0; i < lim; i++) {
		const struct rte_mbuf *m = pkts[i];
		const uint32_t len = m->data_len;
		struct xdp_desc *d;

		if (unlikely(m->next != NULL || m->pool != mp ||
			     !RTE_MBUF_DIRECT(m) ||
			     rte_mbuf_refcnt_read(m) != 1 ||
			     len - 1 >= chunk || m->pkt_len != len))
			break;
		d = &ring[(slot0 + i) & mask];
		d->addr = ((uintptr_t)m->buf_addr - base) |
			((uint64_t)m->data_off <<
			 XSK_UNALIGNED_BUF_OFFSET_SHIFT);
		d->len = len;
		d->options = 0;
		pending[handle_granule(base, m)]++;
		bytes += len;
	}
	tq->tx.cached_prod = slot0 + i;
	tq->nb_inflight += i;
	tq->st.packets += i;
	tq->st.zc += i;
	tq->st.bytes += bytes;
	return (uint16_t)i;
}

uint16_t
mbufx_xdp_tx_enqueue(struct mbufx_xdp_txq *tq, struct rte_mbuf **pkts,
		     uint16_t nb_pkts, uint32_t max_descs)
{
	const uint32_t chunk = tq->rxq->chunk_size;
	uint32_t free_n, n, sum, used = 0;
	uint16_t i = 0, k;
	int fresh = 0;

	/* completions in batches: their producer is a line the kernel writes */
	if (tq->tx.cached_prod - tq->comp_at >= TX_COMP_BATCH)
		mbufx_xdp_tx_complete(tq);
	free_n = mbufx_xdp_prod_free(&tq->tx, nb_pkts);
	for (;;) {
		struct rte_mbuf *m;
		uint32_t len;

		k = tx_singles(tq, pkts + i, nb_pkts - i, free_n - used);
		i += k;
		used += k;
		if (i == nb_pkts)
			break;
		/* one frame the fast loop did not take, then back to it */
		m = pkts[i];
		len = m->pkt_len;
		n = tx_zc_descs(tq, m, &sum);
		if (unlikely(sum != len || len == 0)) {
			/* a malformed mbuf: its bytes cannot be known */
			tx_drop(tq, m, &tq->st.malformed);
			i++;
			continue;
		}
		if (n == 0 || n > max_descs) {
			n = likely(len <= chunk) ? 1 : (len + chunk - 1) / chunk;
			if (n > max_descs) {
				tx_drop(tq, m, &tq->st.too_many_segs);
				i++;
				continue;
			}
			n |= TX_COPY;
		}
		/*
		 * free_n was judged for one descriptor per packet from cached
		 * indexes: a multi-descriptor frame that does not fit gets one
		 * fresh look at the ring (and the completions) first.
		 */
		if ((n & ~TX_COPY) > free_n - used) {
			if (fresh)
				break;
			mbufx_xdp_tx_complete(tq);
			free_n = used + mbufx_xdp_prod_free(&tq->tx,
							    n & ~TX_COPY);
			fresh = 1;
			if ((n & ~TX_COPY) > free_n - used)
				break;
		}
		if ((n & TX_COPY) == 0) {
			tx_zc(tq, m, n);
			tq->st.zc++;
		} else {
			n &= ~TX_COPY;
			if (tx_copy(tq, m, n) != 0) {
				tq->st.copy_nobuf++;
				break;
			}
			tq->st.copied++;
		}
		tq->tx.cached_prod += n;
		tq->nb_inflight += n;
		used += n;
		tq->st.packets++;
		tq->st.bytes += len;
		i++;
	}
	if (used != 0)
		/* cached_prod already advanced: publish it */
		__atomic_store_n(tq->tx.producer, tq->tx.cached_prod,
				 __ATOMIC_RELEASE);
	return i;
}

/* Try a kick again from the Rx polls or the next burst after delay. */
static inline void
kick_later(struct mbufx_xdp_txq *tq, uint64_t delay)
{
	__atomic_store_n(&tq->kick_at, rte_rdtsc() + delay, __ATOMIC_RELAXED);
	tq->st.kicks_retried++;
}

/*
 * Wake the kernel, adding the TSC cycles spent inside to *cycles: a wakeup
 * is a syscall (in copy mode the kernel transmits inside it), two TSC reads
 * are noise beside it.
 */
static inline int
wake_timed(struct mbufx_xdp_txq *tq, uint64_t *cycles)
{
	uint64_t t0 = rte_rdtsc();
	int ret = tq->wake(tq->wake_ctx);

	*cycles += rte_rdtsc() - t0;
	return ret;
}

void
mbufx_xdp_tx_kick(struct mbufx_xdp_txq *tq)
{
	unsigned int tries;
	int ret;

	for (tries = 0; tries < 8; tries++) {
		if (tq->wake == NULL ||
		    (*tq->tx.flags & XDP_RING_NEED_WAKEUP) == 0)
			return;
		ret = wake_timed(tq, &tq->st.kick_cycles);
		if (ret < 0 && ret != -EAGAIN && ret != -EBUSY &&
		    ret != -ENOBUFS && ret != -EINTR) {
			/* link down: the descriptors go once it is back */
			tq->st.kick_errors++;
			kick_later(tq, tq->kick_retry * 50);
			return;
		}
		tq->st.kicks++;
		/* copy mode sends at most 32 descriptors per call */
		if (__atomic_load_n(tq->tx.consumer, __ATOMIC_ACQUIRE) ==
		    tq->tx.cached_prod)
			return;
		mbufx_xdp_tx_complete(tq);
	}
	/* the kernel is busy: never leave descriptors without a deadline */
	kick_later(tq, tq->kick_retry);
}

void
mbufx_xdp_tx_flush(struct mbufx_xdp_txq *tq)
{
	uint32_t pending = mbufx_xdp_tx_pending(tq);
	uint64_t polls, now;

	if (pending == 0 || (*tq->tx.flags & XDP_RING_NEED_WAKEUP) == 0) {
		__atomic_store_n(&tq->kick_at, 0, __ATOMIC_RELAXED);
		return;
	}
	polls = __atomic_load_n(&tq->rxq->polls, __ATOMIC_RELAXED);
	if (tq->kick_delay != 0 && pending < MBUFX_XDP_TX_KICK_BATCH &&
	    polls != tq->polls_seen) {
		tq->polls_seen = polls;
		now = rte_rdtsc();
		if (tq->kick_at == 0) {
			__atomic_store_n(&tq->kick_at, now + tq->kick_delay,
					 __ATOMIC_RELAXED);
			tq->st.kicks_deferred++;
			return;
		}
		if (now < tq->kick_at) {
			tq->st.kicks_deferred++;
			return;
		}
	}
	tq->polls_seen = polls;
	__atomic_store_n(&tq->kick_at, 0, __ATOMIC_RELAXED);
	mbufx_xdp_tx_kick(tq);
}

void
mbufx_xdp_tx_poll(struct mbufx_xdp_txq *tq, uint64_t *next, uint64_t *kicks,
		  uint64_t *cycles)
{
	uint64_t at, now;

	at = __atomic_load_n(&tq->kick_at, __ATOMIC_RELAXED);
	if (likely(at == 0) || tq->wake == NULL)
		return;
	now = rte_rdtsc();
	if (now < at || now < *next)
		return;
	if (__atomic_load_n(tq->tx.consumer, __ATOMIC_ACQUIRE) ==
	    __atomic_load_n(tq->tx.producer, __ATOMIC_RELAXED) ||
	    (*tq->tx.flags & XDP_RING_NEED_WAKEUP) == 0)
		return;
	*next = now + tq->kick_retry;
	(void)wake_timed(tq, cycles);
	(*kicks)++;
}

void
mbufx_xdp_qpair_closed(struct mbufx_xdp_rxq *rq, struct mbufx_xdp_txq *tq,
		       int zc)
{
	if (zc || rq->held) {
		/* the device's until the kernel's deferred release */
		mbufx_xdp_rxq_release_spare(rq);
		rq->held = 1;
		return;
	}
	if (tq != NULL)
		mbufx_xdp_txq_release(tq);
	mbufx_xdp_rxq_release(rq);
}

void
mbufx_xdp_qpair_released(struct mbufx_xdp_rxq *rq, struct mbufx_xdp_txq *tq)
{
	if (!rq->held)
		return;
	if (tq != NULL)
		mbufx_xdp_txq_release(tq);
	mbufx_xdp_rxq_release(rq);
}
