/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The mbufx authors
 */

/*
 * Checking mode: catch a program's misuse of its buffers (a double free, a
 * free of a pointer that is no object of the pool, a write after free) in
 * an unmodified DPDK, in the spirit of FreeBSD's INVARIANTS on UMA zones.
 * Off by default; chosen per pool when the driver sets the pool up (the
 * alloc op, at the first populate), from the environment:
 *
 *   MBUFX_CHECK=1 | log        report, count, keep the pool consistent
 *   MBUFX_CHECK=abort          report, then abort() (a core at the bug)
 *   MBUFX_CHECK=0 | off        off (also when unset)
 *   MBUFX_CHECK_POOLS=p1,p2*   only pools whose name matches one of these
 *                              shell patterns (default: every pool)
 *
 * A checked pool, object by object:
 *
 *              populate          get              put
 *   (unknown) ---------> NEW ----------> OUT ------------> FREE
 *                                         ^   poison room   |
 *                                         +-----------------+
 *                                          get: check poison
 *
 *   put of a FREE or NEW object       double free
 *   put of an unknown pointer         foreign put
 *   get of a FREE object whose        write after free (object, offset of
 *   poison changed                    the first byte written, bytes changed)
 *
 * A bad put is logged with the pool, the object, the caller's lcore and
 * return address, counted, and not inserted: the rest of the burst is, and
 * the pool stays exactly as it was. With "abort" the process aborts after
 * the report. A write after free is reported at the get and the object is
 * handed out all the same (it is a sound buffer; its contents are the
 * writer's problem). Counters are in /mbufx/pool,<name>; the first reports
 * of each kind are logged, then one line says the rest are only counted.
 *
 * The states live in a table of the pool's objects (open addressing on the
 * address), filled while the pool is populated: the mempool library appends
 * each object to its element list and then enqueues it, so an unknown
 * pointer is accepted only when it is that list's last element and the
 * table is not full yet; afterwards the table is read-only and states move
 * by compare-and-swap, so two lcores freeing one object at once make one
 * free and one double free. The state moves before the object enters or
 * after it leaves a magazine, never while another lcore can reach it.
 *
 * The per-lcore mempool cache would hide all this (a double free sits twice
 * in a cache and is handed out twice before the driver sees it), so a
 * checked pool's per-lcore caches are bypassed before its first object
 * exists (mbufx_mp_caches_bypass(), mbufx_mempool_compat.h): every get and
 * put comes to the driver. Caches an application creates
 * itself (rte_mempool_cache_create) are out of reach.
 *
 * What is poisoned: the data room of a pktmbuf pool's mbufs (not for other
 * pools), with 0xdeadc0de. The rest of a free object is not ours to write:
 * the mbuf header of a free mbuf must stay as rte_pktmbuf_init and the last
 * free left it (refcnt 1, one segment, no next, buf_addr and buf_iova
 * valid: PMDs read these before they write the rest), an application's
 * private area may be relied on the same way, and a generic object may be
 * written by an obj_init callback after populate and checked by the
 * application while free (DPDK's mempool_autotest does exactly that). Nobody
 * may expect a free mbuf's data to survive, so poisoning the room breaks no
 * contract and finds the common bug: data written through a stale pointer.
 * Objects are poisoned from their first put on: NEW objects never are
 * (obj_init callbacks run after the populate enqueue).
 *
 * Cost when off: one predicted branch on a pointer of the pool in each get
 * and put. When on: a table look-up per object, a compare-and-swap, and a
 * fill and a scan of the data room (about 2 KiB, or 9 KiB in the jumbo class).
 */

#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fnmatch.h>
#include <inttypes.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include <rte_debug.h>
#include <rte_errno.h>
#include <rte_malloc.h>
#include <rte_mbuf.h>
#include <rte_telemetry.h>

#include "mbufx_mempool.h"
#include "mbufx_mempool_compat.h"

#define CHECK_ENV "MBUFX_CHECK"
#define CHECK_POOLS_ENV "MBUFX_CHECK_POOLS"

/* FreeBSD's junk pattern; a 64-bit word of it */
#define POISON_WORD UINT64_C(0xdeadc0dedeadc0de)

/* Reports logged per pool and kind before they are only counted. */
#define CHECK_LOG_MAX 16

/* Objects filtered per call to the unchecked enqueue. */
#define CHECK_BURST 64

