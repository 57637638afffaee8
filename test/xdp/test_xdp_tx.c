/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The mbufx authors
 */

/*
 * mbufx_xdp_tx_autotest: the transmit core of net_mbufx_xdp without a
 * socket. The fake kernel (xdp_fake_kernel.h) plays the device: it consumes
 * TX descriptors, reassembles the frames and gives completions in whatever
 * order, or never, as real kernels do and veth does not.
 *
 * What it protects:
 * - frames go out byte for byte, zero-copy (direct mbufs of the UMEM pool)
 *   or copied (anything else), one or several descriptors;
 * - a completion frees the buffer it names, whatever the order completions
 *   come in, and a buffer only once all its descriptors completed;
 * - completions the kernel never gives cost no transmit capacity, and the
 *   buffers come back at teardown; addresses that name no buffer in
 *   flight (bogus, or completed already) are counted and ignored;
 * - a zero-copy device's segment limit is honoured: no frame goes out with
 *   more descriptors than the limit (the device would drop it silently);
 * - a short burst's deferred kick goes out once its deadline passed, from
 *   the paired Rx queue's polls even while that queue is never empty (one-
 *   way overload), and a kick the kernel did not act on is tried again;
 * - zero-copy teardown: after the socket's close, no buffer the device
 *   may still write (posted) or read (TX in flight) goes back to the pool
 *   before the kernel has released the queue; copy mode gives all back;
 * - a malformed mbuf (pkt_len not the sum of its data_len) is dropped and
 *   counted, never spins nor goes out;
 * - after teardown every buffer is back in its pool;
 * - the enqueue's rule, frame by frame, and against a model of it: in
 *   test_xdp_tx_rule.c;
 * - the socket layer's choices without a socket: an MTU that needs
 *   multi-buffer is never bound without it (zero-copy without multi-buffer
 *   loses to copy with it; no bind at all when the kernel lacks
 *   XDP_USE_SG), and zero-copy frames keep to the device's segment limit.
 */

#include <inttypes.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <rte_eal.h>
#include <rte_errno.h>
#include <rte_mbuf.h>
#include <rte_random.h>

#include "mbufx_xdp_plan.h"
#include "test_xdp_tx.h"
#include "xdp_check.h"
#include "xdp_fake_kernel.h"

CHECK_COUNTER;
struct fk_tx fk;

static void
watchdog(int sig __rte_unused)
{
	static const char msg[] = "FAIL: the transmit core does not return\n";

	if (write(1, msg, sizeof(msg) - 1) < 0)
		_exit(1);
	_exit(1);
}

/* A queue pair on the UMEM pool mp, rings in plain memory, fake kernel. */
static int
pair_open(struct mbufx_xdp_rxq *rq, struct mbufx_xdp_txq *tq,
	  struct rte_mempool *mp)
{
	CHECK_EQ(mbufx_xdp_rxq_init(rq, mp, 5, 0, RING, SOCKET_ID_ANY), 0,
		 "rxq init");
	CHECK_EQ(mbufx_xdp_txq_init(tq, rq, RING, SOCKET_ID_ANY), 0,
		 "txq init");
	CHECK_EQ(fk_tx_init(&fk, tq, RING), 0, "rings");
	return 0;
}

/* Teardown as at socket close: the kernel owns nothing any more. */
static int
pair_close(struct mbufx_xdp_rxq *rq, struct mbufx_xdp_txq *tq,
	   struct rte_mempool *mp, struct rte_mempool *src)
{
	mbufx_xdp_txq_release(tq);
	fk_tx_fini(&fk);
	mbufx_xdp_txq_fini(tq);
	mbufx_xdp_rxq_fini(rq);
	CHECK(rte_mempool_avail_count(mp) == mp->size, "UMEM pool: %u of %u "
	      "back", rte_mempool_avail_count(mp), mp->size);
	CHECK(rte_mempool_avail_count(src) == NB_SRC, "source pool: %u of %u back",
	      rte_mempool_avail_count(src), NB_SRC);
	return 0;
}

/* A frame of len bytes (pattern seed + i) in nseg segments from pool. */
struct rte_mbuf *
frame(struct rte_mempool *pool, uint32_t len, uint32_t nseg, uint8_t seed)
{
	return frame_at(pool, pool, len, nseg, seed, -1);
}

