/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The mbufx authors
 */

/*
 * mbufx-l2fwd: command line and set-up. l2fwd's options keep their meaning:
 * ports are paired in mask order (or by --portmap), each lcore polls -q
 * ports, MACs are rewritten unless --no-mac-updating. Everything is checked
 * before any port is configured.
 */

#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_eal.h>
#include <rte_ethdev.h>
#include <rte_lcore.h>
#include <rte_malloc.h>

#include "app_pools.h"
#include "app_port.h"
#include "app_run.h"
#include "app_stats.h"
#include "l2fwd_core.h"

#define L2FWD_RXD 1024
#define L2FWD_TXD 1024

struct l2fwd_conf l2fwd;

static const char *const drop_names[] = {
	[L2FWD_DROP_VLAN - APP_DROP_COMMON_MAX] = "vlan_nombuf",
	[L2FWD_DROP_RUNT - APP_DROP_COMMON_MAX] = "runt",
	[L2FWD_DROP_SHARED - APP_DROP_COMMON_MAX] = "shared_nombuf",
};

enum {
	OPT_NO_MAC_UPDATING = APP_OPT_COMMON_END,
	OPT_MAC_UPDATING,
	OPT_PORTMAP,
	OPT_VLAN_PUSH,
	OPT_VLAN_POP,
	OPT_MIRROR,
	OPT_HELP,
};

static const struct option long_opts[] = {
	{ "no-mac-updating", no_argument, NULL, OPT_NO_MAC_UPDATING },
	{ "mac-updating", no_argument, NULL, OPT_MAC_UPDATING },
	{ "portmap", required_argument, NULL, OPT_PORTMAP },
	{ "vlan-push", required_argument, NULL, OPT_VLAN_PUSH },
	{ "vlan-pop", required_argument, NULL, OPT_VLAN_POP },
	{ "mirror", required_argument, NULL, OPT_MIRROR },
	{ "help", no_argument, NULL, OPT_HELP },
	APP_COMMON_LONG_OPTS,
	{ NULL, 0, NULL, 0 },
};

static uint64_t portmap[RTE_MAX_ETHPORTS * 2];
static int nb_portmap;

static void
usage(void)
{
	printf("Usage: mbufx-l2fwd [EAL options] -- -p PORTMASK [-P] [-q NQ] [-T PERIOD]\n"
	       "       [--no-mac-updating] [--portmap (p,q)[,(p,q)...]]\n"
	       "       [--vlan-push PORT:VID[:PCP]] [--vlan-pop PORT] [--mirror SRC:DST[:VID]]\n"
	       "       [common options]\n\n"
	       "  -p PORTMASK          hexadecimal mask of the ports to use\n"
	       "  -P                   promiscuous mode on every port\n"
	       "  -q NQ                ports polled per lcore (default 1)\n"
	       "  --no-mac-updating    leave the MAC addresses alone (default: source = Tx\n"
	       "                       port MAC, destination = 02:00:00:00:00:<Tx port>)\n"
	       "  --portmap LIST       forwarding pairs (default: ports paired in mask order)\n"
	       "  --vlan-push P:VID[:PCP]  insert an 802.1Q tag into frames sent on port P\n"
	       "                       (mbufx_prepend: in the headroom when possible)\n"
	       "  --vlan-pop P         remove the outer 802.1Q tag of frames sent on port P\n"
	       "  --mirror S:D[:VID]   also send every frame received on port S to port D, as\n"
	       "                       received, tagged with VID if given (mbufx_fanout: the\n"
	       "                       copies share the payload)\n\n%s",
	       app_common_usage);
}

/* "A:B[:C]": min_f..max_f numbers, field i in [lo[i], hi[i]] */
static int
parse_colon(const char *opt, const char *arg, unsigned int min_f, unsigned int max_f,
	    const uint64_t *lo, const uint64_t *hi, uint64_t *v)
{
	char buf[64], *tok, *save;
	unsigned int n = 0;

	if (strlen(arg) >= sizeof(buf))
		return app_opt_error(opt, arg, "too long");
	strcpy(buf, arg);
	for (tok = strtok_r(buf, ":", &save); tok != NULL; tok = strtok_r(NULL, ":", &save)) {
		if (n == max_f || app_parse_u64(tok, lo[n], hi[n], &v[n]) < 0)
			return app_opt_error(opt, arg, "malformed or out of range");
		n++;
	}
	if (n < min_f || arg[0] == ':' || arg[strlen(arg) - 1] == ':' ||
	    strstr(arg, "::") != NULL)
		return app_opt_error(opt, arg, "malformed");
	return (int)n;
}

