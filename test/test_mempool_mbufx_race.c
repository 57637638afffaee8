/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The mbufx authors
 */

/*
 * Races of the mbufx mempool driver on small pools, where the steal path (an
 * all-or-nothing dequeue that gathers objects stranded in other lcores'
 * magazines) runs all the time.
 *
 *   mempool_mbufx_race_autotest
 *
 * Six threads on the machine's cores: the two EAL lcores, two threads that
 * register with rte_thread_register() (and unregister and register again
 * while they run, so lcore ids change hands), and two plain pthreads (the
 * shared slot). Every other round, four idle registered threads take the
 * pool's spare per-lcore slots first, so the working registered threads fall
 * back to the shared slot. Each pool size from 1 to 300 gets a round.
 *
 * Every object carries its index and an ownership flag that is claimed when
 * the pool hands the object out and released when it goes back: an object
 * handed out twice, or one that never comes back, is caught. Objects also
 * travel between threads through a ring, so they are freed on other slots.
 * Several times per round every thread parks at a barrier, holding what it
 * holds; one of them (each kind in turn) then checks the pool at rest:
 * get_count equals the objects not held, a dequeue of one more than that is
 * refused, a dequeue of exactly that succeeds with distinct objects.
 *
 * MBUFX_RACE_MS sets the milliseconds per pool size (default 150): run it
 * for a minute locally, a few seconds in the fast suite.
 */

#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <inttypes.h>
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <rte_cycles.h>
#include <rte_eal.h>
#include <rte_errno.h>
#include <rte_launch.h>
#include <rte_lcore.h>
#include <rte_malloc.h>
#include <rte_mempool.h>
#include <rte_random.h>
#include <rte_ring.h>

#include "mbufx_test.h"
#include "test_mempool_mbufx_util.h"

#define RACE_MAX_OBJS 300
#define RACE_BURST 48u
#define RACE_SQUATTERS 4

enum race_kind { KIND_EAL, KIND_REGISTERED, KIND_PLAIN };

static const char * const kind_name[] = { "EAL lcore", "registered",
					  "plain pthread" };

struct race;

struct racer {
	struct race *r;
	enum race_kind kind;
	unsigned int id;
	unsigned int held;
	void *stash[RACE_MAX_OBJS];
	uint64_t deadline;	/* non-zero: the leader */
	uint64_t gets, puts, big_gets, refused, checks, reregs;
};

struct race {
	struct rte_mempool *mp;
	struct rte_ring *xfer;
	unsigned int size;
	unsigned int nb_racers;
	struct racer racer[6];
	uint8_t owned[RACE_MAX_OBJS];
	uint32_t bar_count;	/* race_barrier() */
	uint32_t bar_gen;
	uint32_t phase_req;	/* checks asked for by the main lcore */
	uint32_t stop;
	uint32_t errors;
	char msg[256];
};

static void
race_fail(struct race *r, const char *fmt, unsigned int a, unsigned int b)
{
	if (__atomic_fetch_add(&r->errors, 1, __ATOMIC_RELAXED) == 0)
		snprintf(r->msg, sizeof(r->msg), fmt, a, b);
}

/* The pool handed these out: each must have been inside the pool. */
static int
claim(struct race *r, void **objs, unsigned int n)
{
	unsigned int i = mu_owned_move(r->owned, r->size, objs, n, 0, 1);
	uint32_t idx;

	if (i == n)
		return 0;
	idx = mu_obj_index(objs[i]);
	if (idx >= r->size)
		race_fail(r, "object with bad index %u (size %u)", idx,
			  r->size);
	else
		race_fail(r, "object %u handed out twice (size %u)", idx,
			  r->size);
	return -1;
}

static int
release(struct race *r, void **objs, unsigned int n)
{
	unsigned int i = mu_owned_move(r->owned, r->size, objs, n, 1, 0);

	if (i == n)
		return 0;
	race_fail(r, "object %u freed while free (size %u)",
		  mu_obj_index(objs[i]), r->size);
	return -1;
}

