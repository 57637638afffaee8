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
	uint64_t errors;	/* frames dropped, every reason */
	uint64_t malformed;	/* dropped: pkt_len not the sum of data_len, or 0 */
	uint64_t too_many_segs;	/* dropped: more descriptors than the queue allows */
	uint64_t zc;		/* packets sent zero-copy */
	uint64_t copied;	/* packets copied into UMEM buffers */
	uint64_t copy_nobuf;	/* bursts cut short: no buffer to copy into */
	uint64_t kicks;
	uint64_t kicks_deferred;	/* bursts whose kick waited for more */
	uint64_t kick_errors;
	uint64_t kicks_retried;	/* kicks the kernel did not finish: tried again */
	uint64_t kick_cycles;	/* TSC cycles inside the wakeups of kicks */
	uint64_t recycled;	/* completions handed to the Rx recycle ring */
	uint64_t to_pool;	/* completions put to the pool */
	uint64_t comp_unknown;	/* completion address naming no buffer in flight */
	uint64_t comp_missing;	/* descriptors never completed before teardown */
};

struct mbufx_xdp_txq {
	struct mbufx_xdp_ring tx;
	struct mbufx_xdp_ring cq;
	struct mbufx_xdp_rxq *rxq;	/* pair: UMEM, pool, recycle ring */
	uint8_t *pending;	/* per UMEM granule: descriptors in flight */
	uint64_t nb_granules;
	uint32_t nb_desc;
	uint64_t nb_inflight;	/* descriptors not completed (lost ones too) */
	uint32_t comp_at;	/* tx.cached_prod at the last completion drain */
	/* kick policy (mbufx_xdp_tx_flush()) */
	int (*wake)(void *ctx);	/* kick the kernel: 0 or -errno; NULL: closed */
	void *wake_ctx;
	uint64_t kick_at;	/* TSC deadline of a deferred kick, 0: none */
	uint64_t kick_delay;	/* TSC cycles a short burst may wait */
	uint64_t kick_retry;	/* TSC cycles before a kick is tried again */
	uint64_t polls_seen;	/* rxq->polls at the previous burst */
	struct mbufx_xdp_tx_stats st;
};

/* Set up a transmit queue of nb_desc (a power of two) descriptors paired
 * with rxq (its UMEM, pool and recycle ring): 0 or -ENOMEM. */
int mbufx_xdp_txq_init(struct mbufx_xdp_txq *q, struct mbufx_xdp_rxq *rxq,
		uint32_t nb_desc, int socket);

/* Free what init allocated (after mbufx_xdp_txq_release()). */
void mbufx_xdp_txq_fini(struct mbufx_xdp_txq *q);

/* Give every buffer not completed yet back to the pool (the kernel no
 * longer owns any: socket closed). */
void mbufx_xdp_txq_release(struct mbufx_xdp_txq *q);

/*
 * Descriptors per frame a queue may use: 1 without multi-buffer (the bind
 * refused XDP_USE_SG), the device's limit in zero-copy (xdp_zc_max_segs:
 * a frame of more descriptors is dropped by the kernel without completion),
 * else the kernel's copy-mode limit (MBUFX_XDP_MAX_FRAGS).
 */
uint32_t mbufx_xdp_tx_max_descs(int zc, int sg, uint32_t zc_max_segs);

/*
 * Teardown of a queue pair after its socket's close() (tq may be NULL).
 * Copy mode: the kernel copies a frame into or out of a buffer inside the
 * call that handles it, all returned by then: every buffer comes back at once.
 * Zero-copy: the device keeps the queue's DMA until the kernel's deferred
 * release of the buffer pool (xsk_destruct() -> xp_put_pool() -> a work
 * item, xp_release_deferred() -> xp_clear_dev() -> the driver's
 * XDP_SETUP_XSK_POOL with no pool), which runs after close() returned: the
 * buffers the device may still write (posted to the fill ring) or read (TX
 * not completed) stay held, out of the pool, until
 * mbufx_xdp_qpair_released(); those the kernel gave back come back at once.
 */
void mbufx_xdp_qpair_closed(struct mbufx_xdp_rxq *rq,
		struct mbufx_xdp_txq *tq, int zc);

/* The kernel released the queue (a bind on it succeeded again): the held
 * buffers come back. */
void mbufx_xdp_qpair_released(struct mbufx_xdp_rxq *rq,
		struct mbufx_xdp_txq *tq);

/* Drain the completion ring: buffers to the recycle ring, else the pool. */
void mbufx_xdp_tx_complete(struct mbufx_xdp_txq *q);

/*
 * Put up to nb_pkts frames on the TX ring (at most max_descs descriptors
 * each) and publish the producer; the kick is the caller's. Returns the
 * frames taken (sent or dropped and counted); the rest stay the caller's.
 */
uint16_t mbufx_xdp_tx_enqueue(struct mbufx_xdp_txq *q,
		struct rte_mbuf **pkts, uint16_t nb_pkts, uint32_t max_descs);

/* Kicks and waits for at most TX_KICK_BATCH descriptors per wakeup. */
#define MBUFX_XDP_TX_KICK_BATCH 32

/*
 * Kick policy, after a burst. The TX ring asks for a wakeup (always, in
 * copy mode, where the kernel transmits inside the wakeup, at most
 * MBUFX_XDP_TX_KICK_BATCH descriptors a call); a syscall per burst costs
 * more than the burst when bursts are a packet or two. So a short burst
 * may wait kick_delay for company, but only while the paired Rx queue is
 * being polled (its polls send the kick when the deadline passes,
 * mbufx_xdp_tx_poll()); MBUFX_XDP_TX_KICK_BATCH descriptors pending, an
 * expired deadline, or no Rx poll since the last burst kick at once.
 * kick_delay 0: every burst is kicked.
 */
void mbufx_xdp_tx_flush(struct mbufx_xdp_txq *q);

/* Wake the kernel until it consumed the TX ring, at most 8 tries; what is
 * left gets a deadline (kick_retry, 50 times that after an error such as
 * a link down), so the Rx polls or the next burst try again. */
void mbufx_xdp_tx_kick(struct mbufx_xdp_txq *q);

/*
 * From the paired Rx queue's poll: send the deferred kick if its deadline
 * passed. May run on another lcore than the Tx queue: it only reads the Tx
 * side and wakes the kernel (which serialises wakeups); after a kick it
 * waits kick_retry (*next, the Rx side's) before the next. *kicks counts
 * the kicks, *cycles the TSC cycles spent inside their wakeups (the Rx
 * side's counters: one writer).
 */
void mbufx_xdp_tx_poll(struct mbufx_xdp_txq *q, uint64_t *next,
		uint64_t *kicks, uint64_t *cycles);

/* TX descriptors the kernel has not consumed yet. */
static inline uint32_t
mbufx_xdp_tx_pending(const struct mbufx_xdp_txq *q)
{
	return q->tx.cached_prod -
		__atomic_load_n(q->tx.consumer, __ATOMIC_ACQUIRE);
}

#endif /* MBUFX_XDP_TX_H */
