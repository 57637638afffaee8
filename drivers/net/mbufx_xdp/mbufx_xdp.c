/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The mbufx authors
 */

/*
 * net_mbufx_xdp: an AF_XDP ethdev whose receive path is mbufx late attach.
 *
 * Developer note
 * --------------
 * One AF_XDP socket per queue pair (queue i = interface queue
 * start_queue + i), created at dev_start and closed at dev_stop, bound in
 * zero-copy or copy mode (mode=auto tries zero-copy first) with XDP_USE_SG.
 * Raw syscalls only (libbpf 1.1 has no xsk.h; no libxdp): socket(AF_XDP),
 * XDP_UMEM_REG, ring sizes, XDP_MMAP_OFFSETS, mmap of the four rings, bind.
 *
 * UMEM = the Rx queue's pool memory (mbufx_xdp_rx.c): one address range,
 * unaligned chunks, fill address = buf_addr - base computed from the object
 * pointer, so neither refill nor the kernel touch the mbuf header. Two
 * ports on one pool register the same memory in two UMEMs (the kernel pins
 * the pages twice; no XDP_SHARED_UMEM coupling of the queues).
 *
 * Receive: descriptors are checked against the queue's posted-buffer bitmap
 * and turned into mbufs by mbufx_xdp_rx_convert(), writing each header once
 * (mbufx_rx_attach_at / _chain). Transmit (tx_burst): a direct, unshared
 * mbuf of this UMEM's pool goes out zero-copy (one descriptor per segment,
 * or per 4 KiB piece of a longer segment, XDP_PKT_CONTD on all but the
 * last, at most 18); anything else is copied into bare buffers of the pool.
 * Either way the buffer belongs to the PMD from then on: at completion it
 * goes to the paired Rx queue's recycle ring and from there into the fill
 * ring (no pool round trip, no header write), or to the pool when that ring
 * is full. Completions come back in submission order (the kernel completes
 * a socket's TX descriptors in order, invalid ones included), so a
 * software ring parallel to the TX ring says which buffer each completion
 * frees, drained once TX_COMP_BATCH are out. Kicks: see tx_flush() (a
 * short burst may wait tx_kick_us for company while the Rx queue of the
 * pair is polled; copy mode transmits inside the kick). Refill: see
 * rx_refill() (a batch once REFILL_THRESH descriptors were taken).
 *
 * Teardown (stop, queue release, close): XSKMAP entries cleared, program
 * detached, rings unmapped before close() (else the socket lingers), then
 * every buffer the kernel could still hold is ours again: the posted bitmap,
 * the spare stash, the recycle ring and the in-flight TX slots go back to
 * the pool. Bind retries EBUSY for up to a second: a queue stays busy for a
 * few ms after the previous socket's close.
 *
 * Devargs: iface=IF[,start_queue=N][,queue_count=N][,mode=auto|copy|zc]
 * [,busy_budget=N][,tx_kick_us=N]. The XDP program (mbufx_xdp_kern.c, "xdp.frags") is
 * compiled by clang at build time and embedded; guide:
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

#include "mbufx_xdp_rx.h"

#ifndef SOL_XDP
#define SOL_XDP 283
#endif
#ifndef AF_XDP
#define AF_XDP 44
#endif
#ifndef SO_PREFER_BUSY_POLL
#define SO_PREFER_BUSY_POLL 69
#endif
#ifndef SO_BUSY_POLL_BUDGET
#define SO_BUSY_POLL_BUDGET 70
#endif

RTE_LOG_REGISTER(mbufx_xdp_logtype, pmd.net.mbufx_xdp, NOTICE);
#define XDP_LOG(level, fmt, ...) \
	rte_log(RTE_LOG_ ## level, mbufx_xdp_logtype, "mbufx_xdp: " fmt "\n", \
		##__VA_ARGS__)

/* The embedded XDP object (generated from mbufx_xdp_kern.c). */
extern const unsigned char mbufx_xdp_bpf_obj[];
extern const unsigned int mbufx_xdp_bpf_obj_len;

#define ARG_IFACE "iface"
#define ARG_START_QUEUE "start_queue"
#define ARG_QUEUE_COUNT "queue_count"
#define ARG_MODE "mode"
#define ARG_BUSY_BUDGET "busy_budget"
#define ARG_TX_KICK_US "tx_kick_us"

#define MAX_QUEUES 64
#define DESC_MIN 64
#define DESC_MAX 8192
#define DESC_DEFAULT 1024
#define RX_BATCH 64		/* descriptors converted per step */
#define REFILL_THRESH 32	/* refill once this many buffers were taken */
#define REFILL_IDLE 8		/* ... or this many, on a poll that found none */
#define TX_KICK_BATCH 32	/* copy mode transmits this many per sendto() */
#define TX_COMP_BATCH 32	/* drain completions once this many are out */
#define TX_COPY (1u << 31)	/* eth_tx_burst: this frame is copied */
#define TX_KICK_US_DEFAULT 16	/* deferral of a kick for a short burst */
#define BIND_RETRY_MS 1000
#define L2_OVERHEAD (RTE_ETHER_HDR_LEN + RTE_VLAN_HLEN)

enum xdp_mode { MODE_AUTO, MODE_COPY, MODE_ZC };
static const char * const mode_names[] = {
	[MODE_AUTO] = "auto", [MODE_COPY] = "copy", [MODE_ZC] = "zc",
};

struct xdp_txq;

struct xdp_rxq {
	struct mbufx_xdp_rxq core;	/* receive core, fill ring inside */
	struct mbufx_xdp_ring rx;
	struct xdp_pmd *pmd;
	int fd;				/* -1 while stopped */
	int busy_poll;
	int zc;				/* bound in zero-copy mode */
	int set_up;			/* core initialised */
	uint16_t qid;
	uint32_t nb_desc;
	uint32_t taken;			/* RX descriptors consumed since refill */
	uint64_t polls;			/* rx_burst calls: the port is polled */
	uint64_t idle_kicks;		/* deferred TX kicks issued from here */
	uint64_t idle_kick_next;	/* TSC: no idle kick before */
	struct xdp_statistics kbase;	/* kernel counters of closed sockets */
	struct xdp_statistics kreset;	/* kernel counters at stats reset */
};

struct xdp_tx_stats {
	uint64_t packets;
	uint64_t bytes;
	uint64_t errors;	/* dropped: too long, empty */
	uint64_t zc;		/* packets sent zero-copy */
	uint64_t copied;	/* packets copied into UMEM buffers */
	uint64_t copy_nobuf;	/* bursts cut short: no buffer to copy into */
	uint64_t kicks;
	uint64_t kicks_deferred;	/* bursts whose kick waited for more */
	uint64_t kick_errors;
	uint64_t recycled;	/* completions handed to the Rx recycle ring */
	uint64_t to_pool;	/* completions put to the pool */
	uint64_t comp_mismatch;	/* completion address not the expected one */
};

struct xdp_txq {
	struct mbufx_xdp_ring tx;
	struct mbufx_xdp_ring cq;
	struct xdp_rxq *rxq;		/* pair: UMEM, pool, recycle ring */
	void **inflight;		/* per TX slot: buffer to free, or NULL */
	struct xdp_pmd *pmd;
	uint64_t kick_at;		/* TSC deadline of a deferred kick, 0: none */
	uint64_t kick_delay;		/* TSC cycles a short burst may wait */
	uint64_t polls_seen;		/* rxq->polls at the previous burst */
	int fd;
	uint16_t qid;
	uint32_t nb_desc;
	struct xdp_tx_stats st;
};

