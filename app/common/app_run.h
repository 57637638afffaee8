/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The mbufx authors
 */

/*
 * Life cycle of a sample app:
 *
 *   app_eal_init()    the EAL, and the defaults of the common options
 *   (the app parses its options and sets up pools and ports; on an error
 *   app_setup_abort() undoes what was done and gives the exit code)
 *   app_run_main()    the three steps below, returning the exit code:
 *   app_run_init()    signals: SIGINT/SIGTERM stop cleanly, SIGPIPE ignored
 *                     (a vhost or memif peer that goes away must not kill us)
 *   app_run()         start the ports, run the app's lcore function on every
 *                     lcore, the main lcore printing a stats line per period
 *                     and enforcing --run-time and --idle-exit
 *   app_run_finish()  drain, stop and close the ports, print the summary,
 *                     check every zone is full again, write --summary JSON,
 *                     free the pools; returns the process exit code
 *
 * Exit codes: 0 clean, 1 setup error (before any port starts), 2 mbufs leaked.
 */

#ifndef APP_RUN_H
#define APP_RUN_H

#include <stdio.h>

#include <rte_launch.h>

#include "app_opts.h"

#define APP_EXIT_OK 0
#define APP_EXIT_SETUP 1
#define APP_EXIT_LEAK 2

/** App-specific parts of the summary. */
struct app_hooks {
	const char *name;		/**< program name for messages */
	void (*summary)(FILE *f);	/**< extra summary lines, or NULL */
	void (*json)(FILE *f);		/**< extra JSON members, each led by ", " */
	void (*stopped)(void);		/**< lcores stopped, ports still open, or NULL */
	void (*cleanup)(void);		/**< free app state before the EAL goes, or NULL */
};

/**
 * Initialise the EAL and the common options' defaults; @p argc and @p argv
 * are left with the app's own arguments (argv[0] first).
 * @return 0, or -1 (after printing why).
 */
int app_eal_init(int *argc, char ***argv, struct app_common_opts *o);

/** Install signal handlers and remember the options and hooks. */
void app_run_init(const struct app_common_opts *o, const struct app_hooks *h);

/**
 * Start every enabled port, launch @p fn on every lcore (main included) and
 * wait for all of them. @return 0 or a negative errno if a port did not start.
 */
int app_run(lcore_function_t *fn);

/** Shut down (see above); returns the exit code. */
int app_run_finish(void);

/**
 * The whole run after set-up: app_run_init(), app_run(@p fn) and
 * app_run_finish(). @return the process exit code.
 */
int app_run_main(const struct app_common_opts *o, const struct app_hooks *h,
		 lcore_function_t *fn);

/**
 * Undo a set-up that failed before any port started (ports, the app's
 * state through @p h, pools, EAL). @return APP_EXIT_SETUP.
 */
int app_setup_abort(const struct app_hooks *h);

#endif /* APP_RUN_H */
