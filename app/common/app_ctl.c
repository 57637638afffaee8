/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The mbufx authors
 */

/* Runtime control: zone squeezes and port restarts (see app_ctl.h). */

#include <errno.h>
#include <inttypes.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>

#include <rte_ethdev.h>
#include <rte_mbuf.h>

#include "app_ctl.h"
#include "app_lcore.h"
#include "app_opts.h"
#include "app_pools.h"
#include "app_port.h"

#define CTL_MAX_SQUEEZE 8
#define CTL_MAX_POOLS 8

struct squeeze {
	enum mbufx_zone_id zone;
	uint64_t start, len, period;		/* ms */
	uint64_t start_pkts;	/* START given in packets: when rx reaches it */
	uint64_t until;		/* end of a packet-started window, ms */
	bool by_pkts, done;
	bool held;
	unsigned int nb_pools;
	struct rte_mempool *mp[CTL_MAX_POOLS];
	void **objs[CTL_MAX_POOLS];
	unsigned int n[CTL_MAX_POOLS];
};

static struct {
	struct squeeze sq[CTL_MAX_SQUEEZE];
	unsigned int nb_sq;
	volatile sig_atomic_t restart_req;
	uint64_t squeezes, held_max, restarts;
	uint64_t rx_nombuf, imissed;
} ctl;

static int
squeeze_error(const char *spec, const char *why)
{
	return app_opt_error("--squeeze", spec, why);
}

int
app_ctl_parse_squeeze(const char *arg)
{
	char buf[256], *spec, *save, *f[5], *s2;
	uint64_t v[3] = { 0, 0, 0 };
	struct squeeze *sq;
	unsigned int nf, i;
	size_t n;
	int z;

	if (strlen(arg) >= sizeof(buf))
		return squeeze_error(arg, "too long");
	strcpy(buf, arg);
	for (spec = strtok_r(buf, ",", &save); spec != NULL;
	     spec = strtok_r(NULL, ",", &save)) {
		if (ctl.nb_sq == CTL_MAX_SQUEEZE)
			return squeeze_error(arg, "at most 8 squeezes");
		nf = 0;
		for (s2 = spec; nf < RTE_DIM(f); nf++) {
			f[nf] = s2;
			s2 = strchr(s2, ':');
			if (s2 == NULL) {
				nf++;
				break;
			}
			*s2++ = '\0';
		}
		if (nf < 3 || nf > 4 || s2 != NULL)
			return squeeze_error(spec, "want ZONE:START:LEN[:PERIOD]");
		for (z = 0; z < MBUFX_ZONE_NUM; z++)
			if (strcmp(f[0], mbufx_zone_name(z)) == 0)
				break;
		if (z == MBUFX_ZONE_NUM)
			return squeeze_error(f[0], "zone must be pkt, jumbo or hdr");
		sq = &ctl.sq[ctl.nb_sq];
		n = strlen(f[1]);
		if (n > 1 && f[1][n - 1] == 'p') {
			f[1][n - 1] = '\0';
			sq->by_pkts = true;
		}
		for (i = 1; i < nf; i++)
			if (app_parse_u64(f[i], i == 1 ? 0 : 1,
					  i == 1 && sq->by_pkts ? UINT64_MAX : 86400000,
					  &v[i - 1]) != 0)
				return squeeze_error(f[i], "want milliseconds (START: "
						     "or packets, with p), LEN and "
						     "PERIOD at least 1");
		if (nf == 4 && (v[2] <= v[1] || sq->by_pkts))
			return squeeze_error(f[3], "PERIOD must exceed LEN, and "
					     "START be in milliseconds");
		ctl.nb_sq++;
		sq->zone = (enum mbufx_zone_id)z;
		sq->start_pkts = v[0];
		sq->start = v[0];
		sq->len = v[1];
		sq->period = nf == 4 ? v[2] : 0;
	}
	return 0;
}

static void
on_usr1(int sig)
{
	RTE_SET_USED(sig);
	ctl.restart_req = 1;
	__atomic_store_n(&app_quit, 1, __ATOMIC_RELAXED);
}

int
app_ctl_init(void)
{
	struct sigaction sa;
	struct squeeze *sq;
	struct rte_mempool *mp;
	unsigned int i, k;
	uint16_t port;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_usr1;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGUSR1, &sa, NULL);

	for (i = 0; i < ctl.nb_sq; i++) {
		sq = &ctl.sq[i];
		for (port = 0; port < RTE_MAX_ETHPORTS; port++) {
			if (!app_port_state[port].enabled)
				continue;
			mp = mbufx_zone_set_pool(app_pools_of_port(port), sq->zone);
			for (k = 0; k < sq->nb_pools && sq->mp[k] != mp; k++)
				;
			if (mp == NULL || k < sq->nb_pools || k == CTL_MAX_POOLS)
				continue;
			sq->objs[k] = malloc(sizeof(void *) * mp->size);
			if (sq->objs[k] == NULL)
				return -ENOMEM;
			sq->mp[k] = mp;
			sq->nb_pools++;
		}
	}
	return 0;
}

