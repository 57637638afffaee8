/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The mbufx authors
 */

/*
 * mempool_mbufx_check_autotest: the driver's checking mode (MBUFX_CHECK).
 *
 * Behaviour protected, one case each:
 *   - off unless asked: no counters, the per-lcore cache stays;
 *   - a bad MBUFX_CHECK value fails the pool's creation with EINVAL;
 *   - MBUFX_CHECK_POOLS picks pools by name pattern;
 *   - a checked pool's per-lcore cache is bypassed on the installed DPDK:
 *     every get and put of any size reaches the driver at once, and a get
 *     takes exactly what was asked (the driver sets the cache fields that
 *     DPDK's get and put decide on; a DPDK that decides otherwise fails
 *     here, not silently in a user's double free);
 *   - a double free through rte_pktmbuf_free (cache on at creation) is
 *     caught at the second free, logged with pool, object and lcore,
 *     counted, not inserted: the pool gives each object once, and exactly
 *     its size;
 *   - a bulk put holding an object twice inserts the others once;
 *   - a put of a pointer that is no object (another pool's mbuf, the middle
 *     of an object, a stack address) is refused and counted;
 *   - a write into a free mbuf's data room is reported at the next get with
 *     the offset of the first byte and the number written (packet and jumbo
 *     classes);
 *   - a generic pool is checked but its free objects are never written;
 *   - two lcores freeing the same objects at once: one free and one double
 *     free each;
 *   - MBUFX_CHECK=abort aborts at the double free.
 * The environment is read when a pool is created: each case sets it first.
 */

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <rte_errno.h>
#include <rte_launch.h>
#include <rte_lcore.h>
#include <rte_log.h>
#include <rte_mbuf.h>
#include <rte_mempool.h>

#include "mbufx_test.h"
#include "test_mempool_mbufx_util.h"

#define NB_OBJS 256
#define CACHE 32

/* The log of the step holds want; frees the log. */
static int
log_holds(char *log, const char *want)
{
	int ok = log != NULL && strstr(log, want) != NULL;

	if (!ok)
		printf("want \"%s\" in: %s\n", want, log != NULL ? log : "");
	free(log);
	return ok;
}

static void
check_env(const char *mode, const char *pools)
{
	if (mode == NULL)
		unsetenv("MBUFX_CHECK");
	else
		setenv("MBUFX_CHECK", mode, 1);
	if (pools == NULL)
		unsetenv("MBUFX_CHECK_POOLS");
	else
		setenv("MBUFX_CHECK_POOLS", pools, 1);
}

static void
check_teardown(void)
{
	check_env(NULL, NULL);
}

/* A telemetry field of the pool (see mu_tel_pool_field()). */
static long long
tel_field(const struct rte_mempool *mp, const char *key, char *str,
	  size_t len)
{
	return mu_tel_pool_field(mp->name, key, str, len);
}

#define ASSERT_ERRORS(mp, key, want) do {				\
	long long n_ = tel_field(mp, key, NULL, 0);			\
	TEST_ASSERT_EQUAL(n_, want, "%s of %s (-1: no telemetry)", key,	\
			  (mp)->name);					\
} while (0)

/* The pool is consistent: every object once, exactly its size. */
static int
check_whole(struct rte_mempool *mp)
{
	TEST_RUN(mu_check_full(mp));
	return mu_check_drain(mp, mp->name);
}

static struct rte_mempool *
pkt_pool(const char *name, uint16_t room)
{
	return rte_pktmbuf_pool_create_by_ops(name, NB_OBJS, CACHE, 0, room,
					      SOCKET_ID_ANY, MU_OPS);
}

static int
test_off_by_default(void)
{
	struct rte_mempool *mp;
	char mode[16] = "";

	check_env(NULL, NULL);
	mp = pkt_pool("ck_off", RTE_MBUF_DEFAULT_BUF_SIZE);
	TEST_ASSERT_NOT_NULL(mp, "create");
	TEST_ASSERT_EQUAL(tel_field(mp, "check_mode", mode, sizeof(mode)), 0,
			  "check_mode in telemetry");
	TEST_ASSERT(strcmp(mode, "off") == 0, "mode %s", mode);
	ASSERT_ERRORS(mp, "check_double_frees", 0);
	TEST_ASSERT_EQUAL(rte_mempool_default_cache(mp, rte_lcore_id())->size,
			  CACHE, "cache untouched");
	rte_mempool_free(mp);
	return TEST_SUCCESS;
}

