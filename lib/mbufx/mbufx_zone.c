/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The mbufx authors
 */

/*
 * Zone sets.
 *
 * A zone set is a memzone named MBUFX_ZS_<name> holding struct
 * mbufx_zone_set, plus one pktmbuf pool per enabled zone. Keeping the
 * struct in a memzone gives name uniqueness and look-up for free, and puts
 * the per-lcore counters on the set's socket.
 *
 * Allocation ladder (mbufx_alloc()): packet zone inline; everything else
 * here. Fallbacks never take the header zone: it is the reserve for the
 * headers prepend, pullup and fan-out chain in front of packets. The
 * library's own mbufs go the other way (mbufx_lib_get()): from the zone
 * that fits, and when it is dry from the next larger one. Jumbo
 * chains keep the standard headroom in their first segment only; later
 * segments start at their buffer's beginning, which is what a PMD's
 * scattered Rx produces too.
 */

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include <rte_errno.h>
#include <rte_lcore.h>
#include <rte_log.h>
#include <rte_mbuf.h>
#include <rte_mbuf_pool_ops.h>
#include <rte_memzone.h>
#include <rte_mempool.h>
#include <rte_spinlock.h>
#include <rte_string_fns.h>

#include "mbufx_private.h"
#include "mbufx_zone.h"

RTE_LOG_REGISTER(mbufx_logtype, lib.mbufx, NOTICE);

static const char * const zone_names[MBUFX_ZONE_NUM] = {
	[MBUFX_ZONE_HDR] = "hdr",
	[MBUFX_ZONE_PKT] = "pkt",
	[MBUFX_ZONE_JUMBO] = "jumbo",
};

const char *
mbufx_zone_name(enum mbufx_zone_id z)
{
	return (unsigned int)z < MBUFX_ZONE_NUM ? zone_names[z] : "?";
}

/* Pool names are "<name>_hdr" etc.: they must fit a mempool name. */
static const char * const pool_suffix[MBUFX_ZONE_NUM] = {
	[MBUFX_ZONE_HDR] = "_hdr",
	[MBUFX_ZONE_PKT] = "_pkt",
	[MBUFX_ZONE_JUMBO] = "_jum",
};

/* Serialises create and free with each other and with the readers that
 * walk every zone set (telemetry, mbufx_zone_set_dump(f, NULL)). */
static rte_spinlock_t zone_set_lock = RTE_SPINLOCK_INITIALIZER;

#define ALLOC_CHUNK 32

void
mbufx_zone_params_init(struct mbufx_zone_params *p)
{
	if (p == NULL)
		return;
	memset(p, 0, sizeof(*p));
	p->count[MBUFX_ZONE_HDR] = MBUFX_ZONE_DEFAULT_COUNT_HDR;
	p->count[MBUFX_ZONE_PKT] = MBUFX_ZONE_DEFAULT_COUNT_PKT;
	p->count[MBUFX_ZONE_JUMBO] = MBUFX_ZONE_DEFAULT_COUNT_JUMBO;
	p->cache[MBUFX_ZONE_HDR] = MBUFX_ZONE_DEFAULT_CACHE;
	p->cache[MBUFX_ZONE_PKT] = MBUFX_ZONE_DEFAULT_CACHE;
	p->cache[MBUFX_ZONE_JUMBO] = MBUFX_ZONE_DEFAULT_CACHE_JUMBO;
	p->data_room[MBUFX_ZONE_HDR] = MBUFX_ZONE_DEFAULT_ROOM_HDR;
	p->data_room[MBUFX_ZONE_PKT] = MBUFX_ZONE_DEFAULT_ROOM_PKT;
	p->data_room[MBUFX_ZONE_JUMBO] = MBUFX_ZONE_DEFAULT_ROOM_JUMBO;
	p->ops_name = MBUFX_ZONE_DEFAULT_OPS;
}

/* Largest cache the mempool accepts for n objects (flush threshold 1.5x). */
static uint32_t
cache_limit(uint32_t n)
{
	uint32_t c = n * 2 / 3;

	return RTE_MIN(c, (uint32_t)RTE_MEMPOOL_CACHE_MAX_SIZE);
}

