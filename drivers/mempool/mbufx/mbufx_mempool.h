/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The mbufx authors
 */

/*
 * Private header of the mbufx mempool driver: the pool layout shared by the
 * ops (mbufx_mempool.c), the pool classes and memory code
 * (mbufx_mempool_class.c) and
 * the statistics and telemetry (mbufx_mempool_stats.c). Nothing here is
 * installed; applications see the driver through the mempool ops name only.
 */

#ifndef MBUFX_MEMPOOL_H
#define MBUFX_MEMPOOL_H

#include <stdint.h>

#include <rte_common.h>
#include <rte_lcore.h>
#include <rte_log.h>
#include <rte_mempool.h>
#include <rte_spinlock.h>

#include "mbufx_consts.h"

/*
 * MBUFX_OPS_NAME (one name only: Debian leaves 2 of 16 ops slots free) and
 * MBUFX_JUMBO_FRAME_LEN come from mbufx_consts.h, the macros-only header the
 * library shares; the driver includes no library header.
 */

/*
 * Objects per magazine, the unit moved between lcores and the depot: as large
 * as the pool allows (fewer depot visits), as small as keeps what the lcores'
 * magazines may hold under a quarter of the pool (two magazines each).
 */
#define MBUFX_MAG_MAX 512
#define MBUFX_MAG_MIN 16

/** Slot used by threads without an lcore id and by secondary processes. */
#define MBUFX_SHARED_SLOT RTE_MAX_LCORE
#define MBUFX_NB_SLOTS (RTE_MAX_LCORE + 1)
/** Words of the active-slot map. */
#define MBUFX_MAP_WORDS ((MBUFX_NB_SLOTS + 63) / 64)

/** Per-lcore slots provisioned beyond the EAL lcores (registered threads). */
#define MBUFX_EXTRA_SLOTS 4