static int
test_bad_env(void)
{
	static const char * const bad[] = { "yes", "2", "abort,log", " 1" };
	struct rte_mempool *mp;
	unsigned int i;

	for (i = 0; i < RTE_DIM(bad); i++) {
		check_env(bad[i], NULL);
		mp = pkt_pool("ck_bad", RTE_MBUF_DEFAULT_BUF_SIZE);
		TEST_ASSERT_NULL(mp, "MBUFX_CHECK=%s accepted", bad[i]);
		TEST_ASSERT_EQUAL(rte_errno, EINVAL, "MBUFX_CHECK=%s", bad[i]);
	}
	return TEST_SUCCESS;
}

static int
test_pool_filter(void)
{
	struct rte_mempool *a, *b;
	char ma[16] = "", mb[16] = "";

	check_env("log", "other,ck_a*");
	a = pkt_pool("ck_abc", RTE_MBUF_DEFAULT_BUF_SIZE);
	b = pkt_pool("ck_b", RTE_MBUF_DEFAULT_BUF_SIZE);
	TEST_ASSERT(a != NULL && b != NULL, "create");
	tel_field(a, "check_mode", ma, sizeof(ma));
	tel_field(b, "check_mode", mb, sizeof(mb));
	rte_mempool_free(a);
	rte_mempool_free(b);
	TEST_ASSERT(strcmp(ma, "log") == 0, "ck_abc: %s", ma);
	TEST_ASSERT(strcmp(mb, "off") == 0, "ck_b: %s", mb);
	return TEST_SUCCESS;
}

/* Objects in the driver (its own count, not the caches') */
static long long
drv_free(const struct rte_mempool *mp)
{
	return tel_field(mp, "free", NULL, 0);
}

static int
test_cache_bypassed(void)
{
	static const unsigned int sizes[] = {
		1, 2, CACHE - 1, CACHE, CACHE + 1, CACHE * 3 / 2 + 1,
		CACHE * 2 + 1, NB_OBJS / 2,
	};
	void *objs[NB_OBJS];
	struct rte_mempool *mp;
	struct rte_mbuf *m;
	unsigned int i, j, n;

	check_env("1", NULL);
	mp = pkt_pool("ck_nocache", RTE_MBUF_DEFAULT_BUF_SIZE);
	TEST_ASSERT_NOT_NULL(mp, "create");
	TEST_ASSERT_NOT_NULL(rte_mempool_default_cache(mp, rte_lcore_id()),
			     "the pool has a cache for this lcore");
	for (i = 0; i < RTE_DIM(sizes); i++) {
		n = sizes[i];
		TEST_ASSERT_SUCCESS(rte_mempool_get_bulk(mp, objs, n),
				    "get %u", n);
		TEST_ASSERT_EQUAL(drv_free(mp), NB_OBJS - n,
				  "get of %u: the driver gave exactly %u", n, n);
		for (j = 0; j < n; j++) {
			rte_mempool_put(mp, objs[j]);
			TEST_ASSERT_EQUAL(drv_free(mp),
					  NB_OBJS - n + j + 1,
					  "put %u of %u reached the driver",
					  j + 1, n);
		}
		TEST_ASSERT_SUCCESS(rte_mempool_get_bulk(mp, objs, n),
				    "get %u", n);
		rte_mempool_put_bulk(mp, objs, n);
		TEST_ASSERT_EQUAL(drv_free(mp), NB_OBJS,
				  "bulk put of %u reached the driver", n);
	}
	m = rte_pktmbuf_alloc(mp);
	TEST_ASSERT_NOT_NULL(m, "alloc");
	TEST_ASSERT_EQUAL(drv_free(mp), NB_OBJS - 1,
			  "rte_pktmbuf_alloc took one mbuf from the driver");
	rte_pktmbuf_free(m);
	TEST_ASSERT_EQUAL(drv_free(mp), NB_OBJS,
			  "rte_pktmbuf_free gave it back to the driver");
	ASSERT_ERRORS(mp, "check_double_frees", 0);
	TEST_RUN(check_whole(mp));
	rte_mempool_free(mp);
	return TEST_SUCCESS;
}