/* Frame j the fake kernel received is len bytes of seed's pattern. */
int
frame_check(uint32_t j, uint32_t len, uint8_t seed)
{
	uint32_t i;

	CHECK(j < fk.nb_frames && j < FK_FRAMES, "frame %u not received (%u)",
	      j, fk.nb_frames);
	CHECK(fk.len[j] == len, "frame %u: %u bytes, %u sent", j, fk.len[j],
	      len);
	for (i = 0; i < len; i++)
		CHECK(fk.data[j][i] == (uint8_t)(seed + i), "frame %u byte %u",
		      j, i);
	return 0;
}

static uint32_t
max_descs(int zc, uint32_t zc_max_segs)
{
	return mbufx_xdp_tx_max_descs(zc, 1, zc_max_segs);
}

/* Zero-copy and copied frames of one and several descriptors, in order. */
static int
test_basic(struct mbufx_xdp_rxq *rqp, struct mbufx_xdp_txq *tqp,
	           struct rte_mempool *mp, struct rte_mempool *src)
{
	static const struct { int zc; uint32_t len, nseg; } f[] = {
		{ 0, 60, 1 }, { 0, 1514, 1 }, { 0, 3000, 2 }, { 0, 1500, 3 },
		{ 1, 60, 1 }, { 1, 1000, 1 }, { 1, 1500, 3 }, { 1, 4000, 2 },
	};
	struct rte_mbuf *pkts[RTE_DIM(f)];
	uint32_t i;

	for (i = 0; i < RTE_DIM(f); i++) {
		pkts[i] = frame(f[i].zc ? mp : src, f[i].len, f[i].nseg,
				(uint8_t)i);
		CHECK(pkts[i] != NULL, "frame %u", i);
	}
	CHECK_EQ(mbufx_xdp_tx_enqueue(tqp, pkts, RTE_DIM(f), max_descs(0, 0)),
		 RTE_DIM(f), "not all taken");
	CHECK(tqp->st.zc == 4 && tqp->st.copied == 4, "zc %" PRIu64 " copied %"
	      PRIu64, tqp->st.zc, tqp->st.copied);
	fk_tx_consume(&fk, RING);
	CHECK(fk.invalid == 0, "%" PRIu64 " invalid descriptors", fk.invalid);
	for (i = 0; i < RTE_DIM(f); i++)
		if (frame_check(i, f[i].len, (uint8_t)i) != 0)
			return -1;
	fk_tx_complete_all(&fk, 0);
	mbufx_xdp_tx_complete(tqp);
	CHECK_EQ(tqp->st.comp_unknown, 0, "unknown completions");
	return 0;
}

/* Buffers handed back by completions so far (recycle ring), emptied. */
unsigned int
freed(struct mbufx_xdp_rxq *rq, void **h, unsigned int max)
{
	unsigned int n = rte_ring_dequeue_burst(rq->recycle, h, max, NULL);

	rte_mempool_put_bulk(rq->mp, h, n);
	return n;
}

/* Completions out of order free the buffers they name, and only those. */
static int
test_out_of_order(struct mbufx_xdp_rxq *rqp, struct mbufx_xdp_txq *tqp,
	                  struct rte_mempool *mp, struct rte_mempool *src)
{
	struct rte_mbuf *pkts[32];
	void *sent[32], *h[64];
	unsigned int n, i, j, seen;

	for (i = 0; i < 4; i++) {
		pkts[i] = frame(mp, 100, 1, (uint8_t)i);
		CHECK(pkts[i] != NULL, "frame");
		sent[i] = pkts[i];
	}
	CHECK_EQ(mbufx_xdp_tx_enqueue(tqp, pkts, 4, max_descs(0, 0)), 4,
		 "taken");
	CHECK_EQ(fk_tx_consume(&fk, RING), 4, "consumed");
	/* the newest completes first, the others are still the device's */
	CHECK_EQ(fk_tx_complete_at(&fk, 3), 0, "complete");
	mbufx_xdp_tx_complete(tqp);
	n = freed(rqp, h, RTE_DIM(h));
	CHECK(n == 1 && h[0] == sent[3], "completion of frame 3 freed %u "
	      "buffer(s)%s", n, n == 1 && h[0] == sent[0] ?
	      ": frame 0's, still being sent" : "");
	fk_tx_complete_all(&fk, 0);
	mbufx_xdp_tx_complete(tqp);
	n = freed(rqp, h, RTE_DIM(h));
	CHECK(n == 3, "%u freed", n);