static int
check_port(const char *opt, uint64_t port)
{
	if ((l2fwd.portmask & (1ULL << port)) != 0)
		return 0;
	fprintf(stderr, "error: %s: port %" PRIu64 " is not in the port mask\n", opt, port);
	return -EINVAL;
}

static int
parse_args(int argc, char **argv)
{
	const uint64_t lo_push[] = { 0, 1, 0 }, hi_push[] = { RTE_MAX_ETHPORTS - 1, 4094, 7 };
	const uint64_t lo_mirror[] = { 0, 0, 1 };
	const uint64_t hi_mirror[] = { RTE_MAX_ETHPORTS - 1, RTE_MAX_ETHPORTS - 1, 4094 };
	uint64_t v[3];
	int opt, rc, n;

	l2fwd.rx_per_lcore = 1;
	l2fwd.mac_updating = true;
	opterr = 0;
	while ((opt = getopt_long(argc, argv, ":p:Pq:T:h", long_opts, NULL)) != EOF) {
		rc = app_opts_parse_common(&l2fwd.common, opt, optarg);
		if (rc < 0)
			return rc;
		if (rc > 0)
			continue;
		switch (opt) {
		case 'p':
			if (app_parse_portmask(optarg, &l2fwd.portmask) < 0)
				return app_opt_error("-p", optarg, "bad port mask");
			break;
		case 'P':
			l2fwd.promisc = true;
			break;
		case 'q':
			if (app_parse_u64(optarg, 1, APP_MAX_RXQ_PER_LCORE, &v[0]) < 0)
				return app_opt_error("-q", optarg, "expected 1..16");
			l2fwd.rx_per_lcore = (unsigned int)v[0];
			break;
		case OPT_NO_MAC_UPDATING:
			l2fwd.mac_updating = false;
			break;
		case OPT_MAC_UPDATING:
			l2fwd.mac_updating = true;
			break;
		case OPT_PORTMAP:
			nb_portmap = app_parse_tuples(optarg, 2, RTE_MAX_ETHPORTS - 1, portmap,
						      RTE_MAX_ETHPORTS);
			if (nb_portmap < 0)
				return app_opt_error("--portmap", optarg,
						 app_parse_strerror(nb_portmap));
			l2fwd.portmap_given = true;
			break;
		case OPT_VLAN_PUSH:
			n = parse_colon("--vlan-push", optarg, 2, 3, lo_push, hi_push, v);
			if (n < 0)
				return n;
			l2fwd.port[v[0]].push = true;
			l2fwd.port[v[0]].push_tci = (uint16_t)(v[1] | (n == 3 ? v[2] << 13 : 0));
			break;
		case OPT_VLAN_POP:
			if (app_parse_u64(optarg, 0, RTE_MAX_ETHPORTS - 1, &v[0]) < 0)
				return app_opt_error("--vlan-pop", optarg, "bad port");
			l2fwd.port[v[0]].pop = true;
			break;
		case OPT_MIRROR:
			n = parse_colon("--mirror", optarg, 2, 3, lo_mirror, hi_mirror, v);
			if (n < 0)
				return n;
			if (v[0] == v[1])
				return app_opt_error("--mirror", optarg, "source and mirror port are "
						 "the same");
			if (l2fwd.port[v[0]].mirror)
				return app_opt_error("--mirror", optarg, "port already mirrored");
			l2fwd.port[v[0]].mirror = true;
			l2fwd.port[v[0]].mirror_port = (uint16_t)v[1];
			l2fwd.port[v[0]].mirror_tci = n == 3 ? (uint16_t)v[2] : 0;
			break;
		case 'h':
		case OPT_HELP:
			usage();
			return 1;
		default:
			return app_opt_unknown(opt, argv);
		}
	}
	return app_opts_check_end(argc, argv, l2fwd.portmask);
}

