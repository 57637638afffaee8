/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The mbufx authors
 */

/*
 * mempool_mbufx_autotest: what DPDK's mempool contract asks of a driver, and
 * what mbufx promises beyond it: the ops registered once, every size and
 * pool class, an exact count and all-or-nothing bulk calls, LIFO reuse,
 * free objects never written, exact capacity across lcores and for threads
 * without an lcore id, telemetry of the classes, get_info, the membarrier
 * registration lcores rely on, and bulk calls of any size on a small stack.
 * The other commands of the driver have their own files:
 * test_mempool_mbufx_{stress,jumbo,check,race,mp,perf}.c.
 */

#include <linux/membarrier.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <rte_errno.h>
#include <rte_launch.h>
#include <rte_lcore.h>
#include <rte_mbuf.h>
#include <rte_mempool.h>
#include <rte_random.h>

#include "mbufx_consts.h"
#include "mbufx_test.h"
#include "test_mempool_mbufx_util.h"

#define MAG 512		/* the largest magazine: crossing magazines matters */

/*
 * Take every object in one call (from this lcore, whatever lcore freed
 * them), check they are distinct objects of this pool, that one more is
 * refused, and put them back.
 */
static int
check_drain(struct rte_mempool *mp)
{
	return mu_check_drain(mp, "main lcore");
}

/* The ops table holds "mbufx" exactly once, whatever loaded the plugin. */
static int
test_ops_registered_once(void)
{
	unsigned int i, found = 0;

	for (i = 0; i < rte_mempool_ops_table.num_ops; i++)
		if (strcmp(rte_mempool_ops_table.ops[i].name, MU_OPS) == 0)
			found++;
	TEST_ASSERT_EQUAL(found, 1, "ops \"%s\" registrations", MU_OPS);
	return TEST_SUCCESS;
}

/*
 * Every element size works, with and without per-lcore cache: the odd
 * shapes mbuf_autotest uses (data room 0, a 128-byte private area, plain
 * 2048-byte objects) and the three pool classes.
 */
static int
test_sizes(void)
{
	static const struct {
		const char *name;
		int pktmbuf;
		unsigned int room_or_elt;
		unsigned int priv;
	} shapes[] = {
		{ "room0", 1, 0, 0 },
		{ "priv128", 1, RTE_MBUF_DEFAULT_BUF_SIZE, 128 },
		{ "plain2k", 0, 2048, 0 },
		{ "plain8", 0, 8, 0 },
		{ "pkt", 1, RTE_MBUF_DEFAULT_BUF_SIZE, 0 },
		{ "jumbo", 1, 9344, 0 },
		{ "hdr", 1, 256, 0 },
	};
	static const unsigned int caches[] = { 0, 256 };
	static const unsigned int counts[] = { 1, 63, 64, 65, 127, 128, 129, 1023, 4096 };
	struct rte_mempool *mp;
	char name[RTE_MEMPOOL_NAMESIZE];
	unsigned int s, c, k, n;

	for (s = 0; s < RTE_DIM(shapes); s++)
		for (c = 0; c < RTE_DIM(caches); c++)
			for (k = 0; k < RTE_DIM(counts); k++) {
				n = counts[k];
				/* mempool refuses a cache above n / 1.5 */
				if (caches[c] * 3 / 2 > n)
					continue;
				snprintf(name, sizeof(name), "sz_%s_%u_%u",
					 shapes[s].name, caches[c], n);
				if (shapes[s].pktmbuf)
					mp = rte_pktmbuf_pool_create_by_ops(name,
						n, caches[c], shapes[s].priv,
						shapes[s].room_or_elt,
						SOCKET_ID_ANY, MU_OPS);
				else
					mp = mu_pool_create(name, n,
						shapes[s].room_or_elt, caches[c],
						0);
				TEST_ASSERT_NOT_NULL(mp, "create %s: %s", name,
						     rte_strerror(rte_errno));
				TEST_ASSERT_EQUAL(mp->populated_size, n, "%s", name);
				if (mu_check_full(mp) != TEST_SUCCESS ||
				    check_drain(mp) != TEST_SUCCESS ||
				    mu_check_full(mp) != TEST_SUCCESS) {
					rte_mempool_free(mp);
					return TEST_FAILED;
				}
				rte_mempool_free(mp);
			}
	return TEST_SUCCESS;
}

