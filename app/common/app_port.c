/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The mbufx authors
 */

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <rte_cycles.h>
#include <rte_mbuf.h>

#include "app_pools.h"
#include "app_port.h"

/* Bound on what app_ports_close() drains from one queue (infinite sources). */
#define APP_DRAIN_MAX 65536

struct app_port_state app_port_state[RTE_MAX_ETHPORTS];

int
app_ports_check(uint64_t mask)
{
	uint16_t port;
	int rc = 0;

	for (port = 0; port < RTE_MAX_ETHPORTS; port++) {
		if ((mask & (1ULL << port)) == 0 || rte_eth_dev_is_valid_port(port))
			continue;
		fprintf(stderr, "error: port %u is in the port mask but does not exist "
			"(%u ports available)\n", port, rte_eth_dev_count_avail());
		rc = -ENODEV;
	}
	return rc;
}

/* Does the port classify both IPv4 and IPv6 at L3? */
static bool
port_has_l3_ptypes(uint16_t port)
{
	uint32_t ptypes[64];
	bool v4 = false, v6 = false;
	int i, n;

	n = rte_eth_dev_get_supported_ptypes(port, RTE_PTYPE_L3_MASK, ptypes,
					     RTE_DIM(ptypes));
	for (i = 0; i < n && i < (int)RTE_DIM(ptypes); i++) {
		if (RTE_ETH_IS_IPV4_HDR(ptypes[i]))
			v4 = true;
		if (RTE_ETH_IS_IPV6_HDR(ptypes[i]))
			v6 = true;
	}
	return v4 && v6;
}

static void
port_print(uint16_t port, const struct app_port_req *req, uint16_t nb_rxd, uint16_t nb_txd)
{
	const struct app_port_state *ps = &app_port_state[port];
	struct rte_mempool *mp = app_pools_rx_pool(port);
	char mac[RTE_ETHER_ADDR_FMT_SIZE];

	rte_ether_format_addr(mac, sizeof(mac), &ps->mac);
	printf("port %u: %s (%s) %s rxq %u txq %u rxd %u txd %u, frames <= %u B into %s "
	       "(%u B room%s)\n"
	       "        rx: ip-cksum %s, ptype %s%s; tx: chains %s, fast-free %s\n",
	       port, ps->name, ps->driver, mac, ps->nb_rxq, ps->nb_txq, nb_rxd, nb_txd,
	       ps->max_frame, mp != NULL ? mp->name : "-",
	       mp != NULL ? rte_pktmbuf_data_room_size(mp) : 0,
	       ps->scatter ? ", scatter" : "",
	       !req->rx_cksum ? "unused" : ps->rx_cksum ? "port" : "software",
	       !req->need_ptype ? "unused" : ps->sw_ptype ? "software" : "port",
	       ps->rx_offloads & RTE_ETH_RX_OFFLOAD_SCATTER ? ", scatter" : "",
	       !req->tx_chains ? "never sent" : ps->tx_multiseg ? "multi-seg" : "linearised",
	       ps->fast_free ? "on" : "off");
}

/* Set up the port's queues from what app_port_setup() kept. */
static int
queues_setup(uint16_t port, uint16_t nb_rxq, uint16_t nb_txq)
{
	struct app_port_state *ps = &app_port_state[port];
	uint16_t q;
	int rc;

	for (q = 0; q < nb_rxq; q++) {
		rc = rte_eth_rx_queue_setup(port, q, ps->nb_rxd, rte_eth_dev_socket_id(port),
					    &ps->rxconf, app_pools_rx_pool(port));
		if (rc != 0) {
			fprintf(stderr, "error: port %u (%s): rx queue %u setup failed: %s\n",
				port, ps->name, q, strerror(-rc));
			return rc;
		}
	}
	for (q = 0; q < nb_txq; q++) {
		rc = rte_eth_tx_queue_setup(port, q, ps->nb_txd, rte_eth_dev_socket_id(port),
					    &ps->txconf);
		if (rc != 0) {
			fprintf(stderr, "error: port %u (%s): tx queue %u setup failed: %s\n",
				port, ps->name, q, strerror(-rc));
			return rc;
		}
	}
	return 0;
}

/* Step 1: queue counts and frame length within what the port takes. */
static int
port_limits(uint16_t port, const struct app_port_req *req,
	    const struct rte_eth_dev_info *info, struct rte_eth_conf *conf)
{
	struct app_port_state *ps = &app_port_state[port];
	uint32_t mtu;

	if (req->nb_rxq > info->max_rx_queues || req->nb_txq > info->max_tx_queues) {
		fprintf(stderr, "error: port %u (%s) has at most %u rx and %u tx queues; "
			"%u rx and %u tx requested (one tx queue per forwarding lcore)\n",
			port, ps->name, info->max_rx_queues, info->max_tx_queues,
			req->nb_rxq, req->nb_txq);
		return -EINVAL;
	}

	/* frame length without CRC; the MTU excludes the Ethernet header */
	ps->max_frame = req->max_frame;
	mtu = req->max_frame - RTE_ETHER_HDR_LEN;
	if (mtu > info->max_mtu ||
	    req->max_frame + RTE_ETHER_CRC_LEN > info->max_rx_pktlen) {
		fprintf(stderr, "error: port %u (%s) takes frames up to %u bytes (MTU %u); "
			"%u requested\n", port, ps->name,
			RTE_MIN(info->max_rx_pktlen - RTE_ETHER_CRC_LEN,
				(uint32_t)info->max_mtu + RTE_ETHER_HDR_LEN),
			info->max_mtu, req->max_frame);
		return -EINVAL;
	}
	if (mtu >= info->min_mtu)
		conf->rxmode.mtu = mtu;
	return 0;
}

