/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The mbufx authors
 */

/*
 * net_mbufx_xdp socket layer: interface ioctls, the XDP program, AF_XDP
 * sockets. Raw syscalls only (libbpf 1.1 has no xsk.h; no libxdp):
 * socket(AF_XDP), XDP_UMEM_REG, ring sizes, XDP_MMAP_OFFSETS, mmap of the
 * four rings, bind. Teardown: XSKMAP entry cleared, rings unmapped before
 * close() (else the socket lingers), then every buffer the kernel could
 * still hold is ours again. Bind retries EBUSY for up to a second: a queue
 * stays busy for a few ms after the previous socket's close.
 */

#include <errno.h>
#include <inttypes.h>
#include <net/if.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <unistd.h>

#include <linux/ethtool.h>
#include <linux/genetlink.h>
#include <linux/if_link.h>
#include <linux/if_xdp.h>
#include <linux/netlink.h>
#include <linux/sockios.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include <rte_cycles.h>
#include <rte_ethdev.h>

#include "mbufx_xdp.h"

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


/* The embedded XDP object (generated from mbufx_xdp_kern.c). */
extern const unsigned char mbufx_xdp_bpf_obj[];
extern const unsigned int mbufx_xdp_bpf_obj_len;

int
mbufx_xdp_if_ioctl(const char *iface, unsigned long req, struct ifreq *ifr)
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

int
mbufx_xdp_if_get_mtu(const char *iface, uint16_t *mtu)
{
	struct ifreq ifr = { 0 };
	int ret = mbufx_xdp_if_ioctl(iface, SIOCGIFMTU, &ifr);

	if (ret == 0)
		*mtu = (uint16_t)RTE_MIN(ifr.ifr_mtu, UINT16_MAX);
	return ret;
}

int
mbufx_xdp_if_get_flags(const char *iface, short *flags)
{
	struct ifreq ifr = { 0 };
	int ret = mbufx_xdp_if_ioctl(iface, SIOCGIFFLAGS, &ifr);

	if (ret == 0)
		*flags = ifr.ifr_flags;
	return ret;
}

int
mbufx_xdp_if_change_flags(const char *iface, short set, short clear)
{
	struct ifreq ifr = { 0 };
	int ret = mbufx_xdp_if_ioctl(iface, SIOCGIFFLAGS, &ifr);

	if (ret != 0)
		return ret;
	ifr.ifr_flags = (short)((ifr.ifr_flags | set) & ~clear);
	return mbufx_xdp_if_ioctl(iface, SIOCSIFFLAGS, &ifr);
}

uint32_t
mbufx_xdp_if_rx_queues(const char *iface)
{
	struct ethtool_channels ch = { .cmd = ETHTOOL_GCHANNELS };
	struct ifreq ifr = { 0 };

	ifr.ifr_data = (void *)&ch;
	if (mbufx_xdp_if_ioctl(iface, SIOCETHTOOL, &ifr) != 0)
		return 0;
	return RTE_MAX(ch.rx_count, ch.combined_count) != 0 ?
		ch.rx_count + ch.combined_count : 0;
}

uint32_t
mbufx_xdp_if_speed(const char *iface)
{
	struct ethtool_cmd ec = { .cmd = ETHTOOL_GSET };
	struct ifreq ifr = { 0 };
	uint32_t s;

	ifr.ifr_data = (void *)&ec;
	if (mbufx_xdp_if_ioctl(iface, SIOCETHTOOL, &ifr) != 0)
		return RTE_ETH_SPEED_NUM_UNKNOWN;
	s = ethtool_cmd_speed(&ec);
	return s == 0 || s == (uint32_t)SPEED_UNKNOWN ?
		RTE_ETH_SPEED_NUM_UNKNOWN : s;
}

/* ------------------------------------------------------------------------
 * XDP program: load, attach, detach
 */

/*
 * The program is attached through a bpf_link: the kernel detaches it when
 * the last descriptor of the link goes, so a process that dies without its
 * teardown (kill -9) leaves nothing on the interface. Kernels without XDP
 * links (before 5.9) get a netlink attach. A netlink-attached program of
 * ours that stayed behind (a crash of such a process) is detected by name
 * and replaced; a live link, another process's port, is never touched.
 */