struct xdp_pmd {
	char iface[IFNAMSIZ];
	int ifindex;
	uint32_t start_queue;
	uint32_t queue_count;
	enum xdp_mode mode;
	uint32_t busy_budget;
	uint32_t tx_kick_us;		/* 0: kick every burst */
	int sg;				/* XDP_USE_SG accepted */
	uint16_t port_id;
	struct rte_ether_addr mac;
	struct bpf_object *obj;
	int prog_fd;
	int map_fd;
	uint32_t attach_flags;		/* XDP_FLAGS_*_MODE in use */
	struct xdp_rxq *rxqs[MAX_QUEUES];
	struct xdp_txq *txqs[MAX_QUEUES];
};

/* ------------------------------------------------------------------------
 * Device arguments
 */

static const char * const valid_args[] = {
	ARG_IFACE, ARG_START_QUEUE, ARG_QUEUE_COUNT, ARG_MODE,
	ARG_BUSY_BUDGET, ARG_TX_KICK_US, NULL
};

static int
arg_iface(const char *key __rte_unused, const char *v, void *opaque)
{
	char *dst = opaque;

	if (v == NULL || v[0] == '\0' || strlen(v) >= IFNAMSIZ)
		return -EINVAL;
	strcpy(dst, v);
	return 0;
}

static int
arg_u32(const char *key __rte_unused, const char *v, void *opaque)
{
	unsigned long x;
	char *end;

	if (v == NULL || v[0] < '0' || v[0] > '9')
		return -EINVAL;
	errno = 0;
	x = strtoul(v, &end, 0);
	if (errno != 0 || *end != '\0' || x > UINT32_MAX)
		return -EINVAL;
	*(uint32_t *)opaque = (uint32_t)x;
	return 0;
}

static int
arg_mode(const char *key __rte_unused, const char *v, void *opaque)
{
	unsigned int i;

	for (i = 0; v != NULL && i < RTE_DIM(mode_names); i++)
		if (strcmp(v, mode_names[i]) == 0) {
			*(enum xdp_mode *)opaque = (enum xdp_mode)i;
			return 0;
		}
	return -EINVAL;
}

static int
parse_args(const char *name, const char *params, struct xdp_pmd *p)
{
	static const struct {
		const char *key;
		arg_handler_t fn;
		size_t off;
	} tab[] = {
		{ ARG_IFACE, arg_iface, offsetof(struct xdp_pmd, iface) },
		{ ARG_START_QUEUE, arg_u32,
		  offsetof(struct xdp_pmd, start_queue) },
		{ ARG_QUEUE_COUNT, arg_u32,
		  offsetof(struct xdp_pmd, queue_count) },
		{ ARG_MODE, arg_mode, offsetof(struct xdp_pmd, mode) },
		{ ARG_BUSY_BUDGET, arg_u32,
		  offsetof(struct xdp_pmd, busy_budget) },
		{ ARG_TX_KICK_US, arg_u32,
		  offsetof(struct xdp_pmd, tx_kick_us) },
	};
	struct rte_kvargs *kv;
	unsigned int i;
	int ret = 0;

	p->queue_count = 1;
	p->tx_kick_us = TX_KICK_US_DEFAULT;
	p->mode = MODE_AUTO;
	kv = rte_kvargs_parse(params == NULL ? "" : params, valid_args);
	if (kv == NULL) {
		XDP_LOG(ERR, "%s: bad arguments '%s' (valid: iface=IF, "
			"start_queue=N, queue_count=N, mode=auto|copy|zc, "
			"busy_budget=N, tx_kick_us=N)", name, params);
		return -EINVAL;
	}
	for (i = 0; i < RTE_DIM(tab); i++) {
		if (rte_kvargs_count(kv, tab[i].key) > 1) {
			XDP_LOG(ERR, "%s: %s given twice", name, tab[i].key);
			ret = -EINVAL;
			break;
		}
		if (rte_kvargs_process(kv, tab[i].key, tab[i].fn,
				       RTE_PTR_ADD(p, tab[i].off)) != 0) {
			XDP_LOG(ERR, "%s: bad value for %s", name,
				tab[i].key);
			ret = -EINVAL;
			break;
		}
	}
	rte_kvargs_free(kv);
	if (ret != 0)
		return ret;
	if (p->iface[0] == '\0') {
		XDP_LOG(ERR, "%s: iface=<interface> is required", name);
		return -EINVAL;
	}
	if (p->queue_count == 0 || p->queue_count > MAX_QUEUES) {
		XDP_LOG(ERR, "%s: queue_count must be 1..%u", name,
			MAX_QUEUES);
		return -EINVAL;
	}
	if (p->tx_kick_us > 1000) {
		XDP_LOG(ERR, "%s: tx_kick_us must be 0..1000", name);
		return -EINVAL;
	}
	if (p->busy_budget > UINT16_MAX) {
		XDP_LOG(ERR, "%s: busy_budget must be 0..%u", name,
			UINT16_MAX);
		return -EINVAL;
	}
	return 0;
}

/* ------------------------------------------------------------------------
 * Interface control (ioctl on a throw-away socket)
 */

static int
if_ioctl(const char *iface, unsigned long req, struct ifreq *ifr)
{
	int fd, ret = 0;

	fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -errno;
	snprintf(ifr->ifr_name, sizeof(ifr->ifr_name), "%s", iface);
	if (ioctl(fd, req, ifr) < 0)
		ret = -errno;
	close(fd);
	return ret;
}

static int
if_get_mtu(const char *iface, uint16_t *mtu)
{
	struct ifreq ifr = { 0 };
	int ret = if_ioctl(iface, SIOCGIFMTU, &ifr);

	if (ret == 0)
		*mtu = (uint16_t)RTE_MIN(ifr.ifr_mtu, UINT16_MAX);
	return ret;
}

static int
if_get_flags(const char *iface, short *flags)
{
	struct ifreq ifr = { 0 };
	int ret = if_ioctl(iface, SIOCGIFFLAGS, &ifr);

	if (ret == 0)
		*flags = ifr.ifr_flags;
	return ret;
}

static int
if_change_flags(const char *iface, short set, short clear)
{
	struct ifreq ifr = { 0 };
	int ret = if_ioctl(iface, SIOCGIFFLAGS, &ifr);

	if (ret != 0)
		return ret;
	ifr.ifr_flags = (short)((ifr.ifr_flags | set) & ~clear);
	return if_ioctl(iface, SIOCSIFFLAGS, &ifr);
}

/* Rx queues the interface has (ethtool channels, else unknown: 0). */
static uint32_t
if_rx_queues(const char *iface)
{
	struct ethtool_channels ch = { .cmd = ETHTOOL_GCHANNELS };
	struct ifreq ifr = { 0 };

	ifr.ifr_data = (void *)&ch;
	if (if_ioctl(iface, SIOCETHTOOL, &ifr) != 0)
		return 0;
	return RTE_MAX(ch.rx_count, ch.combined_count) != 0 ?
		ch.rx_count + ch.combined_count : 0;
}

