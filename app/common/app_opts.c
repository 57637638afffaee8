/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The mbufx authors
 */

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_common.h>
#include <rte_ethdev.h>

#include "app_ctl.h"
#include "app_opts.h"

#define APP_DEFAULT_BURST 32
#define APP_MAX_BURST 64

const char app_common_usage[] =
	"Common options:\n"
	"  -T PERIOD            stats line every PERIOD seconds (default 1, 0 = off)\n"
	"  --pool-ops NAME      mempool driver of every pool (default mbufx; e.g.\n"
	"                       ring_mp_mc to run the same app on stock pools)\n"
	"  --mbufs N            packet-zone (2K) mbufs per zone set (default: sized\n"
	"                       from ports, queues and descriptors)\n"
	"  --jumbo-mbufs N      jumbo-zone mbufs per zone set (default: sized likewise\n"
	"                       when frames exceed 2K, else a small reserve)\n"
	"  --hdr-mbufs N        header-zone mbufs per zone set (default 4096)\n"
	"  --scatter            receive frames longer than 2K as chains of 2K mbufs\n"
	"                       (what stock l3fwd does) instead of one jumbo segment\n"
	"  --burst N            receive burst size, 1..64 (default 32)\n"
	"  --run-time SEC       stop after SEC seconds\n"
	"  --idle-exit MS       stop when no packet arrived for MS milliseconds\n"
	"  --summary FILE       write the final counters as JSON to FILE\n"
	"  --link-wait SEC      wait up to SEC seconds for every link to come up before\n"
	"                       forwarding (default 5; 0 = do not wait)\n"
	"  --debug-leak N       testing aid: hold N packet-zone mbufs at exit, so that\n"
	"                       the leak check reports them and the exit status is 2\n"
	"  --squeeze ZONE:START:LEN[:PERIOD][,...]\n"
	"                       testing aid: from START ms of forwarding (or START\n"
	"                       packets received: 5000p), hold every free mbuf of\n"
	"                       ZONE (pkt, jumbo, hdr) for LEN ms, again every PERIOD\n"
	"                       ms if given (the zone runs dry)\n"
	"Signals: SIGINT and SIGTERM stop; SIGUSR1 restarts the ports (stop, queues\n"
	"set up again, start), then forwarding resumes\n";

void
app_opts_init(struct app_common_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->pool_ops = "mbufx";
	o->stats_period = 1;
	o->burst = APP_DEFAULT_BURST;
	o->link_wait = 5;
}

int
app_parse_u64(const char *s, uint64_t min, uint64_t max, uint64_t *v)
{
	unsigned long long x;
	char *end;

	if (s == NULL || *s == '\0' || !isdigit((unsigned char)*s))
		return -EINVAL;
	errno = 0;
	/* decimal, or hexadecimal with 0x; never octal ("010" is ten) */
	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
		x = strtoull(s + 2, &end, 16);
	else
		x = strtoull(s, &end, 10);
	if (errno == ERANGE)
		return -ERANGE;
	if (errno != 0 || *end != '\0')
		return -EINVAL;
	if (x < min || x > max)
		return -ERANGE;
	*v = x;
	return 0;
}

int
app_parse_portmask(const char *s, uint64_t *mask)
{
	unsigned long long x;
	char *end;

	if (s == NULL || *s == '\0' || !isxdigit((unsigned char)*s))
		return -EINVAL;
	errno = 0;
	x = strtoull(s, &end, 16);
	if (errno != 0 || *end != '\0')
		return -EINVAL;
	if (x == 0)
		return -EINVAL;
	if (RTE_MAX_ETHPORTS < 64 && (x >> RTE_MAX_ETHPORTS) != 0)
		return -ERANGE;
	*mask = x;
	return 0;
}

int
app_parse_mac(const char *s, struct rte_ether_addr *mac)
{
	struct rte_ether_addr a;
	unsigned int i;
	size_t k;

	/* one or two hex digits per byte: no sign, blank or 0x (sscanf's %x
	 * took "-1" as ff) */
	for (i = 0; i < RTE_ETHER_ADDR_LEN; i++) {
		k = strspn(s, "0123456789abcdefABCDEF");
		if (k == 0 || k > 2)
			return -EINVAL;
		a.addr_bytes[i] = (uint8_t)strtoul(s, NULL, 16);
		s += k;
		if (*s != (i + 1 < RTE_ETHER_ADDR_LEN ? ':' : '\0'))
			return -EINVAL;
		s++;
	}
	*mac = a;
	return 0;
}