static int
ops_known(const char *name)
{
	unsigned int i;

	for (i = 0; i < rte_mempool_ops_table.num_ops; i++)
		if (strcmp(rte_mempool_ops_table.ops[i].name, name) == 0)
			return 1;
	return 0;
}

/* Defaults for zero fields, then a validity check. */
static int
params_resolve(struct mbufx_zone_params *p,
	       const struct mbufx_zone_params *user)
{
	struct mbufx_zone_params def;
	unsigned int z;

	mbufx_zone_params_init(&def);
	if (user == NULL) {
		*p = def;
	} else {
		*p = *user;
		for (z = 0; z < MBUFX_ZONE_NUM; z++) {
			if (p->count[z] == 0)
				p->count[z] = def.count[z];
			if (p->data_room[z] == 0)
				p->data_room[z] = def.data_room[z];
			if (p->cache[z] == 0)
				p->cache[z] = RTE_MIN(def.cache[z],
						      cache_limit(p->count[z]));
			else if (p->cache[z] == MBUFX_ZONE_CACHE_NONE)
				p->cache[z] = 0;
		}
		if (p->ops_name == NULL)
			p->ops_name = def.ops_name;
	}
	if (p->flags & ~(MBUFX_ZONE_F_NO_JUMBO | MBUFX_ZONE_F_NO_HDR))
		return -EINVAL;
	if (!ops_known(p->ops_name))
		return -ENOENT;
	if (p->priv_size % RTE_MBUF_PRIV_ALIGN != 0)
		return -EINVAL;
	for (z = 0; z < MBUFX_ZONE_NUM; z++) {
		if (p->data_room[z] <= RTE_PKTMBUF_HEADROOM)
			return -EINVAL;
		if (p->cache[z] > cache_limit(p->count[z]))
			return -EINVAL;
	}
	if (p->data_room[MBUFX_ZONE_HDR] >= p->data_room[MBUFX_ZONE_PKT] ||
	    p->data_room[MBUFX_ZONE_PKT] >= p->data_room[MBUFX_ZONE_JUMBO])
		return -EINVAL;
	return 0;
}

/* ---- several processes --------------------------------------------- */

/*
 * The primary's ops numbering (MBUFX_OPS_RECORD_MZ, mbufx_consts.h): the
 * driver records it at its first pool, the library at its first zone set
 * (a zone set may be on stock ops only). Whoever comes first writes it.
 */
static void
ops_record_write(void)
{
	const size_t nsz = RTE_MEMPOOL_OPS_NAMESIZE;
	const struct rte_memzone *mz;
	unsigned int i;

	if (rte_eal_process_type() != RTE_PROC_PRIMARY ||
	    rte_memzone_lookup(MBUFX_OPS_RECORD_MZ) != NULL)
		return;
	mz = rte_memzone_reserve(MBUFX_OPS_RECORD_MZ,
				 RTE_MEMPOOL_MAX_OPS_IDX * nsz, SOCKET_ID_ANY, 0);
	if (mz == NULL)
		return; /* recorded meanwhile, or no memory: no check */
	memset(mz->addr, 0, mz->len);
	for (i = 0; i < rte_mempool_ops_table.num_ops; i++)
		strlcpy((char *)mz->addr + i * nsz,
			rte_mempool_ops_table.ops[i].name, nsz);
}

/* The record, once found (never freed while the primary runs). Not looked
 * up under mbufx_zone_set_walk(), which holds the memzone read lock: a
 * nested read lock waits behind a pending writer. */
static const char *ops_record;
static RTE_DEFINE_PER_LCORE(int, in_walk);

static const char *
ops_record_find(void)
{
	const struct rte_memzone *mz;

	if (ops_record == NULL && !RTE_PER_LCORE(in_walk)) {
		mz = rte_memzone_lookup(MBUFX_OPS_RECORD_MZ);
		if (mz != NULL)
			__atomic_store_n(&ops_record, mz->addr, __ATOMIC_RELEASE);
	}
	return __atomic_load_n(&ops_record, __ATOMIC_ACQUIRE);
}