/*
 * get_count is exact after every operation at rest, bulk calls are
 * all-or-nothing, and a refused call changes nothing.
 */
static int
test_count_all_or_nothing(void)
{
	struct rte_mempool *mp;
	void *objs[600], *more[600];
	unsigned int n = 513, sizes[] = { 1, 31, 32, 63, 64, 65, 128, 129, 200 };
	unsigned int i, k, taken = 0;

	mp = mu_pool_create("cnt", n, 64, 0, 0);
	TEST_ASSERT_NOT_NULL(mp, "create");
	for (i = 0; i < RTE_DIM(sizes); i++) {
		k = sizes[i];
		if (taken + k > n)
			break;
		TEST_ASSERT_SUCCESS(rte_mempool_get_bulk(mp, &objs[taken], k),
				    "get %u with %u free", k, n - taken);
		taken += k;
		TEST_ASSERT_EQUAL(mu_driver_count(mp), n - taken,
				  "count after get %u", k);
	}
	/* more than is left: refused whole, nothing taken */
	k = n - taken + 1;
	TEST_ASSERT_FAIL(rte_mempool_get_bulk(mp, more, k), "get %u of %u", k,
			 n - taken);
	TEST_ASSERT_EQUAL(mu_driver_count(mp), n - taken,
			  "refused get changed the count");
	k = n - taken;
	TEST_ASSERT_SUCCESS(rte_mempool_get_bulk(mp, more, k), "the rest");
	TEST_ASSERT_EQUAL(mu_driver_count(mp), 0, "empty");
	TEST_ASSERT_FAIL(rte_mempool_get_bulk(mp, &more[k], 1), "from empty");
	TEST_ASSERT_EQUAL(rte_mempool_ops_dequeue_bulk(mp, &more[k], 0), 0,
			  "n = 0 always succeeds");
	rte_mempool_put_bulk(mp, more, k);
	rte_mempool_put_bulk(mp, objs, taken);
	TEST_ASSERT_EQUAL(mu_driver_count(mp), n, "full");
	/* a request beyond the pool size is refused at once */
	TEST_ASSERT_FAIL(rte_mempool_ops_dequeue_bulk(mp, objs, n + 1),
			 "dequeue of size + 1");
	TEST_RUN(mu_check_full(mp));
	rte_mempool_free(mp);
	return TEST_SUCCESS;
}

/*
 * LIFO at every level: the object put last is handed out first, within a
 * magazine, across a magazine exchange with the depot, and through the
 * mempool's per-lcore cache.
 */
