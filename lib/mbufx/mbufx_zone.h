/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The mbufx authors
 */

#ifndef MBUFX_ZONE_H
#define MBUFX_ZONE_H

/**
 * @file
 * mbufx zone sets and size-generic allocation.
 *
 * A zone set is three pktmbuf pools on one NUMA socket, created through the
 * "mbufx" mempool driver (or any ops name, for comparisons): a packet zone
 * (2176-byte data rooms, the common case), a jumbo zone (9344 bytes: a
 * 9000-byte frame, MBUFX_JUMBO_FRAME_LEN, in one segment) and a header zone
 * (256 bytes: chained headers and clones). The picture of the zones and the
 * allocation ladder is in doc/guides/prog_guide/mbufx_lib.rst, "Zone sets".
 *
 * mbufx_alloc() picks the smallest of the packet and jumbo zones that holds
 * len bytes after the standard headroom; the packet-zone case is an inline
 * fast path (one compare more than rte_pktmbuf_alloc()). The header zone is
 * not part of that ladder on purpose: it is the reserve from which the
 * library takes the small mbufs it chains in front of packets, so that a
 * burst of small packets can never starve prepend, pullup and fan-out.
 *
 * Every pool is an ordinary pktmbuf pool (rte_pktmbuf_pool_create_by_ops()):
 * mbufs go back with rte_pktmbuf_free() from any thread, and a PMD may be
 * fed directly from mbufx_zone_set_pool(zs, MBUFX_ZONE_PKT).
 *
 * Thread safety: create and free are control-path calls serialised by a
 * lock (with each other and with the telemetry and dump readers). Lookup
 * takes no lock and never returns a set that is still being created or
 * already being freed (also to secondary processes); the pointer it returns
 * stays valid until the set is freed, so a set must not be freed while
 * another thread may use it.
 * Allocation is multi-thread safe (it is a mempool get); counters are
 * per lcore and written without atomics from EAL lcores (non-EAL threads
 * share one slot updated atomically).
 */

#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <rte_branch_prediction.h>
#include <rte_common.h>
#include <rte_errno.h>
#include <rte_lcore.h>
#include <rte_mbuf.h>
#include <rte_mempool.h>

#include "mbufx_consts.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Zones of a zone set. */
enum mbufx_zone_id {
	MBUFX_ZONE_HDR = 0,	/**< small mbufs for chained headers and clones */
	MBUFX_ZONE_PKT,		/**< 2K packet zone: the common case */
	MBUFX_ZONE_JUMBO,	/**< single-segment 9000-byte frames */
	MBUFX_ZONE_NUM		/**< number of zones */
};

/**
 * Short name of a zone, as in telemetry, JSON and log lines.
 *
 * @param z
 *   Zone.
 * @return
 *   "hdr", "pkt" or "jumbo"; "?" for a value out of range.
 */
const char *mbufx_zone_name(enum mbufx_zone_id z);

/** Maximum length of a zone-set name, including the terminating NUL. */
#define MBUFX_ZONE_SET_NAMESIZE 20

/** Do not create the jumbo zone: jumbo requests are served as chains. */
#define MBUFX_ZONE_F_NO_JUMBO RTE_BIT32(0)
/** Do not create the header zone: headers and clones come from the
 * packet zone. */
#define MBUFX_ZONE_F_NO_HDR RTE_BIT32(1)

/** Default header-zone object count (2^q - 1, the mempool optimum). */
#define MBUFX_ZONE_DEFAULT_COUNT_HDR 8191
/** Default packet-zone object count. */
#define MBUFX_ZONE_DEFAULT_COUNT_PKT 16383
/** Default jumbo-zone object count. */
#define MBUFX_ZONE_DEFAULT_COUNT_JUMBO 2047
/** Default per-lcore cache of the header and packet zones. */
#define MBUFX_ZONE_DEFAULT_CACHE 256
/** Default per-lcore cache of the jumbo zone. */
#define MBUFX_ZONE_DEFAULT_CACHE_JUMBO 64
/** Default header-zone data room, headroom included. */
#define MBUFX_ZONE_DEFAULT_ROOM_HDR 256
/** Default packet-zone data room: 2048 + headroom = 2176. */
#define MBUFX_ZONE_DEFAULT_ROOM_PKT RTE_MBUF_DEFAULT_BUF_SIZE
/** Default jumbo-zone data room: 9216 + headroom = 9344, a jumbo frame
 * (MBUFX_JUMBO_FRAME_LEN, 9000 bytes) in one segment. */
