/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The mbufx authors
 */

/* The apps' command-line parsers, as fuzz_cmdline calls them. */

#ifndef MBUFX_FUZZ_CMDLINE_APPS_H
#define MBUFX_FUZZ_CMDLINE_APPS_H

/**
 * Parse argv (argv[0] is the program name) as mbufx-l3fwd does, then check
 * --config against the lcores and ports and load the default routes.
 * @return 0, 1 for --help, or a negative errno.
 */
int fuzz_l3fwd_cmdline(int argc, char **argv);

/**
 * Parse argv as mbufx-l2fwd does, then check the port pairs, mirrors and
 * VLAN options against the port mask.
 * @return 0, 1 for --help, or a negative errno.
 */
int fuzz_l2fwd_cmdline(int argc, char **argv);

#endif /* MBUFX_FUZZ_CMDLINE_APPS_H */