static int
test_lifo(void)
{
	struct rte_mempool *mp;
	void *objs[3 * MAG], *o;
	unsigned int i, cache;

	for (cache = 0; cache <= 32; cache += 32) {
		mp = mu_pool_create(cache ? "lifo_c" : "lifo", 16 * MAG, 64,
				    cache, 0);
		TEST_ASSERT_NOT_NULL(mp, "create");
		TEST_ASSERT_SUCCESS(rte_mempool_get(mp, &o), "get");
		rte_mempool_put(mp, o);
		TEST_ASSERT_SUCCESS(rte_mempool_get(mp, &objs[0]), "get");
		TEST_ASSERT(objs[0] == o, "cache %u: freed object not reused",
			    cache);
		rte_mempool_put(mp, o);

		/* 3 magazines out and back one by one: reverse order out */
		TEST_ASSERT_SUCCESS(rte_mempool_get_bulk(mp, objs, 3 * MAG),
				    "get");
		for (i = 0; i < 3 * MAG; i++)
			rte_mempool_put(mp, objs[i]);
		for (i = 3 * MAG; i-- > 0;) {
			TEST_ASSERT_SUCCESS(rte_mempool_get(mp, &o), "get");
			TEST_ASSERT(o == objs[i], "cache %u: object %u of %u "
				    "not LIFO", cache, i, 3 * MAG);
		}
		rte_mempool_put_bulk(mp, objs, 3 * MAG);

		/* one put of several magazines: reverse order out, too */
		TEST_ASSERT_SUCCESS(rte_mempool_get_bulk(mp, objs, 3 * MAG),
				    "get");
		rte_mempool_put_bulk(mp, objs, 3 * MAG);
		for (i = 3 * MAG; i-- > 0;) {
			TEST_ASSERT_SUCCESS(rte_mempool_get(mp, &o), "get");
			TEST_ASSERT(o == objs[i], "cache %u: object %u of a bulk "
				    "put of %u not LIFO", cache, i, 3 * MAG);
		}
		rte_mempool_put_bulk(mp, objs, 3 * MAG);
		TEST_RUN(mu_check_full(mp));
		rte_mempool_free(mp);
	}
	return TEST_SUCCESS;
}

/* LIFO against FIFO, observably: ring_mp_mc hands out a different object. */
static int
test_lifo_vs_ring(void)
{
	struct rte_mempool *mp;
	void *a, *b;

	mp = rte_mempool_create("lifo_ring", 1024, 64, 0, 0, NULL, NULL, NULL,
				NULL, SOCKET_ID_ANY, 0);
	TEST_ASSERT_NOT_NULL(mp, "ring pool");
	TEST_ASSERT_SUCCESS(rte_mempool_get(mp, &a), "get");
	rte_mempool_put(mp, a);
	TEST_ASSERT_SUCCESS(rte_mempool_get(mp, &b), "get");
	rte_mempool_put(mp, b);
	rte_mempool_free(mp);
	/* the reference: a FIFO recycles through the whole pool */
	TEST_ASSERT(a != b, "ring driver reused at once: test premise broken");
	return TEST_SUCCESS;
}

/*
 * The driver never writes into a free object: fill every object with a
 * pattern, return them, churn the pool through magazine exchanges and the
 * depot from two lcores, then check every byte of every object.
 */
struct churn_arg {
	struct rte_mempool *mp;
	unsigned int rounds;
	int ret;
};

static int
churn(void *arg)
{
	struct churn_arg *c = arg;
	void *objs[200];
	unsigned int i, n;

	for (i = 0; i < c->rounds; i++) {
		n = 1 + rte_rand_max(RTE_DIM(objs));
		if (rte_mempool_get_bulk(c->mp, objs, n) == 0)
			rte_mempool_put_bulk(c->mp, objs, n);
	}
	c->ret = 0;
	return 0;
}

static int
test_free_objects_untouched(void)
{
	struct rte_mempool *mp;
	struct churn_arg arg;
	unsigned int n = 1000, elt = 256, i, j, worker;
	void **objs;
	uint8_t *b;
	int ret = TEST_SUCCESS;

	objs = calloc(n, sizeof(*objs));
	TEST_ASSERT_NOT_NULL(objs, "calloc");
	mp = mu_pool_create("untouched", n, elt, 0, 0);
	TEST_ASSERT_NOT_NULL(mp, "create");
	TEST_ASSERT_SUCCESS(rte_mempool_get_bulk(mp, objs, n), "get all");
	for (i = 0; i < n; i++)
		memset(objs[i], 0xa5, elt);
	rte_mempool_put_bulk(mp, objs, n);

	arg = (struct churn_arg){ .mp = mp, .rounds = 20000, .ret = -1 };
	worker = rte_get_next_lcore(-1, 1, 0);
	if (worker < RTE_MAX_LCORE)
		rte_eal_remote_launch(churn, &arg, worker);
	churn(&(struct churn_arg){ .mp = mp, .rounds = 20000 });
	if (worker < RTE_MAX_LCORE)
		rte_eal_wait_lcore(worker);

	TEST_ASSERT_SUCCESS(rte_mempool_get_bulk(mp, objs, n), "get all");
	for (i = 0; i < n && ret == TEST_SUCCESS; i++)
		for (b = objs[i], j = 0; j < elt && ret == TEST_SUCCESS; j++)
			TEST_EXPECT_EQUAL(ret, b[j], 0xa5, "free object %u "
					  "byte %u written", i, j);
	rte_mempool_put_bulk(mp, objs, n);
	rte_mempool_free(mp);
	free(objs);
	return ret;
}

