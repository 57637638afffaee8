/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The mbufx authors
 */

/*
 * mbufx-l3fwd: command line, set-up order and shutdown.
 *
 * Everything that can be wrong with the command line or the rule files is
 * found before any port is configured: options, port mask against the
 * existing ports, --config against the enabled lcores and ports, every rule.
 * Only then are the zone sets, lookup tables and ports set up.
 */

#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_eal.h>
#include <rte_ethdev.h>
#include <rte_lcore.h>

#include <rte_udp.h>

#include "app_gen.h"
#include "app_pools.h"
#include "app_port.h"
#include "app_run.h"
#include "app_stats.h"
#include "l3fwd.h"

#define L3FWD_MAX_CONFIG 128
#define L3FWD_DEFAULT_RXD 1024
#define L3FWD_DEFAULT_TXD 1024
#define L3FWD_MIN_PKT_LEN 64
#define L3FWD_MAX_PKT_LEN 9600

static const char *const drop_names[] = {
	[L3FWD_DROP_NOT_IP - APP_DROP_COMMON_MAX] = "not_ip",
	[L3FWD_DROP_RUNT - APP_DROP_COMMON_MAX] = "runt",
	[L3FWD_DROP_OVERSIZE - APP_DROP_COMMON_MAX] = "oversize",
	[L3FWD_DROP_BAD_VERSION - APP_DROP_COMMON_MAX] = "bad_version",
	[L3FWD_DROP_BAD_IHL - APP_DROP_COMMON_MAX] = "bad_ihl",
	[L3FWD_DROP_TRUNCATED - APP_DROP_COMMON_MAX] = "truncated",
	[L3FWD_DROP_BAD_LEN - APP_DROP_COMMON_MAX] = "bad_total_len",
	[L3FWD_DROP_BAD_CKSUM - APP_DROP_COMMON_MAX] = "bad_cksum",
	[L3FWD_DROP_TTL - APP_DROP_COMMON_MAX] = "ttl_exceeded",
	[L3FWD_DROP_MARTIAN - APP_DROP_COMMON_MAX] = "martian",
	[L3FWD_DROP_NO_ROUTE - APP_DROP_COMMON_MAX] = "no_route",
	[L3FWD_DROP_ENCAP - APP_DROP_COMMON_MAX] = "encap_nombuf",
	[L3FWD_DROP_FANOUT - APP_DROP_COMMON_MAX] = "fanout_nombuf",
	[L3FWD_DROP_SHARED - APP_DROP_COMMON_MAX] = "shared_nombuf",
};

static struct {
	uint16_t port;
	uint16_t queue;
	uint16_t lcore;
} cfg[L3FWD_MAX_CONFIG];
static unsigned int nb_cfg;

enum {
	OPT_CONFIG = APP_OPT_COMMON_END,
	OPT_LOOKUP,
	OPT_RULE4,
	OPT_RULE6,
	OPT_IPV6,
	OPT_PARSE_PTYPE,
	OPT_ETH_DEST,
	OPT_MAX_PKT_LEN,
	OPT_RXD,
	OPT_TXD,
	OPT_PER_PORT_POOL,
	OPT_NO_NUMA,
	OPT_ENCAP_CHAIN,
	OPT_BENCH_GEN,
	OPT_BENCH_RX_CKSUM,
	OPT_HELP,
};

static const struct option long_opts[] = {
	{ "config", required_argument, NULL, OPT_CONFIG },
	{ "lookup", required_argument, NULL, OPT_LOOKUP },
	{ "rule_ipv4", required_argument, NULL, OPT_RULE4 },
	{ "rule_ipv6", required_argument, NULL, OPT_RULE6 },
	{ "ipv6", no_argument, NULL, OPT_IPV6 },
	{ "parse-ptype", no_argument, NULL, OPT_PARSE_PTYPE },
	{ "eth-dest", required_argument, NULL, OPT_ETH_DEST },
	{ "max-pkt-len", required_argument, NULL, OPT_MAX_PKT_LEN },
	{ "rx-queue-size", required_argument, NULL, OPT_RXD },
	{ "tx-queue-size", required_argument, NULL, OPT_TXD },
	{ "per-port-pool", no_argument, NULL, OPT_PER_PORT_POOL },
	{ "no-numa", no_argument, NULL, OPT_NO_NUMA },
	{ "encap-chain", no_argument, NULL, OPT_ENCAP_CHAIN },
	{ "bench-gen", required_argument, NULL, OPT_BENCH_GEN },
	{ "bench-rx-cksum", no_argument, NULL, OPT_BENCH_RX_CKSUM },
	{ "help", no_argument, NULL, OPT_HELP },
	APP_COMMON_LONG_OPTS,
	{ NULL, 0, NULL, 0 },
};