/* Step 2: receive offloads and RSS, only what the port offers. */
static void
port_rx_offloads(uint16_t port, const struct app_port_req *req,
		 const struct rte_eth_dev_info *info, struct rte_eth_conf *conf)
{
	struct app_port_state *ps = &app_port_state[port];

	if (req->rx_cksum && (info->rx_offload_capa & RTE_ETH_RX_OFFLOAD_IPV4_CKSUM)) {
		conf->rxmode.offloads |= RTE_ETH_RX_OFFLOAD_IPV4_CKSUM;
		ps->rx_cksum = true;
	}
	if (app_pools_rx_scatter(port)) {
		ps->scatter = true;
		if (info->rx_offload_capa & RTE_ETH_RX_OFFLOAD_SCATTER)
			conf->rxmode.offloads |= RTE_ETH_RX_OFFLOAD_SCATTER;
		else
			printf("port %u (%s): no Rx scatter offered; frames longer than one "
			       "2K buffer depend on the driver\n", port, ps->name);
	}
	if (req->nb_rxq > 1 && info->flow_type_rss_offloads != 0) {
		conf->rxmode.mq_mode = RTE_ETH_MQ_RX_RSS;
		conf->rx_adv_conf.rss_conf.rss_hf = info->flow_type_rss_offloads &
			(RTE_ETH_RSS_IP | RTE_ETH_RSS_TCP | RTE_ETH_RSS_UDP);
	} else if (req->nb_rxq > 1) {
		printf("port %u (%s): no RSS; each Rx queue gets what the driver puts there\n",
		       port, ps->name);
	}
}

/* Step 3: transmit offloads. */
static void
port_tx_offloads(uint16_t port, const struct app_port_req *req,
		 const struct rte_eth_dev_info *info, struct rte_eth_conf *conf)
{
	struct app_port_state *ps = &app_port_state[port];

	if (req->tx_chains && (info->tx_offload_capa & RTE_ETH_TX_OFFLOAD_MULTI_SEGS)) {
		conf->txmode.offloads |= RTE_ETH_TX_OFFLOAD_MULTI_SEGS;
		ps->tx_multiseg = true;
	}
	if (req->tx_one_pool && !req->tx_chains && app_pools_nb_rx_pools() == 1 &&
	    (info->tx_offload_capa & RTE_ETH_TX_OFFLOAD_MBUF_FAST_FREE)) {
		conf->txmode.offloads |= RTE_ETH_TX_OFFLOAD_MBUF_FAST_FREE;
		ps->fast_free = true;
	}
}

/* Step 4: configure the device, then its queues (kept for a restart). */
static int
port_configure(uint16_t port, const struct app_port_req *req,
	       const struct rte_eth_dev_info *info,
	       const struct rte_eth_conf *conf)
{
	struct app_port_state *ps = &app_port_state[port];
	uint16_t nb_rxd = req->nb_rxd, nb_txd = req->nb_txd;
	int rc;

	ps->rx_offloads = conf->rxmode.offloads;
	ps->tx_offloads = conf->txmode.offloads;
	rc = rte_eth_dev_configure(port, req->nb_rxq, req->nb_txq, conf);
	if (rc != 0) {
		fprintf(stderr, "error: port %u (%s): configure failed: %s\n", port,
			ps->name, strerror(-rc));
		return rc;
	}
	rc = rte_eth_dev_adjust_nb_rx_tx_desc(port, &nb_rxd, &nb_txd);
	if (rc != 0) {
		fprintf(stderr, "error: port %u (%s): descriptor counts rejected: %s\n",
			port, ps->name, strerror(-rc));
		return rc;
	}

	if (req->need_ptype)
		ps->sw_ptype = req->force_sw_ptype || !port_has_l3_ptypes(port);

	ps->nb_rxd = nb_rxd;
	ps->nb_txd = nb_txd;
	ps->rxconf = info->default_rxconf;
	ps->rxconf.offloads = conf->rxmode.offloads;
	ps->txconf = info->default_txconf;
	ps->txconf.offloads = conf->txmode.offloads;
	return queues_setup(port, req->nb_rxq, req->nb_txq);
}