/*
 * Exact capacity across lcores with cache 0: objects freed on one lcore sit
 * in that lcore's magazines, yet another lcore can take every one of them.
 */
static int
test_cross_lcore_capacity(void)
{
	struct rte_mempool *mp;
	unsigned int worker, sizes[] = { 10, 100, 129, 1000 }, i;
	char name[32];

	worker = rte_get_next_lcore(-1, 1, 0);
	if (worker >= RTE_MAX_LCORE) {
		printf("needs 2 lcores\n");
		return TEST_SKIPPED;
	}
	for (i = 0; i < RTE_DIM(sizes); i++) {
		snprintf(name, sizeof(name), "xcap_%u", sizes[i]);
		mp = mu_pool_create(name, sizes[i], 64, 0, 0);
		TEST_ASSERT_NOT_NULL(mp, "create");
		rte_eal_remote_launch(mu_strand, mp, worker);
		TEST_ASSERT_SUCCESS(rte_eal_wait_lcore(worker), "worker");
		/* everything now sits with the worker lcore */
		TEST_RUN(mu_check_full(mp));
		TEST_RUN(check_drain(mp));
		TEST_RUN(mu_check_full(mp));
		rte_mempool_free(mp);
	}
	return TEST_SUCCESS;
}

/* Threads without an lcore id share one slot, under a lock. */
struct thread_arg {
	struct rte_mempool *mp;
	unsigned int rounds;
	int ret;
};

static void *
non_eal_thread(void *arg)
{
	struct thread_arg *t = arg;
	void *objs[100];
	unsigned int i, n;

	t->ret = rte_lcore_id() == LCORE_ID_ANY ? 0 : -1;
	for (i = 0; i < t->rounds; i++) {
		n = 1 + i % RTE_DIM(objs);
		if (rte_mempool_get_bulk(t->mp, objs, n) != 0)
			continue;
		rte_mempool_put_bulk(t->mp, objs, n);
	}
	return NULL;
}

static int
test_non_eal_thread(void)
{
	struct rte_mempool *mp;
	struct thread_arg t;
	pthread_t tid;

	mp = mu_pool_create("noneal", 500, 64, 0, 0);
	TEST_ASSERT_NOT_NULL(mp, "create");
	t = (struct thread_arg){ .mp = mp, .rounds = 10000, .ret = -1 };
	TEST_ASSERT_SUCCESS(pthread_create(&tid, NULL, non_eal_thread, &t),
			    "pthread_create");
	pthread_join(tid, NULL);
	TEST_ASSERT_SUCCESS(t.ret, "thread had an lcore id");
	TEST_RUN(mu_check_full(mp));
	TEST_RUN(check_drain(mp));
	rte_mempool_free(mp);
	return TEST_SUCCESS;
}

/*
 * Run with a second copy of the plugin given by -d (MBUFX_TEST_DUP_PLUGIN
 * names it; test/meson.build): is that copy really mapped beside the linked
 * one? Otherwise the double-load run would prove nothing.
 */
