/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The mbufx authors
 */

/*
 * mbufx-xdp-rx-icount: the receive loop of net_mbufx_xdp in one refill mode
 * over the fake kernel, for an instruction and cache count of the PMD's
 * receive functions apart from everything else (devtools/bench-xdp.sh's A/B
 * runs it under callgrind: mbufx_xdp_rx_burst() inclusive, per packet).
 *
 *     mbufx-xdp-rx-icount EAL... -- late|classic PACKETS
 *
 * A 4096-entry fill and RX ring, 64-byte frames delivered 32 at a time,
 * received in bursts of 32 and freed (the application's part), so that
 * every buffer goes around the whole ring as on the real port. Prints the
 * TSC cycles per packet spent in mbufx_xdp_rx_burst() (a rough figure on a
 * shared machine: compare modes interleaved, by medians).
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

int
main(int argc, char **argv)
{
	struct rte_mbuf *pkts[BURST];
	struct rte_mempool *mp;
	struct mbufx_xdp_rxq q;
	unsigned long n, done = 0;
	uint64_t t0, cycles = 0;
	int ret, idle, i, mode;
	uint16_t nb;

	ret = rte_eal_init(argc, argv);
	if (ret < 0) {
		printf("SKIP: EAL init failed: %s\n", rte_strerror(rte_errno));
		return 77;
	}
	argc -= ret;
	argv += ret;
	if (argc != 3 || (strcmp(argv[1], "late") != 0 &&
			  strcmp(argv[1], "classic") != 0)) {
		printf("usage: mbufx-xdp-rx-icount EAL... -- late|classic N\n");
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
	if (fk_rx_init(&q, RING) != 0) {
		printf("FAIL: rings\n");
		return 1;
	}
	while (done < n) {
		for (i = 0; i < BURST; i++)
			if (fk_rx_deliver(&q, 60, (uint8_t)i) != 0)
				break;
		t0 = rte_rdtsc_precise();
		nb = mbufx_xdp_rx_burst(&q, pkts, BURST, &idle);
		cycles += rte_rdtsc_precise() - t0;
		rte_pktmbuf_free_bulk(pkts, nb);
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
	fk_rx_fini(&q);
	mbufx_xdp_rxq_fini(&q);
	rte_mempool_free(mp);
	rte_eal_cleanup();
	return 0;
}