static void
usage(const char *prg)
{
	printf("Usage: %s [EAL options] -- -p PORTMASK [-P] [--config (port,queue,lcore)[,...]]\n"
	       "       [--lookup lpm|em] [--rule_ipv4 FILE] [--rule_ipv6 FILE] [--ipv6]\n"
	       "       [--parse-ptype] [--eth-dest=X,MM:MM:MM:MM:MM:MM] [--max-pkt-len N]\n"
	       "       [--rx-queue-size N] [--tx-queue-size N] [--per-port-pool] [--no-numa]\n"
	       "       [--encap-chain] [--bench-gen SIZE [--bench-rx-cksum]] [common options]\n\n"
	       "  -p PORTMASK          hexadecimal mask of the ports to use\n"
	       "  -P                   promiscuous mode on every port\n"
	       "  -L, -E               same as --lookup lpm / --lookup em\n"
	       "  --config LIST        Rx queues and the lcores polling them (default: queue 0\n"
	       "                       of each port, ports spread over the lcores)\n"
	       "  --lookup lpm|em      longest prefix match (default) or exact 5-tuple match\n"
	       "  --rule_ipv4 FILE     IPv4 rules (default: 198.18.P.0/24 -> port P)\n"
	       "  --rule_ipv6 FILE     IPv6 rules (default: 2001:200:0:P::/64 -> port P)\n"
	       "                       rule syntax: R<prefix>/<len> <port>[,<port>..] [action]\n"
	       "                       action: vlan VID[:PCP] | mpls LABEL | ipip SRC DST |\n"
	       "                       gre SRC DST; a port list makes a multicast route\n"
	       "  --ipv6               accepted for l3fwd compatibility: IPv6 is always routed\n"
	       "  --parse-ptype        classify packets in software even if the port can\n"
	       "  --eth-dest=X,MAC     destination MAC on port X (default 02:00:00:00:00:X)\n"
	       "  --max-pkt-len N      longest frame incl. CRC, %u..%u (default 1518); above\n"
	       "                       2048 frames land in ONE jumbo-zone segment\n"
	       "  --rx-queue-size N    Rx descriptors per queue (default %u)\n"
	       "  --tx-queue-size N    Tx descriptors per queue (default %u)\n"
	       "  --per-port-pool      one zone set per port instead of per socket\n"
	       "  --no-numa            everything on socket 0\n"
	       "  --encap-chain        always chain a new header mbuf for encapsulation (the\n"
	       "                       classic way; for comparison with in-place prepend)\n"
	       "  --bench-gen SIZE     benchmark on two net_ring ports: a software NIC feeds\n"
	       "                       port 0 with SIZE-byte frames (CRC included) to\n"
	       "                       198.18.1.1 and frees what reaches port 1, in the\n"
	       "                       main lcore's loop (late attach on mbufx pools)\n"
	       "  --bench-rx-cksum     with --bench-gen: the software NIC marks every frame's\n"
	       "                       IPv4 checksum good (RTE_MBUF_F_RX_IP_CKSUM_GOOD) and\n"
	       "                       port 0 is taken as verifying checksums: the path of\n"
	       "                       a NIC with Rx checksum offload\n\n%s",
	       prg, L3FWD_MIN_PKT_LEN, L3FWD_MAX_PKT_LEN, L3FWD_DEFAULT_RXD, L3FWD_DEFAULT_TXD,
	       app_common_usage);
}

static int
opt_error(const char *opt, const char *arg, int rc)
{
	return app_opt_error(opt, arg, app_parse_strerror(rc));
}

static int
parse_config(const char *arg)
{
	uint64_t v[L3FWD_MAX_CONFIG * 3];
	int n, i;

	n = app_parse_tuples(arg, 3, RTE_MAX(RTE_MAX_ETHPORTS, RTE_MAX_LCORE) - 1, v,
			     L3FWD_MAX_CONFIG);
	if (n < 0)
		return opt_error("--config", arg, n);
	for (i = 0; i < n; i++) {
		/* one bound for the three fields: check ports and lcores apart */
		if (v[3 * i] >= RTE_MAX_ETHPORTS || v[3 * i + 2] >= RTE_MAX_LCORE)
			return opt_error("--config", arg, -ERANGE);
		cfg[i].port = (uint16_t)v[3 * i];
		cfg[i].queue = (uint16_t)v[3 * i + 1];
		cfg[i].lcore = (uint16_t)v[3 * i + 2];
	}
	nb_cfg = (unsigned int)n;
	return 0;
}

