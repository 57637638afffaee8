/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The mbufx authors
 */

/*
 * mbufx_zone_autotest: zone sets and size-generic allocation.
 *
 * Protects: creation with defaults and parameters, every documented errno
 * of create / lookup / pool / audit / free / alloc / alloc_bulk /
 * append_data; the allocation ladder (packet zone, jumbo zone, jumbo dry
 * -> packet-zone chain, packet dry -> jumbo), all-or-nothing bulk, the
 * counters, the dump and the telemetry commands; that a concurrent
 * lookup never returns a set still under construction; that mbufx_alloc()'s
 * own pop off the per-lcore mempool cache hands out what DPDK's get would,
 * in the same order, on the installed DPDK; and that every zone is full
 * again at the end of each case.
 */

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <rte_cycles.h>
#include <rte_eal.h>
#include <rte_errno.h>
#include <rte_launch.h>
#include <rte_lcore.h>
#include <rte_mbuf.h>
#include <rte_pause.h>

#include "mbufx.h"
#include "mbufx_test.h"
#include "test_mbufx_util.h"

static struct mbufx_zone_set *zs;

static int
zs_setup(void)
{
	zs = tu_zs_create("tz");
	TEST_ASSERT_NOT_NULL(zs, "create: %s", rte_strerror(rte_errno));
	return TEST_SUCCESS;
}

static void
zs_teardown(void)
{
	if (zs != NULL && mbufx_zone_set_free(zs) != 0)
		printf("    zone set tz not freed: mbufs out\n");
	zs = NULL;
}

/* Every zone full: the leak check of each case. */
#define ASSERT_FULL(zs) \
	TEST_ASSERT_SUCCESS(mbufx_zone_set_audit(zs, stdout), "mbufs leaked")

static int
test_params_defaults(void)
{
	struct mbufx_zone_params p;
	struct mbufx_zone_set *d;
	unsigned int z;

	mbufx_zone_params_init(&p);
	TEST_ASSERT_EQUAL(p.count[MBUFX_ZONE_PKT], 16383, "pkt count");
	TEST_ASSERT_EQUAL(p.data_room[MBUFX_ZONE_HDR], 256, "hdr room");
	TEST_ASSERT_EQUAL(p.data_room[MBUFX_ZONE_PKT], 2176, "pkt room");
	TEST_ASSERT_EQUAL(p.data_room[MBUFX_ZONE_JUMBO], 9344, "jumbo room");
	TEST_ASSERT_EQUAL(p.cache[MBUFX_ZONE_JUMBO], 64, "jumbo cache");
	TEST_ASSERT(strcmp(p.ops_name, "mbufx") == 0, "ops");
	mbufx_zone_params_init(NULL); /* no crash */

	/* NULL params = defaults: full-size pools */
	d = mbufx_zone_set_create("tdef", SOCKET_ID_ANY, NULL);
	TEST_ASSERT_NOT_NULL(d, "create defaults: %s", rte_strerror(rte_errno));
	for (z = 0; z < MBUFX_ZONE_NUM; z++) {
		TEST_ASSERT_NOT_NULL(d->pool[z], "zone %u", z);
		TEST_ASSERT_EQUAL(d->pool[z]->size, p.count[z], "size %u", z);
		TEST_ASSERT_EQUAL(rte_pktmbuf_data_room_size(d->pool[z]),
				  p.data_room[z], "room %u", z);
		TEST_ASSERT(strcmp(rte_mempool_get_ops(d->pool[z]->ops_index)->name,
				   "mbufx") == 0, "ops of zone %u", z);
	}
	TEST_ASSERT_EQUAL(d->room[MBUFX_ZONE_PKT], 2048, "pkt room");
	TEST_ASSERT_EQUAL(d->max_len, 9216, "max len");
	TEST_ASSERT(strcmp(d->pool[MBUFX_ZONE_JUMBO]->name, "tdef_jum") == 0,
		    "pool name %s", d->pool[MBUFX_ZONE_JUMBO]->name);
	TEST_ASSERT_SUCCESS(mbufx_zone_set_free(d), "free");

	/* A zeroed struct means defaults too; caches are clamped for small
	 * counts. */
	memset(&p, 0, sizeof(p));
	p.count[MBUFX_ZONE_HDR] = 31;
	p.count[MBUFX_ZONE_JUMBO] = 7;
	p.ops_name = "ring_mp_mc";
	d = mbufx_zone_set_create("tzero", SOCKET_ID_ANY, &p);
	TEST_ASSERT_NOT_NULL(d, "create zeroed: %s", rte_strerror(rte_errno));
	TEST_ASSERT(d->pool[MBUFX_ZONE_HDR]->cache_size <= 31 * 2 / 3,
		    "hdr cache %u", d->pool[MBUFX_ZONE_HDR]->cache_size);
	TEST_ASSERT_EQUAL(d->pool[MBUFX_ZONE_PKT]->cache_size, 256, "cache");
	TEST_ASSERT(strcmp(rte_mempool_get_ops(
			d->pool[MBUFX_ZONE_PKT]->ops_index)->name,
			"ring_mp_mc") == 0, "ops name honoured");
	TEST_ASSERT_SUCCESS(mbufx_zone_set_free(d), "free");
	return TEST_SUCCESS;
}

