/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The mbufx authors
 */

#ifndef MBUFX_XDP_RX_H
#define MBUFX_XDP_RX_H

/*
 * Internal header of net_mbufx_xdp: the receive core, usable without a
 * socket (the fuzz harness drives it with arbitrary descriptors).
 *
 * A receive queue owns a UMEM that is its pool's memory, and a bitmap with
 * one bit per 64 bytes of it: bit set = the buffer whose mbuf starts there is
 * posted (in the fill ring or held by the kernel). The bitmap is what makes
 * every descriptor checkable without reading the mbuf header (an address
 * that is not a posted buffer is rejected, a buffer cannot complete twice)
 * and what teardown walks to give every buffer back.
 *
 *   pool --refill--> fill ring --kernel--> RX descriptors --convert--> mbufs
 *     ^                 ^  ^                      |
 *     |  teardown       |  +---- spare stash <----+ dropped frames,
 *     +--(bitmap walk)  |                           coalesced fragments
 *                       +------- recycle ring <--- TX completions
 *
 * Thread model: refill, convert and release run on the queue's Rx thread;
 * the recycle ring is the only thing the Tx side writes (single producer,
 * single consumer), because the Tx queue of the pair may run on another
 * lcore and the fill ring has one producer.
 */

#include <stdint.h>

#include <linux/if_xdp.h>

#include <rte_common.h>
#include <rte_mbuf.h>
#include <rte_mempool.h>
#include <rte_ring.h>

#include "mbufx_rx.h"
#include "mbufx_xdp_ring.h"

/* The kernel writes a received frame this far after the fill address. */
#define MBUFX_XDP_HEADROOM 256
/* UMEM chunk limits of the kernel (xdp_umem_reg()). */
#define MBUFX_XDP_CHUNK_MIN 2048
#define MBUFX_XDP_CHUNK_MAX 4096
/* Descriptors per frame: the kernel's transmit limit (MAX_SKB_FRAGS + 1),
 * also the longest chain we build on receive. */
#define MBUFX_XDP_MAX_FRAGS 18
/* Bitmap granule: mbuf objects are cache-line aligned. */
#define MBUFX_XDP_GRANULE_SHIFT 6

/* Receive loop policy: descriptors converted per step, and refill once
 * this many buffers were taken (REFILL_IDLE: on a poll that found none). */
#define MBUFX_XDP_RX_BATCH 64
#define MBUFX_XDP_REFILL_THRESH 32
#define MBUFX_XDP_REFILL_IDLE 8

/*
 * How buffers are posted and completed (devarg rx_refill). LATE, the
 * default: late metadata attach, no header access at refill and one pass
 * over the first header line at completion (mbufx_rx_attach_at()).
 * CLASSIC: what DPDK's net_af_xdp does, for an A/B on the same port: every
 * buffer's header is reset (rte_pktmbuf_reset()) when it is posted, and
 * completion writes the received fields (data_off, lengths, port).
 * Multi-buffer frames are built by the library in both.
 */
enum mbufx_xdp_refill_mode {
	MBUFX_XDP_REFILL_LATE = 0,
	MBUFX_XDP_REFILL_CLASSIC,
};

/* Most TX completions a queue parks for its fill ring (power of two). */
#define MBUFX_XDP_RECYCLE_MAX 256

/*
 * Counters of the receive core (one writer: the Rx thread). What the
 * late-attach context counts (buffers refilled from the pool, recycled,
 * missed when the pool ran dry, attached, returned) is not counted again
 * here: the PMD publishes the context's counters (mbufx_rx_stats_get()).
 */
struct mbufx_xdp_rx_stats {
	uint64_t packets;	/* frames delivered */
	uint64_t bytes;		/* their bytes */
	uint64_t invalid_desc;	/* descriptors rejected (address, offset, length) */
	uint64_t dropped;	/* frames dropped (an invalid descriptor, too many fragments) */
	uint64_t no_scatter;	/* multi-buffer frames dropped: scatter off, no room to coalesce */
	uint64_t chained;	/* frames delivered as mbuf chains */
	uint64_t coalesced;	/* multi-buffer frames copied into their first buffer */
	uint64_t hdr_lines;	/* mbuf header cache lines written (refill and
				 * completion) */
	uint64_t refill_reused;	/* buffers posted again from the spare stash */
};

struct mbufx_xdp_txq;

struct mbufx_xdp_rxq {
	struct mbufx_rx *rx;	/* late attach on the pool */
	struct rte_mempool *mp;
	uintptr_t base;		/* UMEM start: the pool memory, 4 KiB aligned */
	uint64_t umem_len;	/* UMEM length, 4 KiB multiple */
	uint32_t buf_offset;	/* handle -> buf_addr: mbufx_rx_buf_offset() */
	uint32_t buf_len;	/* data room of every buffer */
	uint32_t chunk_size;	/* bytes the kernel may write from a fill address */
	uint16_t port;
	uint16_t queue;
	int scatter;		/* deliver chains (RTE_ETH_RX_OFFLOAD_SCATTER) */
	enum mbufx_xdp_refill_mode refill_mode;
	uint32_t contd_skip;	/* dropping the rest of an over-long frame */
	int held;		/* posted buffers held: zero-copy socket closed,
				 * its release by the kernel not yet seen */
	uint64_t *posted;	/* bitmap, one bit per 64 bytes of UMEM */
	uint64_t nb_bits;
	uint64_t nb_posted;	/* bits set */
	void **spare;		/* buffers of this queue to post again */
	uint32_t nb_spare;
	uint32_t spare_max;
	struct rte_ring *recycle; /* TX completions -> fill ring */
	struct mbufx_xdp_ring fill; /* where refill posts */
	struct mbufx_xdp_ring rxr;  /* RX ring: where the kernel delivers */
	uint32_t taken;		/* RX descriptors consumed since refill */
	uint64_t polls;		/* rx_burst calls: the queue is polled */
	struct mbufx_xdp_txq *pair; /* Tx queue whose deferred kick polls send */
	uint64_t rx_kicks;	/* deferred TX kicks issued from here */
	uint64_t rx_kick_cycles; /* TSC cycles inside those kicks' wakeups */
	uint64_t kick_next;	/* TSC: no kick from here before */
	struct mbufx_xdp_rx_stats st;
};