static void
racer_get(struct racer *t, unsigned int n, int big)
{
	struct race *r = t->r;

	if (n == 0 || t->held + n > RACE_MAX_OBJS)
		return;
	if (rte_mempool_generic_get(r->mp, &t->stash[t->held], n, NULL) != 0) {
		t->refused++;
		return;
	}
	if (claim(r, &t->stash[t->held], n) != 0)
		return;
	t->held += n;
	t->gets++;
	t->big_gets += big;
}

/* Put back n objects picked at random from the stash. */
static void
racer_put(struct racer *t, unsigned int n)
{
	struct race *r = t->r;
	void *tmp;
	unsigned int i, j;

	n = RTE_MIN(n, t->held);
	for (i = 0; i < n; i++) {
		j = rte_rand_max(t->held - i);
		tmp = t->stash[t->held - 1 - i];
		t->stash[t->held - 1 - i] = t->stash[j];
		t->stash[j] = tmp;
	}
	if (n == 0 || release(r, &t->stash[t->held - n], n) != 0)
		return;
	rte_mempool_generic_put(r->mp, &t->stash[t->held - n], n, NULL);
	t->held -= n;
	t->puts++;
}

static void
racer_handover(struct racer *t, unsigned int n)
{
	n = RTE_MIN(n, t->held);
	n = rte_ring_enqueue_burst(t->r->xfer, &t->stash[t->held - n], n, NULL);
	t->held -= n;
}

static void
racer_receive(struct racer *t, unsigned int n)
{
	n = RTE_MIN(n, RACE_MAX_OBJS - t->held);
	t->held += rte_ring_dequeue_burst(t->r->xfer, &t->stash[t->held], n,
					  NULL);
}

/* Everyone is parked: the pool is at rest. */
static void
race_check_at_rest(struct racer *t)
{
	struct race *r = t->r;
	void *objs[RACE_MAX_OBJS + 1];
	unsigned int i, held = rte_ring_count(r->xfer), free_objs, count;

	for (i = 0; i < r->nb_racers; i++)
		held += r->racer[i].held;
	if (held > r->size) {
		race_fail(r, "%u objects held, pool of %u", held, r->size);
		return;
	}
	free_objs = r->size - held;
	count = mu_driver_count(r->mp);
	if (count != free_objs) {
		race_fail(r, "count %u at rest, %u free", count, free_objs);
		return;
	}
	if (held > 0 &&
	    rte_mempool_ops_dequeue_bulk(r->mp, objs, free_objs + 1) == 0) {
		race_fail(r, "dequeue of %u with %u free succeeded",
			  free_objs + 1, free_objs);
		return;
	}
	if (free_objs == 0)
		return;
	if (rte_mempool_ops_dequeue_bulk(r->mp, objs, free_objs) != 0) {
		if (__atomic_fetch_add(&r->errors, 1, __ATOMIC_RELAXED) == 0)
			snprintf(r->msg, sizeof(r->msg), "%s: dequeue of all "
				 "%u free objects refused", kind_name[t->kind],
				 free_objs);
		return;
	}
	if (claim(r, objs, free_objs) != 0)
		return;
	count = mu_driver_count(r->mp);
	if (count != 0)
		race_fail(r, "count %u after taking all %u", count, free_objs);
	if (release(r, objs, free_objs) != 0)
		return;
	rte_mempool_ops_enqueue_bulk(r->mp, objs, free_objs);
	t->checks++;
}

/*
 * Every racer parks here; returns non-zero when the round is over. (A
 * pthread barrier would keep the others waiting for one that stopped.)
 */
static int
race_barrier(struct race *r)
{
	uint32_t gen = __atomic_load_n(&r->bar_gen, __ATOMIC_ACQUIRE);

	if (__atomic_add_fetch(&r->bar_count, 1, __ATOMIC_ACQ_REL) ==
	    r->nb_racers) {
		__atomic_store_n(&r->bar_count, 0, __ATOMIC_RELAXED);
		__atomic_store_n(&r->bar_gen, gen + 1, __ATOMIC_RELEASE);
		return 0;
	}
	while (__atomic_load_n(&r->bar_gen, __ATOMIC_ACQUIRE) == gen) {
		if (__atomic_load_n(&r->stop, __ATOMIC_ACQUIRE))
			return -1;
		sched_yield();
	}
	return 0;
}

