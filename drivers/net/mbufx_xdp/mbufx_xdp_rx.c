/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The mbufx authors
 */

/*
 * net_mbufx_xdp receive core: UMEM geometry of a pool, refill, descriptor
 * to mbuf conversion, teardown. No socket here (see mbufx_xdp_rx.h).
 *
 * Layout of one buffer as the kernel sees it (fill address = buf_addr):
 *
 *   | rte_mbuf | priv | buf_addr ... 256 ... frame ......... | buf_len
 *   ^ handle          ^ fill address (UMEM offset)
 *                     <--------- chunk_size (<= 4096) ------>
 *
 * The kernel writes at most chunk_size - 256 bytes per descriptor, 256
 * bytes in, and never outside [buf_addr, buf_addr + chunk_size): the header
 * and the private area are never in reach. Longer frames arrive as several
 * descriptors (XDP_PKT_CONTD on all but the last). The jumbo choice: when
 * the whole frame fits the first buffer's data room (the 9344-byte jumbo
 * zone: 9088 bytes after the kernel's headroom) the continuation fragments
 * are copied behind the first one and their buffers go straight back to the
 * fill ring, so a 9000-byte frame is one segment as mbufx's jumbo zone
 * promises. Otherwise (the 2176-byte packet zone) the fragments become an
 * mbuf chain, when the application enabled scatter.
 */

#include <errno.h>
#include <inttypes.h>
#include <string.h>

#include <rte_errno.h>
#include <rte_log.h>
#include <rte_malloc.h>
#include <rte_memory.h>

#include "mbufx_xdp_rx.h"
#include "mbufx_xdp_tx.h"

