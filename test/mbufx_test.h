/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The mbufx authors
 */

/**
 * @file
 * The mbufx autotest framework.
 *
 * One runner binary (mbufx-test) holds every autotest. An autotest is a
 * command registered with MBUFX_TEST_REGISTER() under a name ending in
 * "_autotest" (or "_perf_autotest" for benchmarks). The runner initialises the
 * EAL once, then runs the commands named after the EAL arguments:
 *
 *     mbufx-test -l 0-1 --no-pci --file-prefix=t1 driver_autotest
 *
 * A command returns TEST_SUCCESS, TEST_SKIPPED or TEST_FAILED; the runner
 * exits 0 when every command passed, 77 when all were skipped and 1 when one
 * failed. Meson registers each autotest as its own test with its own
 * --file-prefix, so EAL state never leaks from one test into another.
 *
 * DPDK's own app/test/test.h is not installed by Debian; this header keeps
 * its spirit (assert macros that print the location and return, suites of
 * cases with setup and teardown) without depending on it.
 */

#ifndef MBUFX_TEST_H
#define MBUFX_TEST_H

#include <stdio.h>
#include <string.h>
#include <sys/queue.h>

#include <rte_common.h>

#define TEST_SUCCESS 0
#define TEST_FAILED -1
#define TEST_SKIPPED 77

/*
 * Assertions. Every failure prints one line through TEST_FAIL_MSG():
 *
 *     FAIL file.c:123 func(): <expression>[: <values>]: <message>
 *
 * TEST_ASSERT*() return TEST_FAILED from the calling function at the first
 * failure. TEST_EXPECT*(ret, ...) print the same line, set ret to
 * TEST_FAILED and go on, for a test that must release what it holds (pools,
 * heaps, lcores) before returning ret.
 */
