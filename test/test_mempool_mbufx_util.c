/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The mbufx authors
 */

/* Helpers of the mempool driver autotests (see test_mempool_mbufx_util.h). */

#include <errno.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include <rte_eal.h>
#include <rte_errno.h>
#include <rte_log.h>
#include <rte_malloc.h>
#include <rte_mbuf.h>
#include <rte_memory.h>
#include <rte_mempool.h>

#include "mbufx_test.h"
#include "test_mempool_mbufx_util.h"

struct rte_mempool *
mu_pool_create(const char *name, unsigned int n, unsigned int elt,
	       unsigned int cache, unsigned int flags)
{
	struct rte_mempool *mp;
	int ret;

	mp = rte_mempool_create_empty(name, n, elt, cache, 0, SOCKET_ID_ANY,
				      flags);
	if (mp == NULL)
		return NULL;
	ret = rte_mempool_set_ops_byname(mp, "mbufx", NULL);
	if (ret == 0)
		ret = rte_mempool_populate_default(mp);
	if (ret != (int)n) {
		rte_mempool_free(mp);
		rte_errno = ret < 0 ? -ret : ENOMEM;
		return NULL;
	}
	return mp;
}

unsigned int
mu_driver_count(const struct rte_mempool *mp)
{
	return rte_mempool_get_ops(mp->ops_index)->get_count(mp);
}

void
mu_obj_set_index(struct rte_mempool *mp, void *arg, void *obj,
		 unsigned int idx)
{
	RTE_SET_USED(mp);
	RTE_SET_USED(arg);
	*(uint32_t *)obj = idx;
}

unsigned int
mu_owned_move(uint8_t *owned, unsigned int nb, void *const *objs,
	      unsigned int n, uint8_t from, uint8_t to)
{
	unsigned int i;
	uint32_t idx;
	uint8_t want;

	for (i = 0; i < n; i++) {
		idx = mu_obj_index(objs[i]);
		want = from;
		if (idx >= nb ||
		    !__atomic_compare_exchange_n(&owned[idx], &want, to, 0,
						 __ATOMIC_ACQ_REL,
						 __ATOMIC_RELAXED))
			break;
	}
	return i;
}

int
mu_strand(void *arg)
{
	struct rte_mempool *mp = arg;
	unsigned int half = mp->size / 2;
	void **objs = malloc(sizeof(void *) * mp->size);

	if (objs == NULL)
		return -1;
	if (rte_mempool_generic_get(mp, objs, mp->size, NULL) != 0) {
		free(objs);
		return -1;
	}
	rte_mempool_generic_put(mp, objs, half, NULL);
	rte_mempool_generic_put(mp, &objs[half], mp->size - half, NULL);
	free(objs);
	return 0;
}

static int
cmp_ptr(const void *a, const void *b)
{
	uintptr_t x = *(const uintptr_t *)a, y = *(const uintptr_t *)b;

	return x < y ? -1 : x > y;
}

int
mu_check_drain(struct rte_mempool *mp, const char *who)
{
	void **objs;
	unsigned int i;
	int ret = TEST_SUCCESS;

	objs = calloc(mp->size + 1, sizeof(*objs));
	TEST_ASSERT_NOT_NULL(objs, "calloc");
	if (rte_mempool_ops_dequeue_bulk(mp, objs, mp->size) != 0) {
		TEST_FAIL_MSG("%s: cannot take all %u objects of %s at once",
			      who, mp->size, mp->name);
		free(objs);
		return TEST_FAILED;
	}
	if (rte_mempool_ops_dequeue_bulk(mp, &objs[mp->size], 1) == 0) {
		TEST_FAIL_MSG("%s: pool %s handed out object %u of %u", who,
			      mp->name, mp->size + 1, mp->size);
		rte_mempool_ops_enqueue_bulk(mp, &objs[mp->size], 1);
		ret = TEST_FAILED;
	}
	TEST_EXPECT_EQUAL(ret, mu_driver_count(mp), 0, "%s: pool %s drained",
			  who, mp->name);
	rte_mempool_ops_enqueue_bulk(mp, objs, mp->size);
	TEST_EXPECT_EQUAL(ret, mu_driver_count(mp), mp->size,
			  "%s: pool %s, all put back", who, mp->name);
	qsort(objs, mp->size, sizeof(*objs), cmp_ptr);
	for (i = 0; i + 1 < mp->size; i++)
		TEST_EXPECT(ret, objs[i] != objs[i + 1],
			    "%s: object %p handed out twice", who, objs[i]);
	for (i = 0; i < mp->size && ret == TEST_SUCCESS; i++)
		TEST_EXPECT(ret, rte_mempool_from_obj(objs[i]) == mp,
			    "%s: object %p is not from %s", who, objs[i],
			    mp->name);
	free(objs);
	return ret;
}