RTE_LOG_REGISTER(mbufx_xdp_rx_logtype, pmd.net.mbufx_xdp.rx, NOTICE);
#define RXQ_LOG(level, fmt, ...) \
	rte_log(RTE_LOG_ ## level, mbufx_xdp_rx_logtype, \
		"mbufx_xdp: " fmt "\n", ##__VA_ARGS__)

#define UMEM_ALIGN 4096

/*
 * The UMEM is the pool's memory rounded out to 4 KiB: one chunk, or chunks
 * that together form one address range (a pool populated page by page in
 * IOVA-as-PA mode, the usual case for mbufx zones, or an unmodified
 * program's anonymous mapping, testpmd --mp-alloc=anon). The rule is the
 * range, not who mapped it: chunks apart are refused, since what lies
 * between them would be pinned and exposed to the kernel without being the
 * pool's; EAL memory and memory the EAL does not manage are taken alike,
 * so whether the pages' physical addresses are readable (which decides
 * into how many chunks a mempool splits an anonymous mapping) never
 * changes the answer.
 */
static int
pool_span(struct mbufx_rx *rx, struct rte_mempool *mp, uintptr_t *base,
	  uint64_t *len)
{
	uintptr_t s, e, prev_e = 0;
	unsigned int i, n, apart = 0;

	/* the library's ranges of the pool: sorted by address, merged */
	for (n = 0; mbufx_rx_chunk_get(rx, n, &s, &e) == 0; n++)
		;
	if (n == 0) {
		RXQ_LOG(ERR, "pool %s has no memory", mp->name);
		return -EINVAL;
	}
	for (i = 0; i < n; i++) {
		mbufx_rx_chunk_get(rx, i, &s, &e);
		if (i == 0)
			*base = RTE_ALIGN_FLOOR(s, UMEM_ALIGN);
		if (i > 0 && RTE_ALIGN_FLOOR(s, UMEM_ALIGN) >
		    RTE_ALIGN_CEIL(prev_e, UMEM_ALIGN))
			apart++;
		prev_e = e;
	}
	if (apart != 0) {
		RXQ_LOG(ERR, "pool %s: %u memory ranges in %u separate "
			"places; an AF_XDP UMEM is one range (create the pool "
			"in one chunk)", mp->name, n, apart + 1);
		return -ENOTSUP;
	}
	*len = RTE_ALIGN_CEIL(prev_e, UMEM_ALIGN) - *base;
	return 0;
}

struct align_walk {
	unsigned int bad;
};

static void
obj_align_check(struct rte_mempool *mp __rte_unused, void *opaque, void *obj,
		unsigned int idx __rte_unused)
{
	struct align_walk *a = opaque;

	if (((uintptr_t)obj & ((1u << MBUFX_XDP_GRANULE_SHIFT) - 1)) != 0)
		a->bad++;
}

int
mbufx_xdp_rxq_init(struct mbufx_xdp_rxq *q, struct rte_mempool *mp,
		   uint16_t port, uint16_t queue, uint32_t nb_desc, int socket)
{
	struct align_walk aw = { 0 };
	struct mbufx_rx_info info;
	char name[RTE_RING_NAMESIZE];
	uint64_t words;
	int ret;

	memset(q, 0, sizeof(*q));
	if (mp == NULL || nb_desc == 0 || !rte_is_power_of_2(nb_desc))
		return -EINVAL;
	/* AF_XDP addresses by virtual address: no IOVA needed */
	q->rx = mbufx_rx_create(mp, port, MBUFX_RX_F_NO_IOVA);
	if (q->rx == NULL) {
		RXQ_LOG(ERR, "port %u queue %u: pool %s cannot serve late "
			"attach: %s", port, queue, mp->name,
			rte_strerror(rte_errno));
		return -rte_errno;
	}
	mbufx_rx_info_get(q->rx, &info);
	q->mp = mp;
	q->port = port;
	q->queue = queue;
	q->buf_offset = mbufx_rx_buf_offset(q->rx);
	q->buf_len = info.headroom + info.room;
	if (q->buf_len < MBUFX_XDP_CHUNK_MIN) {
		RXQ_LOG(ERR, "port %u queue %u: pool %s data room %u is below "
			"the kernel's smallest UMEM chunk (%u)", port, queue,
			mp->name, q->buf_len, MBUFX_XDP_CHUNK_MIN);
		ret = -EINVAL;
		goto fail;
	}
	q->chunk_size = RTE_MIN(q->buf_len, (uint32_t)MBUFX_XDP_CHUNK_MAX);
	rte_mempool_obj_iter(mp, obj_align_check, &aw);
	if (aw.bad != 0) {
		RXQ_LOG(ERR, "port %u queue %u: pool %s has %u objects not "
			"aligned to 64 bytes", port, queue, mp->name, aw.bad);
		ret = -ENOTSUP;
		goto fail;
	}
	ret = pool_span(q->rx, mp, &q->base, &q->umem_len);
	if (ret != 0)
		goto fail;

	q->nb_bits = q->umem_len >> MBUFX_XDP_GRANULE_SHIFT;
	words = (q->nb_bits + 63) / 64;
	q->posted = rte_zmalloc_socket("mbufx_xdp_bits", words * 8,
				       RTE_CACHE_LINE_SIZE, socket);
	/* a frame's buffers can all be reclaimed: ring + fill + one frame */
	q->spare_max = 2 * nb_desc + MBUFX_XDP_MAX_FRAGS;
	q->spare = rte_malloc_socket("mbufx_xdp_spare",
				     sizeof(void *) * q->spare_max,
				     RTE_CACHE_LINE_SIZE, socket);
	snprintf(name, sizeof(name), "mbxrc_%u_%u", port, queue);
	/*
	 * The recycle ring only bridges completions to the next refill. Kept
	 * short, so that a queue that transmits much and receives little (the
	 * egress port of a one-way flow) parks at most MBUFX_XDP_RECYCLE_MAX
	 * buffers: the rest go to the pool, where the ingress port refills
	 * from. Sized 2 x nb_desc it could park a whole zone and starve the
	 * other port (seen with the 2048-buffer jumbo zone and two ports).
	 */
	q->recycle = rte_ring_create(name, RTE_MIN(2 * nb_desc,
					(uint32_t)MBUFX_XDP_RECYCLE_MAX),
				     socket, RING_F_SP_ENQ | RING_F_SC_DEQ);
	if (q->posted == NULL || q->spare == NULL || q->recycle == NULL) {
		RXQ_LOG(ERR, "port %u queue %u: no memory for queue state",
			port, queue);
		ret = -ENOMEM;
		goto fail;
	}
	return 0;
fail:
	mbufx_xdp_rxq_fini(q);
	return ret;
}

static void
put_handles(struct mbufx_xdp_rxq *q, void **h, unsigned int n)
{
	if (n != 0)
		mbufx_rx_return_handles(q->rx, h, n);
}

void
mbufx_xdp_rxq_release_spare(struct mbufx_xdp_rxq *q)
{
	void *h[MBUFX_RX_BULK_MAX];
	unsigned int k;

	if (q->rx == NULL)
		return;
	put_handles(q, q->spare, q->nb_spare);
	q->nb_spare = 0;
	/* recycled TX buffers were never posted: straight to the pool */
	while (q->recycle != NULL &&
	       (k = rte_ring_sc_dequeue_burst(q->recycle, h, RTE_DIM(h),
					      NULL)) != 0)
		rte_mempool_put_bulk(q->mp, h, k);
	q->contd_skip = 0;
}

void
mbufx_xdp_rxq_release(struct mbufx_xdp_rxq *q)
{
	void *h[MBUFX_RX_BULK_MAX];
	unsigned int n = 0;
	uint64_t w, word, bit;

	if (q->rx == NULL)
		return;
	for (w = 0; q->posted != NULL && w * 64 < q->nb_bits; w++) {
		word = q->posted[w];
		q->posted[w] = 0;
		while (word != 0) {
			bit = w * 64 + (uint64_t)__builtin_ctzll(word);
			word &= word - 1;
			h[n++] = (void *)(q->base +
					  (bit << MBUFX_XDP_GRANULE_SHIFT));
			if (n == RTE_DIM(h)) {
				put_handles(q, h, n);
				n = 0;
			}
		}
	}
	put_handles(q, h, n);
	q->nb_posted = 0;
	q->held = 0;
	mbufx_xdp_rxq_release_spare(q);
}

void
mbufx_xdp_rxq_fini(struct mbufx_xdp_rxq *q)
{
	/* held buffers the kernel may still reach stay out of the pool */
	if (q->held)
		mbufx_xdp_rxq_release_spare(q);
	else
		mbufx_xdp_rxq_release(q);
	rte_ring_free(q->recycle);
	rte_free(q->spare);
	rte_free(q->posted);
	mbufx_rx_free(q->rx);
	memset(q, 0, sizeof(*q));
}

uint32_t
mbufx_xdp_rxq_max_frame(const struct mbufx_xdp_rxq *q, int sg)
{
	uint32_t frag = q->chunk_size - MBUFX_XDP_HEADROOM;
	uint32_t one = RTE_MIN(q->buf_len - MBUFX_XDP_HEADROOM,
			       (uint32_t)UINT16_MAX);

	if (!sg)
		return frag;
	if (q->scatter)
		return RTE_MAX(one, frag * MBUFX_XDP_MAX_FRAGS);
	return one;
}

/*
 * Post n buffers whose UMEM offsets are off[] into the fill ring, each
 * marked posted: the bit of its handle's granule, (off - buf_offset) / 64.
 * The queue's fields are read once: the bitmap's 64-bit stores may alias
 * them (the UMEM base is a 64-bit word too).
 */
static inline void
fill_put(struct mbufx_xdp_rxq *q, uint32_t at, const uint64_t *off,
	 uint32_t n)
{
	uint64_t *ring = q->fill.descs, *posted = q->posted;
	const uint32_t mask = q->fill.mask;
	const uint64_t bo = q->buf_offset;
	uint64_t b;
	uint32_t i;

	for (i = 0; i < n; i++) {
		ring[(at + i) & mask] = off[i];
		b = (off[i] - bo) >> MBUFX_XDP_GRANULE_SHIFT;
		posted[b / 64] |= UINT64_C(1) << (b % 64);
	}
}

/*
 * Classic refill (MBUFX_XDP_REFILL_CLASSIC): reset the header of every
 * buffer taken from the pool or the recycle ring before it is posted, as
 * rte_pktmbuf_alloc_bulk() does after its mempool get, and as DPDK's
 * net_af_xdp refills. rte_pktmbuf_reset() writes both header lines (next
 * and tx_offload live in the second).
 */
static inline void
classic_reset(struct mbufx_xdp_rxq *q, const uint64_t *off, uint32_t n)
{
	uint32_t i;

	for (i = 0; i < n; i++)
		rte_pktmbuf_reset(mbufx_rx_handle_from_offset(q->rx, q->base,
							      off[i]));
	q->st.hdr_lines += 2 * n;
}

uint32_t
mbufx_xdp_rxq_refill(struct mbufx_xdp_rxq *q)
{
	uint32_t free_n = mbufx_xdp_prod_free(&q->fill, q->fill.size);
	uint32_t at = q->fill.cached_prod, n = 0, k, got, i;
	uint64_t off[MBUFX_RX_BULK_MAX];
	void *h[MBUFX_RX_BULK_MAX];

	while (n < free_n && q->nb_spare != 0) {
		k = RTE_MIN(free_n - n, RTE_MIN(q->nb_spare,
				(uint32_t)MBUFX_RX_BULK_MAX));
		for (i = 0; i < k; i++)
			off[i] = mbufx_xdp_umem_off(q,
					q->spare[--q->nb_spare]);
		fill_put(q, at + n, off, k);
		n += k;
		q->st.refill_reused += k;
	}
	while (n < free_n) {
		k = rte_ring_sc_dequeue_burst(q->recycle, h,
				RTE_MIN(free_n - n, (uint32_t)RTE_DIM(h)),
				NULL);
		if (k == 0)
			break;
		for (i = 0; i < k; i++)
			off[i] = mbufx_xdp_umem_off(q, h[i]);
		if (q->refill_mode == MBUFX_XDP_REFILL_CLASSIC)
			classic_reset(q, off, k);
		fill_put(q, at + n, off, k);
		mbufx_rx_recycled(q->rx, k);
		n += k;
	}
	while (n < free_n) {
		k = RTE_MIN(free_n - n, (uint32_t)MBUFX_RX_BULK_MAX);
		got = mbufx_rx_refill_offsets(q->rx, q->base, off, k);
		if (q->refill_mode == MBUFX_XDP_REFILL_CLASSIC)
			classic_reset(q, off, got);
		fill_put(q, at + n, off, got);
		n += got;
		if (got < k)
			break;	/* counted in the context's refill_missed */
	}
	if (n != 0) {
		q->nb_posted += n;
		mbufx_xdp_prod_submit(&q->fill, n);
	}
	return n;
}

/* A buffer of this queue that will not be delivered: post it again. */
static inline void
reclaim(struct mbufx_xdp_rxq *q, void *handle)
{
	if (likely(q->nb_spare < q->spare_max))
		q->spare[q->nb_spare++] = handle;
	else
		mbufx_rx_return_handles(q->rx, &handle, 1);
}

/*
 * The rules of a descriptor, once for desc_take() and the one-descriptor
 * loop of convert_singles() (which keeps the queue's fields in locals):
 * its granule (mbufx_xdp_addr_granule(), mbufx_xdp_rx.h), posted_take(),
 * desc_len_bad().
 */

/* Take granule g (below nb_bits) out of the posted set: 0 when it was not
 * posted (never, or completed already). */
static __rte_always_inline int
posted_take(uint64_t *posted, uint64_t g)
{
	const uint64_t mask = UINT64_C(1) << (g % 64);
	const uint64_t word = posted[g / 64];

	if (unlikely((word & mask) == 0))
		return 0;
	posted[g / 64] = word & ~mask;
	return 1;
}

/* A frame's bytes must be there and stay inside the chunk. */
static __rte_always_inline int
desc_len_bad(uint32_t len, uint16_t doff, uint64_t chunk_size)
{
	return unlikely(len == 0) ||
		unlikely(doff + (uint64_t)len > chunk_size);
}

/*
 * Validate one descriptor and take its buffer out of the posted set.
 * Returns the handle, or NULL (counted) when the address is not a posted
 * buffer; *bad is set when the buffer is ours but offset or length are not.
 */
static inline void *
desc_take(struct mbufx_xdp_rxq *q, const struct xdp_desc *d, uint16_t *doff,
	  int *bad)
{
	const uint16_t data =
		(uint16_t)(d->addr >> XSK_UNALIGNED_BUF_OFFSET_SHIFT);
	uint64_t h, g;

	g = mbufx_xdp_addr_granule(d->addr, q->buf_offset, &h);
	if (unlikely(g >= q->nb_bits) || !posted_take(q->posted, g)) {
		q->st.invalid_desc++;
		*bad = 1;
		return NULL;
	}
	q->nb_posted--;
	if (desc_len_bad(d->len, data, q->chunk_size)) {
		q->st.invalid_desc++;
		*bad = 1;
	}
	*doff = data;
	return (void *)(q->base + h);
}

static void
frame_drop(struct mbufx_xdp_rxq *q, void * const *h, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		if (h[i] != NULL)
			reclaim(q, h[i]);
}

/* Deliver a multi-buffer frame of nseg validated descriptors. */
static struct rte_mbuf *
frame_multi(struct mbufx_xdp_rxq *q, const struct xdp_desc *d, void **h,
	    const uint16_t *doff, unsigned int nseg, uint32_t total)
{
	uint16_t len[MBUFX_XDP_MAX_FRAGS];
	uint8_t *dst;
	unsigned int i;

	if (total <= q->buf_len - doff[0] && total <= UINT16_MAX) {
		/* fits the first buffer: one IOVA-contiguous segment */
		dst = RTE_PTR_ADD(h[0], q->buf_offset + doff[0] + d[0].len);
		for (i = 1; i < nseg; i++) {
			memcpy(dst, RTE_PTR_ADD(h[i], q->buf_offset + doff[i]),
			       d[i].len);
			dst += d[i].len;
			reclaim(q, h[i]);
		}
		q->st.coalesced++;
		q->st.hdr_lines++;
		return mbufx_rx_attach_at(q->rx, h[0], doff[0],
					  (uint16_t)total, 0, 0);
	}
	if (!q->scatter) {
		frame_drop(q, h, nseg);
		q->st.no_scatter++;
		return NULL;
	}
	for (i = 0; i < nseg; i++)
		len[i] = (uint16_t)d[i].len;
	q->st.chained++;
	/* first line of each segment, second line of all but the last */
	q->st.hdr_lines += 2 * nseg - 1;
	return mbufx_rx_attach_chain(q->rx, h, doff, len, nseg, 0, 0);
}

/*
 * A one-descriptor frame's mbuf, not counted (the caller counts the burst
 * with mbufx_rx_attached()). Classic refill reset the header when it
 * posted the buffer: the received fields only, as net_af_xdp. Late attach:
 * the whole first line, once.
 */
static __rte_always_inline struct rte_mbuf *
attach_single(const struct mbufx_rx_burst *b, void *handle, uint16_t doff,
	      uint32_t len, uint16_t port, const int classic)
{
	struct rte_mbuf *m = handle;

	if (!classic)
		return mbufx_rx_attach_at_uncounted(b, handle, doff,
						    (uint16_t)len, 0, 0);
	m->data_off = doff;
	m->pkt_len = len;
	m->data_len = (uint16_t)len;
	m->port = port;
	return m;
}

/*
 * The receive completion step, frame by frame: any frame (one descriptor,
 * several, the tail of an over-long one). The queue's counters are written
 * once per call: the stores to out[] and the mbufs could alias q for the
 * compiler, which would otherwise load and store each counter for every
 * packet. Out of line: its stack arrays stay out of the one-descriptor
 * loop's registers.
 */
static __rte_noinline uint16_t
convert_general(struct mbufx_xdp_rxq *q, const struct xdp_desc *d,
		uint32_t n, struct rte_mbuf **pkts, uint16_t nb_pkts,
		uint32_t *used)
{
	const struct mbufx_rx_burst b = mbufx_rx_burst_begin(q->rx);
	const struct xdp_desc *f = d, * const end = d + n;
	void *h[MBUFX_XDP_MAX_FRAGS];
	uint16_t doff[MBUFX_XDP_MAX_FRAGS];
	uint32_t j, k, nseg, total;
	uint16_t nb = 0, singles = 0;
	uint64_t bytes = 0;
	struct rte_mbuf *m;
	int bad;

	while (f < end && nb < nb_pkts) {
		if (unlikely(q->contd_skip)) {
			/* tail of an over-long frame: drop until its end */
			bad = 0;
			h[0] = desc_take(q, f, &doff[0], &bad);
			if (h[0] != NULL)
				reclaim(q, h[0]);
			if ((f->options & XDP_PKT_CONTD) == 0)
				q->contd_skip = 0;
			f++;
			continue;
		}
		for (j = 0; f + j < end && j < MBUFX_XDP_MAX_FRAGS; j++)
			if ((f[j].options & XDP_PKT_CONTD) == 0)
				break;
		if (j == MBUFX_XDP_MAX_FRAGS) {
			/* more fragments than a frame may have */
			j--;
			q->contd_skip = 1;
		} else if (f + j == end) {
			break;	/* the rest of the frame is not in yet */
		}
		nseg = j + 1;
		bad = 0;
		total = 0;
		for (k = 0; k < nseg; k++) {
			h[k] = desc_take(q, &f[k], &doff[k], &bad);
			total += f[k].len;
		}
		if (unlikely(bad || q->contd_skip)) {
			frame_drop(q, h, nseg);
			q->st.dropped++;
			f += nseg;
			continue;
		}
		if (nseg == 1) {
			singles++;
			m = attach_single(&b, h[0], doff[0], total, q->port,
					  q->refill_mode ==
					  MBUFX_XDP_REFILL_CLASSIC);
		} else {
			m = frame_multi(q, f, h, doff, nseg, total);
		}
		f += nseg;
		if (m == NULL)
			continue;
		pkts[nb++] = m;
		bytes += total;
	}
	q->st.packets += nb;
	q->st.bytes += bytes;
	q->st.hdr_lines += singles;
	if (singles != 0)
		mbufx_rx_attached(q->rx, singles);
	*used = f - d;
	return nb;
}

/* A buffer taken by the one-descriptor loop whose length is bad. */
static __rte_noinline void
desc_bad_len(struct mbufx_xdp_rxq *q, void *handle)
{
	reclaim(q, handle);
}

/*
 * The receive completion step for frames of one descriptor (what a NIC
 * delivers but for jumbo frames), in one refill mode (a constant: the loop
 * is compiled once per mode): desc_take()'s rules and the attach on locals,
 * the queue's fields read once, its counters written once per call. At the
 * first descriptor with XDP_PKT_CONTD, the rest of the call goes to
 * convert_general().
 */
static __rte_always_inline uint16_t
convert_singles(struct mbufx_xdp_rxq *q, const struct xdp_desc *d,
		uint32_t n, struct rte_mbuf **pkts, uint16_t nb_pkts,
		uint32_t *used, const int classic)
{
	const struct mbufx_rx_burst b = mbufx_rx_burst_begin(q->rx);
	const uintptr_t base = q->base;
	const uint64_t buf_offset = q->buf_offset;
	const uint64_t nb_bits = q->nb_bits;
	const uint64_t chunk_size = q->chunk_size;
	uint64_t * const posted = q->posted;
	const uint16_t port = q->port;
	const struct xdp_desc *e = d;
	const struct xdp_desc * const d_end = d + n;
	struct rte_mbuf **out = pkts, **const out_end = pkts + nb_pkts;
	uint32_t bad = 0, bad_len = 0, len, rest = 0;
	uint64_t bytes = 0, h, g;
	struct rte_mbuf *m;
	uint16_t doff, nb, more = 0;

	for (; e < d_end && out < out_end; e++) {
		if (unlikely((e->options & XDP_PKT_CONTD) != 0)) {
			more = convert_general(q, e, d_end - e, out,
					       out_end - out, &rest);
			break;
		}
		g = mbufx_xdp_addr_granule(e->addr, buf_offset, &h);
		if (unlikely(g >= nb_bits) || !posted_take(posted, g)) {
			bad++;	/* not ours, not posted, or completed twice */
			continue;
		}
		m = (struct rte_mbuf *)(base + h);
		doff = (uint16_t)(e->addr >> XSK_UNALIGNED_BUF_OFFSET_SHIFT);
		len = e->len;
		if (desc_len_bad(len, doff, chunk_size)) {
			desc_bad_len(q, m);
			bad_len++;
			continue;
		}
		*out++ = attach_single(&b, m, doff, len, port, classic);
		bytes += len;
	}
	nb = (uint16_t)(out - pkts);
	/* every descriptor of the loop that was a posted buffer: attached
	 * (nb) or dropped for its length */
	q->nb_posted -= nb + bad_len;
	if (unlikely(bad + bad_len != 0)) {
		q->st.invalid_desc += bad + bad_len;
		q->st.dropped += bad + bad_len;
	}
	q->st.packets += nb;
	q->st.bytes += bytes;
	q->st.hdr_lines += nb;
	if (nb != 0)
		mbufx_rx_attached(q->rx, nb);
	*used = (e - d) + rest;
	return nb + more;
}

uint16_t
mbufx_xdp_rx_convert(struct mbufx_xdp_rxq *q, const struct xdp_desc *d,
		     uint32_t n, struct rte_mbuf **pkts, uint16_t nb_pkts,
		     uint32_t *used)
{
	/* inside an over-long frame's tail, or jumbo frames first */
	if (unlikely(q->contd_skip || (n != 0 &&
				       (d->options & XDP_PKT_CONTD) != 0)))
		return convert_general(q, d, n, pkts, nb_pkts, used);
	if (q->refill_mode == MBUFX_XDP_REFILL_CLASSIC)
		return convert_singles(q, d, n, pkts, nb_pkts, used, 1);
	return convert_singles(q, d, n, pkts, nb_pkts, used, 0);
}

void
mbufx_xdp_rxq_restock(struct mbufx_xdp_rxq *q)
{
	struct mbufx_xdp_ring *f = &q->fill;

	mbufx_xdp_rxq_refill(q);
	q->taken = f->size - (f->cached_prod - f->cached_cons);
}

uint16_t
mbufx_xdp_rx_burst(struct mbufx_xdp_rxq *q, struct rte_mbuf **pkts,
		   uint16_t nb_pkts, int *idle)
{
	const struct xdp_desc *ring = q->rxr.descs;
	struct xdp_desc d[MBUFX_XDP_RX_BATCH];
	const struct xdp_desc *src;
	uint32_t avail, k, i, used, at;
	uint16_t nb = 0;

	q->polls++;
	/* busy or idle: under one-way overload this queue is never empty */
	if (q->pair != NULL)
		mbufx_xdp_tx_poll(q->pair, &q->kick_next, &q->rx_kicks,
				  &q->rx_kick_cycles);
	avail = mbufx_xdp_cons_avail(&q->rxr);
	if (avail == 0) {
		/* idle: the time to restock */
		if (q->taken >= MBUFX_XDP_REFILL_IDLE)
			mbufx_xdp_rxq_restock(q);
		*idle = 1;
		return 0;
	}
	*idle = 0;
	while (avail != 0 && nb < nb_pkts) {
		k = RTE_MIN(avail, (uint32_t)MBUFX_XDP_RX_BATCH);
		at = q->rxr.cached_cons & q->rxr.mask;
		if (likely(at + k <= q->rxr.size)) {
			/* entries up to the producer are ours until released */
			src = &ring[at];
		} else {
			for (i = 0; i < k; i++)
				d[i] = ring[(at + i) & q->rxr.mask];
			src = d;
		}
		nb += mbufx_xdp_rx_convert(q, src, k, pkts + nb, nb_pkts - nb,
					   &used);
		if (used == 0)
			break;	/* a frame still arriving */
		mbufx_xdp_cons_release(&q->rxr, used);
		q->taken += used;
		avail -= used;
	}
	if (q->taken >= MBUFX_XDP_REFILL_THRESH)
		mbufx_xdp_rxq_restock(q);
	return nb;
}
