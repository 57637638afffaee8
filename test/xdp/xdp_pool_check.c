/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The mbufx authors
 */

/*
 * mbufx-xdp-pool-check: the pools an AF_XDP port must refuse, and one it
 * must take, through the plain ethdev API (what any DPDK program calls).
 *
 *     mbufx-xdp-pool-check EAL-ARGS --vdev net_mbufx_xdp0,iface=IF
 *
 * test_xdp.py (case bad_pool) runs it inside a network namespace that has
 * the veth IF. The UMEM of a queue is its pool's memory, one address range:
 *
 *   1. a pool populated from two separate address ranges (a gap between
 *      them): rte_eth_rx_queue_setup() fails with a negative errno;
 *   2. a pool whose buffers are pinned external memory (the buffers are not
 *      in the pool's own memory): refused;
 *   3. a pool in memory the EAL does not manage (an anonymous mapping),
 *      in one address range: taken like EAL memory, the port starts, and
 *      setting the queue up again on another pool gives every mbuf back;
 *   4. a data room below the kernel's smallest UMEM chunk (2048): refused;
 *   5. an MTU of 9000 on 2176-byte buffers without Rx scatter: refused;
 *   6. control: a plain one-chunk pool is taken, the port starts, stops
 *      and closes.
 * After every step every pool must hold all its mbufs again (nothing kept
 * by a failed setup or by close). One line per step (ok, or the failed
 * check: xdp_check.h); exit 0 when all hold, 1 otherwise (77 when the port
 * does not exist: the PMD is not loaded).
 */

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include <rte_eal.h>
#include <rte_errno.h>
#include <rte_ethdev.h>
#include <rte_malloc.h>
#include <rte_mbuf.h>
#include <rte_mempool.h>

#include "xdp_check.h"

#define NB_MBUF 1024
#define ROOM RTE_MBUF_DEFAULT_BUF_SIZE
#define NB_EXT 512	/* 512 x 2176 B: 1.06 MiB, inside one 2 MiB page */

CHECK_COUNTER;

/* Every mbuf of mp is back in the pool. */
static int
pool_full(struct rte_mempool *mp)
{
	return rte_mempool_avail_count(mp) == mp->size;
}

/* An empty pktmbuf pool of NB_MBUF buffers of ROOM bytes, ops ring_mp_mc:
 * the caller populates it. */
static struct rte_mempool *
empty_pool(const char *name)
{
	struct rte_pktmbuf_pool_private priv = {
		.mbuf_data_room_size = ROOM, .mbuf_priv_size = 0,
	};
	struct rte_mempool *mp;

	mp = rte_mempool_create_empty(name, NB_MBUF,
				      sizeof(struct rte_mbuf) + ROOM, 0,
				      sizeof(priv), SOCKET_ID_ANY, 0);
	if (mp == NULL)
		return NULL;
	if (rte_mempool_set_ops_byname(mp, "ring_mp_mc", NULL) != 0) {
		rte_mempool_free(mp);
		return NULL;
	}
	rte_pktmbuf_pool_init(mp, &priv);
	return mp;
}

/* mp after its population (ok: every call succeeded): its mbufs
 * initialised, or NULL and mp freed when it is not full. */
static struct rte_mempool *
pool_ready(struct rte_mempool *mp, int ok)
{
	if (!ok || mp->populated_size != mp->size) {
		rte_mempool_free(mp);
		return NULL;
	}
	rte_mempool_obj_iter(mp, rte_pktmbuf_init, NULL);
	return mp;
}

/* A pktmbuf pool populated from [base, base + half) and
 * [base + 2 * half, base + 3 * half): one object-free gap in between. */
static struct rte_mempool *
split_pool(void **mem)
{
	unsigned int elt = sizeof(struct rte_mbuf) + ROOM;
	size_t half = (size_t)(NB_MBUF / 2 + 8) * (elt + 64) + 65536;
	struct rte_mempool *mp = empty_pool("xdpchk_split");
	char *m;

	if (mp == NULL)
		return NULL;
	m = rte_malloc(NULL, 3 * half, 4096);
	if (m == NULL)
		return pool_ready(mp, 0);
	*mem = m;
	return pool_ready(mp,
		rte_mempool_populate_virt(mp, m, half, 4096, NULL, NULL) > 0 &&
		rte_mempool_populate_virt(mp, m + 2 * half, half, 4096, NULL,
					  NULL) > 0);
}

