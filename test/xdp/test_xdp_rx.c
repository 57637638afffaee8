/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The mbufx authors
 */

/*
 * mbufx_xdp_rx_autotest: the receive core of net_mbufx_xdp without a socket.
 * A fill ring in plain memory stands in for the kernel's; the fake kernel
 * (xdp_fake_kernel.h) takes fill addresses and writes RX descriptors.
 *
 * What it protects:
 * - valid descriptors become mbufs at the kernel's offset (256), frames of
 *   several descriptors become chains (scatter on), are dropped and counted
 *   (scatter off), or are coalesced into one segment when they fit the first
 *   buffer (jumbo pools);
 * - every invalid descriptor (address not posted, posted twice, misaligned,
 *   outside the UMEM, empty, past the chunk, too many fragments) is counted
 *   and dropped, and the buffers of a dropped frame are posted again;
 * - a frame whose last descriptor is not in yet is left in the ring;
 * - random descriptor streams never crash and, after release, every buffer
 *   is back in the pool;
 * - the classic refill mode resets every posted header and delivers the
 *   same packets, counted in the same counters;
 * - in both modes, one burst of single frames, a chain, every kind of
 *   invalid descriptor and a partial frame gives exactly the mbufs,
 *   counters, posted bits and reclaimed buffers the rules say (the single
 *   frames take the conversion's one-descriptor path, the rest the general
 *   one); the packet limit stops a burst exactly, also inside a run of
 *   single frames and before a chain; an over-long frame's tail is dropped
 *   at the start of the next call and never when no packet may be
 *   delivered;
 * - random descriptor streams (both modes, both pools, scatter on and off,
 *   any packet limit, calls that see part of the ring) against a model of
 *   the rules written frame by frame: every call as predicted.
 *
 * Cases can be named after the EAL's arguments (-- mixed tail model).
 */

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_eal.h>
#include <rte_errno.h>
#include <rte_mbuf.h>
#include <rte_random.h>

#include "xdp_check.h"
#include "xdp_fake_kernel.h"

#define NB_MBUF 600
#define RING 256

CHECK_COUNTER;

static int
setup_mode(struct mbufx_xdp_rxq *q, struct rte_mempool *mp, int scatter,
	   enum mbufx_xdp_refill_mode mode)
{
	CHECK_EQ(mbufx_xdp_rxq_init(q, mp, 3, 0, RING, SOCKET_ID_ANY), 0,
		 "init");
	CHECK_EQ(mbufx_xdp_ring_mem_init(&q->fill, RING, sizeof(uint64_t)), 0,
		 "ring");
	q->scatter = scatter;
	q->refill_mode = mode;
	CHECK_EQ(mbufx_xdp_rxq_refill(q), RING, "refill");
	return 0;
}

static int
setup(struct mbufx_xdp_rxq *q, struct rte_mempool *mp, int scatter)
{
	return setup_mode(q, mp, scatter, MBUFX_XDP_REFILL_LATE);
}

static int
teardown(struct mbufx_xdp_rxq *q, struct rte_mempool *mp)
{
	mbufx_xdp_ring_mem_fini(&q->fill);
	mbufx_xdp_rxq_fini(q);
	CHECK(rte_mempool_avail_count(mp) == NB_MBUF, "%u of %u back",
	      rte_mempool_avail_count(mp), NB_MBUF);
	return 0;
}

/* len bytes of the pattern fk_rx_write() leaves, restarting every
 * fragment of period bytes */
static int
pkt_check(const struct rte_mbuf *m, uint32_t len, uint8_t seed,
	  uint32_t period)
{
	uint8_t buf[9216];
	const uint8_t *p = rte_pktmbuf_read(m, 0, len, buf);
	const char *why;
	uint32_t i;

	CHECK(m->pkt_len == len, "pkt_len %u != %u", m->pkt_len, len);
	CHECK(rte_mbuf_check(m, 1, &why) == 0, "mbuf: %s", why);
	for (i = 0; i < len; i++)
		CHECK(p[i] == (uint8_t)(seed + (i % period)), "byte %u", i);
	return 0;
}

static int
test_single_and_invalid(struct rte_mempool *mp)
{
	struct mbufx_xdp_rxq q;
	struct mbufx_rx_stats st;
	struct xdp_desc d[16];
	struct rte_mbuf *pkts[16];
	uint64_t a0, a1;
	uint32_t used;
	uint16_t nb;

	if (setup(&q, mp, 1) != 0)
		return -1;
	a0 = fk_fill_take(&q);
	a1 = fk_fill_take(&q);
	d[0] = fk_rx_write(&q, a0, 60, 0, 1);
	d[1] = fk_rx_write(&q, a1, 1514, 0, 2);
	d[2] = d[0];					/* completes twice */
	d[3] = d[1];
	d[3].addr = a1 + 8;				/* misaligned */
	d[4].addr = q.umem_len + 4096;			/* outside */
	d[4].len = 60;
	d[4].options = 0;
	d[5].addr = 0;					/* below any object */
	d[5].len = 60;
	d[5].options = 0;
	nb = mbufx_xdp_rx_convert(&q, d, 6, pkts, 16, &used);
	CHECK(nb == 2 && used == 6, "nb %u used %u", nb, used);
	CHECK(pkts[0]->data_off == MBUFX_XDP_HEADROOM && pkts[0]->port == 3,
	      "data_off %u", pkts[0]->data_off);
	if (pkt_check(pkts[0], 60, 1, 60) ||
	    pkt_check(pkts[1], 1514, 2, 1514))
		return -1;
	CHECK(q.st.invalid_desc == 4 && q.st.dropped == 4, "invalid %" PRIu64
	      " dropped %" PRIu64, q.st.invalid_desc, q.st.dropped);
	CHECK(q.st.hdr_lines == 2, "header lines %" PRIu64, q.st.hdr_lines);
	/* the receive loop counts its late attaches once per call */
	CHECK(mbufx_rx_stats_get(q.rx, &st) == 0 && st.attached == 2,
	      "attached %" PRIu64 " of 2 frames", st.attached);
	rte_pktmbuf_free(pkts[0]);
	rte_pktmbuf_free(pkts[1]);

	/* ours, but empty or past the chunk: counted, buffer posted again */
	a0 = fk_fill_take(&q);
	a1 = fk_fill_take(&q);
	d[0] = fk_rx_write(&q, a0, 0, 0, 0);
	d[1] = fk_rx_write(&q, a1, 0, 0, 0);
	d[1].len = q.chunk_size;	/* claimed, not written */
	nb = mbufx_xdp_rx_convert(&q, d, 2, pkts, 16, &used);
	CHECK(nb == 0 && used == 2 && q.st.invalid_desc == 6 &&
	      q.nb_spare == 2, "bad lengths: nb %u spare %u", nb, q.nb_spare);
	CHECK_EQ(mbufx_xdp_rxq_refill(&q), 4, "refill after drops");
	CHECK(q.st.refill_reused == 2, "reused %" PRIu64, q.st.refill_reused);
	return teardown(&q, mp);
}