/* Destination ports (l2fwd's pairing) and option ports against the mask. */
static int
check_config(void)
{
	uint16_t port, last = RTE_MAX_ETHPORTS;
	bool seen[RTE_MAX_ETHPORTS] = { false };
	unsigned int nb = 0;
	int i;

	for (port = 0; port < RTE_MAX_ETHPORTS; port++) {
		const struct l2fwd_port_conf *pc = &l2fwd.port[port];

		if ((pc->push || pc->pop) && check_port(pc->push ? "--vlan-push" : "--vlan-pop",
							  port) < 0)
			return -EINVAL;
		if (pc->push && pc->pop) {
			fprintf(stderr, "error: port %u has both --vlan-push and --vlan-pop\n",
				port);
			return -EINVAL;
		}
		if (pc->mirror && (check_port("--mirror", port) < 0 ||
				   check_port("--mirror", pc->mirror_port) < 0))
			return -EINVAL;
	}
	if (l2fwd.portmap_given) {
		for (i = 0; i < nb_portmap; i++) {
			uint16_t a = (uint16_t)portmap[2 * i], b = (uint16_t)portmap[2 * i + 1];

			if (check_port("--portmap", a) < 0 || check_port("--portmap", b) < 0)
				return -EINVAL;
			if (seen[a] || seen[b] || a == b) {
				fprintf(stderr, "error: --portmap: port %u is in more than one "
					"pair\n", seen[a] || a == b ? a : b);
				return -EINVAL;
			}
			seen[a] = seen[b] = true;
			l2fwd.port[a].dst = b;
			l2fwd.port[b].dst = a;
		}
		RTE_ETH_FOREACH_DEV(port)
			if ((l2fwd.portmask & (1ULL << port)) && !seen[port]) {
				fprintf(stderr, "error: --portmap: port %u is in the mask but in "
					"no pair\n", port);
				return -EINVAL;
			}
		return 0;
	}
	RTE_ETH_FOREACH_DEV(port) {
		if ((l2fwd.portmask & (1ULL << port)) == 0)
			continue;
		if (nb++ % 2) {
			l2fwd.port[port].dst = last;
			l2fwd.port[last].dst = port;
		} else {
			last = port;
			l2fwd.port[port].dst = port;
		}
	}
	if (nb % 2)
		printf("notice: odd number of ports; port %u sends back out itself\n", last);
	return 0;
}

/* -q ports per lcore, lcores in order, the main lcore included (as l2fwd) */
static int
assign_lcores(void)
{
	unsigned int lcore = rte_get_next_lcore(-1, 0, 0), rank = 0;
	uint16_t port;

	memset(app_lcores, 0, sizeof(app_lcores));
	RTE_ETH_FOREACH_DEV(port) {
		if ((l2fwd.portmask & (1ULL << port)) == 0)
			continue;
		if (lcore >= RTE_MAX_LCORE) {
			fprintf(stderr, "error: not enough lcores for the ports (-q %u)\n",
				l2fwd.rx_per_lcore);
			return -EINVAL;
		}
		app_lcores[lcore].rxq[app_lcores[lcore].n_rxq].port = port;
		app_lcores[lcore].n_rxq++;
		if (app_lcores[lcore].n_rxq == l2fwd.rx_per_lcore)
			lcore = rte_get_next_lcore(lcore, 0, 0);
	}
	RTE_LCORE_FOREACH(lcore) {
		struct app_lcore *lc = &app_lcores[lcore];

		if (lc->n_rxq == 0)
			continue;
		lc->txq = (uint16_t)rank++;
	}
	return (int)rank;
}

/* Per-lcore state (app_lcore.priv): the forwarding core's context. */
struct l2fwd_lcore {
	struct l2fwd_ctx ctx;
	struct l2fwd_rx rx[RTE_MAX_ETHPORTS];	/* per input port */
	struct l2fwd_out out;
};

static __rte_always_inline void
l2fwd_burst(struct app_lcore *lc, uint16_t port, struct rte_mbuf **pkts, uint16_t n)
{
	struct l2fwd_lcore *x = lc->priv;
	struct l2fwd_out *out = &x->out;
	uint16_t i;

	lc->ctr[port].drop += l2fwd_process_burst(&x->ctx, &x->rx[port], pkts, n, out);
	for (i = 0; i < out->n; i++)
		app_tx(lc, out->port[i], out->m[i]);
}

int
l2fwd_lcore_main(void *arg __rte_unused)
{
	return app_lcore_run(l2fwd_burst, 0);
}

/* After the ports: the forwarding context of each forwarding lcore. */
static int
lcores_init(void)
{
	struct rte_ether_addr src_mac[RTE_MAX_ETHPORTS];
	unsigned int lcore;
	uint16_t port;

	RTE_BUILD_BUG_ON(APP_MAX_BURST > L2FWD_BURST_MAX);
	RTE_BUILD_BUG_ON(L2FWD_DROP_MAX > APP_MAX_DROP_REASONS);
	for (port = 0; port < RTE_MAX_ETHPORTS; port++)
		src_mac[port] = app_port_state[port].mac;
	RTE_LCORE_FOREACH(lcore) {
		struct app_lcore *lc = &app_lcores[lcore];
		struct l2fwd_lcore *x;

		if (lc->n_rxq == 0)
			continue;
		x = rte_zmalloc("l2fwd_lcore", sizeof(*x), RTE_CACHE_LINE_SIZE);
		if (x == NULL)
			return -ENOMEM;
		lc->priv = x;
		l2fwd_ctx_init(&x->ctx, l2fwd.port, l2fwd.mac_updating, src_mac, lc->drop);
		for (port = 0; port < RTE_MAX_ETHPORTS; port++) {
			x->rx[port].zs = app_port_state[port].enabled ? app_pools_of_port(port) :
					 NULL;
			x->rx[port].port = port;
		}
	}
	return 0;
}

