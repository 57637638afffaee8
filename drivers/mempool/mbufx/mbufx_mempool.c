/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The mbufx authors
 */

/*
 * mbufx mempool driver: a magazine allocator under the DPDK mempool API.
 *
 * Each lcore owns a slot of two magazines (cur, prev), arrays of object
 * pointers used as stacks; threads without an lcore and secondary processes
 * share one slot under a spinlock; full and empty magazines wait in a depot
 * under another. The picture: doc/guides/mempool/mbufx.rst, "Design".
 *
 * Every level is last-in-first-out: a get takes the top of the lcore's
 * current magazine, then its previous one, then the most recently returned
 * full magazine of the depot. The object freed last is handed out next, still
 * warm in this core's cache; the ring driver, FIFO, cycles through every
 * object of the pool instead.
 *
 * Objects move between lcores in whole magazines: a lcore that frees more than
 * it allocates hands full magazines to the depot, one that allocates takes
 * them, and each hand-over is a pointer push or pop under the depot lock, O(1)
 * shared work per magazine. The lcore's own magazines are touched with plain
 * loads and stores: no lock, no CAS, no full fence on that path.
 *
 * Free lists live in the magazines, outside the objects: a free object is
 * never written (mempool_autotest checks this).
 *
 * Exact capacity, all-or-nothing. A dequeue of n either returns n objects or
 * none, and fails only when fewer than n objects are free anywhere in the
 * pool, including objects stranded in other lcores' magazines. Gathering
 * those is the slow path, a "steal" (steal_get()), in five steps:
 *
 *   1. freeze (steal_freeze): serialise on steal_lock, take each active
 *      slot's lock and raise its steal flag;
 *   2. fence (steal_fence): order the flags before the reads of busy, on the
 *      owners' side too (see below);
 *   3. wait (steal_wait): until no owner is inside an operation, counting
 *      what the frozen slots hold;
 *   4. gather (steal_gather): under the depot lock, n objects from our own
 *      slot, the other slots, then the depot, or nothing when the pool holds
 *      fewer;
 *   5. thaw (steal_thaw): lower the flags and unlock.
 *
 * The owner side is an asymmetric Dekker handshake: it stores busy = 1 and
 * then reads steal, with only a compiler barrier between, because the thief
 * issues membarrier(2) between raising steal and reading busy, which forces a
 * full barrier on every running thread of the owners' process. Either the
 * thief sees busy == 1 and waits, or the owner sees steal == 1 and takes the
 * slot lock instead.
 *
 * membarrier works only for a process that registered for it, and the
 * registration is per process while the pool is shared: the process that
 * activates a slot (the primary: the only one with per-lcore slots) registers
 * first, for MEMBARRIER_CMD_PRIVATE_EXPEDITED (its own thieves) and
 * MEMBARRIER_CMD_GLOBAL_EXPEDITED (thieves in secondary processes), and marks
 * the slot asym only when both worked; otherwise that owner takes its slot
 * lock on entry: one uncontended atomic (correct, slower). A thief fences
 * with the command that reaches the owners; when the call fails it gives up
 * the steal rather than touch a slot it could not fence.
 *
 * Lock order: steal_lock, then slot locks, then the depot lock (innermost).
 * An owner inside an operation may take only the depot lock, so a thief that
 * waits for busy to drop never waits on anything that owner holds.
 *
 * Threads without an lcore id, threads registered beyond the provisioned
 * slots and secondary processes (whose lcore ids overlap the primary's) use
 * the shared slot under its spinlock: the driver is MP/MC safe for every
 * caller, as the mempool contract requires for pools with cache 0.
 *
 * Magazine size: 512 objects, halved until two magazines per EAL lcore hold
 * at most a quarter of the pool (16 at least): big magazines mean few depot
 * visits (the cost that matters in a pipeline), small ones strand little.
 *
 * Empty magazines: the pool owns ceil(size / cap) + 1 magazines for objects
 * plus two per provisioned slot; a slot activates (takes its two magazines)
 * on first use. A put therefore always finds an empty magazine in the depot.
 *
 * Pool classes: see mbufx_mempool_class.c (packet, jumbo, generic; memory
 * layout).
 * Statistics and telemetry: mbufx_mempool_stats.c. Checking mode (double
 * free, foreign pointer, write after free; MBUFX_CHECK=1):
 * mbufx_mempool_check.c, one branch in each op here when off.
 */

#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <linux/membarrier.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <rte_eal.h>
#include <rte_errno.h>
#include <rte_malloc.h>
#include <rte_mbuf.h>
#include <rte_memzone.h>
#include <rte_mempool.h>
#include <rte_pause.h>
#include <rte_string_fns.h>

#include "mbufx_mempool.h"

RTE_LOG_REGISTER(mbufx_mp_logtype, pmd.mempool.mbufx, NOTICE);

