/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The mbufx authors
 */

/*
 * Command-line helpers shared by the mbufx sample applications.
 *
 * Every parser here is strict: the whole string must be consumed, numbers must
 * fit their range, and failures return a negative errno so that the caller can
 * print one clear message naming the option and exit before any port starts.
 *
 * The options common to every app (pool driver, pool sizes, stats period, run
 * control, machine-readable summary) are parsed by app_opts_parse_common();
 * each app appends APP_COMMON_LONG_OPTS to its own getopt_long() table.
 */

#ifndef APP_OPTS_H
#define APP_OPTS_H

#include <getopt.h>
#include <stdbool.h>
#include <stdint.h>

#include <rte_ether.h>

/** getopt_long() values of the common long options (above any short option). */
enum {
	APP_OPT_POOL_OPS = 0x1000,
	APP_OPT_MBUFS,
	APP_OPT_JUMBO_MBUFS,
	APP_OPT_HDR_MBUFS,
	APP_OPT_SCATTER,
	APP_OPT_RUN_TIME,
	APP_OPT_IDLE_EXIT,
	APP_OPT_SUMMARY,
	APP_OPT_BURST,
	APP_OPT_LINK_WAIT,
	APP_OPT_DEBUG_LEAK,
	APP_OPT_SQUEEZE,
	APP_OPT_COMMON_END,
};

#define APP_COMMON_LONG_OPTS \
	{ "pool-ops", required_argument, NULL, APP_OPT_POOL_OPS }, \
	{ "mbufs", required_argument, NULL, APP_OPT_MBUFS }, \
	{ "jumbo-mbufs", required_argument, NULL, APP_OPT_JUMBO_MBUFS }, \
	{ "hdr-mbufs", required_argument, NULL, APP_OPT_HDR_MBUFS }, \
	{ "scatter", no_argument, NULL, APP_OPT_SCATTER }, \
	{ "run-time", required_argument, NULL, APP_OPT_RUN_TIME }, \
	{ "idle-exit", required_argument, NULL, APP_OPT_IDLE_EXIT }, \
	{ "summary", required_argument, NULL, APP_OPT_SUMMARY }, \
	{ "burst", required_argument, NULL, APP_OPT_BURST }, \
	{ "link-wait", required_argument, NULL, APP_OPT_LINK_WAIT }, \
	{ "debug-leak", required_argument, NULL, APP_OPT_DEBUG_LEAK }, \
	{ "squeeze", required_argument, NULL, APP_OPT_SQUEEZE }

/** Usage text of the common options, for the apps' usage(). */
extern const char app_common_usage[];

/** Options every app understands. */
struct app_common_opts {
	const char *pool_ops;	/**< mempool ops of every pool ("mbufx") */
	uint32_t nb_mbufs;	/**< packet-zone mbufs per zone set, 0 = sized from the ports */
	uint32_t nb_jumbo;	/**< jumbo-zone mbufs per zone set, 0 = sized from the ports */
	uint32_t nb_hdr;	/**< header-zone mbufs per zone set, 0 = default */
	bool scatter;		/**< receive long frames as 2K chains, like stock l3fwd */
	uint32_t stats_period;	/**< seconds between stats lines, 0 = none */
	uint32_t run_time;	/**< stop after this many seconds, 0 = run until a signal */
	uint32_t idle_exit_ms;	/**< stop after this long without any received packet */
	const char *summary;	/**< JSON summary written at exit, or NULL */
	uint16_t burst;		/**< receive burst size */
	uint32_t link_wait;	/**< seconds to wait for every link before forwarding */
	uint32_t debug_leak;	/**< testing aid: keep this many mbufs out at exit */
};

/** Fill @p o with the defaults. */
void app_opts_init(struct app_common_opts *o);

/**
 * Parse one common option.
 * @return 1 when @p opt was a common option and was parsed, 0 when it is not
 *   a common option, -EINVAL (after printing why) when its argument is bad.
 */
int app_opts_parse_common(struct app_common_opts *o, int opt, const char *arg);

/**
 * Parse an unsigned decimal (or 0x hex) number in [min, max].
 * @return 0, or -EINVAL for garbage, -ERANGE outside the range.
 */
int app_parse_u64(const char *s, uint64_t min, uint64_t max, uint64_t *v);

/** Parse a hexadecimal port mask: non-zero, at most RTE_MAX_ETHPORTS bits. */
int app_parse_portmask(const char *s, uint64_t *mask);

/** Parse a MAC address "xx:xx:xx:xx:xx:xx". */
int app_parse_mac(const char *s, struct rte_ether_addr *mac);

/**
 * Parse a list of parenthesised tuples: "(a,b,c),(d,e,f)" with @p width
 * numbers each, every number at most @p max. Whitespace is not allowed, as in
 * l3fwd's --config.
 * @param vals output, @p width numbers per tuple
 * @param max_tuples capacity of @p vals in tuples
 * @return the number of tuples, or -EINVAL / -ERANGE / -E2BIG.
 */
int app_parse_tuples(const char *s, unsigned int width, uint64_t max,
		     uint64_t *vals, unsigned int max_tuples);

/** Human-readable reason for the negative errno returned by the parsers. */
const char *app_parse_strerror(int rc);

/** Print "error: OPT ARG: WHY". @return -EINVAL. */
int app_opt_error(const char *opt, const char *arg, const char *why);

/**
 * Report what getopt_long() (with a leading ':' in its option string) could
 * not parse: a missing argument (opt ':') or an unknown option.
 * @return -EINVAL.
 */
int app_opt_unknown(int opt, char *const argv[]);

/**
 * Checks common to the end of every app's option loop: no stray argument,
 * a port mask given. @return 0 or -EINVAL (after printing why).
 */
int app_opts_check_end(int argc, char *const argv[], uint64_t portmask);

#endif /* APP_OPTS_H */
