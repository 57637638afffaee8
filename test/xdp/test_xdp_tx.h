/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The mbufx authors
 */

#ifndef TEST_XDP_TX_H
#define TEST_XDP_TX_H

/*
 * What the two files of mbufx_xdp_tx_autotest share: test_xdp_tx.c (the
 * program, its queue pairs, the transmit core's behaviours one by one)
 * and test_xdp_tx_rule.c (the enqueue's rule, frame by frame and against
 * a model). Every test runs on a fresh queue pair on the UMEM pool, with
 * the fake kernel fk on its rings, and is torn down whatever it found.
 */

#include <stdint.h>

#include <rte_mbuf.h>
#include <rte_mempool.h>

#include "mbufx_xdp_rx.h"
#include "mbufx_xdp_tx.h"
#include "xdp_fake_kernel.h"

#define NB_MBUF 4096	/* the UMEM pool (2176-byte buffers) */
#define NB_SRC 1024	/* the other pool: its frames are copied */
#define NB_JUMBO 1024	/* a UMEM pool of 9344-byte buffers */
#define RING 256	/* every ring of a queue pair */

/* The fake kernel of the queue pair under test. */
extern struct fk_tx fk;

/* A test on a queue pair of pool mp, with src the other pool. */
typedef int (*test_fn)(struct mbufx_xdp_rxq *, struct mbufx_xdp_txq *,
		       struct rte_mempool *, struct rte_mempool *);

/* A frame of len bytes (pattern seed + i) in nseg segments from pool. */
struct rte_mbuf *frame(struct rte_mempool *pool, uint32_t len,
		uint32_t nseg, uint8_t seed);

/* The same with the first segment of p0, the others of p1, each starting
 * doff into its buffer (-1: the pool's headroom). */
struct rte_mbuf *frame_at(struct rte_mempool *p0, struct rte_mempool *p1,
		uint32_t len, uint32_t nseg, uint8_t seed, int doff);

/* Frame j the fake kernel received is len bytes of seed's pattern: 0. */
int frame_check(uint32_t j, uint32_t len, uint8_t seed);

/* Buffers handed back by completions so far (recycle ring), emptied into
 * the pool: how many (at most max, h is scratch). */
unsigned int freed(struct mbufx_xdp_rxq *rq, void **h, unsigned int max);

/* test_xdp_tx_rule.c */
int test_mixed(struct mbufx_xdp_rxq *rq, struct mbufx_xdp_txq *tq,
		struct rte_mempool *mp, struct rte_mempool *src);
int test_mixed_jumbo(struct mbufx_xdp_rxq *rq, struct mbufx_xdp_txq *tq,
		struct rte_mempool *mp, struct rte_mempool *src);
int test_room(struct mbufx_xdp_rxq *rq, struct mbufx_xdp_txq *tq,
		struct rte_mempool *mp, struct rte_mempool *src);
int test_model(struct mbufx_xdp_rxq *rq, struct mbufx_xdp_txq *tq,
		struct rte_mempool *mp, struct rte_mempool *src);
int test_model_jumbo(struct mbufx_xdp_rxq *rq, struct mbufx_xdp_txq *tq,
		struct rte_mempool *mp, struct rte_mempool *src);

#endif /* TEST_XDP_TX_H */
