/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The mbufx authors
 */

/*
 * mbufx-xdp-zc-bench: late metadata attach against the classic refill in
 * net_mbufx_xdp's io path, timed, with the fake kernel playing a zero-copy
 * NIC (devtools/bench-xdp.sh ab, xdp_ab.json).
 *
 *     mbufx-xdp-zc-bench EAL... -- [REPS [BURST [dma|plain]]]
 *
 * Why: on veth (copy mode) the kernel copies every frame inside the
 * PMD's syscalls on the forwarding core, three quarters of its cycles,
 * and a port polled at the kernel's rate sees bursts of one or two. A
 * zero-copy NIC puts neither there: the device writes the frame into the
 * posted buffer, the kernel's driver writes the RX descriptor, and the
 * PMD's own work (refill, completion, TX descriptors, completions) is all
 * the forwarding core does per packet. This program times exactly that
 * work, the same code as the PMD (the driver's core library), in both
 * refill modes.
 *
 * The topology of bench-xdp.sh's A/B, as mbufx-xdp-rx-icount io runs it:
 * a receiving queue (4096-entry fill and RX rings), its frames sent
 * straight back out (testpmd io) on a 4096-entry TX ring paired with a
 * second receive queue of the same pool that receives nothing; completions
 * fill that queue's recycle ring and then go to the pool, and the
 * receiving queue refills from the pool. Each refill mode has its own
 * three queues; both share one pool and run in one process, interleaved,
 * the order swapped every repetition.
 *
 * Per burst (keeping pace, as a NIC at line rate with a PMD that keeps
 * up): the device delivers BURST (default 32) 64-byte frames and the DMA
 * completes (a full fence: the device's stores drain in its own, untimed,
 * step). dma, the default: the frame's lines written with non-temporal
 * stores, outside this core's caches, as DMA leaves them; plain: with
 * plain stores, as the kernel's copy in copy mode leaves them in this
 * core's caches. The RX descriptors are plain stores either way, as the
 * kernel's driver writes them. Then rx_burst and tx_enqueue are timed,
 * then the device consumes the TX ring and completes every descriptor
 * (untimed: the NIC's work; dma reads no frame through this core's
 * caches, plain reads them as the kernel's copy does). The kick (sendto) is the kernel's business and not called.
 * Timestamps wait for a window's instructions, not for its stores and
 * prefetches (LFENCE, RDTSC, LFENCE): those drain while the application
 * runs, as in a PMD. The cost of an empty window is subtracted.
 *
 * A run: a 64 MiB write sweep (evicts L1/L2), a warm-up of four laps of
 * both rings, then PKTS packets measured; its figure is the mean over its
 * bursts, leaving out bursts above 20 times the run's median (preemption).
 * Printed per repetition and mode, one line each:
 *
 *     zc REP MODE rx X tx Y hdr Z
 *
 * (TSC cycles per packet in rx_burst and in tx_enqueue, header lines
 * written per packet); devtools/xdpbench.py takes the medians.
 */

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_cycles.h>
#include <rte_eal.h>
#include <rte_errno.h>
#include <rte_malloc.h>
#include <rte_mbuf.h>

#include "bench_util.h"
#include "xdp_fake_kernel.h"

#define RING 4096
#define BURST 32
#define NB_MBUF (2 * (2 * RING + 1024))
#define PKTS (256u * 1024)
#define WARMUP (4u * 2 * RING)
#define EVICT (64u << 20)
#define TRIM 20
#define REPS_MAX 63

struct side {
	const char *name;
	struct mbufx_xdp_rxq q;		/* receives */
	struct mbufx_xdp_rxq q2;	/* the TX queue's pair, receives nothing */
	struct mbufx_xdp_txq tq;
	struct fk_tx fk;
};

static struct side sides[2];
static uint32_t win_rx[PKTS], win_tx[PKTS];
static uint8_t *evict_buf;

static int
cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return x < y ? -1 : x > y;
}

