/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The mbufx authors
 */

/*
 * mempool_mbufx_stress_autotest: two lcores and a non-EAL thread get, hand
 * over through rings and put random bursts. Every object carries its index;
 * an ownership flag per object is claimed on get and released before put, so
 * an object handed out twice, or one that vanished, is caught. One case with
 * per-lcore cache 0 (every call reaches the driver), one with cache 256.
 */

#include <inttypes.h>
#include <pthread.h>

#include <rte_cycles.h>
#include <rte_launch.h>
#include <rte_lcore.h>
#include <rte_malloc.h>
#include <rte_mempool.h>
#include <rte_random.h>
#include <rte_ring.h>

#include "mbufx_test.h"
#include "test_mempool_mbufx_util.h"

#define STRESS_OBJS 2048
#define STRESS_BURST 48

struct stress {
	struct rte_mempool *mp;
	struct rte_ring *ring[2];	/* handover: to lcore A, to lcore B */
	uint8_t owned[STRESS_OBJS];
	uint64_t deadline;
	uint32_t dup;
	uint64_t ops[3];
};

static int
stress_claim(struct stress *st, void **objs, unsigned int n)
{
	if (mu_owned_move(st->owned, STRESS_OBJS, objs, n, 0, 1) == n)
		return 0;
	__atomic_fetch_add(&st->dup, 1, __ATOMIC_RELAXED);
	return -1;
}

static void
stress_release(struct stress *st, void **objs, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		__atomic_store_n(&st->owned[mu_obj_index(objs[i])], 0,
				 __ATOMIC_RELEASE);
}

/* who: 0 lcore A, 1 lcore B, 2 non-EAL thread */
static void
stress_loop(struct stress *st, unsigned int who)
{
	void *objs[STRESS_BURST];
	unsigned int n, got;

	while (rte_get_timer_cycles() < st->deadline &&
	       __atomic_load_n(&st->dup, __ATOMIC_RELAXED) == 0) {
		n = 1 + rte_rand_max(STRESS_BURST);
		if (rte_mempool_get_bulk(st->mp, objs, n) == 0) {
			if (stress_claim(st, objs, n) != 0)
				return;
			if (who < 2 && (rte_rand() & 1)) {
				/* hand them to the other lcore to free */
				stress_release(st, objs, n);
				got = rte_ring_enqueue_burst(st->ring[!who],
							     objs, n, NULL);
				if (got < n)
					rte_mempool_put_bulk(st->mp, &objs[got],
							     n - got);
			} else {
				stress_release(st, objs, n);
				rte_mempool_put_bulk(st->mp, objs, n);
			}
			st->ops[who]++;
		}
		if (who < 2) {
			got = rte_ring_dequeue_burst(st->ring[who], objs,
						     STRESS_BURST, NULL);
			if (got > 0)
				rte_mempool_put_bulk(st->mp, objs, got);
		}
	}
}

static int
stress_lcore(void *arg)
{
	stress_loop(arg, 1);
	return 0;
}

static void *
stress_thread(void *arg)
{
	stress_loop(arg, 2);
	return NULL;
}

/* The pool, its objects numbered, and the two handover rings. */
static struct stress *
stress_setup(unsigned int cache)
{
	struct stress *st;
	char name[32];
	unsigned int i;

	st = rte_zmalloc("stress", sizeof(*st), 0);
	if (st == NULL)
		return NULL;
	snprintf(name, sizeof(name), "stress_%u", cache);
	st->mp = mu_pool_create(name, STRESS_OBJS, 64, cache, 0);
	if (st->mp == NULL)
		goto fail;
	rte_mempool_obj_iter(st->mp, mu_obj_set_index, NULL);
	for (i = 0; i < 2; i++) {
		snprintf(name, sizeof(name), "stress_r%u_%u", cache, i);
		st->ring[i] = rte_ring_create(name, 4096, SOCKET_ID_ANY, 0);
		if (st->ring[i] == NULL)
			goto fail;
	}
	return st;
fail:
	rte_ring_free(st->ring[0]);
	rte_mempool_free(st->mp);
	rte_free(st);
	return NULL;
}

static void
stress_teardown(struct stress *st)
{
	rte_ring_free(st->ring[0]);
	rte_ring_free(st->ring[1]);
	rte_mempool_free(st->mp);
	rte_free(st);
}

static int
stress_run(unsigned int cache)
{
	struct stress *st;
	pthread_t tid;
	unsigned int worker, i, got;
	void *objs[STRESS_BURST];
	int ret = TEST_SUCCESS;

	worker = rte_get_next_lcore(-1, 1, 0);
	if (worker >= RTE_MAX_LCORE) {
		printf("needs 2 lcores\n");
		return TEST_SKIPPED;
	}
	st = stress_setup(cache);
	TEST_ASSERT_NOT_NULL(st, "pool and rings, cache %u", cache);
	st->deadline = rte_get_timer_cycles() + rte_get_timer_hz() * 3 / 2;

	rte_eal_remote_launch(stress_lcore, st, worker);
	TEST_ASSERT_SUCCESS(pthread_create(&tid, NULL, stress_thread, st),
			    "pthread_create");
	stress_loop(st, 0);
	rte_eal_wait_lcore(worker);
	pthread_join(tid, NULL);

	for (i = 0; i < 2; i++)
		while ((got = rte_ring_dequeue_burst(st->ring[i], objs,
						     STRESS_BURST, NULL)) > 0)
			rte_mempool_put_bulk(st->mp, objs, got);
	printf("cache %u: ops lcore A %" PRIu64 ", lcore B %" PRIu64
	       ", non-EAL %" PRIu64 ", duplicates %u\n", cache, st->ops[0],
	       st->ops[1], st->ops[2], st->dup);
	TEST_EXPECT_EQUAL(ret, st->dup, 0, "objects handed out twice");
	TEST_EXPECT(ret, st->ops[0] != 0 && st->ops[1] != 0 && st->ops[2] != 0,
		    "a racer never got objects");
	/* caches of other lcores hold objects: flush them to count exactly */
	if (ret == TEST_SUCCESS && cache == 0 &&
	    (mu_check_full(st->mp) != TEST_SUCCESS ||
	     mu_check_drain(st->mp, "main lcore") != TEST_SUCCESS))
		ret = TEST_FAILED;
	if (ret == TEST_SUCCESS && cache != 0)
		TEST_EXPECT_EQUAL(ret, rte_mempool_avail_count(st->mp),
				  STRESS_OBJS, "lost objects");
	stress_teardown(st);
	return ret;
}

static int
test_stress_cache0(void)
{
	return stress_run(0);
}

static int
test_stress_cache256(void)
{
	return stress_run(256);
}

static const struct mbufx_test_suite stress_suite = {
	.name = "mempool_mbufx_stress",
	.cases = {
		MBUFX_TEST_CASE(test_stress_cache0),
		MBUFX_TEST_CASE(test_stress_cache256),
		MBUFX_TEST_CASES_END(),
	},
};

static int
test_mempool_mbufx_stress(void)
{
	return mbufx_test_suite_run(&stress_suite);
}

MBUFX_TEST_REGISTER(mempool_mbufx_stress_autotest, test_mempool_mbufx_stress);
