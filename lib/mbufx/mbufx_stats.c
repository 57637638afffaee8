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

#include "mbufx_compat.h"
#include "mbufx_private.h"
#include "mbufx_rx.h"
#include "mbufx_stats.h"
#include "mbufx_zone.h"

#define ZS_CTR(f, d) \
	MBUFX_STAT_FIELD(struct mbufx_zone_stats, f, MBUFX_STAT_COUNTER, d)
#define ZS_ZONE(f, k, d) \
	MBUFX_STAT_ZONE_FIELD(struct mbufx_zone_stats, f, k, d)

/* struct mbufx_zone_stats, in struct order. */
static const struct mbufx_stat_field zone_stats_fields[] = {
	ZS_ZONE(alloc, MBUFX_STAT_COUNTER, "mbufs taken by the library"),
	ZS_CTR(alloc_fail, "requests for mbufs denied"),
	ZS_CTR(jumbo_fallback, "jumbo requests served as packet chains"),
	ZS_CTR(pkt_fallback, "packet requests served by the jumbo zone"),
	ZS_CTR(hdr_fallback, "library mbufs taken from a larger zone"),
	ZS_CTR(prepend_inplace, "prepends in place"),
	ZS_CTR(prepend_chained, "prepends that chained a header mbuf"),
	ZS_CTR(pullup_noop, "pullups already contiguous"),
	ZS_CTR(pullup_inplace, "pullups in place"),
	ZS_CTR(pullup_alloc, "pullups that allocated"),
	ZS_CTR(fanout_hdr_alloc, "fan-out headers allocated"),
	ZS_CTR(fanout_hdr_saved, "fan-out copies served by the original"),
	ZS_CTR(fanout_deep, "fan-out deep copies"),
	ZS_CTR(fanout_indirect, "fan-out indirect mbufs"),
	ZS_ZONE(rx_refilled, MBUFX_STAT_COUNTER,
		"late-attach buffers handed out"),
	ZS_ZONE(rx_attached, MBUFX_STAT_COUNTER,
		"late-attach buffers turned into mbufs"),
	ZS_ZONE(rx_returned, MBUFX_STAT_COUNTER,
		"late-attach buffers given back"),
	ZS_ZONE(rx_contexts, MBUFX_STAT_GAUGE, "live rx contexts"),
	ZS_ZONE(size, MBUFX_STAT_GAUGE, "mbufs per zone"),
	ZS_ZONE(avail, MBUFX_STAT_GAUGE, "mbufs free"),
	ZS_ZONE(in_use, MBUFX_STAT_GAUGE, "mbufs in use"),
	ZS_ZONE(data_room, MBUFX_STAT_GAUGE, "data room"),
};

const struct mbufx_stat_field *
mbufx_zone_stats_fields(unsigned int *n)
{
	*n = RTE_DIM(zone_stats_fields);
	return zone_stats_fields;
}

/* The library counters: the first MBUFX_ZONE_NB_LCORE_CTRS uint64_t of each
 * per-lcore slot, summed into the same place of st. */
static void
lcore_sum(const struct mbufx_zone_set *zs, struct mbufx_zone_stats *st)
{
	uint64_t *d = (uint64_t *)st;
	const uint64_t *s;
	unsigned int l, i;

	for (l = 0; l <= RTE_MAX_LCORE; l++) {
		s = zs->ctrs[l].v;
		for (i = 0; i < MBUFX_ZONE_NB_LCORE_CTRS; i++)
			d[i] += __atomic_load_n(&s[i], __ATOMIC_RELAXED);
	}
}

int
mbufx_zone_set_stats(const struct mbufx_zone_set *zs,
		     struct mbufx_zone_stats *st)
{
	struct mbufx_rx_stats rs;
	unsigned int z;
	int n;

