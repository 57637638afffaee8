/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The mbufx authors
 */

/*
 * net_mbufx_xdp: an AF_XDP ethdev whose receive path is mbufx late attach.
 *
 * Files: mbufx_xdp.c the ethdev glue (devargs, ops, bursts, probe);
 * mbufx_xdp_sock.c interface ioctls, the XDP program and the sockets;
 * mbufx_xdp_rx.c and mbufx_xdp_tx.c the receive and transmit cores, without
 * a socket (receive loop and refill; descriptors, completions, the kick
 * policy); mbufx_xdp_plan.c the bind choices; mbufx_xdp_ring.h the rings
 * shared with the kernel.
 *
 * Developer note
 * --------------
 * One AF_XDP socket per queue pair (queue i = interface queue
 * start_queue + i), created at dev_start and closed at dev_stop, bound as
 * mbufx_xdp_bind_plan() orders it for the MTU (zero-copy first when a frame
 * fits one descriptor; multi-buffer only when it does not). Raw syscalls
 * only (libbpf 1.1 has no xsk.h; no libxdp): socket(AF_XDP), XDP_UMEM_REG,
 * ring sizes, XDP_MMAP_OFFSETS, mmap of the four rings, bind.
 *
 * UMEM = the Rx queue's pool memory (mbufx_xdp_rx.c): one address range,
 * unaligned chunks, fill address = buf_addr - base computed from the object
 * pointer, so neither refill nor the kernel touch the mbuf header. Two
 * queues on one pool register the same memory in two UMEMs (the kernel pins
 * the pages twice) unless shared_umem=1 couples them (XDP_SHARED_UMEM).
 *
 * Receive: descriptors are checked against the queue's posted-buffer bitmap
 * and turned into mbufs by mbufx_xdp_rx_convert(), writing each header once
 * (mbufx_rx_attach_at_uncounted with the burst state, counted once per
 * burst; mbufx_rx_attach_at / _chain for multi-buffer frames). Transmit: a
 * direct, unshared mbuf of this UMEM's pool goes out zero-copy, anything
 * else is copied into bare buffers of the pool; completions are matched by
 * address (mbufx_xdp_tx.c) and the buffers go to the paired Rx queue's
 * recycle ring, from there into the fill ring. Kicks: mbufx_xdp_tx_flush()
 * (a short burst may wait tx_kick_us for company; every poll of the Rx pair
 * sends it when due).
 *
 * Teardown (stop, queue release, close): XSKMAP entries cleared, program
 * detached (its bpf_link closed), rings unmapped before close() (else the
 * socket lingers), then the buffers come back: at once in copy mode; in
 * zero-copy mode once the kernel released the queue (mbufx_xdp_qpair_closed()
 * says why). Bind retries EBUSY for up to a second: a queue stays busy for a
 * few ms after the previous socket's close.
 *
 * Devargs: the table MBUFX_XDP_DEVARGS below. The XDP program (mbufx_xdp_kern.c,
 * "xdp.frags") is compiled by clang at build time and embedded; guide:
 * doc/guides/nics/mbufx_xdp.rst and doc/guides/prog_guide/late_attach.rst.
 */

#include <errno.h>
#include <inttypes.h>
#include <net/if.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <unistd.h>

#include <linux/ethtool.h>
#include <linux/if_link.h>
#include <linux/if_xdp.h>
#include <linux/sockios.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include <ethdev_driver.h>
#include <ethdev_vdev.h>
#include <rte_bus_vdev.h>
#include <rte_cycles.h>
#include <rte_ether.h>
#include <rte_kvargs.h>
#include <rte_malloc.h>

#include "mbufx_stats.h"
#include "mbufx_xdp.h"
#include "mbufx_xdp_compat.h"

RTE_LOG_REGISTER(mbufx_xdp_logtype, pmd.net.mbufx_xdp, NOTICE);

/*
 * Devargs: one table, MBUFX_XDP_DEVARGS below. Where DPDK's net_af_xdp has
 * the same meaning, the same name (iface, start_queue, queue_count,
 * shared_umem, busy_budget, force_copy, mode=drv|skb: the XDP attach mode);
 * ours: bind_mode (how the socket binds), tx_kick_us, rx_refill (how buffers
 * are posted: mbufx_xdp_rx.h). mode=auto|copy|zc is a deprecated alias of
 * bind_mode (its values do not overlap DPDK's).
 *
 * A row: name, the value syntax (the PMD info string, dpdk-pmdinfo.py), the
 * default (given to the parser when the key is absent; NULL: none), the
 * parser, the field of struct xdp_args it fills, and for numbers the range.
 * The valid keys, the info string, the help line and the range messages are
 * all made from it; check_pmdinfo.py checks the guide's table against it.
 */
#define MBUFX_XDP_DEVARGS(X, SEP) \
	X(iface, "<string>", NULL, arg_iface, iface, 0, 0) SEP \
	X(start_queue, "<int>", "0", arg_u32, start_queue, 0, UINT32_MAX) SEP \
	X(queue_count, "<int>", "1", arg_u32, queue_count, 1, MAX_QUEUES) SEP \
	X(shared_umem, "<0|1>", "0", arg_u32, shared_umem, 0, 1) SEP \
	X(busy_budget, "<int>", "0", arg_u32, busy_budget, 0, UINT16_MAX) SEP \
	X(force_copy, "<0|1>", "0", arg_u32, force_copy, 0, 1) SEP \
	X(mode, "<drv|skb>", NULL, arg_mode, mode, 0, 0) SEP \
	X(bind_mode, "<auto|copy|zc>", "auto", arg_bind_mode, bind_mode, \
	  0, 0) SEP \
	X(tx_kick_us, "<int>", RTE_STR(TX_KICK_US_DEFAULT), arg_u32, \
	  tx_kick_us, 0, 1000) SEP \
	X(rx_refill, "<late|classic>", "late", arg_rx_refill, rx_refill, 0, 0)

/* The PMD info string: "iface=<string> start_queue=<int> ..." */
#define DEVARG_INFO(name, syntax, ...) #name "=" syntax
#define DEVARGS_INFO MBUFX_XDP_DEVARGS(DEVARG_INFO, " ")

const char * const mbufx_xdp_mode_names[MODE_ZC + 1] = {
	[MODE_AUTO] = "auto", [MODE_COPY] = "copy", [MODE_ZC] = "zc",
};

/* ------------------------------------------------------------------------
 * Device arguments
 */

