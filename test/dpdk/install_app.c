/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The mbufx authors
 */

/*
 * An application outside the tree, built by test/dpdk/install.sh from an
 * installed mbufx only:
 *
 *     cc install_app.c $(pkg-config --cflags --libs libmbufx)
 *
 * and run with the installed driver loaded as a plugin:
 *
 *     ./install_app -l 0 --no-pci -d <libdir>/mbufx/pmds
 *
 * It includes the umbrella header (every header it pulls in must be
 * installed), calls the library, and makes a pktmbuf pool on the "mbufx"
 * ops: allocation, free and the pool count must work, and the pool must
 * report the mbufx ops. Exit 0 on success, 1 with a message otherwise.
 */

#include <stdio.h>
#include <string.h>

#include <rte_eal.h>
#include <rte_errno.h>
#include <rte_lcore.h>
#include <rte_mbuf.h>
#include <rte_mempool.h>

#include <mbufx.h>

#define NB_MBUF 4095
#define NB_ALLOC 64

static int
check_pool(void)
{
	struct rte_mbuf *m[NB_ALLOC];
	struct rte_mempool *mp;
	const char *ops;
	int ret = 1;

	mp = rte_pktmbuf_pool_create_by_ops("install_app", NB_MBUF, 256, 0,
					    RTE_MBUF_DEFAULT_BUF_SIZE,
					    rte_socket_id(), "mbufx");
	if (mp == NULL) {
		printf("pool on ops mbufx: %s\n", rte_strerror(rte_errno));
		return 1;
	}
	ops = rte_mempool_get_ops(mp->ops_index)->name;
	if (strcmp(ops, "mbufx") != 0) {
		printf("pool ops is %s, not mbufx\n", ops);
		goto out;
	}
	if (rte_pktmbuf_alloc_bulk(mp, m, NB_ALLOC) != 0) {
		printf("alloc of %d mbufs failed\n", NB_ALLOC);
		goto out;
	}
	if (rte_mempool_in_use_count(mp) != NB_ALLOC) {
		printf("in use %u, want %d\n", rte_mempool_in_use_count(mp),
		       NB_ALLOC);
		goto out;
	}
	rte_pktmbuf_free_bulk(m, NB_ALLOC);
	if (rte_mempool_avail_count(mp) != NB_MBUF) {
		printf("avail %u after free, want %d\n",
		       rte_mempool_avail_count(mp), NB_MBUF);
		goto out;
	}
	printf("pool %s: %d mbufs on ops %s, %d allocated and freed\n",
	       mp->name, NB_MBUF, ops, NB_ALLOC);
	ret = 0;
out:
	rte_mempool_free(mp);
	return ret;
}

int
main(int argc, char **argv)
{
	int ret;

	if (rte_eal_init(argc, argv) < 0) {
		printf("EAL init: %s\n", rte_strerror(rte_errno));
		return 1;
	}
	printf("libmbufx %s\n", mbufx_version());
	ret = check_pool();
	rte_eal_cleanup();
	return ret;
}
