/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The mbufx authors
 */

/*
 * mbufx-xdp-rx-icount: the receive loop of net_mbufx_xdp in one refill mode
 * over the fake kernel, for an instruction and cache count of the PMD's
 * receive functions apart from everything else (devtools/bench-xdp.sh's A/B
 * runs it under callgrind: mbufx_xdp_rx_burst() inclusive, per packet).
 *
 *     mbufx-xdp-rx-icount EAL... -- late|classic PACKETS [BURST
 *                                   [free|io|echo [FRAGS]]]
 *
 * A 4096-entry fill and RX ring, 64-byte frames delivered BURST (1..32,
 * default 32) at a time and received in bursts of BURST (a port polled
 * faster than frames arrive sees bursts of one or two). FRAGS (default 1,
 * at most 18): frames of FRAGS descriptors of 1024 bytes each instead,
 * received as mbuf chains (scatter on), for the conversion's multi-buffer
 * path. free: the
 * application frees them (the default), so that every buffer goes around
 * the whole ring as on the real port. io: they go out again as testpmd's
 * io forwarding sends them to the other port, mbufx_xdp_tx_enqueue()
 * (zero-copy) on a TX ring of the same size paired with a second Rx queue
 * on the same pool that receives nothing (bench-xdp.sh's topology): the
 * fake kernel consumes and completes them, the completions fill that
 * queue's recycle ring and then go to the pool, and the receiving queue
 * refills from the pool. echo: the same with the TX ring paired with the
 * receiving queue, so that completions come back through its recycle ring.
 * Either is the PMD's whole io path apart from the kick
 * (mbufx_xdp_tx_enqueue() inclusive: descriptors and completions). Prints
 * the TSC cycles per packet
 * spent in mbufx_xdp_rx_burst() (a rough figure on a shared machine:
 * compare modes interleaved, by medians).
 */

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_cycles.h>
#include <rte_eal.h>
#include <rte_errno.h>
#include <rte_mbuf.h>

#include "xdp_fake_kernel.h"

#define RING 4096
#define BURST 32
#define NB_MBUF (2 * RING + 1024)

static struct fk_tx fk;

int
main(int argc, char **argv)
{
	struct rte_mbuf *pkts[BURST];
	struct rte_mempool *mp;
	struct mbufx_xdp_rxq q, q2;
	struct mbufx_xdp_txq tq;
	unsigned long n, burst = BURST, frags = 1, done = 0;
	uint64_t t0, cycles = 0;
	int ret, idle, i, mode, io = 0;
	uint16_t nb, sent;

	ret = rte_eal_init(argc, argv);
	if (ret < 0) {
		printf("SKIP: EAL init failed: %s\n", rte_strerror(rte_errno));
		return 77;
	}
	argc -= ret;
	argv += ret;
	if (argc >= 4)
		burst = strtoul(argv[3], NULL, 0);
	if (argc >= 6)
		frags = strtoul(argv[5], NULL, 0);
	if (argc >= 5)
		io = strcmp(argv[4], "io") == 0 ? 1 :
			strcmp(argv[4], "echo") == 0 ? 2 :
			strcmp(argv[4], "free") == 0 ? 0 : -1;
	if (argc < 3 || argc > 6 || burst < 1 || burst > BURST || io < 0 ||
	    frags < 1 || frags > MBUFX_XDP_MAX_FRAGS ||
	    (strcmp(argv[1], "late") != 0 &&
	     strcmp(argv[1], "classic") != 0)) {
		printf("usage: mbufx-xdp-rx-icount EAL... -- late|classic N "
		       "[BURST 1..%d [free|io|echo [FRAGS 1..%d]]]\n", BURST,
		       MBUFX_XDP_MAX_FRAGS);
		return 2;
	}
	mode = strcmp(argv[1], "classic") == 0 ? MBUFX_XDP_REFILL_CLASSIC :
		MBUFX_XDP_REFILL_LATE;
	n = strtoul(argv[2], NULL, 0);
	mp = rte_pktmbuf_pool_create("icount", NB_MBUF, 256, 0, 2176,
				     SOCKET_ID_ANY);
	if (mp == NULL || mbufx_xdp_rxq_init(&q, mp, 0, 0, RING,
					     SOCKET_ID_ANY) != 0) {
		printf("FAIL: pool or queue: %s\n", rte_strerror(rte_errno));
		return 1;
	}
	q.refill_mode = mode;
	q.scatter = 1;
	if (fk_rx_init(&q, RING) != 0) {
		printf("FAIL: rings\n");
		return 1;
	}
	if (io == 1 && mbufx_xdp_rxq_init(&q2, mp, 1, 0, RING,
					  SOCKET_ID_ANY) != 0) {
		printf("FAIL: second queue\n");
		return 1;
	}
	if (io && (mbufx_xdp_txq_init(&tq, io == 1 ? &q2 : &q, RING,
				      SOCKET_ID_ANY) != 0 ||
		   fk_tx_init(&fk, &tq, RING) != 0)) {
		printf("FAIL: transmit queue\n");
		return 1;
	}
	while (done < n) {
		for (i = 0; i < (int)burst; i++)
			if (fk_rx_deliver_frame(&q, (uint32_t)frags,
						frags == 1 ? 60 : 1024,
						(uint8_t)i) != 0)
				break;
		t0 = rte_rdtsc_precise();
		nb = mbufx_xdp_rx_burst(&q, pkts, (uint16_t)burst, &idle);
		cycles += rte_rdtsc_precise() - t0;
		sent = 0;
		if (io) {
			sent = mbufx_xdp_tx_enqueue(&tq, pkts, nb, 1);
			fk_tx_consume(&fk, sent);
			fk_tx_complete_all(&fk, 0);
		}
		rte_pktmbuf_free_bulk(pkts + sent, nb - sent);
		done += nb;
		if (nb == 0 && idle == 0) {
			printf("FAIL: no progress\n");
			return 1;
		}
	}
	printf("%s: %lu packets, %" PRIu64 " header lines written (%.2f per "
	       "packet), rx_burst %.1f TSC cycles per packet\n", argv[1], done,
	       q.st.hdr_lines, (double)q.st.hdr_lines / (double)done,
	       (double)cycles / (double)done);
	if (io) {
		fk_tx_complete_all(&fk, 0);
		mbufx_xdp_tx_complete(&tq);
		mbufx_xdp_txq_release(&tq);
		fk_tx_fini(&fk);
		mbufx_xdp_txq_fini(&tq);
	}
	if (io == 1)
		mbufx_xdp_rxq_fini(&q2);
	fk_rx_fini(&q);
	mbufx_xdp_rxq_fini(&q);
	rte_mempool_free(mp);
	rte_eal_cleanup();
	return 0;
}