static void
race_loop(struct racer *t)
{
	struct race *r = t->r;
	uint32_t phase = 0, req;
	unsigned int op, iter = 0;
	uint64_t now, next_check = 0;

	while (!__atomic_load_n(&r->stop, __ATOMIC_ACQUIRE) &&
	       __atomic_load_n(&r->errors, __ATOMIC_RELAXED) == 0) {
		if (t->deadline != 0) {
			/* the leader: asks for checks, ends the round */
			now = rte_get_timer_cycles();
			if (now >= t->deadline) {
				__atomic_store_n(&r->stop, 1, __ATOMIC_RELEASE);
				break;
			}
			if (now >= next_check) {
				next_check = now + rte_get_timer_hz() / 40;
				__atomic_fetch_add(&r->phase_req, 1,
						   __ATOMIC_RELEASE);
			}
		}
		req = __atomic_load_n(&r->phase_req, __ATOMIC_ACQUIRE);
		if (req != phase) {
			phase = req;
			if (race_barrier(r) != 0)
				break;
			if (phase % r->nb_racers == t->id)
				race_check_at_rest(t);
			if (race_barrier(r) != 0)
				break;
			continue;
		}
		op = rte_rand_max(100);
		if (op < 35)
			racer_get(t, 1 + rte_rand_max(RTE_MIN(r->size,
							      RACE_BURST)), 0);
		else if (op < 65)
			racer_put(t, 1 + rte_rand_max(RACE_BURST));
		else if (op < 77)
			racer_handover(t, 1 + rte_rand_max(RACE_BURST));
		else if (op < 89)
			racer_receive(t, 1 + rte_rand_max(RACE_BURST));
		else if (op < 96)
			/* often more than any one place holds: a steal */
			racer_get(t, 1 + rte_rand_max(r->size), 1);
		else
			racer_put(t, t->held);
		if (t->held > r->size / 2 + 1)
			racer_put(t, t->held / 2);
		if (t->kind == KIND_REGISTERED && ++iter % 512 == 0) {
			/* give the lcore id away; maybe get another one */
			rte_thread_unregister();
			if (rte_thread_register() != 0)
				race_fail(r, "rte_thread_register: %u (%u)",
					  rte_errno, 0);
			t->reregs++;
		}
	}
	if (t->deadline != 0)
		__atomic_store_n(&r->stop, 1, __ATOMIC_RELEASE);
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
	struct racer *t = arg;

	if (t->kind == KIND_REGISTERED && rte_thread_register() != 0) {
		race_fail(t->r, "rte_thread_register failed (%u, %u)",
			  rte_errno, 0);
		t->kind = KIND_PLAIN;
	}
	race_loop(t);
	if (t->kind == KIND_REGISTERED)
		rte_thread_unregister();
	return NULL;
}

/* An idle registered thread that takes one per-lcore slot of the pool. */
struct squatter {
	struct rte_mempool *mp;
	pthread_barrier_t *done;
	int ok;
};

static void *
squatter_thread(void *arg)
{
	struct squatter *s = arg;
	void *obj;

	if (rte_thread_register() == 0) {
		if (rte_mempool_generic_get(s->mp, &obj, 1, NULL) == 0) {
			rte_mempool_generic_put(s->mp, &obj, 1, NULL);
			s->ok = 1;
		}
	}
	pthread_barrier_wait(s->done);	/* slot taken */
	pthread_barrier_wait(s->done);	/* round over */
	rte_thread_unregister();
	return NULL;
}

static void
spread_affinity(pthread_attr_t *attr)
{
	long i, n = sysconf(_SC_NPROCESSORS_ONLN);
	cpu_set_t all;

	/* the main lcore is pinned: let the other threads use every core */
	CPU_ZERO(&all);
	for (i = 0; i < n && i < CPU_SETSIZE; i++)
		CPU_SET(i, &all);
	pthread_attr_setaffinity_np(attr, sizeof(all), &all);
}

