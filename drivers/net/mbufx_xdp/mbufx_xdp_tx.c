/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The mbufx authors
 */

/*
 * net_mbufx_xdp transmit core: descriptors from mbufs (zero-copy or copied
 * into bare UMEM buffers), completions back to the receive side. No socket
 * here (see mbufx_xdp_tx.h).
 *
 * Completions come back in submission order (the kernel completes a
 * socket's TX descriptors in order, invalid ones included), so a software
 * ring parallel to the TX ring (inflight[]) says which buffer each
 * completion frees.
 */

#include <errno.h>
#include <string.h>

#include <rte_malloc.h>
#include <rte_mempool.h>
#include <rte_ring.h>

#include "mbufx_xdp_tx.h"

#define TX_COPY (1u << 31)	/* mbufx_xdp_tx_enqueue: this frame is copied */
#define TX_COMP_BATCH 32	/* drain completions once this many are out */

int
mbufx_xdp_txq_init(struct mbufx_xdp_txq *q, uint32_t nb_desc, int socket)
{
	memset(q, 0, sizeof(*q));
	q->nb_desc = nb_desc;
	q->inflight = rte_zmalloc_socket("mbufx_xdp_inflight",
					 sizeof(void *) * nb_desc,
					 RTE_CACHE_LINE_SIZE, socket);
	return q->inflight == NULL ? -ENOMEM : 0;
}

void
mbufx_xdp_txq_fini(struct mbufx_xdp_txq *q)
{
	rte_free(q->inflight);
	q->inflight = NULL;
}

void
mbufx_xdp_txq_release(struct mbufx_xdp_txq *tq)
{
	uint32_t i;
	void *h;

	/* every descriptor not completed yet is ours again */
	for (i = tq->cq.cached_cons; i != tq->tx.cached_prod; i++) {
		h = tq->inflight[i & (tq->nb_desc - 1)];
		tq->inflight[i & (tq->nb_desc - 1)] = NULL;
		if (h != NULL)
			rte_mempool_put(tq->rxq->mp, h);
	}
}

/* Completed descriptors: their buffers to the Rx side, else the pool. */
void
mbufx_xdp_tx_complete(struct mbufx_xdp_txq *tq)
{
	struct mbufx_xdp_rxq *core = tq->rxq;
	const uint64_t *ring = tq->cq.descs;
	uint32_t n = mbufx_xdp_cons_avail(&tq->cq), i, k, nh, sent;
	void *h[64];
	void *x;

	for (i = 0; i < n; i += k) {
		k = RTE_MIN(n - i, (uint32_t)RTE_DIM(h));
		nh = 0;
		for (uint32_t j = 0; j < k; j++) {
			uint32_t seq = tq->cq.cached_cons + i + j;

			x = tq->inflight[seq & (tq->nb_desc - 1)];
			if (x == NULL)
				continue;
			tq->inflight[seq & (tq->nb_desc - 1)] = NULL;
			if (unlikely((ring[seq & tq->cq.mask] &
				      XSK_UNALIGNED_BUF_ADDR_MASK) !=
				     mbufx_xdp_umem_off(core, x)))
				tq->st.comp_mismatch++;
			h[nh++] = x;
		}
		sent = rte_ring_sp_enqueue_burst(core->recycle, h, nh, NULL);
		tq->st.recycled += sent;
		if (sent < nh) {
			rte_mempool_put_bulk(core->mp, &h[sent], nh - sent);
			tq->st.to_pool += nh - sent;
		}
	}
	if (n != 0)
		mbufx_xdp_cons_release(&tq->cq, n);
}

static inline void
tx_desc(struct mbufx_xdp_txq *tq, uint32_t slot, uint64_t addr, uint32_t len,
	uint32_t options, void *owner)
{
	struct xdp_desc *d = &((struct xdp_desc *)tq->tx.descs)[slot &
								tq->tx.mask];

	d->addr = addr;
	d->len = len;
	d->options = options;
	tq->inflight[slot & (tq->nb_desc - 1)] = owner;
}

/*
 * Descriptors m needs to go out zero-copy, or 0 when it cannot: a segment
 * is shared, indirect, external, of another pool or empty.
 */