static void
lcores_free(void)
{
	unsigned int lcore;

	RTE_LCORE_FOREACH(lcore) {
		rte_free(app_lcores[lcore].priv);
		app_lcores[lcore].priv = NULL;
	}
}

static void
sum_lcores(struct l2fwd_counters *t)
{
	unsigned int lcore;

	memset(t, 0, sizeof(*t));
	RTE_LCORE_FOREACH(lcore) {
		const struct l2fwd_lcore *x = app_lcores[lcore].priv;

		if (x == NULL)
			continue;
		t->mirrored += x->ctx.cnt.mirrored;
		t->mirror_fail += x->ctx.cnt.mirror_fail;
		t->pushed += x->ctx.cnt.pushed;
		t->popped += x->ctx.cnt.popped;
	}
}

static void
summary_hook(FILE *f)
{
	struct l2fwd_counters t;

	sum_lcores(&t);
	fprintf(f, "vlan tags pushed %" PRIu64 ", popped %" PRIu64 "; mirrored %" PRIu64
		", not mirrored (no mbufs) %" PRIu64 "\n", t.pushed, t.popped, t.mirrored,
		t.mirror_fail);
}

static void
json_hook(FILE *f)
{
	struct l2fwd_counters t;

	sum_lcores(&t);
	fprintf(f, ", \"vlan_pushed\": %" PRIu64 ", \"vlan_popped\": %" PRIu64
		", \"mirrored\": %" PRIu64 ", \"mirror_fail\": %" PRIu64, t.pushed, t.popped,
		t.mirrored, t.mirror_fail);
}

static const struct app_hooks hooks = {
	.name = "mbufx-l2fwd",
	.summary = summary_hook,
	.json = json_hook,
	.cleanup = lcores_free,
};

int
main(int argc, char **argv)
{
	struct app_pool_req preq;
	struct app_port_req req;
	unsigned int nb_ports;
	uint16_t port;
	int rc, nb_lcores;
	bool chains = false;

	if (app_eal_init(&argc, &argv, &l2fwd.common) < 0)
		return APP_EXIT_SETUP;
	rc = parse_args(argc, argv);
	if (rc > 0) {
		rte_eal_cleanup();
		return APP_EXIT_OK;
	}
	if (rc < 0) {
		fprintf(stderr, "see mbufx-l2fwd --help\n");
		goto err;
	}
	if (app_ports_check(l2fwd.portmask) < 0 || check_config() < 0 ||
	    app_stats_set_drop_names(drop_names, RTE_DIM(drop_names)) < 0)
		goto err;
	nb_lcores = assign_lcores();
	if (nb_lcores < 0)
		goto err;
	for (port = 0; port < RTE_MAX_ETHPORTS; port++)
		chains |= l2fwd.port[port].push || l2fwd.port[port].pop || l2fwd.port[port].mirror;
	nb_ports = __builtin_popcountll(l2fwd.portmask);

	memset(&preq, 0, sizeof(preq));
	preq.portmask = l2fwd.portmask;
	preq.max_frame = RTE_ETHER_MAX_LEN - RTE_ETHER_CRC_LEN;
	preq.auto_mbufs = app_pools_auto_mbufs(nb_ports * L2FWD_RXD, nb_ports,
					       (unsigned int)nb_lcores, L2FWD_TXD);
	if (app_pools_create(&l2fwd.common, &preq) < 0)
		goto err;

	memset(&req, 0, sizeof(req));
	req.nb_rxq = 1;
	req.nb_txq = (uint16_t)nb_lcores;
	req.nb_rxd = L2FWD_RXD;
	req.nb_txd = L2FWD_TXD;
	req.max_frame = preq.max_frame;
	req.promisc = l2fwd.promisc;
	req.tx_chains = chains || l2fwd.common.scatter;
	req.tx_one_pool = !req.tx_chains;
	RTE_ETH_FOREACH_DEV(port) {
		if ((l2fwd.portmask & (1ULL << port)) == 0)
			continue;
		if (app_port_setup(port, &req) < 0)
			goto err;
		printf("        forwards to port %u%s%s%s\n", l2fwd.port[port].dst,
		       l2fwd.port[port].push ? ", tags frames sent here" : "",
		       l2fwd.port[port].pop ? ", untags frames sent here" : "",
		       l2fwd.port[port].mirror ? ", mirrored" : "");
	}
	if (lcores_init() < 0)
		goto err;

	return app_run_main(&l2fwd.common, &hooks, l2fwd_lcore_main);

err:
	return app_setup_abort(&hooks);
}