static uint32_t
if_speed(const char *iface)
{
	struct ethtool_cmd ec = { .cmd = ETHTOOL_GSET };
	struct ifreq ifr = { 0 };
	uint32_t s;

	ifr.ifr_data = (void *)&ec;
	if (if_ioctl(iface, SIOCETHTOOL, &ifr) != 0)
		return RTE_ETH_SPEED_NUM_UNKNOWN;
	s = ethtool_cmd_speed(&ec);
	return s == 0 || s == (uint32_t)SPEED_UNKNOWN ?
		RTE_ETH_SPEED_NUM_UNKNOWN : s;
}

/* ------------------------------------------------------------------------
 * XDP program: load, attach, detach
 */

static void
prog_detach(struct xdp_pmd *p)
{
	LIBBPF_OPTS(bpf_xdp_attach_opts, opts, .old_prog_fd = p->prog_fd);

	if (p->obj == NULL)
		return;
	/* only our program: XDP_FLAGS_REPLACE with old_prog_fd */
	if (bpf_xdp_detach(p->ifindex, p->attach_flags, &opts) != 0)
		XDP_LOG(WARNING, "%s: cannot detach the XDP program",
			p->iface);
	bpf_object__close(p->obj);
	p->obj = NULL;
	p->prog_fd = -1;
	p->map_fd = -1;
}

static int
prog_attach(struct xdp_pmd *p)
{
	LIBBPF_OPTS(bpf_object_open_opts, oo, .object_name = "mbufx_xdp");
	uint32_t entries = RTE_MAX(p->start_queue + p->queue_count,
				   if_rx_queues(p->iface));
	struct bpf_program *prog;
	struct bpf_map *map;
	uint32_t prog_id = 0;
	int ret;

	p->obj = bpf_object__open_mem(mbufx_xdp_bpf_obj, mbufx_xdp_bpf_obj_len,
				      &oo);
	if (p->obj == NULL) {
		ret = -errno;
		XDP_LOG(ERR, "%s: cannot open the embedded XDP object: %s",
			p->iface, strerror(-ret));
		return ret;
	}
	map = bpf_object__find_map_by_name(p->obj, "mbufx_xsks");
	prog = bpf_object__find_program_by_name(p->obj, "mbufx_xdp_redirect");
	if (map == NULL || prog == NULL) {
		ret = -ENOENT;
		goto fail;
	}
	bpf_map__set_max_entries(map, entries);
	ret = bpf_object__load(p->obj);
	if (ret != 0) {
		XDP_LOG(ERR, "%s: cannot load the XDP program: %s "
			"(CAP_BPF/CAP_SYS_ADMIN needed)", p->iface,
			strerror(-ret));
		goto fail;
	}
	p->prog_fd = bpf_program__fd(prog);
	p->map_fd = bpf_map__fd(map);
	p->attach_flags = XDP_FLAGS_DRV_MODE;
	ret = bpf_xdp_attach(p->ifindex, p->prog_fd,
			     XDP_FLAGS_UPDATE_IF_NOEXIST | p->attach_flags,
			     NULL);
	if (ret != 0 && ret != -EBUSY && ret != -EEXIST) {
		XDP_LOG(INFO, "%s: native XDP refused (%s), using generic",
			p->iface, strerror(-ret));
		p->attach_flags = XDP_FLAGS_SKB_MODE;
		ret = bpf_xdp_attach(p->ifindex, p->prog_fd,
				     XDP_FLAGS_UPDATE_IF_NOEXIST |
				     p->attach_flags, NULL);
	}
	if (ret != 0) {
		bpf_xdp_query_id(p->ifindex, 0, &prog_id);
		XDP_LOG(ERR, "%s: cannot attach the XDP program: %s%s",
			p->iface, strerror(-ret), prog_id != 0 ?
			" (another XDP program is attached: remove it with "
			"'ip link set dev IF xdp off')" : "");
		goto fail;
	}
	return 0;
fail:
	bpf_object__close(p->obj);
	p->obj = NULL;
	return ret;
}

/* ------------------------------------------------------------------------
 * Sockets
 */

static int
ring_map(int fd, struct mbufx_xdp_ring *r, const struct xdp_ring_offset *o,
	 uint32_t size, size_t entry, off_t pgoff)
{
	void *m;

	r->map_len = o->desc + (size_t)size * entry;
	m = mmap(NULL, r->map_len, PROT_READ | PROT_WRITE,
		 MAP_SHARED | MAP_POPULATE, fd, pgoff);
	if (m == MAP_FAILED) {
		r->map = NULL;
		return -errno;
	}
	r->map = m;
	r->producer = RTE_PTR_ADD(m, o->producer);
	r->consumer = RTE_PTR_ADD(m, o->consumer);
	r->flags = RTE_PTR_ADD(m, o->flags);
	r->descs = RTE_PTR_ADD(m, o->desc);
	r->size = size;
	r->mask = size - 1;
	r->cached_prod = __atomic_load_n(r->producer, __ATOMIC_ACQUIRE);
	r->cached_cons = __atomic_load_n(r->consumer, __ATOMIC_ACQUIRE);
	return 0;
}

static void
ring_unmap(struct mbufx_xdp_ring *r)
{
	if (r->map != NULL)
		munmap(r->map, r->map_len);
	memset(r, 0, sizeof(*r));
}

static int
sock_opt(int fd, int level, int name, uint32_t v)
{
	return setsockopt(fd, level, name, &v, sizeof(v)) == 0 ? 0 : -errno;
}

/* bind() retrying EBUSY: a queue stays busy a few ms after a close. */
static int
bind_retry(int fd, struct sockaddr_xdp *sa)
{
	uint64_t deadline = rte_get_timer_cycles() +
		rte_get_timer_hz() * BIND_RETRY_MS / 1000;

	for (;;) {
		if (bind(fd, (struct sockaddr *)sa, sizeof(*sa)) == 0)
			return 0;
		if (errno != EBUSY || rte_get_timer_cycles() >= deadline)
			return -errno;
		rte_delay_us_sleep(5000);
	}
}

/*
 * Bind flags in order of preference: zero-copy (mode zc or auto), then
 * copy (auto or copy); each with multi-buffer first, then without (a
 * driver without zero-copy multi-buffer, or a kernel before 6.6).
 */