/*
 * 1: this process is registered for both expedited membarriers, 0: it
 * cannot be, -1: not asked yet. Registering twice is harmless.
 */
static int membarrier_ok = -1;

static int
membarrier_probe(void)
{
	int ok = __atomic_load_n(&membarrier_ok, __ATOMIC_ACQUIRE);
	long cmds;

	if (ok >= 0)
		return ok;
	cmds = syscall(__NR_membarrier, MEMBARRIER_CMD_QUERY, 0, 0);
	ok = cmds >= 0 &&
		(cmds & MEMBARRIER_CMD_PRIVATE_EXPEDITED) != 0 &&
		(cmds & MEMBARRIER_CMD_GLOBAL_EXPEDITED) != 0 &&
		syscall(__NR_membarrier,
			MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED, 0, 0) == 0 &&
		syscall(__NR_membarrier,
			MEMBARRIER_CMD_REGISTER_GLOBAL_EXPEDITED, 0, 0) == 0;
	if (!ok)
		MBUFX_MP_LOG(INFO, "membarrier unavailable: lcores lock their slot");
	__atomic_store_n(&membarrier_ok, ok, __ATOMIC_RELEASE);
	return ok;
}

/* Secondary processes share the primary's lcore ids: they use the shared slot. */
static int proc_primary = -1;

static inline int
primary_process(void)
{
	if (unlikely(proc_primary < 0))
		proc_primary = rte_eal_process_type() == RTE_PROC_PRIMARY;
	return proc_primary;
}

/*
 * Copy object pointers. Bursts are short (typically 32): an inline loop the
 * compiler unrolls into vector moves beats a call into libc's memcpy.
 */
static __rte_always_inline void
obj_copy(void **dst, void * const *src, unsigned int n)
{
	unsigned int i;

	for (i = 0; i + 4 <= n; i += 4) {
		dst[i] = src[i];
		dst[i + 1] = src[i + 1];
		dst[i + 2] = src[i + 2];
		dst[i + 3] = src[i + 3];
	}
	for (; i < n; i++)
		dst[i] = src[i];
}

static inline void
mag_push(struct mbufx_mag **head, uint32_t *nb, struct mbufx_mag *m)
{
	m->next = *head;
	*head = m;
	(*nb)++;
}

static inline struct mbufx_mag *
mag_pop(struct mbufx_mag **head, uint32_t *nb)
{
	struct mbufx_mag *m = *head;

	*head = m->next;
	(*nb)--;
	return m;
}

/*
 * The ops numbering (MBUFX_OPS_RECORD_MZ in mbufx_consts.h): the primary
 * records its own at its first pool; a secondary whose numbering puts
 * "mbufx" where the primary has another driver must not create a pool,
 * since every other process would call that other driver on it. The library
 * keeps the same record (it cannot call the driver, nor the driver it).
 */
static int
ops_record(const struct rte_mempool *mp)
{
	const size_t nsz = RTE_MEMPOOL_OPS_NAMESIZE;
	const struct rte_memzone *mz;
	const char *rec;
	unsigned int i;

	mz = rte_memzone_lookup(MBUFX_OPS_RECORD_MZ);
	if (rte_eal_process_type() == RTE_PROC_PRIMARY) {
		if (mz != NULL)
			return 0;
		mz = rte_memzone_reserve(MBUFX_OPS_RECORD_MZ,
					 RTE_MEMPOOL_MAX_OPS_IDX * nsz,
					 SOCKET_ID_ANY, 0);
		if (mz == NULL)
			return 0; /* recorded meanwhile, or no memory: no check */
		memset(mz->addr, 0, mz->len);
		for (i = 0; i < rte_mempool_ops_table.num_ops; i++)
			strlcpy((char *)mz->addr + i * nsz,
				rte_mempool_ops_table.ops[i].name, nsz);
		return 0;
	}
	if (mz == NULL || mp->ops_index < 0 ||
	    mp->ops_index >= RTE_MEMPOOL_MAX_OPS_IDX)
		return 0;
	rec = (const char *)mz->addr + (size_t)mp->ops_index * nsz;
	if (rec[0] == '\0' || strncmp(rec, MBUFX_OPS_NAME, nsz) == 0)
		return 0;
	MBUFX_MP_LOG(ERR, "pool %s not created: ops index %d is \"%s\" in this "
		     "process but \"%.*s\" in the primary, which would call that "
		     "driver on it. The processes registered their mempool drivers "
		     "in different orders (linked ones first, then -d in command-line "
		     "order, then the plugin directory): load the same drivers in "
		     "the same order in every process", mp->name, mp->ops_index,
		     MBUFX_OPS_NAME, (int)nsz, rec);
	return -EXDEV;
}