#define TEST_FAIL_MSG(msg, ...)						\
	printf("FAIL %s:%d %s(): " msg "\n", __FILE__, __LINE__, __func__,	\
	       ##__VA_ARGS__)

/*
 * The checks behind them: fail is what to do on failure; the public macros
 * pass the expressions as written (#a), not macro-expanded.
 */
#define TEST_CHECK_(cond, cs, fail, msg, ...) do {			\
	if (!(cond)) {							\
		TEST_FAIL_MSG("%s: " msg, cs, ##__VA_ARGS__);		\
		fail;							\
	}								\
} while (0)

#define TEST_CHECK_EQUAL_(a, b, as, bs, fail, msg, ...) do {		\
	long long a_ = (long long)(a), b_ = (long long)(b);		\
	if (a_ != b_) {							\
		TEST_FAIL_MSG("%s == %s: %lld != %lld: " msg, as, bs,	\
			      a_, b_, ##__VA_ARGS__);			\
		fail;							\
	}								\
} while (0)

#define TEST_CHECK_NOT_EQUAL_(a, b, as, bs, fail, msg, ...) do {	\
	long long a_ = (long long)(a), b_ = (long long)(b);		\
	if (a_ == b_) {							\
		TEST_FAIL_MSG("%s != %s: both %lld: " msg, as, bs, a_,	\
			      ##__VA_ARGS__);				\
		fail;							\
	}								\
} while (0)

#define TEST_CHECK_FAIL_(val, vs, fail, msg, ...) do {			\
	if ((val) == 0) {						\
		TEST_FAIL_MSG("%s failed to fail: " msg, vs,		\
			      ##__VA_ARGS__);				\
		fail;							\
	}								\
} while (0)

#define TEST_CHECK_NULL_(p, ps, fail, msg, ...) do {			\
	const void *p_ = (p);						\
	if (p_ != NULL) {						\
		TEST_FAIL_MSG("%s is %p, not NULL: " msg, ps, p_,	\
			      ##__VA_ARGS__);				\
		fail;							\
	}								\
} while (0)

#define TEST_CHECK_NOT_NULL_(p, ps, fail, msg, ...) do {		\
	if ((p) == NULL) {						\
		TEST_FAIL_MSG("%s is NULL: " msg, ps, ##__VA_ARGS__);	\
		fail;							\
	}								\
} while (0)

/** cond holds (the message gives the values that matter). */
#define TEST_ASSERT(cond, msg, ...) \
	TEST_CHECK_(cond, #cond, return TEST_FAILED, msg, ##__VA_ARGS__)
/** a == b as integers; both values printed. */
#define TEST_ASSERT_EQUAL(a, b, msg, ...) \
	TEST_CHECK_EQUAL_(a, b, #a, #b, return TEST_FAILED, msg, ##__VA_ARGS__)
/** a != b as integers; the value printed. */
#define TEST_ASSERT_NOT_EQUAL(a, b, msg, ...) \
	TEST_CHECK_NOT_EQUAL_(a, b, #a, #b, return TEST_FAILED, msg, \
			      ##__VA_ARGS__)
/** val == 0; the value printed. */
#define TEST_ASSERT_SUCCESS(val, msg, ...) \
	TEST_CHECK_EQUAL_(val, 0, #val, "0", return TEST_FAILED, msg, \
			  ##__VA_ARGS__)
/** val != 0. */
#define TEST_ASSERT_FAIL(val, msg, ...) \
	TEST_CHECK_FAIL_(val, #val, return TEST_FAILED, msg, ##__VA_ARGS__)
/** p == NULL; the pointer printed. */
#define TEST_ASSERT_NULL(p, msg, ...) \
	TEST_CHECK_NULL_(p, #p, return TEST_FAILED, msg, ##__VA_ARGS__)
/** p != NULL. */
#define TEST_ASSERT_NOT_NULL(p, msg, ...) \
	TEST_CHECK_NOT_NULL_(p, #p, return TEST_FAILED, msg, ##__VA_ARGS__)

/** As TEST_ASSERT*(), setting ret to TEST_FAILED instead of returning. */
#define TEST_EXPECT(ret, cond, msg, ...) \
	TEST_CHECK_(cond, #cond, (ret) = TEST_FAILED, msg, ##__VA_ARGS__)
#define TEST_EXPECT_EQUAL(ret, a, b, msg, ...) \
	TEST_CHECK_EQUAL_(a, b, #a, #b, (ret) = TEST_FAILED, msg, \
			  ##__VA_ARGS__)
#define TEST_EXPECT_SUCCESS(ret, val, msg, ...) \
	TEST_CHECK_EQUAL_(val, 0, #val, "0", (ret) = TEST_FAILED, msg, \
			  ##__VA_ARGS__)
#define TEST_EXPECT_NOT_NULL(ret, p, msg, ...) \
	TEST_CHECK_NOT_NULL_(p, #p, (ret) = TEST_FAILED, msg, ##__VA_ARGS__)

/** Run a sub-test and return its failure (or skip) to the caller. */
#define TEST_RUN(fn) do {						\
	int r_ = (fn);							\
	if (r_ != TEST_SUCCESS)						\
		return r_;						\
} while (0)

/** One case of a suite. */
struct mbufx_test_case {
	const char *name;
	int (*setup)(void);	/**< may be NULL */
	void (*teardown)(void);	/**< may be NULL */
	int (*fn)(void);
};

/** A named list of cases, ended by an entry with fn == NULL. */
struct mbufx_test_suite {
	const char *name;
	int (*setup)(void);	/**< may be NULL; a skip skips the suite */
	void (*teardown)(void);	/**< may be NULL */
	struct mbufx_test_case cases[];
};

#define MBUFX_TEST_CASE(fn) { #fn, NULL, NULL, fn }
#define MBUFX_TEST_CASE_ST(setup, teardown, fn) { #fn, setup, teardown, fn }
#define MBUFX_TEST_CASES_END() { NULL, NULL, NULL, NULL }

/**
 * Run every case of a suite, print one line per case and a summary.
 *
 * @return
 *   TEST_SUCCESS when no case failed and at least one passed, TEST_SKIPPED
 *   when every case skipped, TEST_FAILED otherwise.
 */
int mbufx_test_suite_run(const struct mbufx_test_suite *suite);

/** A command of the runner. */
struct mbufx_test_cmd {
	TAILQ_ENTRY(mbufx_test_cmd) next;
	const char *name;
	int (*fn)(void);
};

void mbufx_test_register(struct mbufx_test_cmd *cmd);

#define MBUFX_TEST_REGISTER(cmd, func)					\
static struct mbufx_test_cmd mbufx_test_cmd_##cmd = {			\
	.name = RTE_STR(cmd),						\
	.fn = func,							\
};									\
RTE_INIT(mbufx_test_register_##cmd)					\
{									\
	mbufx_test_register(&mbufx_test_cmd_##cmd);			\
}

/**
 * Seed for randomised tests: MBUFX_TEST_SEED from the environment when set,
 * otherwise the TSC. The runner prints it so that a failure replays.
 */
uint64_t mbufx_test_seed(void);

/** Non-zero when the EAL runs without hugepages (--no-huge). */
int mbufx_test_no_huge(void);

/**
 * A numeric knob from the environment: *v = def when @p name is not set,
 * else its value (decimal or 0x hex, nothing after it) when in [min, max].
 * A typo must not turn a test into one that cannot fail (a step count of
 * 0): anything else prints why and returns -EINVAL.
 */
int mbufx_test_env_u64(const char *name, uint64_t def, uint64_t min,
		uint64_t max, uint64_t *v);

/*
 * Exit code of the runner when rte_eal_init() fails. For a secondary this is
 * mostly the primary's hugepage addresses already taken in the new process
 * (address-space randomisation; more often under ASan, whose shadow and
 * allocator map early): a property of that one exec, not of the test.
 */
#define MBUFX_TEST_EXIT_EAL_INIT 3

#endif /* MBUFX_TEST_H */
