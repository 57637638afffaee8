/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The mbufx authors
 */

#include <errno.h>
#include <string.h>

#include "app_pools.h"
#include "app_stats.h"

static const char *drop_names[APP_MAX_DROP_REASONS] = {
	[APP_DROP_TX_FULL] = "tx_full",
	[APP_DROP_LINEARISE] = "linearise_nombuf",
};
static unsigned int nb_drop_names = APP_DROP_COMMON_MAX;

int
app_stats_set_drop_names(const char *const *names, unsigned int n)
{
	unsigned int i;

	if (APP_DROP_COMMON_MAX + n > APP_MAX_DROP_REASONS)
		return -E2BIG;
	for (i = 0; i < n; i++)
		drop_names[APP_DROP_COMMON_MAX + i] = names[i];
	nb_drop_names = APP_DROP_COMMON_MAX + n;
	return 0;
}

const char *
app_stats_drop_name(unsigned int r)
{
	return r < nb_drop_names ? drop_names[r] : "?";
}

static inline uint64_t
ld(const uint64_t *p)
{
	return __atomic_load_n(p, __ATOMIC_RELAXED);
}

void
app_stats_sum(struct app_totals *t)
{
	unsigned int lcore, r;
	uint16_t p;

	memset(t, 0, sizeof(*t));
	RTE_LCORE_FOREACH(lcore) {
		const struct app_lcore *lc = &app_lcores[lcore];

		for (p = 0; p < RTE_MAX_ETHPORTS; p++) {
			const struct app_port_ctr *c = &lc->ctr[p];

			if (!app_port_state[p].enabled)
				continue;
			t->port[p].rx_pkts += ld(&c->rx_pkts);
			t->port[p].rx_bytes += ld(&c->rx_bytes);
			t->port[p].tx_pkts += ld(&c->tx_pkts);
			t->port[p].tx_bytes += ld(&c->tx_bytes);
			t->port[p].drop += ld(&c->drop);
		}
		for (r = 0; r < nb_drop_names; r++)
			t->drop[r] += ld(&lc->drop[r]);
		t->busy_cycles += ld(&lc->busy_cycles);
		t->linearised += ld(&lc->linearised);
		t->rx_multiseg += ld(&lc->rx_multiseg);
	}
	for (p = 0; p < RTE_MAX_ETHPORTS; p++)
		t->rx_pkts += t->port[p].rx_pkts;
}

uint64_t
app_stats_rx_total(void)
{
	uint64_t n = 0;
	unsigned int lcore, i;

	RTE_LCORE_FOREACH(lcore) {
		const struct app_lcore *lc = &app_lcores[lcore];

		for (i = 0; i < lc->n_rxq; i++)
			n += ld(&lc->ctr[lc->rxq[i].port].rx_pkts);
	}
	return n;
}

/* Mpps and Gb/s of frame bytes (no preamble, IFG or CRC) over @p s seconds */
static double
mpps(uint64_t pkts, double s)
{
	return s > 0 ? pkts / s / 1e6 : 0;
}

static double
gbps(uint64_t bytes, double s)
{
	return s > 0 ? bytes * 8 / s / 1e9 : 0;
}

void
app_stats_print_line(FILE *f, double at_s, double period_s,
		     const struct app_totals *cur, const struct app_totals *prev)
{
	char zones[256];
	uint16_t p;

	fprintf(f, "[%6.1fs]", at_s);
	for (p = 0; p < RTE_MAX_ETHPORTS; p++) {
		const struct app_port_ctr *c = &cur->port[p], *o = &prev->port[p];

		if (!app_port_state[p].enabled)
			continue;
		fprintf(f, " p%u rx %.3f Mpps %.2f Gb/s tx %.3f Mpps %.2f Gb/s drop %.3f Mpps |",
			p, mpps(c->rx_pkts - o->rx_pkts, period_s),
			gbps(c->rx_bytes - o->rx_bytes, period_s),
			mpps(c->tx_pkts - o->tx_pkts, period_s),
			gbps(c->tx_bytes - o->tx_bytes, period_s),
			mpps(c->drop - o->drop, period_s));
	}
	app_pools_format_use(zones, sizeof(zones));
	fprintf(f, "%s\n", zones);
	fflush(f);
}

