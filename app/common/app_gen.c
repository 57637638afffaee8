/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The mbufx authors
 */

#include <errno.h>
#include <stddef.h>
#include <string.h>

#include <rte_errno.h>
#include <rte_ethdev.h>
#include <rte_memcpy.h>

#include <mbufx.h>

#include "app_gen.h"

#define GEN_RING 1024		/* posted receive descriptors (power of two) */
#define GEN_BURST 32		/* frames completed per poll */
#define GEN_SINK_BURSTS 4	/* sink bursts per poll at most */
#define GEN_HDR_MAX 128		/* header bytes written per frame at most */

/* A receive descriptor as a device sees it (a software one: no IOVA). */
struct gen_desc {
	void *addr;
};

static struct {
	struct app_gen_conf c;
	struct mbufx_rx *rx;
	uint32_t segs;		/* buffers per frame */
	uint32_t room;		/* bytes per buffer */
	uint64_t rearm;		/* classic: data_off, refcnt 1, nb_segs 1, port */
	uint32_t head, tail;	/* posted = tail - head */
	uint64_t generated, sunk, tx_drop, refill_short;
	struct mbufx_rx_meta meta[GEN_BURST];	/* late attach: what "the NIC" reports */
	uint8_t hdr[GEN_HDR_MAX];	/* the frame header, a copy of c.hdr */
	void *obj[GEN_RING];	/* the software ring: mbuf (handle) per slot */
	struct gen_desc desc[GEN_RING];
} g;

bool app_gen_active;

/* Post up to n buffers, as a PMD refills its ring; returns how many. */
static unsigned int
refill(unsigned int n)
{
	void *objs[GEN_BURST];
	unsigned int done = 0, k, i;

	while (done < n) {
		k = RTE_MIN(n - done, (unsigned int)GEN_BURST);
		if (g.rx != NULL) {
			/* late attach: handles only, addresses by arithmetic */
			if (mbufx_rx_refill_bulk(g.rx, objs, k) != 0)
				k = 0;
			for (i = 0; i < k; i++) {
				uint32_t s = g.tail++ & (GEN_RING - 1);

				g.obj[s] = objs[i];
				g.desc[s].addr = mbufx_rx_handle_addr(g.rx, objs[i]);
			}
		} else {
			/* classic: write the rearm word now, read the buffer address */
			if (rte_mempool_get_bulk(g.c.mp, objs, k) != 0)
				k = 0;
			for (i = 0; i < k; i++) {
				struct rte_mbuf *m = objs[i];
				uint32_t s = g.tail++ & (GEN_RING - 1);

				memcpy(&m->rearm_data, &g.rearm, sizeof(g.rearm));
				g.obj[s] = m;
				g.desc[s].addr = (char *)m->buf_addr + RTE_PKTMBUF_HEADROOM;
			}
		}
		done += k;
		if (k == 0) {
			g.refill_short++;
			break;
		}
	}
	return done;
}

/* Classic completion of one frame from the oldest posted buffers, with
 * the Rx flags @p ol_flags (g.c.ol_flags, read once per burst). */
static inline struct rte_mbuf *
complete_classic(uint64_t ol_flags)
{
	struct rte_mbuf *m = g.obj[g.head & (GEN_RING - 1)], *prev = NULL, *seg;
	uint32_t left = g.c.frame_len, s;

	rte_memcpy(g.desc[g.head & (GEN_RING - 1)].addr, g.c.hdr, g.c.hdr_len);
	for (s = 0; s < g.segs; s++) {
		seg = g.obj[g.head++ & (GEN_RING - 1)];
		seg->data_len = (uint16_t)RTE_MIN(left, g.room);
		seg->ol_flags = ol_flags;
		seg->packet_type = 0;
		left -= seg->data_len;
		if (prev != NULL)
			prev->next = seg;
		prev = seg;
	}
	m->nb_segs = (uint16_t)g.segs;
	m->pkt_len = g.c.frame_len;
	return m;
}