	/* 32 frames, every completion in reverse: each freed exactly once */
	for (i = 0; i < 32; i++) {
		pkts[i] = frame(mp, 60 + i, 1, (uint8_t)i);
		CHECK(pkts[i] != NULL, "frame");
		sent[i] = pkts[i];
	}
	CHECK_EQ(mbufx_xdp_tx_enqueue(tqp, pkts, 32, max_descs(0, 0)), 32,
		 "taken");
	fk_tx_consume(&fk, RING);
	fk_tx_complete_all(&fk, 1);
	mbufx_xdp_tx_complete(tqp);
	n = freed(rqp, h, RTE_DIM(h));
	CHECK(n == 32, "%u freed", n);
	for (i = 0; i < 32; i++) {
		for (seen = 0, j = 0; j < n; j++)
			seen += h[j] == sent[i];
		CHECK(seen == 1, "frame %u's buffer freed %u times", i, seen);
	}
	return 0;
}

/* Completions never given: no capacity lost, buffers back at teardown. */
static int
test_missing(struct mbufx_xdp_rxq *rqp, struct mbufx_xdp_txq *tqp,
	             struct rte_mempool *mp, struct rte_mempool *src)
{
	struct rte_mbuf *pkts[32];
	uint32_t round, i, offered = 0, taken = 0, lost = 0;
	int zc;

	for (round = 0; round < 20 * RING / 32; round++) {
		zc = round & 1;
		for (i = 0; i < 32; i++) {
			pkts[i] = frame(zc ? mp : src, 60, 1, (uint8_t)i);
			CHECK(pkts[i] != NULL, "frame");
		}
		i = mbufx_xdp_tx_enqueue(tqp, pkts, 32, max_descs(0, 0));
		offered += 32;
		taken += i;
		rte_pktmbuf_free_bulk(pkts + i, 32 - i);
		fk_tx_consume(&fk, RING);
		/* every seventh completion never comes */
		for (i = 0; i < fk.nb_owed; i++)
			if ((round * 32 + i) % 7 == 0) {
				fk_tx_lose_at(&fk, i);
				lost++;
			}
		fk_tx_complete_all(&fk, round % 3 == 0);
	}
	printf("missing: %u of %u frames taken, %u completions lost\n", taken,
	       offered, lost);
	CHECK(taken == offered, "transmit capacity lost: %u of %u frames "
	      "taken", taken, offered);
	CHECK(fk.nb_frames == offered, "%u frames sent", fk.nb_frames);
	mbufx_xdp_tx_complete(tqp);
	CHECK(tqp->nb_inflight == lost, "%" PRIu64 " descriptors in flight, "
	      "%u completions lost", tqp->nb_inflight, lost);
	mbufx_xdp_txq_release(tqp);
	CHECK(tqp->st.comp_missing == lost, "%" PRIu64 " missing counted, %u "
	      "lost", tqp->st.comp_missing, lost);
	return 0;
}

/*
 * Completion addresses that name no buffer in flight (below the buffer
 * offset, off a granule, past the UMEM, a pool buffer never sent, one
 * completed already) are counted and ignored: no buffer freed twice or
 * early, the real completions around them still free theirs.
 */
static int
test_unknown_completions(struct mbufx_xdp_rxq *rqp, struct mbufx_xdp_txq *tqp,
			 struct rte_mempool *mp, struct rte_mempool *src)
{
	struct rte_mbuf *pkts[2], *idle;
	uint64_t bogus[5], first;
	void *h[8];
	unsigned int i, n;

