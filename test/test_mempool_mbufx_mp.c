/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The mbufx authors
 */

/*
 * The mbufx mempool driver across processes: a pool in shared memory used by
 * the primary's lcores and by secondary processes.
 *
 *   mempool_mbufx_mp_autotest   (the primary; it starts this same runner as
 *                                secondaries, MBUFX_MP_ROLE telling each
 *                                what to do)
 *
 * - A pool created by a secondary, used by the primary's lcores: the
 *   primary's lcores enter their magazines without a fence, so before any
 *   steal relies on membarrier(2) the primary must be registered for it
 *   (membarrier refuses an unregistered process, and a thief that goes on
 *   anyway races with the owners).
 * - A secondary takes every free object in one dequeue while some sit in a
 *   primary lcore's magazines: all-or-nothing holds in a secondary too.
 * - Two primary lcores and two threads of a secondary get and put on one
 *   small pool at once, steals included; every object is seen exactly once
 *   (ownership flags in a shared memzone) and the count at the end is exact.
 * - The creating secondary frees the pool at the end, and finds it full.
 *
 * Secondaries attach to the primary's hugepage files: meson runs this test
 * without --huge-unlink; without hugepages it is skipped. The secondary that
 * creates the pool also frees it, at the end (the mempool library keeps that
 * process's function pointers in the pool's memory chunks).
 */

#include <errno.h>
#include <inttypes.h>
#include <libgen.h>
#include <linux/membarrier.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <rte_cycles.h>
#include <rte_eal.h>
#include <rte_errno.h>
#include <rte_launch.h>
#include <rte_lcore.h>
#include <rte_memzone.h>
#include <rte_mempool.h>
#include <rte_random.h>

#include "mbufx_test.h"
#include "test_mempool_mbufx_util.h"

#define MP_POOL "mpx_pool"
#define MP_STATE "mpx_state"
#define MP_CTL "mpx_ctl"
#define MP_OBJS 200
#define MP_BURST 40u

/* The primary tells the creating secondary when to free the pool. */
struct mp_ctl {
	uint32_t ready;		/* pool created */
	uint32_t release;	/* free it and exit */
};

/* Shared by the processes of the race, in a memzone. */
struct mp_state {
	uint8_t owned[MP_OBJS];
	uint32_t stop;
	uint32_t errors;
	uint64_t ops[4];	/* primary lcore 0, 1; secondary threads 0, 1 */
	uint64_t big[4];
};


/* Run a secondary in the given role to its end: its exit code. */
static int
run_secondary(const char *role)
{
	return mu_run_secondary("mempool_mbufx_mp_autotest", role, NULL);
}

/* --- the race: primary lcores and secondary threads on one pool --------- */

struct racer {
	struct rte_mempool *mp;
	struct mp_state *st;
	unsigned int who;
	uint64_t deadline;	/* non-zero: stops the race then */
};

static int
claim(struct mp_state *st, void **objs, unsigned int n, uint8_t from,
      uint8_t to)
{
	if (mu_owned_move(st->owned, MP_OBJS, objs, n, from, to) == n)
		return 0;
	__atomic_fetch_add(&st->errors, 1, __ATOMIC_RELAXED);
	return -1;
}

static void
race_loop(struct racer *r)
{
	struct mp_state *st = r->st;
	void *held[MP_OBJS];
	unsigned int n, k = 0;
	int big;

	while (!__atomic_load_n(&st->stop, __ATOMIC_ACQUIRE) &&
	       __atomic_load_n(&st->errors, __ATOMIC_RELAXED) == 0) {
		if (r->deadline != 0 && rte_get_timer_cycles() > r->deadline)
			break;
		big = rte_rand_max(8) == 0;
		n = 1 + rte_rand_max(big ? MP_OBJS : MP_BURST);
		if (k + n <= MP_OBJS &&
		    rte_mempool_generic_get(r->mp, &held[k], n, NULL) == 0) {
			if (claim(st, &held[k], n, 0, 1) != 0)
				break;
			k += n;
			st->ops[r->who]++;
			st->big[r->who] += big;
		}
		n = rte_rand_max(k + 1);
		if (n > 0) {
			if (claim(st, &held[k - n], n, 1, 0) != 0)
				break;
			rte_mempool_generic_put(r->mp, &held[k - n], n, NULL);
			k -= n;
		}
	}
	if (r->deadline != 0)
		__atomic_store_n(&st->stop, 1, __ATOMIC_RELEASE);
	if (k > 0 && claim(st, held, k, 1, 0) == 0)
		rte_mempool_generic_put(r->mp, held, k, NULL);
}

static int
race_lcore(void *arg)
{
	race_loop(arg);
	return 0;
}

static void *
race_thread(void *arg)
{
	race_loop(arg);
	return NULL;
}

/* --- secondary roles ----------------------------------------------------- */