/* Median cost of an empty window, in TSC cycles. */
static uint32_t
empty_window(void)
{
	static uint32_t w[4096];
	unsigned int i;

	for (i = 0; i < RTE_DIM(w); i++) {
		uint64_t t0 = bench_stamp();

		w[i] = (uint32_t)(bench_stamp() - t0);
	}
	qsort(w, RTE_DIM(w), sizeof(w[0]), cmp_u32);
	return w[RTE_DIM(w) / 2];
}

/* Mean of a run's windows, those above TRIM times the median left out. */
static double
trimmed_mean(const uint32_t *w, unsigned int n)
{
	static uint32_t s[PKTS];
	uint64_t sum = 0;
	unsigned int i, k = 0;
	uint32_t lim;

	memcpy(s, w, n * sizeof(*w));
	qsort(s, n, sizeof(*s), cmp_u32);
	lim = s[n / 2] * TRIM + 1;
	for (i = 0; i < n; i++)
		if (w[i] <= lim) {
			sum += w[i];
			k++;
		}
	return k ? (double)sum / k : 0;
}

/*
 * One burst: the device's delivery, the timed rx_burst and tx_enqueue,
 * the device's transmit and completions. Returns the packets received,
 * or -1 when nothing moved (a broken queue).
 */
static int
one_burst(struct side *s, unsigned int burst, uint32_t overhead,
	  uint32_t *rx_cyc, uint32_t *tx_cyc)
{
	struct rte_mbuf *pkts[BURST];
	uint64_t t0, t1, t2;
	unsigned int i;
	uint16_t nb, sent;
	int idle;

	for (i = 0; i < burst; i++)
		if (fk_rx_deliver(&s->q, 60, (uint8_t)i) != 0)
			break;
	/* the DMA is complete before the poll: its stores drain here */
	rte_mb();
	t0 = bench_stamp();
	nb = mbufx_xdp_rx_burst(&s->q, pkts, (uint16_t)burst, &idle);
	t1 = bench_stamp();
	sent = mbufx_xdp_tx_enqueue(&s->tq, pkts, nb, 1);
	t2 = bench_stamp();
	fk_tx_consume(&s->fk, sent);
	fk_tx_complete_all(&s->fk, 0);
	if (sent < nb)
		rte_pktmbuf_free_bulk(pkts + sent, nb - sent);
	if (nb == 0 && idle == 0)
		return -1;
	*rx_cyc = (uint32_t)RTE_MAX((int64_t)(t1 - t0) - overhead, 0);
	*tx_cyc = (uint32_t)RTE_MAX((int64_t)(t2 - t1) - overhead, 0);
	return nb;
}

static int
run(struct side *s, unsigned int burst, uint32_t overhead, double *rx,
    double *tx, double *hdr)
{
	unsigned int done = 0, nwin = 0, i;
	uint64_t pk0, hl0;
	uint32_t rc, tc;
	int nb;

	for (i = 0; i < EVICT; i += 64)
		evict_buf[i] = (uint8_t)i;
	while (done < WARMUP) {
		nb = one_burst(s, burst, overhead, &rc, &tc);
		if (nb < 0)
			return -1;
		done += nb;
	}
	pk0 = s->q.st.packets;
	hl0 = s->q.st.hdr_lines;
	for (done = 0; done < PKTS; ) {
		nb = one_burst(s, burst, overhead, &rc, &tc);
		if (nb < 0)
			return -1;
		if (nb == 0)
			continue;
		/* per packet, kept as hundredths of a cycle */
		win_rx[nwin] = rc * 100u / nb;
		win_tx[nwin] = tc * 100u / nb;
		nwin++;
		done += nb;
	}
	*rx = trimmed_mean(win_rx, nwin) / 100;
	*tx = trimmed_mean(win_tx, nwin) / 100;
	*hdr = (double)(s->q.st.hdr_lines - hl0) /
		(double)(s->q.st.packets - pk0);
	return 0;
}

