/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The mbufx authors
 */

#ifndef MBUFX_XDP_H
#define MBUFX_XDP_H

/*
 * Private header of net_mbufx_xdp: the queue and port structures shared by
 * the ethdev glue (mbufx_xdp.c: devargs, ops, bursts, probe) and the
 * socket layer (mbufx_xdp_sock.c: interface ioctls, the XDP program,
 * AF_XDP sockets). The receive and transmit cores (mbufx_xdp_rx.h,
 * mbufx_xdp_tx.h) know neither.
 */

#include <net/if.h>
#include <stdint.h>

#include <linux/if_xdp.h>

#include <rte_ether.h>
#include <rte_log.h>

#include "mbufx_xdp_plan.h"
#include "mbufx_xdp_rx.h"
#include "mbufx_xdp_tx.h"

extern int mbufx_xdp_logtype;
#define XDP_LOG(level, fmt, ...) \
	rte_log(RTE_LOG_ ## level, mbufx_xdp_logtype, "mbufx_xdp: " fmt "\n", \
		##__VA_ARGS__)

#define MAX_QUEUES 64
#define DESC_MIN 64
#define DESC_MAX 8192
#define DESC_DEFAULT 1024
#define TX_KICK_US_DEFAULT 16	/* deferral of a kick for a short burst */
#define BIND_RETRY_MS 1000
#define L2_OVERHEAD (RTE_ETHER_HDR_LEN + RTE_VLAN_HLEN)

extern const char * const mbufx_xdp_mode_names[MODE_ZC + 1];

/* What the kernel says of a device's XDP (netlink "netdev" family). */
#define XDP_ACT_XSK_ZEROCOPY (1u << 3)	/* NETDEV_XDP_ACT_XSK_ZEROCOPY */
struct xdp_dev_caps {
	int known;		/* the kernel answered (Linux 6.3 and later) */
	uint64_t features;	/* NETDEV_XDP_ACT_* */
	uint32_t zc_max_segs;	/* descriptors per zero-copy frame, 0: unknown */
};

struct bpf_object;
struct xdp_pmd;

struct xdp_rxq {
	struct mbufx_xdp_rxq core;	/* receive core, fill ring inside */
	struct xdp_pmd *pmd;
	int fd;				/* -1 while stopped */
	int busy_poll;
	int zc;				/* bound in zero-copy mode */
	int sg;				/* bound with XDP_USE_SG */
	int set_up;			/* core initialised */
	uint16_t qid;
	uint32_t nb_desc;
	struct xdp_statistics kbase;	/* kernel counters of closed sockets */
	struct xdp_statistics kreset;	/* kernel counters at stats reset */
	struct mbufx_rx_stats lreset;	/* late-attach counters at stats reset */
	uint64_t wakeups;		/* recvfrom() wakeups from idle polls */
	uint64_t wakeup_cycles;		/* TSC cycles inside them */
};

struct xdp_txq {
	struct mbufx_xdp_txq core;	/* transmit core, TX and completion rings */
	struct xdp_rxq *rxq;		/* pair: its socket */
	struct xdp_pmd *pmd;
	int fd;
	int socket;			/* NUMA socket of the queue */
	uint16_t qid;
	uint32_t nb_desc;
	uint32_t max_descs;		/* per frame: mbufx_xdp_tx_max_descs() */
};

struct xdp_pmd {
	char iface[IFNAMSIZ];
	int ifindex;
	uint32_t start_queue;
	uint32_t queue_count;
	enum xdp_mode mode;
	uint32_t busy_budget;
	uint32_t tx_kick_us;		/* 0: kick every burst */
	int rx_refill;			/* enum mbufx_xdp_refill_mode */
	int shared_umem;		/* register a pool's memory once */
	int sg_kernel;			/* the kernel knows XDP_USE_SG */
	struct xdp_dev_caps caps;	/* the device's, at probe */
	uint16_t mtu;			/* at dev_start: what the binds must receive */
	uint16_t port_id;
	struct rte_ether_addr mac;
	struct bpf_object *obj;
	int prog_fd;
	int map_fd;
	int link_fd;			/* bpf_link of the attach, -1: netlink */
	uint32_t attach;		/* mode=drv|skb asked, 0: native, else generic */
	uint32_t attach_flags;		/* XDP_FLAGS_*_MODE in use */
	struct xdp_rxq *rxqs[MAX_QUEUES];
	struct xdp_txq *txqs[MAX_QUEUES];
};

/* Interface control (ioctl on a throw-away socket). */
int mbufx_xdp_if_ioctl(const char *iface, unsigned long req, struct ifreq *ifr);
int mbufx_xdp_if_get_mtu(const char *iface, uint16_t *mtu);
int mbufx_xdp_if_get_flags(const char *iface, short *flags);
int mbufx_xdp_if_change_flags(const char *iface, short set, short clear);
/* Rx queues the interface has (ethtool channels, else unknown: 0). */
uint32_t mbufx_xdp_if_rx_queues(const char *iface);
uint32_t mbufx_xdp_if_speed(const char *iface);

/* The XDP program: load and attach to p->ifindex, detach and unload. */
int mbufx_xdp_prog_attach(struct xdp_pmd *p);
void mbufx_xdp_prog_detach(struct xdp_pmd *p);

/* One AF_XDP socket per queue pair (tq may be NULL): open, register the
 * UMEM, map the rings, bind, stock the fill ring, enter the XSKMAP; close
 * gives every buffer back. */
int mbufx_xdp_sock_open(struct xdp_pmd *p, struct xdp_rxq *rq,
		struct xdp_txq *tq);
void mbufx_xdp_sock_close(struct xdp_pmd *p, struct xdp_rxq *rq,
		struct xdp_txq *tq);

/* Wait (up to a second) for the kernel to release queue qid after a
 * zero-copy socket's close: 0, or -EBUSY while a pool is still there. */
int mbufx_xdp_queue_released(struct xdp_pmd *p, uint16_t qid);

int mbufx_xdp_dev_caps(int ifindex, struct xdp_dev_caps *c);

/* Whether the kernel knows XDP_USE_SG (probe time, no device needed). */
int mbufx_xdp_kernel_has_sg(void);

/*
 * The kernel's counters of a socket (struct xdp_statistics, getsockopt
 * XDP_STATISTICS), each with its xstat name: the one list that reading,
 * summing over closed sockets and the xstats iterate.
 */
#define MBUFX_XDP_KSTATS(X) \
	X(rx_fill_ring_empty_descs, "rx_fill_ring_empty") \
	X(rx_dropped, "rx_kernel_dropped") \
	X(rx_ring_full, "rx_ring_full") \
	X(rx_invalid_descs, "rx_kernel_invalid_desc") \
	X(tx_invalid_descs, "tx_kernel_invalid_desc") \
	X(tx_ring_empty_descs, "tx_ring_empty")

/* Kernel counters of a queue since the last reset (live + closed). */
void mbufx_xdp_kstats(const struct xdp_rxq *rq, struct xdp_statistics *ks);


#endif /* MBUFX_XDP_H */