#define PROG_NAME "mbufx_xdp_redirect"

void
mbufx_xdp_prog_detach(struct xdp_pmd *p)
{
	LIBBPF_OPTS(bpf_xdp_attach_opts, opts, .old_prog_fd = p->prog_fd);

	if (p->obj == NULL)
		return;
	if (p->link_fd >= 0) {
		close(p->link_fd);
		p->link_fd = -1;
	} else if (bpf_xdp_detach(p->ifindex, p->attach_flags, &opts) != 0) {
		/* only our program: XDP_FLAGS_REPLACE with old_prog_fd */
		XDP_LOG(WARNING, "%s: cannot detach the XDP program",
			p->iface);
	}
	bpf_object__close(p->obj);
	p->obj = NULL;
	p->prog_fd = -1;
	p->map_fd = -1;
}

/* Attach in one mode (XDP_FLAGS_DRV_MODE or _SKB_MODE): 0 or -errno. */
static int
attach_mode(struct xdp_pmd *p, uint32_t mode)
{
	LIBBPF_OPTS(bpf_link_create_opts, lo, .flags = mode);
	int fd;

	p->attach_flags = mode;
	fd = bpf_link_create(p->prog_fd, p->ifindex, BPF_XDP, &lo);
	if (fd >= 0) {
		p->link_fd = fd;
		return 0;
	}
	if (fd != -EINVAL)
		return fd;
	/* no XDP links in this kernel */
	return bpf_xdp_attach(p->ifindex, p->prog_fd,
			      XDP_FLAGS_UPDATE_IF_NOEXIST | mode, NULL);
}

/* Native XDP, else generic. */
static int
attach_any(struct xdp_pmd *p)
{
	int ret;

	if (p->attach != 0)
		return attach_mode(p, p->attach);
	ret = attach_mode(p, XDP_FLAGS_DRV_MODE);
	if (ret != 0 && ret != -EBUSY && ret != -EEXIST) {
		XDP_LOG(INFO, "%s: native XDP refused (%s), using generic",
			p->iface, strerror(-ret));
		ret = attach_mode(p, XDP_FLAGS_SKB_MODE);
	}
	return ret;
}

/* Remove a netlink-attached program named as ours: 1 when one went. */
static int
stale_remove(struct xdp_pmd *p)
{
	static const uint32_t modes[] = { XDP_FLAGS_DRV_MODE, XDP_FLAGS_SKB_MODE };
	struct bpf_prog_info info;
	uint32_t len, id, i;
	int fd, gone = 0;

	for (i = 0; i < RTE_DIM(modes); i++) {
		LIBBPF_OPTS(bpf_xdp_attach_opts, opts);

		id = 0;
		if (bpf_xdp_query_id(p->ifindex, modes[i], &id) != 0 || id == 0)
			continue;
		fd = bpf_prog_get_fd_by_id(id);
		if (fd < 0)
			continue;
		memset(&info, 0, sizeof(info));
		len = sizeof(info);
		if (bpf_obj_get_info_by_fd(fd, &info, &len) == 0 &&
		    strncmp(info.name, PROG_NAME, sizeof(info.name) - 1) == 0) {
			opts.old_prog_fd = fd;
			/* refused for a link: a live port of another process */
			if (bpf_xdp_detach(p->ifindex, modes[i], &opts) == 0) {
				XDP_LOG(NOTICE, "%s: removed XDP program %u "
					"left by a net_mbufx_xdp port that did "
					"not stop", p->iface, id);
				gone = 1;
			}
		}
		close(fd);
	}
	return gone;
}