	RTE_SET_USED(src);
	for (i = 0; i < 2; i++) {
		pkts[i] = frame(mp, 60, 1, (uint8_t)i);
		CHECK(pkts[i] != NULL, "frame");
	}
	idle = rte_pktmbuf_alloc(mp);	/* of the pool, never sent */
	CHECK(idle != NULL, "idle mbuf");
	CHECK_EQ(mbufx_xdp_tx_enqueue(tqp, pkts, 2, max_descs(0, 0)), 2,
		 "taken");
	CHECK_EQ(fk_tx_consume(&fk, RING), 2, "consumed");
	first = fk.owed[0];
	bogus[0] = rqp->buf_offset - 64;
	bogus[1] = first + 8;
	bogus[2] = rqp->umem_len + rqp->buf_offset;
	bogus[3] = mbufx_xdp_umem_off(rqp, idle);
	CHECK_EQ(fk_tx_complete_at(&fk, 0), 0, "first completion");
	for (i = 0; i < 4; i++)
		CHECK_EQ(fk_tx_complete_addr(&fk, bogus[i]), 0, "bogus %u", i);
	bogus[4] = first;		/* the first buffer, again */
	CHECK_EQ(fk_tx_complete_addr(&fk, bogus[4]), 0, "duplicate");
	CHECK_EQ(fk_tx_complete_at(&fk, 0), 0, "second completion");
	mbufx_xdp_tx_complete(tqp);
	CHECK_EQ(tqp->st.comp_unknown, 5, "unknown completions");
	CHECK_EQ(tqp->nb_inflight, 0, "descriptors in flight");
	n = freed(rqp, h, RTE_DIM(h));
	CHECK_EQ(n, 2, "buffers freed");
	CHECK(h[0] != (void *)idle && h[1] != (void *)idle && h[0] != h[1],
	      "a buffer freed that was not sent, or twice");
	rte_pktmbuf_free(idle);
	return 0;
}

/* A device limit of 8 descriptors per frame (ice, i40e in zero-copy). */
static int
test_seg_limit(struct mbufx_xdp_rxq *rqp, struct mbufx_xdp_txq *tqp,
	               struct rte_mempool *mp, struct rte_mempool *src)
{
	struct rte_mbuf *pkts[3];

	fk.seg_limit = 8;
	pkts[0] = frame(mp, 1200, 12, 1);	/* zero-copy-able, 12 segments */
	pkts[1] = frame(src, 1200, 12, 2);	/* copied */
	pkts[2] = frame(mp, 800, 8, 3);		/* exactly the limit */
	CHECK(pkts[0] != NULL && pkts[1] != NULL && pkts[2] != NULL, "frames");
	CHECK_EQ(mbufx_xdp_tx_enqueue(tqp, pkts, 3, max_descs(1, 8)), 3,
		 "taken");
	fk_tx_consume(&fk, RING);
	CHECK(fk.seg_drops == 0, "%" PRIu64 " frame(s) over the device's "
	      "segment limit", fk.seg_drops);
	if (frame_check(0, 1200, 1) || frame_check(1, 1200, 2) ||
	    frame_check(2, 800, 3))
		return -1;
	fk_tx_complete_all(&fk, 0);
	mbufx_xdp_tx_complete(tqp);
	return 0;
}

/* pkt_len beyond the segments: dropped, counted, nothing sent. */
static int
test_malformed(struct mbufx_xdp_rxq *rqp, struct mbufx_xdp_txq *tqp,
	               struct rte_mempool *mp, struct rte_mempool *src)
{
	struct rte_mbuf *pkts[4];

	pkts[0] = frame(mp, 100, 1, 0);
	pkts[1] = frame(src, 100, 2, 0);
	pkts[2] = frame(src, 300, 1, 0);
	pkts[3] = frame(src, 64, 1, 9);		/* a good one after them */
	CHECK(pkts[0] && pkts[1] && pkts[2] && pkts[3], "frames");
	pkts[0]->pkt_len += 100;
	pkts[1]->pkt_len += 1;
	pkts[2]->pkt_len -= 1;
	alarm(20);
	CHECK_EQ(mbufx_xdp_tx_enqueue(tqp, pkts, 4, max_descs(0, 0)), 4,
		 "not taken");
	alarm(0);
	CHECK(tqp->st.errors == 3 && tqp->st.packets == 1, "errors %" PRIu64
	      " packets %" PRIu64, tqp->st.errors, tqp->st.packets);
	fk_tx_consume(&fk, RING);
	CHECK(fk.nb_frames == 1, "%u frames sent", fk.nb_frames);
	if (frame_check(0, 64, 9) != 0)
		return -1;
	fk_tx_complete_all(&fk, 0);
	mbufx_xdp_tx_complete(tqp);
	return 0;
}