static int
sock_bind(struct xdp_pmd *p, struct xdp_rxq *rq, int fd)
{
	static const uint16_t modes[] = { XDP_ZEROCOPY, XDP_COPY };
	struct sockaddr_xdp sa = {
		.sxdp_family = AF_XDP,
		.sxdp_ifindex = (uint32_t)p->ifindex,
		.sxdp_queue_id = p->start_queue + rq->qid,
	};
	unsigned int m, sg;
	int ret = -EINVAL;

	for (m = 0; m < RTE_DIM(modes); m++) {
		if ((modes[m] == XDP_ZEROCOPY && p->mode == MODE_COPY) ||
		    (modes[m] == XDP_COPY && p->mode == MODE_ZC))
			continue;
		for (sg = p->sg; ; sg = 0) {
			sa.sxdp_flags = modes[m] | XDP_USE_NEED_WAKEUP |
				(sg ? XDP_USE_SG : 0);
			ret = bind_retry(fd, &sa);
			if (ret == 0) {
				if (p->sg && !sg)
					XDP_LOG(WARNING, "%s: no multi-buffer "
						"(XDP_USE_SG) in this mode: "
						"frames longer than one buffer "
						"are dropped", p->iface);
				p->sg = sg;
				rq->zc = modes[m] == XDP_ZEROCOPY;
				return 0;
			}
			if (ret == -EBUSY || !sg)
				break;
		}
		if (ret == -EBUSY)
			break;
		if (modes[m] == XDP_ZEROCOPY && p->mode == MODE_AUTO)
			XDP_LOG(INFO, "%s queue %u: no zero-copy (%s), copy "
				"mode", p->iface, sa.sxdp_queue_id,
				strerror(-ret));
	}
	XDP_LOG(ERR, "%s queue %u: bind (mode %s) failed: %s%s", p->iface,
		sa.sxdp_queue_id, mode_names[p->mode], strerror(-ret),
		ret == -EBUSY ? " (queue still in use by another socket)" :
		ret == -EOPNOTSUPP && p->mode == MODE_ZC ?
		" (the driver has no zero-copy: use mode=auto or copy)" : "");
	return ret;
}

static void tx_kick(struct xdp_txq *tq);

static void
sock_close(struct xdp_pmd *p, struct xdp_rxq *rq, struct xdp_txq *tq)
{
	uint32_t key = p->start_queue + rq->qid, i;
	struct xdp_statistics ks;
	socklen_t len = sizeof(ks);
	void *h;

	if (rq->fd < 0)
		return;
	/* a short burst still waiting for its kick goes out first */
	if (tq != NULL && tq->fd >= 0 && tq->kick_at != 0) {
		tq->kick_at = 0;
		tx_kick(tq);
	}
	if (p->map_fd >= 0)
		bpf_map_delete_elem(p->map_fd, &key);
	if (getsockopt(rq->fd, SOL_XDP, XDP_STATISTICS, &ks, &len) == 0) {
		rq->kbase.rx_dropped += ks.rx_dropped;
		rq->kbase.rx_invalid_descs += ks.rx_invalid_descs;
		rq->kbase.tx_invalid_descs += ks.tx_invalid_descs;
		rq->kbase.rx_ring_full += ks.rx_ring_full;
		rq->kbase.rx_fill_ring_empty_descs +=
			ks.rx_fill_ring_empty_descs;
		rq->kbase.tx_ring_empty_descs += ks.tx_ring_empty_descs;
	}
	/* unmap first: a mapped ring keeps the socket alive after close() */
	ring_unmap(&rq->rx);
	ring_unmap(&rq->core.fill);
	if (tq != NULL) {
		/* every descriptor not completed yet is ours again */
		for (i = tq->cq.cached_cons; i != tq->tx.cached_prod; i++) {
			h = tq->inflight[i & (tq->nb_desc - 1)];
			tq->inflight[i & (tq->nb_desc - 1)] = NULL;
			if (h != NULL)
				rte_mempool_put(rq->core.mp, h);
		}
		ring_unmap(&tq->tx);
		ring_unmap(&tq->cq);
		tq->fd = -1;
	}
	close(rq->fd);
	rq->fd = -1;
	mbufx_xdp_rxq_release(&rq->core);
}

/*
 * Refill once REFILL_THRESH buffers were taken from the RX ring: every RX
 * descriptor freed a fill slot, so the count says when a batch is worth
 * posting without reading the kernel's fill consumer (a cache line the
 * kernel writes) on every burst. Buffers the kernel takes without
 * completing them (frames it dropped) come back through later descriptors,
 * so the count never overstates the room; a pool that ran dry leaves the
 * unfilled slots counted, to be retried.
 */
static inline void
rx_refill(struct xdp_rxq *rq)
{
	struct mbufx_xdp_ring *f = &rq->core.fill;

	mbufx_xdp_rxq_refill(&rq->core);
	rq->taken = f->size - (f->cached_prod - f->cached_cons);
}

static int
sock_open(struct xdp_pmd *p, struct xdp_rxq *rq, struct xdp_txq *tq)
{
	struct xdp_umem_reg reg = {
		.addr = rq->core.base,
		.len = rq->core.umem_len,
		.chunk_size = rq->core.chunk_size,
		.headroom = 0,
		.flags = XDP_UMEM_UNALIGNED_CHUNK_FLAG,
	};
	uint32_t cq_size = tq != NULL ? tq->nb_desc : DESC_MIN;
	uint32_t key = p->start_queue + rq->qid;
	struct xdp_mmap_offsets off;
	socklen_t olen = sizeof(off);
	int fd, ret;

	fd = socket(AF_XDP, SOCK_RAW | SOCK_CLOEXEC, 0);
	if (fd < 0) {
		ret = -errno;
		XDP_LOG(ERR, "%s: socket(AF_XDP): %s", p->iface,
			strerror(-ret));
		return ret;
	}
	rq->fd = fd;
	if (setsockopt(fd, SOL_XDP, XDP_UMEM_REG, &reg, sizeof(reg)) != 0) {
		ret = -errno;
		XDP_LOG(ERR, "%s: UMEM registration of %" PRIu64 " bytes "
			"failed: %s%s", p->iface, (uint64_t)reg.len,
			strerror(-ret), ret == -ENOBUFS || ret == -EPERM ?
			" (CAP_IPC_LOCK or a larger RLIMIT_MEMLOCK needed)" :
			"");
		goto fail;
	}
	ret = sock_opt(fd, SOL_XDP, XDP_UMEM_FILL_RING, rq->nb_desc);
	if (ret == 0)
		ret = sock_opt(fd, SOL_XDP, XDP_UMEM_COMPLETION_RING,
			       cq_size);
	if (ret == 0)
		ret = sock_opt(fd, SOL_XDP, XDP_RX_RING, rq->nb_desc);
	if (ret == 0 && tq != NULL)
		ret = sock_opt(fd, SOL_XDP, XDP_TX_RING, tq->nb_desc);
	if (ret == 0 && getsockopt(fd, SOL_XDP, XDP_MMAP_OFFSETS, &off,
				   &olen) != 0)
		ret = -errno;
	if (ret == 0)
		ret = ring_map(fd, &rq->core.fill, &off.fr, rq->nb_desc,
			       sizeof(uint64_t), XDP_UMEM_PGOFF_FILL_RING);
	if (ret == 0)
		ret = ring_map(fd, &rq->rx, &off.rx, rq->nb_desc,
			       sizeof(struct xdp_desc), XDP_PGOFF_RX_RING);
	if (ret == 0 && tq != NULL)
		ret = ring_map(fd, &tq->tx, &off.tx, tq->nb_desc,
			       sizeof(struct xdp_desc), XDP_PGOFF_TX_RING);
	if (ret == 0 && tq != NULL)
		ret = ring_map(fd, &tq->cq, &off.cr, cq_size,
			       sizeof(uint64_t),
			       XDP_UMEM_PGOFF_COMPLETION_RING);
	if (ret != 0) {
		XDP_LOG(ERR, "%s: AF_XDP ring setup failed: %s", p->iface,
			strerror(-ret));
		goto fail;
	}
	if (tq != NULL) {
		tq->fd = fd;
		tq->kick_at = 0;
		tq->polls_seen = 0;
		tq->kick_delay = (uint64_t)p->tx_kick_us * rte_get_tsc_hz() /
				 1000000;
	}
	rq->idle_kick_next = 0;
	rq->busy_poll = 0;
	if (p->busy_budget != 0) {
		if (sock_opt(fd, SOL_SOCKET, SO_PREFER_BUSY_POLL, 1) == 0 &&
		    sock_opt(fd, SOL_SOCKET, SO_BUSY_POLL, 20) == 0 &&
		    sock_opt(fd, SOL_SOCKET, SO_BUSY_POLL_BUDGET,
			     p->busy_budget) == 0)
			rq->busy_poll = 1;
		else
			XDP_LOG(INFO, "%s: busy polling unavailable, ignored",
				p->iface);
	}
	/* stock the fill ring before the first frame can arrive */
	rx_refill(rq);
	ret = sock_bind(p, rq, fd);
	if (ret != 0)
		goto fail;
	if (bpf_map_update_elem(p->map_fd, &key, &fd, 0) != 0) {
		ret = -errno;
		XDP_LOG(ERR, "%s: XSKMAP update for queue %u: %s", p->iface,
			key, strerror(-ret));
		goto fail;
	}
	XDP_LOG(INFO, "%s queue %u: %s mode, UMEM %" PRIu64 " KiB, chunk %u",
		p->iface, key, rq->zc ? "zero-copy" : "copy",
		(uint64_t)reg.len >> 10, reg.chunk_size);
	return 0;
fail:
	sock_close(p, rq, tq);
	return ret;
}

