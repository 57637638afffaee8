/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The mbufx authors
 */

/*
 * The lcores of mbufx-l3fwd around the forwarding core: each polls its Rx
 * queues (app_lcore_run()), hands every burst to l3fwd_process_burst() with
 * the input port's zone set and Rx capabilities, and queues what comes back
 * for Tx. Route counters are per lcore, summed for the summary.
 */

#include <stdio.h>
#include <string.h>

#include <rte_malloc.h>

#include "app_pools.h"
#include "l3fwd_core.h"

/* Per-lcore state of mbufx-l3fwd (app_lcore.priv). */
struct l3fwd_lcore {
	struct l3fwd_ctx ctx;
	struct l3fwd_rx rx[RTE_MAX_ETHPORTS];	/**< per input port */
	struct l3fwd_out out;
};

static __rte_always_inline void
l3fwd_burst(struct app_lcore *lc, uint16_t port, struct rte_mbuf **pkts, uint16_t n)
{
	struct l3fwd_lcore *x = lc->priv;
	struct l3fwd_out *out = &x->out;
	uint16_t i, j;

	lc->ctr[port].drop += l3fwd_process_burst(&x->ctx, &x->rx[port], pkts, n, out);
	/* APP_LOOP_RX_COUNTED: pass 1 summed them */
	lc->ctr[port].rx_bytes += out->rx_bytes;
	lc->rx_multiseg += out->rx_chains;
	/* the usual burst: all to one port, bytes already counted */
	if (likely(out->port_or == out->port_and)) {
		if (out->n != 0)
			app_tx_bulk_bytes(lc, out->port[0], out->m, out->n, out->bytes,
					  out->segs);
		return;
	}
	/* runs of packets to the same port go to its Tx buffer in one piece */
	for (i = 0; i < out->n; i = j) {
		for (j = i + 1; j < out->n && out->port[j] == out->port[i]; j++)
			;
		app_tx_bulk(lc, out->port[i], &out->m[i], j - i);
	}
}

int
l3fwd_lcore_main(void *arg __rte_unused)
{
	/* --bench-gen: the software NIC in the main lcore's loop, else not there */
	if (l3fwd.bench_gen != 0)
		return app_lcore_run(l3fwd_burst, APP_LOOP_GEN | APP_LOOP_RX_COUNTED);
	return app_lcore_run(l3fwd_burst, APP_LOOP_RX_COUNTED);
}

int
l3fwd_lcores_init(void)
{
	struct rte_ether_addr src_mac[RTE_MAX_ETHPORTS];
	unsigned int lcore;
	uint16_t port;
	int rc;

	RTE_BUILD_BUG_ON(APP_MAX_BURST > L3FWD_BURST_MAX);
	RTE_BUILD_BUG_ON(L3FWD_DROP_MAX > APP_MAX_DROP_REASONS);
	for (port = 0; port < RTE_MAX_ETHPORTS; port++)
		src_mac[port] = app_port_state[port].mac;
	RTE_LCORE_FOREACH(lcore) {
		struct app_lcore *lc = &app_lcores[lcore];
		struct l3fwd_lcore *x;
		int socket = l3fwd.no_numa ? 0 : (int)rte_lcore_to_socket_id(lcore);

		if (lc->n_rxq == 0)
			continue;
		x = rte_zmalloc_socket("l3fwd_lcore", sizeof(*x), RTE_CACHE_LINE_SIZE, socket);
		if (x == NULL)
			return -ENOMEM;
		lc->priv = x;
		rc = l3fwd_ctx_init(&x->ctx, socket, src_mac, lc->drop);
		if (rc < 0)
			return rc;
		for (port = 0; port < RTE_MAX_ETHPORTS; port++) {
			const struct app_port_state *ps = &app_port_state[port];

			if (!ps->enabled)
				continue;
			x->rx[port].zs = app_pools_of_port(port);
			x->rx[port].port = port;
			x->rx[port].sw_ptype = ps->sw_ptype;
			x->rx[port].rx_cksum = ps->rx_cksum;
		}
	}
	return 0;
}

void
l3fwd_lcores_free(void)
{
	unsigned int lcore;

	RTE_LCORE_FOREACH(lcore) {
		struct l3fwd_lcore *x = app_lcores[lcore].priv;

		if (x == NULL)
			continue;
		l3fwd_ctx_free(&x->ctx);
		rte_free(x);
		app_lcores[lcore].priv = NULL;
	}
}

/* The route counters' names, in the summary's columns and its JSON keys. */
static const char *const route_ctr_names[L3FWD_ROUTE_CTR_MAX] = {
	[L3FWD_ROUTE_PKTS] = "pkts",
	[L3FWD_ROUTE_ENCAP_INPLACE] = "encap_inplace",
	[L3FWD_ROUTE_ENCAP_CHAINED] = "encap_chained",
};

/* The counters of next hop i, summed over the lcores. */
static void
nh_sum(uint32_t i, uint64_t v[L3FWD_ROUTE_CTR_MAX])
{
	unsigned int lcore, k;

	memset(v, 0, sizeof(v[0]) * L3FWD_ROUTE_CTR_MAX);
	RTE_LCORE_FOREACH(lcore) {
		const struct l3fwd_lcore *x = app_lcores[lcore].priv;

		if (x == NULL || x->ctx.nh_pkts == NULL)
			continue;
		for (k = 0; k < L3FWD_ROUTE_CTR_MAX; k++)
			v[k] += x->ctx.nh_pkts[k * x->ctx.nb_nh + i];
	}
}

void
l3fwd_print_routes(FILE *f)
{
	uint64_t v[L3FWD_ROUTE_CTR_MAX];
	char act[96];
	unsigned int k;
	uint32_t i;

	fprintf(f, "routes (%s):\n%-44s %-30s", l3fwd.lookup == L3FWD_LOOKUP_LPM ? "lpm" : "em",
		"rule", "action");
	for (k = 0; k < L3FWD_ROUTE_CTR_MAX; k++)
		fprintf(f, " %14s", route_ctr_names[k]);
	fprintf(f, "\n");
	for (i = 0; i < l3fwd.nb_nh; i++) {
		nh_sum(i, v);
		l3fwd_nh_format(&l3fwd.nh[i], act, sizeof(act));
		fprintf(f, "%-44s %-30s", l3fwd.nh[i].text, act);
		for (k = 0; k < L3FWD_ROUTE_CTR_MAX; k++)
			fprintf(f, " %14" PRIu64, v[k]);
		fprintf(f, "\n");
	}
}

void
l3fwd_json_routes(FILE *f)
{
	uint64_t v[L3FWD_ROUTE_CTR_MAX];
	char act[96];
	unsigned int k;
	uint32_t i;

	fprintf(f, ", \"routes\": [");
	for (i = 0; i < l3fwd.nb_nh; i++) {
		nh_sum(i, v);
		l3fwd_nh_format(&l3fwd.nh[i], act, sizeof(act));
		fprintf(f, "%s{\"rule\": \"%s\", \"action\": \"%s\"", i ? ", " : "",
			l3fwd.nh[i].text, act);
		for (k = 0; k < L3FWD_ROUTE_CTR_MAX; k++)
			fprintf(f, ", \"%s\": %" PRIu64, route_ctr_names[k], v[k]);
		fprintf(f, "}");
	}
	fprintf(f, "]");
}