#define MBUFX_ZONE_DEFAULT_ROOM_JUMBO (9216 + RTE_PKTMBUF_HEADROOM)
/** Value of mbufx_zone_params.cache[] that disables the per-lcore cache. */
#define MBUFX_ZONE_CACHE_NONE UINT32_MAX
/** Default mempool ops name. */
#define MBUFX_ZONE_DEFAULT_OPS MBUFX_OPS_NAME

/**
 * Zone-set creation parameters. A zeroed struct means "all defaults";
 * mbufx_zone_params_init() fills in the default values explicitly.
 */
struct mbufx_zone_params {
	/** Objects per zone; 0 = default. */
	uint32_t count[MBUFX_ZONE_NUM];
	/** Per-lcore cache per zone; 0 = default, MBUFX_ZONE_CACHE_NONE = no
	 * cache. */
	uint32_t cache[MBUFX_ZONE_NUM];
	/** Data room per zone, headroom included; 0 = default. Must grow
	 * strictly from HDR to PKT to JUMBO and exceed RTE_PKTMBUF_HEADROOM. */
	uint16_t data_room[MBUFX_ZONE_NUM];
	/** Application private area of every mbuf (multiple of
	 * RTE_MBUF_PRIV_ALIGN), default 0. */
	uint16_t priv_size;
	/** MBUFX_ZONE_F_* */
	uint32_t flags;
	/** Mempool ops; NULL = "mbufx". "ring_mp_mc" etc. for comparisons. */
	const char *ops_name;
};

/**
 * Counters and occupancy of a zone set: what mbufx_zone_set_stats() returns.
 *
 * Declared once: dumps, telemetry and the applications' JSON iterate the
 * table of names and offsets mbufx_zone_stats_fields() returns (see
 * mbufx_stats.h), and the zone set keeps one of these per lcore, of which
 * the library counters (the uint64_t fields before rx_refilled) are used
 * and summed on read. A new library counter is one uint64_t line in the
 * first group and one line in the table (mbufx_stats.c); a unit test checks
 * that the table covers the struct.
 */
struct mbufx_zone_stats {
	/* library counters: per lcore, summed on read (uint64_t only) */
	uint64_t alloc[MBUFX_ZONE_NUM];	/**< mbufs taken by the library */
	uint64_t alloc_fail;		/**< mbufx_alloc*() returning ENOMEM */
	uint64_t jumbo_fallback;	/**< jumbo requests served as chains */
	uint64_t pkt_fallback;		/**< packet requests served by jumbo */
	/** library mbufs (headers, indirect mbufs) taken from a larger zone
	 * because the one that fits (the header zone, mostly) was empty */
	uint64_t hdr_fallback;
	uint64_t prepend_inplace;	/**< prepends into writable leading space */
	uint64_t prepend_chained;	/**< prepends that chained a header mbuf */
	uint64_t pullup_noop;		/**< pullups already contiguous */
	uint64_t pullup_inplace;	/**< pullups without an allocation */
	/** pullups with an allocation: a fresh first segment, or an indirect
	 * mbuf replacing a shared segment structure */
	uint64_t pullup_alloc;
	uint64_t fanout_hdr_alloc;	/**< fan-out header mbufs allocated */
	uint64_t fanout_hdr_saved;	/**< fan-out copies served by the original */
	uint64_t fanout_deep;		/**< fan-out copies made as private copies */
	uint64_t fanout_indirect;	/**< indirect mbufs sharing payload */

	/* late attach: summed over the rx contexts bound to the zone pools */
	uint64_t rx_refilled[MBUFX_ZONE_NUM];	/**< bare buffers handed out */
	uint64_t rx_attached[MBUFX_ZONE_NUM];	/**< buffers turned into mbufs */
	uint64_t rx_returned[MBUFX_ZONE_NUM];	/**< bare buffers given back */
	uint32_t rx_contexts[MBUFX_ZONE_NUM];	/**< live rx contexts */

	/* occupancy, read from the pools (0 for a disabled zone) */
	uint32_t size[MBUFX_ZONE_NUM];	/**< objects per zone */
	uint32_t avail[MBUFX_ZONE_NUM];	/**< free, caches included */
	uint32_t in_use[MBUFX_ZONE_NUM]; /**< size - avail */
	uint16_t data_room[MBUFX_ZONE_NUM]; /**< data room, headroom incl. */
} __rte_cache_aligned;

/** @internal Number of per-lcore counters at the start of the stats. */
#define MBUFX_ZONE_NB_LCORE_CTRS \
	(offsetof(struct mbufx_zone_stats, rx_refilled) / sizeof(uint64_t))