static int
dup_plugin_mapped(const char *name)
{
	char line[512];
	FILE *f = fopen("/proc/self/maps", "r");
	int found = 0;

	if (f == NULL)
		return 0;
	while (!found && fgets(line, sizeof(line), f) != NULL)
		found = strstr(line, name) != NULL;
	fclose(f);
	return found;
}

/*
 * Telemetry: /mbufx/pools lists every pool of the driver and /mbufx/pool
 * gives each one's class, also with the plugin loaded twice (linked into
 * the runner and given with -d): the copy whose ops are registered answers.
 */
static int
test_classes_and_telemetry(void)
{
	static const struct {
		const char *name;
		unsigned int room;
		const char *cls;
	} z[] = {
		{ "tz_pkt", RTE_MBUF_DEFAULT_BUF_SIZE, "\"class\":\"packet\"" },
		{ "tz_pkt_min", RTE_PKTMBUF_HEADROOM + 1518, "\"class\":\"packet\"" },
		{ "tz_4k", RTE_PKTMBUF_HEADROOM + 4096, "\"class\":\"generic\"" },
		{ "tz_jumbo", RTE_PKTMBUF_HEADROOM + MBUFX_JUMBO_FRAME_LEN,
		  "\"class\":\"jumbo\"" },
		{ "tz_jumbo_short", RTE_PKTMBUF_HEADROOM + MBUFX_JUMBO_FRAME_LEN - 1,
		  "\"class\":\"generic\"" },
		{ "tz_hdr", 256, "\"class\":\"generic\"" },
	};
	struct rte_mempool *mp[RTE_DIM(z)], *plain;
	const char *dup = getenv("MBUFX_TEST_DUP_PLUGIN");
	char buf[4096], cmd[128];
	unsigned int i;
	int ret = TEST_SUCCESS;

	if (dup != NULL)
		TEST_ASSERT(dup_plugin_mapped(dup), "%s not loaded: the double "
			    "load is not tested", dup);

	for (i = 0; i < RTE_DIM(z); i++) {
		mp[i] = rte_pktmbuf_pool_create_by_ops(z[i].name, 256, 0, 0,
						       z[i].room, SOCKET_ID_ANY,
						       MU_OPS);
		TEST_ASSERT_NOT_NULL(mp[i], "create %s", z[i].name);
	}
	plain = mu_pool_create("tz_plain", 100,
			       2176 + sizeof(struct rte_mbuf), 0, 0);
	TEST_ASSERT_NOT_NULL(plain, "plain");

	if (mu_telemetry_query("/mbufx/pools", buf, sizeof(buf)) != 0) {
		printf("telemetry socket not reachable: skipping that part\n");
		ret = TEST_SKIPPED;
		goto out;
	}
	for (i = 0; i < RTE_DIM(z) && ret == TEST_SUCCESS; i++)
		TEST_EXPECT(ret, strstr(buf, z[i].name) != NULL,
			    "/mbufx/pools lacks %s: %s", z[i].name, buf);
	for (i = 0; i < RTE_DIM(z) && ret == TEST_SUCCESS; i++) {
		snprintf(cmd, sizeof(cmd), "/mbufx/pool,%s", z[i].name);
		TEST_EXPECT_SUCCESS(ret, mu_telemetry_query(cmd, buf,
				    sizeof(buf)), "%s", cmd);
		TEST_EXPECT(ret, strstr(buf, z[i].cls) != NULL &&
			    strstr(buf, "\"free\":256") != NULL,
			    "%s: want %s, free 256: %s", cmd, z[i].cls, buf);
	}
	/* not a pktmbuf pool, even with an mbuf-sized element */
	if (ret == TEST_SUCCESS) {
		TEST_EXPECT_SUCCESS(ret, mu_telemetry_query("/mbufx/pool,tz_plain",
				    buf, sizeof(buf)), "tz_plain");
		TEST_EXPECT(ret, strstr(buf, "\"class\":\"generic\"") != NULL,
			    "tz_plain: %s", buf);
	}
	/* an unknown pool is an error, not an empty answer */
	if (ret == TEST_SUCCESS) {
		TEST_EXPECT_SUCCESS(ret, mu_telemetry_query("/mbufx/pool,nosuchpool",
				    buf, sizeof(buf)), "nosuchpool");
		TEST_EXPECT(ret, strstr(buf, "null") != NULL, "unknown pool: %s",
			    buf);
	}
out:
	for (i = 0; i < RTE_DIM(z); i++)
		rte_mempool_free(mp[i]);
	rte_mempool_free(plain);
	/* a freed pool leaves the list */
	if (ret == TEST_SUCCESS) {
		TEST_EXPECT_SUCCESS(ret, mu_telemetry_query("/mbufx/pools", buf,
				    sizeof(buf)), "/mbufx/pools");
		TEST_EXPECT(ret, strstr(buf, "tz_pkt") == NULL,
			    "freed pools still listed: %s", buf);
	}
	return ret;
}