int
mbufx_pool_ops_check(const struct rte_mempool *mp, const char *ops_name)
{
	const size_t nsz = RTE_MEMPOOL_OPS_NAMESIZE;
	const char *here = NULL, *want = ops_name, *rec;
	int idx;

	if (mp == NULL)
		return -EINVAL;
	idx = mp->ops_index;
	if (idx >= 0 && (uint32_t)idx < rte_mempool_ops_table.num_ops)
		here = rte_mempool_ops_table.ops[idx].name;
	if (rte_eal_process_type() != RTE_PROC_PRIMARY && idx >= 0 &&
	    idx < RTE_MEMPOOL_MAX_OPS_IDX) {
		rec = ops_record_find();
		if (rec != NULL && rec[(size_t)idx * nsz] != '\0')
			want = rec + (size_t)idx * nsz;
	}
	if (here != NULL && (want == NULL || strncmp(here, want, nsz) == 0))
		return 0;
	MBUFX_LOG(ERR, "pool %s: ops index %d is \"%s\" in this process but "
		  "\"%.*s\" %s: this process would call another mempool driver "
		  "on it. Processes number their mempool drivers in the order "
		  "they register them (drivers linked into the program first, "
		  "then -d plugins in command-line order, then the EAL plugin "
		  "directory): load the same drivers in the same order in every "
		  "process (doc/guides/mempool/mbufx.rst, Several processes)",
		  mp->name, idx, here != NULL ? here : "(none)", (int)nsz,
		  want != NULL ? want : "?",
		  want == ops_name ? "for its zone set" : "in the primary process");
	return -EXDEV;
}

/* Every pool of the set driven by its ops here: 0 or -EXDEV. */
static int
zone_set_ops_check(const struct mbufx_zone_set *zs)
{
	unsigned int z;

	for (z = 0; z < MBUFX_ZONE_NUM; z++)
		if (zs->pool[z] != NULL &&
		    mbufx_pool_ops_check(zs->pool[z],
					 mbufx_zs_priv(zs)->ops_name) != 0)
			return -EXDEV;
	return 0;
}

static int
zone_enabled(const struct mbufx_zone_params *p, unsigned int z)
{
	if (z == MBUFX_ZONE_HDR)
		return !(p->flags & MBUFX_ZONE_F_NO_HDR);
	if (z == MBUFX_ZONE_JUMBO)
		return !(p->flags & MBUFX_ZONE_F_NO_JUMBO);
	return 1;
}

static void
pools_free(struct mbufx_zone_set *zs)
{
	unsigned int z;

	for (z = 0; z < MBUFX_ZONE_NUM; z++) {
		rte_mempool_free(zs->pool[z]);
		zs->pool[z] = NULL;
	}
}

/* A zone-set name: 0, -EINVAL or -ENAMETOOLONG. */
static int
zone_set_name_check(const char *name)
{
	if (name == NULL || name[0] == '\0')
		return -EINVAL;
	if (strnlen(name, MBUFX_ZONE_SET_NAMESIZE) >= MBUFX_ZONE_SET_NAMESIZE)
		return -ENAMETOOLONG;
	return 0;
}

/*
 * The zone set's memzone, its name, socket and parameters filled in; NULL
 * with rte_errno set (EEXIST: the name is taken). Under zone_set_lock.
 */
static struct mbufx_zone_set_priv *
zone_set_reserve(const char *name, int socket_id,
		 const struct mbufx_zone_params *p,
		 const struct rte_memzone **mzp)
{
	char mzname[RTE_MEMZONE_NAMESIZE];
	const struct rte_memzone *mz;
	struct mbufx_zone_set_priv *zp;

	snprintf(mzname, sizeof(mzname), MBUFX_ZS_MZ_PREFIX "%s", name);
	if (rte_memzone_lookup(mzname) != NULL) {
		rte_errno = EEXIST;
		return NULL;
	}
	mz = rte_memzone_reserve(mzname, sizeof(*zp), socket_id, 0);
	if (mz == NULL)
		return NULL; /* rte_errno set */
	zp = mz->addr;
	memset(zp, 0, sizeof(*zp));
	strlcpy(zp->name, name, sizeof(zp->name));
	zp->socket_id = socket_id;
	zp->params = *p;
	strlcpy(zp->ops_name, p->ops_name, sizeof(zp->ops_name));
	zp->params.ops_name = zp->ops_name;
	*mzp = mz;
	return zp;
}