static int
test_multi(struct rte_mempool *mp, int scatter, int coalesce)
{
	const uint32_t frag = (coalesce ? 4096 : 2176) - MBUFX_XDP_HEADROOM;
	const uint32_t len[3] = { frag, frag, 1000 };
	struct mbufx_xdp_rxq q;
	struct xdp_desc d[24];
	struct rte_mbuf *pkts[4];
	uint32_t used, i;
	uint16_t nb;

	if (setup(&q, mp, scatter) != 0)
		return -1;
	for (i = 0; i < 3; i++)
		d[i] = fk_rx_write(&q, fk_fill_take(&q), len[i],
				    i < 2 ? XDP_PKT_CONTD : 0, 0);
	/* the last fragment not in yet: nothing consumed */
	nb = mbufx_xdp_rx_convert(&q, d, 2, pkts, 4, &used);
	CHECK(nb == 0 && used == 0, "partial frame consumed");
	nb = mbufx_xdp_rx_convert(&q, d, 3, pkts, 4, &used);
	CHECK(used == 3, "used %u", used);
	if (coalesce) {
		CHECK(nb == 1 && pkts[0]->nb_segs == 1 && q.st.coalesced == 1,
		      "coalesce: nb %u", nb);
		if (pkt_check(pkts[0], 2 * frag + 1000, 0, frag))
			return -1;
		CHECK_EQ(q.nb_spare, 2, "fragments not reposted");
		rte_pktmbuf_free(pkts[0]);
	} else if (scatter) {
		CHECK(nb == 1 && pkts[0]->nb_segs == 3 && q.st.chained == 1,
		      "chain: nb %u", nb);
		if (pkt_check(pkts[0], 2 * frag + 1000, 0, frag))
			return -1;
		CHECK(q.st.hdr_lines == 5, "header lines %" PRIu64,
		      q.st.hdr_lines);
		rte_pktmbuf_free(pkts[0]);
	} else {
		CHECK(nb == 0 && q.st.no_scatter == 1 && q.nb_spare == 3,
		      "no scatter: nb %u", nb);
	}
	/* 20 fragments: more than a frame may have, dropped to its end,
	 * also across calls */
	for (i = 0; i < 20; i++)
		d[i] = fk_rx_write(&q, fk_fill_take(&q), 100,
				    i < 19 ? XDP_PKT_CONTD : 0, 0);
	d[20] = fk_rx_write(&q, fk_fill_take(&q), 64, 0, 9);
	nb = mbufx_xdp_rx_convert(&q, d, 19, pkts, 4, &used);
	CHECK(nb == 0 && used == 19 && q.contd_skip, "over-long: used %u",
	      used);
	nb = mbufx_xdp_rx_convert(&q, &d[19], 2, pkts, 4, &used);
	CHECK(nb == 1 && used == 2 && !q.contd_skip, "after over-long");
	if (pkt_check(pkts[0], 64, 9, 64))
		return -1;
	rte_pktmbuf_free(pkts[0]);
	return teardown(&q, mp);
}

/* Random descriptors, a third of them valid: no crash, nothing lost. */
static int
test_random(struct rte_mempool *mp)
{
	struct mbufx_xdp_rxq q;
	struct xdp_desc d[32];
	struct rte_mbuf *pkts[32];
	uint32_t round, i, used, n;
	uint64_t a, r;
	uint16_t nb;

	if (setup(&q, mp, 1) != 0)
		return -1;
	for (round = 0; round < 3000; round++) {
		n = 1 + rte_rand_max(32);
		for (i = 0; i < n; i++) {
			r = rte_rand();
			a = r % 3 == 0 ? fk_fill_take(&q) : UINT64_MAX;
			if (a == UINT64_MAX)
				a = rte_rand_max(q.umem_len + 8192) &
					~(uint64_t)(r & 64 ? 0 : 63);
			d[i].addr = a | ((r >> 8) % 4 == 0 ? rte_rand() <<
					 XSK_UNALIGNED_BUF_OFFSET_SHIFT :
					 (uint64_t)MBUFX_XDP_HEADROOM <<
					 XSK_UNALIGNED_BUF_OFFSET_SHIFT);
			d[i].len = (r >> 16) % 8 == 0 ? (uint32_t)rte_rand() :
				(uint32_t)((r >> 20) % 2000);
			d[i].options = (r >> 40) % 4 == 0 ? XDP_PKT_CONTD :
				(r >> 44) % 16 == 0 ? (uint32_t)rte_rand() &
				~XDP_PKT_CONTD : 0;
		}
		nb = mbufx_xdp_rx_convert(&q, d, n, pkts, 32, &used);
		CHECK(used <= n && nb <= used, "used %u nb %u of %u", used,
		      nb, n);
		for (i = 0; i < nb; i++) {
			const char *why;

			CHECK(rte_mbuf_check(pkts[i], 1, &why) == 0, "%s",
			      why);
			rte_pktmbuf_free(pkts[i]);
		}
		mbufx_xdp_rxq_refill(&q);
	}
	printf("random: %" PRIu64 " frames, %" PRIu64 " invalid descriptors, "
	       "%" PRIu64 " dropped frames\n", q.st.packets,
	       q.st.invalid_desc, q.st.dropped);
	return teardown(&q, mp);
}

