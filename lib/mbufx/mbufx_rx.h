/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The mbufx authors
 */

#ifndef MBUFX_RX_H
#define MBUFX_RX_H

/**
 * @file
 * mbufx late metadata attach: post bare receive buffers, build the rte_mbuf
 * once the frame is in.
 *
 * A classic DPDK receive path touches each mbuf header twice: at refill the
 * driver reads buf_iova and writes the rearm word (data_off, refcnt,
 * nb_segs, port), and at completion, one ring lap later, it writes lengths,
 * flags and packet type into the same cache line, which by then has often
 * left the core's caches. With late attach the header is touched once:
 *
 *     stocked (free in the mempool)
 *        |  mbufx_rx_refill()   mempool get; data address and IOVA come from
 *        |  (_bulk for PMDs)    address arithmetic; header NOT read/written
 *        v
 *     posted (a bare buffer: {addr, iova, handle})
 *        |  device / software DMA writes the frame at addr (or iova)
 *        v
 *     filled --- mbufx_rx_attach*() ---> rte_mbuf (all RX metadata written in
 *        |                               one pass, first cache line only)
 *        +------ mbufx_rx_return() ----> stocked again, header untouched
 *
 * Refill needs no header access because the data address of a pktmbuf
 * object is object + sizeof(struct rte_mbuf) + priv_size + headroom, and the
 * IOVA of any address in the pool is chunk IOVA + (address - chunk start)
 * over the pool's memory chunks, read once at mbufx_rx_create() into one
 * offset, a per-page offset table or a sorted chunk table (struct
 * mbufx_rx_info, enum mbufx_rx_iova_kind).
 *
 * Attach relies on the pktmbuf pool invariant that a free mbuf has
 * next == NULL and nb_segs == 1 (rte_pktmbuf_free() and friends restore it
 * before putting an mbuf back), and that buf_addr, buf_iova, buf_len and pool
 * are the constants written by rte_pktmbuf_init(). Late attach never changes
 * any of those, so the pool stays valid for stock PMDs and every other user
 * at all times; posted buffers are simply mbufs that are out of the pool.
 *
 * Thread safety: an rx context is like an Rx queue: refill, attach and
 * return on one context must not run concurrently (they update the
 * context's counters without atomics). Different contexts, even on the same
 * pool, are independent. mbufx_rx_create(), mbufx_rx_free() (of another
 * context), mbufx_rx_stats_get(), mbufx_rx_stats_sum() and mbufx_rx_dump()
 * may be called from any thread; the counters they read may lag by the
 * burst in progress. A context belongs to the process that created it.
 *
 * The API is as wide as its users. For devices that address buffers by
 * offset into one region (an AF_XDP UMEM) and choose where the frame
 * starts: mbufx_rx_chunk_get() (the pool's memory ranges, to build the
 * region; experimental), mbufx_rx_refill_offsets(), mbufx_rx_buf_offset(),
 * mbufx_rx_handle_from_offset(), then mbufx_rx_attach_at() for one buffer or
 * mbufx_rx_attach_chain() for a multi-buffer frame, mbufx_rx_recycled() for
 * transmit completions posted again, mbufx_rx_attached() for buffers the
 * caller turned into mbufs itself, and mbufx_rx_return_handles() for
 * buffers never filled, usually with MBUFX_RX_F_NO_IOVA.
 * drivers/net/mbufx_xdp (the AF_XDP port) uses exactly these and is the
 * example to read. Experimental: the generic {addr, iova, handle} calls
 * mbufx_rx_refill(), mbufx_rx_attach() and mbufx_rx_return(). A descriptor
 * NIC's family (handles in a software ring, IOVAs per burst, attach with
 * full metadata, uncounted attach and prefetch) exists only for the
 * benchmark generator and the RX-ring model, and is internal
 * (mbufx_rx_impl.h).
 *
 * This header is the API. The context layout, the IOVA-table helpers the
 * inline calls are built from and the internal family are in
 * mbufx_rx_impl.h, an indirect header: included from here, not for direct
 * inclusion.
 *
 * The guide: doc/guides/prog_guide/late_attach.rst.
 *
 * The fast-path calls (refill, attach, return) are inline and do not check
 * their arguments: passing NULL or a handle from another context's pool is
 * undefined behaviour.
 */

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <rte_branch_prediction.h>
#include <rte_common.h>
#include <rte_compat.h>
#include <rte_mbuf.h>
#include <rte_mempool.h>
#include <rte_prefetch.h>