static int
test_double_free_pktmbuf(void)
{
	struct rte_mempool *mp;
	struct rte_mbuf *m, *c;
	char want[128], *log;

	check_env("1", NULL);
	mp = pkt_pool("ck_dfree", RTE_MBUF_DEFAULT_BUF_SIZE);
	TEST_ASSERT_NOT_NULL(mp, "create");
	m = rte_pktmbuf_alloc(mp);
	c = rte_pktmbuf_alloc(mp);
	TEST_ASSERT(m != NULL && c != NULL, "alloc");
	TEST_ASSERT_SUCCESS(rte_pktmbuf_chain(m, c), "chain");
	rte_pktmbuf_free(m);
	mu_log_start();
	rte_pktmbuf_free(m);	/* the bug */
	log = mu_log_stop();
	snprintf(want, sizeof(want), "pool ck_dfree: double free "
		 "(object already in the pool): object %p, lcore %u",
		 (void *)m, rte_lcore_id());
	TEST_ASSERT(log_holds(log, want), "report of the double free");
	ASSERT_ERRORS(mp, "check_double_frees", 1);
	ASSERT_ERRORS(mp, "check_foreign_puts", 0);
	TEST_RUN(check_whole(mp));
	rte_mempool_free(mp);
	return TEST_SUCCESS;
}

static int
test_double_free_bulk(void)
{
	struct rte_mempool *mp;
	void *o[3], *put[4];

	check_env("1", NULL);
	mp = pkt_pool("ck_bulk", RTE_MBUF_DEFAULT_BUF_SIZE);
	TEST_ASSERT_NOT_NULL(mp, "create");
	TEST_ASSERT_SUCCESS(rte_mempool_get_bulk(mp, o, 3), "get");
	put[0] = o[0];
	put[1] = o[1];
	put[2] = o[0];
	put[3] = o[2];
	rte_mempool_put_bulk(mp, put, 4);
	ASSERT_ERRORS(mp, "check_double_frees", 1);
	TEST_ASSERT_EQUAL(rte_mempool_avail_count(mp), NB_OBJS, "avail");
	rte_mempool_put(mp, o[1]);
	ASSERT_ERRORS(mp, "check_double_frees", 2);
	TEST_RUN(check_whole(mp));
	rte_mempool_free(mp);
	return TEST_SUCCESS;
}

static int
test_foreign(void)
{
	struct rte_mempool *mp, *other;
	struct rte_mbuf *m, *x;
	char *log;
	int on_stack;

	check_env("1", NULL);
	mp = pkt_pool("ck_foreign", RTE_MBUF_DEFAULT_BUF_SIZE);
	other = pkt_pool("ck_other", RTE_MBUF_DEFAULT_BUF_SIZE);
	TEST_ASSERT(mp != NULL && other != NULL, "create");
	x = rte_pktmbuf_alloc(other);
	m = rte_pktmbuf_alloc(mp);
	TEST_ASSERT(m != NULL && x != NULL, "alloc");
	mu_log_start();
	rte_mempool_put(mp, x);				/* another pool's */
	rte_mempool_put(mp, RTE_PTR_ADD(m, 64));	/* inside an object */
	rte_mempool_put(mp, &on_stack);			/* not a pool at all */
	log = mu_log_stop();
	TEST_ASSERT(log_holds(log, "pool ck_foreign: put of a pointer that is "
			      "no object of this pool"), "report of the foreign put");
	ASSERT_ERRORS(mp, "check_foreign_puts", 3);
	rte_pktmbuf_free(m);
	rte_pktmbuf_free(x);
	ASSERT_ERRORS(other, "check_foreign_puts", 0);
	TEST_RUN(check_whole(mp));
	TEST_RUN(check_whole(other));
	rte_mempool_free(mp);
	rte_mempool_free(other);
	return TEST_SUCCESS;
}

