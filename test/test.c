/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The mbufx authors
 */

/*
 * mbufx-test: the autotest runner.
 *
 * Usage: mbufx-test [EAL args] [--] name [name...] | list
 *
 * When no --no-huge / --in-memory choice was made and the machine has no
 * usable hugepages (nothing mounted, or less than MIN_HUGE_MB free), the runner
 * adds "--no-huge -m 1024" itself so the suite still runs on a machine where
 * the set-up step could not reserve hugepages; tests that need hugepages ask
 * mbufx_test_no_huge() and skip.
 */

#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <sys/vfs.h>
#include <unistd.h>

#include <rte_cycles.h>
#include <rte_eal.h>
#include <rte_errno.h>
#include <rte_lcore.h>

#include "mbufx_test.h"

#define MIN_HUGE_MB 256
#ifndef HUGETLBFS_MAGIC
#define HUGETLBFS_MAGIC 0x958458f6
#endif

static TAILQ_HEAD(, mbufx_test_cmd) cmds = TAILQ_HEAD_INITIALIZER(cmds);
static int no_huge;
static uint64_t seed;

void
mbufx_test_register(struct mbufx_test_cmd *cmd)
{
	TAILQ_INSERT_TAIL(&cmds, cmd, next);
}

uint64_t
mbufx_test_seed(void)
{
	return seed;
}

int
mbufx_test_no_huge(void)
{
	return no_huge;
}

int
mbufx_test_env_u64(const char *name, uint64_t def, uint64_t min, uint64_t max,
		   uint64_t *v)
{
	const char *s = getenv(name);
	unsigned long long x;
	char *end;

	*v = def;
	if (s == NULL)
		return 0;
	errno = 0;
	x = strtoull(s, &end, 0);
	if (s[0] < '0' || s[0] > '9' || *end != '\0' || errno != 0 ||
	    x < min || x > max) {
		printf("%s=\"%s\": expected a number in %" PRIu64 "..%" PRIu64 "\n",
		       name, s, min, max);
		return -EINVAL;
	}
	*v = x;
	return 0;
}

/* Results of cases or commands, and the verdict they make together. */
struct tally {
	unsigned int pass, fail, skip;
};

static void
tally_add(struct tally *t, int ret)
{
	if (ret == TEST_SUCCESS)
		t->pass++;
	else if (ret == TEST_SKIPPED)
		t->skip++;
	else
		t->fail++;
}

/* Failed when one failed, skipped when all that ran skipped. */
static int
tally_result(const struct tally *t)
{
	if (t->fail != 0)
		return TEST_FAILED;
	return t->pass == 0 && t->skip != 0 ? TEST_SKIPPED : TEST_SUCCESS;
}

int
mbufx_test_suite_run(const struct mbufx_test_suite *suite)
{
	const struct mbufx_test_case *tc;
	struct tally t = { 0, 0, 0 };
	int ret;

	printf(" + ------------------------------------------------------- +\n");
	printf(" + Test Suite : %s\n", suite->name);
	if (suite->setup != NULL) {
		ret = suite->setup();
		if (ret != TEST_SUCCESS) {
			printf(" + Suite setup %s\n",
			       ret == TEST_SKIPPED ? "skipped" : "FAILED");
			return ret == TEST_SKIPPED ? TEST_SKIPPED : TEST_FAILED;
		}
	}
	for (tc = suite->cases; tc->fn != NULL; tc++) {
		ret = TEST_SUCCESS;
		if (tc->setup != NULL)
			ret = tc->setup();
		if (ret == TEST_SUCCESS)
			ret = tc->fn();
		if (tc->teardown != NULL)
			tc->teardown();
		tally_add(&t, ret);
		printf(" + TestCase [%3u] : %s %s\n", t.pass + t.skip + t.fail,
		       tc->name, ret == TEST_SUCCESS ? "succeeded" :
		       ret == TEST_SKIPPED ? "skipped" : "FAILED");
		fflush(stdout);
	}
	if (suite->teardown != NULL)
		suite->teardown();
	printf(" + %s: %u passed, %u failed, %u skipped\n", suite->name,
	       t.pass, t.fail, t.skip);
	return tally_result(&t);
}

static int
hugepages_usable(void)
{
	struct statfs st;
	unsigned long free_pages = 0, size_kb = 0;
	char line[256];
	FILE *f;

	if (statfs("/dev/hugepages", &st) != 0 ||
			(unsigned long)st.f_type != HUGETLBFS_MAGIC)
		return 0;
	f = fopen("/proc/meminfo", "r");
	if (f == NULL)
		return 0;
	while (fgets(line, sizeof(line), f) != NULL) {
		sscanf(line, "HugePages_Free: %lu", &free_pages);
		sscanf(line, "Hugepagesize: %lu kB", &size_kb);
	}
	fclose(f);
	return free_pages * size_kb / 1024 >= MIN_HUGE_MB;
}

static int
has_arg(int argc, char **argv, const char *arg)
{
	int i;

	for (i = 1; i < argc; i++)
		if (strcmp(argv[i], "--") == 0)
			break;
		else if (strncmp(argv[i], arg, strlen(arg)) == 0)
			return 1;
	return 0;
}

/*
 * Tests of two build trees may run at once: make the file prefix unique per
 * process, so their hugepage files and runtime directories never meet.
 */
static void
unique_prefix(int argc, char **argv, char *buf, size_t len)
{
	int i;

	for (i = 1; i < argc; i++)
		if (strncmp(argv[i], "--file-prefix=", 14) == 0) {
			snprintf(buf, len, "%s_%d", argv[i], (int)getpid());
			argv[i] = buf;
			return;
		}
}