static int
mbufx_mp_alloc(struct rte_mempool *mp)
{
	struct mbufx_pool *p;
	unsigned int slots, i;
	uint32_t obj_mags;
	int ret;

	if (mp->size == 0)
		return -EINVAL;
	ret = ops_record(mp);
	if (ret != 0)
		return ret;
	p = rte_zmalloc_socket("mbufx_pool", sizeof(*p), RTE_CACHE_LINE_SIZE,
			       mp->socket_id);
	if (p == NULL)
		return -ENOMEM;

	/* slots that may activate: the EAL lcores, a few registered threads */
	slots = rte_lcore_count() + MBUFX_EXTRA_SLOTS;
	if (slots > RTE_MAX_LCORE)
		slots = RTE_MAX_LCORE;
	p->mag_cap = MBUFX_MAG_MAX;
	while (p->mag_cap > MBUFX_MAG_MIN &&
	       (uint64_t)p->mag_cap * 2 * rte_lcore_count() * 4 > mp->size)
		p->mag_cap /= 2;
	p->mag_stride = RTE_ALIGN_CEIL(sizeof(struct mbufx_mag) +
				       sizeof(void *) * p->mag_cap,
				       RTE_CACHE_LINE_SIZE);
	obj_mags = (mp->size + p->mag_cap - 1) / p->mag_cap + 1;
	p->nb_mags = obj_mags + 2 * (slots + 1);
	p->size = mp->size;
	p->mp = mp;
	p->cls = mbufx_mp_classify(mp, &p->data_room);

	p->mags = rte_zmalloc_socket("mbufx_mags",
				     (size_t)p->mag_stride * p->nb_mags,
				     RTE_CACHE_LINE_SIZE, mp->socket_id);
	if (p->mags == NULL) {
		rte_free(p);
		return -ENOMEM;
	}
	ret = mbufx_mp_check_init(p);
	if (ret != 0) {
		rte_free(p->mags);
		rte_free(p);
		return ret;
	}
	rte_spinlock_init(&p->depot.lock);
	rte_spinlock_init(&p->steal_lock);
	for (i = 0; i < p->nb_mags; i++)
		mag_push(&p->depot.empty, &p->depot.nb_empty,
			 RTE_PTR_ADD(p->mags, (size_t)p->mag_stride * i));
	for (i = 0; i < MBUFX_NB_SLOTS; i++)
		rte_spinlock_init(&p->slots[i].lock);

	/* the shared slot is always active */
	p->slots[MBUFX_SHARED_SLOT].cur =
		mag_pop(&p->depot.empty, &p->depot.nb_empty);
	p->slots[MBUFX_SHARED_SLOT].prev =
		mag_pop(&p->depot.empty, &p->depot.nb_empty);
	p->slots[MBUFX_SHARED_SLOT].active = 1;
	p->active_map[MBUFX_SHARED_SLOT / 64] |=
		RTE_BIT64(MBUFX_SHARED_SLOT % 64);
	p->depot.slots_left = slots;

	mp->pool_data = p;
	mbufx_mp_registry_add(p);
	MBUFX_MP_LOG(DEBUG, "pool %s: %u objects, class %s, %u magazines",
		     mp->name, mp->size, mbufx_mp_class_name(p->cls),
		     p->nb_mags);
	return 0;
}

static void
mbufx_mp_free(struct rte_mempool *mp)
{
	struct mbufx_pool *p = mp->pool_data;

	if (p == NULL)
		return;
	if (rte_log_can_log(mbufx_mp_logtype, RTE_LOG_DEBUG))
		mbufx_mp_stats_log(p);
	mbufx_mp_registry_del(p);
	mbufx_mp_check_fini(p);
	rte_free(p->mags);
	rte_free(p);
	mp->pool_data = NULL;
}

/*
 * Give an lcore slot its two magazines; 0 when it cannot (use shared). The
 * owner's process registers for membarrier before its first fence-free entry.
 */
static int
slot_activate(struct mbufx_pool *p, struct mbufx_slot *s)
{
	struct mbufx_depot *d = &p->depot;
	int asym = membarrier_probe(), ok = 0;
	unsigned int i;

	rte_spinlock_lock(&d->lock);
	if (d->slots_left > 0 && d->nb_empty >= 2) {
		d->slots_left--;
		s->cur = mag_pop(&d->empty, &d->nb_empty);
		s->prev = mag_pop(&d->empty, &d->nb_empty);
		s->asym = asym;
		ok = 1;
	}
	rte_spinlock_unlock(&d->lock);
	if (ok) {
		i = (unsigned int)(s - p->slots);
		__atomic_store_n(&s->active, 1, __ATOMIC_RELEASE);
		__atomic_fetch_or(&p->active_map[i / 64], RTE_BIT64(i % 64),
				  __ATOMIC_RELEASE);
	}
	return ok;
}

/*
 * Slot operations. The caller has exclusive use of the slot: it is the owner
 * inside enter/leave, or it holds the slot lock.
 */

/* Objects the slot can hand out without the depot. */
static inline uint32_t
slot_local(const struct mbufx_slot *s)
{
	return s->cur->n + s->prev->n;
}

