/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The mbufx authors
 */

/*
 * Statistics and telemetry of the mbufx mempool driver.
 *
 * Counters live in each slot and are written by the slot's owner only;
 * readers sum them without locks (a sum taken during traffic is approximate,
 * one taken at rest is exact). The driver keeps a process-local registry of
 * its pools so that the telemetry thread can find them; a pool leaves the
 * registry under the registry lock before its memory is freed.
 *
 * Telemetry (dpdk-telemetry.py):
 *   /mbufx/pools            names of the pools on the mbufx ops
 *   /mbufx/pool,<name>      one pool: zone, sizes, free objects, counters
 */

#include <stdlib.h>
#include <string.h>
#include <sys/queue.h>

#include <rte_malloc.h>
#include <rte_mbuf.h>
#include <rte_telemetry.h>

#include "mbufx_mempool.h"

struct registry_entry {
	TAILQ_ENTRY(registry_entry) next;
	struct mbufx_pool *pool;
};

static TAILQ_HEAD(, registry_entry) registry = TAILQ_HEAD_INITIALIZER(registry);
static rte_spinlock_t registry_lock = RTE_SPINLOCK_INITIALIZER;

void
mbufx_mp_registry_add(struct mbufx_pool *p)
{
	struct registry_entry *e;

	/* heap memory: the registry is local to this process */
	e = malloc(sizeof(*e));
	if (e == NULL)
		return;	/* the pool works, it is just not listed */
	e->pool = p;
	rte_spinlock_lock(&registry_lock);
	TAILQ_INSERT_TAIL(&registry, e, next);
	rte_spinlock_unlock(&registry_lock);
}

void
mbufx_mp_registry_del(struct mbufx_pool *p)
{
	struct registry_entry *e;

	rte_spinlock_lock(&registry_lock);
	TAILQ_FOREACH(e, &registry, next)
		if (e->pool == p)
			break;
	if (e != NULL)
		TAILQ_REMOVE(&registry, e, next);
	rte_spinlock_unlock(&registry_lock);
	free(e);
}

void
mbufx_mp_stats_get(const struct mbufx_pool *p, struct mbufx_mp_stats *st)
{
	const struct mbufx_slot_stats *s;
	unsigned int i;

	memset(st, 0, sizeof(*st));
	for (i = 0; i < MBUFX_NB_SLOTS; i++) {
		if (!__atomic_load_n(&p->slots[i].active, __ATOMIC_ACQUIRE))
			continue;
		s = &p->slots[i].st;
		st->active_slots++;
		st->sum.gets += s->gets;
		st->sum.puts += s->puts;
		st->sum.get_objs += s->get_objs;
		st->sum.put_objs += s->put_objs;
		st->sum.mags_in += s->mags_in;
		st->sum.mags_out += s->mags_out;
		st->sum.empty += s->empty;
		st->sum.steals += s->steals;
	}
	st->free_objs = mbufx_mp_count(p);
	st->nb_full_mags = __atomic_load_n(&p->depot.nb_full, __ATOMIC_RELAXED);
	st->nb_empty_mags = __atomic_load_n(&p->depot.nb_empty, __ATOMIC_RELAXED);
}

static int
tel_pools(const char *cmd __rte_unused, const char *params __rte_unused,
	  struct rte_tel_data *d)
{
	struct registry_entry *e;

	rte_tel_data_start_array(d, RTE_TEL_STRING_VAL);
	rte_spinlock_lock(&registry_lock);
	TAILQ_FOREACH(e, &registry, next)
		rte_tel_data_add_array_string(d, e->pool->mp->name);
	rte_spinlock_unlock(&registry_lock);
	return 0;
}

static int
tel_pool(const char *cmd __rte_unused, const char *params,
	 struct rte_tel_data *d)
{
	const struct rte_mempool *mp;
	struct registry_entry *e;
	struct mbufx_mp_stats st;
	int ret = -EINVAL;

	if (params == NULL || params[0] == '\0')
		return -EINVAL;
	rte_spinlock_lock(&registry_lock);
	TAILQ_FOREACH(e, &registry, next)
		if (strcmp(e->pool->mp->name, params) == 0)
			break;
	if (e == NULL)
		goto out;
	mp = e->pool->mp;
	mbufx_mp_stats_get(e->pool, &st);
	rte_tel_data_start_dict(d);
	rte_tel_data_add_dict_string(d, "name", mp->name);
	rte_tel_data_add_dict_string(d, "zone", mbufx_mp_zone_name(e->pool->zone));
	rte_tel_data_add_dict_u64(d, "data_room", e->pool->data_room);
	rte_tel_data_add_dict_u64(d, "elt_size", mp->elt_size);
	rte_tel_data_add_dict_u64(d, "objects", mp->size);
	rte_tel_data_add_dict_u64(d, "free", st.free_objs);
	rte_tel_data_add_dict_u64(d, "avail", rte_mempool_avail_count(mp));
	rte_tel_data_add_dict_u64(d, "in_use", rte_mempool_in_use_count(mp));
	rte_tel_data_add_dict_u64(d, "cache_size", mp->cache_size);
	rte_tel_data_add_dict_u64(d, "chunks", mp->nb_mem_chunks);
	rte_tel_data_add_dict_u64(d, "iova_contig_pool", e->pool->contig);
	rte_tel_data_add_dict_u64(d, "magazine_size", e->pool->mag_cap);
	rte_tel_data_add_dict_u64(d, "full_magazines", st.nb_full_mags);
	rte_tel_data_add_dict_u64(d, "active_lcores", st.active_slots);
	rte_tel_data_add_dict_u64(d, "bulk_gets", st.sum.gets);
	rte_tel_data_add_dict_u64(d, "bulk_puts", st.sum.puts);
	rte_tel_data_add_dict_u64(d, "objs_got", st.sum.get_objs);
	rte_tel_data_add_dict_u64(d, "objs_put", st.sum.put_objs);
	rte_tel_data_add_dict_u64(d, "batches_in", st.sum.mags_in);
	rte_tel_data_add_dict_u64(d, "batches_out", st.sum.mags_out);
	rte_tel_data_add_dict_u64(d, "empty_events", st.sum.empty);
	rte_tel_data_add_dict_u64(d, "steals", st.sum.steals);
	ret = 0;
out:
	rte_spinlock_unlock(&registry_lock);
	return ret;
}

RTE_INIT(mbufx_mp_telemetry)
{
	rte_telemetry_register_cmd("/mbufx/pools", tel_pools,
		"Pools on the mbufx mempool driver. Takes no parameters");
	rte_telemetry_register_cmd("/mbufx/pool", tel_pool,
		"One mbufx pool: zone, free objects, counters. Parameters: pool name");
}