/* mode=: DPDK's attach mode or the deprecated alias of bind_mode. */
struct xdp_mode_arg {
	int legacy;		/* mode=auto|copy|zc: enum xdp_mode, -1: not */
	uint32_t attach;	/* mode=drv|skb: XDP_FLAGS_*_MODE, 0: either */
};

/* What parse_args() collects before it settles the port's fields. */
struct xdp_args {
	uint32_t given;		/* bit DEVARG_<name>: the key was given */
	char iface[IFNAMSIZ];
	uint32_t start_queue;
	uint32_t queue_count;
	uint32_t shared_umem;
	uint32_t busy_budget;
	uint32_t force_copy;
	struct xdp_mode_arg mode;
	int bind_mode;		/* enum xdp_mode */
	uint32_t tx_kick_us;
	int rx_refill;		/* enum mbufx_xdp_refill_mode */
};

struct devarg;
typedef int (*devarg_parse_t)(const struct devarg *d, const char *v,
			      void *dst);

struct devarg {
	const char *name;
	const char *syntax;
	const char *def;
	devarg_parse_t parse;
	size_t off;		/* into struct xdp_args */
	uint32_t min, max;	/* arg_u32's range */
};

#define DEVARG_ENUM(name, ...) DEVARG_ ## name,
enum { MBUFX_XDP_DEVARGS(DEVARG_ENUM, ) DEVARG_COUNT };

static int
arg_iface(const struct devarg *d __rte_unused, const char *v, void *dst)
{
	if (v == NULL || v[0] == '\0' || strlen(v) >= IFNAMSIZ)
		return -EINVAL;
	strcpy(dst, v);
	return 0;
}

static int
arg_u32(const struct devarg *d, const char *v, void *dst)
{
	unsigned long x;
	char *end;

	if (v == NULL || v[0] < '0' || v[0] > '9')
		return -EINVAL;
	errno = 0;
	x = strtoul(v, &end, 0);
	if (errno != 0 || *end != '\0' || x > UINT32_MAX)
		return -EINVAL;
	if (x < d->min || x > d->max)
		return -ERANGE;
	*(uint32_t *)dst = (uint32_t)x;
	return 0;
}

static int
bind_mode_of(const char *v)
{
	unsigned int i;

	for (i = 0; v != NULL && i < RTE_DIM(mbufx_xdp_mode_names); i++)
		if (strcmp(v, mbufx_xdp_mode_names[i]) == 0)
			return (int)i;
	return -1;
}

static int
arg_bind_mode(const struct devarg *d __rte_unused, const char *v, void *dst)
{
	int m = bind_mode_of(v);

	if (m < 0)
		return -EINVAL;
	*(int *)dst = m;
	return 0;
}

static int
arg_rx_refill(const struct devarg *d __rte_unused, const char *v, void *dst)
{
	if (v != NULL && strcmp(v, "late") == 0)
		*(int *)dst = MBUFX_XDP_REFILL_LATE;
	else if (v != NULL && strcmp(v, "classic") == 0)
		*(int *)dst = MBUFX_XDP_REFILL_CLASSIC;
	else
		return -EINVAL;
	return 0;
}

/* DPDK's mode=drv|skb, or the deprecated alias mode=auto|copy|zc. */
static int
arg_mode(const struct devarg *d __rte_unused, const char *v, void *dst)
{
	struct xdp_mode_arg *a = dst;
	int m = bind_mode_of(v);

	if (m >= 0)
		a->legacy = m;
	else if (v != NULL && strcmp(v, "drv") == 0)
		a->attach = XDP_FLAGS_DRV_MODE;
	else if (v != NULL && strcmp(v, "skb") == 0)
		a->attach = XDP_FLAGS_SKB_MODE;
	else
		return -EINVAL;	/* hw (offload) cannot redirect to sockets */
	return 0;
}

#define DEVARG_ROW(n, syn, dflt, fn, field, lo, hi) \
	[DEVARG_ ## n] = { .name = #n, .syntax = syn, .def = dflt, \
		.parse = fn, .off = offsetof(struct xdp_args, field), \
		.min = lo, .max = hi },
static const struct devarg devargs[DEVARG_COUNT] = {
	MBUFX_XDP_DEVARGS(DEVARG_ROW, )
};

#define DEVARG_NAME(n, ...) #n,
static const char * const valid_args[] = {
	MBUFX_XDP_DEVARGS(DEVARG_NAME, ) NULL
};

/* The table as a user reads it: "iface=<string>, start_queue=<int> (0), ..." */
static void
args_log_help(const char *name, const char *params)
{
	char help[512];
	size_t n = 0;
	unsigned int i;

	help[0] = '\0';
	for (i = 0; i < DEVARG_COUNT && n < sizeof(help); i++)
		n += (size_t)snprintf(help + n, sizeof(help) - n,
				      "%s%s=%s%s%s%s", i == 0 ? "" : ", ",
				      devargs[i].name, devargs[i].syntax,
				      devargs[i].def != NULL ? " (" : "",
				      devargs[i].def != NULL ? devargs[i].def : "",
				      devargs[i].def != NULL ? ")" : "");
	XDP_LOG(ERR, "%s: bad arguments '%s' (valid, with defaults: %s)",
		name, params, help);
}

/* Each row: its value if given once, else its default, through its parser. */
static int
args_read(const char *name, struct rte_kvargs *kv, struct xdp_args *a)
{
	const struct devarg *d;
	const char *v;
	unsigned int i, n;
	int ret;

	for (i = 0; i < DEVARG_COUNT; i++) {
		d = &devargs[i];
		n = rte_kvargs_count(kv, d->name);
		v = n == 0 ? d->def : rte_kvargs_get(kv, d->name);
		if (n > 1) {
			XDP_LOG(ERR, "%s: %s given twice", name, d->name);
			return -EINVAL;
		}
		/* a key without a value (NULL): refused here by name, the
		 * same on every DPDK release */
		if (n == 1 && v == NULL) {
			XDP_LOG(ERR, "%s: %s needs a value (%s=%s)", name,
				d->name, d->name, d->syntax);
			return -EINVAL;
		}
		if (v == NULL)
			continue;
		a->given |= (uint32_t)n << i;
		ret = d->parse(d, v, RTE_PTR_ADD(a, d->off));
		if (ret == -ERANGE) {
			XDP_LOG(ERR, "%s: %s=%s: %s must be %u..%u", name,
				d->name, v, d->name, d->min, d->max);
			return -EINVAL;
		}
		if (ret != 0) {
			XDP_LOG(ERR, "%s: bad value for %s: '%s' (%s=%s)", name,
				d->name, v, d->name, d->syntax);
			return -EINVAL;
		}
	}
	return 0;
}

