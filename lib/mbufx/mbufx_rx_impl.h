/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The mbufx authors
 */

#ifndef MBUFX_RX_IMPL_H
#define MBUFX_RX_IMPL_H

/**
 * @file
 * mbufx late attach: the IOVA-table machinery behind the inline fast path.
 *
 * Not for direct inclusion: include mbufx_rx.h, which includes this file.
 * Everything here is internal: the layout of an rx context, the helpers
 * the inline refill and attach calls of mbufx_rx.h are built from (address
 * to IOVA over the pool's chunks, buffer description, first-cache-line
 * writes, the counter macro), and the descriptor-NIC family that only the
 * benchmark generator and the library's tests use. It is installed only
 * because those calls are inline; applications and PMDs must not use it,
 * and it may change in any release.
 */

#ifndef MBUFX_RX_H
#error "mbufx_rx_impl.h is not for direct inclusion: include mbufx_rx.h"
#endif

#ifdef __cplusplus
extern "C" {
#endif

/** @internal How an rx context computes IOVAs. */
enum mbufx_rx_iova_kind {
	/** One offset for the whole pool (IOVA as VA, or a single chunk). */
	MBUFX_RX_IOVA_LINEAR = 0,
	/**
	 * Per-chunk offsets, looked up by a branch-free search of the sorted
	 * chunk table (only when chunks of different offsets share a page).
	 */
	MBUFX_RX_IOVA_TABLE,
	/** No IOVA: MBUFX_RX_F_NO_IOVA, every buf.iova is RTE_BAD_IOVA. */
	MBUFX_RX_IOVA_NONE,
	/**
	 * Per-chunk offsets, one per page of the pool's address span in a
	 * direct table: one load (the usual case with hugepages in PA mode).
	 */
	MBUFX_RX_IOVA_PAGES,
};

/** @internal A memory chunk of the pool: [start, end), one IOVA offset. */
struct mbufx_rx_chunk {
	uintptr_t start;	/**< first byte */
	uintptr_t end;		/**< one past the last byte */
	uint64_t delta;		/**< iova - va, modulo 2^64 */
};

/**
 * @internal An rx context. Applications use the functions of mbufx_rx.h
 * only; the layout is here so that the fast path can be inline.
 */
struct mbufx_rx {
	/* read-mostly fast-path line */
	struct rte_mempool *mp;	/**< pool the buffers come from */
	uint64_t rearm;		/**< rearm word: data_off, refcnt 1, nb_segs 1, port */
	uint64_t iova_add;	/**< LINEAR: data IOVA = handle + iova_add */
	/**
	 * PAGES: data IOVA = handle + page_iova[handle >> page_shift]; the
	 * table's entries (iova - va of the page, plus data_offset) start at
	 * the pool's first page, and this pointer is biased by that page's
	 * number (an object never straddles two chunks, so its handle and its
	 * data address share the offset)
	 */
	const uint64_t *page_iova;
	uint32_t data_offset;	/**< object -> data address */
	uint32_t nb_chunks;	/**< entries of chunks[] */
	enum mbufx_rx_iova_kind iova_kind; /**< how refill computes IOVAs */
	uint32_t page_shift;	/**< PAGES: log2 of the table's page size */
	const struct mbufx_rx_chunk *chunks; /**< sorted by start */
	uint16_t port;		/**< mbuf port written at attach */
	uint16_t headroom;	/**< data_off written at attach */
	uint16_t room;		/**< bytes a buffer takes at its data address */
	uint16_t flags;		/**< MBUFX_RX_F_* given at create */
	uint32_t nb_pages;	/**< PAGES: entries of the page table */

	/**
	 * Counters: written by the owning thread only, read by anyone
	 * (relaxed loads). posted stays 0 here: it is derived when read.
	 */
	struct mbufx_rx_stats cnt __rte_cache_aligned;
};

/**
 * @internal Partial refill when a bulk get of n fails: gets as many as
 * possible in smaller bulks. Returns how many went to objs.
 */
unsigned int mbufx_rx_get_partial(struct rte_mempool *mp, void **objs,
		unsigned int n);

/**
 * @internal Add v to counter field of rx. Single writer: a plain add, but
 * a torn-free store for concurrent readers.
 */
#define MBUFX_RX_CNT_ADD(rx, field, v) \
	__atomic_store_n(&(rx)->cnt.field, (rx)->cnt.field + (v), \
			 __ATOMIC_RELAXED)

/**
 * @internal One step of a refill of n buffers of which done are taken: up to
 * MBUFX_RX_BULK_MAX more from the pool into objs, all-or-nothing bulk first,
 * then as many as there are. A shortfall is counted (refill_fails,
 * refill_missed) and ends the refill: the caller stops when the step
 * returned fewer than it asked for.
 */
static __rte_always_inline unsigned int
mbufx_rx_take(struct mbufx_rx *rx, void **objs, unsigned int n,
		unsigned int done)
{
	unsigned int k = RTE_MIN(n - done, (unsigned int)MBUFX_RX_BULK_MAX);
	unsigned int got = k;

	if (unlikely(rte_mempool_get_bulk(rx->mp, objs, k) != 0)) {
		got = mbufx_rx_get_partial(rx->mp, objs, k);
		if (got < k) {
			MBUFX_RX_CNT_ADD(rx, refill_fails, 1);
			MBUFX_RX_CNT_ADD(rx, refill_missed, n - done - got);
		}
	}
	return got;
}

/**
 * @internal IOVA of va in TABLE mode (va inside the pool's memory): the last
 * chunk starting at or below va, by a branch-free binary search (a fixed
 * log2(chunks) steps of load + conditional move: buffers from different
 * chunks interleave in any order without mispredicted branches).
 */
static __rte_always_inline rte_iova_t
mbufx_rx_table_iova(const struct mbufx_rx *rx, uintptr_t va)
{
	const struct mbufx_rx_chunk *c = rx->chunks;
	uint32_t n = rx->nb_chunks, half;

	while (n > 1) {
		half = n / 2;
		c = va >= c[half].start ? &c[half] : c;
		n -= half;
	}
	return va + c->delta;
}

/**
 * @internal IOVA of the data address of the object at handle (a buffer of
 * the pool), by kind: one addition (LINEAR) or one load and one addition
 * (PAGES), the data offset folded into the addend.
 */
static __rte_always_inline rte_iova_t
mbufx_rx_obj2iova(const struct mbufx_rx *rx, uintptr_t handle,
		const enum mbufx_rx_iova_kind kind)
{
	switch (kind) {
	case MBUFX_RX_IOVA_LINEAR:
		return handle + rx->iova_add;
	case MBUFX_RX_IOVA_PAGES:
		return handle + rx->page_iova[handle >> rx->page_shift];
	case MBUFX_RX_IOVA_TABLE:
		return mbufx_rx_table_iova(rx, handle + rx->data_offset);
	default:
		return RTE_BAD_IOVA;
	}
}

/** @internal Describe n objects as bare buffers; touches no object. */
static __rte_always_inline void
mbufx_rx_describe_kind(const struct mbufx_rx *rx, struct mbufx_rx_buf *bufs,
		void * const *objs, unsigned int n,
		const enum mbufx_rx_iova_kind kind)
{
	const uint32_t off = rx->data_offset;
	unsigned int i;

	for (i = 0; i < n; i++) {
		bufs[i].addr = RTE_PTR_ADD(objs[i], off);
		bufs[i].iova = mbufx_rx_obj2iova(rx, (uintptr_t)objs[i], kind);
		bufs[i].handle = objs[i];
	}
}

/** @internal One loop per kind: the switch stays out of the loop. */
static __rte_always_inline void
mbufx_rx_describe(const struct mbufx_rx *rx, struct mbufx_rx_buf *bufs,
		void * const *objs, unsigned int n)
{
	switch (rx->iova_kind) {
	case MBUFX_RX_IOVA_LINEAR:
		mbufx_rx_describe_kind(rx, bufs, objs, n, MBUFX_RX_IOVA_LINEAR);
		break;
	case MBUFX_RX_IOVA_PAGES:
		mbufx_rx_describe_kind(rx, bufs, objs, n, MBUFX_RX_IOVA_PAGES);
		break;
	case MBUFX_RX_IOVA_TABLE:
		mbufx_rx_describe_kind(rx, bufs, objs, n, MBUFX_RX_IOVA_TABLE);
		break;
	default:
		mbufx_rx_describe_kind(rx, bufs, objs, n, MBUFX_RX_IOVA_NONE);
		break;
	}
}

/** @internal IOVA of the data address of handle h, in one kind. */
static __rte_always_inline rte_iova_t
mbufx_rx_iova_one(const struct mbufx_rx *rx, uintptr_t h, uintptr_t off,
		uint64_t add, uint32_t page_shift, const uint64_t *page_iova,
		const enum mbufx_rx_iova_kind kind)
{
	switch (kind) {
	case MBUFX_RX_IOVA_LINEAR:
		return h + add;
	case MBUFX_RX_IOVA_PAGES:
		return h + page_iova[h >> page_shift];
	case MBUFX_RX_IOVA_TABLE:
		return mbufx_rx_table_iova(rx, h + off);
	default:
		return RTE_BAD_IOVA;
	}
}

/**
 * @internal IOVAs of the data addresses of n handles into iova[], in one
 * kind: every field of rx the translation needs is read once, before the
 * loop (the stores to iova[] could alias rx for the compiler, which would
 * otherwise read them again for every buffer). Four buffers per step: the
 * loop's own increment, compare and branch are paid once per four
 * translations of one or two instructions each. The four are written out:
 * GCC leaves an inner loop of four rolled here.
 */
static __rte_always_inline void
mbufx_rx_iova_kind_burst(const struct mbufx_rx *rx, void * const *handles,
		rte_iova_t *iova, unsigned int n,
		const enum mbufx_rx_iova_kind kind)
{
	const uintptr_t off = rx->data_offset;
	const uint64_t add = rx->iova_add;
	const uint32_t page_shift = rx->page_shift;
	const uint64_t *page_iova = rx->page_iova;
	unsigned int i = 0;

	for (; i + 4 <= n; i += 4) {
		iova[i] = mbufx_rx_iova_one(rx, (uintptr_t)handles[i], off,
					    add, page_shift, page_iova, kind);
		iova[i + 1] = mbufx_rx_iova_one(rx,
				(uintptr_t)handles[i + 1], off, add,
				page_shift, page_iova, kind);
		iova[i + 2] = mbufx_rx_iova_one(rx,
				(uintptr_t)handles[i + 2], off, add,
				page_shift, page_iova, kind);
		iova[i + 3] = mbufx_rx_iova_one(rx,
				(uintptr_t)handles[i + 3], off, add,
				page_shift, page_iova, kind);
	}
	for (; i < n; i++)
		iova[i] = mbufx_rx_iova_one(rx, (uintptr_t)handles[i], off,
					    add, page_shift, page_iova, kind);
}

/** @internal mbufx_rx_iova_kind_burst(), one loop per kind. */
static __rte_always_inline void
mbufx_rx_iova_burst(const struct mbufx_rx *rx, void * const *handles,
		rte_iova_t *iova, unsigned int n)
{
	switch (rx->iova_kind) {
	case MBUFX_RX_IOVA_LINEAR:
		mbufx_rx_iova_kind_burst(rx, handles, iova, n,
					 MBUFX_RX_IOVA_LINEAR);
		break;
	case MBUFX_RX_IOVA_PAGES:
		mbufx_rx_iova_kind_burst(rx, handles, iova, n,
					 MBUFX_RX_IOVA_PAGES);
		break;
	case MBUFX_RX_IOVA_TABLE:
		mbufx_rx_iova_kind_burst(rx, handles, iova, n,
					 MBUFX_RX_IOVA_TABLE);
		break;
	default:
		mbufx_rx_iova_kind_burst(rx, handles, iova, n,
					 MBUFX_RX_IOVA_NONE);
		break;
	}
}

/**
 * @internal Write the RX metadata into the first cache line of m, with
 * rearm as its rearm word: nine fields in seven stores.
 */
static __rte_always_inline struct rte_mbuf *
mbufx_rx_fill_word(const struct mbufx_rx *rx, uint64_t rearm, void *handle,
		uint64_t ol_flags, uint32_t ptype, uint16_t len, uint32_t rss,
		uint32_t hash_hi, uint16_t vlan_tci, uint16_t vlan_tci_outer)
{
	struct rte_mbuf *m = (struct rte_mbuf *)handle;
	/* hash.fdir.lo (= hash.rss) and hash.fdir.hi: one 8-byte store */
	const struct { uint32_t lo, hi; } hash = { rss, hash_hi };

	RTE_SET_USED(rx);
#ifdef RTE_LIBRTE_MBUF_DEBUG
	/* the free-pool invariant attach relies on (second cache line) */
	RTE_VERIFY(m->next == NULL && m->nb_segs == 1 && m->pool == rx->mp);
	RTE_VERIFY(len <= rx->room);
#endif
	/* data_off, refcnt, nb_segs, port: one 8-byte store */
	memcpy(RTE_PTR_ADD(m, offsetof(struct rte_mbuf, rearm_data)),
	       &rearm, sizeof(rearm));
	m->ol_flags = ol_flags;
	m->packet_type = ptype;
	m->pkt_len = len;
	m->data_len = len;
	m->vlan_tci = vlan_tci;
	memcpy(&m->hash, &hash, sizeof(hash));
	m->vlan_tci_outer = vlan_tci_outer;
	return m;
}

/** @internal mbufx_rx_fill_word() with the context's rearm word. */
static __rte_always_inline struct rte_mbuf *
mbufx_rx_fill(const struct mbufx_rx *rx, void *handle, uint64_t ol_flags,
		uint32_t ptype, uint16_t len, uint32_t rss, uint32_t hash_hi,
		uint16_t vlan_tci, uint16_t vlan_tci_outer)
{
	return mbufx_rx_fill_word(rx, rx->rearm, handle, ol_flags, ptype, len,
				  rss, hash_hi, vlan_tci, vlan_tci_outer);
}

/** @internal Bit position in the rearm word of the mbuf field at offset off. */
#if RTE_BYTE_ORDER == RTE_LITTLE_ENDIAN
#define MBUFX_RX_REARM_SHIFT(off) \
	(8 * ((off) - offsetof(struct rte_mbuf, rearm_data)))
#else
#define MBUFX_RX_REARM_SHIFT(off) \
	(8 * (6 - ((off) - offsetof(struct rte_mbuf, rearm_data))))
#endif

/**
 * @internal Rearm word rearm with another data_off and nb_segs, by masks
 * and shifts in a register: a word composed in memory (an 8-byte store,
 * 2-byte stores over it, an 8-byte load) cannot be forwarded from the store
 * buffer and stalls the load for every packet.
 */
static __rte_always_inline uint64_t
mbufx_rx_rearm_word_with(uint64_t rearm, uint16_t data_off, uint16_t nb_segs)
{
	const unsigned int s_off =
		MBUFX_RX_REARM_SHIFT(offsetof(struct rte_mbuf, data_off));
	const unsigned int s_segs =
		MBUFX_RX_REARM_SHIFT(offsetof(struct rte_mbuf, nb_segs));

	rearm &= ~((UINT64_C(0xffff) << s_off) | (UINT64_C(0xffff) << s_segs));
	return rearm | (uint64_t)data_off << s_off |
		(uint64_t)nb_segs << s_segs;
}

/** @internal The context's rearm word with another data_off and nb_segs. */
static __rte_always_inline uint64_t
mbufx_rx_rearm_with(const struct mbufx_rx *rx, uint16_t data_off,
		uint16_t nb_segs)
{
	return mbufx_rx_rearm_word_with(rx->rearm, data_off, nb_segs);
}

/** @internal Write one segment's first cache line. */
static __rte_always_inline void
mbufx_rx_fill_seg(struct rte_mbuf *m, uint64_t rearm, uint64_t ol_flags,
		uint32_t ptype, uint32_t pkt_len, uint16_t data_len)
{
	memcpy(RTE_PTR_ADD(m, offsetof(struct rte_mbuf, rearm_data)), &rearm,
	       sizeof(rearm));
	m->ol_flags = ol_flags;
	m->packet_type = ptype;
	m->pkt_len = pkt_len;
	m->data_len = data_len;
	m->vlan_tci = 0;
	m->hash.fdir.lo = 0;
	m->hash.fdir.hi = 0;
	m->vlan_tci_outer = 0;
}


/*
 * The descriptor-NIC family: a device whose descriptors hold an IOVA, with
 * the receive loop keeping handles in a software ring. Internal: its only
 * users are the benchmark generator (app/common/app_gen.c) and the
 * library's tests and RX-ring model (test/test_mbufx_rx*.c); a PMD of that
 * kind would make them public with the shape it needs.
 */

/**
 * @internal
 * Receive metadata for mbufx_rx_attach_meta() / mbufx_rx_attach_burst():
 * what a PMD takes from a completed descriptor.
 */
struct mbufx_rx_meta {
	uint64_t ol_flags;	/**< RTE_MBUF_F_RX_* flags */
	uint32_t packet_type;	/**< RTE_PTYPE_* */
	uint32_t rss;		/**< hash.rss (hash.fdir.lo) */
	uint32_t hash_hi;	/**< hash.fdir.hi (FDIR id / flex bytes), else 0 */
	uint16_t len;		/**< frame length: pkt_len = data_len = len */
	uint16_t vlan_tci;	/**< stripped VLAN TCI (RTE_MBUF_F_RX_VLAN) */
	uint16_t vlan_tci_outer; /**< stripped outer TCI (RTE_MBUF_F_RX_QINQ) */
};

/**
 * @internal
 * Data address of a posted buffer, from its handle, without touching it.
 *
 * @param rx
 *   The context the buffer came from.
 * @param handle
 *   The buffer's handle.
 * @return
 *   Where the frame goes (buf_addr + headroom of the mbuf).
 */
static inline void *
mbufx_rx_handle_addr(const struct mbufx_rx *rx, const void *handle)
{
	return RTE_PTR_ADD((uintptr_t)handle, rx->data_offset);
}


/**
 * @internal
 * IOVA of a posted buffer's data address, from its handle, without touching
 * the buffer (address arithmetic over the pool's chunks).
 *
 * @param rx
 *   The context the buffer came from.
 * @param handle
 *   The buffer's handle.
 * @return
 *   The IOVA of mbufx_rx_handle_addr(); RTE_BAD_IOVA for a context created
 *   with MBUFX_RX_F_NO_IOVA.
 */
static inline rte_iova_t
mbufx_rx_handle_iova(const struct mbufx_rx *rx, const void *handle)
{
	return mbufx_rx_obj2iova(rx, (uintptr_t)handle, rx->iova_kind);
}


/**
 * @internal
 * Refill shaped like a PMD's: n handles straight into a software ring, all
 * or nothing, no header access. The caller then programs each descriptor
 * with mbufx_rx_handle_iova() (and, for a software device,
 * mbufx_rx_handle_addr()).
 *
 * @param rx
 *   The context.
 * @param handles
 *   Array of n entries, filled on success.
 * @param n
 *   Number of buffers wanted.
 * @return
 *   0, or -ENOBUFS (nothing taken; counted in refill_fails and
 *   refill_missed) when the pool cannot give n.
 */
static inline int
mbufx_rx_refill_bulk(struct mbufx_rx *rx, void **handles, unsigned int n)
{
	if (unlikely(n == 0))	/* never ask a pool for zero objects */
		return 0;
	if (unlikely(rte_mempool_get_bulk(rx->mp, handles, n) != 0)) {
		MBUFX_RX_CNT_ADD(rx, refill_fails, 1);
		MBUFX_RX_CNT_ADD(rx, refill_missed, n);
		return -ENOBUFS;
	}
	MBUFX_RX_CNT_ADD(rx, refilled, n);
	return 0;
}


/**
 * @internal
 * mbufx_rx_refill_bulk() that also gives the IOVA of each buffer's data
 * address, computed for the whole burst in one loop (the translation's
 * fields read once): a descriptor NIC's refill, which then programs
 * descriptor i with iova[i]. No header access.
 *
 * @param rx
 *   The context.
 * @param handles
 *   Array of n entries, filled on success.
 * @param iova
 *   Array of n entries, filled on success: mbufx_rx_handle_iova() of each
 *   handle (RTE_BAD_IOVA for a context created with MBUFX_RX_F_NO_IOVA).
 * @param n
 *   Number of buffers wanted.
 * @return
 *   0, or -ENOBUFS (nothing taken; counted in refill_fails and
 *   refill_missed) when the pool cannot give n.
 */
static inline int
mbufx_rx_refill_iova(struct mbufx_rx *rx, void **handles, rte_iova_t *iova,
		unsigned int n)
{
	int ret = mbufx_rx_refill_bulk(rx, handles, n);

	if (likely(ret == 0))
		mbufx_rx_iova_burst(rx, handles, iova, n);
	return ret;
}


/**
 * @internal
 * mbufx_rx_attach() with the full metadata (hash, VLAN tags) and a handle,
 * for receive paths that keep only handles in their software ring.
 *
 * @param rx
 *   The context the buffer came from.
 * @param handle
 *   The buffer's handle.
 * @param meta
 *   Receive metadata; meta->len at most the context's room.
 * @return
 *   The mbuf (never NULL).
 */
static inline struct rte_mbuf *
mbufx_rx_attach_meta(struct mbufx_rx *rx, void *handle,
		const struct mbufx_rx_meta *meta)
{
	MBUFX_RX_CNT_ADD(rx, attached, 1);
	return mbufx_rx_fill(rx, handle, meta->ol_flags, meta->packet_type,
			     meta->len, meta->rss, meta->hash_hi,
			     meta->vlan_tci, meta->vlan_tci_outer);
}

/**
 * What the attaches of one receive loop read from the context, read once
 * before the loop by mbufx_rx_burst_begin() and kept in a local: every
 * attach stores into an mbuf, which for the compiler could be the context,
 * so an attach that read the context itself would load its rearm word
 * again for every packet. Its fields are internal: callers get it from
 * mbufx_rx_burst_begin() and pass it to the uncounted attach forms
 * (mbufx_rx_attach_at_uncounted(), mbufx_rx_attach_uncounted()).
 */
struct mbufx_rx_burst {
	uint64_t rearm;			/**< the context's rearm word */
	const struct mbufx_rx *rx;	/**< the context (debug checks only) */
};

/**
 * Start a receive loop's attaches: what the uncounted attach forms need
 * from the context. The context must outlive the burst state.
 *
 * @param rx
 *   The context the loop's buffers came from.
 * @return
 *   The burst state, for a local variable.
 */
static inline struct mbufx_rx_burst
mbufx_rx_burst_begin(const struct mbufx_rx *rx)
{
	struct mbufx_rx_burst b = { .rearm = rx->rearm, .rx = rx };

	return b;
}

/**
 * @internal
 * mbufx_rx_attach_meta() for a receive loop that counts its burst once:
 * the same writes, not counted, the context's fields from the burst state
 * of mbufx_rx_burst_begin(). The loop ends with mbufx_rx_attached()
 * (mbufx_rx.h) of the number of buffers it attached, before the mbufs
 * leave the receive call (the counters' invariants hold between bursts).
 * One counter update per burst instead of one per packet: a per-packet
 * read-modify-write of the counter in memory chains every packet of the
 * loop to the previous one's store.
 *
 * @param b
 *   The burst state of the context the buffer came from.
 * @param handle
 *   The buffer's handle.
 * @param meta
 *   Receive metadata; meta->len at most the context's room.
 * @return
 *   The mbuf (never NULL).
 */
static inline struct rte_mbuf *
mbufx_rx_attach_uncounted(const struct mbufx_rx_burst *b, void *handle,
		const struct mbufx_rx_meta *meta)
{
	return mbufx_rx_fill_word(b->rx, b->rearm, handle, meta->ol_flags,
				  meta->packet_type, meta->len, meta->rss,
				  meta->hash_hi, meta->vlan_tci,
				  meta->vlan_tci_outer);
}


/**
 * @internal
 * Prefetch the header line that attach will write in the buffer of
 * @p handle (the mbuf's first cache line); reads nothing. Late attach
 * touches that line once, a transmit and a receive ring lap after the
 * application last did, so it has often left L2 by then: a receive loop
 * that, while attaching descriptor i, prefetches the buffer posted at
 * descriptor i + burst size (the one the next burst attaches) takes those
 * misses in the background instead of one after another in the burst.
 *
 * @param handle
 *   A posted buffer's handle.
 */
static inline void
mbufx_rx_prefetch(const void *handle)
{
	rte_prefetch0(RTE_PTR_ADD(handle, offsetof(struct rte_mbuf, rearm_data)));
}


/**
 * @internal
 * Burst form of mbufx_rx_attach_meta().
 *
 * @param rx
 *   The context the buffers came from.
 * @param handles
 *   n handles.
 * @param meta
 *   n metadata entries, meta[i] for handles[i].
 * @param pkts
 *   Receives the n mbufs.
 * @param n
 *   Number of buffers.
 * @return
 *   n.
 */
static inline unsigned int
mbufx_rx_attach_burst(struct mbufx_rx *rx, void * const *handles,
		const struct mbufx_rx_meta *meta, struct rte_mbuf **pkts,
		unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		pkts[i] = mbufx_rx_fill(rx, handles[i], meta[i].ol_flags,
					meta[i].packet_type, meta[i].len,
					meta[i].rss, meta[i].hash_hi,
					meta[i].vlan_tci,
					meta[i].vlan_tci_outer);
	MBUFX_RX_CNT_ADD(rx, attached, n);
	return n;
}

#ifdef __cplusplus
}
#endif

#endif /* MBUFX_RX_IMPL_H */
