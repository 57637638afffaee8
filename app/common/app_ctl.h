/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The mbufx authors
 */

/*
 * Runtime control of a running app, for tests and soaks (the apps have no
 * command console):
 *
 *   --squeeze ZONE:START:LEN[:PERIOD][,...]   (milliseconds of forwarding)
 *       From START for LEN ms (and again every PERIOD ms if given), hold
 *       every free mbuf of ZONE (pkt, jumbo or hdr, in every zone set):
 *       the zone runs dry under live traffic, then the pressure lifts.
 *       START may be a packet count instead ("5000p": once the app has
 *       received that many packets; no PERIOD then), which places the
 *       window in a finite capture whatever the machine's speed.
 *       Done by the main lcore about every millisecond, which takes again
 *       whatever was freed since (mbufs in flight keep circulating
 *       otherwise); mbufs in other lcores' mempool caches stay usable.
 *   SIGUSR1
 *       Restart the ports: the lcores leave their loops (their Tx buffers
 *       flushed), every port is stopped, its Rx and Tx queues set up again
 *       (what the PMD held is freed) and started, and forwarding resumes.
 *
 * The summary JSON gets "ctl": squeezes done, most mbufs held at once,
 * restarts, and the ports' rx_nombuf and imissed (ethdev statistics,
 * read before the ports close).
 */

#ifndef APP_CTL_H
#define APP_CTL_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

/**
 * Parse --squeeze (before the pools exist). Prints why on error.
 * @return 0 or -EINVAL.
 */
int app_ctl_parse_squeeze(const char *arg);

/** Install the SIGUSR1 handler; the pools exist. @return 0 or -ENOMEM. */
int app_ctl_init(void);

/**
 * Main lcore, about every millisecond: @p ms of forwarding so far, @p rx
 * packets received.
 */
void app_ctl_tick(uint64_t ms, uint64_t rx);

/** True when app_ctl_tick() has work (a --squeeze was given). */
bool app_ctl_ticking(void);

/** True (once) when a port restart was asked for: the caller restarts. */
bool app_ctl_restart_pending(void);

/** Count one restart done. */
void app_ctl_restarted(void);

/**
 * Forwarding is over: give back every held mbuf and read the ports'
 * statistics (before they close).
 */
void app_ctl_stopped(void);

/** The "ctl" member of the summary JSON, led by ", ". */
void app_ctl_json(FILE *f);

/** The control lines of the text summary (nothing when unused). */
void app_ctl_summary(FILE *f);

/** Free what app_ctl_init() allocated. */
void app_ctl_free(void);

#endif /* APP_CTL_H */