/* Create the pool, wait for the primary's word, free the pool. */
static int
secondary_create(void)
{
	const struct rte_memzone *mz = rte_memzone_lookup(MP_CTL);
	struct rte_mempool *mp;
	struct mp_ctl *ctl;
	unsigned int ms;
	int ret;

	if (mz == NULL)
		return TEST_FAILED;
	ctl = mz->addr;
	mp = mu_pool_create(MP_POOL, MP_OBJS, 64, 0, 0);
	if (mp == NULL)
		return TEST_FAILED;
	rte_mempool_obj_iter(mp, mu_obj_set_index, NULL);
	__atomic_store_n(&ctl->ready, 1, __ATOMIC_RELEASE);
	for (ms = 0; ms < 300000 &&
	     !__atomic_load_n(&ctl->release, __ATOMIC_ACQUIRE); ms++)
		usleep(1000);
	/* everything came back, exactly */
	ret = mu_driver_count(mp) == MP_OBJS ? TEST_SUCCESS : TEST_FAILED;
	rte_mempool_free(mp);
	return ret;
}

static int
secondary_race(struct rte_mempool *mp)
{
	const struct rte_memzone *mz = rte_memzone_lookup(MP_STATE);
	struct racer r[2];
	pthread_t tid;

	if (mz == NULL)
		return TEST_FAILED;
	r[0] = (struct racer){ mp, mz->addr, 2, 0 };
	r[1] = (struct racer){ mp, mz->addr, 3, 0 };
	if (pthread_create(&tid, NULL, race_thread, &r[1]) != 0)
		return TEST_FAILED;
	race_loop(&r[0]);
	pthread_join(tid, NULL);
	return ((struct mp_state *)mz->addr)->errors == 0 ?
		TEST_SUCCESS : TEST_FAILED;
}

static int
secondary_main(void)
{
	const char *role = getenv("MBUFX_MP_ROLE");
	struct rte_mempool *mp;

	TEST_ASSERT_NOT_NULL(role, "secondary without MBUFX_MP_ROLE");
	if (strcmp(role, "create") == 0)
		return secondary_create();
	mp = rte_mempool_lookup(MP_POOL);
	TEST_ASSERT_NOT_NULL(mp, "secondary: no pool %s", MP_POOL);
	if (strcmp(role, "drain") == 0)
		return mu_check_drain(mp, "secondary");
	if (strcmp(role, "race") == 0)
		return secondary_race(mp);
	TEST_FAIL_MSG("secondary: unknown role %s", role);
	return TEST_FAILED;
}

/* --- the primary's cases -------------------------------------------------- */

static struct rte_mempool *pool;
static unsigned int worker;
static const struct rte_memzone *ctl_mz;
static pid_t creator = -1;

/*
 * A pool that a secondary made, used by the primary's lcores: after a steal
 * from the primary, the primary is registered for membarrier (an
 * unregistered process gets EPERM, and a thief that does not notice races
 * with the owners it meant to fence).
 */
static int
test_secondary_pool_primary_steal(void)
{
	struct mp_ctl *ctl = ctl_mz->addr;
	unsigned int ms, starts = 0;
	int status;
	long before;

	before = syscall(__NR_membarrier, MEMBARRIER_CMD_PRIVATE_EXPEDITED, 0, 0);
	creator = -1;
	for (ms = 0; ms < 60000 && !__atomic_load_n(&ctl->ready,
						     __ATOMIC_ACQUIRE); ms++) {
		if (creator < 0) {	/* (re)start it: see mu_run_secondary() */
			creator = mu_start_secondary("mempool_mbufx_mp_autotest",
						     "create", NULL);
			TEST_ASSERT(creator > 0 && ++starts <= 5,
				    "start the creating secondary (%u)", starts);
		} else if (waitpid(creator, &status, WNOHANG) == creator) {
			TEST_ASSERT(WIFEXITED(status) && WEXITSTATUS(status) ==
				    MBUFX_TEST_EXIT_EAL_INIT,
				    "creating secondary died before its pool");
			printf("    secondary could not map the primary's memory: new exec\n");
			creator = -1;
		}
		usleep(1000);
	}
	TEST_ASSERT(ctl->ready, "secondary: create pool");
	pool = rte_mempool_lookup(MP_POOL);
	TEST_ASSERT_NOT_NULL(pool, "pool made by the secondary");
	TEST_ASSERT_EQUAL(mu_driver_count(pool), MP_OBJS, "count");
	rte_eal_remote_launch(mu_strand, pool, worker);
	TEST_ASSERT_SUCCESS(rte_eal_wait_lcore(worker), "worker");
	TEST_RUN(mu_check_drain(pool, "primary main lcore"));
	TEST_ASSERT_EQUAL(syscall(__NR_membarrier,
				  MEMBARRIER_CMD_PRIVATE_EXPEDITED, 0, 0), 0,
			  "primary not registered for membarrier (before the "
			  "steal: %ld)", before);
	return TEST_SUCCESS;
}