static inline uint32_t
tx_zc_descs(const struct mbufx_xdp_txq *tq, const struct rte_mbuf *m)
{
	const struct mbufx_xdp_rxq *core = tq->rxq;
	uint32_t n = 0;

	for (; m != NULL; m = m->next) {
		if (m->pool != core->mp || !RTE_MBUF_DIRECT(m) ||
		    rte_mbuf_refcnt_read(m) != 1 || m->data_len == 0)
			return 0;
		n += likely(m->data_len <= core->chunk_size) ? 1 :
			(m->data_len + core->chunk_size - 1) /
			core->chunk_size;
	}
	return n;
}

/* Zero-copy: the PMD owns every segment from here; n descriptors. */
static void
tx_zc(struct mbufx_xdp_txq *tq, struct rte_mbuf *m, uint32_t n)
{
	const struct mbufx_xdp_rxq *core = tq->rxq;
	uint32_t slot = tq->tx.cached_prod, left, piece, pos, k = 0;
	struct rte_mbuf *next;
	uint64_t off;

	for (; m != NULL; m = next) {
		next = m->next;
		off = (uintptr_t)m->buf_addr - core->base;
		pos = m->data_off;
		for (left = m->data_len; left != 0; left -= piece) {
			piece = RTE_MIN(left, core->chunk_size);
			k++;
			/* the buffer is freed with its last piece */
			tx_desc(tq, slot++, off | ((uint64_t)pos <<
					XSK_UNALIGNED_BUF_OFFSET_SHIFT),
				piece, k < n ? XDP_PKT_CONTD : 0,
				left == piece ? m : NULL);
			pos += piece;
		}
		if (next != NULL) {
			/* pool invariant now: it may go back bare */
			m->next = NULL;
			m->nb_segs = 1;
		}
	}
}

/* Copy into n bare buffers of the UMEM pool; 0 or -ENOBUFS. */
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
			i + 1 < n ? XDP_PKT_CONTD : 0, h[i]);
		left -= piece;
	}
	rte_pktmbuf_free(m);
	return 0;
}

/*
 * Free TX slots: the ring's, and no more than the completions drained
 * allow (a slot's inflight entry is only free once its completion came
 * back, which in copy mode can be after the kernel consumed the slot).
 */
static inline uint32_t
tx_room(struct mbufx_xdp_txq *tq, uint32_t want)
{
	uint32_t ring = mbufx_xdp_prod_free(&tq->tx, want);
	uint32_t comp = tq->nb_desc - (tq->tx.cached_prod - tq->cq.cached_cons);

	return RTE_MIN(ring, comp);
}

uint16_t
mbufx_xdp_tx_enqueue(struct mbufx_xdp_txq *tq, struct rte_mbuf **pkts,
		     uint16_t nb_pkts, uint32_t max_descs)
{
	const uint32_t chunk = tq->rxq->chunk_size;
	uint32_t free_n, n, used = 0;
	uint16_t i;
	int fresh = 0;

	/* completions in batches: their producer is a line the kernel writes */
	if (tq->tx.cached_prod - tq->cq.cached_cons >= TX_COMP_BATCH)
		mbufx_xdp_tx_complete(tq);
	free_n = tx_room(tq, nb_pkts);
	if (free_n < nb_pkts) {
		mbufx_xdp_tx_complete(tq);
		free_n = tx_room(tq, nb_pkts);
		fresh = 1;
	}
	for (i = 0; i < nb_pkts; i++) {
		struct rte_mbuf *m = pkts[i];
		uint32_t len = m->pkt_len;

		n = tx_zc_descs(tq, m);
		if (n == 0 || n > max_descs) {
			n = likely(len <= chunk) ? 1 : (len + chunk - 1) / chunk;
			if (len == 0 || n > max_descs) {
				tq->st.errors++;
				rte_pktmbuf_free(m);
				continue;
			}
			n |= TX_COPY;
		}
		/*
		 * free_n was judged for one descriptor per packet from cached
		 * indexes: a multi-descriptor frame that does not fit gets one
		 * fresh look at both rings before the burst stops.
		 */
		if ((n & ~TX_COPY) > free_n - used) {
			if (fresh)
				break;
			mbufx_xdp_tx_complete(tq);
			free_n = used + tx_room(tq, n & ~TX_COPY);
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
		used += n;
		tq->st.packets++;
		tq->st.bytes += len;
	}
	if (used != 0)
		/* cached_prod already advanced: publish it */
		__atomic_store_n(tq->tx.producer, tq->tx.cached_prod,
				 __ATOMIC_RELEASE);
	return i;
}