/*
 * Write n bytes at data-room offset off of a freed mbuf; the next get (the
 * same mbuf: LIFO, no cache) reports it.
 */
static int
write_after_free(uint16_t room, uint32_t off, uint32_t n)
{
	struct rte_mempool *mp;
	struct rte_mbuf *m, *again;
	char want[160], *log, *buf;

	mp = pkt_pool(room > RTE_MBUF_DEFAULT_BUF_SIZE ? "ck_waf_jumbo" :
		      "ck_waf", room);
	TEST_ASSERT_NOT_NULL(mp, "create");
	m = rte_pktmbuf_alloc(mp);
	TEST_ASSERT_NOT_NULL(m, "alloc");
	buf = m->buf_addr;
	rte_pktmbuf_free(m);
	memset(buf + off, 0x5a, n);	/* the bug */
	mu_log_start();
	again = rte_pktmbuf_alloc(mp);
	log = mu_log_stop();
	TEST_ASSERT(again == m, "LIFO: the freed mbuf comes back");
	snprintf(want, sizeof(want), "write after free: %u byte(s) changed, "
		 "first at offset %u (data room offset %u): object %p",
		 n, (unsigned int)(sizeof(struct rte_mbuf) + off), off,
		 (void *)m);
	TEST_ASSERT(log_holds(log, want), "report of the write after free");
	ASSERT_ERRORS(mp, "check_writes_after_free", 1);
	/* freed and taken again untouched: nothing more */
	rte_pktmbuf_free(again);
	again = rte_pktmbuf_alloc(mp);
	rte_pktmbuf_free(again);
	ASSERT_ERRORS(mp, "check_writes_after_free", 1);
	TEST_RUN(check_whole(mp));
	rte_mempool_free(mp);
	return TEST_SUCCESS;
}

static int
test_write_after_free(void)
{
	check_env("1", NULL);
	TEST_RUN(write_after_free(RTE_MBUF_DEFAULT_BUF_SIZE, 100, 4));
	TEST_RUN(write_after_free(RTE_MBUF_DEFAULT_BUF_SIZE, 0, 1));
	/* the last bytes of a jumbo room (not a multiple of 8: 9000 + 128 + 3) */
	return write_after_free(RTE_PKTMBUF_HEADROOM + 9003,
				RTE_PKTMBUF_HEADROOM + 9003 - 3, 3);
}

/* Free objects of a generic pool are checked, never written. */
static int
test_generic_untouched(void)
{
	struct rte_mempool *mp;
	void *o[NB_OBJS];
	unsigned int i, j;

	check_env("1", NULL);
	mp = mu_pool_create("ck_generic", NB_OBJS, 128, CACHE, 0);
	TEST_ASSERT_NOT_NULL(mp, "create");
	TEST_ASSERT_SUCCESS(rte_mempool_get_bulk(mp, o, NB_OBJS), "get all");
	for (i = 0; i < NB_OBJS; i++)
		memset(o[i], 0, 128);
	rte_mempool_put_bulk(mp, o, NB_OBJS);
	rte_mempool_put(mp, o[7]);
	ASSERT_ERRORS(mp, "check_double_frees", 1);
	TEST_ASSERT_SUCCESS(rte_mempool_get_bulk(mp, o, NB_OBJS), "get all");
	for (i = 0; i < NB_OBJS; i++)
		for (j = 0; j < 128; j++)
			TEST_ASSERT_EQUAL(((uint8_t *)o[i])[j], 0,
					  "object %u byte %u written", i, j);
	rte_mempool_put_bulk(mp, o, NB_OBJS);
	ASSERT_ERRORS(mp, "check_writes_after_free", 0);
	TEST_RUN(check_whole(mp));
	rte_mempool_free(mp);
	return TEST_SUCCESS;
}

/* Two lcores put the same objects at the same time. */
struct race {
	struct rte_mempool *mp;
	void *o[NB_OBJS];
	uint32_t go;
};