#ifdef __cplusplus
extern "C" {
#endif

/** A bare receive buffer handed out by mbufx_rx_refill(). */
struct mbufx_rx_buf {
	/** Where the frame goes: buf_addr + headroom of the underlying mbuf. */
	void *addr;
	/**
	 * IOVA of addr, for a device descriptor. RTE_BAD_IOVA when the
	 * context was created with MBUFX_RX_F_NO_IOVA.
	 */
	rte_iova_t iova;
	/**
	 * Opaque handle for mbufx_rx_attach*() / mbufx_rx_return*(). It is the
	 * address of the mbuf, but its header must not be read or written
	 * until attach: that is the point of late attach.
	 */
	void *handle;
};

/**
 * Counters of an rx context (or the sum over a pool's contexts). Its one
 * list of names is mbufx_rx_stats_fields().
 */
struct mbufx_rx_stats {
	uint64_t refilled;	/**< buffers handed out by refill */
	uint64_t refill_fails;	/**< refill calls that got fewer than asked */
	uint64_t refill_missed;	/**< buffers asked for but not available */
	uint64_t attached;	/**< buffers turned into mbufs by attach */
	uint64_t returned;	/**< buffers given back unused */
	/**
	 * Buffers posted again without a pool round trip
	 * (mbufx_rx_recycled(): a transmit completion of a buffer of the
	 * pool going straight back to the receive ring).
	 */
	uint64_t recycled;
	/**
	 * Buffers currently posted (a gauge, not a counter): refilled +
	 * recycled - attached - returned. Summed over live contexts only (see
	 * mbufx_rx_stats_sum()). Keep it the last field.
	 */
	uint64_t posted;
};

/** Static facts about an rx context, for logs and tests. */
struct mbufx_rx_info {
	struct rte_mempool *mp;		/**< the pool */
	uint16_t port;			/**< mbuf port written at attach */
	uint16_t headroom;		/**< data_off written at attach */
	uint16_t room;			/**< bytes a buffer takes at addr */
	uint32_t data_offset;		/**< addr - handle */
};

/**
 * Flag for mbufx_rx_create(): the caller never hands buffers to a
 * device (a software copy path: vhost, memif, an application's own ring), so
 * no IOVA is computed and pools whose memory has no IOVA (RTE_BAD_IOVA
 * chunks, e.g. --no-huge with --iova-mode=pa) are accepted. Every buf.iova is
 * RTE_BAD_IOVA.
 */
#define MBUFX_RX_F_NO_IOVA RTE_BIT32(0)

/** Largest number of buffers one mempool get/put moves inside the calls. */
#define MBUFX_RX_BULK_MAX 64

/* The context layout and the helpers of the inline fast path below. */
#include "mbufx_rx_impl.h"

/**
 * Create an rx context for a pktmbuf pool.
 *
 * Any pktmbuf pool created with rte_pktmbuf_pool_create*() works, whatever
 * its mempool ops (a zone set's packet or jumbo zone, a plain "mbufx" or
 * "ring_mp_mc" pool), as long as it is fully populated and its mbufs were
 * initialised by rte_pktmbuf_init(). The pool must outlive the context.
 *
 * @param mp
 *   The pool that refill takes buffers from.
 * @param port
 *   Value of mbuf->port written by attach.
 * @param flags
 *   0, or MBUFX_RX_F_NO_IOVA for a context whose buffers never go to a
 *   device.
 * @return
 *   The context, or NULL with rte_errno set:
 *   - EINVAL: mp is NULL, not a pktmbuf pool (private area smaller than
 *     struct rte_pktmbuf_pool_private or elements smaller than the mbuf,
 *     private area and data room), not fully populated, or its data room
 *     leaves no byte after the headroom; or flags has an unknown bit;
 *   - ENOTSUP: the pool holds pinned external buffers
 *     (RTE_PKTMBUF_POOL_F_PINNED_EXT_BUF: data is not inside the object), or
 *     part of its memory has no IOVA (use MBUFX_RX_F_NO_IOVA);
 *   - EXDEV: the pool's ops index names another driver in this process than
 *     in the primary (see mbufx_pool_ops_check()): refill and return would
 *     call the wrong driver's functions;
 *   - ENOMEM: no memory for the context.
 */
struct mbufx_rx *mbufx_rx_create(struct rte_mempool *mp, uint16_t port,
		uint32_t flags);

/**
 * Free an rx context. Posted buffers are not tracked: attach or return
 * them first (a warning is logged with the count when some are still
 * posted; they stay out of the pool).
 *
 * @param rx
 *   The context; NULL is a no-op.
 */
void mbufx_rx_free(struct mbufx_rx *rx);

/**
 * Static facts about a context.
 *
 * @param rx
 *   The context.
 * @param info
 *   Filled on success.
 * @return
 *   0, or -EINVAL when rx or info is NULL.
 */
int mbufx_rx_info_get(const struct mbufx_rx *rx, struct mbufx_rx_info *info);

/**
 * The pool's memory, as the context sees it: chunk idx of the pool's
 * memory chunks sorted by address, neighbours that are contiguous in
 * virtual and IOVA space merged. A device that addresses buffers by offset
 * into one region (an AF_XDP UMEM) builds the region from these ranges
 * instead of walking and sorting the pool's chunks again.
 *
 * @param rx
 *   The context.
 * @param idx
 *   Range index, from 0.
 * @param start
 *   Set to the range's first byte.
 * @param end
 *   Set to one past its last byte.
 * @return
 *   0; -ENOENT when idx is past the last range (idx == 0 never is: a
 *   context's pool has memory); -EINVAL when an argument is NULL.
 */
__rte_experimental
int mbufx_rx_chunk_get(const struct mbufx_rx *rx, unsigned int idx,
		uintptr_t *start, uintptr_t *end);

/**
 * Counters of one context.
 *
 * @param rx
 *   The context.
 * @param st
 *   Filled on success.
 * @return
 *   0, or -EINVAL when rx or st is NULL.
 */
int mbufx_rx_stats_get(const struct mbufx_rx *rx, struct mbufx_rx_stats *st);

/**
 * Sum the counters of every live context bound to a pool (zone-set stats
 * and telemetry use it). Counters of freed contexts are not included.
 *
 * @param mp
 *   The pool.
 * @param st
 *   Filled (zeroed when no context is bound to mp).
 * @return
 *   The number of contexts summed (>= 0), or -EINVAL when mp or st is NULL.
 */
int mbufx_rx_stats_sum(const struct rte_mempool *mp, struct mbufx_rx_stats *st);

struct mbufx_stat_field;

/**
 * The table of struct mbufx_rx_stats (mbufx_stats.h): every field, in
 * struct order, counters first and the posted gauge last. Dumps, the
 * per-pool sum and telemetry iterate it; a field added to the struct is
 * one line in this table.
 *
 * @param n
 *   Set to the number of entries (not NULL).
 * @return
 *   The table, static.
 */
const struct mbufx_stat_field *mbufx_rx_stats_fields(unsigned int *n);

/**
 * Print a context (pool, geometry, IOVA kind, chunks, counters).
 *
 * @param f
 *   Output stream.
 * @param rx
 *   The context.
 */
void mbufx_rx_dump(FILE *f, const struct mbufx_rx *rx);

/**
 * Take up to n bare buffers from the pool for posting to a receive ring.
 *
 * Neither the mbuf headers nor the buffers are read or written: the caller
 * gets each buffer's data address (buf_addr + headroom), its IOVA and a
 * handle. Each buffer may receive up to the context's room bytes
 * (mbufx_rx_info_get()) at addr.
 *
 * @param rx
 *   The context.
 * @param bufs
 *   Array of at least n entries, filled from index 0.
 * @param n
 *   Number of buffers wanted.
 * @return
 *   How many buffers were taken (< n only when the pool ran dry: counted in
 *   refill_fails and refill_missed).
 */
__rte_experimental
static inline unsigned int
mbufx_rx_refill(struct mbufx_rx *rx, struct mbufx_rx_buf *bufs, unsigned int n)
{
	void *objs[MBUFX_RX_BULK_MAX];
	unsigned int done = 0, got;

	while (done < n) {
		got = mbufx_rx_take(rx, objs, n, done);
		mbufx_rx_describe(rx, &bufs[done], objs, got);
		done += got;
		if (unlikely(got < MBUFX_RX_BULK_MAX && done < n))
			break;	/* the pool ran dry: counted by mbufx_rx_take() */
	}
	MBUFX_RX_CNT_ADD(rx, refilled, done);
	return done;
}

/**
 * Turn a filled buffer into a received mbuf.
 *
 * Writes, in the mbuf's first cache line only: the rearm word (data_off =
 * headroom, refcnt 1, nb_segs 1, port), ol_flags, packet_type, pkt_len,
 * data_len, and zeroes vlan_tci, vlan_tci_outer and hash. buf_addr,
 * buf_iova, buf_len and pool are left as they are (already right). The
 * result is what a PMD hands out; dynamic fields (timestamp, ...) are the
 * caller's to set. Counted in attached.
 *
 * @param rx
 *   The context the buffer came from.
 * @param b
 *   The buffer (only b->handle is used).
 * @param len
 *   Frame length, at most the context's room.
 * @param ol_flags
 *   RTE_MBUF_F_RX_* flags.
 * @param ptype
 *   Packet type (RTE_PTYPE_*).
 * @return
 *   The mbuf (never NULL).
 */
__rte_experimental
static inline struct rte_mbuf *
mbufx_rx_attach(struct mbufx_rx *rx, const struct mbufx_rx_buf *b,
		uint16_t len, uint64_t ol_flags, uint32_t ptype)
{
	MBUFX_RX_CNT_ADD(rx, attached, 1);
	return mbufx_rx_fill(rx, b->handle, ol_flags, ptype, len, 0, 0, 0, 0);
}

/**
 * Give unused buffers back to the pool without touching them (for a ring
 * being torn down, or buffers posted but never filled). Counted in
 * returned.
 *
 * @param rx
 *   The context the buffers came from.
 * @param handles
 *   n handles.
 * @param n
 *   Number of buffers.
 */
static inline void
mbufx_rx_return_handles(struct mbufx_rx *rx, void * const *handles,
		unsigned int n)
{
	rte_mempool_put_bulk(rx->mp, handles, n);
	MBUFX_RX_CNT_ADD(rx, returned, n);
}

/**
 * Give unused buffers back to the pool without touching them; see
 * mbufx_rx_return_handles().
 *
 * @param rx
 *   The context the buffers came from.
 * @param bufs
 *   n buffers from mbufx_rx_refill().
 * @param n
 *   Number of buffers.
 */
__rte_experimental
static inline void
mbufx_rx_return(struct mbufx_rx *rx, const struct mbufx_rx_buf *bufs,
		unsigned int n)
{
	void *objs[MBUFX_RX_BULK_MAX];
	unsigned int done, k, i;

	for (done = 0; done < n; done += k) {
		k = RTE_MIN(n - done, (unsigned int)MBUFX_RX_BULK_MAX);
		for (i = 0; i < k; i++)
			objs[i] = bufs[done + i].handle;
		rte_mempool_put_bulk(rx->mp, objs, k);
	}
	MBUFX_RX_CNT_ADD(rx, returned, n);
}

/**
 * Offset from a handle (the mbuf) to its buffer's first byte (buf_addr):
 * sizeof(struct rte_mbuf) plus the pool's private area. A device that
 * addresses buffers by offset into one memory region (an AF_XDP UMEM) posts
 * handle + mbufx_rx_buf_offset() - region base.
 *
 * @param rx
 *   The context.
 * @return
 *   The offset in bytes.
 */
static inline uint32_t
mbufx_rx_buf_offset(const struct mbufx_rx *rx)
{
	return rx->data_offset - rx->headroom;
}

/**
 * Refill for a device that addresses buffers as offsets into one memory
 * region (an AF_XDP UMEM): up to n bare buffers, written as the offset of
 * each buffer's first byte (buf_addr, not the data address: the device
 * chooses its own headroom) from base. No header is read or written.
 *
 * @param rx
 *   The context.
 * @param base
 *   Start of the region; at most the pool's lowest buffer address.
 * @param offs
 *   Array of at least n entries, filled from index 0.
 * @param n
 *   Number of buffers wanted.
 * @return
 *   How many buffers were taken (< n only when the pool ran dry: counted in
 *   refill_fails and refill_missed).
 */
static inline unsigned int
mbufx_rx_refill_offsets(struct mbufx_rx *rx, uintptr_t base, uint64_t *offs,
		unsigned int n)
{
	const uintptr_t add = mbufx_rx_buf_offset(rx) - base;
	void *objs[MBUFX_RX_BULK_MAX];
	unsigned int done = 0, got, i;

	while (done < n) {
		got = mbufx_rx_take(rx, objs, n, done);
		for (i = 0; i < got; i++)
			offs[done + i] = (uintptr_t)objs[i] + add;
		done += got;
		if (unlikely(got < MBUFX_RX_BULK_MAX && done < n))
			break;	/* the pool ran dry: counted by mbufx_rx_take() */
	}
	MBUFX_RX_CNT_ADD(rx, refilled, done);
	return done;
}

/**
 * Handle of a buffer from an offset written by mbufx_rx_refill_offsets()
 * (pure arithmetic: the caller validates offsets that come from a device).
 *
 * @param rx
 *   The context.
 * @param base
 *   The region start given to mbufx_rx_refill_offsets().
 * @param off
 *   The buffer's offset.
 * @return
 *   The handle.
 */
static inline void *
mbufx_rx_handle_from_offset(const struct mbufx_rx *rx, uintptr_t base,
		uint64_t off)
{
	return (void *)(base + (uintptr_t)off - mbufx_rx_buf_offset(rx));
}

/**
 * Count n buffers of the context's pool that the caller posted to its
 * receive ring without taking them from the pool: transmit completions
 * recycled straight into the ring (TX-to-RX recycling). They are then
 * attached or returned like refilled buffers. The caller must have
 * restored the free-pool invariant of each (next == NULL, nb_segs == 1,
 * direct, refcnt 1): what rte_pktmbuf_free() would leave.
 *
 * @param rx
 *   The context.
 * @param n
 *   Number of buffers.
 */
static inline void
mbufx_rx_recycled(struct mbufx_rx *rx, unsigned int n)
{
	MBUFX_RX_CNT_ADD(rx, recycled, n);
}

/**
 * Count n buffers of the context leaving the posted state as received
 * mbufs without an attach call counting them (in attached): a receive loop
 * that attaches with the uncounted forms (mbufx_rx_attach_at_uncounted())
 * or writes the mbufs itself (net_mbufx_xdp's classic refill mode, whose
 * headers were reset when posted), counting once per burst, before the
 * mbufs leave the receive call.
 *
 * @param rx
 *   The context.
 * @param n
 *   Number of buffers.
 */
static inline void
mbufx_rx_attached(struct mbufx_rx *rx, unsigned int n)
{
	MBUFX_RX_CNT_ADD(rx, attached, n);
}

/**
 * mbufx_rx_attach() for a device that chooses where the frame starts in the
 * buffer (AF_XDP writes it 256 bytes in): data_off is given. Writes the
 * first cache line only, like mbufx_rx_attach(). Counted in attached.
 *
 * @param rx
 *   The context the buffer came from.
 * @param handle
 *   The buffer's handle.
 * @param data_off
 *   Offset of the frame from buf_addr; data_off + len at most the data
 *   room.
 * @param len
 *   Frame length.
 * @param ol_flags
 *   RTE_MBUF_F_RX_* flags.
 * @param ptype
 *   Packet type.
 * @return
 *   The mbuf (never NULL).
 */
static inline struct rte_mbuf *
mbufx_rx_attach_at(struct mbufx_rx *rx, void *handle, uint16_t data_off,
		uint16_t len, uint64_t ol_flags, uint32_t ptype)
{
	struct rte_mbuf *m = (struct rte_mbuf *)handle;

	mbufx_rx_fill_seg(m, mbufx_rx_rearm_with(rx, data_off, 1), ol_flags,
			  ptype, len, len);
	MBUFX_RX_CNT_ADD(rx, attached, 1);
	return m;
}

/**
 * mbufx_rx_attach_at() for a receive loop that counts its burst once: the
 * same writes, not counted, the context's rearm word from the burst state
 * of mbufx_rx_burst_begin() (read once before the loop). The loop ends
 * with mbufx_rx_attached() of the number of buffers it attached, before
 * the mbufs leave the receive call.
 *
 * @param b
 *   The burst state of the context the buffer came from.
 * @param handle
 *   The buffer's handle.
 * @param data_off
 *   Offset of the frame from buf_addr; data_off + len at most the data
 *   room.
 * @param len
 *   Frame length.
 * @param ol_flags
 *   RTE_MBUF_F_RX_* flags.
 * @param ptype
 *   Packet type.
 * @return
 *   The mbuf (never NULL).
 */
static inline struct rte_mbuf *
mbufx_rx_attach_at_uncounted(const struct mbufx_rx_burst *b, void *handle,
		uint16_t data_off, uint16_t len, uint64_t ol_flags,
		uint32_t ptype)
{
	struct rte_mbuf *m = (struct rte_mbuf *)handle;

	mbufx_rx_fill_seg(m, mbufx_rx_rearm_word_with(b->rearm, data_off, 1),
			  ol_flags, ptype, len, len);
	return m;
}

/**
 * Turn n filled buffers holding one frame (a device's multi-buffer
 * receive) into one mbuf chain, in one pass: each segment's first cache
 * line is written once (head: nb_segs = n, pkt_len = the sum, ol_flags and
 * ptype; others: nb_segs 1, ol_flags 0), and next is written on every
 * segment but the last (second cache line; the last keeps the pool's
 * next == NULL). Counted in attached (n).
 *
 * @param rx
 *   The context the buffers came from.
 * @param handles
 *   The n handles, in frame order.
 * @param data_off
 *   Offset of each segment's data from its buf_addr.
 * @param len
 *   Bytes of each segment (data_off[i] + len[i] at most the data room).
 * @param n
 *   Number of segments, 1 to UINT16_MAX.
 * @param ol_flags
 *   RTE_MBUF_F_RX_* flags of the frame.
 * @param ptype
 *   Packet type of the frame.
 * @return
 *   The head mbuf (never NULL).
 */
static inline struct rte_mbuf *
mbufx_rx_attach_chain(struct mbufx_rx *rx, void * const *handles,
		const uint16_t *data_off, const uint16_t *len, unsigned int n,
		uint64_t ol_flags, uint32_t ptype)
{
	struct rte_mbuf *head = (struct rte_mbuf *)handles[0], *m;
	uint32_t total = 0;
	unsigned int i;

	for (i = 0; i < n; i++)
		total += len[i];
	mbufx_rx_fill_seg(head, mbufx_rx_rearm_with(rx, data_off[0],
						     (uint16_t)n),
			  ol_flags, ptype, total, len[0]);
	for (i = 1; i < n; i++) {
		m = (struct rte_mbuf *)handles[i];
		mbufx_rx_fill_seg(m, mbufx_rx_rearm_with(rx, data_off[i], 1),
				  0, 0, len[i], len[i]);
		((struct rte_mbuf *)handles[i - 1])->next = m;
	}
	MBUFX_RX_CNT_ADD(rx, attached, n);
	return head;
}

#ifdef __cplusplus
}
#endif

#endif /* MBUFX_RX_H */