/* After the table: settle bind mode and DPDK's switches into the port. */
static int
args_settle(const char *name, const struct xdp_args *a, struct xdp_pmd *p)
{
	int legacy = a->mode.legacy;

	if ((a->given & (1u << DEVARG_bind_mode)) != 0 && legacy >= 0) {
		XDP_LOG(ERR, "%s: mode=%s and bind_mode=%s: give bind_mode "
			"only", name, mbufx_xdp_mode_names[legacy],
			mbufx_xdp_mode_names[a->bind_mode]);
		return -EINVAL;
	}
	p->mode = (enum xdp_mode)a->bind_mode;
	if (legacy >= 0) {
		XDP_LOG(WARNING, "%s: mode=%s is deprecated, use bind_mode=%s "
			"(mode= is the XDP attach mode, drv|skb, as in DPDK's "
			"net_af_xdp)", name, mbufx_xdp_mode_names[legacy],
			mbufx_xdp_mode_names[legacy]);
		p->mode = (enum xdp_mode)legacy;
	}
	if (a->force_copy == 1) {
		if (p->mode == MODE_ZC) {
			XDP_LOG(ERR, "%s: force_copy=1 with bind_mode=zc", name);
			return -EINVAL;
		}
		p->mode = MODE_COPY;
	}
	if (a->iface[0] == '\0') {
		XDP_LOG(ERR, "%s: iface=<interface> is required", name);
		return -EINVAL;
	}
	memcpy(p->iface, a->iface, sizeof(p->iface));
	p->start_queue = a->start_queue;
	p->queue_count = a->queue_count;
	p->shared_umem = (int)a->shared_umem;
	p->busy_budget = a->busy_budget;
	p->attach = a->mode.attach;
	p->tx_kick_us = a->tx_kick_us;
	p->rx_refill = a->rx_refill;
	return 0;
}

static int
parse_args(const char *name, const char *params, struct xdp_pmd *p)
{
	struct xdp_args a = { .mode.legacy = -1 };
	struct rte_kvargs *kv;
	int ret;

	RTE_BUILD_BUG_ON(DEVARG_COUNT > 32);	/* xdp_args.given */
	kv = rte_kvargs_parse(params == NULL ? "" : params, valid_args);
	if (kv == NULL) {
		args_log_help(name, params);
		return -EINVAL;
	}
	ret = args_read(name, kv, &a);
	rte_kvargs_free(kv);
	if (ret != 0)
		return ret;
	return args_settle(name, &a, p);
}

/* ------------------------------------------------------------------------
 * Receive
 */

/* An idle poll wakes the kernel when busy polling (the syscall runs the
 * device's NAPI) or when the fill ring asks for it (zero-copy drivers);
 * counted with the TSC cycles spent inside. */
static inline void
rx_wakeup(struct xdp_rxq *rq)
{
	uint64_t t0;

	if (rq->busy_poll ||
	    (*rq->core.fill.flags & XDP_RING_NEED_WAKEUP) != 0) {
		t0 = rte_rdtsc();
		recvfrom(rq->fd, NULL, 0, MSG_DONTWAIT, NULL, NULL);
		rq->wakeup_cycles += rte_rdtsc() - t0;
		rq->wakeups++;
	}
}

static uint16_t
eth_rx_burst(void *queue, struct rte_mbuf **pkts, uint16_t nb_pkts)
{
	struct xdp_rxq *rq = queue;
	uint16_t nb;
	int idle;

	nb = mbufx_xdp_rx_burst(&rq->core, pkts, nb_pkts, &idle);
	if (idle)
		rx_wakeup(rq);
	return nb;
}

/* ------------------------------------------------------------------------
 * Transmit
 */

static uint16_t
eth_tx_burst(void *queue, struct rte_mbuf **pkts, uint16_t nb_pkts)
{
	struct xdp_txq *tq = queue;
	uint16_t n;

	n = mbufx_xdp_tx_enqueue(&tq->core, pkts, nb_pkts, tq->max_descs);
	/* also when nothing was added: descriptors left by a failed kick
	 * (link down) must go once the link is back */
	mbufx_xdp_tx_flush(&tq->core);
	return n;
}

/* ------------------------------------------------------------------------
 * Control path
 */

static struct xdp_pmd *
pmd_of(struct rte_eth_dev *dev)
{
	return dev->data->dev_private;
}

static int
eth_configure(struct rte_eth_dev *dev)
{
	struct xdp_pmd *p = pmd_of(dev);
	uint16_t nrx = dev->data->nb_rx_queues, ntx = dev->data->nb_tx_queues;

	if (nrx > p->queue_count || ntx > nrx) {
		XDP_LOG(ERR, "%s: %u Rx / %u Tx queues: at most queue_count=%u "
			"Rx queues, and no more Tx than Rx queues (a Tx queue "
			"uses its Rx queue's socket and UMEM)", p->iface, nrx,
			ntx, p->queue_count);
		return -EINVAL;
	}
	return 0;
}

/* Multi-buffer of a queue: what its bind proved, else what the kernel
 * offers (the bind plan then insists on it when the MTU needs it). */
static int
rxq_sg(const struct xdp_pmd *p, const struct xdp_rxq *rq)
{
	return rq->fd >= 0 ? rq->sg : p->sg_kernel;
}

/*
 * Descriptors per frame of a queue (rq NULL: before any pool): its bind's
 * when bound, else what a bind will likely give: zero-copy keeps to the
 * device's limit (xdp_zc_max_segs) when the device has zero-copy and the
 * bind mode allows it.
 */
static uint32_t
frame_descs(const struct xdp_pmd *p, const struct xdp_rxq *rq)
{
	int zc, sg;

	if (rq != NULL && rq->fd >= 0) {
		zc = rq->zc;
		sg = rq->sg;
	} else {
		zc = p->mode != MODE_COPY &&
			(p->caps.features & XDP_ACT_XSK_ZEROCOPY) != 0;
		sg = p->sg_kernel;
	}
	return mbufx_xdp_tx_max_descs(zc, sg, p->caps.zc_max_segs);
}