	if (zs == NULL || st == NULL)
		return -EINVAL;
	memset(st, 0, sizeof(*st));
	for (z = 0; z < MBUFX_ZONE_NUM; z++)
		if (zs->pool[z] != NULL &&
		    mbufx_pool_ops_check(zs->pool[z],
					 mbufx_zs_priv(zs)->ops_name) != 0)
			return -EXDEV;
	lcore_sum(zs, st);
	for (z = 0; z < MBUFX_ZONE_NUM; z++) {
		if (zs->pool[z] == NULL)
			continue;
		st->size[z] = zs->pool[z]->size;
		st->avail[z] = rte_mempool_avail_count(zs->pool[z]);
		st->in_use[z] = st->size[z] - st->avail[z];
		st->data_room[z] = mbufx_zs_priv(zs)->params.data_room[z];
		n = mbufx_rx_stats_sum(zs->pool[z], &rs);
		if (n > 0) {
			st->rx_refilled[z] = rs.refilled;
			st->rx_attached[z] = rs.attached;
			st->rx_returned[z] = rs.returned;
			st->rx_contexts[z] = (uint32_t)n;
		}
	}
	return 0;
}

int
mbufx_zone_set_stats_reset(struct mbufx_zone_set *zs)
{
	unsigned int l;

	if (zs == NULL)
		return -EINVAL;
	for (l = 0; l <= RTE_MAX_LCORE; l++)
		memset(&zs->ctrs[l], 0, sizeof(zs->ctrs[l]));
	return 0;
}

/* "v0/v1/v2" or "v" into buf. */
static void
fmt_value(char *buf, size_t len, const void *st,
	  const struct mbufx_stat_field *f)
{
	unsigned int i;
	size_t off = 0;

	for (i = 0; i < f->n && off < len; i++)
		off += snprintf(buf + off, len - off, "%s%" PRIu64,
				i != 0 ? "/" : "", mbufx_stat_value(st, f, i));
}

void
mbufx_stats_dump_counters(FILE *f, const void *st,
			  const struct mbufx_stat_field *fields, unsigned int n)
{
	char v[96];
	unsigned int i;

	for (i = 0; i < n; i++) {
		if (fields[i].kind != MBUFX_STAT_COUNTER)
			continue;
		fmt_value(v, sizeof(v), st, &fields[i]);
		fprintf(f, "  %s %s%s (%s)\n", v, fields[i].desc,
			fields[i].n > 1 ? " (hdr/pkt/jumbo)" : "",
			fields[i].name);
	}
}