/*
 * Detach the top m magazines of a depot stack (caller holds the depot lock):
 * returns the first; *last is the m-th, still linked from the one before.
 * Bulk calls of any size move magazines as such chains: no array on the
 * stack in proportion to n.
 */
static inline struct mbufx_mag *
mag_chain_pop(struct mbufx_mag **head, uint32_t *nb, unsigned int m,
	      struct mbufx_mag **last)
{
	struct mbufx_mag *first = *head, *l = first;
	unsigned int i;

	for (i = 1; i < m; i++)
		l = l->next;
	*head = l->next;
	*nb -= m;
	*last = l;
	return first;
}

/*
 * Get n objects, more than cur holds: cur, then prev, then full magazines
 * from the depot. The most recently freed objects go to the end of objs (the
 * mempool cache hands out its top first). Nothing changes on -ENOBUFS.
 */
static int
slot_get_refill(struct mbufx_pool *p, struct mbufx_slot *s, void **objs,
		unsigned int n)
{
	struct mbufx_depot *d = &p->depot;
	struct mbufx_mag *cur = s->cur, *prev = s->prev;
	struct mbufx_mag *first, *last, *mg, *pen = NULL;
	unsigned int pos, need, m, k;

	if (n <= slot_local(s)) {
		/* prev is full: drain cur, then the top of prev */
		pos = n - cur->n;
		memcpy(&objs[pos], cur->objs, sizeof(void *) * cur->n);
		prev->n -= pos;
		memcpy(objs, &prev->objs[prev->n], sizeof(void *) * pos);
		cur->n = 0;
		s->cur = prev;
		s->prev = cur;
		return 0;
	}

	need = n - slot_local(s);
	m = (need + p->mag_cap - 1) / p->mag_cap;
	/* copy the local objects first: reading them commits nothing */
	pos = n - cur->n;
	memcpy(&objs[pos], cur->objs, sizeof(void *) * cur->n);
	pos -= prev->n;
	memcpy(&objs[pos], prev->objs, sizeof(void *) * prev->n);

	rte_spinlock_lock(&d->lock);
	if (d->nb_full < m) {
		rte_spinlock_unlock(&d->lock);
		return -ENOBUFS;
	}
	first = mag_chain_pop(&d->full, &d->nb_full, m, &last);
	/* prev is drained (its objects are copied): hand it back now */
	prev->n = 0;
	mag_push(&d->empty, &d->nb_empty, prev);
	rte_spinlock_unlock(&d->lock);

	/* top of the stack first; all but the last are drained whole */
	for (mg = first; ; pen = mg, mg = mg->next) {
		k = RTE_MIN(pos, p->mag_cap);
		pos -= k;
		mg->n -= k;
		memcpy(&objs[pos], &mg->objs[mg->n], sizeof(void *) * k);
		if (mg == last)
			break;
	}
	cur->n = 0;
	s->cur = last;
	s->prev = cur;
	s->st.mags_in += m;
	if (pen != NULL) {
		/* first .. pen are empty, still linked: one splice */
		rte_spinlock_lock(&d->lock);
		pen->next = d->empty;
		d->empty = first;
		d->nb_empty += m - 1;
		rte_spinlock_unlock(&d->lock);
	}
	return 0;
}

static inline int
slot_get(struct mbufx_pool *p, struct mbufx_slot *s, void **objs,
	 unsigned int n)
{
	struct mbufx_mag *cur = s->cur;

	if (likely(n <= cur->n)) {
		cur->n -= n;
		obj_copy(objs, &cur->objs[cur->n], n);
		return 0;
	}
	return slot_get_refill(p, s, objs, n);
}

/*
 * Put n objects that overflow cur (Bonwick): fill cur; if prev is empty the
 * two swap; once both are full, prev goes to the depot, cur becomes prev and
 * empties from the depot take the rest. A put of more than a magazine hands
 * cur over too, so the depot stays LIFO.
 */