/* One pool per enabled zone: 0, or the errno of the pool that failed. */
static int
zone_set_pools_create(struct mbufx_zone_set_priv *zp)
{
	const struct mbufx_zone_params *p = &zp->params;
	struct mbufx_zone_set *zs = &zp->pub;
	char pname[RTE_MEMPOOL_NAMESIZE];
	unsigned int z;
	int ret;

	for (z = 0; z < MBUFX_ZONE_NUM; z++) {
		if (!zone_enabled(p, z))
			continue;
		snprintf(pname, sizeof(pname), "%s%s", zp->name,
			 pool_suffix[z]);
		zs->pool[z] = rte_pktmbuf_pool_create_by_ops(pname, p->count[z],
				p->cache[z], p->priv_size, p->data_room[z],
				zp->socket_id, p->ops_name);
		if (zs->pool[z] == NULL) {
			ret = rte_errno;
			MBUFX_LOG(ERR, "zone set %s: pool %s (%u x %u B, ops %s): %s",
				  zp->name, pname, p->count[z], p->data_room[z],
				  p->ops_name, rte_strerror(ret));
			return ret;
		}
		zs->room[z] = p->data_room[z] - RTE_PKTMBUF_HEADROOM;
		/* a secondary numbering its drivers unlike the primary */
		if (mbufx_pool_ops_check(zs->pool[z], p->ops_name) != 0)
			return EXDEV;
	}
	return 0;
}

struct mbufx_zone_set *
mbufx_zone_set_create(const char *name, int socket_id,
		      const struct mbufx_zone_params *user)
{
	struct mbufx_zone_params p;
	const struct rte_memzone *mz = NULL;
	struct mbufx_zone_set_priv *zp;
	int ret;

	RTE_BUILD_BUG_ON(sizeof(struct mbufx_zone_lcore_ctrs) !=
			 2 * RTE_CACHE_LINE_SIZE);
	RTE_BUILD_BUG_ON(sizeof(MBUFX_ZS_MZ_PREFIX) - 1 +
			 MBUFX_ZONE_SET_NAMESIZE > RTE_MEMZONE_NAMESIZE);
	RTE_BUILD_BUG_ON(MBUFX_ZONE_SET_NAMESIZE + 4 > RTE_MEMPOOL_NAMESIZE);
	RTE_BUILD_BUG_ON(MBUFX_ZONE_DEFAULT_ROOM_JUMBO <
			 MBUFX_JUMBO_FRAME_LEN + RTE_PKTMBUF_HEADROOM);
	RTE_BUILD_BUG_ON(MBUFX_ZONE_DEFAULT_ROOM_HDR <= RTE_PKTMBUF_HEADROOM);

	ret = zone_set_name_check(name);
	if (ret < 0) {
		rte_errno = -ret;
		return NULL;
	}
	ret = params_resolve(&p, user);
	if (ret < 0) {
		MBUFX_LOG(ERR, "zone set %s: %s", name, ret == -ENOENT ?
			  "unknown mempool ops" : "invalid parameters");
		rte_errno = -ret;
		return NULL;
	}
	if (socket_id == SOCKET_ID_ANY)
		socket_id = (int)rte_socket_id();

	ops_record_write();
	rte_spinlock_lock(&zone_set_lock);
	zp = zone_set_reserve(name, socket_id, &p, &mz);
	if (zp == NULL)
		goto fail_unlock;
	ret = zone_set_pools_create(zp);
	if (ret != 0)
		goto fail_pools;
	/* publish: lookup (lock-free, maybe from another process) sees the
	 * memzone from the reserve on, but the set only once max_len is set */
	__atomic_store_n(&zp->pub.max_len,
			 p.data_room[MBUFX_ZONE_JUMBO] - RTE_PKTMBUF_HEADROOM,
			 __ATOMIC_RELEASE);
	rte_spinlock_unlock(&zone_set_lock);
	return &zp->pub;

fail_pools:
	pools_free(&zp->pub);
	rte_memzone_free(mz);
	rte_errno = ret;
fail_unlock:
	rte_spinlock_unlock(&zone_set_lock);
	return NULL;
}