/**
 * @internal One lcore's library counters: the uint64_t fields of struct
 * mbufx_zone_stats before rx_refilled, in that order. 128 bytes, two cache
 * lines of their own per lcore: no false sharing between lcores.
 */
struct mbufx_zone_lcore_ctrs {
	uint64_t v[MBUFX_ZONE_NB_LCORE_CTRS]; /**< in mbufx_zone_stats order */
} __rte_cache_aligned;

/**
 * A zone set: what the inline calls read. The rest (name, socket,
 * parameters, ops name) is the library's, behind this part; read it with
 * mbufx_zone_set_params() and mbufx_zone_set_stats(). Read-only after
 * creation except for the counters.
 */
struct mbufx_zone_set {
	/** Pools, NULL for a disabled zone. */
	struct rte_mempool *pool[MBUFX_ZONE_NUM];
	/** Bytes a fresh mbuf of each zone holds after RTE_PKTMBUF_HEADROOM
	 * (data room minus headroom); 0 for a disabled zone. */
	uint32_t room[MBUFX_ZONE_NUM];
	/** Largest len mbufx_alloc() accepts: the jumbo room, also when the
	 * jumbo zone is disabled (requests are then served as chains). Stored
	 * last at creation and cleared first at free: 0 means the set is not
	 * (or no longer) complete, and lookup does not return it. */
	uint32_t max_len;
	/** Counters: one slot per lcore, the last for non-EAL threads. */
	struct mbufx_zone_lcore_ctrs ctrs[RTE_MAX_LCORE + 1];
} __rte_cache_aligned;

/** @internal Counter f (a field of struct mbufx_zone_stats) of slot lc. */
#define MBUFX_ZONE_CTR(zs, lc, f) \
	((zs)->ctrs[lc].v[offsetof(struct mbufx_zone_stats, f) / \
			  sizeof(uint64_t)])

/** @internal Add v to counter field f of the calling thread's slot. */
#define MBUFX_ZONE_STAT_ADD(zs, f, v) do {				\
	unsigned int lc_ = rte_lcore_id();				\
	if (likely(lc_ < RTE_MAX_LCORE))				\
		MBUFX_ZONE_CTR(zs, lc_, f) += (v);			\
	else								\
		__atomic_fetch_add(&MBUFX_ZONE_CTR(zs, RTE_MAX_LCORE, f), \
				   (v), __ATOMIC_RELAXED);		\
} while (0)

/**
 * Fill p with the defaults: counts 8191 / 16383 / 2047, caches 256 / 256 /
 * 64, data rooms 256 / 2176 / 9344, no private area, no flags, ops "mbufx".
 *
 * @param p
 *   Parameters to initialise (not NULL).
 */
void mbufx_zone_params_init(struct mbufx_zone_params *p);

/**
 * Create a zone set: one pktmbuf pool per enabled zone, named
 * "<name>_hdr", "<name>_pkt" and "<name>_jum".
 *
 * @param name
 *   Unique name, at most MBUFX_ZONE_SET_NAMESIZE - 1 characters.
 * @param socket_id
 *   NUMA socket of the pools; SOCKET_ID_ANY = the calling lcore's socket
 *   (rte_socket_id()), any socket when the caller has none. A port's socket
 *   is rte_eth_dev_socket_id(port).
 * @param p
 *   Parameters, NULL = defaults (mbufx_zone_params_init()).
 * @return
 *   The zone set, or NULL with rte_errno set:
 *   - EINVAL: name NULL or empty, bad parameters (rooms not increasing,
 *     room not above the headroom, cache larger than the mempool allows,
 *     priv_size not aligned, unknown flag);
 *   - ENAMETOOLONG: name too long;
 *   - EEXIST: a zone set or one of the pools has that name already;
 *   - ENOENT: no mempool ops of that name is registered (the "mbufx"
 *     driver not loaded?);
 *   - EXDEV: a secondary process numbers its mempool drivers unlike the
 *     primary (see mbufx_pool_ops_check());
 *   - ENOMEM: not enough memory;
 *   - any other rte_errno of rte_pktmbuf_pool_create_by_ops().
 */
struct mbufx_zone_set *mbufx_zone_set_create(const char *name, int socket_id,
		const struct mbufx_zone_params *p);

/**
 * Find a zone set by name.
 *
 * @param name
 *   Name given at creation.
 * @return
 *   The zone set, or NULL with rte_errno = ENOENT (also while the set is
 *   being created or freed by another thread), EINVAL (NULL name) or EXDEV
 *   (this process numbers its mempool drivers unlike the primary: a pool's
 *   ops index names another driver here; see mbufx_pool_ops_check()).
 */