static uint32_t
max_rx_frame(const struct rte_eth_dev *dev)
{
	const struct xdp_pmd *p = dev->data->dev_private;
	const struct xdp_rxq *rq;
	uint32_t m = UINT32_MAX, frag;
	uint16_t i;

	for (i = 0; i < dev->data->nb_rx_queues; i++) {
		rq = p->rxqs[i];
		if (rq == NULL || !rq->set_up)
			continue;
		/* a frame arrives in at most frame_descs() descriptors */
		frag = mbufx_xdp_rxq_max_frame(&rq->core, 0);
		m = RTE_MIN(m, RTE_MIN(mbufx_xdp_rxq_max_frame(&rq->core,
							       rxq_sg(p, rq)),
				       frag * frame_descs(p, rq)));
	}
	if (m == UINT32_MAX)	/* no pool yet: the smallest one accepted */
		m = (MBUFX_XDP_CHUNK_MIN - MBUFX_XDP_HEADROOM) *
			frame_descs(p, NULL);
	return m;
}

static int
eth_infos_get(struct rte_eth_dev *dev, struct rte_eth_dev_info *info)
{
	struct xdp_pmd *p = pmd_of(dev);

	info->if_index = (uint32_t)p->ifindex;
	info->max_mac_addrs = 1;
	info->max_rx_queues = (uint16_t)p->queue_count;
	info->max_tx_queues = (uint16_t)p->queue_count;
	info->min_rx_bufsize = MBUFX_XDP_CHUNK_MIN;
	info->max_rx_pktlen = max_rx_frame(dev);
	info->min_mtu = RTE_ETHER_MIN_MTU;
	/* chains of 18 fragments reach 69120 bytes: max_mtu is 16 bits */
	info->max_mtu = (uint16_t)RTE_MIN(info->max_rx_pktlen - L2_OVERHEAD,
					  (uint32_t)UINT16_MAX);
	info->rx_offload_capa = RTE_ETH_RX_OFFLOAD_SCATTER;
	info->tx_offload_capa = RTE_ETH_TX_OFFLOAD_MULTI_SEGS;
	info->rx_desc_lim.nb_max = DESC_MAX;
	info->rx_desc_lim.nb_min = DESC_MIN;
	info->rx_desc_lim.nb_align = DESC_MIN;
	info->tx_desc_lim = info->rx_desc_lim;
	/* longer chains are copied into fewer descriptors when they fit */
	info->tx_desc_lim.nb_seg_max = (uint16_t)frame_descs(p, p->rxqs[0]);
	info->tx_desc_lim.nb_mtu_seg_max = info->tx_desc_lim.nb_seg_max;
	info->default_rxportconf.ring_size = DESC_DEFAULT;
	info->default_txportconf.ring_size = DESC_DEFAULT;
	info->default_rxportconf.nb_queues = 1;
	info->default_txportconf.nb_queues = 1;
	info->speed_capa = RTE_ETH_LINK_SPEED_FIXED;
	return 0;
}

static uint32_t
desc_count(uint16_t n)
{
	uint32_t d = n == 0 ? DESC_DEFAULT : n;

	return rte_align32pow2(RTE_MAX(RTE_MIN(d, (uint32_t)DESC_MAX),
				       (uint32_t)DESC_MIN));
}

/*
 * Held zero-copy buffers (mbufx_xdp_qpair_closed()) come back once the
 * kernel released the queue; if it does not within the wait, they stay out
 * of the pool for good rather than be reused under the device's DMA.
 * Returns whether the pair is still held.
 */
static int
hold_end(struct xdp_pmd *p, struct xdp_rxq *rq, struct xdp_txq *tq)
{
	if (rq == NULL || !rq->core.held)
		return 0;
	if (mbufx_xdp_queue_released(p, rq->qid) == 0) {
		mbufx_xdp_qpair_released(&rq->core,
					 tq != NULL ? &tq->core : NULL);
		return 0;
	}
	XDP_LOG(ERR, "%s queue %u: the kernel still holds the zero-copy "
		"queue: %" PRIu64 " buffers stay out of pool %s", p->iface,
		p->start_queue + rq->qid, rq->core.nb_posted, rq->core.mp->name);
	return 1;
}

static void
rxq_free(struct xdp_pmd *p, uint16_t qid)
{
	struct xdp_rxq *rq = p->rxqs[qid];
	struct xdp_txq *tq;

	if (rq == NULL)
		return;
	tq = qid < MAX_QUEUES ? p->txqs[qid] : NULL;
	mbufx_xdp_sock_close(p, rq, tq);
	if (tq != NULL) {
		/* its transmit core lives on this UMEM */
		if (!hold_end(p, rq, tq))
			mbufx_xdp_txq_release(&tq->core);
		mbufx_xdp_txq_fini(&tq->core);
	} else {
		hold_end(p, rq, NULL);
	}
	if (rq->set_up)
		mbufx_xdp_rxq_fini(&rq->core);
	rte_free(rq);
	p->rxqs[qid] = NULL;
}

static void
txq_free(struct xdp_pmd *p, uint16_t qid)
{
	struct xdp_txq *tq = p->txqs[qid];

	if (tq == NULL)
		return;
	if (p->rxqs[qid] != NULL)
		mbufx_xdp_sock_close(p, p->rxqs[qid], tq);
	if (!hold_end(p, p->rxqs[qid], tq))
		mbufx_xdp_txq_release(&tq->core);
	mbufx_xdp_txq_fini(&tq->core);
	rte_free(tq);
	p->txqs[qid] = NULL;
}

static int
eth_rx_queue_setup(struct rte_eth_dev *dev, uint16_t qid, uint16_t nb_desc,
		   unsigned int socket, const struct rte_eth_rxconf *conf,
		   struct rte_mempool *mp)
{
	struct xdp_pmd *p = pmd_of(dev);
	uint64_t offloads = dev->data->dev_conf.rxmode.offloads |
		(conf != NULL ? conf->offloads : 0);
	uint32_t frame = dev->data->mtu + L2_OVERHEAD, max;
	struct xdp_rxq *rq;
	int ret;