/*
 * Bulk calls need no stack in proportion to their size: a thread with a small
 * stack takes a whole big pool in one call and returns it in one call (the
 * driver moves thousands of magazines there).
 */
#define BIG_BULK (1u << 21)
#define SMALL_STACK (24u * 1024)

struct big_bulk {
	struct rte_mempool *mp;
	void **objs;
	int ret;
};

static void *
big_bulk_thread(void *arg)
{
	struct big_bulk *b = arg;

	if (rte_mempool_generic_get(b->mp, b->objs, BIG_BULK, NULL) != 0)
		return NULL;
	if (rte_mempool_generic_get(b->mp, &b->objs[BIG_BULK], 1, NULL) == 0)
		return NULL;
	rte_mempool_generic_put(b->mp, b->objs, BIG_BULK, NULL);
	b->ret = 0;
	return NULL;
}

static int
test_big_bulk_small_stack(void)
{
	struct big_bulk b = { NULL, NULL, -1 };
	pthread_attr_t attr;
	pthread_t tid;
	int ret;

	b.mp = mu_pool_create("bigbulk", BIG_BULK, 8, 0,
			      RTE_MEMPOOL_F_NO_CACHE_ALIGN);
	TEST_ASSERT_NOT_NULL(b.mp, "create %u objects: %s", BIG_BULK,
			     rte_strerror(rte_errno));
	b.objs = calloc(BIG_BULK + 1, sizeof(void *));
	TEST_ASSERT_NOT_NULL(b.objs, "calloc");
	pthread_attr_init(&attr);
	ret = pthread_attr_setstacksize(&attr, SMALL_STACK);
	if (ret == 0)
		ret = pthread_create(&tid, &attr, big_bulk_thread, &b);
	pthread_attr_destroy(&attr);
	if (ret == 0)
		pthread_join(tid, NULL);
	else
		printf("no thread with a %u-byte stack: %s\n", SMALL_STACK,
		       strerror(ret));
	free(b.objs);
	if (ret != 0) {
		rte_mempool_free(b.mp);
		return TEST_SKIPPED;
	}
	ret = TEST_SUCCESS;
	TEST_EXPECT_SUCCESS(ret, b.ret, "bulk get/put of %u objects, then "
			    "one more refused", BIG_BULK);
	if (ret == TEST_SUCCESS)
		ret = mu_check_full(b.mp);
	rte_mempool_free(b.mp);
	return ret;
}

/*
 * An lcore enters its slot without a fence; a thief fences it with
 * membarrier(2), which works only in a process that registered for it. After
 * an lcore used a pool and a steal ran, this process is registered: the
 * private expedited command succeeds (it fails with EPERM otherwise) and,
 * where the kernel tells (Linux 6.3+), the global expedited registration that
 * thieves in secondary processes need is there too.
 */
#define MEMBARRIER_GET_REGISTRATIONS (1 << 9)	/* not in older headers */