/* Bind plans and descriptor limits (mbufx_xdp_plan.h, mbufx_xdp_tx.h). */
static int
test_bind_plan(void)
{
	static const struct {
		enum xdp_mode mode;
		int need_sg, kernel_sg;
		unsigned int n;
		uint16_t f[MBUFX_XDP_PLAN_MAX];
	} t[] = {
		{ MODE_AUTO, 0, 1, 4, { XDP_ZEROCOPY | XDP_USE_SG, XDP_ZEROCOPY,
					XDP_COPY | XDP_USE_SG, XDP_COPY } },
		{ MODE_AUTO, 1, 1, 2, { XDP_ZEROCOPY | XDP_USE_SG,
					XDP_COPY | XDP_USE_SG } },
		{ MODE_AUTO, 1, 0, 0, { 0 } },
		{ MODE_AUTO, 0, 0, 2, { XDP_ZEROCOPY, XDP_COPY } },
		{ MODE_COPY, 1, 1, 1, { XDP_COPY | XDP_USE_SG } },
		{ MODE_COPY, 0, 1, 2, { XDP_COPY | XDP_USE_SG, XDP_COPY } },
		{ MODE_ZC, 1, 1, 1, { XDP_ZEROCOPY | XDP_USE_SG } },
		{ MODE_ZC, 0, 0, 1, { XDP_ZEROCOPY } },
	};
	uint16_t f[MBUFX_XDP_PLAN_MAX];
	unsigned int i, j, n;

	for (i = 0; i < RTE_DIM(t); i++) {
		n = mbufx_xdp_bind_plan(t[i].mode, t[i].need_sg, t[i].kernel_sg,
					f);
		CHECK(n == t[i].n, "plan %u: %u binds, %u expected", i, n,
		      t[i].n);
		for (j = 0; j < n; j++)
			CHECK(f[j] == t[i].f[j], "plan %u bind %u: flags %#x, "
			      "%#x expected", i, j, f[j], t[i].f[j]);
	}
	CHECK_EQ(mbufx_xdp_tx_max_descs(1, 1, 8), 8, "zero-copy, 8 segments");
	CHECK_EQ(mbufx_xdp_tx_max_descs(1, 1, 64), MBUFX_XDP_MAX_FRAGS,
		 "zero-copy, 64 segments");
	CHECK_EQ(mbufx_xdp_tx_max_descs(1, 1, 0), 1, "zero-copy, unknown");
	CHECK_EQ(mbufx_xdp_tx_max_descs(0, 1, 0), MBUFX_XDP_MAX_FRAGS, "copy");
	CHECK_EQ(mbufx_xdp_tx_max_descs(0, 0, 8), 1, "no multi-buffer");
	printf("bind_plan: ok\n");
	return 0;
}

/* The kernel's wakeup: copy mode transmits inside it (up to 32), unless
 * told it is busy. */
static int wakes;
static int wake_busy;

static int
fake_wake(void *ctx)
{
	wakes++;
	if (wake_busy)
		return -EAGAIN;
	fk_tx_consume(ctx, MBUFX_XDP_TX_KICK_BATCH);
	return 0;
}

/* One poll of the Rx queue of the pair, never empty (one-way overload). */
static int
busy_poll(struct mbufx_xdp_rxq *rq)
{
	struct rte_mbuf *pkts[32];
	uint16_t nb;
	int idle;

	CHECK_EQ(fk_rx_deliver(rq, 60, 7), 0, "deliver");
	nb = mbufx_xdp_rx_burst(rq, pkts, RTE_DIM(pkts), &idle);
	CHECK(nb >= 1 && !idle, "rx burst: %u, idle %d", nb, idle);
	rte_pktmbuf_free_bulk(pkts, nb);
	return 0;
}

static int
test_kick(struct mbufx_xdp_rxq *rqp, struct mbufx_xdp_txq *tqp,
	  struct rte_mempool *mp, struct rte_mempool *src)
{
	struct rte_mbuf *pkts[32];
	int i, ret = -1;