static void
dump_one(const struct mbufx_zone_set *zs, void *arg)
{
	FILE *f = arg;
	struct mbufx_zone_stats st;
	struct rte_mempool *mp;
	uint64_t obj, kb_use = 0, kb_all = 0;
	unsigned int z;

	fprintf(f, "mbufx zone set \"%s\" on socket %d, ops %s\n",
		mbufx_zs_priv(zs)->name, mbufx_zs_priv(zs)->socket_id,
		mbufx_zs_priv(zs)->ops_name);
	if (mbufx_zone_set_stats(zs, &st) != 0) {
		fprintf(f, "  not usable in this process: its mempool ops "
			"numbering differs from the primary's (see the log)\n");
		return;
	}
	for (z = 0; z < MBUFX_ZONE_NUM; z++) {
		mp = zs->pool[z];
		if (mp == NULL) {
			fprintf(f, "  -/-/- %s mbufs (zone disabled)\n",
				mbufx_zone_name(z));
			continue;
		}
		obj = mp->header_size + mp->elt_size + mp->trailer_size;
		kb_use += obj * st.in_use[z] / 1024;
		kb_all += obj * st.size[z] / 1024;
		fprintf(f, "  %u/%u/%u %s mbufs in use (current/free/total), "
			"%u-byte data room, cache %u, %u rx contexts\n",
			st.in_use[z], st.avail[z], st.size[z],
			mbufx_zone_name(z), st.data_room[z], mp->cache_size,
			st.rx_contexts[z]);
	}
	fprintf(f, "  %" PRIu64 "K/%" PRIu64 "K/%" PRIu64
		"K bytes allocated to zones (current/free/total)\n",
		kb_use, kb_all - kb_use, kb_all);
	mbufx_stats_dump_counters(f, &st, zone_stats_fields,
				  RTE_DIM(zone_stats_fields));
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

int
mbufx_stats_json(FILE *f, const void *st,
		 const struct mbufx_stat_field *fields, unsigned int n)
{
	unsigned int i, j;

	if (f == NULL || st == NULL || fields == NULL)
		return -EINVAL;
	for (i = 0; i < n; i++) {
		fprintf(f, "%s\"%s\": ", i != 0 ? ", " : "", fields[i].name);
		if (fields[i].n == 1) {
			fprintf(f, "%" PRIu64, mbufx_stat_value(st, &fields[i], 0));
			continue;
		}
		for (j = 0; j < fields[i].n; j++)
			fprintf(f, "%s%" PRIu64, j != 0 ? ", " : "[",
				mbufx_stat_value(st, &fields[i], j));
		fprintf(f, "]");
	}
	return 0;
}

/* ---- telemetry ------------------------------------------------------- */

static void
tel_list_one(const struct mbufx_zone_set *zs, void *arg)
{
	rte_tel_data_add_array_string(arg, mbufx_zs_priv(zs)->name);
}

static int
tel_zones(const char *cmd __rte_unused, const char *params __rte_unused,
	  struct rte_tel_data *d)
{
	rte_tel_data_start_array(d, RTE_TEL_STRING_VAL);
	mbufx_zone_set_walk(tel_list_one, d);
	return 0;
}

void
mbufx_stats_tel_fields(struct rte_tel_data *d, const void *st,
		       const struct mbufx_stat_field *fields, unsigned int n)
{
	struct rte_tel_data *a;
	unsigned int i, j;

	for (i = 0; i < n; i++) {
		if (fields[i].n == 1) {
			mbufx_tel_dict_uint(d, fields[i].name,
				mbufx_stat_value(st, &fields[i], 0));
			continue;
		}
		a = rte_tel_data_alloc();
		if (a == NULL)
			continue;
		rte_tel_data_start_array(a, MBUFX_TEL_UINT_VAL);
		for (j = 0; j < fields[i].n; j++)
			mbufx_tel_array_uint(a,
				mbufx_stat_value(st, &fields[i], j));
		if (rte_tel_data_add_dict_container(d, fields[i].name, a, 0) != 0)
			rte_tel_data_free(a);
	}
}

static void
tel_zone_one(const struct mbufx_zone_set *zs, void *arg)
{
	struct rte_tel_data *d = arg;
	struct mbufx_zone_stats st;
	struct rte_tel_data *names;
	unsigned int z;

	rte_tel_data_start_dict(d);
	rte_tel_data_add_dict_string(d, "name", mbufx_zs_priv(zs)->name);
	rte_tel_data_add_dict_int(d, "socket", mbufx_zs_priv(zs)->socket_id);
	rte_tel_data_add_dict_string(d, "ops", mbufx_zs_priv(zs)->ops_name);
	if (mbufx_zone_set_stats(zs, &st) != 0) {
		rte_tel_data_add_dict_string(d, "error", "mempool ops numbering "
			"differs from the primary's: see the log");
		return;
	}
	names = rte_tel_data_alloc();
	if (names != NULL) {
		rte_tel_data_start_array(names, RTE_TEL_STRING_VAL);
		for (z = 0; z < MBUFX_ZONE_NUM; z++)
			rte_tel_data_add_array_string(names, mbufx_zone_name(z));
		if (rte_tel_data_add_dict_container(d, "zones", names, 0) != 0)
			rte_tel_data_free(names);
	}
	mbufx_stats_tel_fields(d, &st, zone_stats_fields,
			       RTE_DIM(zone_stats_fields));
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