	rxq_free(p, qid);
	rq = rte_zmalloc_socket("mbufx_xdp_rxq", sizeof(*rq),
				RTE_CACHE_LINE_SIZE, (int)socket);
	if (rq == NULL)
		return -ENOMEM;
	rq->fd = -1;
	rq->qid = qid;
	rq->pmd = p;
	rq->nb_desc = desc_count(nb_desc);
	ret = mbufx_xdp_rxq_init(&rq->core, mp, dev->data->port_id, qid,
				 rq->nb_desc, (int)socket);
	if (ret != 0) {
		XDP_LOG(ERR, "%s: Rx queue %u: pool %s refused (%s)", p->iface,
			qid, mp != NULL ? mp->name : "(null)", strerror(-ret));
		rte_free(rq);
		return ret;
	}
	rq->set_up = 1;
	rq->core.scatter = (offloads & RTE_ETH_RX_OFFLOAD_SCATTER) != 0;
	rq->core.refill_mode = (enum mbufx_xdp_refill_mode)p->rx_refill;
	max = mbufx_xdp_rxq_max_frame(&rq->core, p->sg_kernel);
	if (frame > max) {
		XDP_LOG(ERR, "%s: Rx queue %u: MTU %u needs %u-byte frames; "
			"pool %s (data room %u) takes %u%s", p->iface, qid,
			dev->data->mtu, frame, mp->name, rq->core.buf_len, max,
			rq->core.scatter ? "" : " (enable scatter for chains)");
		mbufx_xdp_rxq_fini(&rq->core);
		rte_free(rq);
		return -EINVAL;
	}
	p->rxqs[qid] = rq;
	dev->data->rx_queues[qid] = rq;
	return 0;
}

static int
eth_tx_queue_setup(struct rte_eth_dev *dev, uint16_t qid, uint16_t nb_desc,
		   unsigned int socket, const struct rte_eth_txconf *conf
		   __rte_unused)
{
	struct xdp_pmd *p = pmd_of(dev);
	struct xdp_txq *tq;

	txq_free(p, qid);
	tq = rte_zmalloc_socket("mbufx_xdp_txq", sizeof(*tq),
				RTE_CACHE_LINE_SIZE, (int)socket);
	if (tq == NULL)
		return -ENOMEM;
	tq->nb_desc = desc_count(nb_desc);
	tq->socket = (int)socket;
	tq->fd = -1;
	tq->qid = qid;
	tq->pmd = p;
	p->txqs[qid] = tq;
	dev->data->tx_queues[qid] = tq;
	return 0;
}

static void
eth_rx_queue_release(struct rte_eth_dev *dev, uint16_t qid)
{
	rxq_free(pmd_of(dev), qid);
	dev->data->rx_queues[qid] = NULL;
}

static void
eth_tx_queue_release(struct rte_eth_dev *dev, uint16_t qid)
{
	txq_free(pmd_of(dev), qid);
	dev->data->tx_queues[qid] = NULL;
}

static int
eth_link_update(struct rte_eth_dev *dev, int wait __rte_unused)
{
	struct xdp_pmd *p = pmd_of(dev);
	struct rte_eth_link link = {
		.link_duplex = RTE_ETH_LINK_FULL_DUPLEX,
		.link_autoneg = RTE_ETH_LINK_FIXED,
	};
	short flags = 0;

	if (mbufx_xdp_if_get_flags(p->iface, &flags) == 0)
		link.link_status = (flags & IFF_UP) && (flags & IFF_RUNNING) ?
			RTE_ETH_LINK_UP : RTE_ETH_LINK_DOWN;
	link.link_speed = link.link_status ? mbufx_xdp_if_speed(p->iface) :
		RTE_ETH_SPEED_NUM_NONE;
	return rte_eth_linkstatus_set(dev, &link);
}

static int
eth_stop(struct rte_eth_dev *dev)
{
	struct xdp_pmd *p = pmd_of(dev);
	uint16_t i;

	for (i = 0; i < dev->data->nb_rx_queues; i++) {
		if (p->rxqs[i] != NULL)
			mbufx_xdp_sock_close(p, p->rxqs[i],
				   i < dev->data->nb_tx_queues ?
				   p->txqs[i] : NULL);
		dev->data->rx_queue_state[i] = RTE_ETH_QUEUE_STATE_STOPPED;
	}
	for (i = 0; i < dev->data->nb_tx_queues; i++)
		dev->data->tx_queue_state[i] = RTE_ETH_QUEUE_STATE_STOPPED;
	mbufx_xdp_prog_detach(p);
	dev->data->dev_link.link_status = RTE_ETH_LINK_DOWN;
	return 0;
}

static int
eth_start(struct rte_eth_dev *dev)
{
	struct xdp_pmd *p = pmd_of(dev);
	uint16_t i;
	int ret;

	for (i = 0; i < dev->data->nb_rx_queues; i++)
		if (p->rxqs[i] == NULL) {
			XDP_LOG(ERR, "%s: Rx queue %u not set up", p->iface, i);
			return -EINVAL;
		}
	for (i = 0; i < dev->data->nb_tx_queues; i++) {
		if (p->txqs[i] == NULL) {
			XDP_LOG(ERR, "%s: Tx queue %u not set up", p->iface, i);
			return -EINVAL;
		}
		p->txqs[i]->rxq = p->rxqs[i];
		/* the transmit core follows its pair's UMEM (rxq_free() ends it) */
		if (p->txqs[i]->core.pending == NULL &&
		    mbufx_xdp_txq_init(&p->txqs[i]->core, &p->rxqs[i]->core,
				       p->txqs[i]->nb_desc,
				       p->txqs[i]->socket) != 0)
			return -ENOMEM;
	}
	p->mtu = dev->data->mtu;
	ret = mbufx_xdp_prog_attach(p);
	if (ret != 0)
		return ret;
	for (i = 0; i < dev->data->nb_rx_queues; i++) {
		ret = mbufx_xdp_sock_open(p, p->rxqs[i], i < dev->data->nb_tx_queues ?
				p->txqs[i] : NULL);
		if (ret != 0) {
			eth_stop(dev);
			return ret;
		}
		dev->data->rx_queue_state[i] = RTE_ETH_QUEUE_STATE_STARTED;
	}
	for (i = 0; i < dev->data->nb_tx_queues; i++)
		dev->data->tx_queue_state[i] = RTE_ETH_QUEUE_STATE_STARTED;
	eth_link_update(dev, 0);
	return 0;
}

static int
eth_close(struct rte_eth_dev *dev)
{
	struct xdp_pmd *p = pmd_of(dev);
	uint16_t i;

	if (rte_eal_process_type() != RTE_PROC_PRIMARY)
		return 0;
	eth_stop(dev);
	/* mac_addrs lives in dev_private: ethdev must not rte_free() it */
	dev->data->mac_addrs = NULL;
	for (i = 0; i < MAX_QUEUES; i++) {
		txq_free(p, i);
		rxq_free(p, i);
	}
	for (i = 0; i < dev->data->nb_rx_queues; i++)
		dev->data->rx_queues[i] = NULL;
	for (i = 0; i < dev->data->nb_tx_queues; i++)
		dev->data->tx_queues[i] = NULL;
	return 0;
}

