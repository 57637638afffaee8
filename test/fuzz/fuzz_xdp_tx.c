/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The mbufx authors
 */

/*
 * fuzz_xdp_tx: the transmit core of net_mbufx_xdp (mbufx_xdp_tx.h) against
 * the fake kernel (test/xdp/xdp_fake_kernel.h) driven by the input: frames
 * of any shape (zero-copy from the UMEM pool or copied from another pool,
 * 1..20 segments, a pkt_len that may lie), descriptor limits, the device
 * consuming at any pace, completions given in any order, lost, or naming
 * no buffer of ours, kicks that work or find the kernel busy.
 *
 * Input: ops until the input ends, each an op byte then its arguments:
 *   0 frame      pool, segments, length, a lie about pkt_len, max_descs
 *   1 consume    how many descriptors the device takes
 *   2 complete   which owed completion comes next
 *   3 lose       which owed completion never comes
 *   4 bogus      a completion address outside every buffer
 *   5 drain      the core drains the completion ring
 *   6 flush      the kick policy runs (the kernel busy or not)
 *
 * Checked: a burst takes the frame or leaves it to the caller; what the
 * device received is, in order, byte for byte, every frame the core took and
 * did not drop (drops are counted, malformed ones among them); no buffer is
 * freed twice or while the device may still read it (the bytes would
 * differ); after teardown every buffer is back in both pools.
 */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_errno.h>
#include <rte_mbuf.h>

#include "fuzz_common.h"
#include "xdp_fake_kernel.h"

#define NB_MBUF 1023
#define RING 128
#define MAX_SENT FK_FRAMES

static struct rte_mempool *umem_mp, *src_mp;
static struct mbufx_xdp_rxq rq;
static struct mbufx_xdp_txq tq;
static struct fk_tx fk;
static int busy;
static struct {
	uint32_t len;
	uint8_t seed;
} sent[MAX_SENT];

int
LLVMFuzzerInitialize(int *argc, char ***argv)
{
	RTE_SET_USED(argc);
	RTE_SET_USED(argv);
	fuzz_eal_init("fuzz_xdp_tx", 0);
	umem_mp = rte_pktmbuf_pool_create_by_ops("fzxtu", NB_MBUF, 0, 0, 2176,
						 SOCKET_ID_ANY, "mbufx");
	src_mp = rte_pktmbuf_pool_create("fzxts", NB_MBUF, 0, 0, 2176,
					 SOCKET_ID_ANY);
	if (umem_mp == NULL || src_mp == NULL ||
	    mbufx_xdp_rxq_init(&rq, umem_mp, 9, 0, RING, SOCKET_ID_ANY) != 0) {
		fprintf(stderr, "fuzz_xdp_tx: set-up: %s\n",
			rte_strerror(rte_errno));
		exit(1);
	}
	return 0;
}

static int
wake(void *ctx)
{
	if (busy)
		return -EAGAIN;
	fk_tx_consume(ctx, MBUFX_XDP_TX_KICK_BATCH);
	return 0;
}

static struct rte_mbuf *
frame(struct rte_mempool *mp, uint32_t len, uint32_t nseg, uint8_t seed)
{
	struct rte_mbuf *head = NULL, *m;
	uint32_t i, k, off = 0, part;
	uint8_t *p;

	for (i = 0; i < nseg; i++) {
		part = i + 1 < nseg ? len / nseg : len - off;
		m = rte_pktmbuf_alloc(mp);
		if (m == NULL)
			break;
		p = (uint8_t *)rte_pktmbuf_append(m, (uint16_t)part);
		if (p == NULL) {
			rte_pktmbuf_free(m);
			break;
		}
		for (k = 0; k < part; k++)
			p[k] = (uint8_t)(seed + off + k);
		off += part;
		if (head == NULL) {
			head = m;
		} else if (rte_pktmbuf_chain(head, m) != 0) {
			rte_pktmbuf_free(m);
			break;
		}
	}
	return head;
}

/* One frame as the input says (length, segments, pool, a pkt_len lie),
 * offered to the transmit core; a frame it takes intact is recorded. */