static int
slot_put_spill(struct mbufx_pool *p, struct mbufx_slot *s, void * const *objs,
	       unsigned int n)
{
	struct mbufx_depot *d = &p->depot;
	struct mbufx_mag *cur = s->cur, *prev = s->prev;
	struct mbufx_mag *first, *last, *mg, *next, *full = NULL;
	unsigned int k, m, i;

	k = p->mag_cap - cur->n;
	memcpy(&cur->objs[cur->n], objs, sizeof(void *) * k);
	cur->n = p->mag_cap;
	objs += k;
	n -= k;
	if (prev->n == 0) {
		s->cur = prev;
		s->prev = cur;
		prev = cur;
		cur = s->cur;
		k = RTE_MIN(n, p->mag_cap);
		memcpy(cur->objs, objs, sizeof(void *) * k);
		cur->n = k;
		objs += k;
		n -= k;
		if (n == 0)
			return 0;
	}

	m = (n + p->mag_cap - 1) / p->mag_cap;
	rte_spinlock_lock(&d->lock);
	if (unlikely(d->nb_empty < m)) {
		/* cannot happen for objects of this pool: see alloc */
		rte_spinlock_unlock(&d->lock);
		MBUFX_MP_LOG(ERR, "pool %s: enqueue beyond capacity", p->mp->name);
		return -ENOBUFS;
	}
	mag_push(&d->full, &d->nb_full, prev);
	if (m > 1)
		mag_push(&d->full, &d->nb_full, cur);
	first = mag_chain_pop(&d->empty, &d->nb_empty, m, &last);
	rte_spinlock_unlock(&d->lock);
	s->st.mags_out += m > 1 ? 2 : 1;

	/*
	 * Fill in chain order. The last two become cur and prev; the others
	 * are full and go to the depot, relinked in reverse so that the one
	 * filled last is on top (LIFO).
	 */
	for (mg = first, i = 0; i < m; i++, mg = next) {
		next = mg->next;
		k = RTE_MIN(n, p->mag_cap);
		memcpy(mg->objs, objs, sizeof(void *) * k);
		mg->n = k;
		objs += k;
		n -= k;
		if (i + 2 < m) {
			mg->next = full;
			full = mg;
		} else if (i + 2 == m) {
			s->prev = mg;
		}
	}
	s->cur = last;
	if (m == 1) {
		s->prev = cur;
		return 0;
	}
	if (full != NULL) {
		/* first is the bottom of the reversed chain */
		rte_spinlock_lock(&d->lock);
		first->next = d->full;
		d->full = full;
		d->nb_full += m - 2;
		rte_spinlock_unlock(&d->lock);
		s->st.mags_out += m - 2;
	}
	return 0;
}

static inline int
slot_put(struct mbufx_pool *p, struct mbufx_slot *s, void * const *objs,
	 unsigned int n)
{
	struct mbufx_mag *cur = s->cur;

	if (likely(cur->n + n <= p->mag_cap)) {
		obj_copy(&cur->objs[cur->n], objs, n);
		cur->n += n;
		return 0;
	}
	return slot_put_spill(p, s, objs, n);
}

/*
 * Entering and leaving a slot. Returns the slot to use (the lcore's own, or
 * the shared one) and whether it is held by lock.
 */
static inline struct mbufx_slot *
slot_enter(struct mbufx_pool *p, int *locked)
{
	unsigned int lcore = rte_lcore_id();
	struct mbufx_slot *s;

	if (likely(lcore < RTE_MAX_LCORE && primary_process())) {
		s = &p->slots[lcore];
		if (likely(s->active) || slot_activate(p, s)) {
			if (likely(s->asym)) {
				__atomic_store_n(&s->busy, 1, __ATOMIC_RELAXED);
				/* the thief's membarrier orders store and load */
				rte_compiler_barrier();
				if (likely(!__atomic_load_n(&s->steal,
							    __ATOMIC_ACQUIRE))) {
					*locked = 0;
					return s;
				}
				__atomic_store_n(&s->busy, 0, __ATOMIC_RELEASE);
			}
			/* a thief holds the slot, or no membarrier here */
			rte_spinlock_lock(&s->lock);
			*locked = 1;
			return s;
		}
	}
	s = &p->slots[MBUFX_SHARED_SLOT];
	rte_spinlock_lock(&s->lock);
	*locked = 1;
	return s;
}

static inline void
slot_leave(struct mbufx_slot *s, int locked)
{
	if (locked)
		rte_spinlock_unlock(&s->lock);
	else
		__atomic_store_n(&s->busy, 0, __ATOMIC_RELEASE);
}

/*
 * Move the top k = min(*pos, m->n) objects of magazine m to
 * objs[*pos - k, *pos) and lower *pos by k.
 */
static inline void
mag_take(struct mbufx_mag *m, void **objs, unsigned int *pos)
{
	unsigned int k = RTE_MIN(*pos, m->n);

	*pos -= k;
	m->n -= k;
	memcpy(&objs[*pos], &m->objs[m->n], sizeof(void *) * k);
}

/* Restore "prev is full or empty" after a thief drained a slot. */
static inline void
slot_fixup(struct mbufx_slot *s)
{
	struct mbufx_mag *t;

	if (s->cur->n == 0 && s->prev->n != 0) {
		t = s->cur;
		s->cur = s->prev;
		s->prev = t;
	}
}

/*
 * Step 2, fence: order the thief's steal flags before its reads of busy, for
 * every owner that may enter fence-free: a full barrier on the owners'
 * running threads. Those are in the primary, registered when their slots
 * activated.
 */
