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
 * The counters of a slot are declared once, in struct mbufx_slot_stats, and
 * named once, in slot_ctrs[] below: the sum, telemetry and the log line at
 * pool free iterate that table (a new counter is a field and a table line).
 *
 * Telemetry (dpdk-telemetry.py):
 *   /mbufx/pools            names of the pools on the mbufx ops
 *   /mbufx/pool,<name>      one pool: class, sizes, free objects, counters,
 *                           checking mode and its error counters
 */

#include <inttypes.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/queue.h>

#include <rte_malloc.h>
#include <rte_mbuf.h>
#include <rte_telemetry.h>

#include "mbufx_mempool.h"
#include "mbufx_mempool_compat.h"

/* struct mbufx_slot_stats, in struct order, under its telemetry names. */
static const struct {
	const char *name;
	uint16_t off;
} slot_ctrs[] = {
#define SLOT_CTR(name, field) { name, offsetof(struct mbufx_slot_stats, field) }
	SLOT_CTR("bulk_gets", gets),
	SLOT_CTR("bulk_puts", puts),
	SLOT_CTR("objs_got", get_objs),
	SLOT_CTR("objs_put", put_objs),
	SLOT_CTR("batches_in", mags_in),
	SLOT_CTR("batches_out", mags_out),
	SLOT_CTR("empty_events", empty),
	SLOT_CTR("steals", steals),
#undef SLOT_CTR
};

static inline uint64_t
slot_ctr(const struct mbufx_slot_stats *s, unsigned int i)
{
	return *(const uint64_t *)RTE_PTR_ADD(s, slot_ctrs[i].off);
}

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
	uint64_t *sum = (uint64_t *)&st->sum;
	const uint64_t *s;
	unsigned int i, k;

	RTE_BUILD_BUG_ON(sizeof(struct mbufx_slot_stats) !=
			 RTE_DIM(slot_ctrs) * sizeof(uint64_t));
	memset(st, 0, sizeof(*st));
	MBUFX_FOREACH_SLOT(p, i) {
		s = (const uint64_t *)&p->slots[i].st;
		st->active_slots++;
		for (k = 0; k < RTE_DIM(slot_ctrs); k++)
			sum[k] += __atomic_load_n(&s[k], __ATOMIC_RELAXED);
	}
	st->free_objs = mbufx_mp_count(p);
	st->nb_full_mags = __atomic_load_n(&p->depot.nb_full, __ATOMIC_RELAXED);
	st->nb_empty_mags = __atomic_load_n(&p->depot.nb_empty, __ATOMIC_RELAXED);
}

void
mbufx_mp_stats_log(const struct mbufx_pool *p)
{
	struct mbufx_mp_stats st;
	char line[256];
	size_t off = 0;
	unsigned int i;

	mbufx_mp_stats_get(p, &st);
	for (i = 0; i < RTE_DIM(slot_ctrs) && off < sizeof(line); i++)
		off += snprintf(line + off, sizeof(line) - off, " %s %" PRIu64,
				slot_ctrs[i].name, slot_ctr(&st.sum, i));
	MBUFX_MP_LOG(DEBUG, "pool %s:%s", p->mp->name, line);
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
	unsigned int i;
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
	rte_tel_data_add_dict_string(d, "class", mbufx_mp_class_name(e->pool->cls));
	mbufx_mp_tel_dict_uint(d, "data_room", e->pool->data_room);
	mbufx_mp_tel_dict_uint(d, "elt_size", mp->elt_size);
	mbufx_mp_tel_dict_uint(d, "objects", mp->size);
	mbufx_mp_tel_dict_uint(d, "free", st.free_objs);
	mbufx_mp_tel_dict_uint(d, "avail", rte_mempool_avail_count(mp));
	mbufx_mp_tel_dict_uint(d, "in_use", rte_mempool_in_use_count(mp));
	mbufx_mp_tel_dict_uint(d, "cache_size", mp->cache_size);
	mbufx_mp_tel_dict_uint(d, "chunks", mp->nb_mem_chunks);
	mbufx_mp_tel_dict_uint(d, "iova_contig_pool", e->pool->iova_contig);
	mbufx_mp_tel_dict_uint(d, "magazine_size", e->pool->mag_cap);
	mbufx_mp_tel_dict_uint(d, "full_magazines", st.nb_full_mags);
	mbufx_mp_tel_dict_uint(d, "active_lcores", st.active_slots);
	for (i = 0; i < RTE_DIM(slot_ctrs); i++)
		mbufx_mp_tel_dict_uint(d, slot_ctrs[i].name,
				       slot_ctr(&st.sum, i));
	mbufx_mp_check_tel(e->pool, d);
	ret = 0;
out:
	rte_spinlock_unlock(&registry_lock);
	return ret;
}

/* Called by the copy of the plugin whose ops are registered (see there). */
void
mbufx_mp_telemetry_register(void)
{
	rte_telemetry_register_cmd("/mbufx/pools", tel_pools,
		"Pools on the mbufx mempool driver. Takes no parameters");
	rte_telemetry_register_cmd("/mbufx/pool", tel_pool,
		"One mbufx pool: class, free objects, counters. Parameters: pool name");
}