static int
eth_mtu_set(struct rte_eth_dev *dev, uint16_t mtu)
{
	struct xdp_pmd *p = pmd_of(dev);
	struct ifreq ifr = { 0 };
	uint32_t max = max_rx_frame(dev);
	int ret;

	if ((uint32_t)mtu + L2_OVERHEAD > max) {
		XDP_LOG(ERR, "%s: MTU %u: the Rx pools take frames of at most "
			"%u bytes", p->iface, mtu, max);
		return -EINVAL;
	}
	ifr.ifr_mtu = mtu;
	ret = mbufx_xdp_if_ioctl(p->iface, SIOCSIFMTU, &ifr);
	if (ret != 0)
		XDP_LOG(ERR, "%s: the kernel refuses MTU %u: %s", p->iface,
			mtu, strerror(-ret));
	return ret;
}

static int
eth_promisc(struct rte_eth_dev *dev, int on)
{
	struct xdp_pmd *p = pmd_of(dev);

	return mbufx_xdp_if_change_flags(p->iface, on ? IFF_PROMISC : 0,
			       on ? 0 : IFF_PROMISC);
}

static int
eth_promisc_on(struct rte_eth_dev *dev)
{
	return eth_promisc(dev, 1);
}

static int
eth_promisc_off(struct rte_eth_dev *dev)
{
	return eth_promisc(dev, 0);
}


/*
 * The late-attach context's counters of a queue since the last stats
 * reset: the context counts from its creation, the reset keeps a baseline
 * (gauges, such as posted, are levels and keep no baseline).
 */
static void
rxq_lib_stats(const struct xdp_rxq *rq, struct mbufx_rx_stats *st)
{
	const struct mbufx_stat_field *f;
	unsigned int i, n;

	memset(st, 0, sizeof(*st));
	if (mbufx_rx_stats_get(rq->core.rx, st) != 0)
		return;
	f = mbufx_rx_stats_fields(&n);
	for (i = 0; i < n; i++)
		if (f[i].kind == MBUFX_STAT_COUNTER)
			*(uint64_t *)RTE_PTR_ADD(st, f[i].offset) -=
				*(const uint64_t *)RTE_PTR_ADD(&rq->lreset,
							       f[i].offset);
}

static int
eth_stats_get(struct rte_eth_dev *dev, struct rte_eth_stats *s,
	      mbufx_xdp_qstats *qs)
{
	struct xdp_pmd *p = pmd_of(dev);
	struct xdp_statistics ks;
	struct mbufx_rx_stats ls;
	uint16_t i;

	for (i = 0; i < dev->data->nb_rx_queues; i++) {
		const struct xdp_rxq *rq = p->rxqs[i];

		if (rq == NULL)
			continue;
		mbufx_xdp_kstats(rq, &ks);
		rxq_lib_stats(rq, &ls);
		s->ipackets += rq->core.st.packets;
		s->ibytes += rq->core.st.bytes;
		s->imissed += ks.rx_dropped + ks.rx_ring_full;
		s->ierrors += rq->core.st.dropped + rq->core.st.no_scatter;
		s->rx_nombuf += ls.refill_missed;
		if (qs != NULL && i < RTE_ETHDEV_QUEUE_STAT_CNTRS) {
			qs->q_ipackets[i] = rq->core.st.packets;
			qs->q_ibytes[i] = rq->core.st.bytes;
		}
	}
	for (i = 0; i < dev->data->nb_tx_queues; i++) {
		const struct xdp_txq *tq = p->txqs[i];

		if (tq == NULL)
			continue;
		s->opackets += tq->core.st.packets;
		s->obytes += tq->core.st.bytes;
		s->oerrors += tq->core.st.errors;
		if (qs != NULL && i < RTE_ETHDEV_QUEUE_STAT_CNTRS) {
			qs->q_opackets[i] = tq->core.st.packets;
			qs->q_obytes[i] = tq->core.st.bytes;
		}
	}
	return 0;
}
MBUFX_XDP_STATS_GET(eth_stats_get)

static int
eth_stats_reset(struct rte_eth_dev *dev)
{
	struct xdp_pmd *p = pmd_of(dev);
	struct xdp_statistics ks;
	uint16_t i;

	for (i = 0; i < MAX_QUEUES; i++) {
		if (p->rxqs[i] != NULL) {
			memset(&p->rxqs[i]->kreset, 0,
			       sizeof(p->rxqs[i]->kreset));
			mbufx_xdp_kstats(p->rxqs[i], &ks);
			p->rxqs[i]->kreset = ks;
			memset(&p->rxqs[i]->core.st, 0,
			       sizeof(p->rxqs[i]->core.st));
			p->rxqs[i]->core.rx_kicks = 0;
			p->rxqs[i]->core.rx_kick_cycles = 0;
			p->rxqs[i]->wakeups = 0;
			p->rxqs[i]->wakeup_cycles = 0;
			mbufx_rx_stats_get(p->rxqs[i]->core.rx,
					   &p->rxqs[i]->lreset);
		}
		if (p->txqs[i] != NULL)
			memset(&p->txqs[i]->core.st, 0,
			       sizeof(p->txqs[i]->core.st));
	}
	return 0;
}

/*
 * xstats: the PMD's own counters, one table of name and where the counter
 * lives, followed by the late-attach context's counters of the Rx queues
 * under the library's names (mbufx_rx_stats_fields()) prefixed with
 * XS_LIB_PREFIX: every event has one counter and one name.
 */
#define XS_LIB_PREFIX "rx_late_"
enum xs_src { XS_RX, XS_RXQ, XS_TX, XS_TXQ, XS_KERNEL, XS_DERIVED };