static int
side_init(struct side *s, struct rte_mempool *mp, const char *name,
	  enum mbufx_xdp_refill_mode mode, uint16_t port)
{
	s->name = name;
	if (mbufx_xdp_rxq_init(&s->q, mp, port, 0, RING, SOCKET_ID_ANY) != 0)
		return -1;
	s->q.refill_mode = mode;
	if (fk_rx_init(&s->q, RING) != 0 ||
	    mbufx_xdp_rxq_init(&s->q2, mp, port + 1, 0, RING,
			       SOCKET_ID_ANY) != 0 ||
	    mbufx_xdp_txq_init(&s->tq, &s->q2, RING, SOCKET_ID_ANY) != 0 ||
	    fk_tx_init(&s->fk, &s->tq, RING) != 0)
		return -1;
	return 0;
}

static void
side_fini(struct side *s)
{
	fk_tx_complete_all(&s->fk, 0);
	mbufx_xdp_tx_complete(&s->tq);
	mbufx_xdp_txq_release(&s->tq);
	fk_tx_fini(&s->fk);
	mbufx_xdp_txq_fini(&s->tq);
	mbufx_xdp_rxq_fini(&s->q2);
	fk_rx_fini(&s->q);
	mbufx_xdp_rxq_fini(&s->q);
}

int
main(int argc, char **argv)
{
	unsigned long reps = 15, burst = BURST, r;
	int dma = 1;
	struct rte_mempool *mp;
	uint32_t overhead;
	unsigned int i, in_use;
	int ret, rc = 0;

	ret = rte_eal_init(argc, argv);
	if (ret < 0) {
		printf("SKIP: EAL init failed: %s\n", rte_strerror(rte_errno));
		return 77;
	}
	argc -= ret;
	argv += ret;
	if (argc >= 2)
		reps = strtoul(argv[1], NULL, 0);
	if (argc >= 3)
		burst = strtoul(argv[2], NULL, 0);
	if (argc >= 4)
		dma = strcmp(argv[3], "dma") == 0 ? 1 :
			strcmp(argv[3], "plain") == 0 ? 0 : -1;
	if (argc > 4 || reps < 1 || reps > REPS_MAX || burst < 1 ||
	    burst > BURST || dma < 0) {
		printf("usage: mbufx-xdp-zc-bench EAL... -- [REPS 1..%d "
		       "[BURST 1..%d [dma|plain]]]\n", REPS_MAX, BURST);
		return 2;
	}
	evict_buf = malloc(EVICT);
	mp = rte_pktmbuf_pool_create("zc", NB_MBUF, 256, 0, 2176,
				     SOCKET_ID_ANY);
	if (evict_buf == NULL || mp == NULL) {
		printf("FAIL: pool: %s\n", rte_strerror(rte_errno));
		return 1;
	}
	fk_dma = dma;
	if (side_init(&sides[0], mp, "late", MBUFX_XDP_REFILL_LATE, 0) != 0 ||
	    side_init(&sides[1], mp, "classic", MBUFX_XDP_REFILL_CLASSIC,
		      2) != 0) {
		printf("FAIL: queues: %s\n", rte_strerror(rte_errno));
		return 1;
	}
	overhead = empty_window();
	printf("zc: %lu repetitions, bursts of %lu, frames written %s, %u "
	       "packets per run, empty window %u cycles\n", reps, burst,
	       dma ? "as DMA" : "with plain stores", PKTS, overhead);
	for (r = 0; r < reps && rc == 0; r++) {
		for (i = 0; i < 2; i++) {
			struct side *s = &sides[(i + r) % 2];
			double rx, tx, hdr;

			if (run(s, (unsigned int)burst, overhead, &rx, &tx,
				&hdr) != 0) {
				printf("FAIL: %s: no progress\n", s->name);
				rc = 1;
				break;
			}
			printf("zc %lu %s rx %.2f tx %.2f hdr %.2f\n", r + 1,
			       s->name, rx, tx, hdr);
			fflush(stdout);
		}
	}
	side_fini(&sides[0]);
	side_fini(&sides[1]);
	in_use = rte_mempool_in_use_count(mp);
	if (in_use != 0) {
		printf("FAIL: %u mbufs not back in the pool\n", in_use);
		rc = 1;
	}
	rte_mempool_free(mp);
	free(evict_buf);
	rte_eal_cleanup();
	return rc;
}