static int
test_membarrier_registered(void)
{
	struct rte_mempool *mp;
	void *objs[100];
	unsigned int worker;
	long cmds, regs;

	cmds = syscall(__NR_membarrier, MEMBARRIER_CMD_QUERY, 0, 0);
	if (cmds < 0 || (cmds & MEMBARRIER_CMD_PRIVATE_EXPEDITED) == 0 ||
	    (cmds & MEMBARRIER_CMD_GLOBAL_EXPEDITED) == 0) {
		printf("no expedited membarrier here: lcores lock their slot\n");
		return TEST_SKIPPED;
	}
	worker = rte_get_next_lcore(-1, 1, 0);
	if (worker >= RTE_MAX_LCORE)
		return TEST_SKIPPED;
	mp = mu_pool_create("mb_reg", 100, 64, 0, 0);
	TEST_ASSERT_NOT_NULL(mp, "create");
	/* objects in the worker's magazines, then all of them from here */
	rte_eal_remote_launch(mu_strand, mp, worker);
	TEST_ASSERT_SUCCESS(rte_eal_wait_lcore(worker), "worker");
	TEST_ASSERT_SUCCESS(rte_mempool_get_bulk(mp, objs, 100), "steal");
	rte_mempool_put_bulk(mp, objs, 100);
	rte_mempool_free(mp);
	TEST_ASSERT_EQUAL(syscall(__NR_membarrier,
				  MEMBARRIER_CMD_PRIVATE_EXPEDITED, 0, 0), 0,
			  "process not registered for membarrier");
	regs = syscall(__NR_membarrier, MEMBARRIER_GET_REGISTRATIONS, 0, 0);
	if (regs >= 0)
		TEST_ASSERT((regs & MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED) &&
			    (regs & MEMBARRIER_CMD_REGISTER_GLOBAL_EXPEDITED),
			    "registrations %#lx", regs);
	return TEST_SUCCESS;
}

/* get_info answers (no contiguous blocks); dump works on our pools. */
static int
test_info(void)
{
	struct rte_mempool *mp;
	struct rte_mempool_info info = { .contig_block_size = 99 };
	FILE *f;

	mp = mu_pool_create("info", 100, 64, 0, 0);
	TEST_ASSERT_NOT_NULL(mp, "create");
	TEST_ASSERT_SUCCESS(rte_mempool_ops_get_info(mp, &info), "get_info");
	TEST_ASSERT_EQUAL(info.contig_block_size, 0, "contig_block_size");
	f = fopen("/dev/null", "w");
	if (f != NULL) {
		rte_mempool_dump(f, mp);
		fclose(f);
	}
	rte_mempool_free(mp);
	return TEST_SUCCESS;
}

static const struct mbufx_test_suite mempool_mbufx_suite = {
	.name = "mempool_mbufx",
	.cases = {
		MBUFX_TEST_CASE(test_ops_registered_once),
		MBUFX_TEST_CASE(test_sizes),
		MBUFX_TEST_CASE(test_count_all_or_nothing),
		MBUFX_TEST_CASE(test_lifo),
		MBUFX_TEST_CASE(test_lifo_vs_ring),
		MBUFX_TEST_CASE(test_free_objects_untouched),
		MBUFX_TEST_CASE(test_cross_lcore_capacity),
		MBUFX_TEST_CASE(test_non_eal_thread),
		MBUFX_TEST_CASE(test_classes_and_telemetry),
		MBUFX_TEST_CASE(test_info),
		MBUFX_TEST_CASE(test_membarrier_registered),
		MBUFX_TEST_CASE(test_big_bulk_small_stack),
		MBUFX_TEST_CASES_END(),
	},
};

static int
test_mempool_mbufx(void)
{
	return mbufx_test_suite_run(&mempool_mbufx_suite);
}

MBUFX_TEST_REGISTER(mempool_mbufx_autotest, test_mempool_mbufx);
