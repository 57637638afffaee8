/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The mbufx authors
 */

/*
 * Autotests of the mbufx mempool driver: what DPDK's mempool contract asks of
 * a driver, and what mbufx promises beyond it.
 *
 *   mempool_mbufx_autotest        contract, sizes, classes, LIFO, telemetry
 *   mempool_mbufx_stress_autotest 2 lcores + a non-EAL thread: every object
 *                                 seen exactly once, none lost
 *   mempool_mbufx_jumbo_autotest  jumbo buffers IOVA-contiguous; one chunk
 *                                 in IOVA-as-VA mode (meson runs it with
 *                                 --iova-mode=va too), placement logged
 *                                 once, iova_contig_pool of the pool
 */

#include <inttypes.h>
#include <linux/membarrier.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <rte_cycles.h>
#include <rte_eal.h>
#include <rte_errno.h>
#include <rte_launch.h>
#include <rte_log.h>
#include <rte_lcore.h>
#include <rte_malloc.h>
#include <rte_mbuf.h>
#include <rte_memory.h>
#include <rte_memzone.h>
#include <rte_mempool.h>
#include <rte_random.h>
#include <rte_ring.h>

#include "mbufx_consts.h"
#include "mbufx_test.h"
#include "test_mempool_mbufx_util.h"

#define OPS "mbufx"
#define MAG 512		/* the largest magazine: crossing magazines matters */

/* The pool is full again: every object came back, nothing was invented. */
static int
check_full(struct rte_mempool *mp)
{
	TEST_ASSERT_EQUAL(rte_mempool_avail_count(mp), mp->size,
			  "pool %s not full", mp->name);
	TEST_ASSERT_EQUAL(rte_mempool_in_use_count(mp), 0, "pool %s", mp->name);
	return TEST_SUCCESS;
}

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
		if (strcmp(rte_mempool_ops_table.ops[i].name, OPS) == 0)
			found++;
	TEST_ASSERT_EQUAL(found, 1, "ops \"%s\" registrations", OPS);
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
						SOCKET_ID_ANY, OPS);
				else
					mp = mu_pool_create(name, n,
						shapes[s].room_or_elt, caches[c],
						0);
				TEST_ASSERT_NOT_NULL(mp, "create %s: %s", name,
						     rte_strerror(rte_errno));
				TEST_ASSERT_EQUAL(mp->populated_size, n, "%s", name);
				if (check_full(mp) != TEST_SUCCESS ||
				    check_drain(mp) != TEST_SUCCESS ||
				    check_full(mp) != TEST_SUCCESS) {
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
	TEST_RUN(check_full(mp));
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
		TEST_RUN(check_full(mp));
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
		for (b = objs[i], j = 0; j < elt; j++)
			if (b[j] != 0xa5) {
				printf("free object %u byte %u written: %#x\n",
				       i, j, b[j]);
				ret = TEST_FAILED;
				break;
			}
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
		TEST_RUN(check_full(mp));
		TEST_RUN(check_drain(mp));
		TEST_RUN(check_full(mp));
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
	TEST_RUN(check_full(mp));
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
						       OPS);
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
		if (strstr(buf, z[i].name) == NULL) {
			printf("/mbufx/pools lacks %s: %s\n", z[i].name, buf);
			ret = TEST_FAILED;
		}
	for (i = 0; i < RTE_DIM(z) && ret == TEST_SUCCESS; i++) {
		snprintf(cmd, sizeof(cmd), "/mbufx/pool,%s", z[i].name);
		if (mu_telemetry_query(cmd, buf, sizeof(buf)) != 0 ||
		    strstr(buf, z[i].cls) == NULL ||
		    strstr(buf, "\"free\":256") == NULL) {
			printf("%s: want %s, free 256: %s\n", cmd, z[i].cls, buf);
			ret = TEST_FAILED;
		}
	}
	/* not a pktmbuf pool, even with an mbuf-sized element */
	if (ret == TEST_SUCCESS &&
	    (mu_telemetry_query("/mbufx/pool,tz_plain", buf, sizeof(buf)) != 0 ||
	     strstr(buf, "\"class\":\"generic\"") == NULL)) {
		printf("tz_plain: %s\n", buf);
		ret = TEST_FAILED;
	}
	/* an unknown pool is an error, not an empty answer */
	if (ret == TEST_SUCCESS &&
	    (mu_telemetry_query("/mbufx/pool,nosuchpool", buf, sizeof(buf)) != 0 ||
	     strstr(buf, "null") == NULL)) {
		printf("unknown pool: %s\n", buf);
		ret = TEST_FAILED;
	}