	CHECK_EQ(fk_rx_init(rqp, RING), 0, "rings");
	rqp->pair = tqp;
	tqp->wake = fake_wake;
	tqp->wake_ctx = &fk;
	tqp->kick_delay = rte_get_tsc_hz() / 1000000 * 16;	/* 16 us */
	tqp->kick_retry = tqp->kick_delay;
	wakes = 0;
	wake_busy = 0;
	if (busy_poll(rqp) != 0)
		goto out;
	/* one frame: its kick waits for company */
	pkts[0] = frame(src, 100, 1, 1);
	CHECK_EQ_GOTO(out, mbufx_xdp_tx_enqueue(tqp, pkts, 1, max_descs(0, 0)),
		      1, "taken");
	mbufx_xdp_tx_flush(tqp);
	CHECK_GOTO(out, wakes == 0 && tqp->st.kicks_deferred == 1,
		   "a single frame kicked at once (%d wakeups)", wakes);
	/* the cycles inside wakeups are counted where the wakeup is made,
	 * never without one */
	CHECK_GOTO(out, tqp->st.kick_cycles == 0 && rqp->rx_kick_cycles == 0,
		   "wakeup cycles without a wakeup: Tx %" PRIu64 ", Rx %" PRIu64,
		   tqp->st.kick_cycles, rqp->rx_kick_cycles);
	rte_delay_us_block(200);	/* past the deadline */
	for (i = 0; i < 4; i++)
		if (busy_poll(rqp) != 0)
			goto out;
	CHECK_EQ_GOTO(out, fk.nb_frames, 1, "the deferred kick was not sent "
		      "while the Rx queue is busy (%d wakeups)", wakes);
	CHECK_GOTO(out, rqp->rx_kicks == 1 && rqp->rx_kick_cycles > 0 &&
		   tqp->st.kicks == 0 && tqp->st.kick_cycles == 0,
		   "kick from the Rx poll: %" PRIu64 " kicks, %" PRIu64
		   " cycles there; Tx path %" PRIu64 " kicks, %" PRIu64 " cycles",
		   rqp->rx_kicks, rqp->rx_kick_cycles, tqp->st.kicks,
		   tqp->st.kick_cycles);
	/* 32 frames kick at once; the kernel is busy and the kick gives up */
	for (i = 0; i < 32; i++)
		pkts[i] = frame(src, 100, 1, (uint8_t)(2 + i));
	wake_busy = 1;
	CHECK_EQ_GOTO(out, mbufx_xdp_tx_enqueue(tqp, pkts, 32,
						max_descs(0, 0)), 32, "taken");
	mbufx_xdp_tx_flush(tqp);
	wake_busy = 0;
	CHECK_GOTO(out, tqp->st.kicks > 0 && tqp->st.kick_cycles > 0,
		   "Tx path kicks: %" PRIu64 ", cycles inside them %" PRIu64,
		   tqp->st.kicks, tqp->st.kick_cycles);
	rte_delay_us_block(200);
	for (i = 0; i < 4; i++)
		if (busy_poll(rqp) != 0)
			goto out;
	CHECK_EQ_GOTO(out, fk.nb_frames, 33,
		      "a kick that gave up was not tried again");
	if (frame_check(0, 100, 1) != 0 || frame_check(32, 100, 33) != 0)
		goto out;
	ret = 0;
out:
	fk_tx_complete_all(&fk, 0);
	mbufx_xdp_tx_complete(tqp);
	rqp->pair = NULL;
	mbufx_xdp_rxq_release(rqp);
	fk_rx_fini(rqp);
	return ret;
}

static int
test_teardown(struct mbufx_xdp_rxq *rqp, struct mbufx_xdp_txq *tqp,
	      struct rte_mempool *mp, struct rte_mempool *src)
{
	struct rte_mbuf *pkts[8];
	unsigned int a0, a, posted, i;
	int ret = -1;

	CHECK_EQ(fk_rx_init(rqp, RING), 0, "rings");
	posted = (unsigned int)rqp->nb_posted;
	for (i = 0; i < 8; i++)
		pkts[i] = frame(mp, 200, 1, (uint8_t)i);
	CHECK_EQ_GOTO(out, mbufx_xdp_tx_enqueue(tqp, pkts, 8, max_descs(1, 1)),
		      8, "taken");
	fk_tx_consume(&fk, RING);
	for (i = 0; i < 3; i++)
		fk_tx_complete_at(&fk, 0);
	mbufx_xdp_tx_complete(tqp);	/* 3 done, 5 still the device's */
	a0 = rte_mempool_avail_count(mp);
	mbufx_xdp_qpair_closed(rqp, tqp, 1);
	a = rte_mempool_avail_count(mp);
	CHECK_GOTO(out, a == a0 + 3 && rqp->held, "zero-copy close gave back "
		   "%u buffers (3 completed; %u posted and 5 in flight must "
		   "wait for the kernel's release)", a - a0, posted);
	mbufx_xdp_qpair_released(rqp, tqp);
	a = rte_mempool_avail_count(mp);
	CHECK_GOTO(out, a == a0 + 3 + 5 + posted && !rqp->held,
		   "%u of %u held buffers back after the release", a - a0 - 3,
		   5 + posted);
	/* copy mode: everything back at close */
	mbufx_xdp_rxq_restock(rqp);
	for (i = 0; i < 8; i++)
		pkts[i] = frame(mp, 200, 1, (uint8_t)i);
	CHECK_EQ_GOTO(out, mbufx_xdp_tx_enqueue(tqp, pkts, 8, max_descs(0, 0)),
		      8, "taken");
	fk_tx_consume(&fk, RING);
	mbufx_xdp_qpair_closed(rqp, tqp, 0);
	CHECK_GOTO(out, rte_mempool_avail_count(mp) == NB_MBUF && !rqp->held,
		   "copy-mode close: %u of %u back",
		   rte_mempool_avail_count(mp), NB_MBUF);
	ret = 0;
out:
	fk.nb_owed = 0;
	mbufx_xdp_qpair_released(rqp, tqp);
	fk_rx_fini(rqp);
	return ret;
}