/* Complete and not being freed: max_len is stored last by create and
 * cleared first by free. */
static int
zone_set_published(const struct mbufx_zone_set *zs)
{
	return __atomic_load_n(&zs->max_len, __ATOMIC_ACQUIRE) != 0;
}

struct mbufx_zone_set *
mbufx_zone_set_lookup(const char *name)
{
	char mzname[RTE_MEMZONE_NAMESIZE];
	const struct rte_memzone *mz;

	if (name == NULL) {
		rte_errno = EINVAL;
		return NULL;
	}
	if (snprintf(mzname, sizeof(mzname), MBUFX_ZS_MZ_PREFIX "%s", name) >=
			(int)sizeof(mzname)) {
		rte_errno = ENOENT;
		return NULL;
	}
	mz = rte_memzone_lookup(mzname);
	/* a set still being created, or being freed, is not published */
	if (mz == NULL || !zone_set_published(mz->addr)) {
		rte_errno = ENOENT;
		return NULL;
	}
	if (zone_set_ops_check(mz->addr) != 0) {
		rte_errno = EXDEV;
		return NULL;
	}
	return mz->addr;
}

/* Print (when f != NULL) and count the zones that are not full. */
static int
zones_out(const struct mbufx_zone_set *zs, FILE *f)
{
	unsigned int z, avail, busy = 0;

	for (z = 0; z < MBUFX_ZONE_NUM; z++) {
		if (zs->pool[z] == NULL)
			continue;
		avail = rte_mempool_avail_count(zs->pool[z]);
		if (avail == zs->pool[z]->size)
			continue;
		busy++;
		if (f != NULL)
			fprintf(f, "mbufx: zone set %s: %s zone (%s): %u of %u "
				"mbufs still out\n", mbufx_zs_priv(zs)->name,
				mbufx_zone_name(z), zs->pool[z]->name,
				zs->pool[z]->size - avail, zs->pool[z]->size);
	}
	return busy;
}

int
mbufx_zone_set_audit(const struct mbufx_zone_set *zs, FILE *f)
{
	if (zs == NULL)
		return -EINVAL;
	return zones_out(zs, f) != 0 ? -EBUSY : 0;
}

int
mbufx_zone_set_free(struct mbufx_zone_set *zs)
{
	char mzname[RTE_MEMZONE_NAMESIZE];
	const struct rte_memzone *mz;
	unsigned int z;

	if (zs == NULL)
		return 0;
	rte_spinlock_lock(&zone_set_lock);
	if (zones_out(zs, NULL) != 0) {
		rte_spinlock_unlock(&zone_set_lock);
		for (z = 0; z < MBUFX_ZONE_NUM; z++)
			if (zs->pool[z] != NULL &&
			    rte_mempool_avail_count(zs->pool[z]) !=
					zs->pool[z]->size)
				MBUFX_LOG(ERR, "zone set %s not freed: %s zone "
					  "has %u mbufs out", mbufx_zs_priv(zs)->name,
					  mbufx_zone_name(z),
					  zs->pool[z]->size -
					  rte_mempool_avail_count(zs->pool[z]));
		return -EBUSY;
	}
	snprintf(mzname, sizeof(mzname), MBUFX_ZS_MZ_PREFIX "%s",
		 mbufx_zs_priv(zs)->name);
	mz = rte_memzone_lookup(mzname);
	/* unpublish before the pools go */
	__atomic_store_n(&zs->max_len, 0, __ATOMIC_RELEASE);
	pools_free(zs);
	if (mz != NULL)
		rte_memzone_free(mz);
	rte_spinlock_unlock(&zone_set_lock);
	return 0;
}

int
mbufx_zone_set_params(const struct mbufx_zone_set *zs,
		      struct mbufx_zone_params *p)
{
	if (zs == NULL || p == NULL)
		return -EINVAL;
	*p = mbufx_zs_priv(zs)->params;
	return 0;
}