static const struct {
	char name[RTE_ETH_XSTATS_NAME_SIZE];
	enum xs_src src;
	size_t off;
} xstats_tab[] = {
	{ "rx_invalid_desc", XS_RX,
	  offsetof(struct mbufx_xdp_rx_stats, invalid_desc) },
	{ "rx_dropped_frames", XS_RX,
	  offsetof(struct mbufx_xdp_rx_stats, dropped) },
	{ "rx_no_scatter_drops", XS_RX,
	  offsetof(struct mbufx_xdp_rx_stats, no_scatter) },
	{ "rx_chained_frames", XS_RX,
	  offsetof(struct mbufx_xdp_rx_stats, chained) },
	{ "rx_coalesced_frames", XS_RX,
	  offsetof(struct mbufx_xdp_rx_stats, coalesced) },
	{ "rx_hdr_lines_written", XS_RX,
	  offsetof(struct mbufx_xdp_rx_stats, hdr_lines) },
	{ "rx_refill_reused", XS_RX,
	  offsetof(struct mbufx_xdp_rx_stats, refill_reused) },
#define XS_KSTAT(f, name) \
	{ name, XS_KERNEL, offsetof(struct xdp_statistics, f) },
	MBUFX_XDP_KSTATS(XS_KSTAT)
#undef XS_KSTAT
	{ "tx_zerocopy_pkts", XS_TX, offsetof(struct mbufx_xdp_tx_stats, zc) },
	{ "tx_copied_pkts", XS_TX, offsetof(struct mbufx_xdp_tx_stats, copied) },
	{ "tx_copy_nobuf", XS_TX,
	  offsetof(struct mbufx_xdp_tx_stats, copy_nobuf) },
	{ "tx_kicks", XS_TX, offsetof(struct mbufx_xdp_tx_stats, kicks) },
	{ "tx_kicks_deferred", XS_TX,
	  offsetof(struct mbufx_xdp_tx_stats, kicks_deferred) },
	{ "tx_kicks_from_rx", XS_RXQ, offsetof(struct xdp_rxq, core.rx_kicks) },
	/* TSC cycles inside the syscalls of the data path: the kernel's work
	 * the forwarding core runs (copy mode: the Tx copy), apart from the
	 * PMD's own */
	{ "tx_kick_cycles", XS_TX,
	  offsetof(struct mbufx_xdp_tx_stats, kick_cycles) },
	{ "tx_kick_from_rx_cycles", XS_RXQ,
	  offsetof(struct xdp_rxq, core.rx_kick_cycles) },
	{ "rx_wakeups", XS_RXQ, offsetof(struct xdp_rxq, wakeups) },
	{ "rx_wakeup_cycles", XS_RXQ, offsetof(struct xdp_rxq, wakeup_cycles) },
	{ "tx_kicks_retried", XS_TX,
	  offsetof(struct mbufx_xdp_tx_stats, kicks_retried) },
	{ "tx_kick_errors", XS_TX,
	  offsetof(struct mbufx_xdp_tx_stats, kick_errors) },
	{ "tx_recycled_to_rx", XS_TX,
	  offsetof(struct mbufx_xdp_tx_stats, recycled) },
	{ "tx_completed_to_pool", XS_TX,
	  offsetof(struct mbufx_xdp_tx_stats, to_pool) },
	{ "tx_descs_in_flight", XS_TXQ,
	  offsetof(struct xdp_txq, core.nb_inflight) },
	{ "tx_completions_missing", XS_TX,
	  offsetof(struct mbufx_xdp_tx_stats, comp_missing) },
	{ "tx_completion_unknown", XS_TX,
	  offsetof(struct mbufx_xdp_tx_stats, comp_unknown) },
	{ "tx_malformed_drops", XS_TX,
	  offsetof(struct mbufx_xdp_tx_stats, malformed) },
	{ "tx_too_many_segs_drops", XS_TX,
	  offsetof(struct mbufx_xdp_tx_stats, too_many_segs) },
	/* hundredths of a header cache line written per received packet */
	{ "rx_hdr_lines_per_pkt_x100", XS_DERIVED, 0 },
};

static unsigned int
xstats_count(void)
{
	unsigned int n;

	mbufx_rx_stats_fields(&n);
	return RTE_DIM(xstats_tab) + n;
}

static int
eth_xstats_get_names(struct rte_eth_dev *dev __rte_unused,
		     struct rte_eth_xstat_name *names, unsigned int size)
{
	const struct mbufx_stat_field *f;
	unsigned int i, n, total = xstats_count();

	if (names == NULL || size < total)
		return total;
	for (i = 0; i < RTE_DIM(xstats_tab); i++)
		strlcpy(names[i].name, xstats_tab[i].name,
			sizeof(names[i].name));
	f = mbufx_rx_stats_fields(&n);
	for (i = 0; i < n; i++)
		snprintf(names[RTE_DIM(xstats_tab) + i].name,
			 sizeof(names[0].name), XS_LIB_PREFIX "%s", f[i].name);
	return total;
}

static int
eth_xstats_get(struct rte_eth_dev *dev, struct rte_eth_xstat *xs,
	       unsigned int n)
{
	struct xdp_pmd *p = pmd_of(dev);
	struct xdp_statistics ks;
	struct mbufx_rx_stats ls, lsum = { 0 };
	const struct mbufx_stat_field *f;
	uint64_t v[RTE_DIM(xstats_tab)] = { 0 };
	uint64_t lines = 0, pkts = 0;
	unsigned int i, nf, total = xstats_count();
	uint16_t q;

	if (xs == NULL || n < total)
		return total;
	f = mbufx_rx_stats_fields(&nf);
	for (q = 0; q < MAX_QUEUES; q++) {
		const struct xdp_rxq *rq = p->rxqs[q];
		const struct xdp_txq *tq = p->txqs[q];

		if (rq != NULL) {
			mbufx_xdp_kstats(rq, &ks);
			lines += rq->core.st.hdr_lines;
			pkts += rq->core.st.packets;
			rxq_lib_stats(rq, &ls);
			for (i = 0; i < nf; i++)
				*(uint64_t *)RTE_PTR_ADD(&lsum, f[i].offset) +=
					*(const uint64_t *)RTE_PTR_ADD(&ls,
							f[i].offset);
		}
		for (i = 0; i < RTE_DIM(xstats_tab); i++) {
			const void *base = NULL;

			if (xstats_tab[i].src == XS_RX && rq != NULL)
				base = &rq->core.st;
			else if (xstats_tab[i].src == XS_RXQ && rq != NULL)
				base = rq;
			else if (xstats_tab[i].src == XS_KERNEL && rq != NULL)
				base = &ks;
			else if (xstats_tab[i].src == XS_TX && tq != NULL)
				base = &tq->core.st;
			else if (xstats_tab[i].src == XS_TXQ && tq != NULL)
				base = tq;
			if (base != NULL)
				v[i] += *(const uint64_t *)RTE_PTR_ADD(base,
							xstats_tab[i].off);
		}
	}
	for (i = 0; i < RTE_DIM(xstats_tab); i++) {
		if (xstats_tab[i].src == XS_DERIVED)
			v[i] = pkts == 0 ? 0 : lines * 100 / pkts;
		xs[i].id = i;
		xs[i].value = v[i];
	}
	for (i = 0; i < nf; i++) {
		xs[RTE_DIM(xstats_tab) + i].id = RTE_DIM(xstats_tab) + i;
		xs[RTE_DIM(xstats_tab) + i].value =
			*(const uint64_t *)RTE_PTR_ADD(&lsum, f[i].offset);
	}
	return total;
}