static void
send_one(struct fuzz_in *in, uint32_t *nb_sent, uint8_t *seed)
{
	uint32_t len, nseg, lie;
	struct rte_mbuf *m;
	uint64_t errors;

	len = 1 + fuzz_below(in, 6000);
	nseg = 1 + fuzz_below(in, 20);
	if (len / nseg > 2000)
		nseg = len / 2000 + 1;
	lie = fuzz_u8(in);
	m = frame(lie & 1 ? src_mp : umem_mp, len, nseg, ++*seed);
	if (m == NULL)
		return;
	if ((lie & 6) == 6)
		m->pkt_len += 1 + (lie >> 3);
	errors = tq.st.errors;
	if (mbufx_xdp_tx_enqueue(&tq, &m, 1, 1 + fuzz_below(in, 18)) == 0) {
		rte_pktmbuf_free(m);	/* no room: still ours */
		return;
	}
	if (tq.st.errors == errors && *nb_sent < MAX_SENT) {
		sent[*nb_sent].len = len;
		sent[*nb_sent].seed = *seed;
		(*nb_sent)++;
	}
}

/* Everything consumed: the device got exactly the frames taken intact,
 * byte for byte, and no invalid descriptor. */
static void
sent_check(uint32_t nb_sent)
{
	uint32_t i, j;

	fk_tx_consume(&fk, UINT32_MAX);
	FUZZ_CHECK(fk.invalid == 0, "%lu invalid descriptors sent",
		   (unsigned long)fk.invalid);
	FUZZ_CHECK(fk.nb_frames == nb_sent || nb_sent == MAX_SENT,
		   "%u frames at the device, %u taken", fk.nb_frames, nb_sent);
	for (i = 0; i < nb_sent && i < fk.nb_frames; i++) {
		FUZZ_CHECK(fk.len[i] == sent[i].len, "frame %u: %u bytes, %u sent",
			   i, fk.len[i], sent[i].len);
		for (j = 0; j < sent[i].len; j++)
			FUZZ_CHECK(fk.data[i][j] == (uint8_t)(sent[i].seed + j),
				   "frame %u byte %u", i, j);
	}
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fuzz_in in = { data, size };
	uint32_t nb_sent = 0;
	uint8_t seed = 0;

	FUZZ_CHECK(mbufx_xdp_txq_init(&tq, &rq, RING, SOCKET_ID_ANY) == 0,
		   "txq");
	FUZZ_CHECK(fk_tx_init(&fk, &tq, RING) == 0, "rings");
	tq.wake = wake;
	tq.wake_ctx = &fk;
	tq.kick_delay = 0;
	while (in.n > 0) {
		switch (fuzz_u8(&in) % 7) {
		case 0:
			send_one(&in, &nb_sent, &seed);
			break;
		case 1:
			fk_tx_consume(&fk, fuzz_below(&in, 64));
			break;
		case 2:
			fk_tx_complete_at(&fk, fuzz_below(&in, fk.nb_owed + 1));
			break;
		case 3:
			fk_tx_lose_at(&fk, fuzz_below(&in, fk.nb_owed + 1));
			break;
		case 4:
			if (fk.nb_owed < FK_OWED_MAX)
				fk.owed[fk.nb_owed++] = fuzz_u8(&in) & 1 ?
					rq.umem_len + fuzz_u16(&in) :
					rq.buf_offset + 1 + fuzz_below(&in, 63);
			break;
		case 5:
			mbufx_xdp_tx_complete(&tq);
			break;
		case 6:
			busy = fuzz_u8(&in) & 1;
			mbufx_xdp_tx_flush(&tq);
			busy = 0;
			break;
		}
	}
	sent_check(nb_sent);
	/* socket closed: every buffer back */
	fk_tx_complete_all(&fk, 0);
	mbufx_xdp_tx_complete(&tq);
	mbufx_xdp_txq_release(&tq);
	mbufx_xdp_rxq_release(&rq);
	fk_tx_fini(&fk);
	mbufx_xdp_txq_fini(&tq);
	FUZZ_CHECK(rte_mempool_avail_count(umem_mp) == NB_MBUF &&
		   rte_mempool_avail_count(src_mp) == NB_MBUF,
		   "pools: %u and %u of %u back", rte_mempool_avail_count(umem_mp),
		   rte_mempool_avail_count(src_mp), NB_MBUF);
	return 0;
}