void
app_stats_print_summary(FILE *f, const struct app_totals *t, double secs)
{
	unsigned int r;
	uint16_t p;
	bool any = false;

	fprintf(f, "\n=== summary: %.1f s ===\n", secs);
	fprintf(f, "%-5s %-20s %14s %14s %14s %9s %9s\n", "port", "device", "rx pkts",
		"tx pkts", "dropped", "rx Mpps", "tx Gb/s");
	for (p = 0; p < RTE_MAX_ETHPORTS; p++) {
		const struct app_port_ctr *c = &t->port[p];

		if (!app_port_state[p].enabled)
			continue;
		fprintf(f, "%-5u %-20s %14" PRIu64 " %14" PRIu64 " %14" PRIu64 " %9.3f %9.3f\n",
			p, app_port_state[p].name, c->rx_pkts, c->tx_pkts, c->drop,
			mpps(c->rx_pkts, secs), gbps(c->tx_bytes, secs));
	}
	fprintf(f, "drops by reason:");
	for (r = 0; r < nb_drop_names; r++) {
		if (t->drop[r] == 0)
			continue;
		fprintf(f, " %s %" PRIu64, drop_names[r], t->drop[r]);
		any = true;
	}
	fprintf(f, "%s\n", any ? "" : " none");
	fprintf(f, "received as one segment: %" PRIu64 ", as chains: %" PRIu64 "\n",
		t->rx_pkts - t->rx_multiseg, t->rx_multiseg);
	if (t->linearised != 0)
		fprintf(f, "chains linearised for single-segment ports: %" PRIu64 "\n",
			t->linearised);
	if (t->rx_pkts != 0)
		fprintf(f, "busy cycles per packet: %.1f (TSC %.2f GHz)\n",
			(double)t->busy_cycles / t->rx_pkts, rte_get_tsc_hz() / 1e9);
}

void
app_stats_json(FILE *f, const struct app_totals *t, double secs)
{
	unsigned int r;
	uint16_t p;
	bool first = true;

	fprintf(f, "\"seconds\": %.3f, \"tsc_hz\": %" PRIu64 ", \"ports\": [", secs,
		rte_get_tsc_hz());
	for (p = 0; p < RTE_MAX_ETHPORTS; p++) {
		const struct app_port_ctr *c = &t->port[p];
		char mac[RTE_ETHER_ADDR_FMT_SIZE];

		if (!app_port_state[p].enabled)
			continue;
		rte_ether_format_addr(mac, sizeof(mac), &app_port_state[p].mac);
		fprintf(f, "%s{\"port\": %u, \"name\": \"%s\", \"mac\": \"%s\", "
			"\"rx_pkts\": %" PRIu64 ", \"rx_bytes\": %" PRIu64
			", \"tx_pkts\": %" PRIu64 ", \"tx_bytes\": %" PRIu64
			", \"drop\": %" PRIu64 ", \"tx_multiseg\": %s}", first ? "" : ", ",
			p, app_port_state[p].name, mac, c->rx_pkts, c->rx_bytes, c->tx_pkts,
			c->tx_bytes, c->drop, app_port_state[p].tx_multiseg ? "true" : "false");
		first = false;
	}
	fprintf(f, "], \"drops\": {");
	for (r = 0; r < nb_drop_names; r++)
		fprintf(f, "%s\"%s\": %" PRIu64, r ? ", " : "", drop_names[r], t->drop[r]);
	fprintf(f, "}, \"rx_multiseg\": %" PRIu64, t->rx_multiseg);
	fprintf(f, ", \"linearised\": %" PRIu64 ", \"rx_pkts\": %" PRIu64
		", \"busy_cycles\": %" PRIu64 ", \"cycles_per_pkt\": %.2f",
		t->linearised, t->rx_pkts, t->busy_cycles,
		t->rx_pkts ? (double)t->busy_cycles / t->rx_pkts : 0.0);
}
