/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The mbufx authors
 */

/* The kernel's side of an AF_XDP socket in plain memory (see the header). */

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "xdp_fake_kernel.h"

#if defined(RTE_ARCH_X86)
#include <emmintrin.h>
#endif

int fk_dma;

uint64_t
fk_fill_take(struct mbufx_xdp_rxq *q)
{
	return mbufx_xdp_ring_mem_take(&q->fill);
}

struct xdp_desc
fk_rx_write(struct mbufx_xdp_rxq *q, uint64_t fill, uint32_t len,
	    uint32_t opts, uint8_t seed)
{
	struct xdp_desc d = {
		.addr = fill | ((uint64_t)MBUFX_XDP_HEADROOM <<
				XSK_UNALIGNED_BUF_OFFSET_SHIFT),
		.len = len,
		.options = opts,
	};
	uint8_t *p = (uint8_t *)(q->base + fill + MBUFX_XDP_HEADROOM);
	uint32_t i = 0;

#if defined(RTE_ARCH_X86)
	if (fk_dma && ((uintptr_t)p & 63) == 0) {
		/* whole lines, streamed: a device writes a frame's lines */
		uint8_t line[64] __rte_aligned(16);
		uint32_t k;

		for (; i < len; i += 64) {
			for (k = 0; k < 64; k++)
				line[k] = (uint8_t)(seed + i + k);
			for (k = 0; k < 64; k += 16)
				_mm_stream_si128((__m128i *)(p + i + k),
					_mm_load_si128((const __m128i *)
						       (line + k)));
		}
	}
#endif
	for (; i < len; i++)
		p[i] = (uint8_t)(seed + i);
	return d;
}

int
fk_rx_init(struct mbufx_xdp_rxq *q, uint32_t size)
{
	int ret;

	ret = mbufx_xdp_ring_mem_init(&q->fill, size, sizeof(uint64_t));
	if (ret == 0)
		ret = mbufx_xdp_ring_mem_init(&q->rxr, size,
					      sizeof(struct xdp_desc));
	if (ret == 0)
		mbufx_xdp_rxq_restock(q);
	return ret;
}

void
fk_rx_fini(struct mbufx_xdp_rxq *q)
{
	mbufx_xdp_ring_mem_fini(&q->fill);
	mbufx_xdp_ring_mem_fini(&q->rxr);
}

int
fk_rx_deliver_frame(struct mbufx_xdp_rxq *q, uint32_t frags, uint32_t len,
		    uint8_t seed)
{
	struct mbufx_xdp_ring *r = &q->rxr, *f = &q->fill;
	uint32_t p = *r->producer, i;
	uint64_t fill;

	if (p - __atomic_load_n(r->consumer, __ATOMIC_ACQUIRE) + frags >
	    r->size)
		return -ENOSPC;
	if (__atomic_load_n(f->producer, __ATOMIC_ACQUIRE) - *f->consumer <
	    frags)
		return -ENOENT;
	for (i = 0; i < frags; i++) {
		fill = fk_fill_take(q);
		((struct xdp_desc *)r->descs)[(p + i) & r->mask] =
			fk_rx_write(q, fill, len,
				    i + 1 < frags ? XDP_PKT_CONTD : 0, seed);
	}
	__atomic_store_n(r->producer, p + frags, __ATOMIC_RELEASE);
	return 0;
}

int
fk_rx_deliver(struct mbufx_xdp_rxq *q, uint32_t len, uint8_t seed)
{
	return fk_rx_deliver_frame(q, 1, len, seed);
}

int
fk_tx_init(struct fk_tx *k, struct mbufx_xdp_txq *q, uint32_t size)
{
	int ret;

	memset(k, 0, sizeof(*k));
	k->q = q;
	ret = mbufx_xdp_ring_mem_init(&q->tx, size, sizeof(struct xdp_desc));
	if (ret == 0)
		ret = mbufx_xdp_ring_mem_init(&q->cq, size, sizeof(uint64_t));
	/* copy mode: the TX ring always asks for a wakeup */
	if (ret == 0)
		*q->tx.flags = XDP_RING_NEED_WAKEUP;
	return ret;
}