static int
parse_eth_dest(const char *arg)
{
	char buf[64], *comma;
	uint64_t port;
	int rc;

	snprintf(buf, sizeof(buf), "%s", arg);
	comma = strchr(buf, ',');
	if (comma == NULL)
		return opt_error("--eth-dest", arg, -EINVAL);
	*comma = '\0';
	rc = app_parse_u64(buf, 0, RTE_MAX_ETHPORTS - 1, &port);
	if (rc == 0)
		rc = app_parse_mac(comma + 1, &l3fwd.dst_mac[port]);
	return rc < 0 ? opt_error("--eth-dest", arg, rc) : 0;
}

/* An option without a value: @return true when @p opt is one. */
static bool
parse_flag(int opt)
{
	switch (opt) {
	case 'P':
		l3fwd.promisc = true;
		break;
	case 'L':
		l3fwd.lookup = L3FWD_LOOKUP_LPM;
		break;
	case 'E':
		l3fwd.lookup = L3FWD_LOOKUP_EM;
		break;
	case OPT_IPV6:
		l3fwd.ipv6_flag = true;
		break;
	case OPT_PARSE_PTYPE:
		l3fwd.parse_ptype = true;
		break;
	case OPT_PER_PORT_POOL:
		l3fwd.per_port_pool = true;
		break;
	case OPT_NO_NUMA:
		l3fwd.no_numa = true;
		break;
	case OPT_ENCAP_CHAIN:
		l3fwd.encap_chain = true;
		break;
	case OPT_BENCH_RX_CKSUM:
		l3fwd.bench_rx_cksum = true;
		break;
	default:
		return false;
	}
	return true;
}

/* A frame length option, CRC included: --max-pkt-len, --bench-gen. */
static int
parse_frame_len(const char *opt, const char *arg, uint32_t *len)
{
	uint64_t v;
	int rc = app_parse_u64(arg, L3FWD_MIN_PKT_LEN, L3FWD_MAX_PKT_LEN, &v);

	if (rc < 0)
		return opt_error(opt, arg, rc);
	*len = (uint32_t)v;
	return 0;
}

/* A descriptor count option: --rx-queue-size, --tx-queue-size. */
static int
parse_ring_size(const char *opt, const char *arg, uint16_t *n)
{
	uint64_t v;
	int rc = app_parse_u64(arg, 32, 32768, &v);

	if (rc < 0)
		return opt_error(opt, arg, rc);
	*n = (uint16_t)v;
	return 0;
}

/* An option with a value @p arg: @return 0 or < 0 (printed). */
static int
parse_value(int opt, const char *arg, char **argv)
{
	uint32_t len = 0;
	int rc;

	switch (opt) {
	case 'p':
		rc = app_parse_portmask(arg, &l3fwd.portmask);
		return rc < 0 ? opt_error("-p", arg, rc) : 0;
	case OPT_CONFIG:
		return parse_config(arg) < 0 ? -EINVAL : 0;
	case OPT_LOOKUP:
		if (strcmp(arg, "lpm") == 0)
			l3fwd.lookup = L3FWD_LOOKUP_LPM;
		else if (strcmp(arg, "em") == 0)
			l3fwd.lookup = L3FWD_LOOKUP_EM;
		else
			return opt_error("--lookup", arg, -EINVAL);
		return 0;
	case OPT_RULE4:
		l3fwd.rule_v4 = arg;
		return 0;
	case OPT_RULE6:
		l3fwd.rule_v6 = arg;
		return 0;
	case OPT_ETH_DEST:
		return parse_eth_dest(arg) < 0 ? -EINVAL : 0;
	case OPT_MAX_PKT_LEN:
		rc = parse_frame_len("--max-pkt-len", arg, &len);
		if (rc == 0)
			l3fwd.max_frame = len - RTE_ETHER_CRC_LEN;
		return rc;
	case OPT_RXD:
		return parse_ring_size("--rx-queue-size", arg, &l3fwd.nb_rxd);
	case OPT_TXD:
		return parse_ring_size("--tx-queue-size", arg, &l3fwd.nb_txd);
	case OPT_BENCH_GEN:
		return parse_frame_len("--bench-gen", arg, &l3fwd.bench_gen);
	default:
		return app_opt_unknown(opt, argv);
	}
}