/* ------------------------------------------------------------------------
 * Receive
 */

static inline void
rx_wakeup(struct xdp_rxq *rq)
{
	if (rq->busy_poll ||
	    (*rq->core.fill.flags & XDP_RING_NEED_WAKEUP) != 0)
		recvfrom(rq->fd, NULL, 0, MSG_DONTWAIT, NULL, NULL);
}

static void tx_idle_kick(struct xdp_rxq *rq);

static uint16_t
eth_rx_burst(void *queue, struct rte_mbuf **pkts, uint16_t nb_pkts)
{
	struct xdp_rxq *rq = queue;
	const struct xdp_desc *ring = rq->rx.descs;
	struct xdp_desc d[RX_BATCH];
	const struct xdp_desc *src;
	uint32_t avail, k, i, used, at;
	uint16_t nb = 0;

	rq->polls++;
	avail = mbufx_xdp_cons_avail(&rq->rx);
	if (avail == 0) {
		/* idle: the time to restock and to send a deferred TX kick */
		if (rq->taken >= REFILL_IDLE)
			rx_refill(rq);
		tx_idle_kick(rq);
		rx_wakeup(rq);
		return 0;
	}
	while (avail != 0 && nb < nb_pkts) {
		k = RTE_MIN(avail, (uint32_t)RX_BATCH);
		at = rq->rx.cached_cons & rq->rx.mask;
		if (likely(at + k <= rq->rx.size)) {
			/* entries up to the producer are ours until released */
			src = &ring[at];
		} else {
			for (i = 0; i < k; i++)
				d[i] = ring[(at + i) & rq->rx.mask];
			src = d;
		}
		nb += mbufx_xdp_rx_convert(&rq->core, src, k, pkts + nb,
					   nb_pkts - nb, &used);
		if (used == 0)
			break;	/* a frame still arriving */
		mbufx_xdp_cons_release(&rq->rx, used);
		rq->taken += used;
		avail -= used;
	}
	if (rq->taken >= REFILL_THRESH)
		rx_refill(rq);
	return nb;
}

/* ------------------------------------------------------------------------
 * Transmit
 */

/* Completed descriptors: their buffers to the Rx side, else the pool. */
static void
tx_complete(struct xdp_txq *tq)
{
	struct mbufx_xdp_rxq *core = &tq->rxq->core;
	const uint64_t *ring = tq->cq.descs;
	uint32_t n = mbufx_xdp_cons_avail(&tq->cq), i, k, nh, sent;
	void *h[64];
	void *x;

	for (i = 0; i < n; i += k) {
		k = RTE_MIN(n - i, (uint32_t)RTE_DIM(h));
		nh = 0;
		for (uint32_t j = 0; j < k; j++) {
			uint32_t seq = tq->cq.cached_cons + i + j;

			x = tq->inflight[seq & (tq->nb_desc - 1)];
			if (x == NULL)
				continue;
			tq->inflight[seq & (tq->nb_desc - 1)] = NULL;
			if (unlikely((ring[seq & tq->cq.mask] &
				      XSK_UNALIGNED_BUF_ADDR_MASK) !=
				     mbufx_xdp_umem_off(core, x)))
				tq->st.comp_mismatch++;
			h[nh++] = x;
		}
		sent = rte_ring_sp_enqueue_burst(core->recycle, h, nh, NULL);
		tq->st.recycled += sent;
		if (sent < nh) {
			rte_mempool_put_bulk(core->mp, &h[sent], nh - sent);
			tq->st.to_pool += nh - sent;
		}
	}
	if (n != 0)
		mbufx_xdp_cons_release(&tq->cq, n);
}

static void
tx_kick(struct xdp_txq *tq)
{
	unsigned int tries;

	for (tries = 0; tries < 8; tries++) {
		if ((*tq->tx.flags & XDP_RING_NEED_WAKEUP) == 0)
			return;
		if (sendto(tq->fd, NULL, 0, MSG_DONTWAIT, NULL, 0) < 0 &&
		    errno != EAGAIN && errno != EBUSY && errno != ENOBUFS &&
		    errno != EINTR) {
			tq->st.kick_errors++;
			return;
		}
		tq->st.kicks++;
		/* copy mode sends at most 32 descriptors per call */
		if (__atomic_load_n(tq->tx.consumer, __ATOMIC_ACQUIRE) ==
		    tq->tx.cached_prod)
			return;
		tx_complete(tq);
	}
}

/*
 * Kick policy. The TX ring asks for a wakeup (always, in copy mode, where
 * the kernel transmits inside sendto(), at most TX_KICK_BATCH descriptors a
 * call); a syscall per burst costs more than the burst when bursts are a
 * packet or two. So a short burst may wait up to tx_kick_us for company,
 * but only while the paired Rx queue is being polled (its idle polls send
 * the kick when the deadline passes, tx_idle_kick()); TX_KICK_BATCH
 * descriptors pending, an expired deadline, or no Rx poll since the last
 * burst kick at once. tx_kick_us=0: every burst is kicked.
 */
static inline void
tx_flush(struct xdp_txq *tq)
{
	uint32_t pending = tq->tx.cached_prod -
		__atomic_load_n(tq->tx.consumer, __ATOMIC_ACQUIRE);
	uint64_t polls, now;

	if (pending == 0 || (*tq->tx.flags & XDP_RING_NEED_WAKEUP) == 0) {
		__atomic_store_n(&tq->kick_at, 0, __ATOMIC_RELAXED);
		return;
	}
	polls = __atomic_load_n(&tq->rxq->polls, __ATOMIC_RELAXED);
	if (tq->kick_delay != 0 && pending < TX_KICK_BATCH &&
	    polls != tq->polls_seen) {
		tq->polls_seen = polls;
		now = rte_rdtsc();
		if (tq->kick_at == 0) {
			__atomic_store_n(&tq->kick_at, now + tq->kick_delay,
					 __ATOMIC_RELAXED);
			tq->st.kicks_deferred++;
			return;
		}
		if (now < tq->kick_at) {
			tq->st.kicks_deferred++;
			return;
		}
	}
	tq->polls_seen = polls;
	__atomic_store_n(&tq->kick_at, 0, __ATOMIC_RELAXED);
	tx_kick(tq);
}