static int
test_create_errors(void)
{
	struct mbufx_zone_params p;
	struct mbufx_zone_set *d;

#define CREATE_FAILS(name, params, err) do {				\
	rte_errno = 0;							\
	d = mbufx_zone_set_create(name, SOCKET_ID_ANY, params);	\
	TEST_ASSERT_NULL(d, "create %s should fail", #name);		\
	TEST_ASSERT_EQUAL(rte_errno, err, "errno");			\
} while (0)

	CREATE_FAILS(NULL, NULL, EINVAL);
	CREATE_FAILS("", NULL, EINVAL);
	CREATE_FAILS("a_name_that_is_too_long", NULL, ENAMETOOLONG);
	CREATE_FAILS("twenty_chars_name_xx", NULL, ENAMETOOLONG);
	/* the longest name fits every derived name, also the ring driver's
	 * "MP_<pool>" ring */
	mbufx_zone_params_init(&p);
	p.count[MBUFX_ZONE_HDR] = p.count[MBUFX_ZONE_PKT] = 15;
	p.count[MBUFX_ZONE_JUMBO] = 3;
	p.cache[MBUFX_ZONE_HDR] = p.cache[MBUFX_ZONE_PKT] =
		p.cache[MBUFX_ZONE_JUMBO] = MBUFX_ZONE_CACHE_NONE;
	p.ops_name = "ring_mp_mc";
	d = mbufx_zone_set_create("nineteen_chars_name", SOCKET_ID_ANY, &p);
	TEST_ASSERT_NOT_NULL(d, "19 characters: %s", rte_strerror(rte_errno));
	TEST_ASSERT(mbufx_zone_set_lookup("nineteen_chars_name") == d, "lookup");
	TEST_ASSERT_SUCCESS(mbufx_zone_set_free(d), "free");
	CREATE_FAILS("tz", NULL, EEXIST); /* the suite's set */

	mbufx_zone_params_init(&p);
	p.flags = RTE_BIT32(7);
	CREATE_FAILS("tbad", &p, EINVAL);
	mbufx_zone_params_init(&p);
	p.priv_size = 3;
	CREATE_FAILS("tbad", &p, EINVAL);
	mbufx_zone_params_init(&p);
	p.data_room[MBUFX_ZONE_HDR] = RTE_PKTMBUF_HEADROOM;
	CREATE_FAILS("tbad", &p, EINVAL);
	mbufx_zone_params_init(&p);
	p.data_room[MBUFX_ZONE_JUMBO] = 2176; /* not above the packet zone */
	CREATE_FAILS("tbad", &p, EINVAL);
	mbufx_zone_params_init(&p);
	p.count[MBUFX_ZONE_PKT] = 100;
	p.cache[MBUFX_ZONE_PKT] = 100; /* explicit, above 2/3 of the count */
	CREATE_FAILS("tbad", &p, EINVAL);
	mbufx_zone_params_init(&p);
	p.count[MBUFX_ZONE_HDR] = 31;
	p.count[MBUFX_ZONE_PKT] = 31;
	p.count[MBUFX_ZONE_JUMBO] = 7;
	p.cache[MBUFX_ZONE_HDR] = 8;
	p.cache[MBUFX_ZONE_PKT] = 8;
	p.cache[MBUFX_ZONE_JUMBO] = 2;
	p.ops_name = "no_such_ops";
	CREATE_FAILS("tbad", &p, ENOENT);
	TEST_ASSERT_NULL(rte_mempool_lookup("tbad_hdr"), "no pool left");
	/* ENOMEM is passed through from the mempool library; provoking it
	 * would take every free hugepage of the machine for a while, so it
	 * is not exercised here. */
	/* a failed create leaves nothing behind: the same name works */
	p.ops_name = NULL;
	d = mbufx_zone_set_create("tbad", SOCKET_ID_ANY, &p);
	TEST_ASSERT_NOT_NULL(d, "create after failures: %s",
			     rte_strerror(rte_errno));
	{
		struct mbufx_zone_params dp;

		TEST_ASSERT_SUCCESS(mbufx_zone_set_params(d, &dp), "params");
		TEST_ASSERT(strcmp(dp.ops_name, "mbufx") == 0, "NULL ops");
		TEST_ASSERT_EQUAL(mbufx_zone_set_params(NULL, &dp), -EINVAL,
				  "NULL zone set");
		TEST_ASSERT_EQUAL(mbufx_zone_set_params(d, NULL), -EINVAL,
				  "NULL params");
	}
	TEST_ASSERT_SUCCESS(mbufx_zone_set_free(d), "free");
	/* a pool name already taken by somebody else */
	{
		struct rte_mempool *mp = rte_pktmbuf_pool_create("tclash_pkt",
				31, 0, 0, 2176, SOCKET_ID_ANY);

		TEST_ASSERT_NOT_NULL(mp, "pool");
		CREATE_FAILS("tclash", &p, EEXIST);
		rte_mempool_free(mp);
		TEST_ASSERT_NULL(mbufx_zone_set_lookup("tclash"), "no leftover");
	}
#undef CREATE_FAILS
	return TEST_SUCCESS;
}

static int
test_lookup_pool(void)
{
	struct mbufx_zone_set *d;

	TEST_ASSERT(mbufx_zone_set_lookup("tz") == zs, "lookup");
	rte_errno = 0;
	TEST_ASSERT_NULL(mbufx_zone_set_lookup("nonexistent"), "unknown");
	TEST_ASSERT_EQUAL(rte_errno, ENOENT, "errno");
	rte_errno = 0;
	TEST_ASSERT_NULL(mbufx_zone_set_lookup(NULL), "NULL");
	TEST_ASSERT_EQUAL(rte_errno, EINVAL, "errno");
	rte_errno = 0;
	TEST_ASSERT_NULL(mbufx_zone_set_lookup("a_much_too_long_zone_set_name_x"),
			 "long");
	TEST_ASSERT_EQUAL(rte_errno, ENOENT, "errno");

	TEST_ASSERT(mbufx_zone_set_pool(zs, MBUFX_ZONE_PKT) ==
		    zs->pool[MBUFX_ZONE_PKT], "pool");
	rte_errno = 0;
	TEST_ASSERT_NULL(mbufx_zone_set_pool(NULL, MBUFX_ZONE_PKT), "NULL");
	TEST_ASSERT_EQUAL(rte_errno, EINVAL, "errno");
	rte_errno = 0;
	TEST_ASSERT_NULL(mbufx_zone_set_pool(zs, MBUFX_ZONE_NUM), "bad zone");
	TEST_ASSERT_EQUAL(rte_errno, EINVAL, "errno");

	d = tu_zs_create_n("tnoj", 0, 31, 0);
	TEST_ASSERT_NOT_NULL(d, "create: %s", rte_strerror(rte_errno));
	rte_errno = 0;
	TEST_ASSERT_NULL(mbufx_zone_set_pool(d, MBUFX_ZONE_JUMBO), "disabled");
	TEST_ASSERT_EQUAL(rte_errno, ENOENT, "errno");
	TEST_ASSERT_NULL(mbufx_zone_set_pool(d, MBUFX_ZONE_HDR), "disabled");
	TEST_ASSERT_EQUAL(d->max_len, 9216, "max_len without jumbo zone");
	TEST_ASSERT_SUCCESS(mbufx_zone_set_free(d), "free");
	TEST_ASSERT_NULL(mbufx_zone_set_lookup("tnoj"), "gone after free");
	return TEST_SUCCESS;
}