extern int mbufx_mp_logtype;
#define MBUFX_MP_LOG(level, fmt, ...) \
	rte_log(RTE_LOG_ ## level, mbufx_mp_logtype, "mbufx_mempool: " fmt "\n", \
		##__VA_ARGS__)

/*
 * What the driver recognises a pool as, from its pktmbuf private area: the
 * pool's class. (A "zone" is the library's: one pool of a zone set.)
 */
enum mbufx_mp_class {
	MBUFX_MP_CLASS_GENERIC = 0,	/**< not a pktmbuf pool, or odd room */
	MBUFX_MP_CLASS_PACKET,		/**< 2K class: headroom + [1518, 4096) */
	MBUFX_MP_CLASS_JUMBO,		/**< headroom + MBUFX_JUMBO_FRAME_LEN and up */
};

/** Smallest buffer (data room less headroom) of the packet class. */
#define MBUFX_PACKET_MIN_BUF 1518
/** First buffer size that is no longer 2K class. */
#define MBUFX_PACKET_MAX_BUF 4096

/**
 * A magazine: a LIFO array of free object pointers, kept outside the objects
 * (DPDK's mempool_autotest checks that free objects are never written).
 */
struct mbufx_mag {
	struct mbufx_mag *next;	/**< link in a depot stack */
	uint32_t n;
	void *objs[];		/**< mbufx_pool.mag_cap entries */
};

/**
 * Counters of one slot, written by its owner only (no atomics); uint64_t
 * only, each named once in mbufx_mempool_stats.c.
 */
struct mbufx_slot_stats {
	uint64_t gets;		/**< dequeue calls served */
	uint64_t puts;		/**< enqueue calls */
	uint64_t get_objs;	/**< objects handed out */
	uint64_t put_objs;	/**< objects taken back */
	uint64_t mags_in;	/**< full magazines taken from the depot */
	uint64_t mags_out;	/**< full magazines given to the depot */
	uint64_t empty;		/**< dequeues refused: not enough objects */
	uint64_t steals;	/**< dequeues that had to gather from other lcores */
};

/*
 * A slot: the two magazines of one lcore (cur is loaded; prev is full or
 * empty, as in Bonwick's magazine layer). The owner enters with a store to
 * busy and a check of steal; a thief (an lcore gathering objects stranded
 * in other slots for an all-or-nothing dequeue) takes lock, raises steal,
 * fences and waits for busy to drop. See the prose in mbufx_mempool.c.
 */
struct mbufx_slot {
	uint32_t busy;		/**< owner is inside an operation */
	uint32_t steal;		/**< a thief owns the slot */
	uint16_t active;	/**< has its two magazines */
	uint16_t asym;		/**< owner enters fence-free: thieves membarrier */
	rte_spinlock_t lock;	/**< thieves; every user of the shared slot */
	struct mbufx_mag *cur;
	struct mbufx_mag *prev;
	struct mbufx_slot_stats st;
} __rte_cache_aligned;

/*
 * The depot: stacks of full and of empty magazines, linked through the
 * magazines themselves, so a hand-over touches the depot's one cache line
 * and the magazine's first line, which the taker reads anyway.
 */
struct mbufx_depot {
	rte_spinlock_t lock;
	uint32_t nb_full;
	uint32_t nb_empty;
	uint32_t slots_left;	/**< per-lcore slots that may still activate */
	struct mbufx_mag *full;
	struct mbufx_mag *empty;
} __rte_cache_aligned;

/** Checking mode of a pool (mbufx_mempool_check.c). */
enum mbufx_check_mode {
	MBUFX_CHECK_OFF = 0,
	MBUFX_CHECK_LOG,	/**< report, count, refuse the bad put */
	MBUFX_CHECK_ABORT,	/**< report, then abort() */
};

/** Kinds of errors the checking mode counts. */
enum mbufx_check_err {
	MBUFX_CHECK_DOUBLE_FREE = 0,
	MBUFX_CHECK_FOREIGN,
	MBUFX_CHECK_WRITE_AFTER_FREE,
	MBUFX_CHECK_NB_ERR,
};

struct mbufx_check;

/** Driver state of one pool (mp->pool_data), in the pool's socket memory. */
struct mbufx_pool {
	struct mbufx_depot depot;
	rte_spinlock_t steal_lock;	/**< one thief at a time */
	enum mbufx_mp_class cls;	/**< what the pool is */
	uint16_t data_room;		/**< pktmbuf data room, 0 if none */
	uint32_t size;			/**< mp->size */
	uint32_t mag_cap;		/**< objects per magazine */
	uint32_t mag_stride;		/**< bytes per magazine */
	uint32_t nb_mags;
	uint8_t pack;			/**< next chunk sized as one IOVA run */
	uint8_t iova_contig;		/**< all memory is one IOVA-contiguous range */
	uint8_t placement_logged;	/**< the jumbo placement was logged */
	struct rte_mempool *mp;
	struct mbufx_mag *mags;
	struct mbufx_check *check;	/**< checking mode, NULL when off */
	/**
	 * Bit i: slot i is active (set once, after its active flag): the
	 * walks over slots (count, steal, stats) visit the few active ones
	 * instead of all RTE_MAX_LCORE + 1.
	 */
	uint64_t active_map[MBUFX_MAP_WORDS];
	struct mbufx_slot slots[MBUFX_NB_SLOTS];
};

/** The first active slot at or after i, or MBUFX_NB_SLOTS. */
static inline unsigned int
mbufx_slot_next(const struct mbufx_pool *p, unsigned int i)
{
	uint64_t w;

	while (i < MBUFX_NB_SLOTS) {
		w = __atomic_load_n(&p->active_map[i / 64], __ATOMIC_ACQUIRE) >>
			(i % 64);
		if (w != 0)
			return i + (unsigned int)__builtin_ctzll(w);
		i = (i / 64 + 1) * 64;
	}
	return MBUFX_NB_SLOTS;
}

/** For each active slot index i of pool p. */
#define MBUFX_FOREACH_SLOT(p, i)					\
	for ((i) = mbufx_slot_next((p), 0); (i) < MBUFX_NB_SLOTS;	\
	     (i) = mbufx_slot_next((p), (i) + 1))

/* mbufx_mempool_class.c */
enum mbufx_mp_class mbufx_mp_classify(const struct rte_mempool *mp,
				     uint16_t *data_room);
const char *mbufx_mp_class_name(enum mbufx_mp_class cls);
ssize_t mbufx_mp_calc_mem_size(const struct rte_mempool *mp, uint32_t obj_num,
			       uint32_t pg_shift, size_t *min_chunk_size,
			       size_t *align);
int mbufx_mp_populate(struct rte_mempool *mp, unsigned int max_objs,
		      void *vaddr, rte_iova_t iova, size_t len,
		      rte_mempool_populate_obj_cb_t *obj_cb, void *obj_cb_arg);

/* mbufx_mempool_stats.c */
struct mbufx_mp_stats {
	struct mbufx_slot_stats sum;
	uint32_t free_objs;
	uint32_t nb_full_mags;
	uint32_t nb_empty_mags;
	uint32_t active_slots;
};
void mbufx_mp_stats_get(const struct mbufx_pool *p, struct mbufx_mp_stats *st);
void mbufx_mp_stats_log(const struct mbufx_pool *p);
void mbufx_mp_registry_add(struct mbufx_pool *p);
void mbufx_mp_registry_del(struct mbufx_pool *p);
void mbufx_mp_telemetry_register(void);

/* mbufx_mempool.c */
unsigned int mbufx_mp_count(const struct mbufx_pool *p);
int mbufx_mp_enqueue_unchecked(struct rte_mempool *mp, void * const *objs,
			       unsigned int n);

/* mbufx_mempool_check.c */
struct rte_tel_data;
int mbufx_mp_check_init(struct mbufx_pool *p);
void mbufx_mp_check_fini(struct mbufx_pool *p);
int mbufx_mp_check_put(struct rte_mempool *mp, void * const *objs,
		       unsigned int n, const void *caller);
void mbufx_mp_check_get(struct rte_mempool *mp, void * const *objs,
			unsigned int n);
void mbufx_mp_check_tel(const struct mbufx_pool *p, struct rte_tel_data *d);

#endif /* MBUFX_MEMPOOL_H */