void
fk_tx_fini(struct fk_tx *k)
{
	uint32_t i;

	for (i = 0; i < FK_FRAMES; i++)
		free(k->data[i]);
	mbufx_xdp_ring_mem_fini(&k->q->tx);
	mbufx_xdp_ring_mem_fini(&k->q->cq);
}

static void
frame_end(struct fk_tx *k)
{
	uint32_t i;

	if (k->seg_limit != 0 && k->cur_descs > k->seg_limit) {
		/* a zero-copy device: consumed, never completed */
		k->seg_drops++;
	} else {
		for (i = 0; i < k->cur_descs && i < RTE_DIM(k->cur_addr) &&
		     k->nb_owed < FK_OWED_MAX; i++)
			k->owed[k->nb_owed++] = k->cur_addr[i];
		if (!k->cur_bad && !fk_dma && k->nb_frames < FK_FRAMES) {
			k->data[k->nb_frames] = malloc(k->cur_len + 1);
			memcpy(k->data[k->nb_frames], k->cur, k->cur_len);
			k->len[k->nb_frames] = k->cur_len;
		}
		if (!k->cur_bad)
			k->nb_frames++;
	}
	k->cur_len = 0;
	k->cur_descs = 0;
	k->cur_bad = 0;
}

uint32_t
fk_tx_consume(struct fk_tx *k, uint32_t max)
{
	struct mbufx_xdp_ring *r = &k->q->tx;
	const struct mbufx_xdp_rxq *rq = k->q->rxq;
	uint32_t c = *r->consumer, n = 0;

	while (n < max && c != __atomic_load_n(r->producer, __ATOMIC_ACQUIRE)) {
		const struct xdp_desc *d =
			&((const struct xdp_desc *)r->descs)[c & r->mask];
		uint64_t base = d->addr & XSK_UNALIGNED_BUF_ADDR_MASK;
		uint64_t off = d->addr >> XSK_UNALIGNED_BUF_OFFSET_SHIFT;

		if (k->cur_descs < RTE_DIM(k->cur_addr))
			k->cur_addr[k->cur_descs] = d->addr;
		k->cur_descs++;
		if (d->len > rq->chunk_size || base + off + d->len > rq->umem_len ||
		    k->cur_len + d->len > FK_FRAME_MAX) {
			k->invalid++;
			k->cur_bad = 1;
		} else {
			if (!fk_dma)
				memcpy(k->cur + k->cur_len,
				       (const void *)(rq->base + base + off),
				       d->len);
			k->cur_len += d->len;
		}
		if ((d->options & XDP_PKT_CONTD) == 0)
			frame_end(k);
		c++;
		n++;
	}
	k->descs += n;
	__atomic_store_n(r->consumer, c, __ATOMIC_RELEASE);
	return n;
}

int
fk_tx_complete_addr(struct fk_tx *k, uint64_t addr)
{
	struct mbufx_xdp_ring *r = &k->q->cq;
	uint32_t p = *r->producer;

	if (p - __atomic_load_n(r->consumer, __ATOMIC_ACQUIRE) >= r->size)
		return -ENOSPC;
	((uint64_t *)r->descs)[p & r->mask] = addr;
	__atomic_store_n(r->producer, p + 1, __ATOMIC_RELEASE);
	return 0;
}

int
fk_tx_complete_at(struct fk_tx *k, uint32_t i)
{
	int ret;

	if (i >= k->nb_owed)
		return -ENOENT;
	ret = fk_tx_complete_addr(k, k->owed[i]);
	if (ret == 0)
		fk_tx_lose_at(k, i);
	return ret;
}

uint32_t
fk_tx_complete_all(struct fk_tx *k, int reverse)
{
	uint32_t n = 0;

	while (k->nb_owed != 0 &&
	       fk_tx_complete_at(k, reverse ? k->nb_owed - 1 : 0) == 0)
		n++;
	return n;
}

void
fk_tx_lose_at(struct fk_tx *k, uint32_t i)
{
	if (i >= k->nb_owed)
		return;
	memmove(&k->owed[i], &k->owed[i + 1],
		(k->nb_owed - i - 1) * sizeof(k->owed[0]));
	k->nb_owed--;
}
