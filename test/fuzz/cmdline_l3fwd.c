/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The mbufx authors
 */

/*
 * mbufx-l3fwd's command line, for fuzz_cmdline: the app's main.c is
 * compiled here with main() renamed, so that its static parser and the
 * checks that follow it run on the fuzz input exactly as in the app.
 */

#include <rte_malloc.h>

#include "cmdline_apps.h"

int mbufx_l3fwd_main(int argc, char **argv);
#define main mbufx_l3fwd_main
#include "../../app/l3fwd-mbufx/main.c"
#undef main

int
fuzz_l3fwd_cmdline(int argc, char **argv)
{
	uint16_t port;
	int rc;

	memset(&l3fwd, 0, sizeof(l3fwd));
	app_opts_init(&l3fwd.common);
	memset(cfg, 0, sizeof(cfg));
	nb_cfg = 0;
	RTE_ETH_FOREACH_DEV(port) {
		l3fwd.dst_mac[port].addr_bytes[0] = RTE_ETHER_LOCAL_ADMIN_ADDR;
		l3fwd.dst_mac[port].addr_bytes[5] = (uint8_t)port;
	}
	optind = 0;		/* glibc: start a new scan */
	rc = parse_args(argc, argv);
	if (rc != 0)
		return rc;
	rc = apply_config();
	if (rc < 0)
		return rc;
	/* the built-in routes of the port mask and lookup (no files: paths
	 * from the input are not opened; fuzz_rules covers the files) */
	l3fwd.rule_v4 = NULL;
	l3fwd.rule_v6 = NULL;
	rc = l3fwd_routes_load();
	rte_free(l3fwd.nh);
	rte_free(l3fwd.rules);
	l3fwd.nh = NULL;
	l3fwd.rules = NULL;
	return rc;
}
