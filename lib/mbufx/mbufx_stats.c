/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The mbufx authors
 */

/*
 * Zone-set counters: summed over the per-lcore slots on read, printed
 * netstat -m style, served over telemetry as /mbufx/zones and /mbufx/zone.
 * Late-attach counters come from the rx contexts bound to each zone pool.
 */

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include <rte_common.h>
#include <rte_mempool.h>
#include <rte_telemetry.h>

#include "mbufx_private.h"
#include "mbufx_rx.h"
#include "mbufx_stats.h"
#include "mbufx_zone.h"

/* Counter fields of struct mbufx_zone_lcore_stats, summed generically. */
#define LCORE_STATS_U64 (sizeof(struct mbufx_zone_lcore_stats) / sizeof(uint64_t))

static void
lcore_sum(const struct mbufx_zone_set *zs, struct mbufx_zone_lcore_stats *sum)
{
	uint64_t *d = (uint64_t *)sum;
	const uint64_t *s;
	unsigned int l, i;

	RTE_BUILD_BUG_ON(sizeof(struct mbufx_zone_lcore_stats) %
			 sizeof(uint64_t) != 0);
	memset(sum, 0, sizeof(*sum));
	for (l = 0; l <= RTE_MAX_LCORE; l++) {
		s = (const uint64_t *)&zs->stats[l];
		for (i = 0; i < LCORE_STATS_U64; i++)
			d[i] += __atomic_load_n(&s[i], __ATOMIC_RELAXED);
	}
}

int
mbufx_zone_set_stats(const struct mbufx_zone_set *zs,
		     struct mbufx_zone_stats *st)
{
	struct mbufx_zone_lcore_stats sum;
	struct mbufx_rx_stats rs;
	unsigned int z;
	int n;

	if (zs == NULL || st == NULL)
		return -EINVAL;
	memset(st, 0, sizeof(*st));
	lcore_sum(zs, &sum);
	for (z = 0; z < MBUFX_ZONE_NUM; z++) {
		st->alloc[z] = sum.alloc[z];
		if (zs->pool[z] == NULL)
			continue;
		st->size[z] = zs->pool[z]->size;
		st->avail[z] = rte_mempool_avail_count(zs->pool[z]);
		st->in_use[z] = st->size[z] - st->avail[z];
		st->data_room[z] = zs->params.data_room[z];
		n = mbufx_rx_stats_sum(zs->pool[z], &rs);
		if (n > 0) {
			st->rx_refilled[z] = rs.refilled;
			st->rx_attached[z] = rs.attached;
			st->rx_returned[z] = rs.returned;
			st->rx_contexts[z] = (uint32_t)n;
		}
	}
	st->alloc_fail = sum.alloc_fail;
	st->jumbo_fallback = sum.jumbo_fallback;
	st->pkt_fallback = sum.pkt_fallback;
	st->prepend_inplace = sum.prepend_inplace;
	st->prepend_chained = sum.prepend_chained;
	st->pullup_noop = sum.pullup_noop;
	st->pullup_inplace = sum.pullup_inplace;
	st->pullup_alloc = sum.pullup_alloc;
	st->fanout_hdr_alloc = sum.fanout_hdr_alloc;
	st->fanout_hdr_saved = sum.fanout_hdr_saved;
	st->fanout_deep = sum.fanout_deep;
	st->fanout_indirect = sum.fanout_indirect;
	return 0;
}

int
mbufx_zone_set_stats_reset(struct mbufx_zone_set *zs)
{
	if (zs == NULL)
		return -EINVAL;
	memset(zs->stats, 0, sizeof(zs->stats));
	return 0;
}

static const char * const zone_long_names[MBUFX_ZONE_NUM] = {
	[MBUFX_ZONE_HDR] = "header",
	[MBUFX_ZONE_PKT] = "packet",
	[MBUFX_ZONE_JUMBO] = "jumbo",
};

static void
dump_one(const struct mbufx_zone_set *zs, void *arg)
{
	FILE *f = arg;
	struct mbufx_zone_stats st;
	struct rte_mempool *mp;
	uint64_t obj, kb_use = 0, kb_all = 0;
	unsigned int z;

	mbufx_zone_set_stats(zs, &st);
	fprintf(f, "mbufx zone set \"%s\" on socket %d, ops %s\n", zs->name,
		zs->socket_id, zs->params.ops_name);
	for (z = 0; z < MBUFX_ZONE_NUM; z++) {
		mp = zs->pool[z];
		if (mp == NULL) {
			fprintf(f, "  -/-/- %s mbufs (zone disabled)\n",
				zone_long_names[z]);
			continue;
		}
		obj = mp->header_size + mp->elt_size + mp->trailer_size;
		kb_use += obj * st.in_use[z] / 1024;
		kb_all += obj * st.size[z] / 1024;
		fprintf(f, "  %u/%u/%u %s mbufs in use (current/free/total), "
			"%u-byte data room, cache %u\n", st.in_use[z],
			st.avail[z], st.size[z], zone_long_names[z],
			st.data_room[z], mp->cache_size);
	}
	fprintf(f, "  %" PRIu64 "K/%" PRIu64 "K/%" PRIu64
		"K bytes allocated to zones (current/free/total)\n",
		kb_use, kb_all - kb_use, kb_all);
	fprintf(f, "  %" PRIu64 "/%" PRIu64 "/%" PRIu64
		" mbufs taken by the library (header/packet/jumbo)\n",
		st.alloc[MBUFX_ZONE_HDR], st.alloc[MBUFX_ZONE_PKT],
		st.alloc[MBUFX_ZONE_JUMBO]);
	fprintf(f, "  %" PRIu64 " requests for mbufs denied\n", st.alloc_fail);
	fprintf(f, "  %" PRIu64 "/%" PRIu64
		" fallbacks (jumbo as packet chain/packet from jumbo)\n",
		st.jumbo_fallback, st.pkt_fallback);
	fprintf(f, "  %" PRIu64 "/%" PRIu64 " prepends (in place/chained)\n",
		st.prepend_inplace, st.prepend_chained);
	fprintf(f, "  %" PRIu64 "/%" PRIu64 "/%" PRIu64
		" pullups (contiguous/in place/allocated)\n",
		st.pullup_noop, st.pullup_inplace, st.pullup_alloc);
	fprintf(f, "  %" PRIu64 "/%" PRIu64 " fan-out headers (allocated/saved), "
		"%" PRIu64 " deep copies, %" PRIu64 " indirect mbufs\n",
		st.fanout_hdr_alloc, st.fanout_hdr_saved, st.fanout_deep,
		st.fanout_indirect);
	for (z = 0; z < MBUFX_ZONE_NUM; z++)
		if (st.rx_contexts[z] != 0)
			fprintf(f, "  %" PRIu64 "/%" PRIu64 "/%" PRIu64
				" %s late-attach buffers (refilled/attached/"
				"returned), %u rx contexts\n",
				st.rx_refilled[z], st.rx_attached[z],
				st.rx_returned[z], zone_long_names[z],
				st.rx_contexts[z]);
}