static int
test_audit_free(void)
{
	struct mbufx_zone_set *d;
	struct rte_mbuf *m, *j;
	char buf[512];
	FILE *f;

	TEST_ASSERT_EQUAL(mbufx_zone_set_audit(NULL, NULL), -EINVAL, "NULL");
	TEST_ASSERT_EQUAL(mbufx_zone_set_free(NULL), 0, "free NULL");
	d = tu_zs_create_n("taudit", 15, 31, 7);
	TEST_ASSERT_NOT_NULL(d, "create");
	TEST_ASSERT_SUCCESS(mbufx_zone_set_audit(d, NULL), "full");
	m = mbufx_alloc(d, 100);
	j = mbufx_alloc(d, 9000);
	TEST_ASSERT(m != NULL && j != NULL, "alloc");
	f = fmemopen(buf, sizeof(buf), "w");
	TEST_ASSERT_EQUAL(mbufx_zone_set_audit(d, f), -EBUSY, "busy");
	fclose(f);
	TEST_ASSERT(strstr(buf, "pkt zone") != NULL &&
		    strstr(buf, "1 of 31") != NULL, "report: %s", buf);
	TEST_ASSERT(strstr(buf, "jumbo zone") != NULL, "report: %s", buf);
	TEST_ASSERT(strstr(buf, "hdr zone") == NULL, "full zone listed");
	/* free refuses while mbufs are out, and the set stays usable */
	TEST_ASSERT_EQUAL(mbufx_zone_set_free(d), -EBUSY, "free busy");
	TEST_ASSERT(mbufx_zone_set_lookup("taudit") == d, "still there");
	rte_pktmbuf_free(m);
	rte_pktmbuf_free(j);
	TEST_ASSERT_SUCCESS(mbufx_zone_set_audit(d, stdout), "full again");
	TEST_ASSERT_SUCCESS(mbufx_zone_set_free(d), "free");
	return TEST_SUCCESS;
}

/* Each request from the smallest zone that holds it; EINVAL beyond. */
static int
test_alloc_ladder(void)
{
	struct mbufx_zone_stats st;
	struct rte_mbuf *m;

	mbufx_zone_set_stats_reset(zs);
	/* packet zone, empty, standard headroom */
	m = mbufx_alloc(zs, 0);
	TEST_ASSERT_NOT_NULL(m, "alloc 0");
	TEST_ASSERT(m->pool == zs->pool[MBUFX_ZONE_PKT], "pkt zone");
	TEST_ASSERT_EQUAL(m->data_len, 0, "empty");
	TEST_ASSERT_EQUAL(rte_pktmbuf_headroom(m), RTE_PKTMBUF_HEADROOM, "hr");
	rte_pktmbuf_free(m);
	m = mbufx_alloc(zs, 2048);
	TEST_ASSERT(m != NULL && m->pool == zs->pool[MBUFX_ZONE_PKT], "2048");
	TEST_ASSERT(rte_pktmbuf_tailroom(m) >= 2048, "room");
	rte_pktmbuf_free(m);
	/* jumbo zone */
	m = mbufx_alloc(zs, 2049);
	TEST_ASSERT(m != NULL && m->pool == zs->pool[MBUFX_ZONE_JUMBO], "2049");
	TEST_ASSERT_EQUAL(m->nb_segs, 1, "single segment");
	rte_pktmbuf_free(m);
	m = mbufx_alloc(zs, 9216);
	TEST_ASSERT(m != NULL && m->pool == zs->pool[MBUFX_ZONE_JUMBO], "9216");
	TEST_ASSERT(rte_pktmbuf_tailroom(m) >= 9216, "jumbo room");
	rte_pktmbuf_free(m);
	/* beyond the largest zone */
	rte_errno = 0;
	TEST_ASSERT_NULL(mbufx_alloc(zs, 9217), "9217");
	TEST_ASSERT_EQUAL(rte_errno, EINVAL, "errno");
	rte_errno = 0;
	TEST_ASSERT_NULL(mbufx_alloc(zs, UINT32_MAX), "huge");
	TEST_ASSERT_EQUAL(rte_errno, EINVAL, "errno");
	TEST_ASSERT_NULL(mbufx_alloc_slow(NULL, 10), "NULL zs slow path");

	mbufx_zone_set_stats(zs, &st);
	TEST_ASSERT_EQUAL(st.alloc[MBUFX_ZONE_PKT], 2, "pkt allocs");
	TEST_ASSERT_EQUAL(st.alloc[MBUFX_ZONE_JUMBO], 2, "jumbo allocs");
	TEST_ASSERT_EQUAL(st.alloc[MBUFX_ZONE_HDR], 0, "hdr allocs");
	TEST_ASSERT_EQUAL(st.alloc_fail, 0, "EINVAL is not a denial");
	ASSERT_FULL(zs);
	return TEST_SUCCESS;
}

/* Jumbo zone dry: 9000 bytes come as a chain of packet-zone mbufs. */
static int
test_alloc_jumbo_dry(void)
{
	struct rte_mbuf *jv[TU_JUMBO_N + 1], *m, *s;
	struct mbufx_zone_stats st0, st;
	uint8_t in[9216], out[9216];
	unsigned int n;

	n = tu_drain(zs->pool[MBUFX_ZONE_JUMBO], jv, RTE_DIM(jv));
	TEST_ASSERT_EQUAL(n, TU_JUMBO_N, "drained");
	mbufx_zone_set_stats(zs, &st0);
	m = mbufx_alloc(zs, 9216);
	TEST_ASSERT_NOT_NULL(m, "fallback chain");
	TEST_ASSERT_EQUAL(m->nb_segs, 5, "segments for 9216 B");
	TEST_ASSERT_EQUAL(m->pkt_len, 0, "empty chain");
	for (s = m; s != NULL; s = s->next) {
		TEST_ASSERT(s->pool == zs->pool[MBUFX_ZONE_PKT], "pkt");
		TEST_ASSERT_EQUAL(s->data_len, 0, "empty seg");
		TEST_ASSERT_EQUAL(s->data_off, s == m ?
				  RTE_PKTMBUF_HEADROOM : 0, "data_off");
	}
	/* append_data fills it in order */
	tu_pattern(in, sizeof(in), 9);
	TEST_ASSERT_SUCCESS(mbufx_append_data(m, in, 9000), "fill");
	TEST_ASSERT_SUCCESS(mbufx_append_data(m, in + 9000, 216), "fill");
	TEST_ASSERT_SUCCESS(tu_cmp(m, in, 9216), "content");
	tu_read(m, out, sizeof(out));
	TEST_ASSERT(memcmp(in, out, 9216) == 0, "read back");
	/* the chain holds 2048 + 4 x 2176 bytes: fill it exactly */
	TEST_ASSERT_SUCCESS(mbufx_append_data(m, in, 10752 - 9216),
			    "fill the chain");
	TEST_ASSERT_EQUAL(m->pkt_len, 10752, "full chain");
	TEST_ASSERT_EQUAL(mbufx_append_data(m, in, 1), -ENOSPC, "full");
	TEST_ASSERT_EQUAL(m->pkt_len, 10752, "unchanged");
	mbufx_zone_set_stats(zs, &st);
	TEST_ASSERT_EQUAL(st.jumbo_fallback - st0.jumbo_fallback, 1,
			  "fallback counted");
	TEST_ASSERT_EQUAL(st.alloc[MBUFX_ZONE_PKT] -
			  st0.alloc[MBUFX_ZONE_PKT], 5, "5 pkt mbufs");
	rte_pktmbuf_free(m);

	/* a 2100-byte request needs 2 segments */
	m = mbufx_alloc(zs, 2100);
	TEST_ASSERT(m != NULL && m->nb_segs == 2, "2 segments");
	rte_pktmbuf_free(m);
	rte_pktmbuf_free_bulk(jv, n);
	ASSERT_FULL(zs);
	return TEST_SUCCESS;
}