int
mu_check_full(struct rte_mempool *mp)
{
	TEST_ASSERT_EQUAL(rte_mempool_avail_count(mp), mp->size,
			  "pool %s not full", mp->name);
	TEST_ASSERT_EQUAL(rte_mempool_in_use_count(mp), 0, "pool %s", mp->name);
	return TEST_SUCCESS;
}

struct rte_mempool *
mu_pktpool_empty(const char *name, const char *ops, unsigned int n,
		 uint16_t room, int socket, unsigned int flags)
{
	struct rte_pktmbuf_pool_private priv = {
		.mbuf_data_room_size = room,
		.mbuf_priv_size = 0,
	};
	struct rte_mempool *mp;

	mp = rte_mempool_create_empty(name, n, sizeof(struct rte_mbuf) + room,
				      0, sizeof(priv), socket, flags);
	if (mp == NULL)
		return NULL;
	if (rte_mempool_set_ops_byname(mp, ops, NULL) != 0) {
		rte_mempool_free(mp);
		return NULL;
	}
	rte_pktmbuf_pool_init(mp, &priv);
	return mp;
}

int
mu_ext_heap_create(struct mu_ext_heap *h, const char *name)
{
	const size_t pg = RTE_PGSIZE_2M;
	rte_iova_t iovas[MU_EXT_PAGES];
	unsigned int i;

	h->name = name;
	h->len = MU_EXT_PAGES * pg;
	h->base = mmap(NULL, h->len + pg, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	TEST_ASSERT(h->base != MAP_FAILED, "mmap %zu bytes: %s", h->len + pg,
		    strerror(errno));
	h->va = RTE_PTR_ALIGN_CEIL(h->base, pg);
	for (i = 0; i < MU_EXT_PAGES; i++)
		iovas[i] = (rte_iova_t)1 << 36 |
			(rte_iova_t)(MU_EXT_PAGES - i) * 4 * pg;
	if (rte_malloc_heap_create(name) != 0 ||
	    rte_malloc_heap_memory_add(name, h->va, h->len, iovas,
				       MU_EXT_PAGES, pg) != 0) {
		TEST_FAIL_MSG("external heap %s: %s", name,
			      rte_strerror(rte_errno));
		rte_malloc_heap_destroy(name);
		munmap(h->base, h->len + pg);
		return TEST_FAILED;
	}
	h->socket = rte_malloc_heap_get_socket(name);
	return TEST_SUCCESS;
}

int
mu_ext_heap_destroy(struct mu_ext_heap *h)
{
	int ret = TEST_SUCCESS;

	if (rte_malloc_heap_memory_remove(h->name, h->va, h->len) != 0 ||
	    rte_malloc_heap_destroy(h->name) != 0) {
		TEST_FAIL_MSG("external heap %s not released: %s", h->name,
			      rte_strerror(rte_errno));
		ret = TEST_FAILED;
	}
	munmap(h->base, h->len + RTE_PGSIZE_2M);
	return ret;
}

static char *log_buf;
static size_t log_len;
static FILE *log_f;

void
mu_log_start(void)
{
	log_f = open_memstream(&log_buf, &log_len);
	if (log_f != NULL)
		rte_openlog_stream(log_f);
}

char *
mu_log_stop(void)
{
	char *s;

	rte_openlog_stream(NULL);
	/* the buffer is final (and may have moved) only once closed */
	if (log_f != NULL)
		fclose(log_f);
	s = log_buf;
	log_f = NULL;
	log_buf = NULL;
	return s;
}

long long
mu_tel_pool_field(const char *name, const char *key, char *str, size_t len)
{
	char buf[4096], cmd[128], pat[64];
	const char *v;

	snprintf(cmd, sizeof(cmd), "/mbufx/pool,%s", name);
	if (mu_telemetry_query(cmd, buf, sizeof(buf)) != 0)
		return -1;
	snprintf(pat, sizeof(pat), "\"%s\":", key);
	v = strstr(buf, pat);
	if (v == NULL)
		return -1;
	v += strlen(pat);
	if (str != NULL && *v == '"') {
		snprintf(str, len, "%.*s", (int)strcspn(v + 1, "\""), v + 1);
		return 0;
	}
	return strtoll(v, NULL, 10);
}

int
mu_telemetry_query(const char *cmd, char *out, size_t len)
{
	struct sockaddr_un sun = { .sun_family = AF_UNIX };
	ssize_t n;
	int fd;

	snprintf(sun.sun_path, sizeof(sun.sun_path), "%s/dpdk_telemetry.v2",
		 rte_eal_get_runtime_dir());
	fd = socket(AF_UNIX, SOCK_SEQPACKET, 0);
	if (fd < 0)
		return -1;
	if (connect(fd, (struct sockaddr *)&sun, sizeof(sun)) != 0 ||
	    read(fd, out, len - 1) <= 0 ||	/* the greeting */
	    write(fd, cmd, strlen(cmd)) < 0 ||
	    (n = read(fd, out, len - 1)) <= 0) {
		close(fd);
		return -1;
	}
	out[n] = '\0';
	close(fd);
	return 0;
}

pid_t
mu_start_secondary(const char *test, const char *role, const char *const *extra)
{
	char prefix[PATH_MAX], self[PATH_MAX];
	static char file_prefix[PATH_MAX + 16];
	const char *argv[16];
	unsigned int n = 0;
	ssize_t len;
	pid_t pid;

	snprintf(prefix, sizeof(prefix), "%s", rte_eal_get_runtime_dir());
	len = readlink("/proc/self/exe", self, sizeof(self) - 1);
	if (len <= 0)
		return -1;
	self[len] = '\0';
	snprintf(file_prefix, sizeof(file_prefix), "--file-prefix=%s",
		 basename(prefix));
	argv[n++] = self;
	argv[n++] = "-l";
	argv[n++] = "1";
	argv[n++] = "--no-pci";
	argv[n++] = "--proc-type=secondary";
	argv[n++] = file_prefix;
	argv[n++] = "--log-level=lib.eal:warning";
	while (extra != NULL && *extra != NULL && n < RTE_DIM(argv) - 2)
		argv[n++] = *extra++;
	argv[n++] = test;
	argv[n] = NULL;
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		setenv("MBUFX_MP_ROLE", role, 1);
		execv(self, (char *const *)(uintptr_t)argv);
		_exit(127);
	}
	return pid;
}

int
mu_wait_secondary(pid_t pid)
{
	int status;

	if (pid < 0 || waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
		return -1;
	return WEXITSTATUS(status);
}

int
mu_run_secondary(const char *test, const char *role, const char *const *extra)
{
	int ret = -1, i;

	for (i = 0; i < 5; i++) {
		ret = mu_wait_secondary(mu_start_secondary(test, role, extra));
		if (ret != MBUFX_TEST_EXIT_EAL_INIT)
			break;
		printf("    secondary could not map the primary's memory: new exec\n");
	}
	return ret;
}
