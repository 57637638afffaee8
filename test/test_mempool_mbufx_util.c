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
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include <rte_eal.h>
#include <rte_errno.h>
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
		printf("%s: cannot take all %u objects of %s at once\n", who,
		       mp->size, mp->name);
		free(objs);
		return TEST_FAILED;
	}
	if (rte_mempool_ops_dequeue_bulk(mp, &objs[mp->size], 1) == 0) {
		printf("%s: pool %s handed out object %u of %u\n", who,
		       mp->name, mp->size + 1, mp->size);
		rte_mempool_ops_enqueue_bulk(mp, &objs[mp->size], 1);
		ret = TEST_FAILED;
	}
	if (mu_driver_count(mp) != 0) {
		printf("%s: pool %s: count %u while drained\n", who, mp->name,
		       mu_driver_count(mp));
		ret = TEST_FAILED;
	}
	rte_mempool_ops_enqueue_bulk(mp, objs, mp->size);
	if (mu_driver_count(mp) != mp->size) {
		printf("%s: pool %s: count %u after putting all back\n", who,
		       mp->name, mu_driver_count(mp));
		ret = TEST_FAILED;
	}
	qsort(objs, mp->size, sizeof(*objs), cmp_ptr);
	for (i = 0; i + 1 < mp->size; i++)
		if (objs[i] == objs[i + 1]) {
			printf("%s: object %p handed out twice\n", who, objs[i]);
			ret = TEST_FAILED;
		}
	for (i = 0; i < mp->size; i++)
		if (rte_mempool_from_obj(objs[i]) != mp) {
			printf("%s: object %p is not from %s\n", who, objs[i],
			       mp->name);
			ret = TEST_FAILED;
			break;
		}
	free(objs);
	return ret;
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
