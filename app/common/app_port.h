/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The mbufx authors
 */

/*
 * Port setup that adapts to what each port offers.
 *
 * Stock l3fwd asks every port for Rx checksum offload and dies on net_null,
 * net_ring, net_memif and af_packet. Here the app states what it would like
 * and what it guarantees, and each offload is enabled only where the port
 * advertises it:
 *
 *   Rx IPv4 checksum   used when offered; otherwise the app checks in software
 *   packet types       used when the port classifies L3; otherwise software
 *   Rx scatter         only when frames exceed the receive buffers
 *   Tx MULTI_SEGS      when the app may send chains (prepend, fan-out, scatter);
 *                      a port without it gets chains linearised before Tx
 *   Tx MBUF_FAST_FREE  only when the app promises one pool and refcnt 1 for
 *                      every mbuf it sends on the port, and the port offers it
 *   RSS                IP/TCP/UDP hash over the Rx queues when offered
 *
 * The outcome is kept in app_port_state[] and printed, one line per port.
 */

#ifndef APP_PORT_H
#define APP_PORT_H

#include <stdbool.h>
#include <stdint.h>

#include <rte_ethdev.h>
#include <rte_ether.h>

/** What the app asks of a port. */
struct app_port_req {
	uint16_t nb_rxq;	/**< receive queues (may be 0: transmit-only port) */
	uint16_t nb_txq;	/**< transmit queues (one per forwarding lcore) */
	uint16_t nb_rxd;	/**< receive descriptors per queue */
	uint16_t nb_txd;	/**< transmit descriptors per queue */
	uint32_t max_frame;	/**< longest frame to receive, bytes, no CRC */
	bool promisc;		/**< promiscuous mode */
	bool rx_cksum;		/**< the app checks IPv4 header checksums */
	bool need_ptype;	/**< the app dispatches on L3 packet type */
	bool force_sw_ptype;	/**< --parse-ptype: classify in software anyway */
	bool tx_chains;		/**< the app may send multi-segment mbufs */
	bool tx_one_pool;	/**< every mbuf sent: one pool, refcnt 1, direct */
};

/** What the port was configured with. */
struct app_port_state {
	bool enabled;		/**< set up by this app */
	bool open;		/**< not closed yet */
	bool started;		/**< rte_eth_dev_start() succeeded */
	bool sw_ptype;		/**< classify L3 in software */
	bool rx_cksum;		/**< Rx IPv4 checksum flags are valid */
	bool tx_multiseg;	/**< chains may be handed to rte_eth_tx_burst() */
	bool fast_free;		/**< MBUF_FAST_FREE enabled */
	bool scatter;		/**< Rx scatter enabled */
	uint16_t nb_rxq, nb_txq;
	uint32_t max_frame;
	uint64_t rx_offloads, tx_offloads;
	struct rte_ether_addr mac;
	uint16_t nb_rxd, nb_txd;	/**< descriptors per queue, as set up */
	struct rte_eth_rxconf rxconf;	/**< queue set-up, kept for a restart */
	struct rte_eth_txconf txconf;
	char name[RTE_ETH_NAME_MAX_LEN];
	char driver[32];
};

extern struct app_port_state app_port_state[RTE_MAX_ETHPORTS];

/**
 * Check that every port in @p mask exists. Prints the missing ones.
 * @return 0 or -ENODEV.
 */
int app_ports_check(uint64_t mask);

/**
 * Configure @p port and its queues (Rx queues fed from app_pools_rx_pool()).
 * Does not start it. Prints what was enabled, or why it failed.
 * @return 0 or a negative errno.
 */
int app_port_setup(uint16_t port, const struct app_port_req *req);

/**
 * Start every enabled port, then wait up to @p wait_s seconds for all links
 * to be up (a vhost or memif port is up once its peer connects); ports still
 * down are named and forwarding starts anyway. @return 0 or a negative errno.
 */
int app_ports_start(uint32_t wait_s);

/**
 * Restart every started port (lcores stopped): stop it, set its Rx and Tx
 * queues up again as before (the PMD frees what they held), start it.
 * @return 0 or the first negative errno (after printing it).
 */
int app_ports_restart(void);

/**
 * Drain what is still queued on the receive side of every enabled port (for
 * loopback ports such as net_ring), stop and close the ports, so that every
 * mbuf they held goes back to its pool. @return packets drained.
 */
uint64_t app_ports_close(void);

#endif /* APP_PORT_H */