void
mbufx_zone_set_dump(FILE *f, const struct mbufx_zone_set *zs)
{
	if (f == NULL)
		f = stdout;
	if (zs != NULL)
		dump_one(zs, f);
	else
		mbufx_zone_set_walk(dump_one, f);
}

/* ---- telemetry ------------------------------------------------------- */

static void
tel_list_one(const struct mbufx_zone_set *zs, void *arg)
{
	rte_tel_data_add_array_string(arg, zs->name);
}

static int
tel_zones(const char *cmd __rte_unused, const char *params __rte_unused,
	  struct rte_tel_data *d)
{
	rte_tel_data_start_array(d, RTE_TEL_STRING_VAL);
	mbufx_zone_set_walk(tel_list_one, d);
	return 0;
}

/* Add a per-zone array of counters to dict d. */
static void
tel_zone_array(struct rte_tel_data *d, const char *name, const uint64_t *v)
{
	struct rte_tel_data *a = rte_tel_data_alloc();
	unsigned int z;

	if (a == NULL)
		return;
	rte_tel_data_start_array(a, RTE_TEL_U64_VAL);
	for (z = 0; z < MBUFX_ZONE_NUM; z++)
		rte_tel_data_add_array_u64(a, v[z]);
	if (rte_tel_data_add_dict_container(d, name, a, 0) != 0)
		rte_tel_data_free(a);
}

static void
tel_zone_one(const struct mbufx_zone_set *zs, void *arg)
{
	struct rte_tel_data *d = arg;
	struct mbufx_zone_stats st;
	struct rte_tel_data *names;
	uint64_t v[MBUFX_ZONE_NUM];
	unsigned int z;

	mbufx_zone_set_stats(zs, &st);
	rte_tel_data_start_dict(d);
	rte_tel_data_add_dict_string(d, "name", zs->name);
	rte_tel_data_add_dict_int(d, "socket", zs->socket_id);
	rte_tel_data_add_dict_string(d, "ops", zs->params.ops_name);
	names = rte_tel_data_alloc();
	if (names != NULL) {
		rte_tel_data_start_array(names, RTE_TEL_STRING_VAL);
		for (z = 0; z < MBUFX_ZONE_NUM; z++)
			rte_tel_data_add_array_string(names, mbufx_zone_names[z]);
		if (rte_tel_data_add_dict_container(d, "zones", names, 0) != 0)
			rte_tel_data_free(names);
	}
#define ZONE_ARRAY(field) do {						\
		for (z = 0; z < MBUFX_ZONE_NUM; z++)			\
			v[z] = st.field[z];				\
		tel_zone_array(d, #field, v);				\
	} while (0)
	ZONE_ARRAY(size);
	ZONE_ARRAY(avail);
	ZONE_ARRAY(in_use);
	ZONE_ARRAY(data_room);
	ZONE_ARRAY(alloc);
	ZONE_ARRAY(rx_refilled);
	ZONE_ARRAY(rx_attached);
	ZONE_ARRAY(rx_returned);
	ZONE_ARRAY(rx_contexts);
#undef ZONE_ARRAY
#define SCALAR(field) rte_tel_data_add_dict_u64(d, #field, st.field)
	SCALAR(alloc_fail);
	SCALAR(jumbo_fallback);
	SCALAR(pkt_fallback);
	SCALAR(prepend_inplace);
	SCALAR(prepend_chained);
	SCALAR(pullup_noop);
	SCALAR(pullup_inplace);
	SCALAR(pullup_alloc);
	SCALAR(fanout_hdr_alloc);
	SCALAR(fanout_hdr_saved);
	SCALAR(fanout_deep);
	SCALAR(fanout_indirect);
#undef SCALAR
}

static int
tel_zone(const char *cmd __rte_unused, const char *params,
	 struct rte_tel_data *d)
{
	if (params == NULL || params[0] == '\0')
		return -EINVAL;
	/* under the zone-set lock: a concurrent free cannot pull the pools
	 * away while they are read */
	return mbufx_zone_set_with(params, tel_zone_one, d);
}

RTE_INIT(mbufx_stats_telemetry)
{
	rte_telemetry_register_cmd("/mbufx/zones", tel_zones,
		"List the mbufx zone sets. Takes no parameters");
	rte_telemetry_register_cmd("/mbufx/zone", tel_zone,
		"Counters and occupancy of an mbufx zone set. "
		"Parameters: zone-set name");
}
