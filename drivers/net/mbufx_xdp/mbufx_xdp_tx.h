/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The mbufx authors
 */

#ifndef MBUFX_XDP_TX_H
#define MBUFX_XDP_TX_H

/*
 * Internal header of net_mbufx_xdp: the transmit core, usable without a
 * socket (tests and the fuzz harness play the kernel on rings in plain
 * memory). Kicking the kernel (sendto) is the socket layer's business.
 *
 * A transmit queue shares the UMEM, pool and recycle ring of the receive
 * queue of its pair. A direct, unshared mbuf of that pool goes out
 * zero-copy (one descriptor per segment, or per chunk-sized piece of a
 * longer segment, XDP_PKT_CONTD on all but the last); anything else is
 * copied into bare buffers of the pool. Either way the buffer belongs to
 * the PMD from then on: at completion it goes to the receive queue's
 * recycle ring (and from there into the fill ring), or to the pool when
 * that ring is full.
 *
 *   tx_burst --zc / copy--> TX ring --kernel--> completion ring
 *                                                  |
 *        recycle ring (Rx pair) or pool <--complete+
 */

#include <stdint.h>

#include <rte_mbuf.h>

#include "mbufx_xdp_ring.h"
#include "mbufx_xdp_rx.h"

/* Counters of the transmit queue (one writer: the Tx thread). */
struct mbufx_xdp_tx_stats {
	uint64_t packets;
	uint64_t bytes;
	uint64_t errors;	/* dropped: too long, empty */
	uint64_t zc;		/* packets sent zero-copy */
	uint64_t copied;	/* packets copied into UMEM buffers */
	uint64_t copy_nobuf;	/* bursts cut short: no buffer to copy into */
	uint64_t kicks;
	uint64_t kicks_deferred;	/* bursts whose kick waited for more */
	uint64_t kick_errors;
	uint64_t recycled;	/* completions handed to the Rx recycle ring */
	uint64_t to_pool;	/* completions put to the pool */
	uint64_t comp_mismatch;	/* completion address not the expected one */
};

struct mbufx_xdp_txq {
	struct mbufx_xdp_ring tx;
	struct mbufx_xdp_ring cq;
	struct mbufx_xdp_rxq *rxq;	/* pair: UMEM, pool, recycle ring */
	void **inflight;		/* per TX slot: buffer to free, or NULL */
	uint32_t nb_desc;
	struct mbufx_xdp_tx_stats st;
};

/* Allocate the in-flight table of nb_desc (a power of two) slots: 0 or
 * -ENOMEM. */
int mbufx_xdp_txq_init(struct mbufx_xdp_txq *q, uint32_t nb_desc,
		int socket);

/* Free what init allocated (after mbufx_xdp_txq_release()). */
void mbufx_xdp_txq_fini(struct mbufx_xdp_txq *q);

/* Give every buffer not completed yet back to the pool (the kernel no
 * longer owns any: socket closed). */
void mbufx_xdp_txq_release(struct mbufx_xdp_txq *q);

/* Drain the completion ring: buffers to the recycle ring, else the pool. */
void mbufx_xdp_tx_complete(struct mbufx_xdp_txq *q);

/*
 * Put up to nb_pkts frames on the TX ring (at most max_descs descriptors
 * each) and publish the producer; the kick is the caller's. Returns the
 * frames taken (sent or dropped and counted); the rest stay the caller's.
 */
uint16_t mbufx_xdp_tx_enqueue(struct mbufx_xdp_txq *q,
		struct rte_mbuf **pkts, uint16_t nb_pkts, uint32_t max_descs);

/* TX descriptors the kernel has not consumed yet. */
static inline uint32_t
mbufx_xdp_tx_pending(const struct mbufx_xdp_txq *q)
{
	return q->tx.cached_prod -
		__atomic_load_n(q->tx.consumer, __ATOMIC_ACQUIRE);
}

#endif /* MBUFX_XDP_TX_H */