/* Jumbo and packet zones dry: NULL, ENOMEM, counted; no partial chain. */
static int
test_alloc_all_dry(void)
{
	struct rte_mbuf *jv[TU_JUMBO_N + 1], *pv[TU_PKT_N + 1];
	struct mbufx_zone_stats st0, st;
	unsigned int n, np;

	n = tu_drain(zs->pool[MBUFX_ZONE_JUMBO], jv, RTE_DIM(jv));
	TEST_ASSERT_EQUAL(n, TU_JUMBO_N, "drained");
	np = tu_drain(zs->pool[MBUFX_ZONE_PKT], pv, RTE_DIM(pv));
	TEST_ASSERT_EQUAL(np, TU_PKT_N, "pkt drained");
	mbufx_zone_set_stats(zs, &st0);
	rte_errno = 0;
	TEST_ASSERT_NULL(mbufx_alloc(zs, 9000), "all dry");
	TEST_ASSERT_EQUAL(rte_errno, ENOMEM, "errno");
	rte_errno = 0;
	TEST_ASSERT_NULL(mbufx_alloc(zs, 64), "all dry");
	TEST_ASSERT_EQUAL(rte_errno, ENOMEM, "errno");
	/* the header zone is never used for packets */
	TEST_ASSERT_EQUAL(rte_mempool_avail_count(zs->pool[MBUFX_ZONE_HDR]),
			  TU_HDR_N, "header zone untouched");
	/* only 3 pkt mbufs: a 9000-byte chain needs 5 */
	rte_pktmbuf_free(pv[--np]);
	rte_pktmbuf_free(pv[--np]);
	rte_pktmbuf_free(pv[--np]);
	rte_errno = 0;
	TEST_ASSERT_NULL(mbufx_alloc(zs, 9000), "chain short");
	TEST_ASSERT_EQUAL(rte_errno, ENOMEM, "errno");
	TEST_ASSERT_EQUAL(rte_mempool_avail_count(zs->pool[MBUFX_ZONE_PKT]), 3,
			  "partial chain given back");
	mbufx_zone_set_stats(zs, &st);
	TEST_ASSERT_EQUAL(st.alloc_fail - st0.alloc_fail, 3, "denials counted");
	rte_pktmbuf_free_bulk(pv, np);
	rte_pktmbuf_free_bulk(jv, n);
	ASSERT_FULL(zs);
	return TEST_SUCCESS;
}

/* Packet zone dry, one jumbo mbuf free: a jumbo mbuf serves, counted. */
static int
test_alloc_pkt_dry(void)
{
	struct rte_mbuf *jv[TU_JUMBO_N + 1], *pv[TU_PKT_N + 1], *m;
	struct mbufx_zone_stats st0, st;
	unsigned int n, np;

	n = tu_drain(zs->pool[MBUFX_ZONE_JUMBO], jv, RTE_DIM(jv));
	TEST_ASSERT_EQUAL(n, TU_JUMBO_N, "drained");
	rte_pktmbuf_free(jv[--n]);
	np = tu_drain(zs->pool[MBUFX_ZONE_PKT], pv, RTE_DIM(pv));
	TEST_ASSERT_EQUAL(np, TU_PKT_N, "pkt drained");
	mbufx_zone_set_stats(zs, &st0);
	m = mbufx_alloc(zs, 64);
	TEST_ASSERT(m != NULL && m->pool == zs->pool[MBUFX_ZONE_JUMBO],
		    "packet request from jumbo");
	mbufx_zone_set_stats(zs, &st);
	TEST_ASSERT_EQUAL(st.pkt_fallback - st0.pkt_fallback, 1, "counted");
	rte_pktmbuf_free(m);
	rte_pktmbuf_free_bulk(pv, np);
	rte_pktmbuf_free_bulk(jv, n);
	ASSERT_FULL(zs);
	return TEST_SUCCESS;
}