/* Stale metadata in every free mbuf of mp: what an earlier user of the
 * pool leaves (a free mbuf keeps next == NULL, nb_segs 1, refcnt 1). */
static void
scribble(struct rte_mempool *mp)
{
	struct rte_mbuf *m[NB_MBUF];
	unsigned int n = rte_mempool_avail_count(mp), i;

	if (rte_mempool_get_bulk(mp, (void **)m, n) != 0)
		return;
	for (i = 0; i < n; i++) {
		m[i]->ol_flags = RTE_MBUF_F_RX_VLAN | RTE_MBUF_F_RX_RSS_HASH;
		m[i]->packet_type = RTE_PTYPE_L2_ETHER_VLAN;
		m[i]->vlan_tci = 0xdead;
		m[i]->tx_offload = 0xbeef;
		m[i]->data_off = 7;
		m[i]->port = 9;
	}
	rte_mempool_put_bulk(mp, (void **)m, n);
}

/*
 * rx_refill=classic: every posted buffer's header is reset (two lines each)
 * before the kernel sees it, completion writes the received fields; the
 * late-attach context counts the buffers once (refilled, attached), as in
 * the late mode. Stale metadata in the pool never reaches a packet.
 */
static int
test_classic(struct rte_mempool *mp)
{
	struct mbufx_xdp_rxq q;
	struct mbufx_rx_stats st;
	struct xdp_desc d[4];
	struct rte_mbuf *pkts[4];
	uint32_t used, i;
	uint16_t nb;

	scribble(mp);
	CHECK_EQ(mbufx_xdp_rxq_init(&q, mp, 3, 0, RING, SOCKET_ID_ANY), 0,
		 "init");
	CHECK_EQ(mbufx_xdp_ring_mem_init(&q.fill, RING, sizeof(uint64_t)), 0,
		 "ring");
	q.scatter = 1;
	q.refill_mode = MBUFX_XDP_REFILL_CLASSIC;
	CHECK_EQ(mbufx_xdp_rxq_refill(&q), RING, "refill");
	CHECK(q.st.hdr_lines == 2 * RING, "refill wrote %" PRIu64 " lines",
	      q.st.hdr_lines);
	for (i = 0; i < 3; i++)
		d[i] = fk_rx_write(&q, fk_fill_take(&q), 60 + i, 0, 5 + i);
	nb = mbufx_xdp_rx_convert(&q, d, 3, pkts, 4, &used);
	CHECK(nb == 3 && used == 3, "nb %u used %u", nb, used);
	for (i = 0; i < 3; i++) {
		CHECK(pkts[i]->data_off == MBUFX_XDP_HEADROOM &&
		      pkts[i]->port == 3 && pkts[i]->ol_flags == 0 &&
		      pkts[i]->packet_type == 0 && pkts[i]->vlan_tci == 0 &&
		      pkts[i]->tx_offload == 0 && pkts[i]->nb_segs == 1,
		      "packet %u: data_off %u port %u ol_flags %#" PRIx64
		      " ptype %#x vlan %#x", i, pkts[i]->data_off,
		      pkts[i]->port, pkts[i]->ol_flags, pkts[i]->packet_type,
		      pkts[i]->vlan_tci);
		if (pkt_check(pkts[i], 60 + i, (uint8_t)(5 + i), 60 + i))
			return -1;
	}
	CHECK(q.st.hdr_lines == 2 * RING + 3, "lines %" PRIu64,
	      q.st.hdr_lines);
	CHECK(mbufx_rx_stats_get(q.rx, &st) == 0 && st.refilled == RING &&
	      st.attached == 3 && st.posted == RING - 3, "refilled %" PRIu64
	      " attached %" PRIu64 " posted %" PRIu64, st.refilled,
	      st.attached, st.posted);
	rte_pktmbuf_free_bulk(pkts, nb);
	return teardown(&q, mp);
}

/* Bits set in the posted bitmap: what nb_posted must say. */
static uint64_t
posted_bits(const struct mbufx_xdp_rxq *q)
{
	uint64_t w, n = 0;

	for (w = 0; w * 64 < q->nb_bits; w++)
		n += (uint64_t)__builtin_popcountll(q->posted[w]);
	return n;
}

static int
posted_bit(const struct mbufx_xdp_rxq *q, const void *handle)
{
	uint64_t b = ((uintptr_t)handle - q->base) >> MBUFX_XDP_GRANULE_SHIFT;

	return (q->posted[b / 64] >> (b % 64)) & 1;
}

static struct rte_mbuf *
handle_of(const struct mbufx_xdp_rxq *q, uint64_t fill)
{
	return (struct rte_mbuf *)(q->base + fill - q->buf_offset);
}

/* A received mbuf as the application must see it: one segment per
 * fragment, each 256 bytes in, the queue's port, clean metadata (the pool
 * was scribbled on), the bytes the fake kernel wrote. */
static int
rx_check(const struct mbufx_xdp_rxq *q, const struct rte_mbuf *m,
	 const uint32_t *frag, unsigned int nseg, uint8_t seed)
{
	const struct rte_mbuf *s = m;
	uint32_t total = 0, i;

	for (i = 0; i < nseg; i++, s = s->next) {
		CHECK(s != NULL, "segment %u of %u missing", i, nseg);
		CHECK(s->data_off == MBUFX_XDP_HEADROOM &&
		      s->data_len == frag[i] && s->refcnt == 1,
		      "segment %u: data_off %u data_len %u refcnt %u", i,
		      s->data_off, s->data_len, s->refcnt);
		total += frag[i];
	}
	CHECK(s == NULL, "more than %u segments", nseg);
	CHECK(m->nb_segs == nseg && m->pkt_len == total && m->port == q->port,
	      "nb_segs %u pkt_len %u port %u", m->nb_segs, m->pkt_len,
	      m->port);
	CHECK(m->ol_flags == 0 && m->packet_type == 0 && m->vlan_tci == 0 &&
	      m->vlan_tci_outer == 0 && m->hash.rss == 0,
	      "stale metadata: ol_flags %#" PRIx64 " ptype %#x vlan %#x",
	      m->ol_flags, m->packet_type, m->vlan_tci);
	return pkt_check(m, total, seed, frag[0]);
}