struct mbufx_zone_set *mbufx_zone_set_lookup(const char *name);

/**
 * Free a zone set and its pools, unless mbufs are still out.
 *
 * Freeing a pool whose mbufs are still in use (in a PMD ring, a queue, a
 * clone) would leave dangling buffers, so this refuses and frees nothing.
 * Stop and release the ports' queues first.
 *
 * @param zs
 *   Zone set; NULL is a no-op returning 0.
 * @return
 *   0 when freed, -EBUSY (and a log line per zone) when mbufs are out.
 */
int mbufx_zone_set_free(struct mbufx_zone_set *zs);

/**
 * The pool of a zone, e.g. to feed a PMD's Rx queue from the packet zone.
 *
 * @return
 *   The pool, or NULL with rte_errno = EINVAL (bad argument) or ENOENT
 *   (zone disabled by a flag).
 */
struct rte_mempool *mbufx_zone_set_pool(const struct mbufx_zone_set *zs,
		enum mbufx_zone_id z);

/**
 * The parameters a zone set was created with, defaults resolved (zero
 * fields filled in, MBUFX_ZONE_CACHE_NONE as 0).
 *
 * @param zs
 *   Zone set.
 * @param p
 *   Filled in; p->ops_name points into the zone set (valid while it lives).
 * @return
 *   0, or -EINVAL (zs or p NULL).
 */
int mbufx_zone_set_params(const struct mbufx_zone_set *zs,
		struct mbufx_zone_params *p);

/**
 * Check that this process drives a pool with the mempool driver it was
 * created on: the check every library call makes where it meets a pool
 * (zone-set create and lookup, statistics, telemetry), for PMDs and
 * late-attach contexts to make too (mbufx_rx_create()).
 *
 * A pool stores only its ops index, and each process numbers its mempool
 * drivers in the order it registers them: drivers linked into the program
 * first, then -d plugins in command-line order, then the EAL's plugin
 * directory. Two programs (dpdk-testpmd and dpdk-proc-info, say) may give
 * the same index to different drivers, and a get or put through the wrong
 * one corrupts the pool. The primary's numbering is the reference: the mbufx
 * driver and library record it in shared memory (MBUFX_OPS_RECORD_MZ); a
 * process whose index names another driver is refused, with a log line
 * giving the cause and the workaround (load the same drivers in the same
 * order in every process).
 *
 * @param mp
 *   Pool.
 * @param ops_name
 *   The ops the pool must be on (a zone set's ops name), or NULL to check
 *   against the primary's record only (any ops).
 * @return
 *   0 when the pool's ops index names ops_name (or, in a secondary process,
 *   the driver the primary numbers so) in this process; -EINVAL for a NULL
 *   mp; -EXDEV when it names another driver, or none. Pools of a primary
 *   that recorded nothing (neither the mbufx driver nor the library ever
 *   created a pool there) are checked against ops_name only.
 */
int mbufx_pool_ops_check(const struct rte_mempool *mp, const char *ops_name);

/**
 * Check that every zone is full again (every mbuf returned): the leak
 * check applications run at exit. Objects in per-lcore caches count as
 * returned.
 *
 * @param zs
 *   Zone set.
 * @param f
 *   Where to print one line per zone with mbufs still out; NULL = silent.
 * @return
 *   0 when every zone is full, -EBUSY when mbufs are out, -EINVAL for a
 *   NULL zs.
 */
int mbufx_zone_set_audit(const struct mbufx_zone_set *zs, FILE *f);

/** @internal Slow path of mbufx_alloc(): jumbo zone, fallbacks, errors. */
struct rte_mbuf *mbufx_alloc_slow(struct mbufx_zone_set *zs, uint32_t len);
/** @internal Slow path of mbufx_alloc_bulk(). */
int mbufx_alloc_bulk_slow(struct mbufx_zone_set *zs, struct rte_mbuf **m,
		unsigned int n, uint32_t len);

/**
 * @internal One object off the top of lcore lc's default cache of mp, as
 * rte_mempool_generic_get() takes it, into *m. 0, or -ENOENT when that cache
 * is absent or empty (the caller then asks DPDK). rte_mempool_generic_get() of one object
 * is public but slower here: on 22.11 its n-object loops stay, on 24.11 and
 * 25.11 its cache hit is a taken branch. This is the one place libmbufx reads
 * struct rte_mempool_cache (len, objs[]); mbufx_zone_autotest's
 * test_cache_pop checks on the installed DPDK that it hands out exactly what
 * DPDK's own get would, in the same order, and keeps the cache consistent.
 */