struct rte_mempool *
mbufx_zone_set_pool(const struct mbufx_zone_set *zs, enum mbufx_zone_id z)
{
	if (zs == NULL || (unsigned int)z >= MBUFX_ZONE_NUM) {
		rte_errno = EINVAL;
		return NULL;
	}
	if (zs->pool[z] == NULL)
		rte_errno = ENOENT;
	return zs->pool[z];
}

struct walk_arg {
	void (*fn)(const struct mbufx_zone_set *zs, void *arg);
	void *arg;
};

static void
walk_one(const struct rte_memzone *mz, void *arg)
{
	struct walk_arg *wa = arg;

	if (strncmp(mz->name, MBUFX_ZS_MZ_PREFIX,
		    sizeof(MBUFX_ZS_MZ_PREFIX) - 1) == 0 &&
	    zone_set_published(mz->addr))
		wa->fn(mz->addr, wa->arg);
}

void
mbufx_zone_set_walk(void (*fn)(const struct mbufx_zone_set *zs, void *arg),
		    void *arg)
{
	struct walk_arg wa = { .fn = fn, .arg = arg };

	ops_record_find();
	rte_spinlock_lock(&zone_set_lock);
	RTE_PER_LCORE(in_walk) = 1;
	rte_memzone_walk(walk_one, &wa);
	RTE_PER_LCORE(in_walk) = 0;
	rte_spinlock_unlock(&zone_set_lock);
}

int
mbufx_zone_set_with(const char *name,
		    void (*fn)(const struct mbufx_zone_set *zs, void *arg),
		    void *arg)
{
	const struct mbufx_zone_set *zs;
	int ret = 0;

	rte_spinlock_lock(&zone_set_lock);
	zs = mbufx_zone_set_lookup(name);
	if (zs != NULL)
		fn(zs, arg);
	else
		ret = -rte_errno;
	rte_spinlock_unlock(&zone_set_lock);
	return ret;
}

/* ---- allocation slow paths ------------------------------------------ */

int
mbufx_lib_get(struct mbufx_zone_set *zs, enum mbufx_zone_id *zid,
	      struct rte_mbuf **v, unsigned int n)
{
	unsigned int z;

	for (z = *zid; z < MBUFX_ZONE_NUM; z++) {
		if (zs->pool[z] == NULL)
			continue;
		if (rte_pktmbuf_alloc_bulk(zs->pool[z], v, n) == 0) {
			*zid = (enum mbufx_zone_id)z;
			return 0;
		}
	}
	return -ENOMEM;
}

/* Counters of one call, committed when the call succeeds. */
struct alloc_acc {
	uint64_t alloc[MBUFX_ZONE_NUM];
	uint64_t jumbo_fallback;
	uint64_t pkt_fallback;
};

static void
acc_commit(struct mbufx_zone_set *zs, const struct alloc_acc *a)
{
	unsigned int z;

	for (z = 0; z < MBUFX_ZONE_NUM; z++)
		if (a->alloc[z] != 0)
			MBUFX_ZONE_STAT_ADD(zs, alloc[z], a->alloc[z]);
	if (a->jumbo_fallback != 0)
		MBUFX_ZONE_STAT_ADD(zs, jumbo_fallback, a->jumbo_fallback);
	if (a->pkt_fallback != 0)
		MBUFX_ZONE_STAT_ADD(zs, pkt_fallback, a->pkt_fallback);
}

/* A chain of packet-zone mbufs whose room holds len bytes. */
static struct rte_mbuf *
chain_alloc(struct mbufx_zone_set *zs, uint32_t len, struct alloc_acc *a)
{
	struct rte_mempool *mp = zs->pool[MBUFX_ZONE_PKT];
	struct rte_mbuf *seg[ALLOC_CHUNK];
	struct rte_mbuf *head = NULL, *tail = NULL;
	uint32_t room, buf_room, nseg, got = 0, i, k;

	room = zs->room[MBUFX_ZONE_PKT];
	buf_room = mbufx_zs_priv(zs)->params.data_room[MBUFX_ZONE_PKT];
	nseg = 1 + (len - room + buf_room - 1) / buf_room;
	if (nseg > RTE_MBUF_MAX_NB_SEGS) {
		rte_errno = EINVAL;
		return NULL;
	}
	while (got < nseg) {
		k = RTE_MIN(nseg - got, (uint32_t)ALLOC_CHUNK);
		if (rte_pktmbuf_alloc_bulk(mp, seg, k) != 0) {
			rte_pktmbuf_free(head);
			rte_errno = ENOMEM;
			return NULL;
		}
		for (i = 0; i < k; i++) {
			if (head == NULL) {
				head = seg[i];
			} else {
				seg[i]->data_off = 0;
				tail->next = seg[i];
			}
			tail = seg[i];
		}
		got += k;
	}
	head->nb_segs = (uint16_t)nseg;
	a->alloc[MBUFX_ZONE_PKT] += nseg;
	a->jumbo_fallback++;
	return head;
}