/*
 * One burst mixing everything the one-descriptor path and the general path
 * of mbufx_xdp_rx_convert() tell apart, in both refill modes: single
 * frames (the shortest and the longest a buffer takes) around a chained
 * frame and every kind of invalid descriptor, a frame whose last fragment
 * is not in yet at the end; then the packet limit falling inside a run of
 * single frames and just before a frame of several descriptors. Every
 * field of every mbuf, every counter, the posted bitmap and, at the end,
 * every buffer (pool + posted + spare) are checked.
 */
static int
test_mixed(struct rte_mempool *mp, enum mbufx_xdp_refill_mode mode)
{
	const uint32_t max = 2176 - MBUFX_XDP_HEADROOM;
	const uint32_t chain[3] = { 1000, 1000, 500 };
	const uint32_t late_chain[3] = { 1000, 1000, 300 };
	struct mbufx_xdp_rx_stats st0;
	struct mbufx_rx_stats rs0, rs;
	struct mbufx_xdp_rxq q;
	struct xdp_desc d[20];
	struct rte_mbuf *pkts[20], *stray, *empty, *longb;
	uint8_t stray_hdr[RTE_CACHE_LINE_SIZE * 2];
	uint64_t a[20], posted0, lines0;
	uint32_t used, i;
	uint16_t nb;

	scribble(mp);
	if (setup_mode(&q, mp, 1, mode) != 0)
		return -1;
	/* a buffer of the pool that was never posted */
	stray = rte_pktmbuf_alloc(mp);
	CHECK(stray != NULL, "stray buffer");
	memcpy(stray_hdr, stray, sizeof(stray_hdr));
	for (i = 0; i < 20; i++)
		a[i] = fk_fill_take(&q);
	d[0] = fk_rx_write(&q, a[0], 60, 0, 1);		/* shortest */
	d[1] = fk_rx_write(&q, a[1], max, 0, 2);	/* ends at the chunk */
	d[2] = fk_rx_write(&q, mbufx_xdp_umem_off(&q, stray), 60, 0, 3);
	for (i = 0; i < 3; i++)				/* a chain */
		d[3 + i] = fk_rx_write(&q, a[3 + i], chain[i],
				       i < 2 ? XDP_PKT_CONTD : 0, 4);
	d[6] = fk_rx_write(&q, a[6], 0, 0, 0);		/* empty */
	d[7] = fk_rx_write(&q, a[7], 0, 0, 0);
	d[7].len = max + 1;				/* one past the chunk */
	d[8] = d[0];
	d[8].addr = q.umem_len + 4096;			/* outside the UMEM */
	d[9] = fk_rx_write(&q, a[9], 60, 0, 0);
	d[9].addr += 8;					/* not on a granule */
	d[10] = d[0];
	d[10].addr = 0;					/* below any object */
	d[11] = fk_rx_write(&q, a[11], 100, 0, 11);
	d[12] = d[0];					/* completes twice */
	d[13] = fk_rx_write(&q, a[13], 1514, 0, 13);
	for (i = 0; i < 3; i++)				/* last one not in */
		d[14 + i] = fk_rx_write(&q, a[14 + i], late_chain[i],
					i < 2 ? XDP_PKT_CONTD : 0, 14);
	empty = handle_of(&q, a[6]);
	longb = handle_of(&q, a[7]);

	st0 = q.st;
	posted0 = q.nb_posted;
	CHECK_EQ(mbufx_rx_stats_get(q.rx, &rs0), 0, "stats");
	nb = mbufx_xdp_rx_convert(&q, d, 16, pkts, 20, &used);
	CHECK(nb == 5 && used == 14, "nb %u used %u, want 5 and 14", nb,
	      used);
	if (rx_check(&q, pkts[0], (const uint32_t []){ 60 }, 1, 1) ||
	    rx_check(&q, pkts[1], (const uint32_t []){ max }, 1, 2) ||
	    rx_check(&q, pkts[2], chain, 3, 4) ||
	    rx_check(&q, pkts[3], (const uint32_t []){ 100 }, 1, 11) ||
	    rx_check(&q, pkts[4], (const uint32_t []){ 1514 }, 1, 13))
		return -1;
	CHECK(pkts[0] == handle_of(&q, a[0]) && pkts[2] == handle_of(&q, a[3]),
	      "mbufs are not the buffers the descriptors name");
	CHECK(memcmp(stray_hdr, stray, sizeof(stray_hdr)) == 0,
	      "the header of a buffer never posted was written");
	CHECK_EQ(q.st.packets - st0.packets, 5, "packets");
	CHECK_EQ(q.st.bytes - st0.bytes, 60 + max + 2500 + 100 + 1514,
		 "bytes");
	CHECK_EQ(q.st.invalid_desc - st0.invalid_desc, 7, "invalid_desc");
	CHECK_EQ(q.st.dropped - st0.dropped, 7, "dropped");
	CHECK_EQ(q.st.chained - st0.chained, 1, "chained");
	/* one line per single frame, 2 x 3 - 1 for the chain */
	CHECK_EQ(q.st.hdr_lines - st0.hdr_lines, 4 + 5, "hdr_lines");
	CHECK_EQ(mbufx_rx_stats_get(q.rx, &rs), 0, "stats");
	CHECK_EQ(rs.attached - rs0.attached, 4 + 3, "attached");
	/* taken: 4 singles, 3 fragments, 2 dropped for their length */
	CHECK_EQ(posted0 - q.nb_posted, 9, "nb_posted");
	CHECK_EQ(posted_bits(&q), q.nb_posted, "posted bitmap");
	CHECK(!posted_bit(&q, empty) && !posted_bit(&q, longb) &&
	      posted_bit(&q, handle_of(&q, a[9])) &&
	      posted_bit(&q, handle_of(&q, a[14])), "posted bits");
	CHECK(q.nb_spare == 2 && q.spare[0] == empty && q.spare[1] == longb,
	      "spare: %u", q.nb_spare);
	rte_pktmbuf_free_bulk(pkts, nb);

	/* the frame's last fragment comes in */
	lines0 = q.st.hdr_lines;
	nb = mbufx_xdp_rx_convert(&q, &d[14], 3, pkts, 20, &used);
	CHECK(nb == 1 && used == 3, "nb %u used %u", nb, used);
	if (rx_check(&q, pkts[0], late_chain, 3, 14))
		return -1;
	CHECK_EQ(q.st.hdr_lines - lines0, 5, "hdr_lines");
	rte_pktmbuf_free(pkts[0]);

	/* the limit inside a run of single frames: the invalid descriptor
	 * after it is left in the ring, not counted */
	for (i = 0; i < 3; i++)
		d[i] = fk_rx_write(&q, a[i] = fk_fill_take(&q), 64 + i, 0,
				   (uint8_t)(20 + i));
	d[3] = d[0];
	d[3].addr = q.umem_len;
	st0 = q.st;
	nb = mbufx_xdp_rx_convert(&q, d, 4, pkts, 2, &used);
	CHECK(nb == 2 && used == 2 && q.st.invalid_desc == st0.invalid_desc,
	      "limit 2: nb %u used %u", nb, used);
	nb += mbufx_xdp_rx_convert(&q, &d[2], 2, pkts + 2, 1, &used);
	CHECK(nb == 3 && used == 1, "limit 1: nb %u used %u", nb, used);
	for (i = 0; i < 3; i++)
		if (rx_check(&q, pkts[i], (const uint32_t []){ 64 + i }, 1,
			     (uint8_t)(20 + i)))
			return -1;
	CHECK_EQ(mbufx_xdp_rx_convert(&q, &d[3], 1, pkts + 3, 1, &used), 0,
		 "invalid delivered");
	CHECK(used == 1 && q.st.invalid_desc == st0.invalid_desc + 1 &&
	      q.st.dropped == st0.dropped + 1, "invalid: used %u", used);
	rte_pktmbuf_free_bulk(pkts, 3);

	/* the limit just before a frame of several descriptors */
	d[0] = fk_rx_write(&q, fk_fill_take(&q), 70, 0, 30);
	d[1] = fk_rx_write(&q, fk_fill_take(&q), 1900, XDP_PKT_CONTD, 31);
	d[2] = fk_rx_write(&q, fk_fill_take(&q), 100, 0, 31);
	nb = mbufx_xdp_rx_convert(&q, d, 3, pkts, 1, &used);
	CHECK(nb == 1 && used == 1, "nb %u used %u", nb, used);
	nb = mbufx_xdp_rx_convert(&q, &d[1], 2, pkts + 1, 1, &used);
	CHECK(nb == 1 && used == 2, "nb %u used %u", nb, used);
	if (rx_check(&q, pkts[0], (const uint32_t []){ 70 }, 1, 30) ||
	    rx_check(&q, pkts[1], (const uint32_t []){ 1900, 100 }, 2, 31))
		return -1;
	rte_pktmbuf_free_bulk(pkts, 2);

	/* every buffer accounted for: in the pool, posted or spare */
	rte_pktmbuf_free(stray);
	CHECK_EQ(posted_bits(&q), q.nb_posted, "posted bitmap");
	CHECK_EQ(rte_mempool_avail_count(mp) + q.nb_posted + q.nb_spare,
		 NB_MBUF, "buffers lost");
	return teardown(&q, mp);
}