/* What the options say together: --bench-gen's ports and frame size. */
static int
check_args(void)
{
	if (l3fwd.bench_rx_cksum && l3fwd.bench_gen == 0) {
		fprintf(stderr, "error: --bench-rx-cksum needs --bench-gen\n");
		return -EINVAL;
	}
	if (l3fwd.bench_gen != 0 && (l3fwd.portmask != 0x3 || nb_cfg != 0)) {
		fprintf(stderr, "error: --bench-gen takes -p 3 (port 0 source, port 1 sink) "
			"and no --config\n");
		return -EINVAL;
	}
	if (l3fwd.bench_gen != 0 && l3fwd.bench_gen - RTE_ETHER_CRC_LEN > l3fwd.max_frame) {
		fprintf(stderr, "error: --bench-gen %u needs --max-pkt-len %u or more\n",
			l3fwd.bench_gen, l3fwd.bench_gen);
		return -EINVAL;
	}
	return 0;
}

/* @return 0, 1 after --help, or < 0 (printed). */
static int
parse_args(int argc, char **argv)
{
	int opt, rc;

	l3fwd.max_frame = RTE_ETHER_MAX_LEN - RTE_ETHER_CRC_LEN;
	l3fwd.nb_rxd = L3FWD_DEFAULT_RXD;
	l3fwd.nb_txd = L3FWD_DEFAULT_TXD;
	opterr = 0;
	while ((opt = getopt_long(argc, argv, ":p:PLET:h", long_opts, NULL)) != EOF) {
		rc = app_opts_parse_common(&l3fwd.common, opt, optarg);
		if (rc < 0)
			return rc;
		if (rc > 0 || parse_flag(opt))
			continue;
		if (opt == 'h' || opt == OPT_HELP) {
			usage(argv[0]);
			return 1;
		}
		rc = parse_value(opt, optarg, argv);
		if (rc < 0)
			return rc;
	}
	if (app_opts_check_end(argc, argv, l3fwd.portmask) < 0)
		return -EINVAL;
	return check_args();
}

/* --config against the lcores and ports; fills app_lcores[] */
static int
apply_config(void)
{
	uint16_t nb_rxq[RTE_MAX_ETHPORTS] = { 0 };
	unsigned int i, j, lcore, rank = 0;
	uint16_t port;

	if (nb_cfg == 0) {
		/* default: queue 0 of every enabled port, ports spread over the lcores */
		lcore = rte_get_main_lcore();
		RTE_ETH_FOREACH_DEV(port) {
			if ((l3fwd.portmask & (1ULL << port)) == 0 || nb_cfg == L3FWD_MAX_CONFIG ||
			    (l3fwd.bench_gen != 0 && port != 0))
				continue;
			cfg[nb_cfg].port = port;
			cfg[nb_cfg].queue = 0;
			cfg[nb_cfg].lcore = (uint16_t)lcore;
			nb_cfg++;
			lcore = rte_get_next_lcore(lcore, 0, 1);
		}
	}
	for (i = 0; i < nb_cfg; i++) {
		if (!rte_lcore_is_enabled(cfg[i].lcore)) {
			fprintf(stderr, "error: --config: lcore %u is not enabled (EAL -l/-c)\n",
				cfg[i].lcore);
			return -EINVAL;
		}
		if ((l3fwd.portmask & (1ULL << cfg[i].port)) == 0) {
			fprintf(stderr, "error: --config: port %u is not in the port mask\n",
				cfg[i].port);
			return -EINVAL;
		}
		for (j = 0; j < i; j++)
			if (cfg[j].port == cfg[i].port && cfg[j].queue == cfg[i].queue) {
				fprintf(stderr, "error: --config: rx queue %u of port %u listed "
					"twice\n", cfg[i].queue, cfg[i].port);
				return -EINVAL;
			}
		nb_rxq[cfg[i].port] = RTE_MAX(nb_rxq[cfg[i].port], cfg[i].queue + 1);
	}
	for (port = 0; port < RTE_MAX_ETHPORTS; port++) {
		unsigned int seen = 0;

		for (i = 0; i < nb_cfg; i++)
			seen += cfg[i].port == port;
		if (seen != nb_rxq[port]) {
			fprintf(stderr, "error: --config: rx queues of port %u must be numbered "
				"0..%u without gaps\n", port, seen - 1);
			return -EINVAL;
		}
	}
	memset(app_lcores, 0, sizeof(app_lcores));
	for (i = 0; i < nb_cfg; i++) {
		struct app_lcore *lc = &app_lcores[cfg[i].lcore];

		if (lc->n_rxq == APP_MAX_RXQ_PER_LCORE) {
			fprintf(stderr, "error: --config: more than %u rx queues on lcore %u\n",
				APP_MAX_RXQ_PER_LCORE, cfg[i].lcore);
			return -EINVAL;
		}
		lc->rxq[lc->n_rxq].port = cfg[i].port;
		lc->rxq[lc->n_rxq].queue = cfg[i].queue;
		lc->n_rxq++;
	}
	RTE_LCORE_FOREACH(lcore)
		if (app_lcores[lcore].n_rxq != 0)
			app_lcores[lcore].txq = (uint16_t)rank++;
	return (int)rank;
}