enum check_state {
	ST_NEW = 1,	/* populated, never handed out, not poisoned */
	ST_OUT,		/* handed out */
	ST_FREE,	/* put back, poisoned (pktmbuf pools) */
};

struct check_ent {
	void *obj;
	uint32_t state;
};

struct mbufx_check {
	enum mbufx_check_mode mode;
	uint32_t mask;			/* table entries - 1 */
	uint32_t nb_objs;		/* registered so far */
	uint32_t room_off;		/* poisoned range of an object */
	uint32_t room_len;
	uint64_t errors[MBUFX_CHECK_NB_ERR];
	struct check_ent tab[];
};

/* Counter names in telemetry, in enum mbufx_check_err order. */
static const char * const check_err_names[MBUFX_CHECK_NB_ERR] = {
	[MBUFX_CHECK_DOUBLE_FREE] = "check_double_frees",
	[MBUFX_CHECK_FOREIGN] = "check_foreign_puts",
	[MBUFX_CHECK_WRITE_AFTER_FREE] = "check_writes_after_free",
};

static const char * const check_mode_names[] = {
	[MBUFX_CHECK_OFF] = "off",
	[MBUFX_CHECK_LOG] = "log",
	[MBUFX_CHECK_ABORT] = "abort",
};

/*
 * The mode the environment asks for this pool: 0 with *mode set, or
 * -EINVAL for a value that is not one of the documented ones.
 */
static int
check_mode_parse(const char *pool, enum mbufx_check_mode *mode)
{
	const char *v = getenv(CHECK_ENV), *pools = getenv(CHECK_POOLS_ENV);
	char pat[RTE_MEMPOOL_NAMESIZE * 4];
	char *tok, *save;

	*mode = MBUFX_CHECK_OFF;
	if (v == NULL || v[0] == '\0' || strcmp(v, "0") == 0 ||
	    strcmp(v, "off") == 0)
		return 0;
	if (strcmp(v, "1") == 0 || strcmp(v, "log") == 0)
		*mode = MBUFX_CHECK_LOG;
	else if (strcmp(v, "abort") == 0)
		*mode = MBUFX_CHECK_ABORT;
	else
		return -EINVAL;
	if (pools == NULL || pools[0] == '\0')
		return 0;
	if (strlen(pools) >= sizeof(pat))
		return -EINVAL;
	strcpy(pat, pools);
	for (tok = strtok_r(pat, ",", &save); tok != NULL;
	     tok = strtok_r(NULL, ",", &save))
		if (fnmatch(tok, pool, 0) == 0)
			return 0;
	*mode = MBUFX_CHECK_OFF;
	return 0;
}

int
mbufx_mp_check_init(struct mbufx_pool *p)
{
	struct rte_mempool *mp = p->mp;
	enum mbufx_check_mode mode;
	struct mbufx_check *c;
	uint32_t nb_ent;
	int ret;

	ret = check_mode_parse(mp->name, &mode);
	if (ret != 0) {
		MBUFX_MP_LOG(ERR, "pool %s: bad %s=\"%s\" or %s=\"%s\": want "
			     "1, log, abort or 0, and name patterns separated "
			     "by commas", mp->name, CHECK_ENV, getenv(CHECK_ENV),
			     CHECK_POOLS_ENV, getenv(CHECK_POOLS_ENV) == NULL ?
			     "" : getenv(CHECK_POOLS_ENV));
		return ret;
	}
	if (mode == MBUFX_CHECK_OFF)
		return 0;

	/* at most half full: short probes */
	nb_ent = rte_align32pow2(mp->size * 2);
	c = rte_zmalloc_socket("mbufx_check", sizeof(*c) +
			       sizeof(c->tab[0]) * nb_ent,
			       RTE_CACHE_LINE_SIZE, mp->socket_id);
	if (c == NULL)
		return -ENOMEM;
	c->mode = mode;
	c->mask = nb_ent - 1;
	if (p->data_room != 0) {
		c->room_off = sizeof(struct rte_mbuf) + rte_pktmbuf_priv_size(mp);
		c->room_len = p->data_room;
	}
	/* no object exists yet: the per-lcore caches are empty */
	mbufx_mp_caches_bypass(mp);
	p->check = c;
	MBUFX_MP_LOG(INFO, "pool %s: checking mode (%s), per-lcore cache off, "
		     "%s poisoned", mp->name, check_mode_names[mode],
		     c->room_len != 0 ? "data room" : "nothing");
	return 0;
}