/*
 * The paired Rx queue found nothing: send the TX queue's deferred kick if
 * its deadline passed. May run on another lcore than the TX queue: it only
 * reads the TX side and calls sendto(), which the kernel serialises; after
 * a kick (or a failed one, link down) it waits a delay before the next.
 */
static void
tx_idle_kick(struct xdp_rxq *rq)
{
	struct xdp_txq *tq = rq->pmd->txqs[rq->qid];
	uint64_t at, now;

	if (tq == NULL || tq->fd < 0)
		return;
	at = __atomic_load_n(&tq->kick_at, __ATOMIC_RELAXED);
	if (likely(at == 0))
		return;
	now = rte_rdtsc();
	if (now < at || now < rq->idle_kick_next)
		return;
	if (__atomic_load_n(tq->tx.consumer, __ATOMIC_ACQUIRE) ==
	    __atomic_load_n(tq->tx.producer, __ATOMIC_RELAXED) ||
	    (*tq->tx.flags & XDP_RING_NEED_WAKEUP) == 0)
		return;
	rq->idle_kick_next = now + tq->kick_delay;
	(void)sendto(tq->fd, NULL, 0, MSG_DONTWAIT, NULL, 0);
	rq->idle_kicks++;
}

static inline void
tx_desc(struct xdp_txq *tq, uint32_t slot, uint64_t addr, uint32_t len,
	uint32_t options, void *owner)
{
	struct xdp_desc *d = &((struct xdp_desc *)tq->tx.descs)[slot &
								tq->tx.mask];

	d->addr = addr;
	d->len = len;
	d->options = options;
	tq->inflight[slot & (tq->nb_desc - 1)] = owner;
}

/*
 * Descriptors m needs to go out zero-copy, or 0 when it cannot: a segment
 * is shared, indirect, external, of another pool or empty.
 */
static inline uint32_t
tx_zc_descs(const struct xdp_txq *tq, const struct rte_mbuf *m)
{
	const struct mbufx_xdp_rxq *core = &tq->rxq->core;
	uint32_t n = 0;

	for (; m != NULL; m = m->next) {
		if (m->pool != core->mp || !RTE_MBUF_DIRECT(m) ||
		    rte_mbuf_refcnt_read(m) != 1 || m->data_len == 0)
			return 0;
		n += likely(m->data_len <= core->chunk_size) ? 1 :
			(m->data_len + core->chunk_size - 1) /
			core->chunk_size;
	}
	return n;
}

/* Zero-copy: the PMD owns every segment from here; n descriptors. */
static void
tx_zc(struct xdp_txq *tq, struct rte_mbuf *m, uint32_t n)
{
	const struct mbufx_xdp_rxq *core = &tq->rxq->core;
	uint32_t slot = tq->tx.cached_prod, left, piece, pos, k = 0;
	struct rte_mbuf *next;
	uint64_t off;

	for (; m != NULL; m = next) {
		next = m->next;
		off = (uintptr_t)m->buf_addr - core->base;
		pos = m->data_off;
		for (left = m->data_len; left != 0; left -= piece) {
			piece = RTE_MIN(left, core->chunk_size);
			k++;
			/* the buffer is freed with its last piece */
			tx_desc(tq, slot++, off | ((uint64_t)pos <<
					XSK_UNALIGNED_BUF_OFFSET_SHIFT),
				piece, k < n ? XDP_PKT_CONTD : 0,
				left == piece ? m : NULL);
			pos += piece;
		}
		if (next != NULL) {
			/* pool invariant now: it may go back bare */
			m->next = NULL;
			m->nb_segs = 1;
		}
	}
}

/* Copy into n bare buffers of the UMEM pool; 0 or -ENOBUFS. */
static int
tx_copy(struct xdp_txq *tq, struct rte_mbuf *m, uint32_t n)
{
	const struct mbufx_xdp_rxq *core = &tq->rxq->core;
	uint32_t slot = tq->tx.cached_prod, i, piece, left, k, soff = 0;
	const struct rte_mbuf *s = m;
	void *h[MBUFX_XDP_MAX_FRAGS];
	uint8_t *dst;

	if (rte_mempool_get_bulk(core->mp, h, n) != 0)
		return -ENOBUFS;
	left = m->pkt_len;
	for (i = 0; i < n; i++) {
		piece = RTE_MIN(left, core->chunk_size);
		dst = RTE_PTR_ADD(h[i], core->buf_offset);
		for (k = 0; k < piece; ) {
			uint32_t c = RTE_MIN(piece - k,
					     (uint32_t)s->data_len - soff);

			memcpy(dst + k, rte_pktmbuf_mtod_offset(s, uint8_t *,
								soff), c);
			k += c;
			soff += c;
			if (soff == s->data_len && s->next != NULL) {
				s = s->next;
				soff = 0;
			}
		}
		tx_desc(tq, slot++, mbufx_xdp_umem_off(core, h[i]), piece,
			i + 1 < n ? XDP_PKT_CONTD : 0, h[i]);
		left -= piece;
	}
	rte_pktmbuf_free(m);
	return 0;
}

/*
 * Free TX slots: the ring's, and no more than the completions drained
 * allow (a slot's inflight entry is only free once its completion came
 * back, which in copy mode can be after the kernel consumed the slot).
 */
static inline uint32_t
tx_room(struct xdp_txq *tq, uint32_t want)
{
	uint32_t ring = mbufx_xdp_prod_free(&tq->tx, want);
	uint32_t comp = tq->nb_desc - (tq->tx.cached_prod - tq->cq.cached_cons);

	return RTE_MIN(ring, comp);
}