static int
setup_ports(unsigned int nb_lcores)
{
	struct app_port_req req;
	uint16_t port;
	unsigned int i;
	int rc;

	memset(&req, 0, sizeof(req));
	req.nb_txq = (uint16_t)nb_lcores;
	req.nb_rxd = l3fwd.nb_rxd;
	req.nb_txd = l3fwd.nb_txd;
	req.max_frame = l3fwd.max_frame;
	req.promisc = l3fwd.promisc;
	req.rx_cksum = true;
	req.need_ptype = true;
	req.force_sw_ptype = l3fwd.parse_ptype;
	/* chains: scattered Rx, chained encapsulation headers, multicast copies */
	req.tx_chains = l3fwd.any_encap || l3fwd.any_mcast || l3fwd.common.scatter;
	req.tx_one_pool = !req.tx_chains;
	RTE_ETH_FOREACH_DEV(port) {
		if ((l3fwd.portmask & (1ULL << port)) == 0)
			continue;
		req.nb_rxq = 0;
		for (i = 0; i < nb_cfg; i++)
			req.nb_rxq += cfg[i].port == port;
		if (l3fwd.bench_gen != 0 && port == 1)
			req.nb_rxq = 1;		/* the generator's sink */
		rc = app_port_setup(port, &req);
		if (rc < 0)
			return rc;
	}
	/* the software NIC gives port 0 its checksum verdicts (setup_bench_gen()) */
	if (l3fwd.bench_rx_cksum)
		app_port_state[0].rx_cksum = true;
	return 0;
}

static int
setup_tables(void)
{
	bool done[RTE_MAX_NUMA_NODES] = { false };
	unsigned int lcore;
	int rc;

	RTE_LCORE_FOREACH(lcore) {
		int s = l3fwd.no_numa ? 0 : (int)rte_lcore_to_socket_id(lcore);

		if (app_lcores[lcore].n_rxq == 0 || done[s])
			continue;
		rc = l3fwd.lookup == L3FWD_LOOKUP_LPM ? l3fwd_lpm_build(s) : l3fwd_em_build(s);
		if (rc < 0)
			return rc;
		done[s] = true;
	}
	return 0;
}