static int
test_alloc_bulk(void)
{
	struct rte_mbuf *v[TU_PKT_N + 8], *jv[TU_JUMBO_N];
	struct mbufx_zone_stats st0, st;
	unsigned int i, n;

	TEST_ASSERT_SUCCESS(mbufx_alloc_bulk(zs, v, 0, 64), "n = 0");
	TEST_ASSERT_EQUAL(mbufx_alloc_bulk(zs, NULL, 4, 5000), -EINVAL, "NULL");
	TEST_ASSERT_EQUAL(mbufx_alloc_bulk(zs, v, 4, 9217), -EINVAL, "len");
	TEST_ASSERT_EQUAL(mbufx_alloc_bulk_slow(NULL, v, 4, 64), -EINVAL, "zs");

	TEST_ASSERT_SUCCESS(mbufx_alloc_bulk(zs, v, 32, 1500), "32 x 1500");
	for (i = 0; i < 32; i++)
		TEST_ASSERT(v[i]->pool == zs->pool[MBUFX_ZONE_PKT], "pkt");
	rte_pktmbuf_free_bulk(v, 32);
	TEST_ASSERT_SUCCESS(mbufx_alloc_bulk(zs, v, 8, 9000), "8 x 9000");
	for (i = 0; i < 8; i++)
		TEST_ASSERT(v[i]->pool == zs->pool[MBUFX_ZONE_JUMBO], "jumbo");
	rte_pktmbuf_free_bulk(v, 8);

	/* 20 jumbo requests, 15 jumbo mbufs: 15 single + 5 chains */
	mbufx_zone_set_stats(zs, &st0);
	TEST_ASSERT_SUCCESS(mbufx_alloc_bulk(zs, v, 20, 9000), "mixed");
	for (i = 0, n = 0; i < 20; i++)
		n += v[i]->nb_segs > 1;
	TEST_ASSERT_EQUAL(n, 5, "chains");
	mbufx_zone_set_stats(zs, &st);
	TEST_ASSERT_EQUAL(st.jumbo_fallback - st0.jumbo_fallback, 5, "counted");
	for (i = 0; i < 20; i++)
		rte_pktmbuf_free(v[i]);

	/* all or nothing: more packet requests than packets + jumbos */
	n = tu_drain(zs->pool[MBUFX_ZONE_JUMBO], jv, RTE_DIM(jv));
	TEST_ASSERT_EQUAL(mbufx_alloc_bulk(zs, v, TU_PKT_N + 1, 64), -ENOMEM,
			  "too many");
	TEST_ASSERT_EQUAL(rte_mempool_avail_count(zs->pool[MBUFX_ZONE_PKT]),
			  TU_PKT_N, "nothing kept");
	/* with one jumbo back, TU_PKT_N + 1 works through the fallback */
	rte_pktmbuf_free(jv[--n]);
	TEST_ASSERT_SUCCESS(mbufx_alloc_bulk(zs, v, TU_PKT_N + 1, 64), "fit");
	rte_pktmbuf_free_bulk(v, TU_PKT_N + 1);
	rte_pktmbuf_free_bulk(jv, n);
	ASSERT_FULL(zs);
	return TEST_SUCCESS;
}

static int
test_append_data(void)
{
	uint8_t in[3000];
	struct rte_mbuf *m, *c;

	tu_pattern(in, sizeof(in), 3);
	TEST_ASSERT_EQUAL(mbufx_append_data(NULL, in, 1), -EINVAL, "NULL m");
	m = mbufx_alloc(zs, 100);
	TEST_ASSERT_NOT_NULL(m, "alloc");
	TEST_ASSERT_EQUAL(mbufx_append_data(m, NULL, 1), -EINVAL, "NULL src");
	TEST_ASSERT_SUCCESS(mbufx_append_data(m, NULL, 0), "len 0");
	TEST_ASSERT_SUCCESS(mbufx_append_data(m, in, 100), "append");
	TEST_ASSERT_SUCCESS(mbufx_append_data(m, in + 100, 1948), "to 2048");
	TEST_ASSERT_SUCCESS(tu_cmp(m, in, 2048), "content");
	TEST_ASSERT_EQUAL(mbufx_append_data(m, in, 1), -ENOSPC, "full");
	/* a clone shares the buffer: nothing may be appended through it */
	rte_pktmbuf_trim(m, 48);
	c = rte_pktmbuf_clone(m, zs->pool[MBUFX_ZONE_HDR]);
	TEST_ASSERT_NOT_NULL(c, "clone");
	TEST_ASSERT_EQUAL(mbufx_append_data(c, in, 1), -ENOSPC, "shared");
	/* a direct mbuf's refcnt counts its clones: it reads as shared */
	TEST_ASSERT_EQUAL(mbufx_append_data(m, in, 1), -EBUSY, "shared");
	rte_pktmbuf_free(c);
	rte_mbuf_refcnt_update(m, 1);
	TEST_ASSERT_EQUAL(mbufx_append_data(m, in, 1), -EBUSY, "head shared");
	TEST_ASSERT_EQUAL(m->pkt_len, 2000, "unchanged");
	rte_mbuf_refcnt_update(m, -1);
	TEST_ASSERT_SUCCESS(mbufx_append_data(m, in + 2000, 48), "sole again");
	TEST_ASSERT_SUCCESS(tu_cmp(m, in, 2048), "content");
	rte_pktmbuf_free(m);
	ASSERT_FULL(zs);
	return TEST_SUCCESS;
}

static void *
non_eal_alloc(void *arg)
{
	struct rte_mbuf *m;
	int i;

	for (i = 0; i < 10; i++) {
		m = mbufx_alloc(arg, 64);
		rte_pktmbuf_free(m);
	}
	return NULL;
}

static int
test_stats_dump(void)
{
	struct mbufx_zone_stats st;
	struct rte_mbuf *m;
	char *buf = NULL;
	size_t sz = 0;
	FILE *f;

	TEST_ASSERT_EQUAL(mbufx_zone_set_stats(NULL, &st), -EINVAL, "NULL");
	TEST_ASSERT_EQUAL(mbufx_zone_set_stats(zs, NULL), -EINVAL, "NULL");
	TEST_ASSERT_EQUAL(mbufx_zone_set_stats_reset(NULL), -EINVAL, "NULL");
	TEST_ASSERT_SUCCESS(mbufx_zone_set_stats_reset(zs), "reset");
	m = mbufx_alloc(zs, 10);
	mbufx_zone_set_stats(zs, &st);
	TEST_ASSERT_EQUAL(st.alloc[MBUFX_ZONE_PKT], 1, "one alloc");
	TEST_ASSERT_EQUAL(st.in_use[MBUFX_ZONE_PKT], 1, "in use");
	TEST_ASSERT_EQUAL(st.size[MBUFX_ZONE_HDR], TU_HDR_N, "size");
	TEST_ASSERT_EQUAL(st.avail[MBUFX_ZONE_JUMBO], TU_JUMBO_N, "avail");
	TEST_ASSERT_EQUAL(st.data_room[MBUFX_ZONE_JUMBO], 9344, "room");

	f = open_memstream(&buf, &sz);
	mbufx_zone_set_dump(f, zs);
	fclose(f);
	printf("%s", buf);
	TEST_ASSERT(strstr(buf, "zone set \"tz\"") != NULL, "title");
	TEST_ASSERT(strstr(buf, "1/126/127 pkt mbufs in use") != NULL,
		    "packet line");
	TEST_ASSERT(strstr(buf, "0/63/63 hdr mbufs") != NULL, "hdr line");
	TEST_ASSERT(strstr(buf, "0/1/0 mbufs taken by the library") != NULL,
		    "alloc line");
	free(buf);
	buf = NULL;
	/* NULL = every zone set */
	f = open_memstream(&buf, &sz);
	mbufx_zone_set_dump(f, NULL);
	fclose(f);
	TEST_ASSERT(strstr(buf, "zone set \"tz\"") != NULL, "all sets");
	free(buf);
	rte_pktmbuf_free(m);

	/* a non-EAL thread counts in the shared slot */
	{
		pthread_t t;

		TEST_ASSERT_SUCCESS(pthread_create(&t, NULL, non_eal_alloc, zs),
				    "thread");
		pthread_join(t, NULL);
		mbufx_zone_set_stats(zs, &st);
		TEST_ASSERT_EQUAL(st.alloc[MBUFX_ZONE_PKT], 1 + 10, "summed");
		TEST_ASSERT_EQUAL(MBUFX_ZONE_CTR(zs, RTE_MAX_LCORE,
						 alloc[MBUFX_ZONE_PKT]),
				  10, "non-EAL slot");
	}
	ASSERT_FULL(zs);
	return TEST_SUCCESS;
}

