/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The mbufx authors
 */

/*
 * fuzz_cmdline: the command lines of mbufx-l3fwd and mbufx-l2fwd and the
 * option parsers of app/common/app_opts.c.
 *
 * Input: one selector byte, then NUL-separated strings.
 *   selector % 4 == 0  the strings are mbufx-l3fwd's argv after "--": parse,
 *                      then --config against the lcores, then the default
 *                      routes of the port mask
 *                 1    the same for mbufx-l2fwd (port pairs, mirror, VLAN)
 *                 2    one string to each primitive parser (number with a
 *                      range from the input, port mask, MAC, tuple list of a
 *                      width from the input), whose results are checked
 *                 3    one common option (its code from the input) and its
 *                      argument to app_opts_parse_common()
 * The parsers must never crash or read past a string, and what they accept
 * must be what they promise (a number inside its range, as many tuples as
 * fit, every value at most the maximum).
 */

#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <string.h>

#include <rte_common.h>
#include <rte_ether.h>

#include "app_opts.h"
#include "cmdline_apps.h"
#include "fuzz_common.h"

#define MAX_ARGS 24
#define MAX_ARG_LEN 256
#define MAX_TUPLES 16

int
LLVMFuzzerInitialize(int *argc, char ***argv)
{
	fuzz_eal_init("fuzz_cmdline", 0);
	return 0;
}

/* "xx:xx:xx:xx:xx:xx", one or two hex digits per byte, nothing else */
static bool
mac_form(const char *s)
{
	unsigned int i;
	size_t k;

	for (i = 0; i < RTE_ETHER_ADDR_LEN; i++) {
		k = strspn(s, "0123456789abcdefABCDEF");
		if (k == 0 || k > 2)
			return false;
		s += k;
		if (*s != (i + 1 < RTE_ETHER_ADDR_LEN ? ':' : '\0'))
			return false;
		s++;
	}
	return true;
}

static void
fuzz_primitives(struct fuzz_in *in)
{
	uint64_t vals[MAX_TUPLES * 4], v, min, max, m2;
	char s[MAX_ARG_LEN], back[32];
	struct rte_ether_addr mac;
	unsigned int width, cap, i;
	int rc;

	min = fuzz_u8(in) % 4 == 0 ? 0 : fuzz_u32(in);
	max = fuzz_u8(in) % 4 == 0 ? UINT64_MAX : fuzz_u32(in);
	fuzz_str(in, s, sizeof(s));
	rc = app_parse_u64(s, min, max, &v);
	FUZZ_CHECK(rc == 0 || rc == -EINVAL || rc == -ERANGE, "rc %d", rc);
	if (rc == 0) {
		FUZZ_CHECK(v >= min && v <= max, "'%s' -> %" PRIu64, s, v);
		/* what was accepted reads back the same */
		snprintf(back, sizeof(back), "%" PRIu64, v);
		FUZZ_CHECK(app_parse_u64(back, 0, UINT64_MAX, &m2) == 0 && m2 == v,
			   "'%s' -> %" PRIu64, s, v);
	}

	fuzz_str(in, s, sizeof(s));
	rc = app_parse_portmask(s, &v);
	FUZZ_CHECK(rc == 0 || rc == -EINVAL || rc == -ERANGE, "rc %d", rc);
	if (rc == 0)
		FUZZ_CHECK(v != 0 && (RTE_MAX_ETHPORTS >= 64 || v >> RTE_MAX_ETHPORTS == 0),
			   "mask '%s' -> 0x%" PRIx64, s, v);

	fuzz_str(in, s, sizeof(s));
	if (app_parse_mac(s, &mac) == 0)
		FUZZ_CHECK(mac_form(s), "accepted MAC '%s'", s);

	width = 1 + fuzz_below(in, 4);
	cap = 1 + fuzz_below(in, MAX_TUPLES);
	max = fuzz_u8(in) % 2 ? fuzz_u16(in) : fuzz_u32(in);
	fuzz_str(in, s, sizeof(s));
	memset(vals, 0xa5, sizeof(vals));
	rc = app_parse_tuples(s, width, max, vals, cap);
	FUZZ_CHECK(rc > 0 || rc == -EINVAL || rc == -ERANGE || rc == -E2BIG, "rc %d", rc);
	if (rc > 0) {
		FUZZ_CHECK((unsigned int)rc <= cap, "%d tuples, room for %u", rc, cap);
		for (i = 0; i < (unsigned int)rc * width; i++)
			FUZZ_CHECK(vals[i] <= max, "value %" PRIu64 " > %" PRIu64, vals[i], max);
	}
	/* nothing written past what the parser may fill */
	for (i = cap * width; i < RTE_DIM(vals); i++)
		FUZZ_CHECK(vals[i] == 0xa5a5a5a5a5a5a5a5ull, "tuple %u written", i / width);
}

static void
fuzz_common_opt(struct fuzz_in *in)
{
	static const int opts[] = {
		'T', APP_OPT_POOL_OPS, APP_OPT_MBUFS, APP_OPT_JUMBO_MBUFS,
		APP_OPT_HDR_MBUFS, APP_OPT_SCATTER, APP_OPT_RUN_TIME,
		APP_OPT_IDLE_EXIT, APP_OPT_SUMMARY, APP_OPT_BURST,
		APP_OPT_LINK_WAIT, APP_OPT_DEBUG_LEAK, 'p', 0,
	};
	struct app_common_opts o;
	char arg[MAX_ARG_LEN];
	int opt, rc;

	opt = opts[fuzz_below(in, RTE_DIM(opts))];
	if (opt == 0)
		opt = (int)fuzz_u16(in);
	fuzz_str(in, arg, sizeof(arg));
	app_opts_init(&o);
	rc = app_opts_parse_common(&o, opt, arg);
	FUZZ_CHECK(rc == 0 || rc == 1 || rc == -EINVAL, "rc %d", rc);
	FUZZ_CHECK(o.burst >= 1 && o.burst <= 64, "burst %u", o.burst);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static char args[MAX_ARGS][MAX_ARG_LEN];
	struct fuzz_in in = { data, size };
	char *argv[MAX_ARGS + 2];
	uint8_t sel = fuzz_u8(&in);
	int argc = 0, rc;

	fuzz_quiet(true);
	switch (sel % 4) {
	case 0:
	case 1:
		argv[argc++] = (char *)(uintptr_t)(sel % 4 == 0 ? "mbufx-l3fwd" : "mbufx-l2fwd");
		while (in.n > 0 && argc <= MAX_ARGS) {
			fuzz_str(&in, args[argc - 1], MAX_ARG_LEN);
			argv[argc] = args[argc - 1];
			argc++;
		}
		argv[argc] = NULL;
		rc = sel % 4 == 0 ? fuzz_l3fwd_cmdline(argc, argv) :
			fuzz_l2fwd_cmdline(argc, argv);
		FUZZ_CHECK(rc == 0 || rc == 1 || rc < 0, "rc %d", rc);
		break;
	case 2:
		fuzz_primitives(&in);
		break;
	default:
		fuzz_common_opt(&in);
		break;
	}
	fuzz_quiet(false);
	return 0;
}