static uint16_t
eth_tx_burst(void *queue, struct rte_mbuf **pkts, uint16_t nb_pkts)
{
	struct xdp_txq *tq = queue;
	const uint32_t chunk = tq->rxq->core.chunk_size;
	const uint32_t max_descs = tq->pmd->sg ? MBUFX_XDP_MAX_FRAGS : 1;
	uint32_t free_n, n, used = 0;
	uint16_t i;
	int fresh = 0;

	/* completions in batches: their producer is a line the kernel writes */
	if (tq->tx.cached_prod - tq->cq.cached_cons >= TX_COMP_BATCH)
		tx_complete(tq);
	free_n = tx_room(tq, nb_pkts);
	if (free_n < nb_pkts) {
		tx_complete(tq);
		free_n = tx_room(tq, nb_pkts);
		fresh = 1;
	}
	for (i = 0; i < nb_pkts; i++) {
		struct rte_mbuf *m = pkts[i];
		uint32_t len = m->pkt_len;

		n = tx_zc_descs(tq, m);
		if (n == 0 || n > max_descs) {
			n = likely(len <= chunk) ? 1 : (len + chunk - 1) / chunk;
			if (len == 0 || n > max_descs) {
				tq->st.errors++;
				rte_pktmbuf_free(m);
				continue;
			}
			n |= TX_COPY;
		}
		/*
		 * free_n was judged for one descriptor per packet from cached
		 * indexes: a multi-descriptor frame that does not fit gets one
		 * fresh look at both rings before the burst stops.
		 */
		if ((n & ~TX_COPY) > free_n - used) {
			if (fresh)
				break;
			tx_complete(tq);
			free_n = used + tx_room(tq, n & ~TX_COPY);
			fresh = 1;
			if ((n & ~TX_COPY) > free_n - used)
				break;
		}
		if ((n & TX_COPY) == 0) {
			tx_zc(tq, m, n);
			tq->st.zc++;
		} else {
			n &= ~TX_COPY;
			if (tx_copy(tq, m, n) != 0) {
				tq->st.copy_nobuf++;
				break;
			}
			tq->st.copied++;
		}
		tq->tx.cached_prod += n;
		used += n;
		tq->st.packets++;
		tq->st.bytes += len;
	}
	if (used != 0)
		/* cached_prod already advanced: publish it */
		__atomic_store_n(tq->tx.producer, tq->tx.cached_prod,
				 __ATOMIC_RELEASE);
	/* also when nothing was added: descriptors left by a failed kick
	 * (link down) must go once the link is back */
	tx_flush(tq);
	return i;
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

static uint32_t
max_rx_frame(const struct rte_eth_dev *dev)
{
	const struct xdp_pmd *p = dev->data->dev_private;
	uint32_t m = UINT32_MAX;
	uint16_t i;

	for (i = 0; i < dev->data->nb_rx_queues; i++)
		if (p->rxqs[i] != NULL && p->rxqs[i]->set_up)
			m = RTE_MIN(m, mbufx_xdp_rxq_max_frame(&p->rxqs[i]->core,
							       p->sg));
	if (m == UINT32_MAX)	/* no pool yet: the smallest one accepted */
		m = p->sg ? (MBUFX_XDP_CHUNK_MIN - MBUFX_XDP_HEADROOM) *
			MBUFX_XDP_MAX_FRAGS :
			MBUFX_XDP_CHUNK_MIN - MBUFX_XDP_HEADROOM;
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
	info->max_mtu = info->max_rx_pktlen - L2_OVERHEAD;
	info->rx_offload_capa = RTE_ETH_RX_OFFLOAD_SCATTER;
	info->tx_offload_capa = RTE_ETH_TX_OFFLOAD_MULTI_SEGS;
	info->rx_desc_lim.nb_max = DESC_MAX;
	info->rx_desc_lim.nb_min = DESC_MIN;
	info->rx_desc_lim.nb_align = DESC_MIN;
	info->tx_desc_lim = info->rx_desc_lim;
	info->tx_desc_lim.nb_seg_max = MBUFX_XDP_MAX_FRAGS;
	info->tx_desc_lim.nb_mtu_seg_max = MBUFX_XDP_MAX_FRAGS;
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

static void
rxq_free(struct xdp_pmd *p, uint16_t qid)
{
	struct xdp_rxq *rq = p->rxqs[qid];

	if (rq == NULL)
		return;
	sock_close(p, rq, qid < MAX_QUEUES ? p->txqs[qid] : NULL);
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
		sock_close(p, p->rxqs[qid], tq);
	rte_free(tq->inflight);
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
	max = mbufx_xdp_rxq_max_frame(&rq->core, p->sg);
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
	tq->inflight = rte_zmalloc_socket("mbufx_xdp_inflight",
					  sizeof(void *) * tq->nb_desc,
					  RTE_CACHE_LINE_SIZE, (int)socket);
	if (tq->inflight == NULL) {
		rte_free(tq);
		return -ENOMEM;
	}
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

	if (if_get_flags(p->iface, &flags) == 0)
		link.link_status = (flags & IFF_UP) && (flags & IFF_RUNNING) ?
			RTE_ETH_LINK_UP : RTE_ETH_LINK_DOWN;
	link.link_speed = link.link_status ? if_speed(p->iface) :
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
			sock_close(p, p->rxqs[i],
				   i < dev->data->nb_tx_queues ?
				   p->txqs[i] : NULL);
		dev->data->rx_queue_state[i] = RTE_ETH_QUEUE_STATE_STOPPED;
	}
	for (i = 0; i < dev->data->nb_tx_queues; i++)
		dev->data->tx_queue_state[i] = RTE_ETH_QUEUE_STATE_STOPPED;
	prog_detach(p);
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
	}
	ret = prog_attach(p);
	if (ret != 0)
		return ret;
	for (i = 0; i < dev->data->nb_rx_queues; i++) {
		ret = sock_open(p, p->rxqs[i], i < dev->data->nb_tx_queues ?
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
	ret = if_ioctl(p->iface, SIOCSIFMTU, &ifr);
	if (ret != 0)
		XDP_LOG(ERR, "%s: the kernel refuses MTU %u: %s", p->iface,
			mtu, strerror(-ret));
	return ret;
}

static int
eth_promisc(struct rte_eth_dev *dev, int on)
{
	struct xdp_pmd *p = pmd_of(dev);

	return if_change_flags(p->iface, on ? IFF_PROMISC : 0,
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

/* Kernel counters of a queue since the last reset (live + closed). */
static void
kstats(const struct xdp_rxq *rq, struct xdp_statistics *ks)
{
	struct xdp_statistics live = { 0 };
	socklen_t len = sizeof(live);

	if (rq->fd >= 0)
		getsockopt(rq->fd, SOL_XDP, XDP_STATISTICS, &live, &len);
#define KSUM(f) (ks->f = live.f + rq->kbase.f - rq->kreset.f)
	KSUM(rx_dropped);
	KSUM(rx_invalid_descs);
	KSUM(tx_invalid_descs);
	KSUM(rx_ring_full);
	KSUM(rx_fill_ring_empty_descs);
	KSUM(tx_ring_empty_descs);
#undef KSUM
}

static int
eth_stats_get(struct rte_eth_dev *dev, struct rte_eth_stats *s)
{
	struct xdp_pmd *p = pmd_of(dev);
	struct xdp_statistics ks;
	uint16_t i;

	for (i = 0; i < dev->data->nb_rx_queues; i++) {
		const struct xdp_rxq *rq = p->rxqs[i];

		if (rq == NULL)
			continue;
		kstats(rq, &ks);
		s->ipackets += rq->core.st.packets;
		s->ibytes += rq->core.st.bytes;
		s->imissed += ks.rx_dropped + ks.rx_ring_full;
		s->ierrors += rq->core.st.dropped + rq->core.st.no_scatter;
		s->rx_nombuf += rq->core.st.nombuf;
		if (i < RTE_ETHDEV_QUEUE_STAT_CNTRS) {
			s->q_ipackets[i] = rq->core.st.packets;
			s->q_ibytes[i] = rq->core.st.bytes;
		}
	}
	for (i = 0; i < dev->data->nb_tx_queues; i++) {
		const struct xdp_txq *tq = p->txqs[i];

		if (tq == NULL)
			continue;
		s->opackets += tq->st.packets;
		s->obytes += tq->st.bytes;
		s->oerrors += tq->st.errors;
		if (i < RTE_ETHDEV_QUEUE_STAT_CNTRS) {
			s->q_opackets[i] = tq->st.packets;
			s->q_obytes[i] = tq->st.bytes;
		}
	}
	return 0;
}

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
			kstats(p->rxqs[i], &ks);
			p->rxqs[i]->kreset = ks;
			memset(&p->rxqs[i]->core.st, 0,
			       sizeof(p->rxqs[i]->core.st));
			p->rxqs[i]->idle_kicks = 0;
		}
		if (p->txqs[i] != NULL)
			memset(&p->txqs[i]->st, 0, sizeof(p->txqs[i]->st));
	}
	return 0;
}

/* xstats: one table of name and where the counter lives. */
enum xs_src { XS_RX, XS_RXQ, XS_TX, XS_KERNEL, XS_DERIVED };

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
	{ "rx_refill_pool", XS_RX,
	  offsetof(struct mbufx_xdp_rx_stats, refill_pool) },
	{ "rx_refill_reused", XS_RX,
	  offsetof(struct mbufx_xdp_rx_stats, refill_reused) },
	{ "rx_recycled_buffers", XS_RX,
	  offsetof(struct mbufx_xdp_rx_stats, refill_recycled) },
	{ "rx_fill_ring_empty", XS_KERNEL,
	  offsetof(struct xdp_statistics, rx_fill_ring_empty_descs) },
	{ "rx_kernel_dropped", XS_KERNEL,
	  offsetof(struct xdp_statistics, rx_dropped) },
	{ "rx_ring_full", XS_KERNEL,
	  offsetof(struct xdp_statistics, rx_ring_full) },
	{ "rx_kernel_invalid_desc", XS_KERNEL,
	  offsetof(struct xdp_statistics, rx_invalid_descs) },
	{ "tx_kernel_invalid_desc", XS_KERNEL,
	  offsetof(struct xdp_statistics, tx_invalid_descs) },
	{ "tx_ring_empty", XS_KERNEL,
	  offsetof(struct xdp_statistics, tx_ring_empty_descs) },
	{ "tx_zerocopy_pkts", XS_TX, offsetof(struct xdp_tx_stats, zc) },
	{ "tx_copied_pkts", XS_TX, offsetof(struct xdp_tx_stats, copied) },
	{ "tx_copy_nobuf", XS_TX,
	  offsetof(struct xdp_tx_stats, copy_nobuf) },
	{ "tx_kicks", XS_TX, offsetof(struct xdp_tx_stats, kicks) },
	{ "tx_kicks_deferred", XS_TX,
	  offsetof(struct xdp_tx_stats, kicks_deferred) },
	{ "tx_idle_kicks", XS_RXQ, offsetof(struct xdp_rxq, idle_kicks) },
	{ "tx_kick_errors", XS_TX,
	  offsetof(struct xdp_tx_stats, kick_errors) },
	{ "tx_recycled_to_rx", XS_TX,
	  offsetof(struct xdp_tx_stats, recycled) },
	{ "tx_completed_to_pool", XS_TX,
	  offsetof(struct xdp_tx_stats, to_pool) },
	{ "tx_completion_mismatch", XS_TX,
	  offsetof(struct xdp_tx_stats, comp_mismatch) },
	/* hundredths of a header cache line written per received packet */
	{ "rx_hdr_lines_per_pkt_x100", XS_DERIVED, 0 },
};

