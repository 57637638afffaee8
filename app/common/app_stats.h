/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The mbufx authors
 */

/*
 * Counters of the sample apps, summed over the forwarding lcores by the main
 * lcore: the per-second stats line (per port rx/tx/drop in Mpps and Gb/s of
 * frame bytes, zone use), the final summary, and the same as JSON for tests
 * and benchmarks (--summary FILE).
 */

#ifndef APP_STATS_H
#define APP_STATS_H

#include <stdint.h>
#include <stdio.h>

#include "app_lcore.h"

struct app_totals {
	struct app_port_ctr port[RTE_MAX_ETHPORTS];
	uint64_t drop[APP_MAX_DROP_REASONS];
	uint64_t busy_cycles;
	uint64_t linearised;
	uint64_t rx_multiseg;	/**< packets that arrived as chains */
	uint64_t rx_pkts;	/**< over every port */
};

/**
 * Name the app's drop reasons; reason APP_DROP_COMMON_MAX + i is names[i].
 * @return 0 or -E2BIG.
 */
int app_stats_set_drop_names(const char *const *names, unsigned int n);

/** Name of drop reason @p r. */
const char *app_stats_drop_name(unsigned int r);

/** Sum the counters of every lcore into @p t. */
void app_stats_sum(struct app_totals *t);

/** Total packets received so far (cheap enough for the main tick). */
uint64_t app_stats_rx_total(void);

/** One stats line for the interval between @p prev and @p cur. */
void app_stats_print_line(FILE *f, double at_s, double period_s,
			  const struct app_totals *cur, const struct app_totals *prev);

/** Final summary in text. */
void app_stats_print_summary(FILE *f, const struct app_totals *t, double secs);

/** JSON members "seconds", "ports", "drops", "busy_cycles", "cycles_per_pkt". */
void app_stats_json(FILE *f, const struct app_totals *t, double secs);

#endif /* APP_STATS_H */