/* A pktmbuf pool in one range of an anonymous mapping (no EAL memory):
 * one chunk, whatever the pages' physical addresses. */
static struct rte_mempool *
anon_pool(void **mem, size_t *len)
{
	unsigned int elt = sizeof(struct rte_mbuf) + ROOM;
	size_t sz = RTE_ALIGN_CEIL((size_t)(NB_MBUF + 8) * (elt + 64) + 65536,
				   4096);
	struct rte_mempool *mp = empty_pool("xdpchk_anon");
	void *m;

	if (mp == NULL)
		return NULL;
	m = mmap(NULL, sz, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
		 -1, 0);
	if (m == MAP_FAILED)
		return pool_ready(mp, 0);
	*mem = m;
	*len = sz;
	return pool_ready(mp, rte_mempool_populate_iova(mp, m, RTE_BAD_IOVA,
							sz, NULL, NULL) > 0);
}

/* Configure port 0 with one queue pair (mtu 0: the default) and set up its
 * Rx queue on mp; returns rte_eth_rx_queue_setup()'s result. */
static int
try_rx(uint16_t port, struct rte_mempool *mp, uint16_t mtu, uint64_t rx_off)
{
	struct rte_eth_conf conf;
	int ret;

	memset(&conf, 0, sizeof(conf));
	conf.rxmode.mtu = mtu;
	conf.rxmode.offloads = rx_off;
	ret = rte_eth_dev_configure(port, 1, 1, &conf);
	if (ret != 0)
		return ret;
	return rte_eth_rx_queue_setup(port, 0, 256, rte_eth_dev_socket_id(port),
				      NULL, mp);
}

/* try_rx() at MTU 1500, a Tx queue, and start: 0 or the first error. */
static int
try_start(uint16_t port, struct rte_mempool *mp)
{
	int ret = try_rx(port, mp, 1500, 0);

	if (ret == 0)
		ret = rte_eth_tx_queue_setup(port, 0, 256,
					     rte_eth_dev_socket_id(port), NULL);
	if (ret == 0)
		ret = rte_eth_dev_start(port);
	return ret;
}

/* Step what: mp is taken and the port starts; after a stop, queue 0 set up
 * again on other releases it, and every mbuf of mp is back. */
static int
taken(uint16_t port, const char *what, struct rte_mempool *mp,
      struct rte_mempool *other)
{
	int ret;

	CHECK(mp != NULL && other != NULL, "%s: could not build the pool: %s",
	      what, rte_strerror(rte_errno));
	ret = try_start(port, mp);
	CHECK_EQ(ret, 0, "%s: refused or not started: %s", what,
		 strerror(-ret));
	ret = rte_eth_dev_stop(port);
	CHECK_EQ(ret, 0, "%s: stop: %s", what, strerror(-ret));
	ret = rte_eth_rx_queue_setup(port, 0, 256, rte_eth_dev_socket_id(port),
				     NULL, other);
	CHECK_EQ(ret, 0, "%s: queue 0 again on %s: %s", what, other->name,
		 strerror(-ret));
	CHECK(pool_full(mp), "%s: %u mbufs kept after the queue moved to %s",
	      what, mp->size - rte_mempool_avail_count(mp), other->name);
	printf("%-58s ok\n", what);
	return 0;
}

/* Step what: rte_eth_rx_queue_setup() on mp fails, keeping no mbuf. */
static int
refused(uint16_t port, const char *what, struct rte_mempool *mp, uint16_t mtu,
	uint64_t rx_off)
{
	int ret;

	CHECK(mp != NULL, "%s: could not build the pool: %s", what,
	      rte_strerror(rte_errno));
	ret = try_rx(port, mp, mtu, rx_off);
	CHECK(ret < 0, "%s: accepted (%d)", what, ret);
	CHECK(pool_full(mp), "%s: refused (%s), but %u mbufs kept by the port",
	      what, strerror(-ret), mp->size - rte_mempool_avail_count(mp));
	printf("%-58s ok: %s (%d)\n", what, strerror(-ret), ret);
	return 0;
}

/* The control step: a plain pool is taken, the port starts, stops and
 * closes, and every mbuf is back. */