/*
 * The tail of an over-long frame at the start of a call: never consumed
 * when no packet may be delivered, dropped up to the frame's end, and the
 * frame after it delivered in the same call.
 */
static int
test_tail(struct rte_mempool *mp)
{
	struct mbufx_xdp_rxq q;
	struct xdp_desc d[24];
	struct rte_mbuf *pkts[4];
	uint32_t used, i;
	uint16_t nb;

	if (setup(&q, mp, 1) != 0)
		return -1;
	for (i = 0; i < 21; i++)
		d[i] = fk_rx_write(&q, fk_fill_take(&q), 100,
				   i < 20 ? XDP_PKT_CONTD : 0, 0);
	d[21] = fk_rx_write(&q, fk_fill_take(&q), 64, 0, 7);
	nb = mbufx_xdp_rx_convert(&q, d, 18, pkts, 4, &used);
	CHECK(nb == 0 && used == 18 && q.contd_skip && q.st.dropped == 1,
	      "over-long: used %u", used);
	nb = mbufx_xdp_rx_convert(&q, &d[18], 4, pkts, 0, &used);
	CHECK(nb == 0 && used == 0 && q.contd_skip, "no room: used %u",
	      used);
	nb = mbufx_xdp_rx_convert(&q, &d[18], 4, pkts, 4, &used);
	CHECK(nb == 1 && used == 4 && !q.contd_skip && q.nb_spare == 21 &&
	      q.st.dropped == 1 && q.st.invalid_desc == 0,
	      "tail: nb %u used %u spare %u", nb, used, q.nb_spare);
	if (rx_check(&q, pkts[0], (const uint32_t []){ 64 }, 1, 7))
		return -1;
	rte_pktmbuf_free(pkts[0]);
	CHECK_EQ(posted_bits(&q), q.nb_posted, "posted bitmap");
	return teardown(&q, mp);
}

/*
 * The reference of mbufx_xdp_rx_convert(): its rules written plainly, frame
 * by frame (the general path's order, every descriptor through one take),
 * on a copy of the queue's posted bitmap, predicting every mbuf, counter,
 * bit and reclaimed buffer of a call.
 */