static int
steal_fence(int asym)
{
	static int warned;
	long ret;

	if (!asym) {
		rte_atomic_thread_fence(__ATOMIC_SEQ_CST);
		return 0;
	}
	if (primary_process())
		ret = membarrier_probe() ? syscall(__NR_membarrier,
			MEMBARRIER_CMD_PRIVATE_EXPEDITED, 0, 0) : -1;
	else
		ret = syscall(__NR_membarrier,
			      MEMBARRIER_CMD_GLOBAL_EXPEDITED, 0, 0);
	if (ret != 0 && !__atomic_exchange_n(&warned, 1, __ATOMIC_RELAXED))
		MBUFX_MP_LOG(ERR, "membarrier failed: no steal from other lcores");
	return ret == 0 ? 0 : -1;
}

/*
 * Step 1, freeze: serialise on steal_lock, lock every active slot (ours
 * included) and raise its steal flag. Returns whether an owner may enter
 * fence-free (the fence then has to reach it).
 */
static int
steal_freeze(struct mbufx_pool *p)
{
	struct mbufx_slot *s;
	unsigned int i;
	int asym = 0;

	rte_spinlock_lock(&p->steal_lock);
	MBUFX_FOREACH_SLOT(p, i) {
		s = &p->slots[i];
		rte_spinlock_lock(&s->lock);
		__atomic_store_n(&s->steal, 1, __ATOMIC_RELAXED);
		asym |= s->asym;
	}
	return asym;
}

/*
 * Step 3, wait: until no owner of a frozen slot is inside an operation.
 * Returns the objects the frozen slots hold.
 */
static uint64_t
steal_wait(struct mbufx_pool *p)
{
	struct mbufx_slot *s;
	uint64_t avail = 0;
	unsigned int i;

	MBUFX_FOREACH_SLOT(p, i) {
		s = &p->slots[i];
		if (!s->steal)
			continue;
		while (__atomic_load_n(&s->busy, __ATOMIC_ACQUIRE))
			rte_pause();
		avail += slot_local(s);
	}
	return avail;
}

/*
 * Step 4, gather: n objects from our slot me (the hottest), the other
 * frozen slots, then the depot, or none when the slots (avail objects) and
 * the depot hold fewer. The depot lock is held throughout.
 */
static int
steal_gather(struct mbufx_pool *p, struct mbufx_slot *me, uint64_t avail,
	     void **objs, unsigned int n)
{
	struct mbufx_depot *d = &p->depot;
	struct mbufx_slot *s;
	struct mbufx_mag *m;
	unsigned int i, pos;

	rte_spinlock_lock(&d->lock);
	avail += (uint64_t)d->nb_full * p->mag_cap;
	if (avail < n) {
		rte_spinlock_unlock(&d->lock);
		me->st.empty++;
		return -ENOBUFS;
	}
	pos = n;
	mag_take(me->cur, objs, &pos);
	mag_take(me->prev, objs, &pos);
	for (i = mbufx_slot_next(p, 0); i < MBUFX_NB_SLOTS && pos > 0;
	     i = mbufx_slot_next(p, i + 1)) {
		s = &p->slots[i];
		if (!s->steal || s == me)
			continue;
		mag_take(s->cur, objs, &pos);
		mag_take(s->prev, objs, &pos);
		slot_fixup(s);
	}
	while (pos > 0) {
		m = mag_pop(&d->full, &d->nb_full);
		mag_take(m, objs, &pos);
		if (m->n == 0) {
			mag_push(&d->empty, &d->nb_empty, m);
		} else {
			/* the last one keeps its rest as our cur */
			mag_push(&d->empty, &d->nb_empty, me->cur);
			me->cur = m;
		}
	}
	slot_fixup(me);
	rte_spinlock_unlock(&d->lock);
	me->st.steals++;
	me->st.gets++;
	me->st.get_objs += n;
	return 0;
}

/* Step 5, thaw: lower the flags and unlock. */
static void
steal_thaw(struct mbufx_pool *p)
{
	struct mbufx_slot *s;
	unsigned int i;

	MBUFX_FOREACH_SLOT(p, i) {
		s = &p->slots[i];
		if (!s->steal)
			continue;
		__atomic_store_n(&s->steal, 0, __ATOMIC_RELEASE);
		rte_spinlock_unlock(&s->lock);
	}
	rte_spinlock_unlock(&p->steal_lock);
}

/*
 * The slow path of an all-or-nothing dequeue: gather from every slot and the
 * depot, in the steps the prose at the top of this file gives. Called with
 * no lock held and outside slot_enter/leave.
 */
static int
steal_get(struct mbufx_pool *p, void **objs, unsigned int n)
{
	unsigned int lcore = rte_lcore_id();
	struct mbufx_slot *me;
	int asym, ret;

	asym = steal_freeze(p);
	/* our own slot if it is frozen with the others, else the shared one */
	me = &p->slots[primary_process() && lcore < RTE_MAX_LCORE &&
		       p->slots[lcore].steal ? lcore : MBUFX_SHARED_SLOT];
	if (steal_fence(asym) == 0) {
		ret = steal_gather(p, me, steal_wait(p), objs, n);
	} else {
		/* an owner may be inside its slot: leave them all alone */
		me->st.empty++;
		ret = -ENOBUFS;
	}
	steal_thaw(p);
	return ret;
}