/* The EAL leaves its runtime directory behind: remove it at exit. */
static void
remove_runtime_dir(const char *dir)
{
	char path[PATH_MAX + NAME_MAX + 2];
	struct dirent *e;
	DIR *d;

	d = opendir(dir);
	if (d == NULL)
		return;
	while ((e = readdir(d)) != NULL) {
		if (e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		unlink(path);
	}
	closedir(d);
	rmdir(dir);
}

/*
 * Without --huge-unlink (multi-process tests, whose secondaries attach to
 * the files), memory the primary never freed (a memzone) leaves its hugepage
 * files behind: remove this primary's, named after its unique prefix.
 */
static void
remove_huge_files(const char *prefix)
{
	char path[PATH_MAX + NAME_MAX + 2], mine[NAME_MAX + 1];
	struct dirent *e;
	size_t n;
	DIR *d;

	n = (size_t)snprintf(mine, sizeof(mine), "%smap_", prefix);
	d = opendir("/dev/hugepages");
	if (d == NULL || n >= sizeof(mine)) {
		if (d != NULL)
			closedir(d);
		return;
	}
	while ((e = readdir(d)) != NULL) {
		if (strncmp(e->d_name, mine, n) != 0)
			continue;
		snprintf(path, sizeof(path), "/dev/hugepages/%s", e->d_name);
		unlink(path);
	}
	closedir(d);
}

static int
run_cmd(const char *name)
{
	struct mbufx_test_cmd *c;
	uint64_t t0;
	int ret;

	TAILQ_FOREACH(c, &cmds, next)
		if (strcmp(c->name, name) == 0)
			break;
	if (c == NULL) {
		printf("unknown test: %s (try: list)\n", name);
		return TEST_FAILED;
	}
	printf("RTE>>%s\n", name);
	fflush(stdout);
	t0 = rte_get_timer_cycles();
	ret = c->fn();
	printf("%s: %s (%.2f s)\n", name,
	       ret == TEST_SUCCESS ? "Test OK" :
	       ret == TEST_SKIPPED ? "Test Skipped" : "Test Failed",
	       (double)(rte_get_timer_cycles() - t0) / rte_get_timer_hz());
	fflush(stdout);
	return ret;
}

int
main(int argc, char **argv)
{
	char *args[argc + 4];
	char prefix[256], runtime_dir[PATH_MAX];
	struct mbufx_test_cmd *c;
	struct tally t = { 0, 0, 0 };
	const char *env;
	int nargs = argc, i, ret, secondary;

	memcpy(args, argv, sizeof(args[0]) * argc);
	/* a secondary attaches to the primary: its memory, its prefix as given */
	secondary = has_arg(argc, argv, "--proc-type=secondary");
	if (!secondary &&
	    !has_arg(argc, argv, "--no-huge") && !has_arg(argc, argv, "-m") &&
			!has_arg(argc, argv, "--socket-mem") &&
			(getenv("MBUFX_TEST_NO_HUGE") != NULL || !hugepages_usable())) {
		/* --huge-unlink is refused together with --no-huge */
		for (i = 1; i < nargs; i++)
			if (strcmp(args[i], "--huge-unlink") == 0) {
				memmove(&args[i], &args[i + 1],
					sizeof(args[0]) * (nargs - i - 1));
				nargs--;
				break;
			}
		/* insert right after argv[0]: the EAL stops at the first test name */
		memmove(&args[4], &args[1], sizeof(args[0]) * (nargs - 1));
		args[1] = (char *)(uintptr_t)"--no-huge";
		args[2] = (char *)(uintptr_t)"-m";
		args[3] = (char *)(uintptr_t)"1024";
		nargs += 3;
		printf("no usable hugepages: running with --no-huge -m 1024\n");
	}
	args[nargs] = NULL;
	no_huge = has_arg(nargs, args, "--no-huge");
	prefix[0] = '\0';
	if (!secondary)
		unique_prefix(nargs, args, prefix, sizeof(prefix));

	if (mbufx_test_env_u64("MBUFX_TEST_SEED", 0, 0, UINT64_MAX, &seed) < 0)
		return 1;
	env = getenv("MBUFX_TEST_SEED");
	ret = rte_eal_init(nargs, args);
	if (ret < 0) {
		fprintf(stderr, "EAL init failed: %s\n", rte_strerror(rte_errno));
		return MBUFX_TEST_EXIT_EAL_INIT;
	}
	if (env == NULL)
		seed = rte_rdtsc();
	printf("MBUFX_TEST_SEED=%" PRIu64 "\n", seed);
	snprintf(runtime_dir, sizeof(runtime_dir), "%s", rte_eal_get_runtime_dir());

	for (i = ret + 1; i < nargs; i++) {
		if (strcmp(args[i], "--") == 0)
			continue;
		if (strcmp(args[i], "list") == 0) {
			TAILQ_FOREACH(c, &cmds, next)
				printf("%s\n", c->name);
			continue;
		}
		tally_add(&t, run_cmd(args[i]));
	}
	printf("%u passed, %u failed, %u skipped\n", t.pass, t.fail, t.skip);
	rte_eal_cleanup();
	if (!secondary) {
		remove_runtime_dir(runtime_dir);
		if (!no_huge && strncmp(prefix, "--file-prefix=", 14) == 0)
			remove_huge_files(prefix + 14);
	}
	ret = tally_result(&t);
	return ret == TEST_FAILED ? 1 : ret;
}