/* All-or-nothing in a secondary: objects in the primary's magazines count. */
static int
test_secondary_takes_all(void)
{
	TEST_ASSERT_NOT_NULL(pool, "no pool");
	rte_eal_remote_launch(mu_strand, pool, worker);
	TEST_ASSERT_SUCCESS(rte_eal_wait_lcore(worker), "worker");
	TEST_ASSERT_EQUAL(run_secondary("drain"), 0,
			  "secondary could not take all %u free objects",
			  pool->size);
	TEST_ASSERT_EQUAL(mu_driver_count(pool), MP_OBJS, "count");
	TEST_RUN(mu_check_drain(pool, "primary"));
	return TEST_SUCCESS;
}

static void *
secondary_racer(void *arg)
{
	*(int *)arg = run_secondary("race");
	return NULL;
}

/* Primary lcores and secondary threads at once. */
static int
test_processes_race(void)
{
	const struct rte_memzone *mz;
	struct mp_state *st;
	struct racer r[2];
	pthread_t tid;
	int sec_ret = -1;

	TEST_ASSERT_NOT_NULL(pool, "no pool");
	mz = rte_memzone_reserve(MP_STATE, sizeof(*st), SOCKET_ID_ANY, 0);
	TEST_ASSERT_NOT_NULL(mz, "memzone");
	st = mz->addr;
	memset(st, 0, sizeof(*st));
	r[0] = (struct racer){ pool, st, 0, 0 };
	r[1] = (struct racer){ pool, st, 1, 0 };
	/* the secondary's threads start while the lcores run */
	TEST_ASSERT_SUCCESS(pthread_create(&tid, NULL, secondary_racer,
					   &sec_ret), "pthread_create");
	rte_eal_remote_launch(race_lcore, &r[1], worker);
	/* the main lcore races too, and ends the race */
	r[0].deadline = rte_get_timer_cycles() + rte_get_timer_hz() * 3 / 2;
	race_loop(&r[0]);
	rte_eal_wait_lcore(worker);
	pthread_join(tid, NULL);
	printf("ops: primary lcores %" PRIu64 ", %" PRIu64 ", secondary "
	       "threads %" PRIu64 ", %" PRIu64 " (whole-pool sized: %" PRIu64
	       "), errors %u\n", st->ops[0], st->ops[1], st->ops[2],
	       st->ops[3], st->big[0] + st->big[1] + st->big[2] + st->big[3],
	       st->errors);
	TEST_ASSERT_EQUAL(st->errors, 0, "an object seen twice or lost");
	TEST_ASSERT_EQUAL(sec_ret, 0, "secondary racer");
	TEST_ASSERT(st->ops[2] > 0 && st->ops[0] > 0, "both processes ran");
	TEST_ASSERT_EQUAL(mu_driver_count(pool), MP_OBJS, "count at the end");
	TEST_RUN(mu_check_drain(pool, "primary after the race"));
	rte_memzone_free(mz);
	return TEST_SUCCESS;
}

static int
mp_setup(void)
{
	if (mbufx_test_no_huge()) {
		printf("no hugepages: secondaries cannot attach\n");
		return TEST_SKIPPED;
	}
	worker = rte_get_next_lcore(-1, 1, 0);
	if (worker >= RTE_MAX_LCORE) {
		printf("needs 2 lcores\n");
		return TEST_SKIPPED;
	}
	ctl_mz = rte_memzone_reserve(MP_CTL, sizeof(struct mp_ctl),
				     SOCKET_ID_ANY, 0);
	if (ctl_mz == NULL)
		return TEST_FAILED;
	memset(ctl_mz->addr, 0, sizeof(struct mp_ctl));
	return TEST_SUCCESS;
}

/* The creating secondary frees the pool: it finds every object back. */
static int
release_creator(void)
{
	struct mp_ctl *ctl = ctl_mz->addr;
	int ret;

	__atomic_store_n(&ctl->release, 1, __ATOMIC_RELEASE);
	ret = mu_wait_secondary(creator);
	creator = -1;
	pool = NULL;
	return ret;
}

static int
test_creator_frees_full_pool(void)
{
	TEST_ASSERT(creator > 0, "no creating secondary");
	TEST_ASSERT_EQUAL(release_creator(), 0, "creating secondary: pool "
			  "not full at the end, or not freed");
	return TEST_SUCCESS;
}

static void
mp_teardown(void)
{
	if (creator > 0)
		release_creator();
	rte_memzone_free(ctl_mz);
}

static const struct mbufx_test_suite mp_suite = {
	.name = "mempool_mbufx_mp",
	.setup = mp_setup,
	.teardown = mp_teardown,
	.cases = {
		MBUFX_TEST_CASE(test_secondary_pool_primary_steal),
		MBUFX_TEST_CASE(test_secondary_takes_all),
		MBUFX_TEST_CASE(test_processes_race),
		MBUFX_TEST_CASE(test_creator_frees_full_pool),
		MBUFX_TEST_CASES_END(),
	},
};

static int
test_mempool_mbufx_mp(void)
{
	if (rte_eal_process_type() == RTE_PROC_SECONDARY)
		return secondary_main();
	return mbufx_test_suite_run(&mp_suite);
}

MBUFX_TEST_REGISTER(mempool_mbufx_mp_autotest, test_mempool_mbufx_mp);