struct model_pkt {
	void *h[MBUFX_XDP_MAX_FRAGS];
	uint16_t doff[MBUFX_XDP_MAX_FRAGS];
	uint32_t len[MBUFX_XDP_MAX_FRAGS];
	unsigned int nseg;	/* segments of the mbuf */
	uint32_t total;
	uint64_t hash;		/* of the frame's bytes, before the call */
};

struct model {
	uint64_t *posted;
	uint32_t skip;
	struct mbufx_xdp_rx_stats st;	/* deltas */
	uint64_t attached, taken;
	void *reclaimed[256];
	unsigned int nb_reclaimed;
	struct model_pkt pkt[64];
	unsigned int nb;
};

static uint64_t
fnv(uint64_t h, const uint8_t *p, uint32_t n)
{
	uint32_t i;

	for (i = 0; i < n; i++)
		h = (h ^ p[i]) * UINT64_C(0x100000001b3);
	return h;
}

#define FNV0 UINT64_C(0xcbf29ce484222325)

static void *
model_take(const struct mbufx_xdp_rxq *q, struct model *md,
	   const struct xdp_desc *d, uint16_t *doff, int *bad)
{
	uint64_t off = d->addr & XSK_UNALIGNED_BUF_ADDR_MASK;
	uint64_t data = d->addr >> XSK_UNALIGNED_BUF_OFFSET_SHIFT;
	uint64_t h, b;

	if (off < q->buf_offset)
		goto invalid;
	h = off - q->buf_offset;
	if (h >= q->umem_len || h % 64 != 0)
		goto invalid;
	b = h / 64;
	if ((md->posted[b / 64] & (UINT64_C(1) << (b % 64))) == 0)
		goto invalid;
	md->posted[b / 64] &= ~(UINT64_C(1) << (b % 64));
	md->taken++;
	if (d->len == 0 || data + d->len > q->chunk_size) {
		md->st.invalid_desc++;
		*bad = 1;
	}
	*doff = (uint16_t)data;
	return (void *)(q->base + h);
invalid:
	md->st.invalid_desc++;
	*bad = 1;
	return NULL;
}

static void
model_reclaim(struct model *md, void *h)
{
	if (h != NULL && md->nb_reclaimed < RTE_DIM(md->reclaimed))
		md->reclaimed[md->nb_reclaimed++] = h;
}

static uint32_t
model_convert(const struct mbufx_xdp_rxq *q, struct model *md,
	      const struct xdp_desc *d, uint32_t n, uint16_t nb_pkts)
{
	void *h[MBUFX_XDP_MAX_FRAGS];
	uint16_t doff[MBUFX_XDP_MAX_FRAGS];
	struct model_pkt *p;
	uint32_t i = 0, j, k, nseg, total;
	int bad;

	while (i < n && md->nb < nb_pkts) {
		if (md->skip) {
			bad = 0;
			model_reclaim(md, model_take(q, md, &d[i], &doff[0],
						     &bad));
			if ((d[i].options & XDP_PKT_CONTD) == 0)
				md->skip = 0;
			i++;
			continue;
		}
		for (j = i; j < n && (d[j].options & XDP_PKT_CONTD) != 0 &&
		     j - i < MBUFX_XDP_MAX_FRAGS; j++)
			;
		if (j - i == MBUFX_XDP_MAX_FRAGS) {
			j--;
			md->skip = 1;
		} else if (j == n) {
			break;
		}
		nseg = j - i + 1;
		bad = 0;
		total = 0;
		for (k = 0; k < nseg; k++) {
			h[k] = model_take(q, md, &d[i + k], &doff[k], &bad);
			total += d[i + k].len;
		}
		if (bad || md->skip) {
			for (k = 0; k < nseg; k++)
				model_reclaim(md, h[k]);
			md->st.dropped++;
			i += nseg;
			continue;
		}
		p = &md->pkt[md->nb];
		p->hash = FNV0;
		for (k = 0; k < nseg; k++) {
			p->h[k] = h[k];
			p->doff[k] = doff[k];
			p->len[k] = d[i + k].len;
			p->hash = fnv(p->hash, RTE_PTR_ADD(h[k], q->buf_offset +
							   doff[k]),
				      d[i + k].len);
		}
		p->total = total;
		i += nseg;
		if (nseg == 1) {
			p->nseg = 1;
			md->st.hdr_lines++;
			md->attached++;
		} else if (total <= q->buf_len - doff[0] &&
			   total <= UINT16_MAX) {
			p->nseg = 1;
			for (k = 1; k < nseg; k++)
				model_reclaim(md, h[k]);
			md->st.coalesced++;
			md->st.hdr_lines++;
			md->attached++;
		} else if (!q->scatter) {
			for (k = 0; k < nseg; k++)
				model_reclaim(md, h[k]);
			md->st.no_scatter++;
			continue;
		} else {
			p->nseg = nseg;
			md->st.chained++;
			md->st.hdr_lines += 2 * nseg - 1;
			md->attached += nseg;
		}
		md->st.packets++;
		md->st.bytes += total;
		md->nb++;
	}
	return i;
}

/* A delivered mbuf against the model's prediction. */
static int
model_pkt_check(const struct mbufx_xdp_rxq *q, const struct model_pkt *p,
		const struct rte_mbuf *m, unsigned int k)
{
	const struct rte_mbuf *s = m;
	uint64_t hash = FNV0;
	const char *why;
	unsigned int i;

	CHECK(m == p->h[0], "packet %u: mbuf %p, want %p", k, (const void *)m,
	      p->h[0]);
	CHECK(rte_mbuf_check(m, 1, &why) == 0, "packet %u: %s", k, why);
	CHECK(m->nb_segs == p->nseg && m->pkt_len == p->total &&
	      m->port == q->port && m->ol_flags == 0 && m->packet_type == 0,
	      "packet %u: nb_segs %u (%u) pkt_len %u (%u) port %u ol_flags %#"
	      PRIx64, k, m->nb_segs, p->nseg, m->pkt_len, p->total, m->port,
	      m->ol_flags);
	for (i = 0; i < p->nseg; i++, s = s->next) {
		CHECK(s == p->h[i] && s->data_off == p->doff[i] &&
		      s->data_len == (p->nseg == 1 ? p->total : p->len[i]),
		      "packet %u segment %u: data_off %u (%u) data_len %u", k,
		      i, s->data_off, p->doff[i], s->data_len);
		hash = fnv(hash, rte_pktmbuf_mtod(s, const uint8_t *),
			   s->data_len);
	}
	CHECK(hash == p->hash, "packet %u: bytes differ", k);
	return 0;
}