/*
 * Check a pool and compute the queue's UMEM geometry. Returns 0 or a
 * negative errno with a log line saying why the pool cannot be a UMEM.
 */
int mbufx_xdp_rxq_init(struct mbufx_xdp_rxq *q, struct rte_mempool *mp,
		uint16_t port, uint16_t queue, uint32_t nb_desc, int socket);

/* Give every buffer back (posted, spare, recycle ring) and free what init
 * allocated. The fill ring must no longer be in the kernel's hands; posted
 * buffers of a queue still held (mbufx_xdp_qpair_closed()) are left out of
 * the pool for good. */
void mbufx_xdp_rxq_fini(struct mbufx_xdp_rxq *q);

/* Give back every posted, spare and recycled buffer (the kernel no longer
 * owns any: socket closed), keeping the queue usable. */
void mbufx_xdp_rxq_release(struct mbufx_xdp_rxq *q);

/* Give back the buffers the kernel returned (spare stash, recycle ring),
 * not the posted ones. */
void mbufx_xdp_rxq_release_spare(struct mbufx_xdp_rxq *q);

/* Post buffers to q->fill until it is full or the pool is dry (spare stash
 * first, then the recycle ring, then the pool). Returns buffers posted. */
uint32_t mbufx_xdp_rxq_refill(struct mbufx_xdp_rxq *q);

/*
 * The receive completion step: turn the n descriptors d[] (as read from an
 * RX ring, in order) into at most nb_pkts mbufs. Descriptors that are not a
 * posted buffer of this queue, or whose offset or length leave the buffer,
 * are counted (invalid_desc) and their frame dropped; buffers of a dropped
 * frame go to the spare stash. A frame whose last descriptor is beyond n is
 * left alone. *used receives how many descriptors were consumed (to release
 * from the ring). Never reads an mbuf header before deciding a descriptor is
 * valid.
 */
uint16_t mbufx_xdp_rx_convert(struct mbufx_xdp_rxq *q,
		const struct xdp_desc *d, uint32_t n, struct rte_mbuf **pkts,
		uint16_t nb_pkts, uint32_t *used);

/*
 * Refill once MBUFX_XDP_REFILL_THRESH buffers were taken from the RX ring:
 * every RX descriptor freed a fill slot, so the count says when a batch is
 * worth posting without reading the kernel's fill consumer (a cache line the
 * kernel writes) on every burst. Buffers the kernel takes without completing
 * them (frames it dropped) come back through later descriptors, so the count
 * never overstates the room; a pool that ran dry leaves the unfilled slots
 * counted, to be retried.
 */
void mbufx_xdp_rxq_restock(struct mbufx_xdp_rxq *q);

/*
 * The receive loop: up to nb_pkts frames from q->rxr (entries read in place,
 * copied when they wrap), refill by the thresholds above. A poll that finds
 * the ring empty restocks from REFILL_IDLE and sets *idle (the caller's
 * cue to wake the kernel). Every poll, busy or idle, sends the paired Tx
 * queue's deferred kick when due (mbufx_xdp_tx_poll()): the kick of a
 * short burst waits at most kick_delay while this queue is polled, also
 * when it is never empty.
 */
uint16_t mbufx_xdp_rx_burst(struct mbufx_xdp_rxq *q, struct rte_mbuf **pkts,
		uint16_t nb_pkts, int *idle);

/*
 * The granule of the buffer a descriptor or completion address names: *h
 * is the offset of its handle in the UMEM (the masked address less
 * buf_offset, the queue's copy of mbufx_rx_buf_offset()). Rotated, so that
 * an address below buf_offset (wrapped), past the UMEM (nb_bits granules)
 * or not on a granule gives a value at or above nb_bits: one comparison
 * decides whether the address can name a buffer at all.
 */
static __rte_always_inline uint64_t
mbufx_xdp_addr_granule(uint64_t addr, uint64_t buf_offset, uint64_t *h)
{
	*h = (addr & XSK_UNALIGNED_BUF_ADDR_MASK) - buf_offset;
	return *h >> MBUFX_XDP_GRANULE_SHIFT |
		*h << (64 - MBUFX_XDP_GRANULE_SHIFT);
}

/* Offset of a handle's buffer in the UMEM. */
static inline uint64_t
mbufx_xdp_umem_off(const struct mbufx_xdp_rxq *q, const void *handle)
{
	return (uintptr_t)handle + q->buf_offset - q->base;
}

/* Largest frame a queue can receive: one buffer (coalesced) or a chain. */
uint32_t mbufx_xdp_rxq_max_frame(const struct mbufx_xdp_rxq *q, int sg);

#endif /* MBUFX_XDP_RX_H */