int
app_parse_tuples(const char *s, unsigned int width, uint64_t max,
		 uint64_t *vals, unsigned int max_tuples)
{
	unsigned int n = 0, i;
	const char *p = s;
	char num[32];

	while (*p != '\0') {
		if (*p != '(')
			return -EINVAL;
		p++;
		if (n == max_tuples)
			return -E2BIG;
		for (i = 0; i < width; i++) {
			size_t len = strspn(p, "0123456789xabcdefABCDEF");
			int rc;

			if (len == 0 || len >= sizeof(num))
				return -EINVAL;
			memcpy(num, p, len);
			num[len] = '\0';
			rc = app_parse_u64(num, 0, max, &vals[n * width + i]);
			if (rc < 0)
				return rc;
			p += len;
			if (*p != (i + 1 < width ? ',' : ')'))
				return -EINVAL;
			p++;
		}
		n++;
		if (*p == ',')
			p++;
		else if (*p != '\0')
			return -EINVAL;
	}
	return n == 0 ? -EINVAL : (int)n;
}

const char *
app_parse_strerror(int rc)
{
	switch (rc) {
	case -ERANGE:
		return "value out of range";
	case -E2BIG:
		return "too many entries";
	default:
		return "malformed value";
	}
}

int
app_opt_error(const char *opt, const char *arg, const char *why)
{
	fprintf(stderr, "error: %s %s: %s\n", opt, arg, why);
	return -EINVAL;
}

int
app_opt_unknown(int opt, char *const argv[])
{
	if (opt == ':')
		fprintf(stderr, "error: option %s needs an argument\n", argv[optind - 1]);
	else
		fprintf(stderr, "error: unknown option '%s'\n", argv[optind - 1]);
	return -EINVAL;
}

int
app_opts_check_end(int argc, char *const argv[], uint64_t portmask)
{
	if (optind < argc) {
		fprintf(stderr, "error: unexpected argument '%s'\n", argv[optind]);
		return -EINVAL;
	}
	if (portmask == 0) {
		fprintf(stderr, "error: -p PORTMASK is required\n");
		return -EINVAL;
	}
	return 0;
}

static int
app_opt_u32(const char *name, const char *arg, uint64_t min, uint64_t max,
	    uint32_t *out)
{
	uint64_t v;
	int rc;

	rc = app_parse_u64(arg, min, max, &v);
	if (rc < 0) {
		fprintf(stderr, "error: --%s %s: %s (expected %" PRIu64 "..%" PRIu64 ")\n",
			name, arg, app_parse_strerror(rc), min, max);
		return -EINVAL;
	}
	*out = (uint32_t)v;
	return 0;
}

int
app_opts_parse_common(struct app_common_opts *o, int opt, const char *arg)
{
	uint32_t v = 0;
	int rc = 0;

	switch (opt) {
	case 'T':
		rc = app_opt_u32("T", arg, 0, 86400, &o->stats_period);
		break;
	case APP_OPT_POOL_OPS:
		if (arg[0] == '\0' || strlen(arg) >= RTE_MEMPOOL_OPS_NAMESIZE) {
			fprintf(stderr, "error: --pool-ops: bad driver name '%s'\n", arg);
			return -EINVAL;
		}
		o->pool_ops = arg;
		break;
	case APP_OPT_MBUFS:
		rc = app_opt_u32("mbufs", arg, 1024, 1u << 24, &o->nb_mbufs);
		break;
	case APP_OPT_JUMBO_MBUFS:
		rc = app_opt_u32("jumbo-mbufs", arg, 64, 1u << 22, &o->nb_jumbo);
		break;
	case APP_OPT_HDR_MBUFS:
		rc = app_opt_u32("hdr-mbufs", arg, 64, 1u << 24, &o->nb_hdr);
		break;
	case APP_OPT_SCATTER:
		o->scatter = true;
		break;
	case APP_OPT_RUN_TIME:
		rc = app_opt_u32("run-time", arg, 1, 86400 * 365, &o->run_time);
		break;
	case APP_OPT_IDLE_EXIT:
		rc = app_opt_u32("idle-exit", arg, 1, 3600 * 1000, &o->idle_exit_ms);
		break;
	case APP_OPT_SUMMARY:
		o->summary = arg;
		break;
	case APP_OPT_BURST:
		rc = app_opt_u32("burst", arg, 1, APP_MAX_BURST, &v);
		if (rc == 0)
			o->burst = (uint16_t)v;
		break;
	case APP_OPT_DEBUG_LEAK:
		rc = app_opt_u32("debug-leak", arg, 1, 1024, &o->debug_leak);
		break;
	case APP_OPT_LINK_WAIT:
		rc = app_opt_u32("link-wait", arg, 0, 3600, &o->link_wait);
		break;
	case APP_OPT_SQUEEZE:
		rc = app_ctl_parse_squeeze(arg);
		break;
	default:
		return 0;
	}
	return rc < 0 ? rc : 1;
}