/*
 * The counter table is the one list of the zone-set statistics: it must
 * name every byte of struct mbufx_zone_stats exactly once, in struct order,
 * keep the per-lcore counters (uint64_t, before rx_refilled) as counters,
 * and drive the JSON: a field added to the struct without its table line
 * fails here.
 */
static int
test_stats_table(void)
{
	const struct mbufx_stat_field *t;
	struct mbufx_zone_stats st;
	unsigned int n, i;
	size_t end;
	char *buf = NULL;
	size_t sz = 0;
	FILE *f;

	t = mbufx_zone_stats_fields(&n);
	if (tu_stat_table_check(t, n, sizeof(st), &end) != TEST_SUCCESS)
		return TEST_FAILED;
	for (i = 0; i < n; i++)
		if (t[i].offset < MBUFX_ZONE_NB_LCORE_CTRS * sizeof(uint64_t))
			TEST_ASSERT(t[i].size == 8 &&
				    t[i].kind == MBUFX_STAT_COUNTER,
				    "%s: per-lcore counters are uint64_t",
				    t[i].name);
	TEST_ASSERT(sizeof(st) - end < sizeof(uint64_t) ||
		    sizeof(st) % RTE_CACHE_LINE_SIZE == 0, "unnamed tail");

	/* a value lands under its name in the JSON */
	memset(&st, 0, sizeof(st));
	st.pkt_fallback = 7;
	st.alloc[MBUFX_ZONE_JUMBO] = 5;
	st.data_room[MBUFX_ZONE_HDR] = 256;
	f = open_memstream(&buf, &sz);
	TEST_ASSERT_SUCCESS(mbufx_stats_json(f, &st, t, n), "json");
	fclose(f);
	printf("    {%s}\n", buf);
	TEST_ASSERT(strstr(buf, "\"pkt_fallback\": 7") != NULL, "scalar");
	TEST_ASSERT(strstr(buf, "\"alloc\": [0, 0, 5]") != NULL, "per zone");
	TEST_ASSERT(strstr(buf, "\"data_room\": [256, 0, 0]") != NULL, "u16");
	free(buf);
	TEST_ASSERT_EQUAL(mbufx_stats_json(NULL, &st, t, n), -EINVAL, "NULL");
	TEST_ASSERT_EQUAL(strcmp(mbufx_zone_name(MBUFX_ZONE_PKT), "pkt"), 0,
			  "zone name");
	TEST_ASSERT_EQUAL(strcmp(mbufx_zone_name(MBUFX_ZONE_NUM), "?"), 0,
			  "zone name out of range");
	return TEST_SUCCESS;
}

/* Late-attach activity of rx contexts bound to a zone pool shows in the
 * zone set's counters, the dump and telemetry (mbufx_rx_stats_sum()). */
static int
test_stats_rx(void)
{
	struct mbufx_rx_buf b[8];
	struct mbufx_zone_stats st;
	struct rte_mbuf *m[4];
	struct mbufx_rx *rx;
	char *buf = NULL;
	size_t sz = 0;
	unsigned int i;
	FILE *f;

	rx = mbufx_rx_create(zs->pool[MBUFX_ZONE_PKT], 0, 0);
	if (rx == NULL) {
		printf("    rx context: %s: skipped\n", rte_strerror(rte_errno));
		return TEST_SKIPPED;
	}
	TEST_ASSERT_EQUAL(mbufx_rx_refill(rx, b, 8), 8, "refill");
	for (i = 0; i < 4; i++) {
		m[i] = mbufx_rx_attach(rx, &b[i], 60, 0, 0);
		TEST_ASSERT_NOT_NULL(m[i], "attach");
	}
	mbufx_rx_return(rx, &b[4], 4);
	TEST_ASSERT_SUCCESS(mbufx_zone_set_stats(zs, &st), "stats");
	TEST_ASSERT_EQUAL(st.rx_contexts[MBUFX_ZONE_PKT], 1, "one context");
	TEST_ASSERT_EQUAL(st.rx_refilled[MBUFX_ZONE_PKT], 8, "refilled");
	TEST_ASSERT_EQUAL(st.rx_attached[MBUFX_ZONE_PKT], 4, "attached");
	TEST_ASSERT_EQUAL(st.rx_returned[MBUFX_ZONE_PKT], 4, "returned");
	TEST_ASSERT_EQUAL(st.rx_contexts[MBUFX_ZONE_HDR], 0, "none on hdr");
	f = open_memstream(&buf, &sz);
	mbufx_zone_set_dump(f, zs);
	fclose(f);
	TEST_ASSERT(strstr(buf, "0/8/0 late-attach buffers handed out") != NULL,
		    "dump: %s", buf);
	free(buf);
	rte_pktmbuf_free_bulk(m, 4);
	mbufx_rx_free(rx);
	TEST_ASSERT_SUCCESS(mbufx_zone_set_stats(zs, &st), "stats");
	TEST_ASSERT_EQUAL(st.rx_contexts[MBUFX_ZONE_PKT], 0, "context gone");
	ASSERT_FULL(zs);
	return TEST_SUCCESS;
}