static int
eth_xstats_get_names(struct rte_eth_dev *dev __rte_unused,
		     struct rte_eth_xstat_name *names, unsigned int size)
{
	unsigned int i;

	if (names == NULL || size < RTE_DIM(xstats_tab))
		return RTE_DIM(xstats_tab);
	for (i = 0; i < RTE_DIM(xstats_tab); i++)
		strlcpy(names[i].name, xstats_tab[i].name,
			sizeof(names[i].name));
	return RTE_DIM(xstats_tab);
}

static int
eth_xstats_get(struct rte_eth_dev *dev, struct rte_eth_xstat *xs,
	       unsigned int n)
{
	struct xdp_pmd *p = pmd_of(dev);
	struct xdp_statistics ks;
	uint64_t v[RTE_DIM(xstats_tab)] = { 0 };
	uint64_t lines = 0, pkts = 0;
	unsigned int i;
	uint16_t q;

	if (xs == NULL || n < RTE_DIM(xstats_tab))
		return RTE_DIM(xstats_tab);
	for (q = 0; q < MAX_QUEUES; q++) {
		const struct xdp_rxq *rq = p->rxqs[q];
		const struct xdp_txq *tq = p->txqs[q];

		if (rq != NULL) {
			kstats(rq, &ks);
			lines += rq->core.st.hdr_lines;
			pkts += rq->core.st.packets;
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
				base = &tq->st;
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
	return RTE_DIM(xstats_tab);
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
	ret = if_ioctl(p->iface, SIOCSIFHWADDR, &ifr);
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
	.stats_get = eth_stats_get,
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
		XDP_LOG(ERR, "%s: secondary processes are not supported",
			name);
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
	nq = if_rx_queues(tmp.iface);
	if (nq != 0 && tmp.start_queue + tmp.queue_count > nq) {
		XDP_LOG(ERR, "%s: queues %u..%u requested, %s has %u (see "
			"ethtool -l)", name, tmp.start_queue,
			tmp.start_queue + tmp.queue_count - 1, tmp.iface, nq);
		return -EINVAL;
	}
	ret = if_ioctl(tmp.iface, SIOCGIFHWADDR, &ifr);
	if (ret != 0) {
		XDP_LOG(ERR, "%s: cannot read the MAC address of %s: %s",
			name, tmp.iface, strerror(-ret));
		return ret;
	}
	memcpy(tmp.mac.addr_bytes, ifr.ifr_hwaddr.sa_data,
	       RTE_ETHER_ADDR_LEN);
	if_get_mtu(tmp.iface, &mtu);

	dev = rte_eth_vdev_allocate(vdev, sizeof(*p));
	if (dev == NULL)
		return -ENOMEM;
	p = dev->data->dev_private;
	*p = tmp;
	p->sg = 1;
	p->prog_fd = -1;
	p->map_fd = -1;
	p->port_id = dev->data->port_id;
	dev->data->mac_addrs = &p->mac;
	dev->data->mtu = mtu;
	dev->data->dev_flags |= RTE_ETH_DEV_AUTOFILL_QUEUE_XSTATS;
	dev->dev_ops = &ops;
	dev->rx_pkt_burst = eth_rx_burst;
	dev->tx_pkt_burst = eth_tx_burst;
	rte_eth_dev_probing_finish(dev);
	XDP_LOG(INFO, "%s: port %u on %s (ifindex %d), queues %u..%u, mode %s",
		name, p->port_id, p->iface, p->ifindex, p->start_queue,
		p->start_queue + p->queue_count - 1, mode_names[p->mode]);
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
RTE_PMD_REGISTER_PARAM_STRING(net_mbufx_xdp,
	"iface=<string> "
	"start_queue=<int> "
	"queue_count=<int> "
	"mode=<auto|copy|zc> "
	"busy_budget=<int> "
	"tx_kick_us=<int>");