static int
eth_xstats_reset(struct rte_eth_dev *dev)
{
	return eth_stats_reset(dev);
}

static int
eth_mac_set(struct rte_eth_dev *dev, struct rte_ether_addr *addr)
{
	struct xdp_pmd *p = pmd_of(dev);
	struct ifreq ifr = { 0 };
	int ret;

	ifr.ifr_hwaddr.sa_family = 1;	/* ARPHRD_ETHER */
	memcpy(ifr.ifr_hwaddr.sa_data, addr->addr_bytes, RTE_ETHER_ADDR_LEN);
	ret = mbufx_xdp_if_ioctl(p->iface, SIOCSIFHWADDR, &ifr);
	if (ret == 0)
		p->mac = *addr;
	return ret;
}

static const struct eth_dev_ops ops = {
	.dev_configure = eth_configure,
	.dev_start = eth_start,
	.dev_stop = eth_stop,
	.dev_close = eth_close,
	.dev_infos_get = eth_infos_get,
	.link_update = eth_link_update,
	.mtu_set = eth_mtu_set,
	.promiscuous_enable = eth_promisc_on,
	.promiscuous_disable = eth_promisc_off,
	.mac_addr_set = eth_mac_set,
	.rx_queue_setup = eth_rx_queue_setup,
	.tx_queue_setup = eth_tx_queue_setup,
	.rx_queue_release = eth_rx_queue_release,
	.tx_queue_release = eth_tx_queue_release,
	.stats_get = eth_stats_get_op,
	.stats_reset = eth_stats_reset,
	.xstats_get = eth_xstats_get,
	.xstats_get_names = eth_xstats_get_names,
	.xstats_reset = eth_xstats_reset,
};

/* ------------------------------------------------------------------------
 * Probe / remove
 */

static int
probe(struct rte_vdev_device *vdev)
{
	const char *name = rte_vdev_device_name(vdev);
	struct xdp_pmd tmp = { 0 }, *p;
	struct rte_eth_dev *dev;
	struct ifreq ifr = { 0 };
	uint16_t mtu = RTE_ETHER_MTU;
	uint32_t nq;
	int ret;

	if (rte_eal_process_type() != RTE_PROC_PRIMARY) {
		XDP_LOG(ERR, "%s: secondary processes are not supported: "
			"the AF_XDP sockets and the UMEM belong to the "
			"primary; use the port there", name);
		return -ENOTSUP;
	}
	ret = parse_args(name, rte_vdev_device_args(vdev), &tmp);
	if (ret != 0)
		return ret;
	tmp.ifindex = (int)if_nametoindex(tmp.iface);
	if (tmp.ifindex == 0) {
		XDP_LOG(ERR, "%s: no interface '%s' in this network namespace",
			name, tmp.iface);
		return -ENODEV;
	}
	nq = mbufx_xdp_if_rx_queues(tmp.iface);
	if (nq != 0 && tmp.start_queue + tmp.queue_count > nq) {
		XDP_LOG(ERR, "%s: queues %u..%u requested, %s has %u (see "
			"ethtool -l)", name, tmp.start_queue,
			tmp.start_queue + tmp.queue_count - 1, tmp.iface, nq);
		return -EINVAL;
	}
	ret = mbufx_xdp_if_ioctl(tmp.iface, SIOCGIFHWADDR, &ifr);
	if (ret != 0) {
		XDP_LOG(ERR, "%s: cannot read the MAC address of %s: %s",
			name, tmp.iface, strerror(-ret));
		return ret;
	}
	memcpy(tmp.mac.addr_bytes, ifr.ifr_hwaddr.sa_data,
	       RTE_ETHER_ADDR_LEN);
	mbufx_xdp_if_get_mtu(tmp.iface, &mtu);
	if (mbufx_xdp_dev_caps(tmp.ifindex, &tmp.caps) == 0)
		XDP_LOG(INFO, "%s: %s: XDP features %#" PRIx64 ", zero-copy %s, "
			"%u descriptors per zero-copy frame", name, tmp.iface,
			tmp.caps.features,
			(tmp.caps.features & XDP_ACT_XSK_ZEROCOPY) != 0 ?
			"yes" : "no", tmp.caps.zc_max_segs);

	dev = rte_eth_vdev_allocate(vdev, sizeof(*p));
	if (dev == NULL)
		return -ENOMEM;
	p = dev->data->dev_private;
	*p = tmp;
	p->sg_kernel = mbufx_xdp_kernel_has_sg();
	p->prog_fd = -1;
	p->map_fd = -1;
	p->link_fd = -1;
	p->port_id = dev->data->port_id;
	dev->data->mac_addrs = &p->mac;
	dev->data->mtu = mtu;
	dev->data->dev_flags |= RTE_ETH_DEV_AUTOFILL_QUEUE_XSTATS;
	dev->dev_ops = &ops;
	dev->rx_pkt_burst = eth_rx_burst;
	dev->tx_pkt_burst = eth_tx_burst;
	rte_eth_dev_probing_finish(dev);
	XDP_LOG(INFO, "%s: port %u on %s (ifindex %d), queues %u..%u, "
		"bind_mode %s",
		name, p->port_id, p->iface, p->ifindex, p->start_queue,
		p->start_queue + p->queue_count - 1, mbufx_xdp_mode_names[p->mode]);
	return 0;
}

static int
remove_dev(struct rte_vdev_device *vdev)
{
	struct rte_eth_dev *dev;

	dev = rte_eth_dev_allocated(rte_vdev_device_name(vdev));
	if (dev == NULL)
		return 0;
	eth_close(dev);
	return rte_eth_dev_release_port(dev);
}

static struct rte_vdev_driver mbufx_xdp_drv = {
	.probe = probe,
	.remove = remove_dev,
};

RTE_PMD_REGISTER_VDEV(net_mbufx_xdp, mbufx_xdp_drv);
RTE_PMD_REGISTER_PARAM_STRING(net_mbufx_xdp, DEVARGS_INFO);