/* --bench-gen: both ports net_ring; IPv4/UDP 198.18.0.1 -> 198.18.1.1 */
static int
setup_bench_gen(void)
{
	const uint32_t frame = l3fwd.bench_gen - RTE_ETHER_CRC_LEN;
	uint8_t hdr[sizeof(struct rte_ether_hdr) + sizeof(struct rte_ipv4_hdr) +
		    sizeof(struct rte_udp_hdr)] __rte_aligned(8);
	struct rte_ether_hdr *eth = (struct rte_ether_hdr *)hdr;
	struct rte_ipv4_hdr *ip = (struct rte_ipv4_hdr *)(eth + 1);
	struct rte_udp_hdr *udp = (struct rte_udp_hdr *)(ip + 1);
	struct app_gen_conf c;
	uint16_t port;

	for (port = 0; port < 2; port++)
		if (strcmp(app_port_state[port].driver, "net_ring") != 0) {
			fprintf(stderr, "error: --bench-gen needs net_ring ports; port %u is %s\n",
				port, app_port_state[port].driver);
			return -EINVAL;
		}
	memset(hdr, 0, sizeof(hdr));
	eth->dst_addr = app_port_state[0].mac;
	eth->src_addr.addr_bytes[0] = RTE_ETHER_LOCAL_ADMIN_ADDR;
	eth->src_addr.addr_bytes[5] = 0x99;
	eth->ether_type = RTE_BE16(RTE_ETHER_TYPE_IPV4);
	ip->version_ihl = RTE_IPV4_VHL_DEF;
	ip->total_length = rte_cpu_to_be_16(frame - RTE_ETHER_HDR_LEN);
	ip->time_to_live = 64;
	ip->next_proto_id = IPPROTO_UDP;
	ip->src_addr = rte_cpu_to_be_32(198u << 24 | 18u << 16 | 0u << 8 | 1u);
	ip->dst_addr = rte_cpu_to_be_32(198u << 24 | 18u << 16 | 1u << 8 | 1u);
	ip->hdr_checksum = rte_ipv4_cksum(ip);
	udp->src_port = RTE_BE16(1024);
	udp->dst_port = RTE_BE16(9);
	udp->dgram_len = rte_cpu_to_be_16(frame - RTE_ETHER_HDR_LEN - sizeof(*ip));

	memset(&c, 0, sizeof(c));
	c.src_port = 0;
	c.sink_port = 1;
	c.mp = app_pools_rx_pool(0);
	c.late_attach = strcmp(l3fwd.common.pool_ops, "mbufx") == 0;
	c.frame_len = frame;
	c.ol_flags = l3fwd.bench_rx_cksum ? RTE_MBUF_F_RX_IP_CKSUM_GOOD : 0;
	c.hdr = hdr;
	c.hdr_len = sizeof(hdr);
	return app_gen_init(&c);
}

static void
stopped_hook(void)
{
	if (l3fwd.bench_gen != 0)
		app_gen_stop();
}

static void
json_hook(FILE *f)
{
	l3fwd_json_routes(f);
	if (l3fwd.bench_gen != 0)
		app_gen_json(f);
}

static void
summary_hook(FILE *f)
{
	l3fwd_print_routes(f);
}

static void
cleanup_hook(void)
{
	l3fwd_lcores_free();
	l3fwd_tables_free();
}

static const struct app_hooks hooks = {
	.name = "mbufx-l3fwd",
	.summary = summary_hook,
	.json = json_hook,
	.stopped = stopped_hook,
	.cleanup = cleanup_hook,
};

int
main(int argc, char **argv)
{
	struct app_pool_req preq;
	uint16_t port;
	int rc, nb_lcores;

	if (app_eal_init(&argc, &argv, &l3fwd.common) < 0)
		return APP_EXIT_SETUP;
	RTE_ETH_FOREACH_DEV(port) {
		struct rte_ether_addr *mac = &l3fwd.dst_mac[port];

		mac->addr_bytes[0] = RTE_ETHER_LOCAL_ADMIN_ADDR;
		mac->addr_bytes[5] = (uint8_t)port;
	}
	rc = parse_args(argc, argv);
	if (rc > 0) {
		rte_eal_cleanup();
		return APP_EXIT_OK;
	}
	if (rc < 0)
		goto usage_err;
	if (app_ports_check(l3fwd.portmask) < 0)
		goto err;
	nb_lcores = apply_config();
	if (nb_lcores < 0)
		goto err;
	if (app_stats_set_drop_names(drop_names, RTE_DIM(drop_names)) < 0 ||
	    l3fwd_routes_load() < 0)
		goto err;

	memset(&preq, 0, sizeof(preq));
	preq.portmask = l3fwd.portmask;
	preq.max_frame = l3fwd.max_frame;
	preq.auto_mbufs = app_pools_auto_mbufs(nb_cfg * l3fwd.nb_rxd,
					       __builtin_popcountll(l3fwd.portmask),
					       (unsigned int)nb_lcores, l3fwd.nb_txd);
	preq.per_port = l3fwd.per_port_pool;
	preq.no_numa = l3fwd.no_numa;
	if (app_pools_create(&l3fwd.common, &preq) < 0 || setup_tables() < 0 ||
	    setup_ports((unsigned int)nb_lcores) < 0 || l3fwd_lcores_init() < 0 ||
	    (l3fwd.bench_gen != 0 && setup_bench_gen() < 0))
		goto err;

	return app_run_main(&l3fwd.common, &hooks, l3fwd_lcore_main);

usage_err:
	fprintf(stderr, "see mbufx-l3fwd --help\n");
err:
	return app_setup_abort(&hooks);
}