static int sel_argc;
static char **sel_argv;

/* One test on a fresh queue pair, torn down whatever it found; only those
 * named after the EAL's arguments (-- mixed room model), none named: all. */
static void
run(const char *name, test_fn fn, struct rte_mempool *mp,
    struct rte_mempool *src)
{
	struct mbufx_xdp_rxq rq;
	struct mbufx_xdp_txq tq;
	int f = check_failures, i, named = sel_argc <= 1;

	for (i = 1; i < sel_argc; i++)
		named |= strcmp(sel_argv[i], name) == 0;
	if (!named)
		return;

	if (pair_open(&rq, &tq, mp) != 0)
		return;
	fn(&rq, &tq, mp, src);
	pair_close(&rq, &tq, mp, src);
	printf("%s: %s\n", name, check_failures == f ? "ok" : "FAIL");
}

int
main(int argc, char **argv)
{
	struct rte_mempool *mp, *src, *jumbo;
	uint64_t seed;
	int ret;

	setvbuf(stdout, NULL, _IOLBF, 0);
	signal(SIGALRM, watchdog);
	ret = rte_eal_init(argc, argv);
	if (ret < 0) {
		printf("SKIP: EAL init failed: %s\n", rte_strerror(rte_errno));
		return 77;
	}
	sel_argc = argc - ret;
	sel_argv = argv + ret;
	mp = rte_pktmbuf_pool_create("xdp_tx_umem", NB_MBUF, 0, 0, 2176,
				     SOCKET_ID_ANY);
	src = rte_pktmbuf_pool_create("xdp_tx_src", NB_SRC, 0, 0, 2176,
				      SOCKET_ID_ANY);
	jumbo = rte_pktmbuf_pool_create("xdp_tx_jumbo", NB_JUMBO, 0, 0, 9344,
					SOCKET_ID_ANY);
	if (mp == NULL || src == NULL || jumbo == NULL) {
		printf("FAIL: pools: %s\n", rte_strerror(rte_errno));
		return 1;
	}
	test_bind_plan();
	run("basic", test_basic, mp, src);
	run("out_of_order", test_out_of_order, mp, src);
	run("missing", test_missing, mp, src);
	run("unknown_completions", test_unknown_completions, mp, src);
	run("seg_limit", test_seg_limit, mp, src);
	run("malformed", test_malformed, mp, src);
	run("kick", test_kick, mp, src);
	run("teardown", test_teardown, mp, src);
	run("mixed", test_mixed, mp, src);
	run("mixed_jumbo", test_mixed_jumbo, jumbo, src);
	run("room", test_room, mp, src);
	seed = getenv("MBUFX_XDP_TX_SEED") != NULL ?
		strtoull(getenv("MBUFX_XDP_TX_SEED"), NULL, 0) : 20261202;
	printf("model: seed %" PRIu64 " (MBUFX_XDP_TX_SEED)\n", seed);
	rte_srand(seed);
	run("model", test_model, mp, src);
	run("model_jumbo", test_model_jumbo, jumbo, src);
	rte_mempool_free(jumbo);
	rte_mempool_free(mp);
	rte_mempool_free(src);
	rte_eal_cleanup();
	printf("%s: %d failure(s)\n", check_failures ? "FAIL" : "ok",
	       check_failures);
	return check_failures ? 1 : 0;
}