void
mbufx_mp_check_fini(struct mbufx_pool *p)
{
	rte_free(p->check);
	p->check = NULL;
}

static inline uint32_t
check_hash(const struct mbufx_check *c, const void *obj)
{
	/* objects are 8-byte aligned at least; Fibonacci hashing */
	return (uint32_t)((((uintptr_t)obj >> 3) *
			   UINT64_C(0x9e3779b97f4a7c15)) >> 32) & c->mask;
}

/* The object's entry, or NULL when obj is no object of the pool. */
static struct check_ent *
check_lookup(struct mbufx_check *c, const void *obj)
{
	uint32_t i = check_hash(c, obj);

	for (;; i = (i + 1) & c->mask) {
		void *o = __atomic_load_n(&c->tab[i].obj, __ATOMIC_ACQUIRE);

		if (o == obj)
			return &c->tab[i];
		if (o == NULL)
			return NULL;
	}
}

/*
 * A pointer the table does not know: the object being populated (the last
 * one the mempool library appended to its list, not registered yet) or a
 * foreign one. Compares addresses only: obj is never read.
 */
static struct check_ent *
check_register(struct mbufx_pool *p, void *obj)
{
	struct mbufx_check *c = p->check;
	struct rte_mempool_objhdr *last;
	uint32_t i;

	if (c->nb_objs >= p->size)
		return NULL;
	/* glibc's STAILQ has no LAST: stqh_last is the last one's link */
	if (STAILQ_EMPTY(&p->mp->elt_list))
		return NULL;
	last = (struct rte_mempool_objhdr *)((char *)p->mp->elt_list.stqh_last -
		offsetof(struct rte_mempool_objhdr, next));
	if ((void *)(last + 1) != obj)
		return NULL;
	/* populate is single-threaded: a plain insertion */
	for (i = check_hash(c, obj); c->tab[i].obj != NULL;
	     i = (i + 1) & c->mask)
		;
	c->tab[i].state = ST_NEW;
	__atomic_store_n(&c->tab[i].obj, obj, __ATOMIC_RELEASE);
	c->nb_objs++;
	return &c->tab[i];
}

static void
check_poison(const struct mbufx_check *c, void *obj)
{
	uint64_t *w = RTE_PTR_ADD(obj, c->room_off);
	uint32_t i, nw = c->room_len / sizeof(*w);
	uint8_t *b;

	for (i = 0; i < nw; i++)
		w[i] = POISON_WORD;
	b = (uint8_t *)&w[nw];
	for (i = nw * sizeof(*w); i < c->room_len; i++, b++)
		*b = (uint8_t)(POISON_WORD >> (8 * (i % 8)));
}

/*
 * Bytes of the poisoned range that changed: 0 when none; otherwise *first
 * is the offset of the first one in the range.
 */
static uint32_t
check_poison_changed(const struct mbufx_check *c, const void *obj,
		     uint32_t *first)
{
	const uint8_t *b = RTE_PTR_ADD(obj, c->room_off);
	const uint64_t *w = (const uint64_t *)b;
	uint32_t i, nw = c->room_len / sizeof(*w), changed = 0;

	for (i = 0; i < nw; i++)
		if (unlikely(w[i] != POISON_WORD))
			break;
	if (likely(i == nw))
		i *= sizeof(*w);
	else
		i = 0;	/* something changed: count bytes from the start */
	for (; i < c->room_len; i++)
		if (b[i] != (uint8_t)(POISON_WORD >> (8 * (i % 8)))) {
			if (changed++ == 0)
				*first = i;
		}
	return changed;
}

