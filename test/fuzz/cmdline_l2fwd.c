/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The mbufx authors
 */

/*
 * mbufx-l2fwd's command line, for fuzz_cmdline: the app's main.c is
 * compiled here with main() renamed, so that its static parser and the
 * checks that follow it run on the fuzz input exactly as in the app.
 */

#include "cmdline_apps.h"

int mbufx_l2fwd_main(int argc, char **argv);
#define main mbufx_l2fwd_main
#include "../../app/l2fwd-mbufx/main.c"
#undef main

int
fuzz_l2fwd_cmdline(int argc, char **argv)
{
	int rc;

	memset(&l2fwd, 0, sizeof(l2fwd));
	app_opts_init(&l2fwd.common);
	memset(portmap, 0, sizeof(portmap));
	nb_portmap = 0;
	optind = 0;		/* glibc: start a new scan */
	rc = parse_args(argc, argv);
	if (rc != 0)
		return rc;
	return check_config();
}