out:
	for (i = 0; i < RTE_DIM(z); i++)
		rte_mempool_free(mp[i]);
	rte_mempool_free(plain);
	/* a freed pool leaves the list */
	if (ret == TEST_SUCCESS &&
	    (mu_telemetry_query("/mbufx/pools", buf, sizeof(buf)) != 0 ||
	     strstr(buf, "tz_pkt") != NULL)) {
		printf("freed pools still listed: %s\n", buf);
		ret = TEST_FAILED;
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
	if (ret == 0 && b.ret != 0)
		printf("bulk get/put of %u objects failed\n", BIG_BULK);
	if (ret == 0 && b.ret == 0 && check_full(b.mp) != TEST_SUCCESS)
		b.ret = -1;
	rte_mempool_free(b.mp);
	if (ret != 0)
		return TEST_SKIPPED;
	return b.ret == 0 ? TEST_SUCCESS : TEST_FAILED;
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

/*
 * Stress: two lcores and a non-EAL thread get, hand over through rings and
 * put random bursts. Every object carries its index; an ownership flag per
 * object is claimed on get and released before put, so an object handed out
 * twice, or one that vanished, is caught.
 */
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

static int
stress_run(unsigned int cache)
{
	struct stress *st;
	pthread_t tid;
	unsigned int worker, i;
	void *objs[STRESS_BURST];
	char name[32];
	int ret = TEST_SUCCESS;

	worker = rte_get_next_lcore(-1, 1, 0);
	if (worker >= RTE_MAX_LCORE) {
		printf("needs 2 lcores\n");
		return TEST_SKIPPED;
	}
	st = rte_zmalloc("stress", sizeof(*st), 0);
	TEST_ASSERT_NOT_NULL(st, "zmalloc");
	snprintf(name, sizeof(name), "stress_%u", cache);
	st->mp = mu_pool_create(name, STRESS_OBJS, 64, cache, 0);
	TEST_ASSERT_NOT_NULL(st->mp, "create");
	rte_mempool_obj_iter(st->mp, mu_obj_set_index, NULL);
	for (i = 0; i < 2; i++) {
		snprintf(name, sizeof(name), "stress_r%u_%u", cache, i);
		st->ring[i] = rte_ring_create(name, 4096, SOCKET_ID_ANY, 0);
		TEST_ASSERT_NOT_NULL(st->ring[i], "ring");
	}
	st->deadline = rte_get_timer_cycles() + rte_get_timer_hz() * 3 / 2;

	rte_eal_remote_launch(stress_lcore, st, worker);
	TEST_ASSERT_SUCCESS(pthread_create(&tid, NULL, stress_thread, st),
			    "pthread_create");
	stress_loop(st, 0);
	rte_eal_wait_lcore(worker);
	pthread_join(tid, NULL);

	for (i = 0; i < 2; i++) {
		unsigned int got;

		while ((got = rte_ring_dequeue_burst(st->ring[i], objs,
						     STRESS_BURST, NULL)) > 0)
			rte_mempool_put_bulk(st->mp, objs, got);
	}
	printf("cache %u: ops lcore A %" PRIu64 ", lcore B %" PRIu64
	       ", non-EAL %" PRIu64 ", duplicates %u\n", cache, st->ops[0],
	       st->ops[1], st->ops[2], st->dup);
	if (st->dup != 0 || st->ops[0] == 0 || st->ops[1] == 0 ||
	    st->ops[2] == 0)
		ret = TEST_FAILED;
	/* caches of other lcores hold objects: flush them to count exactly */
	if (ret == TEST_SUCCESS && cache == 0 &&
	    (check_full(st->mp) != TEST_SUCCESS ||
	     check_drain(st->mp) != TEST_SUCCESS))
		ret = TEST_FAILED;
	if (ret == TEST_SUCCESS && cache != 0 &&
	    rte_mempool_avail_count(st->mp) != STRESS_OBJS) {
		printf("lost objects: %u of %u\n",
		       rte_mempool_avail_count(st->mp), STRESS_OBJS);
		ret = TEST_FAILED;
	}
	rte_ring_free(st->ring[0]);
	rte_ring_free(st->ring[1]);
	rte_mempool_free(st->mp);
	rte_free(st);
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

/*
 * Jumbo-class memory: every 9000-byte data buffer is IOVA-contiguous (checked
 * at both ends with rte_mem_virt2iova), buf_iova agrees, and in IOVA-as-VA
 * mode the whole pool is one chunk.
 */
struct iova_check {
	unsigned int bad;
	unsigned int n;
};

static void
jumbo_check_obj(struct rte_mempool *mp, void *arg, void *obj, unsigned int i)
{
	struct iova_check *c = arg;
	struct rte_mbuf *m = obj;
	char *first = m->buf_addr, *last = first + m->buf_len - 1;
	rte_iova_t a = rte_mem_virt2iova(first), b = rte_mem_virt2iova(last);

	RTE_SET_USED(mp);
	RTE_SET_USED(i);
	c->n++;
	if (a == RTE_BAD_IOVA || b == RTE_BAD_IOVA || b - a != m->buf_len - 1u ||
	    a != m->buf_iova)
		c->bad++;
}

static int
jumbo_pool_check(unsigned int n, unsigned int room, unsigned int cache)
{
	struct rte_mempool *mp;
	struct rte_mbuf **m;
	struct iova_check c = { 0, 0 };
	char name[32];
	unsigned int i;
	int ret = TEST_SUCCESS;

	snprintf(name, sizeof(name), "jumbo_%u_%u", n, cache);
	mp = rte_pktmbuf_pool_create_by_ops(name, n, cache, 0, room,
					    SOCKET_ID_ANY, OPS);
	TEST_ASSERT_NOT_NULL(mp, "create %s: %s", name, rte_strerror(rte_errno));
	rte_mempool_obj_iter(mp, jumbo_check_obj, &c);
	printf("%s: %u objects, %u chunks, IOVA mode %s, %u not contiguous\n",
	       name, c.n, mp->nb_mem_chunks,
	       rte_eal_iova_mode() == RTE_IOVA_VA ? "VA" : "PA", c.bad);
	if (c.n != n || c.bad != 0)
		ret = TEST_FAILED;
	if (rte_eal_iova_mode() == RTE_IOVA_VA && mp->nb_mem_chunks != 1) {
		printf("VA mode: want one chunk\n");
		ret = TEST_FAILED;
	}
	/* and a 9000-byte frame fits one segment */
	m = calloc(n, sizeof(*m));
	if (ret == TEST_SUCCESS && m != NULL &&
	    rte_pktmbuf_alloc_bulk(mp, m, n) == 0) {
		for (i = 0; i < n; i++)
			if (rte_pktmbuf_append(m[i], 9000) == NULL) {
				ret = TEST_FAILED;
				break;
			}
		rte_pktmbuf_free_bulk(m, n);
	} else if (ret == TEST_SUCCESS) {
		ret = TEST_FAILED;
	}
	free(m);
	if (ret == TEST_SUCCESS)
		ret = check_full(mp);
	rte_mempool_free(mp);
	return ret;
}

static int
test_jumbo_contig(void)
{
	TEST_RUN(jumbo_pool_check(512, RTE_PKTMBUF_HEADROOM + MBUFX_JUMBO_FRAME_LEN, 0));
	TEST_RUN(jumbo_pool_check(2048, 9344, 64));
	/* 4096 x 9.5 KiB = 39 MiB: near the size where PA mode gives up */
	TEST_RUN(jumbo_pool_check(4096, 9344, 256));
	return TEST_SUCCESS;
}

/* IOVA of a byte of external memory, from its memseg (fake IOVAs here). */
static rte_iova_t
ext_iova(const void *va)
{
	const struct rte_memseg *ms = rte_mem_virt2memseg(va, NULL);

	if (ms == NULL || ms->iova == RTE_BAD_IOVA)
		return RTE_BAD_IOVA;
	return ms->iova + RTE_PTR_DIFF(va, ms->addr);
}

static void
ext_check_obj(struct rte_mempool *mp, void *arg, void *obj, unsigned int i)
{
	struct iova_check *c = arg;
	struct rte_mbuf *m = obj;
	char *first = m->buf_addr, *last = first + m->buf_len - 1;
	rte_iova_t a = ext_iova(first), b = ext_iova(last);

	RTE_SET_USED(mp);
	RTE_SET_USED(i);
	c->n++;
	if (a == RTE_BAD_IOVA || b - a != m->buf_len - 1u || a != m->buf_iova)
		c->bad++;
}

/*
 * A jumbo pool on external memory (rte_malloc_heap_memory_add) whose pages
 * are not IOVA-contiguous, in either IOVA mode: the ring driver takes it with
 * page-bounded objects, so a jumbo-class pool must too (no IOVA-contiguous chunk
 * to be had, in VA mode as well: external memory has its own IOVAs).
 */
#define EXT_PAGES 16
static int
test_jumbo_external_memory(void)
{
	const size_t pg = RTE_PGSIZE_2M, len = EXT_PAGES * pg;
	rte_iova_t iovas[EXT_PAGES];
	struct rte_mempool *mp;
	struct iova_check c = { 0, 0 };
	unsigned int i, n = 1024;
	int socket, ret = TEST_SUCCESS;
	void *base, *va;

	base = mmap(NULL, len + pg, PROT_READ | PROT_WRITE,
		    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	TEST_ASSERT(base != MAP_FAILED, "mmap");
	va = RTE_PTR_ALIGN_CEIL(base, pg);
	/* every page somewhere else: no two pages IOVA-contiguous */
	for (i = 0; i < EXT_PAGES; i++)
		iovas[i] = (rte_iova_t)1 << 36 | (rte_iova_t)(EXT_PAGES - i) *
			4 * pg;
	if (rte_malloc_heap_create("mbufx_ext") != 0 ||
	    rte_malloc_heap_memory_add("mbufx_ext", va, len, iovas, EXT_PAGES,
				       pg) != 0) {
		printf("external heap: %s\n", rte_strerror(rte_errno));
		rte_malloc_heap_destroy("mbufx_ext");
		munmap(base, len + pg);
		return TEST_FAILED;
	}
	socket = rte_malloc_heap_get_socket("mbufx_ext");

	/* the premise: the stock driver succeeds here */
	mp = rte_pktmbuf_pool_create_by_ops("ext_ring", n, 0, 0, 9344, socket,
					    "ring_mp_mc");
	if (mp == NULL) {
		printf("ring driver on external memory: %s\n",
		       rte_strerror(rte_errno));
		ret = TEST_FAILED;
	}
	rte_mempool_free(mp);

	mp = rte_pktmbuf_pool_create_by_ops("ext_jumbo", n, 0, 0, 9344, socket,
					    OPS);
	if (ret == TEST_SUCCESS && mp == NULL) {
		printf("jumbo pool on external memory (IOVA mode %s): %s\n",
		       rte_eal_iova_mode() == RTE_IOVA_VA ? "VA" : "PA",
		       rte_strerror(rte_errno));
		ret = TEST_FAILED;
	}
	if (mp != NULL) {
		rte_mempool_obj_iter(mp, ext_check_obj, &c);
		printf("external memory: %u objects, %u chunks, %u not "
		       "IOVA-contiguous\n", c.n, mp->nb_mem_chunks, c.bad);
		if (c.n != n || c.bad != 0 || check_full(mp) != TEST_SUCCESS ||
		    check_drain(mp) != TEST_SUCCESS)
			ret = TEST_FAILED;
		rte_mempool_free(mp);
	}
	if (rte_malloc_heap_memory_remove("mbufx_ext", va, len) != 0 ||
	    rte_malloc_heap_destroy("mbufx_ext") != 0) {
		printf("external heap not released: %s\n",
		       rte_strerror(rte_errno));
		ret = TEST_FAILED;
	}
	munmap(base, len + pg);
	return ret;
}

/*
 * Other ways to populate a jumbo pool: anonymous memory
 * (rte_mempool_populate_anon), and RTE_MEMPOOL_F_NO_IOVA_CONTIG. Wherever the
 * ring driver populates the pool, the jumbo class does too, with every object
 * IOVA-contiguous when its IOVA is known.
 */
static struct rte_mempool *
jumbo_pool_by(const char *name, const char *ops, unsigned int n,
	      unsigned int flags, int anon)
{
	struct rte_pktmbuf_pool_private priv = {
		.mbuf_data_room_size = 9344,
		.mbuf_priv_size = 0,
	};
	struct rte_mempool *mp;
	int ret;

	mp = rte_mempool_create_empty(name, n, sizeof(struct rte_mbuf) + 9344,
				      0, sizeof(priv), SOCKET_ID_ANY, flags);
	if (mp == NULL)
		return NULL;
	if (rte_mempool_set_ops_byname(mp, ops, NULL) != 0)
		goto fail;
	rte_pktmbuf_pool_init(mp, &priv);
	ret = anon ? rte_mempool_populate_anon(mp) :
		rte_mempool_populate_default(mp);
	if (ret != (int)n)
		goto fail;
	rte_mempool_obj_iter(mp, rte_pktmbuf_init, NULL);
	return mp;
fail:
	rte_mempool_free(mp);
	return NULL;
}

static void
iova_known_check(struct rte_mempool *mp, void *arg, void *obj, unsigned int i)
{
	if (rte_mempool_virt2iova(obj) == RTE_BAD_IOVA)
		return;
	jumbo_check_obj(mp, arg, obj, i);
}

static int
test_jumbo_populate_variants(void)
{
	static const struct {
		const char *name;
		unsigned int flags;
		int anon;
	} v[] = {
		{ "default", 0, 0 },
		{ "anon", 0, 1 },
		{ "no_iova_contig", RTE_MEMPOOL_F_NO_IOVA_CONTIG, 0 },
		{ "no_iova_contig_anon", RTE_MEMPOOL_F_NO_IOVA_CONTIG, 1 },
	};
	struct rte_mempool *mp;
	struct iova_check c;
	unsigned int i, n = 600;
	int ring_ok, ret = TEST_SUCCESS;

	for (i = 0; i < RTE_DIM(v); i++) {
		mp = jumbo_pool_by("jv_ring", "ring_mp_mc", n, v[i].flags,
				   v[i].anon);
		ring_ok = mp != NULL;
		rte_mempool_free(mp);
		mp = jumbo_pool_by("jv_mbufx", OPS, n, v[i].flags, v[i].anon);
		printf("jumbo pool, %s: ring %s, mbufx %s", v[i].name,
		       ring_ok ? "populated" : "failed",
		       mp != NULL ? "populated" : "failed");
		if (mp == NULL) {
			printf("\n");
			if (ring_ok)
				ret = TEST_FAILED;
			continue;
		}
		c = (struct iova_check){ 0, 0 };
		rte_mempool_obj_iter(mp, iova_known_check, &c);
		printf(", %u chunks, %u of %u checked objects not "
		       "IOVA-contiguous\n", mp->nb_mem_chunks, c.bad, c.n);
		if (c.bad != 0 || check_full(mp) != TEST_SUCCESS ||
		    check_drain(mp) != TEST_SUCCESS)
			ret = TEST_FAILED;
		rte_mempool_free(mp);
	}
	return ret;
}

/*
 * The placement of a jumbo pool in IOVA-as-VA mode, as a user reads it.
 * rte_mempool_populate_default() sizes and populates a pool chunk by chunk
 * (halving its reservations on ENOMEM); pool_step() is one of its steps, done
 * by hand so that the chunks are known: ask the driver for the size of the
 * rest, reserve at most step bytes, populate them. (The driver's pool state
 * exists from the first populate on, so the first step is sized by the
 * default rule: page-bounded, as under a fragmented heap.)
 */
static void
step_mz_free(struct rte_mempool_memhdr *memhdr, void *opaque)
{
	RTE_SET_USED(memhdr);
	rte_memzone_free(opaque);
}

static int
pool_step(struct rte_mempool *mp, size_t step, unsigned int id)
{
	const struct rte_mempool_ops *ops = rte_mempool_get_ops(mp->ops_index);
	const struct rte_memzone *mz;
	size_t min_chunk, align, pg = RTE_PGSIZE_2M;
	char name[RTE_MEMZONE_NAMESIZE];
	unsigned int flags = 0;
	ssize_t sz;
	int n;

	sz = ops->calc_mem_size(mp, mp->size - mp->populated_size,
				rte_bsf64(pg), &min_chunk, &align);
	if (sz < 0)
		return (int)sz;
	if (min_chunk == (size_t)sz)
		flags = RTE_MEMZONE_IOVA_CONTIG;
	snprintf(name, sizeof(name), "%s_s%u", mp->name, id);
	mz = rte_memzone_reserve_aligned(name, RTE_MIN((size_t)sz, step),
					 mp->socket_id, flags, align);
	if (mz == NULL)
		return -rte_errno;
	if (flags != 0)
		n = rte_mempool_populate_iova(mp, mz->addr, mz->iova, mz->len,
					      step_mz_free, (void *)(uintptr_t)mz);
	else
		n = rte_mempool_populate_virt(mp, mz->addr, mz->len, pg,
					      step_mz_free, (void *)(uintptr_t)mz);
	if (n <= 0)
		rte_memzone_free(mz);
	return n;
}

/* An empty jumbo-class pktmbuf pool on the driver, populated step by step. */
static struct rte_mempool *
jumbo_pool_steps(const char *name, unsigned int n, int socket, size_t step)
{
	struct rte_pktmbuf_pool_private priv = {
		.mbuf_data_room_size = 9344,
	};
	struct rte_mempool *mp;
	unsigned int id = 0;

	mp = rte_mempool_create_empty(name, n, sizeof(struct rte_mbuf) + 9344,
				      0, sizeof(priv), socket, 0);
	if (mp == NULL)
		return NULL;
	if (rte_mempool_set_ops_byname(mp, OPS, NULL) != 0)
		goto fail;
	rte_pktmbuf_pool_init(mp, &priv);
	while (mp->populated_size < mp->size)
		if (pool_step(mp, step, id++) <= 0)
			goto fail;
	rte_mempool_obj_iter(mp, rte_pktmbuf_init, NULL);
	return mp;
fail:
	rte_mempool_free(mp);
	return NULL;
}

/* Lines of the log text buf about pool name that contain what. */
static unsigned int
log_lines_of(const char *buf, const char *name, const char *what)
{
	char key[RTE_MEMPOOL_NAMESIZE + 32];
	const char *p = buf, *eol, *w;
	unsigned int k = 0;

	snprintf(key, sizeof(key), "mbufx_mempool: pool %s:", name);
	while ((p = strstr(p, key)) != NULL) {
		eol = strchr(p, '\n');
		if (eol == NULL)
			eol = p + strlen(p);
		w = what == NULL ? p : strstr(p, what);
		if (w != NULL && w < eol)
			k++;
		p = eol;
	}
	return k;
}

/* /mbufx/pool's iova_contig_pool for name: 0 or 1, -1 when unreachable. */
static int
tel_iova_contig(const char *name)
{
	char buf[4096], cmd[128];

	snprintf(cmd, sizeof(cmd), "/mbufx/pool,%s", name);
	if (mu_telemetry_query(cmd, buf, sizeof(buf)) != 0)
		return -1;
	if (strstr(buf, "\"iova_contig_pool\":1") != NULL)
		return 1;
	if (strstr(buf, "\"iova_contig_pool\":0") != NULL)
		return 0;
	printf("%s: no iova_contig_pool: %s\n", cmd, buf);
	return -1;
}

/* A jumbo pool on external memory, populated in steps: one placement line. */
static int
placement_logged_once(void)
{
	const size_t pg = RTE_PGSIZE_2M, len = EXT_PAGES * pg;
	rte_iova_t iovas[EXT_PAGES];
	struct rte_mempool *mp;
	int logtype, level, socket, ret = TEST_SUCCESS;
	unsigned int i, lines, placement;
	char *logbuf = NULL;
	size_t logsz = 0;
	FILE *log;
	void *base, *va;

	base = mmap(NULL, len + pg, PROT_READ | PROT_WRITE,
		    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	TEST_ASSERT(base != MAP_FAILED, "mmap");
	va = RTE_PTR_ALIGN_CEIL(base, pg);
	for (i = 0; i < EXT_PAGES; i++)
		iovas[i] = (rte_iova_t)1 << 36 | (rte_iova_t)(EXT_PAGES - i) *
			4 * pg;
	if (rte_malloc_heap_create("mbufx_place") != 0 ||
	    rte_malloc_heap_memory_add("mbufx_place", va, len, iovas,
				       EXT_PAGES, pg) != 0) {
		printf("external heap: %s\n", rte_strerror(rte_errno));
		rte_malloc_heap_destroy("mbufx_place");
		munmap(base, len + pg);
		return TEST_FAILED;
	}
	socket = rte_malloc_heap_get_socket("mbufx_place");

	logtype = rte_log_register("pmd.mempool.mbufx");
	level = rte_log_get_level(logtype);
	log = open_memstream(&logbuf, &logsz);
	TEST_ASSERT_NOT_NULL(log, "open_memstream");
	rte_log_set_level(logtype, RTE_LOG_DEBUG);
	rte_openlog_stream(log);
	/* 1024 x 9.5 KiB in 2 MiB steps: every step past the first probes */
	mp = jumbo_pool_steps("place_ext", 1024, socket, pg);
	rte_openlog_stream(NULL);
	rte_log_set_level(logtype, level);
	fclose(log);
	if (mp == NULL) {
		printf("place_ext: %s\n", rte_strerror(rte_errno));
		ret = TEST_FAILED;
	} else {
		lines = log_lines_of(logbuf, "place_ext", NULL);
		placement = log_lines_of(logbuf, "place_ext", "placement");
		printf("place_ext: %u chunks, %u log lines, %u on placement:"
		       "\n%s", mp->nb_mem_chunks, lines, placement, logbuf);
		if (placement != 1)
			ret = TEST_FAILED;
		if (check_full(mp) != TEST_SUCCESS)
			ret = TEST_FAILED;
	}
	free(logbuf);
	rte_mempool_free(mp);
	if (rte_malloc_heap_memory_remove("mbufx_place", va, len) != 0 ||
	    rte_malloc_heap_destroy("mbufx_place") != 0) {
		printf("external heap not released: %s\n",
		       rte_strerror(rte_errno));
		ret = TEST_FAILED;
	}
	munmap(base, len + pg);

	return ret;
}

/*
 * IOVA-as-VA mode. A pool whose memory has no IOVA-contiguous run falls back
 * to page-bounded placement and says so in ONE log line, however many steps
 * populate it (OVS rate-limits DPDK's log: one line per step drowned its
 * other messages). And iova_contig_pool describes the pool: 1 for a pool in
 * one IOVA-contiguous chunk, 0 for one of two chunks even when each chunk is
 * packed.
 */
static int
test_jumbo_placement_va(void)
{
	struct rte_mempool *mp;
	int ret = TEST_SUCCESS, c;

	if (rte_eal_iova_mode() != RTE_IOVA_VA) {
		printf("IOVA mode PA: the one-chunk placement is VA mode's\n");
		return TEST_SKIPPED;
	}
	/*
	 * External memory, no two pages IOVA-contiguous: every probe fails
	 * (without hugepages the EAL calls such memory contiguous).
	 */
	if (rte_eal_has_hugepages())
		ret = placement_logged_once();
	/* the EAL's memory: one chunk, then the same pool in two chunks */
	mp = jumbo_pool_steps("place_one", 512, SOCKET_ID_ANY, SIZE_MAX);
	TEST_ASSERT_NOT_NULL(mp, "place_one: %s", rte_strerror(rte_errno));
	c = tel_iova_contig("place_one");
	printf("place_one: %u chunks, iova_contig_pool %d\n",
	       mp->nb_mem_chunks, c);
	if (mp->nb_mem_chunks != 1 || c != 1)
		ret = TEST_FAILED;
	rte_mempool_free(mp);
	/* 512 x 9.5 KiB = 4.7 MiB in 3 MiB steps: two packed chunks */
	mp = jumbo_pool_steps("place_two", 512, SOCKET_ID_ANY, 3u << 20);
	TEST_ASSERT_NOT_NULL(mp, "place_two: %s", rte_strerror(rte_errno));
	c = tel_iova_contig("place_two");
	printf("place_two: %u chunks, iova_contig_pool %d\n",
	       mp->nb_mem_chunks, c);
	if (mp->nb_mem_chunks != 2 || c != 0 || check_full(mp) != TEST_SUCCESS)
		ret = TEST_FAILED;
	rte_mempool_free(mp);
	return ret;
}

static const struct mbufx_test_suite jumbo_suite = {
	.name = "mempool_mbufx_jumbo",
	.cases = {
		MBUFX_TEST_CASE(test_jumbo_contig),
		MBUFX_TEST_CASE(test_jumbo_external_memory),
		MBUFX_TEST_CASE(test_jumbo_populate_variants),
		MBUFX_TEST_CASE(test_jumbo_placement_va),
		MBUFX_TEST_CASES_END(),
	},
};

static int
test_mempool_mbufx_jumbo(void)
{
	return mbufx_test_suite_run(&jumbo_suite);
}

MBUFX_TEST_REGISTER(mempool_mbufx_jumbo_autotest, test_mempool_mbufx_jumbo);