/*
 * The put itself; the checking mode calls it with the objects it let in.
 * Inlined into the enqueue op (the header's declaration keeps it external).
 */
__rte_always_inline int
mbufx_mp_enqueue_unchecked(struct rte_mempool *mp, void * const *objs,
			   unsigned int n)
{
	struct mbufx_pool *p = mp->pool_data;
	struct mbufx_slot *s;
	int locked, ret;

	s = slot_enter(p, &locked);
	ret = slot_put(p, s, objs, n);
	s->st.puts++;
	s->st.put_objs += n;
	slot_leave(s, locked);
	return ret;
}

static int
mbufx_mp_enqueue(struct rte_mempool *mp, void * const *objs, unsigned int n)
{
	if (unlikely(((struct mbufx_pool *)mp->pool_data)->check != NULL))
		return mbufx_mp_check_put(mp, objs, n,
					  __builtin_return_address(0));
	return mbufx_mp_enqueue_unchecked(mp, objs, n);
}

static int
mbufx_mp_dequeue_unchecked(struct rte_mempool *mp, void **objs, unsigned int n)
{
	struct mbufx_pool *p = mp->pool_data;
	struct mbufx_slot *s;
	int locked, ret;

	if (unlikely(n > p->size))
		return -ENOBUFS;
	s = slot_enter(p, &locked);
	ret = slot_get(p, s, objs, n);
	if (likely(ret == 0)) {
		s->st.gets++;
		s->st.get_objs += n;
	}
	slot_leave(s, locked);
	if (likely(ret == 0))
		return 0;

	/*
	 * Not enough here nor in the depot. Gather from other lcores only when
	 * a lock-free estimate says enough objects are stranded there: a pool
	 * that is simply empty fails fast (a forwarder under overload retries
	 * its refill often).
	 */
	if (mbufx_mp_count(p) < n) {
		s = slot_enter(p, &locked);
		s->st.empty++;
		slot_leave(s, locked);
		return -ENOBUFS;
	}
	return steal_get(p, objs, n);
}

static int
mbufx_mp_dequeue(struct rte_mempool *mp, void **objs, unsigned int n)
{
	int ret = mbufx_mp_dequeue_unchecked(mp, objs, n);

	if (unlikely(((struct mbufx_pool *)mp->pool_data)->check != NULL) &&
	    ret == 0)
		mbufx_mp_check_get(mp, objs, n);
	return ret;
}

unsigned int
mbufx_mp_count(const struct mbufx_pool *p)
{
	const struct mbufx_slot *s;
	const struct mbufx_mag *cur, *prev;
	uint64_t count;
	unsigned int i;

	count = (uint64_t)__atomic_load_n(&p->depot.nb_full, __ATOMIC_RELAXED) *
		p->mag_cap;
	MBUFX_FOREACH_SLOT(p, i) {
		s = &p->slots[i];
		cur = __atomic_load_n(&s->cur, __ATOMIC_RELAXED);
		prev = __atomic_load_n(&s->prev, __ATOMIC_RELAXED);
		count += __atomic_load_n(&cur->n, __ATOMIC_RELAXED);
		count += __atomic_load_n(&prev->n, __ATOMIC_RELAXED);
	}
	/* racing with a magazine exchange can count one twice */
	return count > p->size ? p->size : (unsigned int)count;
}

static unsigned int
mbufx_mp_get_count(const struct rte_mempool *mp)
{
	return mbufx_mp_count(mp->pool_data);
}

static int
mbufx_mp_get_info(const struct rte_mempool *mp, struct rte_mempool_info *info)
{
	RTE_SET_USED(mp);
	/* no contiguous-block dequeue: objects are handed out one by one */
	info->contig_block_size = 0;
	return 0;
}

static const struct rte_mempool_ops mbufx_mp_ops = {
	.name = MBUFX_OPS_NAME,
	.alloc = mbufx_mp_alloc,
	.free = mbufx_mp_free,
	.enqueue = mbufx_mp_enqueue,
	.dequeue = mbufx_mp_dequeue,
	.get_count = mbufx_mp_get_count,
	.calc_mem_size = mbufx_mp_calc_mem_size,
	.populate = mbufx_mp_populate,
	.get_info = mbufx_mp_get_info,
};

/*
 * Stock mempool drivers of one SoC family's hardware pools, by the ops names
 * they register: the plugins a machine without that hardware can leave out
 * of the plugin directory to free slots in the ops table.
 */
static const struct {
	const char *ops;
	const char *plugin;
} hw_pool_ops[] = {
	{ "cn9k_mempool_ops", "librte_mempool_cnxk.so" },
	{ "cn10k_mempool_ops", "librte_mempool_cnxk.so" },
	{ "cn10k_hwpool_ops", "librte_mempool_cnxk.so" },
	{ "dpaa", "librte_mempool_dpaa.so" },
	{ "dpaa2", "librte_mempool_dpaa2.so" },
	{ "octeontx_fpavf", "librte_mempool_octeontx.so" },
};