/* A length as the kernel, or a broken one, could report it. */
static uint32_t
model_len(uint32_t max)
{
	switch (rte_rand_max(16)) {
	case 0: return 0;
	case 1: return max + 1;
	case 2: return (uint32_t)rte_rand();
	case 3: return 1;
	case 4: return max;
	case 5: return max - 1;
	case 6: return 1514;
	case 7: return 60;
	default: return 1 + (uint32_t)rte_rand_max(max);
	}
}

/* Buffers completed before, kept for completing them again. */
#define MODEL_HIST 64u

/*
 * One frame as test_model() gives it, at d[]; returns its descriptors.
 * Shape: one descriptor (most; one in eight of those with XDP_PKT_CONTD
 * set anyway, continued by whatever follows), 2 to 5 (3 in 16), or 19 to
 * 21, more than a frame may have (1 in 64). Buffers: fresh from the fill
 * ring (most), completed before (1 in 16: most of them completed twice),
 * or any address with any offset bits (1 in 16, and when the fill ring is
 * empty). Lengths: model_len(); one fresh buffer in eight has its data
 * offset anywhere in the chunk.
 */
static uint32_t
model_frame(struct mbufx_xdp_rxq *q, struct xdp_desc *d, uint32_t max,
	    uint64_t *hist, uint32_t *nb_hist)
{
	const uint64_t r = rte_rand();
	const uint8_t seed = (uint8_t)(r >> 56);
	const uint32_t nseg = r % 64 == 13 ? 19 + (uint32_t)(r >> 8) % 3 :
		r % 16 >= 8 && r % 16 <= 10 ? 2 + (uint32_t)(r >> 8) % 4 : 1;
	uint32_t i;
	uint64_t a;

	for (i = 0; i < nseg; i++) {
		if (r % 16 == 11 && *nb_hist != 0)
			a = hist[rte_rand_max(RTE_MIN(*nb_hist, MODEL_HIST))];
		else if (r % 16 == 12)
			a = UINT64_MAX;
		else
			a = fk_fill_take(q);
		d[i].len = model_len(max);
		if (a == UINT64_MAX) {
			d[i].addr = rte_rand_max(q->umem_len + 8192);
			if ((r >> 20) % 2)
				d[i].addr &= ~UINT64_C(63);
			d[i].addr |= rte_rand() <<
				XSK_UNALIGNED_BUF_OFFSET_SHIFT;
		} else {
			hist[(*nb_hist)++ % MODEL_HIST] = a;
			d[i].addr = fk_rx_write(q, a, RTE_MIN(d[i].len, max), 0,
						seed).addr;
			if ((r >> 24) % 8 == 0)
				d[i].addr = a | rte_rand_max(q->chunk_size) <<
					XSK_UNALIGNED_BUF_OFFSET_SHIFT;
		}
		d[i].options = i + 1 < nseg ? XDP_PKT_CONTD :
			r % 16 >= 14 ? (uint32_t)(r >> 32) & XDP_PKT_CONTD : 0;
	}
	return nseg;
}

/*
 * Random descriptor streams, against the model: single frames (most), frames
 * of several descriptors, over-long frames, buffers completed twice, foreign
 * addresses, odd offsets and lengths, any packet limit, frames left in the
 * ring for the next call; every call's mbufs, counters, posted bitmap and
 * reclaimed buffers exactly as predicted.
 */
