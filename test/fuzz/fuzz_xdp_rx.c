/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The mbufx authors
 */

/*
 * fuzz_xdp_rx: the receive core of net_mbufx_xdp (mbufx_xdp_rx.h) on
 * descriptors as the kernel could return them, valid or not, without a
 * socket: fill and RX rings in plain memory stand in for the kernel's, the
 * fake kernel (test/xdp/xdp_fake_kernel.h) takes fill addresses, as in
 * mbufx_xdp_rx_autotest, and the harness drives the PMD's receive loop
 * itself (mbufx_xdp_rx_burst(): the wrap-around copy, the stop at a frame
 * still arriving, the refill thresholds).
 *
 * Set-up (once): two mbufx pools, 2176-byte (frames of several descriptors
 * become chains, or are dropped without scatter) and 9344-byte (they are
 * coalesced into one segment), each the UMEM of one queue.
 *
 * Input: a flags byte (queue, scatter, refill mode: late or classic), then
 * rounds. A round is a count of
 * descriptors (as many as the RX ring takes), then each descriptor:
 *   kind % 4 == 0, 1  a buffer the kernel took from the fill ring, with a
 *                     length and the continuation flag from the input, its
 *                     bytes written at the kernel's offset
 *              2      a buffer completed before (completes twice)
 *              3      address (offset bits included), length and options
 *                     all from the input
 * then how many mbufs the caller takes at most. Descriptors the call leaves
 * (a frame whose end is not in yet) stay on the RX ring for the next round.
 *
 * Checked: the call never consumes more descriptors than given nor returns
 * more frames than it consumed; every frame passes rte_mbuf_check(), comes
 * from this queue's pool, is no longer than the queue's largest frame, and
 * is counted; after each input (every buffer the kernel holds given back,
 * as at socket close) the pool is full again: nothing lost, nothing twice.
 */

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_errno.h>
#include <rte_mbuf.h>

#include "fuzz_common.h"
#include "xdp_fake_kernel.h"

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

/* The kernel's side of a round: descriptors onto the RX ring as the input
 * says; taken records the fill addresses it used. Returns the producer. */
static uint32_t
kernel_round(struct fuzz_in *in, struct mbufx_xdp_rxq *q, uint64_t *taken,
	     unsigned int *nb_taken)
{
	struct mbufx_xdp_ring *r = &q->rxr;
	unsigned int n, i, kind;
	struct xdp_desc d;
	uint32_t len, prod;
	uint64_t a;

	n = 1 + fuzz_below(in, MAX_DESC);
	prod = *r->producer;
	for (i = 0; i < n && prod - *r->consumer < r->size; i++) {
		kind = fuzz_u8(in) % 4;
		a = UINT64_MAX;
		if (kind < 2) {
			a = fk_fill_take(q);
			if (a != UINT64_MAX && *nb_taken < MAX_TAKEN)
				taken[(*nb_taken)++] = a;
		} else if (kind == 2 && *nb_taken > 0) {
			a = taken[fuzz_below(in, *nb_taken)];
		}
		if (a != UINT64_MAX) {
			len = fuzz_u16(in) % (q->chunk_size + 64);
			d.addr = a | (uint64_t)MBUFX_XDP_HEADROOM <<
				XSK_UNALIGNED_BUF_OFFSET_SHIFT;
			d.len = len;
			d.options = fuzz_u8(in) & 1 ? XDP_PKT_CONTD : 0;
			/* what the kernel writes, where it may */
			if (kind < 2 && len <= q->chunk_size - MBUFX_XDP_HEADROOM)
				memset((uint8_t *)(q->base + a + MBUFX_XDP_HEADROOM),
				       fuzz_u8(in), len);
		} else {
			d.addr = (uint64_t)fuzz_u32(in) | (uint64_t)fuzz_u32(in) << 32;
			d.len = fuzz_u32(in);
			d.options = fuzz_u32(in);
		}
		((struct xdp_desc *)r->descs)[prod++ & r->mask] = d;
	}
	__atomic_store_n(r->producer, prod, __ATOMIC_RELEASE);
	return prod;
}

/* The frames of one burst: well formed, of this queue, none too long, no
 * stale metadata; then freed. */
static void
frames_check(const struct fq *f, struct rte_mbuf **pkts, uint16_t nb,
	     uint32_t max)
{
	const char *why;
	uint16_t i;

	for (i = 0; i < nb; i++) {
		FUZZ_CHECK(rte_mbuf_check(pkts[i], 1, &why) == 0, "frame %u: %s", i, why);
		FUZZ_CHECK(pkts[i]->pool == f->mp, "frame %u from pool %s", i,
			   pkts[i]->pool->name);
		FUZZ_CHECK(pkts[i]->pkt_len <= max, "frame of %u bytes, largest %u",
			   pkts[i]->pkt_len, max);
		/* no stale metadata, in either refill mode */
		FUZZ_CHECK(pkts[i]->ol_flags == 0 && pkts[i]->packet_type == 0,
			   "frame %u: ol_flags %#" PRIx64 " ptype %#x", i,
			   pkts[i]->ol_flags, pkts[i]->packet_type);
		rte_pktmbuf_free(pkts[i]);
	}
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fuzz_in in = { data, size };
	uint8_t flags = fuzz_u8(&in);
	struct fq *f = &fqs[flags & 1];
	struct mbufx_xdp_rxq *q = &f->q;
	struct mbufx_xdp_ring *r = &q->rxr;
	struct rte_mbuf *pkts[32];
	uint64_t taken[MAX_TAKEN], pkts0;
	unsigned int nb_taken = 0, want;
	uint32_t max, prod, cons0;
	uint16_t nb;
	int idle;

	q->scatter = (flags >> 1) & 1;
	q->refill_mode = (flags >> 2) & 1 ? MBUFX_XDP_REFILL_CLASSIC :
		MBUFX_XDP_REFILL_LATE;
	q->contd_skip = 0;
	FUZZ_CHECK(fk_rx_init(q, RING) == 0, "rings");
	/* a multi-buffer socket: frames of several descriptors */
	max = mbufx_xdp_rxq_max_frame(q, 1);
	while (in.n > 0) {
		prod = kernel_round(&in, q, taken, &nb_taken);
		/* the PMD's receive loop, as rx_burst runs it */
		want = 1 + fuzz_below(&in, RTE_DIM(pkts));
		pkts0 = q->st.packets;
		cons0 = *r->consumer;
		nb = mbufx_xdp_rx_burst(q, pkts, (uint16_t)want, &idle);
		FUZZ_CHECK(nb <= want && *r->consumer - cons0 <= prod - cons0 &&
			   nb <= *r->consumer - cons0, "%u frames from %u of %u "
			   "descriptors", nb, *r->consumer - cons0, prod - cons0);
		FUZZ_CHECK(q->st.packets - pkts0 == nb, "frames not counted");
		FUZZ_CHECK(!idle || prod == cons0, "idle with descriptors");
		frames_check(f, pkts, nb, max);
	}
	/* socket closed: every buffer back, the queue usable again */
	mbufx_xdp_rxq_release(q);
	fk_rx_fini(q);
	q->taken = 0;
	FUZZ_CHECK(rte_mempool_avail_count(f->mp) == f->mp->size,
		   "%u of %u buffers back in %s", rte_mempool_avail_count(f->mp),
		   f->mp->size, f->mp->name);
	return 0;
}