/* Count one error; log the first ones; abort when asked to. */
static void
check_report(struct mbufx_pool *p, enum mbufx_check_err err, const char *what,
	     const void *obj, const void *caller)
{
	struct mbufx_check *c = p->check;
	unsigned int lcore = rte_lcore_id();
	char who[32], from[160] = "";
	uint64_t nb;
	Dl_info dl;

	nb = __atomic_add_fetch(&c->errors[err], 1, __ATOMIC_RELAXED);
	if (nb > CHECK_LOG_MAX && c->mode != MBUFX_CHECK_ABORT)
		return;
	if (lcore == LCORE_ID_ANY)
		snprintf(who, sizeof(who), "no lcore");
	else
		snprintf(who, sizeof(who), "lcore %u", lcore);
	if (caller != NULL && dladdr(caller, &dl) != 0 && dl.dli_sname != NULL)
		snprintf(from, sizeof(from), ", caller %p (%s+%#tx)", caller,
			 dl.dli_sname,
			 (const char *)caller - (const char *)dl.dli_saddr);
	else if (caller != NULL)
		snprintf(from, sizeof(from), ", caller %p", caller);
	MBUFX_MP_LOG(ERR, "pool %s: %s: object %p, %s%s", p->mp->name, what,
		     obj, who, from);
	if (c->mode == MBUFX_CHECK_ABORT) {
		rte_dump_stack();
		abort();
	}
	if (nb == CHECK_LOG_MAX)
		MBUFX_MP_LOG(ERR, "pool %s: further %s reports only counted "
			     "(/mbufx/pool,%s)", p->mp->name,
			     check_err_names[err], p->mp->name);
}

/* 0 when obj may go into the pool (its state is now FREE or NEW). */
static int
check_put_one(struct mbufx_pool *p, void *obj, const void *caller)
{
	struct mbufx_check *c = p->check;
	struct check_ent *e = check_lookup(c, obj);
	uint32_t st = ST_OUT;

	if (e == NULL) {
		/* the populate enqueue: NEW, and not poisoned */
		if (check_register(p, obj) != NULL)
			return 0;
		check_report(p, MBUFX_CHECK_FOREIGN,
			     "put of a pointer that is no object of this pool",
			     obj, caller);
		return -1;
	}
	if (!__atomic_compare_exchange_n(&e->state, &st, ST_FREE, 0,
					 __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) {
		check_report(p, MBUFX_CHECK_DOUBLE_FREE,
			     "double free (object already in the pool)", obj,
			     caller);
		return -1;
	}
	/* ours alone now: no get can reach it before it is enqueued */
	if (c->room_len != 0)
		check_poison(c, obj);
	return 0;
}

int
mbufx_mp_check_put(struct rte_mempool *mp, void * const *objs, unsigned int n,
		   const void *caller)
{
	struct mbufx_pool *p = mp->pool_data;
	void *ok[CHECK_BURST];
	unsigned int i, k = 0;
	int ret = 0, r;

	for (i = 0; i < n; i++) {
		if (check_put_one(p, objs[i], caller) != 0)
			continue;
		ok[k++] = objs[i];
		if (k == CHECK_BURST) {
			r = mbufx_mp_enqueue_unchecked(mp, ok, k);
			if (r != 0)
				ret = r;
			k = 0;
		}
	}
	if (k != 0) {
		r = mbufx_mp_enqueue_unchecked(mp, ok, k);
		if (r != 0)
			ret = r;
	}
	return ret;
}

void
mbufx_mp_check_get(struct rte_mempool *mp, void * const *objs, unsigned int n)
{
	struct mbufx_pool *p = mp->pool_data;
	struct mbufx_check *c = p->check;
	struct check_ent *e;
	uint32_t st, changed, first = 0;
	char what[128];
	unsigned int i;

	for (i = 0; i < n; i++) {
		e = check_lookup(c, objs[i]);
		if (unlikely(e == NULL))
			continue;	/* cannot be: only objects go in */
		st = __atomic_exchange_n(&e->state, ST_OUT, __ATOMIC_ACQ_REL);
		if (st != ST_FREE || c->room_len == 0)
			continue;
		changed = check_poison_changed(c, objs[i], &first);
		if (likely(changed == 0))
			continue;
		snprintf(what, sizeof(what), "write after free: %" PRIu32
			 " byte(s) changed, first at offset %" PRIu32
			 " (data room offset %" PRIu32 ")", changed,
			 c->room_off + first, first);
		check_report(p, MBUFX_CHECK_WRITE_AFTER_FREE, what, objs[i],
			     NULL);
	}
}

void
mbufx_mp_check_tel(const struct mbufx_pool *p, struct rte_tel_data *d)
{
	const struct mbufx_check *c = p->check;
	unsigned int i;

	rte_tel_data_add_dict_string(d, "check_mode",
		check_mode_names[c == NULL ? MBUFX_CHECK_OFF : c->mode]);
	for (i = 0; i < MBUFX_CHECK_NB_ERR; i++)
		mbufx_mp_tel_dict_uint(d, check_err_names[i], c == NULL ? 0 :
			__atomic_load_n(&c->errors[i], __ATOMIC_RELAXED));
}