static inline int
mbufx_cache_pop(struct rte_mempool *mp, unsigned int lc, struct rte_mbuf **m)
{
	struct rte_mempool_cache *c = rte_mempool_default_cache(mp, lc);

	if (unlikely(c == NULL || c->len == 0))
		return -ENOENT;
	*m = (struct rte_mbuf *)c->objs[--c->len];
	RTE_MEMPOOL_CACHE_STAT_ADD(c, get_success_bulk, 1);
	RTE_MEMPOOL_CACHE_STAT_ADD(c, get_success_objs, 1);
	RTE_MEMPOOL_CHECK_COOKIES(mp, (void **)m, 1, 1);
	return 0;
}

/**
 * Allocate an mbuf that holds len bytes after the standard headroom.
 *
 * - len <= room[PKT] (2048 by default): one packet-zone mbuf, inline.
 *   Packet zone dry: one jumbo-zone mbuf (counted as pkt_fallback).
 * - len <= room[JUMBO] (9216 by default): one jumbo-zone mbuf; jumbo zone
 *   dry or disabled: a chain of packet-zone mbufs (counted as
 *   jumbo_fallback): the first keeps the standard headroom, the others
 *   start at their buffer's beginning (data_off 0), 5 segments for 9216
 *   bytes with the default rooms.
 *
 * Every segment is empty (data_len 0, pkt_len 0). Free with
 * rte_pktmbuf_free().
 *
 * @warning A jumbo-sized request may return a CHAIN (m->next != NULL)
 * although the caller asked for one buffer. Fill it with
 * mbufx_append_data(), never with rte_pktmbuf_append(): DPDK's append
 * writes into the last segment only, so it returns NULL for more than one
 * segment's room, and for less leaves the first segments empty (a packet
 * whose data starts in its last segment, which many PMDs do not expect).
 * Code that writes through rte_pktmbuf_mtod() must check m->next == NULL
 * first, or ask rte_pktmbuf_is_contiguous() after filling.
 *
 * @param zs
 *   Zone set.
 * @param len
 *   Bytes the caller will store.
 * @return
 *   The mbuf (chain), or NULL with rte_errno = ENOMEM (no zone can serve)
 *   or EINVAL (len > zs->max_len).
 */
static inline struct rte_mbuf *
mbufx_alloc(struct mbufx_zone_set *zs, uint32_t len)
{
	/* Read the lcore id once, before any store: the mempool get below
	 * reuses it, and the counter slot needs no second look-up. Non-EAL
	 * threads take the slow path, which counts atomically. */
	unsigned int lc = rte_lcore_id();
	struct rte_mempool *mp;
	struct rte_mbuf *m;

	if (likely(len <= zs->room[MBUFX_ZONE_PKT] && lc < RTE_MAX_LCORE)) {
		mp = zs->pool[MBUFX_ZONE_PKT];
		if (likely(mbufx_cache_pop(mp, lc, &m) == 0)) {
			__rte_mbuf_raw_sanity_check(m);
			rte_pktmbuf_reset(m);
		} else {
			m = rte_pktmbuf_alloc(mp);
		}
		if (likely(m != NULL)) {
			MBUFX_ZONE_CTR(zs, lc, alloc[MBUFX_ZONE_PKT])++;
			return m;
		}
	}
	return mbufx_alloc_slow(zs, len);
}

/**
 * Allocate n mbufs as mbufx_alloc(zs, len) would, all or nothing.
 *
 * @param zs
 *   Zone set.
 * @param m
 *   Array of n pointers, filled on success.
 * @param n
 *   Number of mbufs.
 * @param len
 *   Bytes the caller will store in each.
 * @return
 *   0, or -ENOMEM (nothing allocated), or -EINVAL (len > zs->max_len or m
 *   NULL with n > 0).
 */
static inline int
mbufx_alloc_bulk(struct mbufx_zone_set *zs, struct rte_mbuf **m,
		 unsigned int n, uint32_t len)
{
	/* n == 0 goes to the slow path: a pool is never asked for zero
	 * objects (the ring driver refuses that without a cache) */
	if (likely(len <= zs->room[MBUFX_ZONE_PKT] && m != NULL && n != 0) &&
			likely(rte_pktmbuf_alloc_bulk(zs->pool[MBUFX_ZONE_PKT],
						      m, n) == 0)) {
		MBUFX_ZONE_STAT_ADD(zs, alloc[MBUFX_ZONE_PKT], n);
		return 0;
	}
	return mbufx_alloc_bulk_slow(zs, m, n, len);
}

#ifdef __cplusplus
}
#endif

#endif /* MBUFX_ZONE_H */