/* A request over the telemetry socket; returns the reply length. */
/*
 * A thread that waits for a zone set by polling mbufx_zone_set_lookup()
 * (a worker started before the main thread has created its pools) must
 * never get a set whose pools are still being created: what lookup returns
 * is complete. Each round the main thread creates the set while the
 * poller polls, then frees it once the poller has checked what it found.
 */
#define LOOKUP_ROUNDS 40

struct lookup_poll {
	volatile int round;	/* set by main: the round to look for */
	volatile int seen;	/* set by the poller: round checked */
	volatile int stop;
	volatile int bad;	/* incomplete sets returned, -1: none found */
	unsigned long polls;
};

static int
lookup_poller(void *arg)
{
	struct lookup_poll *lp = arg;
	struct mbufx_zone_set *z;
	unsigned int zid;
	int r;

	while (!lp->stop) {
		r = lp->round;
		if (lp->seen == r)
			continue;
		z = mbufx_zone_set_lookup("tlkup");
		lp->polls++;
		if (z == NULL)
			continue;
		for (zid = 0; zid < MBUFX_ZONE_NUM; zid++)
			if (z->pool[zid] == NULL)
				lp->bad++;
		if (z->max_len == 0 || z->room[MBUFX_ZONE_PKT] == 0)
			lp->bad++;
		lp->seen = r;
	}
	return 0;
}

static int
test_lookup_during_create(void)
{
	struct lookup_poll lp = { .round = 0, .seen = 0 };
	struct mbufx_zone_set *d;
	unsigned int worker;
	uint64_t deadline;
	int r;

	/* the poller runs on another core, really concurrently */
	worker = rte_get_next_lcore(-1, 1, 0);
	if (worker >= RTE_MAX_LCORE) {
		printf("    needs a worker lcore: skipped\n");
		return TEST_SKIPPED;
	}
	TEST_ASSERT_SUCCESS(rte_eal_remote_launch(lookup_poller, &lp, worker),
			    "launch");
	for (r = 1; r <= LOOKUP_ROUNDS && lp.bad == 0; r++) {
		lp.round = r;
		d = tu_zs_create_n("tlkup", 31, 31, 3);
		TEST_ASSERT_NOT_NULL(d, "create: %s", rte_strerror(rte_errno));
		deadline = rte_get_timer_cycles() + 10 * rte_get_timer_hz();
		while (lp.seen != r && rte_get_timer_cycles() < deadline)
			rte_pause();
		if (lp.seen != r)
			lp.bad = -1; /* never found: reported below */
		TEST_ASSERT_SUCCESS(mbufx_zone_set_free(d), "free");
	}
	lp.stop = 1;
	rte_eal_wait_lcore(worker);
	printf("    %d rounds, %lu look-ups, %d incomplete sets seen\n",
	       r - 1, lp.polls, lp.bad);
	TEST_ASSERT(lp.bad != -1, "lookup never found the created set");
	TEST_ASSERT_EQUAL(lp.bad, 0, "lookup returned a set under construction");
	return TEST_SUCCESS;
}

static int
telemetry_query(const char *cmd, char *reply, size_t cap)
{
	struct sockaddr_un sun = { .sun_family = AF_UNIX };
	int fd, n;

	snprintf(sun.sun_path, sizeof(sun.sun_path), "%s/dpdk_telemetry.v2",
		 rte_eal_get_runtime_dir());
	fd = socket(AF_UNIX, SOCK_SEQPACKET, 0);
	if (fd < 0)
		return -1;
	if (connect(fd, (struct sockaddr *)&sun, sizeof(sun)) != 0) {
		close(fd);
		return -1;
	}
	n = (int)read(fd, reply, cap - 1); /* the greeting */
	if (n > 0 && write(fd, cmd, strlen(cmd)) == (ssize_t)strlen(cmd))
		n = (int)read(fd, reply, cap - 1);
	else
		n = -1;
	close(fd);
	if (n >= 0)
		reply[n] = '\0';
	return n;
}

/*
 * mbufx_alloc() takes its mbuf off the lcore's mempool cache itself
 * (mbufx_cache_pop()). Against the installed DPDK: the same mbufs in the
 * same order as rte_pktmbuf_alloc(), alone or interleaved with it, the
 * pool's counts kept, an emptied cache refilled by DPDK, and the whole pool
 * handed out once, each mbuf exactly once.
 */
#define CP_COUNT 255
#define CP_CACHE 32
#define CP_N 8