#ifdef RTE_EAL_PMD_PATH
#define PLUGIN_DIR RTE_EAL_PMD_PATH
#else
#define PLUGIN_DIR "none in this DPDK build"
#endif

static bool
ops_registered(const char *name)
{
	unsigned int i;

	for (i = 0; i < rte_mempool_ops_table.num_ops; i++)
		if (strcmp(rte_mempool_ops_table.ops[i].name, name) == 0)
			return true;
	return false;
}

/*
 * The ops table is full: say which drivers hold it, what fails, and the two
 * ways out. EAL registers the drivers linked into the program first, then
 * the -d plugins in command-line order, then its plugin directory, and the
 * first RTE_MEMPOOL_MAX_OPS_IDX names win.
 */
static void
ops_table_full_report(void)
{
	char names[RTE_MEMPOOL_MAX_OPS_IDX * (RTE_MEMPOOL_OPS_NAMESIZE + 2)];
	const char *self = "librte_mempool_mbufx.so";
	char hw[512];
	size_t len = 0, hlen = 0;
	unsigned int i, j, k, n;
	Dl_info dl;

	names[0] = '\0';
	for (i = 0; i < rte_mempool_ops_table.num_ops && len < sizeof(names); i++)
		len += snprintf(names + len, sizeof(names) - len, "%s%s",
				i == 0 ? "" : ", ",
				rte_mempool_ops_table.ops[i].name);
	MBUFX_MP_LOG(ERR, "mempool ops \"%s\" not registered: DPDK's table of "
		     "%d mempool drivers (RTE_MEMPOOL_MAX_OPS_IDX) is full: %s. "
		     "Pools asking for \"%s\" fail with EINVAL.", MBUFX_OPS_NAME,
		     RTE_MEMPOOL_MAX_OPS_IDX, names, MBUFX_OPS_NAME);
	if (dladdr(&mbufx_mp_ops, &dl) != 0 && dl.dli_fname != NULL)
		self = dl.dli_fname;
	MBUFX_MP_LOG(ERR, "To register it, give this plugin with -d %s: "
		     "EAL loads -d plugins, in command-line order, before its own "
		     "plugin directory (%s), so \"%s\" takes a slot and a driver "
		     "loaded after it is left out instead (DPDK logs \"Maximum "
		     "number of mempool ops structs exceeded\" for it): check that "
		     "the program's pools do not use that one. Given with -d already: "
		     "the drivers before it are linked into the program or given by "
		     "earlier -d options; leave one of those out.",
		     self, PLUGIN_DIR, MBUFX_OPS_NAME);
	hw[0] = '\0';
	for (i = 0; i < RTE_DIM(hw_pool_ops) && hlen < sizeof(hw); i++) {
		/* one entry per plugin, at its first ops name */
		for (j = 0; j < i; j++)
			if (strcmp(hw_pool_ops[j].plugin,
				   hw_pool_ops[i].plugin) == 0)
				break;
		if (j < i)
			continue;
		for (k = i, n = 0; k < RTE_DIM(hw_pool_ops); k++)
			if (strcmp(hw_pool_ops[k].plugin,
				   hw_pool_ops[i].plugin) == 0 &&
			    ops_registered(hw_pool_ops[k].ops))
				n++;
		if (n == 0)
			continue;
		hlen += snprintf(hw + hlen, sizeof(hw) - hlen, "%s%s (%u slot%s)",
				 hlen == 0 ? "" : ", ", hw_pool_ops[i].plugin, n,
				 n == 1 ? "" : "s");
	}
	if (hw[0] != '\0')
		MBUFX_MP_LOG(ERR, "Or free slots for good: take out of the plugin "
			     "directory the hardware mempool drivers of a SoC this "
			     "machine does not have: %s.", hw);
}

/*
 * Register once. The plugin may be both linked into a program and given
 * with -d from another path, two copies in one process: a second
 * registration would take one more of the 16 ops slots and evict a stock
 * driver, so look first. The copy whose ops are registered is the one whose
 * functions run, and whose pool registry fills: it alone registers the
 * telemetry commands (a second set from the idle copy would answer for its
 * empty registry).
 */
RTE_INIT(mbufx_mp_register)
{
	int ret;

	if (ops_registered(MBUFX_OPS_NAME))
		return;
	ret = rte_mempool_register_ops(&mbufx_mp_ops);
	if (ret >= 0)
		mbufx_mp_telemetry_register();
	else if (ret == -ENOSPC)
		ops_table_full_report();
	else
		MBUFX_MP_LOG(ERR, "mempool ops \"%s\" not registered: %s",
			     MBUFX_OPS_NAME, strerror(-ret));
}