/* The shared state of one round: a pool of size numbered objects, a ring. */
static struct race *
race_create(unsigned int size, int squat)
{
	char name[RTE_MEMPOOL_NAMESIZE];
	struct race *r;
	unsigned int i;

	r = rte_zmalloc("race", sizeof(*r), RTE_CACHE_LINE_SIZE);
	if (r == NULL) {
		TEST_FAIL_MSG("zmalloc of %zu bytes", sizeof(*r));
		return NULL;
	}
	r->size = size;
	r->nb_racers = 6;
	for (i = 0; i < r->nb_racers; i++) {
		r->racer[i].r = r;
		r->racer[i].id = i;
		r->racer[i].kind = i < 2 ? KIND_EAL :
			i < 4 ? KIND_REGISTERED : KIND_PLAIN;
	}
	snprintf(name, sizeof(name), "race_%u_%d", size, squat);
	r->mp = mu_pool_create(name, size, 64, 0, 0);
	if (r->mp == NULL) {
		TEST_FAIL_MSG("create %s: %s", name, rte_strerror(rte_errno));
		rte_free(r);
		return NULL;
	}
	rte_mempool_obj_iter(r->mp, mu_obj_set_index, NULL);
	snprintf(name, sizeof(name), "race_x_%u_%d", size, squat);
	r->xfer = rte_ring_create(name, 512, SOCKET_ID_ANY, 0);
	if (r->xfer == NULL) {
		TEST_FAIL_MSG("ring %s: %s", name, rte_strerror(rte_errno));
		rte_mempool_free(r->mp);
		rte_free(r);
		return NULL;
	}
	return r;
}

static void
race_destroy(struct race *r)
{
	rte_ring_free(r->xfer);
	rte_mempool_free(r->mp);
	rte_free(r);
}

/*
 * Racer 1 on the worker lcore (a plain pthread without one), racers 2..5 as
 * pthreads: the number of pthreads started, their ids in tid.
 */
static unsigned int
race_start(struct race *r, unsigned int worker, pthread_attr_t *attr,
	   pthread_t *tid)
{
	unsigned int i, nthreads = 0;

	if (worker >= RTE_MAX_LCORE)
		r->racer[1].kind = KIND_PLAIN;
	else
		rte_eal_remote_launch(race_lcore, &r->racer[1], worker);
	for (i = worker >= RTE_MAX_LCORE ? 1 : 2; i < r->nb_racers; i++)
		if (pthread_create(&tid[nthreads++], attr, race_thread,
				   &r->racer[i]) != 0)
			race_fail(r, "pthread_create %u (%u)", i, 0);
	return nthreads;
}

/*
 * After the round: every object back from the racers' stashes and the ring,
 * their counts added to tot, and the pool full, exactly.
 */
static void
race_collect(struct race *r, uint64_t *tot)
{
	void *objs[RACE_BURST];
	unsigned int i, got;

	for (i = 0; i < r->nb_racers; i++) {
		struct racer *t = &r->racer[i];

		if (t->held > 0 && release(r, t->stash, t->held) == 0)
			rte_mempool_generic_put(r->mp, t->stash, t->held, NULL);
		t->held = 0;
		tot[0] += t->gets;
		tot[1] += t->big_gets;
		tot[2] += t->refused;
		tot[3] += t->checks;
		tot[4] += t->reregs;
	}
	while ((got = rte_ring_dequeue_burst(r->xfer, objs, RACE_BURST,
					     NULL)) > 0)
		if (release(r, objs, got) == 0)
			rte_mempool_generic_put(r->mp, objs, got, NULL);
	if (r->errors == 0) {
		r->racer[0].held = 0;
		race_check_at_rest(&r->racer[0]);
	}
	if (r->errors == 0 && mu_driver_count(r->mp) != r->size)
		race_fail(r, "pool of %u not full at the end (%u)", r->size,
			  mu_driver_count(r->mp));
}

/* Squatters: idle registered threads holding per-lcore slots of the pool. */
struct squatters {
	pthread_barrier_t bar;
	pthread_t tid[RACE_SQUATTERS];
	struct squatter sq[RACE_SQUATTERS];
};