static int
race_put(void *arg)
{
	struct race *r = arg;
	unsigned int i;

	__atomic_add_fetch(&r->go, 1, __ATOMIC_ACQ_REL);
	while (__atomic_load_n(&r->go, __ATOMIC_ACQUIRE) < 2)
		;
	for (i = 0; i < NB_OBJS; i++)
		rte_mempool_put(r->mp, r->o[i]);
	return 0;
}

static int
test_race(void)
{
	static struct race r;
	unsigned int worker;

	worker = rte_get_next_lcore(-1, 1, 0);
	if (worker >= RTE_MAX_LCORE) {
		printf("needs 2 lcores\n");
		return TEST_SKIPPED;
	}
	check_env("1", NULL);
	memset(&r, 0, sizeof(r));
	r.mp = mu_pool_create("ck_race", NB_OBJS, 64, 0, 0);
	TEST_ASSERT_NOT_NULL(r.mp, "create");
	TEST_ASSERT_SUCCESS(rte_mempool_get_bulk(r.mp, r.o, NB_OBJS), "get");
	mu_log_start();	/* keep the 16 reports out of the test's output */
	rte_eal_remote_launch(race_put, &r, worker);
	race_put(&r);
	rte_eal_wait_lcore(worker);
	free(mu_log_stop());
	ASSERT_ERRORS(r.mp, "check_double_frees", NB_OBJS);
	TEST_RUN(check_whole(r.mp));
	rte_mempool_free(r.mp);
	return TEST_SUCCESS;
}

/* MBUFX_CHECK=abort: the process dies at the double free, in a child. */
static int
test_abort(void)
{
	struct rte_mempool *mp;
	struct rte_mbuf *m;
	int status;
	pid_t pid;

	check_env("abort", NULL);
	mp = pkt_pool("ck_abort", RTE_MBUF_DEFAULT_BUF_SIZE);
	TEST_ASSERT_NOT_NULL(mp, "create");
	m = rte_pktmbuf_alloc(mp);
	TEST_ASSERT_NOT_NULL(m, "alloc");
	rte_pktmbuf_free(m);
	fflush(stdout);
	pid = fork();
	TEST_ASSERT(pid >= 0, "fork");
	if (pid == 0) {
		/* the pool is in shared memory: the child aborts before it
		 * changes anything but the error counter
		 */
		signal(SIGABRT, SIG_DFL);
		rte_pktmbuf_free(m);
		_exit(0);
	}
	TEST_ASSERT_EQUAL(waitpid(pid, &status, 0), pid, "waitpid");
	TEST_ASSERT(WIFSIGNALED(status) && WTERMSIG(status) == SIGABRT,
		    "child status %#x, want SIGABRT", status);
	ASSERT_ERRORS(mp, "check_double_frees", 1);
	TEST_RUN(check_whole(mp));
	rte_mempool_free(mp);
	return TEST_SUCCESS;
}

static const struct mbufx_test_suite check_suite = {
	.name = "mempool_mbufx_check",
	.cases = {
		MBUFX_TEST_CASE_ST(NULL, check_teardown, test_off_by_default),
		MBUFX_TEST_CASE_ST(NULL, check_teardown, test_bad_env),
		MBUFX_TEST_CASE_ST(NULL, check_teardown, test_pool_filter),
		MBUFX_TEST_CASE_ST(NULL, check_teardown, test_cache_bypassed),
		MBUFX_TEST_CASE_ST(NULL, check_teardown,
				   test_double_free_pktmbuf),
		MBUFX_TEST_CASE_ST(NULL, check_teardown, test_double_free_bulk),
		MBUFX_TEST_CASE_ST(NULL, check_teardown, test_foreign),
		MBUFX_TEST_CASE_ST(NULL, check_teardown, test_write_after_free),
		MBUFX_TEST_CASE_ST(NULL, check_teardown,
				   test_generic_untouched),
		MBUFX_TEST_CASE_ST(NULL, check_teardown, test_race),
		MBUFX_TEST_CASE_ST(NULL, check_teardown, test_abort),
		MBUFX_TEST_CASES_END(),
	},
};

static int
test_mempool_mbufx_check(void)
{
	return mbufx_test_suite_run(&check_suite);
}

MBUFX_TEST_REGISTER(mempool_mbufx_check_autotest, test_mempool_mbufx_check);