void
app_gen_poll(void)
{
	struct rte_mbuf *pkts[GEN_BURST];
	void *handles[GEN_BURST];
	unsigned int n, i;
	uint16_t sent, k;

	n = RTE_MIN((uint32_t)GEN_BURST, (g.tail - g.head) / g.segs);
	if (g.rx != NULL) {
		/* the "DMA" of the headers, then one pass over the mbuf headers */
		for (i = 0; i < n; i++) {
			uint32_t s = g.head++ & (GEN_RING - 1);

			rte_memcpy(g.desc[s].addr, g.c.hdr, g.c.hdr_len);
			handles[i] = g.obj[s];
		}
		mbufx_rx_attach_burst(g.rx, handles, g.meta, pkts, n);
	} else {
		const uint64_t ol_flags = g.c.ol_flags;

		for (i = 0; i < n; i++)
			pkts[i] = complete_classic(ol_flags);
	}
	refill(GEN_RING - (g.tail - g.head));
	sent = rte_eth_tx_burst(g.c.src_port, 0, pkts, (uint16_t)n);
	if (sent < n) {
		g.tx_drop += n - sent;
		rte_pktmbuf_free_bulk(&pkts[sent], n - sent);
	}
	g.generated += sent;
	for (i = 0; i < GEN_SINK_BURSTS; i++) {
		k = rte_eth_rx_burst(g.c.sink_port, 0, pkts, GEN_BURST);
		rte_pktmbuf_free_bulk(pkts, k);
		g.sunk += k;
		if (k < GEN_BURST)
			break;
	}
}

int
app_gen_init(const struct app_gen_conf *c)
{
	struct rte_mbuf tmpl;
	unsigned int i;

	memset(&g, 0, sizeof(g));
	g.c = *c;
	g.room = rte_pktmbuf_data_room_size(c->mp) - RTE_PKTMBUF_HEADROOM;
	g.segs = (c->frame_len + g.room - 1) / g.room;
	if (c->hdr_len > RTE_MIN(g.room, c->frame_len) || c->hdr_len > GEN_HDR_MAX ||
	    g.segs > GEN_BURST) {
		fprintf(stderr, "error: generator: %u-byte frames do not fit %u-byte buffers\n",
			c->frame_len, g.room);
		return -EINVAL;
	}
	if (c->late_attach) {
		/* a software NIC: nothing is handed to a device, no IOVA needed */
		g.rx = mbufx_rx_create(c->mp, c->src_port, MBUFX_RX_F_NO_IOVA);
		if (g.rx == NULL) {
			fprintf(stderr, "error: generator: mbufx_rx_create: %s\n",
				rte_strerror(rte_errno));
			return -rte_errno;
		}
	}
	memcpy(g.hdr, c->hdr, c->hdr_len);
	g.c.hdr = g.hdr;
	for (i = 0; i < GEN_BURST; i++) {
		g.meta[i].len = (uint16_t)c->frame_len;
		g.meta[i].ol_flags = c->ol_flags;
	}
	memset(&tmpl, 0, sizeof(tmpl));
	tmpl.data_off = RTE_PKTMBUF_HEADROOM;
	tmpl.nb_segs = 1;
	tmpl.port = c->src_port;
	rte_mbuf_refcnt_set(&tmpl, 1);
	memcpy(&g.rearm, &tmpl.rearm_data, sizeof(g.rearm));
	if (refill(GEN_RING) < GEN_RING) {
		fprintf(stderr, "error: generator: the pool cannot post %u buffers\n", GEN_RING);
		app_gen_stop();
		return -ENOMEM;
	}
	app_gen_active = true;
	printf("generator: %u-byte frames into port %u (%s, %u buffer%s each), sink port %u\n",
	       c->frame_len, c->src_port, c->late_attach ? "late attach" : "classic refill",
	       g.segs, g.segs > 1 ? "s" : "", c->sink_port);
	return 0;
}

void
app_gen_stop(void)
{
	app_gen_active = false;
	for (; g.head != g.tail; g.head++) {
		void *obj = g.obj[g.head & (GEN_RING - 1)];

		if (g.rx != NULL)
			mbufx_rx_return_handles(g.rx, &obj, 1);
		else
			rte_mempool_put(g.c.mp, obj);
	}
	mbufx_rx_free(g.rx);
	g.rx = NULL;
}

void
app_gen_json(FILE *f)
{
	fprintf(f, ", \"gen\": {\"frame_len\": %u, \"late_attach\": %s, \"segs\": %u, "
		"\"ol_flags\": %" PRIu64 ", \"generated\": %" PRIu64 ", \"sunk\": %" PRIu64
		", \"tx_drop\": %" PRIu64 ", \"refill_short\": %" PRIu64 "}", g.c.frame_len,
		g.c.late_attach ? "true" : "false", g.segs, g.c.ol_flags, g.generated, g.sunk,
		g.tx_drop, g.refill_short);
}