static int
test_model(struct rte_mempool *mp, enum mbufx_xdp_refill_mode mode,
	   int scatter)
{
	static struct xdp_desc d[160];
	static uint64_t hist[MODEL_HIST];
	static struct model md;
	struct mbufx_xdp_rx_stats st0;
	struct mbufx_rx_stats rs0, rs;
	struct mbufx_xdp_rxq q;
	struct rte_mbuf *pkts[64];
	uint32_t round, nd = 0, n, used, i, k, words, max;
	uint32_t nb_hist = 0, spare0, mused;
	uint64_t posted0;
	uint16_t nb, nb_pkts;

	scribble(mp);
	if (setup_mode(&q, mp, scatter, mode) != 0)
		return -1;
	words = (q.nb_bits + 63) / 64;
	md.posted = malloc(words * sizeof(uint64_t));
	CHECK(md.posted != NULL, "model bitmap");
	max = q.chunk_size - MBUFX_XDP_HEADROOM;
	for (round = 0; round < 4000; round++) {
		k = 1 + rte_rand_max(40);
		for (i = 0; i < k && nd + MBUFX_XDP_MAX_FRAGS + 4 < RTE_DIM(d);
		     i++)
			nd += model_frame(&q, &d[nd], max, hist, &nb_hist);
		nb_pkts = rte_rand_max(8) == 0 ? 0 :
			(uint16_t)(1 + rte_rand_max(RTE_DIM(pkts)));
		if (nd > RTE_DIM(d) / 2 && nb_pkts == 0)
			nb_pkts = 1;	/* drain */
		/* a quarter of the calls see part of what is in (the receive
		 * loop's batches end anywhere) */
		n = rte_rand_max(4) == 0 ? (uint32_t)rte_rand_max(nd + 1) : nd;

		/* the prediction, from the queue as it stands */
		memset(&md.st, 0, sizeof(md.st));
		memcpy(md.posted, q.posted, words * sizeof(uint64_t));
		md.skip = q.contd_skip;
		md.attached = md.taken = 0;
		md.nb_reclaimed = md.nb = 0;
		mused = model_convert(&q, &md, d, n, nb_pkts);

		st0 = q.st;
		posted0 = q.nb_posted;
		spare0 = q.nb_spare;
		CHECK_EQ(mbufx_rx_stats_get(q.rx, &rs0), 0, "stats");
		nb = mbufx_xdp_rx_convert(&q, d, n, pkts, nb_pkts, &used);
		CHECK(nb == md.nb && used == mused, "round %u: nb %u used %u, "
		      "model %u and %u", round, nb, used, md.nb, mused);
		for (i = 0; i < nb; i++)
			if (model_pkt_check(&q, &md.pkt[i], pkts[i], i) != 0)
				return -1;
		CHECK_EQ(mbufx_rx_stats_get(q.rx, &rs), 0, "stats");
#define MODEL_EQ(f) CHECK_EQ(q.st.f - st0.f, md.st.f, "round %u: " #f, round)
		MODEL_EQ(packets);
		MODEL_EQ(bytes);
		MODEL_EQ(invalid_desc);
		MODEL_EQ(dropped);
		MODEL_EQ(no_scatter);
		MODEL_EQ(chained);
		MODEL_EQ(coalesced);
		MODEL_EQ(hdr_lines);
#undef MODEL_EQ
		CHECK_EQ(rs.attached - rs0.attached, md.attached,
			 "round %u: attached", round);
		CHECK_EQ(posted0 - q.nb_posted, md.taken, "round %u: taken",
			 round);
		CHECK(memcmp(md.posted, q.posted, words * sizeof(uint64_t)) ==
		      0, "round %u: posted bitmap", round);
		CHECK(q.contd_skip == md.skip, "round %u: contd_skip", round);
		CHECK(q.nb_spare - spare0 == md.nb_reclaimed &&
		      memcmp(&q.spare[spare0], md.reclaimed,
			     md.nb_reclaimed * sizeof(void *)) == 0,
		      "round %u: reclaimed %u, model %u", round,
		      q.nb_spare - spare0, md.nb_reclaimed);
		rte_pktmbuf_free_bulk(pkts, nb);
		memmove(d, &d[used], (nd - used) * sizeof(d[0]));
		nd -= used;
		mbufx_xdp_rxq_refill(&q);
	}
	free(md.posted);
	printf("model (%s, scatter %d, room %u): %" PRIu64 " frames (%" PRIu64
	       " chained, %" PRIu64 " coalesced), %" PRIu64 " invalid "
	       "descriptors, %" PRIu64 " dropped, %" PRIu64 " without scatter\n",
	       mode == MBUFX_XDP_REFILL_CLASSIC ? "classic" : "late", scatter,
	       q.buf_len, q.st.packets, q.st.chained, q.st.coalesced,
	       q.st.invalid_desc, q.st.dropped, q.st.no_scatter);
	CHECK_EQ(posted_bits(&q), q.nb_posted, "posted bitmap");
	return teardown(&q, mp);
}

static int
test_refused(void)
{
	struct rte_mempool *small;
	struct mbufx_xdp_rxq q;

	/* data room below the kernel's smallest chunk */
	small = rte_pktmbuf_pool_create("xdp_small", 64, 0, 0, 1024,
					SOCKET_ID_ANY);
	CHECK(small != NULL, "pool");
	CHECK_EQ(mbufx_xdp_rxq_init(&q, small, 0, 0, RING, SOCKET_ID_ANY),
		 -EINVAL, "small room accepted");
	CHECK_EQ(mbufx_xdp_rxq_init(&q, small, 0, 0, 100, SOCKET_ID_ANY),
		 -EINVAL, "ring size not a power of two accepted");
	rte_mempool_free(small);
	return 0;
}

static int sel_argc;
static char **sel_argv;

/* Named after the EAL's arguments (mbufx-xdp-rx-test EAL... -- mixed
 * model): only those cases run; none named: all. */
static int
want(const char *name)
{
	int i;

	for (i = 1; i < sel_argc; i++)
		if (strcmp(sel_argv[i], name) == 0)
			return 1;
	return sel_argc <= 1;
}

int
main(int argc, char **argv)
{
	struct rte_mempool *pkt, *jumbo;
	int ret;

	ret = rte_eal_init(argc, argv);
	if (ret < 0) {
		printf("SKIP: EAL init failed: %s\n", rte_strerror(rte_errno));
		return 77;
	}
	sel_argc = argc - ret;
	sel_argv = argv + ret;
	pkt = rte_pktmbuf_pool_create("xdp_pkt", NB_MBUF, 0, 0, 2176,
				      SOCKET_ID_ANY);
	jumbo = rte_pktmbuf_pool_create("xdp_jumbo", NB_MBUF, 0, 0, 9344,
					SOCKET_ID_ANY);
	if (pkt == NULL || jumbo == NULL) {
		printf("FAIL: pools: %s\n", rte_strerror(rte_errno));
		return 1;
	}
	if (want("single"))
		test_single_and_invalid(pkt);
	if (want("multi")) {
		test_multi(pkt, 1, 0);
		test_multi(pkt, 0, 0);
		test_multi(jumbo, 0, 1);
	}
	if (want("random")) {
		test_random(pkt);
		test_random(jumbo);
	}
	if (want("classic"))
		test_classic(pkt);
	if (want("mixed")) {
		test_mixed(pkt, MBUFX_XDP_REFILL_LATE);
		test_mixed(pkt, MBUFX_XDP_REFILL_CLASSIC);
	}
	if (want("tail"))
		test_tail(pkt);
	if (want("model")) {
		rte_srand(20261202);
		test_model(pkt, MBUFX_XDP_REFILL_LATE, 1);
		test_model(pkt, MBUFX_XDP_REFILL_CLASSIC, 0);
		test_model(jumbo, MBUFX_XDP_REFILL_LATE, 0);
		test_model(jumbo, MBUFX_XDP_REFILL_CLASSIC, 1);
	}
	if (want("refused"))
		test_refused();
	rte_mempool_free(pkt);
	rte_mempool_free(jumbo);
	rte_eal_cleanup();
	printf("%s: %d failure(s)\n", check_failures ? "FAIL" : "ok",
	       check_failures);
	return check_failures ? 1 : 0;
}