static int
control(uint16_t port, struct rte_mempool *mp)
{
	int ret;

	CHECK(mp != NULL, "control: could not build the pool: %s",
	      rte_strerror(rte_errno));
	ret = try_start(port, mp);
	CHECK_EQ_GOTO(out, ret, 0, "control: a plain pool, MTU 1500, start: "
		      "%s", strerror(-ret));
	printf("%-58s ok\n", "control: a plain pool, MTU 1500, start");
out:
	rte_eth_dev_stop(port);
	rte_eth_dev_close(port);
	CHECK(pool_full(mp), "control: %u of %u mbufs in the pool after close",
	      rte_mempool_avail_count(mp), mp->size);
	printf("%-58s ok\n", "control: every mbuf back after stop and close");
	return ret == 0 ? 0 : -1;
}

int
main(int argc, char **argv)
{
	struct rte_pktmbuf_extmem ext;
	const struct rte_memzone *mz;
	struct rte_mempool *mp, *plain0 = NULL;
	void *mem = NULL;
	uint16_t port = 0;
	int ret;

	ret = rte_eal_init(argc, argv);
	if (ret < 0) {
		fprintf(stderr, "EAL initialisation failed: %s\n",
			rte_strerror(rte_errno));
		return 1;
	}
	if (!rte_eth_dev_is_valid_port(port)) {
		printf("no port 0: the AF_XDP PMD is not loaded\n");
		rte_eal_cleanup();
		return 77;
	}

	/* 1. two separate address ranges */
	mp = split_pool(&mem);
	refused(port, "pool in two separate address ranges", mp, 0, 0);
	rte_mempool_free(mp);
	rte_free(mem);

	/* 2. pinned external buffers */
	/*
	 * One IOVA-contiguous area for the buffers: kept inside one 2 MiB page
	 * (NB_EXT buffers), so that IOVA-as-PA mode never needs physically
	 * adjacent hugepages, which a busy machine may not have.
	 */
	mz = rte_memzone_reserve_bounded("xdpchk_ext", (size_t)NB_EXT * ROOM,
					 SOCKET_ID_ANY, RTE_MEMZONE_IOVA_CONTIG,
					 4096, RTE_PGSIZE_2M);
	mp = NULL;
	if (mz != NULL) {
		ext.buf_ptr = mz->addr;
		ext.buf_iova = mz->iova;
		ext.buf_len = mz->len;
		ext.elt_size = ROOM;
		mp = rte_pktmbuf_pool_create_extbuf("xdpchk_extbuf", NB_EXT, 0, 0,
						    ROOM, SOCKET_ID_ANY, &ext, 1);
	}
	refused(port, "pool of pinned external buffers", mp, 0, 0);
	rte_mempool_free(mp);
	rte_memzone_free(mz);

	/* 3. anonymous memory in one range; the queue then moves to plain0,
	 * which stays until the port is closed */
	{
		size_t len = 0;

		mem = NULL;
		plain0 = rte_pktmbuf_pool_create("xdpchk_plain0", NB_MBUF, 0,
						 0, ROOM, SOCKET_ID_ANY);
		mp = anon_pool(&mem, &len);
		taken(port, "pool in anonymous memory, one address range", mp,
		      plain0);
		rte_mempool_free(mp);
		if (mem != NULL)
			munmap(mem, len);
	}
	/* 4. data room below one UMEM chunk */
	mp = rte_pktmbuf_pool_create("xdpchk_small", NB_MBUF, 0, 0,
				     RTE_PKTMBUF_HEADROOM + 1024, SOCKET_ID_ANY);
	refused(port, "data room 1152 (below the 2048-byte chunk)", mp, 0, 0);
	rte_mempool_free(mp);

	/* 5. and 6. on a plain pool */
	mp = rte_pktmbuf_pool_create("xdpchk_plain", NB_MBUF, 0, 0, ROOM,
				     SOCKET_ID_ANY);
	refused(port, "MTU 9000 on 2176-byte buffers, no scatter", mp, 9000, 0);
	control(port, mp);
	rte_mempool_free(mp);
	if (plain0 != NULL && !pool_full(plain0)) {
		printf("FAIL: %u mbufs of xdpchk_plain0 out after close\n",
		       plain0->size - rte_mempool_avail_count(plain0));
		check_failures++;
	}
	rte_mempool_free(plain0);
	rte_eal_cleanup();
	printf("%s: %d failure(s)\n", check_failures ? "FAIL" : "ok",
	       check_failures);
	return check_failures == 0 ? 0 : 1;
}