static int
cache_pop_case(struct mbufx_zone_set *d)
{
	struct rte_mempool *mp = d->pool[MBUFX_ZONE_PKT];
	struct rte_mbuf *a[CP_N], *ref[CP_N], *got[CP_N];
	struct rte_mbuf *all[CP_COUNT + 1];
	struct rte_mempool_cache *c;
	struct mbufx_zone_stats st;
	unsigned int i, j, n, avail;

	c = rte_mempool_default_cache(mp, rte_lcore_id());
	TEST_ASSERT_NOT_NULL(c, "the packet zone has a cache on this lcore");
	for (i = 0; i < CP_N; i++) {
		a[i] = rte_pktmbuf_alloc(mp);
		TEST_ASSERT_NOT_NULL(a[i], "alloc %u", i);
	}
	/* DPDK's order: the reference */
	for (i = 0; i < CP_N; i++)
		rte_pktmbuf_free(a[i]);
	for (i = 0; i < CP_N; i++)
		ref[i] = rte_pktmbuf_alloc(mp);
	for (i = 0; i < CP_N; i++)
		TEST_ASSERT(ref[i] == a[CP_N - 1 - i],
			    "DPDK's get is LIFO off the cache (%u)", i);

	/* mbufx_alloc() alone; a[] is freed in its order each time */
	for (i = 0; i < CP_N; i++)
		rte_pktmbuf_free(a[i]);
	avail = rte_mempool_avail_count(mp);
	mbufx_zone_set_stats_reset(d);
	for (i = 0; i < CP_N; i++) {
		got[i] = mbufx_alloc(d, 100);
		TEST_ASSERT(got[i] == a[CP_N - 1 - i],
			    "mbufx_alloc %u: %p, DPDK's get gives %p", i,
			    (void *)got[i], (void *)a[CP_N - 1 - i]);
		TEST_ASSERT_EQUAL(rte_mempool_avail_count(mp), avail - i - 1,
				  "one mbuf out of the pool per alloc");
		TEST_ASSERT_EQUAL(rte_mbuf_refcnt_read(got[i]), 1, "refcnt");
		TEST_ASSERT(got[i]->nb_segs == 1 && got[i]->next == NULL &&
			    got[i]->pkt_len == 0 && got[i]->data_len == 0 &&
			    got[i]->data_off == RTE_PKTMBUF_HEADROOM,
			    "mbuf %u reset", i);
	}
	mbufx_zone_set_stats(d, &st);
	TEST_ASSERT_EQUAL(st.alloc[MBUFX_ZONE_PKT], CP_N, "counted");

	/* interleaved with DPDK's get: one cache, nothing lost or repeated */
	for (i = 0; i < CP_N; i++)
		rte_pktmbuf_free(a[i]);
	for (i = 0; i < CP_N; i++) {
		got[i] = (i & 1) ? rte_pktmbuf_alloc(mp) : mbufx_alloc(d, 100);
		TEST_ASSERT(got[i] == a[CP_N - 1 - i], "interleaved %u", i);
	}
	for (i = 0; i < CP_N; i++)
		rte_pktmbuf_free(a[i]);

	/* an empty cache: DPDK's get refills it */
	rte_mempool_cache_flush(c, mp);
	avail = rte_mempool_avail_count(mp);
	got[0] = mbufx_alloc(d, 100);
	TEST_ASSERT(got[0] != NULL && got[0]->pool == mp, "alloc, cache empty");
	TEST_ASSERT_EQUAL(rte_mempool_avail_count(mp), avail - 1, "refill");
	rte_pktmbuf_free(got[0]);

	/* the whole zone, both callers: every mbuf once */
	for (n = 0; n < RTE_DIM(all); n++) {
		all[n] = (n & 1) ? rte_pktmbuf_alloc(mp) : mbufx_alloc(d, 100);
		if (all[n] == NULL)
			break;
		TEST_ASSERT(all[n]->pool == mp, "packet zone");
	}
	TEST_ASSERT_EQUAL(n, CP_COUNT, "the zone's size, handed out");
	for (i = 0; i < n; i++)
		for (j = i + 1; j < n; j++)
			TEST_ASSERT(all[i] != all[j], "mbuf %p twice",
				    (void *)all[i]);
	rte_pktmbuf_free_bulk(all, n);
	ASSERT_FULL(d);
	return TEST_SUCCESS;
}

static int
test_cache_pop(void)
{
	struct mbufx_zone_params p;
	struct mbufx_zone_set *d;
	int ret;

	mbufx_zone_params_init(&p);
	p.flags |= MBUFX_ZONE_F_NO_JUMBO;
	p.count[MBUFX_ZONE_HDR] = TU_HDR_N;
	p.count[MBUFX_ZONE_PKT] = CP_COUNT;
	p.cache[MBUFX_ZONE_HDR] = MBUFX_ZONE_CACHE_NONE;
	p.cache[MBUFX_ZONE_PKT] = CP_CACHE;
	d = mbufx_zone_set_create("tcache", SOCKET_ID_ANY, &p);
	TEST_ASSERT_NOT_NULL(d, "create: %s", rte_strerror(rte_errno));
	ret = cache_pop_case(d);
	TEST_ASSERT_SUCCESS(mbufx_zone_set_free(d), "free (mbufs out)");
	return ret;
}

static int
test_telemetry(void)
{
	char reply[8192];
	struct rte_mbuf *m;
	int n;

	n = telemetry_query("/mbufx/zones", reply, sizeof(reply));
	if (n < 0) {
		printf("    telemetry socket not available: skipped\n");
		return TEST_SKIPPED;
	}
	printf("    %s\n", reply);
	TEST_ASSERT(strstr(reply, "{\"/mbufx/zones\":[") != NULL, "list");
	TEST_ASSERT(strstr(reply, "\"tz\"") != NULL, "our set listed");

	m = mbufx_alloc(zs, 5000);
	n = telemetry_query("/mbufx/zone,tz", reply, sizeof(reply));
	TEST_ASSERT(n > 0, "zone query");
	printf("    %s\n", reply);
	TEST_ASSERT(strstr(reply, "\"name\":\"tz\"") != NULL, "name");
	TEST_ASSERT(strstr(reply, "\"zones\":[\"hdr\",\"pkt\",\"jumbo\"]") !=
		    NULL, "zone names");
	TEST_ASSERT(strstr(reply, "\"in_use\":[0,0,1]") != NULL, "in use");
	TEST_ASSERT(strstr(reply, "\"size\":[63,127,15]") != NULL, "sizes");
	TEST_ASSERT(strstr(reply, "\"prepend_chained\":") != NULL, "counters");
	rte_pktmbuf_free(m);

	n = telemetry_query("/mbufx/zone,nonexistent", reply, sizeof(reply));
	TEST_ASSERT(n > 0 && strstr(reply, "null") != NULL,
		    "unknown set: %s", reply);
	n = telemetry_query("/mbufx/zone", reply, sizeof(reply));
	TEST_ASSERT(n > 0 && strstr(reply, "null") != NULL,
		    "no parameter: %s", reply);
	ASSERT_FULL(zs);
	return TEST_SUCCESS;
}

static const struct mbufx_test_suite zone_suite = {
	.name = "mbufx_zone",
	.setup = zs_setup,
	.teardown = zs_teardown,
	.cases = {
		MBUFX_TEST_CASE(test_params_defaults),
		MBUFX_TEST_CASE(test_create_errors),
		MBUFX_TEST_CASE(test_lookup_pool),
		MBUFX_TEST_CASE(test_lookup_during_create),
		MBUFX_TEST_CASE(test_audit_free),
		MBUFX_TEST_CASE(test_alloc_ladder),
		MBUFX_TEST_CASE(test_alloc_jumbo_dry),
		MBUFX_TEST_CASE(test_alloc_all_dry),
		MBUFX_TEST_CASE(test_alloc_pkt_dry),
		MBUFX_TEST_CASE(test_alloc_bulk),
		MBUFX_TEST_CASE(test_cache_pop),
		MBUFX_TEST_CASE(test_append_data),
		MBUFX_TEST_CASE(test_stats_dump),
		MBUFX_TEST_CASE(test_stats_rx),
		MBUFX_TEST_CASE(test_stats_table),
		MBUFX_TEST_CASE(test_telemetry),
		MBUFX_TEST_CASES_END(),
	},
};

static int
test_mbufx_zone(void)
{
	return mbufx_test_suite_run(&zone_suite);
}

MBUFX_TEST_REGISTER(mbufx_zone_autotest, test_mbufx_zone);