int
mbufx_xdp_prog_attach(struct xdp_pmd *p)
{
	LIBBPF_OPTS(bpf_object_open_opts, oo, .object_name = "mbufx_xdp");
	uint32_t entries = RTE_MAX(p->start_queue + p->queue_count,
				   mbufx_xdp_if_rx_queues(p->iface));
	struct bpf_program *prog;
	struct bpf_map *map;
	uint32_t prog_id = 0;
	int ret;

	p->link_fd = -1;
	p->obj = bpf_object__open_mem(mbufx_xdp_bpf_obj, mbufx_xdp_bpf_obj_len,
				      &oo);
	if (p->obj == NULL) {
		ret = -errno;
		XDP_LOG(ERR, "%s: cannot open the embedded XDP object: %s",
			p->iface, strerror(-ret));
		return ret;
	}
	map = bpf_object__find_map_by_name(p->obj, "mbufx_xsks");
	prog = bpf_object__find_program_by_name(p->obj, PROG_NAME);
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
	ret = attach_any(p);
	if ((ret == -EBUSY || ret == -EEXIST) && stale_remove(p))
		ret = attach_any(p);
	if (ret != 0) {
		bpf_xdp_query_id(p->ifindex, 0, &prog_id);
		XDP_LOG(ERR, "%s: cannot attach the XDP program: %s%s",
			p->iface, strerror(-ret), prog_id != 0 ?
			" (another XDP program is attached: another process's "
			"port on this interface, or remove it with "
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
 * The device's XDP capabilities from the kernel's "netdev" generic netlink
 * family (Linux 6.3; xdp_zc_max_segs 6.6), by hand: libbpf 1.1's
 * bpf_xdp_query() has neither. Attribute numbers of uapi linux/netdev.h.
 */
#define NETDEV_CMD_DEV_GET 1
#define NETDEV_A_DEV_IFINDEX 1
#define NETDEV_A_DEV_XDP_FEATURES 3
#define NETDEV_A_DEV_XDP_ZC_MAX_SEGS 4

struct nl_req {
	struct nlmsghdr nh;
	struct genlmsghdr gh;
	char attrs[64];
};

static void
nl_attr(struct nl_req *r, uint16_t type, const void *v, uint16_t len)
{
	struct nlattr *a = RTE_PTR_ADD(r, NLMSG_ALIGN(r->nh.nlmsg_len));

	a->nla_type = type;
	a->nla_len = (uint16_t)(NLA_HDRLEN + len);
	memcpy(RTE_PTR_ADD(a, NLA_HDRLEN), v, len);
	r->nh.nlmsg_len = NLMSG_ALIGN(r->nh.nlmsg_len) + NLA_ALIGN(a->nla_len);
}

/* One request, one answer: calls fn on each attribute of the answer. */
static int
nl_ask(int fd, struct nl_req *r, void (*fn)(const struct nlattr *, void *),
       void *arg)
{
	char buf[4096];
	struct nlmsghdr *nh = (void *)buf;
	const struct nlattr *a;
	ssize_t n;
	int left;

	if (send(fd, r, r->nh.nlmsg_len, 0) < 0)
		return -errno;
	n = recv(fd, buf, sizeof(buf), 0);
	if (n < (ssize_t)NLMSG_HDRLEN)
		return n < 0 ? -errno : -EIO;
	if (nh->nlmsg_type == NLMSG_ERROR) {
		const struct nlmsgerr *e = NLMSG_DATA(nh);

		return e->error != 0 ? e->error : -ENOENT;
	}
	if (!NLMSG_OK(nh, (unsigned int)n))
		return -EIO;
	a = RTE_PTR_ADD(NLMSG_DATA(nh), GENL_HDRLEN);
	left = (int)nh->nlmsg_len - NLMSG_HDRLEN - GENL_HDRLEN;
	while (left >= NLA_HDRLEN && a->nla_len >= NLA_HDRLEN &&
	       a->nla_len <= left) {
		fn(a, arg);
		left -= NLA_ALIGN(a->nla_len);
		a = RTE_PTR_ADD(a, NLA_ALIGN(a->nla_len));
	}
	return 0;
}

static void
family_attr(const struct nlattr *a, void *arg)
{
	if ((a->nla_type & NLA_TYPE_MASK) == CTRL_ATTR_FAMILY_ID)
		memcpy(arg, RTE_PTR_ADD(a, NLA_HDRLEN), sizeof(uint16_t));
}

static void
dev_attr(const struct nlattr *a, void *arg)
{
	struct xdp_dev_caps *c = arg;
	const void *v = RTE_PTR_ADD(a, NLA_HDRLEN);

	switch (a->nla_type & NLA_TYPE_MASK) {
	case NETDEV_A_DEV_XDP_FEATURES:
		memcpy(&c->features, v, sizeof(c->features));
		c->known = 1;
		break;
	case NETDEV_A_DEV_XDP_ZC_MAX_SEGS:
		memcpy(&c->zc_max_segs, v, sizeof(c->zc_max_segs));
		break;
	}
}

int
mbufx_xdp_dev_caps(int ifindex, struct xdp_dev_caps *c)
{
	struct nl_req r;
	uint16_t family = 0;
	uint32_t idx = (uint32_t)ifindex;
	int fd, ret;

	memset(c, 0, sizeof(*c));
	fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_GENERIC);
	if (fd < 0)
		return -errno;
	memset(&r, 0, sizeof(r));
	r.nh.nlmsg_len = NLMSG_LENGTH(GENL_HDRLEN);
	r.nh.nlmsg_type = GENL_ID_CTRL;
	r.nh.nlmsg_flags = NLM_F_REQUEST;
	r.gh.cmd = CTRL_CMD_GETFAMILY;
	r.gh.version = 1;
	nl_attr(&r, CTRL_ATTR_FAMILY_NAME, "netdev", sizeof("netdev"));
	ret = nl_ask(fd, &r, family_attr, &family);
	if (ret == 0 && family == 0)
		ret = -ENOENT;
	if (ret == 0) {
		memset(&r, 0, sizeof(r));
		r.nh.nlmsg_len = NLMSG_LENGTH(GENL_HDRLEN);
		r.nh.nlmsg_type = family;
		r.nh.nlmsg_flags = NLM_F_REQUEST;
		r.gh.cmd = NETDEV_CMD_DEV_GET;
		r.gh.version = 1;
		nl_attr(&r, NETDEV_A_DEV_IFINDEX, &idx, sizeof(idx));
		ret = nl_ask(fd, &r, dev_attr, c);
	}
	close(fd);
	return ret;
}

int
mbufx_xdp_kernel_has_sg(void)
{
	/* bind() rejects unknown flags before it looks for the device: a
	 * kernel that knows XDP_USE_SG answers ENODEV for ifindex 0 */
	struct sockaddr_xdp sa = {
		.sxdp_family = AF_XDP,
		.sxdp_flags = XDP_COPY | XDP_USE_SG,
	};
	int fd, ret, err;

	fd = socket(AF_XDP, SOCK_RAW | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return 0;
	ret = bind(fd, (struct sockaddr *)&sa, sizeof(sa));
	err = errno;
	close(fd);
	return ret != 0 && err != EINVAL;
}

/*
 * Shared UMEM (shared_umem=1): sockets of this process whose queues' pools
 * are one pool register its memory once. The first registers the UMEM and
 * binds as the plan says; the others skip XDP_UMEM_REG and bind with
 * XDP_SHARED_UMEM and any live socket of that UMEM (Linux 5.10 for other
 * queues or devices: each keeps its own fill and completion rings, so the
 * receive and transmit cores are unchanged). A sharer inherits the bind
 * mode (zero-copy or copy, multi-buffer) of the UMEM's first socket.
 */
#define SHARE_MAX 256
static struct umem_user {
	const struct rte_mempool *mp;	/* NULL: free slot */
	int fd;
	int zc;
	int sg;
} umem_users[SHARE_MAX];

static const struct umem_user *
umem_user_of(const struct rte_mempool *mp)
{
	unsigned int i;

	for (i = 0; i < SHARE_MAX; i++)
		if (umem_users[i].mp == mp)
			return &umem_users[i];
	return NULL;
}

static void
umem_user_add(const struct rte_mempool *mp, int fd, int zc, int sg)
{
	unsigned int i;

	for (i = 0; i < SHARE_MAX; i++)
		if (umem_users[i].mp == NULL) {
			umem_users[i] = (struct umem_user){ mp, fd, zc, sg };
			return;
		}
}

static void
umem_user_del(int fd)
{
	unsigned int i;

	for (i = 0; i < SHARE_MAX; i++)
		if (umem_users[i].mp != NULL && umem_users[i].fd == fd)
			umem_users[i].mp = NULL;
}

/* Bind sharing the UMEM of u's socket: mode and multi-buffer are its. */
static int
sock_bind_shared(struct xdp_pmd *p, struct xdp_rxq *rq, int fd,
		 const struct umem_user *u)
{
	struct sockaddr_xdp sa = {
		.sxdp_family = AF_XDP,
		.sxdp_ifindex = (uint32_t)p->ifindex,
		.sxdp_queue_id = p->start_queue + rq->qid,
		.sxdp_flags = XDP_SHARED_UMEM,
		.sxdp_shared_umem_fd = (uint32_t)u->fd,
	};
	uint32_t one = mbufx_xdp_rxq_max_frame(&rq->core, 0);
	int ret;

	if ((uint32_t)p->mtu + L2_OVERHEAD > one && !u->sg) {
		XDP_LOG(ERR, "%s queue %u: MTU %u needs multi-buffer, which "
			"the shared UMEM's first socket was bound without",
			p->iface, sa.sxdp_queue_id, p->mtu);
		return -EOPNOTSUPP;
	}
	ret = bind_retry(fd, &sa);
	if (ret != 0) {
		XDP_LOG(ERR, "%s queue %u: bind sharing the UMEM of pool %s "
			"failed: %s (Linux 5.10 or later for another queue or "
			"device; use shared_umem=0)", p->iface,
			sa.sxdp_queue_id, rq->core.mp->name, strerror(-ret));
		return ret;
	}
	rq->zc = u->zc;
	rq->sg = u->sg;
	return 0;
}

static const char *
bind_name(uint16_t f)
{
	return (f & XDP_ZEROCOPY) != 0 ?
		((f & XDP_USE_SG) != 0 ? "zero-copy multi-buffer" : "zero-copy") :
		((f & XDP_USE_SG) != 0 ? "copy multi-buffer" : "copy");
}

/* Bind in the best way mbufx_xdp_bind_plan() allows for the MTU. */
static int
sock_bind(struct xdp_pmd *p, struct xdp_rxq *rq, int fd)
{
	struct sockaddr_xdp sa = {
		.sxdp_family = AF_XDP,
		.sxdp_ifindex = (uint32_t)p->ifindex,
		.sxdp_queue_id = p->start_queue + rq->qid,
	};
	uint32_t one = mbufx_xdp_rxq_max_frame(&rq->core, 0);
	int need_sg = (uint32_t)p->mtu + L2_OVERHEAD > one;
	uint16_t plan[MBUFX_XDP_PLAN_MAX];
	unsigned int i, n;
	int ret = -EOPNOTSUPP;

	/* a device the kernel says has no zero-copy: copy binds only */
	n = mbufx_xdp_bind_plan(p->mode == MODE_AUTO && p->caps.known &&
				(p->caps.features & XDP_ACT_XSK_ZEROCOPY) == 0 ?
				MODE_COPY : p->mode, need_sg, p->sg_kernel, plan);
	if (n == 0) {
		XDP_LOG(ERR, "%s queue %u: MTU %u needs multi-buffer "
			"(XDP_USE_SG, Linux 6.6 or later), which this kernel "
			"lacks: one buffer takes frames of %u bytes (MTU %u)",
			p->iface, sa.sxdp_queue_id, p->mtu, one,
			one - L2_OVERHEAD);
		return -EOPNOTSUPP;
	}
	for (i = 0; i < n; i++) {
		sa.sxdp_flags = plan[i] | XDP_USE_NEED_WAKEUP;
		ret = bind_retry(fd, &sa);
		if (ret == 0) {
			rq->sg = (plan[i] & XDP_USE_SG) != 0;
			rq->zc = (plan[i] & XDP_ZEROCOPY) != 0;
			if (!rq->sg)
				XDP_LOG(INFO, "%s queue %u: no multi-buffer: "
					"frames up to %u bytes", p->iface,
					sa.sxdp_queue_id, one);
			return 0;
		}
		if (ret == -EBUSY)
			break;
		XDP_LOG(INFO, "%s queue %u: %s bind refused (%s)%s", p->iface,
			sa.sxdp_queue_id, bind_name(plan[i]), strerror(-ret),
			i + 1 < n ? ", trying the next mode" : "");
	}
	XDP_LOG(ERR, "%s queue %u: bind (bind_mode %s%s) failed: %s%s",
		p->iface, sa.sxdp_queue_id, mbufx_xdp_mode_names[p->mode],
		need_sg ? ", multi-buffer needed by the MTU" : "",
		strerror(-ret),
		ret == -EBUSY ? " (queue still in use by another socket)" :
		ret == -EOPNOTSUPP && p->mode == MODE_ZC ?
		" (the driver has no zero-copy: use bind_mode=auto or copy)" :
		"");
	return ret;
}

void
mbufx_xdp_sock_close(struct xdp_pmd *p, struct xdp_rxq *rq, struct xdp_txq *tq)
{
	uint32_t key = p->start_queue + rq->qid;
	struct xdp_statistics ks;
	socklen_t len = sizeof(ks);

	if (rq->fd < 0)
		return;
	/* a short burst still waiting for its kick goes out first */
	if (tq != NULL && tq->fd >= 0 && tq->core.kick_at != 0) {
		tq->core.kick_at = 0;
		mbufx_xdp_tx_kick(&tq->core);
	}
	rq->core.pair = NULL;
	if (p->map_fd >= 0)
		bpf_map_delete_elem(p->map_fd, &key);
	if (getsockopt(rq->fd, SOL_XDP, XDP_STATISTICS, &ks, &len) == 0) {
#define KBASE_ADD(f, name) rq->kbase.f += ks.f;
		MBUFX_XDP_KSTATS(KBASE_ADD)
#undef KBASE_ADD
	}
	/* unmap first: a mapped ring keeps the socket alive after close() */
	ring_unmap(&rq->core.rxr);
	ring_unmap(&rq->core.fill);
	if (tq != NULL) {
		ring_unmap(&tq->core.tx);
		ring_unmap(&tq->core.cq);
		tq->core.wake = NULL;
		tq->fd = -1;
	}
	umem_user_del(rq->fd);
	close(rq->fd);
	rq->fd = -1;
	/* zero-copy: held until the kernel's deferred release */
	mbufx_xdp_qpair_closed(&rq->core, tq != NULL ? &tq->core : NULL,
			       rq->zc);
}

int
mbufx_xdp_queue_released(struct xdp_pmd *p, uint16_t qid)
{
	/* a throw-away socket with a two-chunk UMEM binds in copy mode only
	 * once no pool is registered on the queue (xp_assign_dev()) */
	struct sockaddr_xdp sa = {
		.sxdp_family = AF_XDP,
		.sxdp_ifindex = (uint32_t)p->ifindex,
		.sxdp_queue_id = p->start_queue + qid,
		.sxdp_flags = XDP_COPY,
	};
	struct xdp_umem_reg reg = { .len = 8192, .chunk_size = 4096 };
	void *mem;
	int fd, ret;

	mem = mmap(NULL, reg.len, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (mem == MAP_FAILED)
		return -errno;
	reg.addr = (uintptr_t)mem;
	fd = socket(AF_XDP, SOCK_RAW | SOCK_CLOEXEC, 0);
	ret = fd < 0 ? -errno : 0;
	if (ret == 0 &&
	    setsockopt(fd, SOL_XDP, XDP_UMEM_REG, &reg, sizeof(reg)) != 0)
		ret = -errno;
	if (ret == 0)
		ret = sock_opt(fd, SOL_XDP, XDP_UMEM_FILL_RING, 2);
	if (ret == 0)
		ret = sock_opt(fd, SOL_XDP, XDP_UMEM_COMPLETION_RING, 2);
	if (ret == 0)
		ret = sock_opt(fd, SOL_XDP, XDP_RX_RING, 2);
	if (ret == 0)
		ret = bind_retry(fd, &sa);
	if (fd >= 0)
		close(fd);
	munmap(mem, reg.len);
	/* anything but a busy queue: no pool of ours left there (a device
	 * that went away cleared it) */
	return ret == -EBUSY ? -EBUSY : 0;
}


/* The transmit core's wakeup: copy mode transmits inside this call. */
static int
tx_wake(void *ctx)
{
	const struct xdp_txq *tq = ctx;

	return sendto(tq->fd, NULL, 0, MSG_DONTWAIT, NULL, 0) < 0 ? -errno : 0;
}

/* Register the queue's pool memory as the socket's UMEM. */
static int
sock_umem_reg(struct xdp_pmd *p, struct xdp_rxq *rq, int fd)
{
	struct xdp_umem_reg reg = {
		.addr = rq->core.base,
		.len = rq->core.umem_len,
		.chunk_size = rq->core.chunk_size,
		.headroom = 0,
		.flags = XDP_UMEM_UNALIGNED_CHUNK_FLAG,
	};
	int ret;

	if (setsockopt(fd, SOL_XDP, XDP_UMEM_REG, &reg, sizeof(reg)) == 0)
		return 0;
	ret = -errno;
	XDP_LOG(ERR, "%s: UMEM registration of %" PRIu64 " bytes failed: %s%s",
		p->iface, (uint64_t)reg.len, strerror(-ret),
		ret == -ENOBUFS || ret == -EPERM ?
		" (CAP_IPC_LOCK or a larger RLIMIT_MEMLOCK needed)" : "");
	return ret;
}

/* Size the four rings (two without tq) and map them into the cores. */
static int
sock_rings(struct xdp_pmd *p, struct xdp_rxq *rq, struct xdp_txq *tq, int fd)
{
	uint32_t cq_size = tq != NULL ? tq->nb_desc : DESC_MIN;
	struct xdp_mmap_offsets off;
	socklen_t olen = sizeof(off);
	int ret;

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
		ret = ring_map(fd, &rq->core.rxr, &off.rx, rq->nb_desc,
			       sizeof(struct xdp_desc), XDP_PGOFF_RX_RING);
	if (ret == 0 && tq != NULL)
		ret = ring_map(fd, &tq->core.tx, &off.tx, tq->nb_desc,
			       sizeof(struct xdp_desc), XDP_PGOFF_TX_RING);
	if (ret == 0 && tq != NULL)
		ret = ring_map(fd, &tq->core.cq, &off.cr, cq_size,
			       sizeof(uint64_t),
			       XDP_UMEM_PGOFF_COMPLETION_RING);
	if (ret != 0)
		XDP_LOG(ERR, "%s: AF_XDP ring setup failed: %s", p->iface,
			strerror(-ret));
	return ret;
}

/* The transmit core on this socket: its kick timing and wakeup. */
static void
sock_txq_arm(struct xdp_pmd *p, struct xdp_rxq *rq, struct xdp_txq *tq,
	     int fd)
{
	tq->fd = fd;
	tq->core.kick_at = 0;
	tq->core.polls_seen = 0;
	tq->core.kick_delay = (uint64_t)p->tx_kick_us * rte_get_tsc_hz() /
			      1000000;
	tq->core.kick_retry = RTE_MAX(tq->core.kick_delay,
				      rte_get_tsc_hz() / 50000);
	tq->core.wake = tx_wake;
	tq->core.wake_ctx = tq;
	rq->core.pair = &tq->core;
}

/* busy_budget=N: preferred busy polling, or none if the kernel lacks it. */
static void
sock_busy_poll(struct xdp_pmd *p, struct xdp_rxq *rq, int fd)
{
	rq->busy_poll = 0;
	if (p->busy_budget == 0)
		return;
	if (sock_opt(fd, SOL_SOCKET, SO_PREFER_BUSY_POLL, 1) == 0 &&
	    sock_opt(fd, SOL_SOCKET, SO_BUSY_POLL, 20) == 0 &&
	    sock_opt(fd, SOL_SOCKET, SO_BUSY_POLL_BUDGET, p->busy_budget) == 0)
		rq->busy_poll = 1;
	else
		XDP_LOG(INFO, "%s: busy polling unavailable, ignored",
			p->iface);
}

/* A bound socket goes live: buffers back, fill ring stocked, XSKMAP. */
static int
sock_publish(struct xdp_pmd *p, struct xdp_rxq *rq, struct xdp_txq *tq,
	     int fd)
{
	uint32_t key = p->start_queue + rq->qid;
	int ret;

	/* the bind proves the kernel released the queue's previous pool: it
	 * refuses (EBUSY) while one is registered there */
	mbufx_xdp_qpair_released(&rq->core, tq != NULL ? &tq->core : NULL);
	/* stock the fill ring before the XSKMAP sends the first frame */
	mbufx_xdp_rxq_restock(&rq->core);
	if (bpf_map_update_elem(p->map_fd, &key, &fd, 0) != 0) {
		ret = -errno;
		XDP_LOG(ERR, "%s: XSKMAP update for queue %u: %s", p->iface,
			key, strerror(-ret));
		return ret;
	}
	if (tq != NULL)
		tq->max_descs = mbufx_xdp_tx_max_descs(rq->zc, rq->sg,
						       p->caps.zc_max_segs);
	umem_user_add(rq->core.mp, fd, rq->zc, rq->sg);
	return 0;
}

/*
 * Socket, UMEM (unless shared), rings, transmit core, busy polling, bind,
 * publish; a failed step closes what the others opened.
 */
int
mbufx_xdp_sock_open(struct xdp_pmd *p, struct xdp_rxq *rq, struct xdp_txq *tq)
{
	const struct umem_user *share = NULL;
	int fd, ret;

	fd = socket(AF_XDP, SOCK_RAW | SOCK_CLOEXEC, 0);
	if (fd < 0) {
		ret = -errno;
		XDP_LOG(ERR, "%s: socket(AF_XDP): %s", p->iface,
			strerror(-ret));
		return ret;
	}
	rq->fd = fd;
	if (p->shared_umem)
		share = umem_user_of(rq->core.mp);
	ret = share != NULL ? 0 : sock_umem_reg(p, rq, fd);
	if (ret == 0)
		ret = sock_rings(p, rq, tq, fd);
	if (ret != 0)
		goto fail;
	if (tq != NULL)
		sock_txq_arm(p, rq, tq, fd);
	rq->core.kick_next = 0;
	sock_busy_poll(p, rq, fd);
	rq->zc = 0;
	ret = share != NULL ? sock_bind_shared(p, rq, fd, share) :
		sock_bind(p, rq, fd);
	if (ret == 0)
		ret = sock_publish(p, rq, tq, fd);
	if (ret != 0)
		goto fail;
	XDP_LOG(INFO, "%s queue %u: %s mode, UMEM %" PRIu64 " KiB, chunk %u%s",
		p->iface, p->start_queue + rq->qid, rq->zc ? "zero-copy" : "copy",
		rq->core.umem_len >> 10, rq->core.chunk_size,
		share != NULL ? ", shared with another socket" : "");
	return 0;
fail:
	mbufx_xdp_sock_close(p, rq, tq);
	return ret;
}

void
mbufx_xdp_kstats(const struct xdp_rxq *rq, struct xdp_statistics *ks)
{
	struct xdp_statistics live = { 0 };
	socklen_t len = sizeof(live);

	if (rq->fd >= 0)
		getsockopt(rq->fd, SOL_XDP, XDP_STATISTICS, &live, &len);
	memset(ks, 0, sizeof(*ks));
#define KSUM(f, name) ks->f = live.f + rq->kbase.f - rq->kreset.f;
	MBUFX_XDP_KSTATS(KSUM)
#undef KSUM
}