/*
 * Take every free mbuf of the zone; called again on every tick of the
 * window, since what the app frees (in-flight mbufs) would keep
 * circulating otherwise.
 */
static void
squeeze_hold(struct squeeze *sq)
{
	unsigned int k, n;
	uint64_t held = 0;

	for (k = 0; k < sq->nb_pools; k++) {
		n = sq->n[k];
		while (n + 32 <= sq->mp[k]->size &&
		       rte_mempool_get_bulk(sq->mp[k], &sq->objs[k][n], 32) == 0)
			n += 32;
		while (n < sq->mp[k]->size &&
		       rte_mempool_get(sq->mp[k], &sq->objs[k][n]) == 0)
			n++;
		sq->n[k] = n;
		held += n;
	}
	if (!sq->held)
		ctl.squeezes++;
	sq->held = true;
	if (held > ctl.held_max)
		ctl.held_max = held;
}

static void
squeeze_release(struct squeeze *sq)
{
	unsigned int k;

	for (k = 0; k < sq->nb_pools; k++) {
		rte_mempool_put_bulk(sq->mp[k], sq->objs[k], sq->n[k]);
		sq->n[k] = 0;
	}
	sq->held = false;
}

void
app_ctl_tick(uint64_t ms, uint64_t rx)
{
	struct squeeze *sq;
	unsigned int i;
	uint64_t t;
	bool want;

	for (i = 0; i < ctl.nb_sq; i++) {
		sq = &ctl.sq[i];
		want = false;
		if (sq->by_pkts) {
			if (!sq->done && !sq->held && rx >= sq->start_pkts) {
				sq->until = ms + sq->len;
				sq->done = true;
			}
			want = sq->done && ms < sq->until;
		} else if (ms >= sq->start) {
			t = ms - sq->start;
			if (sq->period != 0)
				t %= sq->period;
			want = t < sq->len;
		}
		if (want)
			squeeze_hold(sq);
		else if (sq->held)
			squeeze_release(sq);
	}
}

bool
app_ctl_ticking(void)
{
	return ctl.nb_sq != 0;
}

bool
app_ctl_restart_pending(void)
{
	if (!ctl.restart_req)
		return false;
	ctl.restart_req = 0;
	return true;
}

void
app_ctl_restarted(void)
{
	ctl.restarts++;
}

void
app_ctl_stopped(void)
{
	struct rte_eth_stats st;
	unsigned int i;
	uint16_t port;

	for (i = 0; i < ctl.nb_sq; i++)
		if (ctl.sq[i].held)
			squeeze_release(&ctl.sq[i]);
	ctl.rx_nombuf = 0;
	ctl.imissed = 0;
	for (port = 0; port < RTE_MAX_ETHPORTS; port++) {
		if (!app_port_state[port].started || rte_eth_stats_get(port, &st) != 0)
			continue;
		ctl.rx_nombuf += st.rx_nombuf;
		ctl.imissed += st.imissed;
	}
}

void
app_ctl_json(FILE *f)
{
	fprintf(f, ", \"ctl\": {\"squeezes\": %" PRIu64 ", \"held_max\": %" PRIu64
		", \"restarts\": %" PRIu64 ", \"rx_nombuf\": %" PRIu64
		", \"imissed\": %" PRIu64 "}", ctl.squeezes, ctl.held_max,
		ctl.restarts, ctl.rx_nombuf, ctl.imissed);
}

void
app_ctl_summary(FILE *f)
{
	if (ctl.squeezes != 0 || ctl.restarts != 0)
		fprintf(f, "control: %" PRIu64 " zone squeezes (up to %" PRIu64
			" mbufs held), %" PRIu64 " port restarts\n", ctl.squeezes,
			ctl.held_max, ctl.restarts);
	if (ctl.rx_nombuf != 0 || ctl.imissed != 0)
		fprintf(f, "ports: rx_nombuf %" PRIu64 ", imissed %" PRIu64 "\n",
			ctl.rx_nombuf, ctl.imissed);
}

void
app_ctl_free(void)
{
	unsigned int i, k;

	for (i = 0; i < ctl.nb_sq; i++)
		for (k = 0; k < ctl.sq[i].nb_pools; k++)
			free(ctl.sq[i].objs[k]);
	memset(&ctl, 0, sizeof(ctl));
}
