/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The mbufx authors
 */

#ifndef XDP_CHECK_H
#define XDP_CHECK_H

/*
 * The checks of the standalone test programs under test/xdp (the receive
 * and transmit core tests, the pool check): one family. A failed check
 * prints one line, where, what and why:
 *
 *   FAIL test_xdp_tx.c:210 test_out_of_order: fk_tx_consume(&fk, RING) == 4:
 *   3 != 4: consumed
 *
 * (the file and line, the function, the expression as written, for CHECK_EQ
 * both values, evaluated once, then the message), counts the failure in
 * check_failures and leaves: CHECK and CHECK_EQ return -1 from the
 * function, the _GOTO forms jump to its cleanup label. A program defines
 * the counter once (CHECK_COUNTER) and exits 1 unless it is 0.
 */

#include <inttypes.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

extern int check_failures;
#define CHECK_COUNTER int check_failures

static inline void __attribute__((format(printf, 5, 6)))
xdp_check_fail(const char *file, int line, const char *func,
	       const char *what, const char *fmt, ...)
{
	const char *base = strrchr(file, '/');
	va_list ap;

	printf("FAIL %s:%d %s: %s: ", base != NULL ? base + 1 : file, line,
	       func, what);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	fflush(stdout);
	check_failures++;
}

/* the expression is spelled by the public macros, before expansion */
#define CHECK_DO(on_fail, expr, cond, ...) do {			\
	if (!(cond)) {							\
		xdp_check_fail(__FILE__, __LINE__, __func__, expr,	\
			       __VA_ARGS__);				\
		on_fail;						\
	}								\
} while (0)

#define CHECK_EQ_DO(on_fail, expr, a, b, ...) do {			\
	const intmax_t xc_a_ = (intmax_t)(a), xc_b_ = (intmax_t)(b);	\
	char xc_what_[256];						\
									\
	if (xc_a_ != xc_b_) {						\
		snprintf(xc_what_, sizeof(xc_what_), "%s: %jd != %jd",	\
			 expr, xc_a_, xc_b_);				\
		xdp_check_fail(__FILE__, __LINE__, __func__, xc_what_,	\
			       __VA_ARGS__);				\
		on_fail;						\
	}								\
} while (0)

/* cond holds, else fail and return -1 */
#define CHECK(cond, ...) CHECK_DO(return -1, #cond, cond, __VA_ARGS__)
/* a == b (integers), else fail showing both and return -1 */
#define CHECK_EQ(a, b, ...) \
	CHECK_EQ_DO(return -1, #a " == " #b, a, b, __VA_ARGS__)
/* the same, jumping to label instead of returning */
#define CHECK_GOTO(label, cond, ...) \
	CHECK_DO(goto label, #cond, cond, __VA_ARGS__)
#define CHECK_EQ_GOTO(label, a, b, ...) \
	CHECK_EQ_DO(goto label, #a " == " #b, a, b, __VA_ARGS__)

#endif /* XDP_CHECK_H */