/* One mbuf (or chain) for len bytes. */
static struct rte_mbuf *
alloc_one(struct mbufx_zone_set *zs, uint32_t len, struct alloc_acc *a)
{
	struct rte_mempool *jp = zs->pool[MBUFX_ZONE_JUMBO];
	struct rte_mbuf *m;

	if (len <= zs->room[MBUFX_ZONE_PKT]) {
		m = rte_pktmbuf_alloc(zs->pool[MBUFX_ZONE_PKT]);
		if (m != NULL) {
			a->alloc[MBUFX_ZONE_PKT]++;
			return m;
		}
		if (jp != NULL) {
			m = rte_pktmbuf_alloc(jp);
			if (m != NULL) {
				a->alloc[MBUFX_ZONE_JUMBO]++;
				a->pkt_fallback++;
				return m;
			}
		}
		rte_errno = ENOMEM;
		return NULL;
	}
	if (len > zs->max_len) {
		rte_errno = EINVAL;
		return NULL;
	}
	if (jp != NULL) {
		m = rte_pktmbuf_alloc(jp);
		if (m != NULL) {
			a->alloc[MBUFX_ZONE_JUMBO]++;
			return m;
		}
	}
	return chain_alloc(zs, len, a);
}

struct rte_mbuf *
mbufx_alloc_slow(struct mbufx_zone_set *zs, uint32_t len)
{
	struct alloc_acc a = { { 0 }, 0, 0 };
	struct rte_mbuf *m;

	if (zs == NULL) {
		rte_errno = EINVAL;
		return NULL;
	}
	/* the inline path tried the packet zone already, except for non-EAL
	 * threads (and direct calls): trying again costs one failed get */
	m = alloc_one(zs, len, &a);
	if (m != NULL)
		acc_commit(zs, &a);
	else if (rte_errno == ENOMEM)
		MBUFX_ZONE_STAT_ADD(zs, alloc_fail, 1);
	return m;
}

int
mbufx_alloc_bulk_slow(struct mbufx_zone_set *zs, struct rte_mbuf **m,
		      unsigned int n, uint32_t len)
{
	struct alloc_acc a = { { 0 }, 0, 0 };
	unsigned int i;
	int err;

	if (zs == NULL || (m == NULL && n != 0))
		return -EINVAL;
	if (n == 0)
		return len > zs->max_len ? -EINVAL : 0;
	if (len > zs->max_len)
		return -EINVAL;
	if (len > zs->room[MBUFX_ZONE_PKT] &&
	    zs->pool[MBUFX_ZONE_JUMBO] != NULL &&
	    rte_pktmbuf_alloc_bulk(zs->pool[MBUFX_ZONE_JUMBO], m, n) == 0) {
		MBUFX_ZONE_STAT_ADD(zs, alloc[MBUFX_ZONE_JUMBO], n);
		return 0;
	}
	/* Mixed service: whatever each request can get, all or nothing. */
	for (i = 0; i < n; i++) {
		m[i] = alloc_one(zs, len, &a);
		if (m[i] == NULL) {
			err = rte_errno;
			while (i > 0)
				rte_pktmbuf_free(m[--i]);
			if (err == ENOMEM)
				MBUFX_ZONE_STAT_ADD(zs, alloc_fail, 1);
			return -err;
		}
	}
	acc_commit(zs, &a);
	return 0;
}
