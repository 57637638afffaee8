/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The mbufx authors
 */

/*
 * fuzz_xdp_rx: the receive core of net_mbufx_xdp (mbufx_xdp_rx.h) on
 * descriptors as the kernel could return them, valid or not, without a
 * socket: a fill ring in plain memory stands in for the kernel's, and the
 * harness plays the kernel, as the PMD's own mbufx_xdp_rx_autotest does.
 *
 * Set-up (once): two mbufx pools, 2176-byte (frames of several descriptors
 * become chains, or are dropped without scatter) and 9344-byte (they are
 * coalesced into one segment), each the UMEM of one queue.
 *
 * Input: a flags byte (queue, scatter), then rounds. A round is a count of
 * descriptors, then each descriptor:
 *   kind % 4 == 0, 1  a buffer the kernel took from the fill ring, with a
 *                     length and the continuation flag from the input, its
 *                     bytes written at the kernel's offset
 *              2      a buffer completed before (completes twice)
 *              3      address (offset bits included), length and options
 *                     all from the input
 * then how many mbufs the caller takes at most. Descriptors the call leaves
 * (a frame whose end is not in yet) are presented again first in the next
 * round, as the RX ring would. After each round the queue refills.
 *
 * Checked: the call never consumes more descriptors than given nor returns
 * more frames than it consumed; every frame passes rte_mbuf_check(), comes
 * from this queue's pool, is no longer than the queue's largest frame, and
 * is counted; after each input (every buffer the kernel holds given back,
 * as at socket close) the pool is full again: nothing lost, nothing twice.
 */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_errno.h>
#include <rte_mbuf.h>

#include "fuzz_common.h"
#include "mbufx_xdp_rx.h"

#define NB_MBUF 511
#define RING 128
#define MAX_DESC 48
#define MAX_TAKEN 64

struct fq {
	struct rte_mempool *mp;
	struct mbufx_xdp_rxq q;
};

static struct fq fqs[2];

int
LLVMFuzzerInitialize(int *argc, char ***argv)
{
	static const uint16_t room[2] = { 2176, 9344 };
	unsigned int i;
	int rc;

	fuzz_eal_init("fuzz_xdp_rx", 0);
	for (i = 0; i < 2; i++) {
		char name[32];

		snprintf(name, sizeof(name), "fzxdp%u", i);
		fqs[i].mp = rte_pktmbuf_pool_create_by_ops(name, NB_MBUF, 0, 0, room[i],
							   SOCKET_ID_ANY, "mbufx");
		if (fqs[i].mp == NULL) {
			fprintf(stderr, "fuzz_xdp_rx: pool: %s\n", rte_strerror(rte_errno));
			exit(1);
		}
		rc = mbufx_xdp_rxq_init(&fqs[i].q, fqs[i].mp, 7, (uint16_t)i, RING,
					SOCKET_ID_ANY);
		if (rc != 0) {
			fprintf(stderr, "fuzz_xdp_rx: queue on %s: %d\n", name, rc);
			exit(1);
		}
	}
	return 0;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fuzz_in in = { data, size };
	uint8_t flags = fuzz_u8(&in);
	struct fq *f = &fqs[flags & 1];
	struct mbufx_xdp_rxq *q = &f->q;
	struct xdp_desc d[MAX_DESC];
	struct rte_mbuf *pkts[32];
	uint64_t taken[MAX_TAKEN], a, pkts0;
	unsigned int nb_taken = 0, npend = 0, n, i, want, kind;
	uint32_t used, len, max;
	const char *why;
	uint16_t nb;

	q->scatter = (flags >> 1) & 1;
	q->contd_skip = 0;
	FUZZ_CHECK(mbufx_xdp_ring_mem_init(&q->fill, RING, sizeof(uint64_t)) == 0, "ring");
	mbufx_xdp_rxq_refill(q);
	/* a multi-buffer socket: frames of several descriptors */
	max = mbufx_xdp_rxq_max_frame(q, 1);
	while (in.n > 0) {
		n = npend + 1 + fuzz_below(&in, MAX_DESC - npend);
		for (i = npend; i < n; i++) {
			kind = fuzz_u8(&in) % 4;
			a = UINT64_MAX;
			if (kind < 2) {
				a = mbufx_xdp_ring_mem_take(&q->fill);
				if (a != UINT64_MAX && nb_taken < MAX_TAKEN)
					taken[nb_taken++] = a;
			} else if (kind == 2 && nb_taken > 0) {
				a = taken[fuzz_below(&in, nb_taken)];
			}
			if (a != UINT64_MAX) {
				len = fuzz_u16(&in) % (q->chunk_size + 64);
				d[i].addr = a | (uint64_t)MBUFX_XDP_HEADROOM <<
					XSK_UNALIGNED_BUF_OFFSET_SHIFT;
				d[i].len = len;
				d[i].options = fuzz_u8(&in) & 1 ? XDP_PKT_CONTD : 0;
				/* what the kernel writes, where it may */
				if (kind < 2 && len <= q->chunk_size - MBUFX_XDP_HEADROOM)
					memset((uint8_t *)(q->base + a + MBUFX_XDP_HEADROOM),
					       fuzz_u8(&in), len);
			} else {
				d[i].addr = (uint64_t)fuzz_u32(&in) | (uint64_t)fuzz_u32(&in) << 32;
				d[i].len = fuzz_u32(&in);
				d[i].options = fuzz_u32(&in);
			}
		}
		want = 1 + fuzz_below(&in, RTE_DIM(pkts));
		pkts0 = q->st.packets;
		nb = mbufx_xdp_rx_convert(q, d, n, pkts, (uint16_t)want, &used);
		FUZZ_CHECK(used <= n && nb <= used && nb <= want, "used %u, %u frames, of %u",
			   used, nb, n);
		FUZZ_CHECK(q->st.packets - pkts0 == nb, "frames not counted");
		for (i = 0; i < nb; i++) {
			FUZZ_CHECK(rte_mbuf_check(pkts[i], 1, &why) == 0, "frame %u: %s", i, why);
			FUZZ_CHECK(pkts[i]->pool == f->mp, "frame %u from pool %s", i,
				   pkts[i]->pool->name);
			FUZZ_CHECK(pkts[i]->pkt_len <= max, "frame of %u bytes, largest %u",
				   pkts[i]->pkt_len, max);
			rte_pktmbuf_free(pkts[i]);
		}
		/* what the call left is still at the head of the RX ring */
		npend = n - used;
		memmove(d, d + used, npend * sizeof(d[0]));
		if (npend >= MAX_DESC - 1)
			npend = 0;	/* the harness's ring is full: the rest is lost */
		mbufx_xdp_rxq_refill(q);
	}
	/* socket closed: every buffer back, the queue usable again */
	mbufx_xdp_rxq_release(q);
	mbufx_xdp_ring_mem_fini(&q->fill);
	FUZZ_CHECK(rte_mempool_avail_count(f->mp) == f->mp->size,
		   "%u of %u buffers back in %s", rte_mempool_avail_count(f->mp),
		   f->mp->size, f->mp->name);
	return 0;
}