static void
squatters_start(struct squatters *s, struct rte_mempool *mp,
		pthread_attr_t *attr)
{
	unsigned int i;

	pthread_barrier_init(&s->bar, NULL, RACE_SQUATTERS + 1);
	for (i = 0; i < RACE_SQUATTERS; i++) {
		s->sq[i] = (struct squatter){ mp, &s->bar, 0 };
		pthread_create(&s->tid[i], attr, squatter_thread, &s->sq[i]);
	}
	pthread_barrier_wait(&s->bar);
}

/* TEST_SUCCESS when every squatter took its slot. */
static int
squatters_stop(struct squatters *s)
{
	unsigned int i;
	int ret = TEST_SUCCESS;

	pthread_barrier_wait(&s->bar);
	for (i = 0; i < RACE_SQUATTERS; i++) {
		pthread_join(s->tid[i], NULL);
		TEST_EXPECT(ret, s->sq[i].ok, "squatter %u took no slot", i);
	}
	pthread_barrier_destroy(&s->bar);
	return ret;
}

static int
race_round(unsigned int size, unsigned int ms, int squat, uint64_t *tot)
{
	struct squatters sq;
	pthread_t tid[6];
	pthread_attr_t attr;
	struct race *r;
	unsigned int worker, i, nthreads;
	int ret = TEST_SUCCESS;

	worker = rte_get_next_lcore(-1, 1, 0);
	r = race_create(size, squat);
	if (r == NULL)
		return TEST_FAILED;
	pthread_attr_init(&attr);
	spread_affinity(&attr);
	if (squat)
		squatters_start(&sq, r->mp, &attr);
	nthreads = race_start(r, worker, &attr, tid);

	/* the main lcore races too, and leads: checks at rest, the end */
	r->racer[0].deadline = rte_get_timer_cycles() +
		rte_get_timer_hz() * ms / 1000;
	race_loop(&r->racer[0]);
	__atomic_store_n(&r->stop, 1, __ATOMIC_RELEASE);
	if (worker < RTE_MAX_LCORE)
		rte_eal_wait_lcore(worker);
	for (i = 0; i < nthreads; i++)
		pthread_join(tid[i], NULL);

	race_collect(r, tot);
	TEST_EXPECT_EQUAL(ret, r->errors, 0, "pool of %u%s: %s", size,
			  squat ? " (squatters)" : "", r->msg);
	if (squat && squatters_stop(&sq) != TEST_SUCCESS)
		ret = TEST_FAILED;
	pthread_attr_destroy(&attr);
	race_destroy(r);
	return ret;
}

static int
test_race(void)
{
	static const unsigned int sizes[] = {
		1, 2, 3, 15, 16, 17, 31, 32, 33, 64, 100, 129, 255, 256, 300,
	};
	uint64_t ms;
	uint64_t tot[5] = { 0 };
	unsigned int i;
	int ret = TEST_SUCCESS;

	if (mbufx_test_env_u64("MBUFX_RACE_MS", 150, 1, 3600 * 1000, &ms) < 0)
		return TEST_FAILED;
	rte_srand(mbufx_test_seed());
	if (rte_lcore_count() < 2)
		printf("one lcore: the second EAL racer is a pthread\n");
	for (i = 0; i < RTE_DIM(sizes) && ret == TEST_SUCCESS; i++)
		ret = race_round(sizes[i], (unsigned int)ms, i & 1, tot);
	printf("gets %" PRIu64 " (whole-pool sized %" PRIu64 "), refused %"
	       PRIu64 ", checks at rest %" PRIu64 ", lcore id changes %"
	       PRIu64 "\n", tot[0], tot[1], tot[2], tot[3], tot[4]);
	if (ret == TEST_SUCCESS)
		TEST_ASSERT_NOT_EQUAL(tot[3], 0, "checks at rest run");
	return ret;
}

static const struct mbufx_test_suite race_suite = {
	.name = "mempool_mbufx_race",
	.cases = {
		MBUFX_TEST_CASE(test_race),
		MBUFX_TEST_CASES_END(),
	},
};

static int
test_mempool_mbufx_race(void)
{
	return mbufx_test_suite_run(&race_suite);
}

MBUFX_TEST_REGISTER(mempool_mbufx_race_autotest, test_mempool_mbufx_race);