/* Step 5: address, promiscuous mode, the port's state. */
static void
port_finish(uint16_t port, const struct app_port_req *req)
{
	struct app_port_state *ps = &app_port_state[port];
	int rc;

	rc = rte_eth_macaddr_get(port, &ps->mac);
	if (rc != 0)
		memset(&ps->mac, 0, sizeof(ps->mac));
	if (req->promisc) {
		rc = rte_eth_promiscuous_enable(port);
		if (rc != 0 && rc != -ENOTSUP)
			printf("port %u (%s): promiscuous mode not enabled: %s\n", port,
			       ps->name, strerror(-rc));
	}
	ps->nb_rxq = req->nb_rxq;
	ps->nb_txq = req->nb_txq;
	ps->enabled = true;
	ps->open = true;
	port_print(port, req, ps->nb_rxd, ps->nb_txd);
}

int
app_port_setup(uint16_t port, const struct app_port_req *req)
{
	struct app_port_state *ps = &app_port_state[port];
	struct rte_eth_conf conf;
	struct rte_eth_dev_info info;
	int rc;

	memset(ps, 0, sizeof(*ps));
	memset(&conf, 0, sizeof(conf));
	rc = rte_eth_dev_info_get(port, &info);
	if (rc != 0) {
		fprintf(stderr, "error: port %u: cannot get device info: %s\n", port,
			strerror(-rc));
		return rc;
	}
	rte_eth_dev_get_name_by_port(port, ps->name);
	snprintf(ps->driver, sizeof(ps->driver), "%s", info.driver_name);

	rc = port_limits(port, req, &info, &conf);
	if (rc != 0)
		return rc;
	port_rx_offloads(port, req, &info, &conf);
	port_tx_offloads(port, req, &info, &conf);
	rc = port_configure(port, req, &info, &conf);
	if (rc != 0)
		return rc;
	port_finish(port, req);
	return 0;
}

static void
wait_links(uint32_t wait_s)
{
	struct rte_eth_link link;
	unsigned int tries;
	uint16_t port;
	bool all_up = false;

	for (tries = 0; tries <= wait_s * 10 && !all_up; tries++) {
		if (tries != 0)
			rte_delay_ms(100);
		all_up = true;
		for (port = 0; port < RTE_MAX_ETHPORTS && all_up; port++) {
			if (!app_port_state[port].started)
				continue;
			if (rte_eth_link_get_nowait(port, &link) == 0 && !link.link_status)
				all_up = false;
		}
	}
	for (port = 0; port < RTE_MAX_ETHPORTS; port++) {
		if (!app_port_state[port].started ||
		    rte_eth_link_get_nowait(port, &link) != 0 || link.link_status)
			continue;
		printf("port %u (%s): link still down after %u s, forwarding anyway\n", port,
		       app_port_state[port].name, wait_s);
	}
}

int
app_ports_start(uint32_t wait_s)
{
	uint16_t port;
	int rc;

	for (port = 0; port < RTE_MAX_ETHPORTS; port++) {
		if (!app_port_state[port].enabled)
			continue;
		rc = rte_eth_dev_start(port);
		if (rc != 0) {
			fprintf(stderr, "error: port %u (%s): start failed: %s\n", port,
				app_port_state[port].name, strerror(-rc));
			return rc;
		}
		app_port_state[port].started = true;
	}
	wait_links(wait_s);
	return 0;
}

int
app_ports_restart(void)
{
	struct app_port_state *ps;
	uint16_t port;
	int rc;

	for (port = 0; port < RTE_MAX_ETHPORTS; port++) {
		ps = &app_port_state[port];
		if (!ps->started)
			continue;
		rc = rte_eth_dev_stop(port);
		if (rc == 0)
			rc = queues_setup(port, ps->nb_rxq, ps->nb_txq);
		if (rc == 0)
			rc = rte_eth_dev_start(port);
		if (rc != 0) {
			fprintf(stderr, "error: port %u (%s): restart failed: %s\n", port,
				ps->name, strerror(-rc));
			ps->started = rte_eth_dev_start(port) == 0;
			return rc;
		}
	}
	return 0;
}

uint64_t
app_ports_close(void)
{
	struct rte_mbuf *pkts[32];
	uint64_t drained = 0;
	uint16_t port, q, n;
	unsigned int got;

	for (port = 0; port < RTE_MAX_ETHPORTS; port++) {
		struct app_port_state *ps = &app_port_state[port];

		if (!ps->started)
			continue;
		for (q = 0; q < ps->nb_rxq; q++) {
			got = 0;
			do {
				n = rte_eth_rx_burst(port, q, pkts, RTE_DIM(pkts));
				rte_pktmbuf_free_bulk(pkts, n);
				got += n;
			} while (n != 0 && got < APP_DRAIN_MAX);
			drained += got;
		}
	}
	for (port = 0; port < RTE_MAX_ETHPORTS; port++) {
		struct app_port_state *ps = &app_port_state[port];
		int rc;

		if (!ps->open)
			continue;
		rc = ps->started ? rte_eth_dev_stop(port) : 0;
		if (rc != 0)
			fprintf(stderr, "port %u (%s): stop: %s\n", port, ps->name, strerror(-rc));
		rc = rte_eth_dev_close(port);
		if (rc != 0)
			fprintf(stderr, "port %u (%s): close: %s\n", port, ps->name, strerror(-rc));
		ps->open = false;
		ps->started = false;
	}
	return drained;
}
