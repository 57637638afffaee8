/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The mbufx authors
 */

/*
 * mbufx_diff_autotest / mbufx_diff_perf_autotest: randomized differential
 * test of libmbufx against a reference model.
 *
 * The model of every live packet is a plain byte array. A random sequence
 * of operations runs on real mbufs and on the model side by side: alloc
 * (any size, jumbo chains included), external and pinned-external buffers,
 * new readers of a packet as DPDK makes them (rte_pktmbuf_clone(),
 * rte_pktmbuf_attach() to its first segment, a second holder of the whole
 * chain with rte_pktmbuf_refcnt_update()), prepend, prepend_contig,
 * vlan_insert, pullup, unshare_hdr (also of 0 bytes), adj, trim, append,
 * chain, fan-out, writes wherever mbufx_seg_writable() allows, free, and
 * hogging zones so that allocations fall back to larger zones or fail.
 * After every call on a packet, its whole mbufx_leading_space() is
 * overwritten with random bytes, and the bytes a call promises writable
 * (prepend_contig's contig bytes, unshare_hdr's len) too: a promise that
 * reaches into bytes another packet reads shows as that packet differing
 * from its model.
 * After every step every live packet, clones sharing its data included,
 * must equal its model byte for byte, keep the data_off and data_len of
 * every segment as the last operation on it left them (a call on another
 * reference must not move them), carry its metadata (port, flags,
 * packet type, hash, VLAN tags, tx_offload; no segment with per-segment
 * INDIRECT / EXTERNAL bits that do not match its buffer) and pass
 * rte_mbuf_check(); a failed call must leave its packet and every zone's
 * count unchanged, a call the library documents as allocation-free must
 * not take an mbuf. At the end
 * every zone, the pinned pool and every external buffer must be back.
 *
 * Every sequence runs on four kinds of zone set (mbufx ops without and with
 * per-lcore caches, mbufx ops without a header zone, ring_mp_mc ops), each
 * on the EAL lcore and on a thread that is not an EAL lcore: eight runs,
 * each with its own sequence derived from the seed.
 *
 * The seed is MBUFX_TEST_SEED (printed by the runner): a failure replays
 * with MBUFX_TEST_SEED=<seed>. MBUFX_DIFF_STEPS overrides the step count
 * of each run (fast: 250 000, perf: 2 500 000); MBUFX_DIFF_TRACE=<step>
 * prints every operation from that step on.
 *
 * The engine (test_mbufx_diff.h) also runs under test/fuzz/fuzz_bufops,
 * where libFuzzer's input replaces the random generator.
 */

#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_byteorder.h>
#include <rte_cycles.h>
#include <rte_errno.h>
#include <rte_malloc.h>
#include <rte_mbuf.h>
#include <rte_mbuf_dyn.h>

#include "mbufx.h"
#include "mbufx_test.h"
#include "test_mbufx_diff.h"
#include "test_mbufx_util.h"

#define MAXP 24		/* live packets */
#define MAXLEN 12000	/* longest model */
#define HOG_MAX 512

enum op {
	OP_ALLOC, OP_EXT, OP_PINNED, OP_CLONE, OP_SHARE, OP_PREPEND,
	OP_PULLUP, OP_UNSHARE, OP_WRITE, OP_ADJ, OP_TRIM, OP_APPEND,
	OP_CHAIN, OP_FANOUT, OP_FREE, OP_HOG, OP_UNHOG, OP_PCONTIG, OP_VLAN,
	OP_ATTACH, OP_NUM
};

static const char * const op_names[OP_NUM] = {
	"alloc", "ext", "pinned", "clone", "share", "prepend", "pullup",
	"unshare", "write", "adj", "trim", "append", "chain", "fanout",
	"free", "hog", "unhog", "pcontig", "vlan", "attach",
};

/* Relative frequencies. */
static const unsigned int op_weight[OP_NUM] = {
	[OP_ALLOC] = 8, [OP_EXT] = 2, [OP_PINNED] = 2, [OP_CLONE] = 5,
	[OP_SHARE] = 3, [OP_PREPEND] = 10, [OP_PULLUP] = 8, [OP_UNSHARE] = 4,
	[OP_WRITE] = 6, [OP_ADJ] = 4, [OP_TRIM] = 3, [OP_APPEND] = 4,
	[OP_CHAIN] = 3, [OP_FANOUT] = 4, [OP_FREE] = 9, [OP_HOG] = 1,
	[OP_UNHOG] = 1, [OP_PCONTIG] = 5, [OP_VLAN] = 2, [OP_ATTACH] = 3,
};

/* Segments of a packet whose fields the model records. */
#define SEGMAX 64

struct pkt {
	struct rte_mbuf *m;
	uint8_t *b;		/* model, MAXLEN bytes */
	uint32_t len;
	uint32_t tag;		/* metadata (meta_set()) must follow */
	/* what this reference reads of each segment (the first SEGMAX),
	 * recorded after each operation on it: another reference's call
	 * must not change it */
	unsigned int nseg;
	struct {
		const struct rte_mbuf *s;
		uint16_t data_off;
		uint16_t data_len;
	} seg[SEGMAX];
};

struct diff {
	struct mbufx_zone_set *zs;
	struct pkt p[MAXP];
	unsigned int np;
	struct rte_mbuf *hog[HOG_MAX];
	unsigned int nhog;
	uint64_t rng;
	uint64_t (*next)(void *arg);	/* choices from elsewhere, or NULL */
	void *next_arg;
	uint64_t step;
	uint64_t done[OP_NUM];	/* successful operations */
	uint64_t failed[OP_NUM]; /* documented failures (ENOMEM ...) */
	uint8_t tmp[MAXLEN];
	struct rte_mempool *small;	/* the smallest zone's pool */
	uint64_t trace_from;	/* MBUFX_DIFF_TRACE: print steps from there */
	unsigned int last_i;	/* the packet the last step worked on */
	unsigned int full_every; /* diff_set_full_check() */
};

static uint64_t
rnd(struct diff *d)
{
	uint64_t z;

	if (d->next != NULL)
		return d->next(d->next_arg);
	/* splitmix64 */
	z = (d->rng += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static uint32_t
rnd_n(struct diff *d, uint32_t n)
{
	return n == 0 ? 0 : (uint32_t)(rnd(d) % n);
}

/*
 * n bytes from one choice and an LCG, eight at a time: a byte loop here
 * was most of fuzz_bufops' time (each byte went through the coverage
 * hooks). The bytes are x's in little-endian order on every host.
 */
static void
rnd_bytes(struct diff *d, uint8_t *p, uint32_t n)
{
	uint64_t x = rnd(d), w;
	uint32_t i, k;

	for (i = 0; i < n; i += 8) {
		if (i != 0)
			x = x * 6364136223846793005ull + 1442695040888963407ull;
		w = rte_cpu_to_le_64(x);
		k = n - i;
		if (k >= 8)
			memcpy(p + i, &w, 8); /* a plain store */
		else
			memcpy(p + i, &w, k);
	}
}

/* Packet sizes: mostly small, some MTU-sized, a few jumbo. */
static uint32_t
rnd_len(struct diff *d)
{
	uint32_t r = rnd_n(d, 100);

	if (r < 55)
		return rnd_n(d, 200);
	if (r < 90)
		return 200 + rnd_n(d, 1800);
	return 2000 + rnd_n(d, 7216);
}

/*
 * The engine against its reference: a difference fails the step, with the
 * framework's failure line (file:line), the step and the seed to replay it.
 */
#define FAIL(d, fmt, ...) do {						\
	TEST_FAIL_MSG("step %" PRIu64 " (seed %" PRIu64 "): " fmt,	\
		      (d)->step, mbufx_test_seed(), ##__VA_ARGS__);	\
	return TEST_FAILED;						\
} while (0)

/* Record the fields p's reference reads, after an operation on it. */
static void
snap(struct pkt *p)
{
	const struct rte_mbuf *s;
	unsigned int n = 0;

	for (s = p->m; s != NULL && n < SEGMAX; s = s->next, n++) {
		p->seg[n].s = s;
		p->seg[n].data_off = s->data_off;
		p->seg[n].data_len = s->data_len;
	}
	p->nseg = n;
}

static int
add(struct diff *d, struct rte_mbuf *m, const uint8_t *b, uint32_t len,
    uint32_t tag)
{
	struct pkt *p = &d->p[d->np++];

	p->m = m;
	p->len = len;
	p->tag = tag;
	memcpy(p->b, b, len);
	snap(p);
	return 0;
}

static void
del(struct diff *d, unsigned int i)
{
	uint8_t *b = d->p[i].b;

	d->p[i] = d->p[--d->np];
	d->p[d->np].b = b;
}

static int
same_avail(struct diff *d, const unsigned int *a0, const char *what)
{
	unsigned int a1[MBUFX_ZONE_NUM], z;

	tu_avail(d->zs, a1);
	for (z = 0; z < MBUFX_ZONE_NUM; z++)
		if (a1[z] != a0[z])
			FAIL(d, "%s: zone %u count %u -> %u", what, z, a0[z],
			     a1[z]);
	return 0;
}

/* No zone gave out an mbuf (frees are allowed). */
static int
no_alloc(struct diff *d, const unsigned int *a0, const char *what)
{
	unsigned int a1[MBUFX_ZONE_NUM], z;

	tu_avail(d->zs, a1);
	for (z = 0; z < MBUFX_ZONE_NUM; z++)
		if (a1[z] < a0[z])
			FAIL(d, "%s allocated from zone %u", what, z);
	return 0;
}

static struct rte_mbuf *
last_seg(struct rte_mbuf *m)
{
	while (m->next != NULL)
		m = m->next;
	return m;
}

/* Metadata derived from the tag: the fields the library moves to a new
 * first segment (timesync too, but rte_pktmbuf_clone() does not copy it,
 * so it is checked in mbufx_mbuf_autotest only), so that a lost or stale
 * field shows. */
#define META_FLAGS (RTE_MBUF_F_RX_VLAN | RTE_MBUF_F_RX_RSS_HASH | \
		    RTE_MBUF_F_TX_IPV4 | RTE_MBUF_F_TX_IP_CKSUM)

static void
meta_set(struct rte_mbuf *m, uint32_t tag)
{
	m->port = (uint16_t)tag;
	m->ol_flags |= META_FLAGS;
	m->packet_type = tag ^ 0x5a5a5a5a;
	m->vlan_tci = (uint16_t)(tag >> 16);
	m->vlan_tci_outer = (uint16_t)(tag >> 8);
	m->tx_offload = (uint64_t)tag * 0x100000001ull;
}

/* Every segment's INDIRECT / EXTERNAL bits match its buffer: a direct
 * segment's buffer follows its own structure, any other's does not. */
static int
seg_flags_ok(const struct rte_mbuf *m)
{
	const struct rte_mbuf *s;

	for (s = m; s != NULL; s = s->next)
		if (RTE_MBUF_DIRECT(s) != (s->buf_addr ==
		    RTE_PTR_ADD(s, sizeof(*s) + rte_pktmbuf_priv_size(s->pool))))
			return 0;
	return 1;
}

static int
meta_ok(const struct rte_mbuf *m, uint32_t tag)
{
	return seg_flags_ok(m) && m->hash.rss == tag &&
		m->port == (uint16_t)tag &&
		(m->ol_flags & ~(RTE_MBUF_F_INDIRECT | RTE_MBUF_F_EXTERNAL)) ==
		META_FLAGS &&
		m->packet_type == (tag ^ 0x5a5a5a5a) &&
		m->vlan_tci == (uint16_t)(tag >> 16) &&
		m->vlan_tci_outer == (uint16_t)(tag >> 8) &&
		m->tx_offload == (uint64_t)tag * 0x100000001ull;
}

static int
op_alloc(struct diff *d, enum op o)
{
	struct rte_mbuf *m;
	uint32_t len = rnd_len(d), room;

	if (d->np == MAXP)
		return 0;
	if (o == OP_ALLOC) {
		m = mbufx_alloc(d->zs, len);
	} else if (o == OP_EXT) {
		len = RTE_MIN(len, 2000u);
		m = tu_ext_alloc(d->small, 2000);
	} else {
		len = RTE_MIN(len, 2048u);
		m = rte_pktmbuf_alloc(tu_pinned_pool());
	}
	if (m == NULL) {
		d->failed[o]++;
		return 0;
	}
	/* vary the headroom of single segments */
	if (m->next == NULL) {
		room = m->buf_len - len;
		m->data_off = (uint16_t)rnd_n(d, RTE_MIN(room, 400u) + 1);
	}
	rnd_bytes(d, d->tmp, len);
	if (mbufx_append_data(m, d->tmp, len) != 0)
		FAIL(d, "append_data %u into a fresh mbuf", len);
	m->hash.rss = (uint32_t)rnd(d);
	meta_set(m, m->hash.rss);
	d->done[o]++;
	return add(d, m, d->tmp, len, m->hash.rss);
}

/*
 * A new reader of packet i, as DPDK makes them, with nothing else called:
 * a clone of the chain, an indirect mbuf attached to its first segment
 * (which reads that segment only), or a second holder of the same chain.
 */
static int
op_clone(struct diff *d, unsigned int i, enum op o)
{
	struct rte_mbuf *c, *m = d->p[i].m;
	uint32_t len = d->p[i].len;

	if (d->np == MAXP)
		return 0;
	if (o == OP_SHARE) {
		rte_pktmbuf_refcnt_update(m, 1);
		c = m;
	} else if (o == OP_CLONE) {
		c = rte_pktmbuf_clone(m, d->small);
	} else {
		c = rte_pktmbuf_alloc(d->small);
		if (c != NULL) {
			rte_pktmbuf_attach(c, m);
			len = m->data_len;
		}
	}
	if (c == NULL) {
		d->failed[o]++;
		return 0;
	}
	d->done[o]++;
	return add(d, c, d->p[i].b, len, d->p[i].tag);
}

/* Overwrite all the leading space the library calls writable: not part of
 * the packet, so no model changes; bytes another packet reads would. */
static void
scribble_lead(struct diff *d, struct pkt *p)
{
	uint16_t lead = mbufx_leading_space(p->m);

	if (lead != 0)
		rnd_bytes(d, rte_pktmbuf_mtod_offset(p->m, uint8_t *, -(int)lead),
			  lead);
}

static int
op_prepend(struct diff *d, unsigned int i)
{
	struct pkt *p = &d->p[i];
	unsigned int a0[MBUFX_ZONE_NUM];
	struct rte_mbuf *m0 = p->m;
	uint16_t len = (uint16_t)(rnd_n(d, 10) == 0 ? rnd_n(d, 400) :
				  rnd_n(d, 64));
	int inplace;
	uint8_t *q;

	if (p->len + len > MAXLEN)
		return 0;
	inplace = len != 0 && mbufx_leading_space(m0) >= len;
	tu_avail(d->zs, a0);
	q = mbufx_prepend(d->zs, &p->m, len);
	if (q == NULL) {
		if (rte_errno != ENOMEM)
			FAIL(d, "prepend %u: %s", len, rte_strerror(rte_errno));
		if (p->m != m0)
			FAIL(d, "failed prepend changed the head");
		d->failed[OP_PREPEND]++;
		return same_avail(d, a0, "failed prepend");
	}
	if (inplace && (p->m != m0 || no_alloc(d, a0, "in-place prepend")))
		FAIL(d, "prepend of %u should have been in place", len);
	rnd_bytes(d, q, len);
	memmove(p->b + len, p->b, p->len);
	memcpy(p->b, q, len);
	p->len += len;
	scribble_lead(d, p);
	snap(p);
	d->done[OP_PREPEND]++;
	return 0;
}

/* prepend_contig: len new bytes, the first contig of the result
 * contiguous and writable; in place when the library said it could. */
static int
op_pcontig(struct diff *d, unsigned int i)
{
	struct pkt *p = &d->p[i];
	unsigned int a0[MBUFX_ZONE_NUM];
	struct rte_mbuf *m0 = p->m;
	uint16_t len = (uint16_t)(rnd_n(d, 8) == 0 ? rnd_n(d, 300) :
				  rnd_n(d, 40));
	uint32_t contig, rest;
	int inplace, bad;
	uint8_t *q;

	if (p->len + len > MAXLEN)
		return 0;
	rest = rnd_n(d, RTE_MIN(p->len, rnd_n(d, 4) == 0 ? 2000u : 128u) + 1);
	bad = rnd_n(d, 50) == 0;
	if (bad)
		rest = p->len + 1 + rnd_n(d, 10);
	contig = len + rest;
	inplace = !bad && mbufx_leading_space(m0) >= len &&
		m0->data_len >= rest && mbufx_seg_writable(m0);
	tu_avail(d->zs, a0);
	q = mbufx_prepend_contig(d->zs, &p->m, len, contig);
	if (q == NULL) {
		if (rte_errno != (bad ? EINVAL : ENOMEM))
			FAIL(d, "pcontig %u/%u: %s", len, contig,
			     rte_strerror(rte_errno));
		if (p->m != m0)
			FAIL(d, "failed pcontig changed the head");
		d->failed[OP_PCONTIG]++;
		return same_avail(d, a0, "failed pcontig");
	}
	if (bad)
		FAIL(d, "pcontig beyond the packet worked");
	if (q != rte_pktmbuf_mtod(p->m, uint8_t *) || p->m->data_len < contig)
		FAIL(d, "pcontig %u/%u: not contiguous", len, contig);
	if (memcmp(q + len, p->b, rest) != 0)
		FAIL(d, "pcontig %u/%u: wrong bytes", len, contig);
	if (inplace && (p->m != m0 || no_alloc(d, a0, "in-place pcontig")))
		FAIL(d, "pcontig %u/%u should have been in place", len, contig);
	memmove(p->b + len, p->b, p->len);
	p->len += len;
	/* every byte promised writable is written */
	rnd_bytes(d, q, contig);
	memcpy(p->b, q, contig);
	scribble_lead(d, p);
	snap(p);
	d->done[OP_PCONTIG]++;
	return 0;
}

/* vlan_insert: the bytes of rte_vlan_insert(), l2_len + 4. */
static int
op_vlan(struct diff *d, unsigned int i)
{
	struct pkt *p = &d->p[i];
	unsigned int a0[MBUFX_ZONE_NUM];
	struct rte_mbuf *m0 = p->m;
	uint64_t l2;
	int ret;

	if (p->len + 4 > MAXLEN)
		return 0;
	l2 = m0->l2_len;
	tu_avail(d->zs, a0);
	ret = mbufx_vlan_insert(d->zs, &p->m);
	if (ret != 0) {
		if (ret != (p->len < 12 ? -EINVAL : -ENOMEM))
			FAIL(d, "vlan_insert of %u bytes: %d", p->len, ret);
		if (p->m != m0)
			FAIL(d, "failed vlan_insert changed the head");
		d->failed[OP_VLAN]++;
		return same_avail(d, a0, "failed vlan_insert");
	}
	if (p->m->l2_len != ((l2 + 4) & 0x7f))
		FAIL(d, "vlan_insert: l2_len %u", p->m->l2_len);
	p->m->l2_len = l2;	/* the model's metadata */
	memmove(p->b + 16, p->b + 12, p->len - 12);
	p->b[12] = 0x81;
	p->b[13] = 0x00;
	p->b[14] = (uint8_t)(p->m->vlan_tci >> 8);
	p->b[15] = (uint8_t)p->m->vlan_tci;
	p->len += 4;
	if (p->m->data_len < 16)
		FAIL(d, "vlan_insert: tag not in the first segment");
	scribble_lead(d, p);
	snap(p);
	d->done[OP_VLAN]++;
	return 0;
}

/* Write random bytes into a random range of the first len bytes. */
static void
scribble_front(struct diff *d, struct pkt *p, uint32_t len)
{
	uint32_t a, n;

	if (len == 0)
		return;
	a = rnd_n(d, len);
	n = 1 + rnd_n(d, len - a);
	rnd_bytes(d, rte_pktmbuf_mtod_offset(p->m, uint8_t *, a), n);
	memcpy(p->b + a, rte_pktmbuf_mtod_offset(p->m, uint8_t *, a), n);
}

static int
op_pullup(struct diff *d, unsigned int i, enum op o)
{
	struct pkt *p = &d->p[i];
	unsigned int a0[MBUFX_ZONE_NUM];
	struct rte_mbuf *m0 = p->m, *s;
	uint32_t len, need, got;
	int noalloc;
	uint8_t *q;

	if (o == OP_PULLUP)
		len = rnd_n(d, 4) == 0 ? rnd_n(d, p->len + 1) :
			rnd_n(d, RTE_MIN(p->len, 256u) + 1);
	else
		len = rnd_n(d, 4) == 0 ? 0 :
			rnd_n(d, RTE_MIN(p->len, 256u) + 1);
	len = RTE_MIN(len, 9344u);
	/* allocation-free when the head is writable and its buffer holds len,
	 * unless a shared segment structure has to be cut */
	noalloc = o == OP_PULLUP && mbufx_seg_writable(m0) &&
		m0->buf_len >= len;
	if (noalloc && m0->data_len < len) {
		need = len - m0->data_len;
		for (s = m0->next, got = 0; s != NULL; s = s->next) {
			if (got + s->data_len > need) {
				noalloc = got == need ||
					rte_mbuf_refcnt_read(s) == 1;
				break;
			}
			got += s->data_len;
			if (got == need)
				break;
		}
	}
	tu_avail(d->zs, a0);
	q = o == OP_PULLUP ? mbufx_pullup(d->zs, &p->m, len) :
		mbufx_unshare_hdr(d->zs, &p->m, len);
	if (q == NULL) {
		if (rte_errno != ENOMEM)
			FAIL(d, "%s %u of %u: %s", op_names[o], len, p->len,
			     rte_strerror(rte_errno));
		if (p->m != m0)
			FAIL(d, "failed %s changed the head", op_names[o]);
		d->failed[o]++;
		return same_avail(d, a0, "failed pullup");
	}
	if (q != rte_pktmbuf_mtod(p->m, uint8_t *) || p->m->data_len < len)
		FAIL(d, "%s %u: not contiguous", op_names[o], len);
	if (memcmp(q, p->b, len) != 0)
		FAIL(d, "%s %u: wrong bytes", op_names[o], len);
	if (noalloc && (p->m != m0 || no_alloc(d, a0, "in-place pullup")))
		FAIL(d, "pullup %u should not have allocated", len);
	if (o == OP_UNSHARE && mbufx_leading_space(p->m) !=
	    rte_pktmbuf_headroom(p->m))
		FAIL(d, "unshare_hdr %u left the headroom shared", len);
	if (o == OP_UNSHARE)
		scribble_front(d, p, len);	/* promised writable */
	else if (mbufx_seg_writable(p->m))
		scribble_front(d, p, len);
	scribble_lead(d, p);
	snap(p);
	d->done[o]++;
	return 0;
}

/* Overwrite a random range inside every writable segment. */
static int
op_write(struct diff *d, unsigned int i)
{
	struct pkt *p = &d->p[i];
	struct rte_mbuf *s;
	uint32_t off = 0, a, n;
	uint8_t *q;

	for (s = p->m; s != NULL; off += s->data_len, s = s->next) {
		if (s->data_len == 0 || !mbufx_seg_writable(s))
			continue;
		a = rnd_n(d, s->data_len);
		n = 1 + rnd_n(d, s->data_len - a);
		q = rte_pktmbuf_mtod_offset(s, uint8_t *, a);
		rnd_bytes(d, q, n);
		memcpy(p->b + off + a, q, n);
	}
	d->done[OP_WRITE]++;
	return 0;
}

static int
op_adj_trim(struct diff *d, unsigned int i, enum op o)
{
	struct pkt *p = &d->p[i];
	struct rte_mbuf *last = last_seg(p->m);
	uint16_t k;

	if (rte_mbuf_refcnt_read(p->m) != 1)
		return 0;
	if (o == OP_ADJ) {
		k = (uint16_t)rnd_n(d, p->m->data_len + 1u);
		if (rte_pktmbuf_adj(p->m, k) == NULL)
			FAIL(d, "adj %u", k);
		memmove(p->b, p->b + k, p->len - k);
	} else {
		if (rte_mbuf_refcnt_read(last) != 1)
			return 0;
		k = (uint16_t)rnd_n(d, last->data_len + 1u);
		if (rte_pktmbuf_trim(p->m, k) != 0)
			FAIL(d, "trim %u", k);
	}
	p->len -= k;
	snap(p);
	d->done[o]++;
	return 0;
}

static int
op_append(struct diff *d, unsigned int i)
{
	struct pkt *p = &d->p[i];
	uint32_t len = rnd_n(d, 300);
	int ret;

	if (p->len + len > MAXLEN)
		return 0;
	rnd_bytes(d, d->tmp, len);
	ret = mbufx_append_data(p->m, d->tmp, len);
	if (ret == -ENOSPC || ret == -EBUSY) {
		d->failed[OP_APPEND]++;
		return 0;
	}
	if (ret != 0)
		FAIL(d, "append %u: %d", len, ret);
	memcpy(p->b + p->len, d->tmp, len);
	p->len += len;
	snap(p);
	d->done[OP_APPEND]++;
	return 0;
}

static int
op_chain(struct diff *d, unsigned int i, unsigned int j)
{
	struct pkt *a = &d->p[i], *b = &d->p[j];

	if (i == j || a->len + b->len > MAXLEN ||
	    rte_mbuf_refcnt_read(a->m) != 1 ||
	    rte_mbuf_refcnt_read(last_seg(a->m)) != 1 ||
	    rte_mbuf_refcnt_read(b->m) != 1 ||
	    (uint32_t)a->m->nb_segs + b->m->nb_segs > 64)
		return 0;
	if (rte_pktmbuf_chain(a->m, b->m) != 0)
		FAIL(d, "chain");
	memcpy(a->b + a->len, b->b, b->len);
	a->len += b->len;
	del(d, j);
	snap(a);
	d->done[OP_CHAIN]++;
	return 0;
}

static int
op_fanout(struct diff *d, unsigned int i)
{
	struct rte_mbuf *copies[8], *m = d->p[i].m;
	unsigned int a0[MBUFX_ZONE_NUM], n, k;
	uint32_t len = d->p[i].len, tag = d->p[i].tag;
	uint16_t hdr_len;
	int ret;

	n = 1 + rnd_n(d, rnd_n(d, 4) == 0 ? 8 : 4);
	if (d->np - 1 + n > MAXP)
		return 0;
	/* mostly header-zone sizes, sometimes up to the jumbo buffer (9344
	 * bytes in this zone set): packet- and jumbo-zone header mbufs */
	hdr_len = (uint16_t)rnd_n(d, RTE_MIN(len, rnd_n(d, 3) != 0 ?
					     300u : 9344u) + 1);
	tu_avail(d->zs, a0);
	ret = mbufx_fanout(d->zs, m, hdr_len, copies, n);
	if (ret < 0) {
		if (ret != -ENOMEM)
			FAIL(d, "fanout %u x %u: %d", n, hdr_len, ret);
		d->failed[OP_FANOUT]++;
		return same_avail(d, a0, "failed fanout");
	}
	if (ret != (int)n)
		FAIL(d, "fanout returned %d", ret);
	memcpy(d->tmp, d->p[i].b, len);
	del(d, i);
	for (k = 0; k < n; k++) {
		add(d, copies[k], d->tmp, len, tag);
		/* every copy's first hdr_len bytes are private */
		if (copies[k]->data_len < hdr_len)
			FAIL(d, "copy %u: header not contiguous", k);
		scribble_front(d, &d->p[d->np - 1], hdr_len);
		scribble_lead(d, &d->p[d->np - 1]);
	}
	d->done[OP_FANOUT]++;
	return 0;
}

static int
op_hog(struct diff *d, enum op o)
{
	struct rte_mbuf *m;
	unsigned int k, r, z;

	if (o == OP_UNHOG) {
		rte_pktmbuf_free_bulk(d->hog, d->nhog);
		d->nhog = 0;
	} else {
		/* take most or all of what a zone (mostly the header zone)
		 * has left */
		r = rnd_n(d, 10);
		z = r < 6 ? MBUFX_ZONE_HDR : r < 8 ? MBUFX_ZONE_PKT :
			MBUFX_ZONE_JUMBO;
		k = d->nhog + (rnd_n(d, 3) == 0 ? HOG_MAX : rnd_n(d, 64));
		while (d->zs->pool[z] != NULL && d->nhog < k &&
		       d->nhog < HOG_MAX &&
		       (m = rte_pktmbuf_alloc(d->zs->pool[z])) != NULL)
			d->hog[d->nhog++] = m;
	}
	d->done[o]++;
	return 0;
}

static int
verify_one(struct diff *d, unsigned int i)
{
	const struct pkt *p = &d->p[i];
	const struct rte_mbuf *s;
	unsigned int n;

	if (tu_cmp(p->m, p->b, p->len) != 0)
		FAIL(d, "packet %u of %u differs from its model", i, d->np);
	if (!meta_ok(p->m, p->tag))
		FAIL(d, "packet %u lost its metadata", i);
	for (s = p->m, n = 0; n < p->nseg; s = s->next, n++)
		if (s != p->seg[n].s || s->data_off != p->seg[n].data_off ||
		    s->data_len != p->seg[n].data_len)
			FAIL(d, "packet %u of %u: segment %u changed under "
			     "it (data_off %u -> %u, data_len %u -> %u)", i,
			     d->np, n, p->seg[n].data_off, s->data_off,
			     p->seg[n].data_len, s->data_len);
	return 0;
}

static int
verify_all(struct diff *d)
{
	unsigned int i;

	for (i = 0; i < d->np; i++)
		if (verify_one(d, i) != 0)
			return -1;
	return 0;
}

/*
 * The check after a step: every live packet, or (diff_set_full_check())
 * the packet the step worked on and the newest one, with every packet on
 * each full_every-th step. A byte that goes wrong in a packet the step did
 * not name stays wrong, so a sparse check finds it a few steps later.
 */
static int
verify_step(struct diff *d)
{
	if (d->full_every <= 1 || d->step % d->full_every == 0)
		return verify_all(d);
	if (d->last_i < d->np && verify_one(d, d->last_i) != 0)
		return -1;
	if (d->np != 0 && d->np - 1 != d->last_i)
		return verify_one(d, d->np - 1);
	return 0;
}

static enum op
pick_op(struct diff *d)
{
	static unsigned int total;
	unsigned int r, o;

	if (total == 0)
		for (o = 0; o < OP_NUM; o++)
			total += op_weight[o];
	r = rnd_n(d, total);
	for (o = 0; r >= op_weight[o]; o++)
		r -= op_weight[o];
	return (enum op)o;
}

static int
step(struct diff *d)
{
	enum op o = pick_op(d);
	unsigned int i = rnd_n(d, d->np);

	d->last_i = i;
	if (d->step >= d->trace_from)
		printf("step %" PRIu64 ": %s on packet %u of %u (%u bytes, "
		       "%u segments)\n", d->step, op_names[o], i, d->np,
		       d->np != 0 ? d->p[i].len : 0,
		       d->np != 0 ? d->p[i].m->nb_segs : 0);

	switch (o) {
	case OP_ALLOC:
	case OP_EXT:
	case OP_PINNED:
		return op_alloc(d, o);
	case OP_HOG:
	case OP_UNHOG:
		return op_hog(d, o);
	default:
		break;
	}
	if (d->np == 0)
		return 0;
	switch (o) {
	case OP_CLONE:
	case OP_SHARE:
	case OP_ATTACH:
		return op_clone(d, i, o);
	case OP_PREPEND:
		return op_prepend(d, i);
	case OP_PULLUP:
	case OP_UNSHARE:
		return op_pullup(d, i, o);
	case OP_WRITE:
		return op_write(d, i);
	case OP_ADJ:
	case OP_TRIM:
		return op_adj_trim(d, i, o);
	case OP_APPEND:
		return op_append(d, i);
	case OP_CHAIN:
		return op_chain(d, i, rnd_n(d, d->np));
	case OP_FANOUT:
		return op_fanout(d, i);
	case OP_PCONTIG:
		return op_pcontig(d, i);
	case OP_VLAN:
		return op_vlan(d, i);
	case OP_FREE:
		rte_pktmbuf_free(d->p[i].m);
		del(d, i);
		d->done[OP_FREE]++;
		return 0;
	default:
		return -1;
	}
}

struct diff *
diff_create(struct mbufx_zone_set *zs, uint64_t seed,
	    uint64_t (*next)(void *arg), void *arg)
{
	const char *env;
	struct diff *d;
	unsigned int i;

	d = calloc(1, sizeof(*d));
	if (d == NULL)
		return NULL;
	env = getenv("MBUFX_DIFF_TRACE");
	d->trace_from = env != NULL ? strtoull(env, NULL, 0) : UINT64_MAX;
	for (i = 0; i < MAXP; i++) {
		d->p[i].b = malloc(MAXLEN);
		if (d->p[i].b == NULL) {
			diff_free(d);
			return NULL;
		}
	}
	d->zs = zs;
	d->small = zs->pool[MBUFX_ZONE_HDR] != NULL ?
		zs->pool[MBUFX_ZONE_HDR] : zs->pool[MBUFX_ZONE_PKT];
	d->rng = seed;
	d->next = next;
	d->next_arg = arg;
	return d;
}

void
diff_free(struct diff *d)
{
	unsigned int i;

	if (d == NULL)
		return;
	for (i = 0; i < MAXP; i++)
		free(d->p[i].b);
	free(d);
}

int
diff_step(struct diff *d)
{
	int ret = step(d) != 0 || verify_step(d) != 0 ? -1 : 0;

	d->step++;
	return ret;
}

void
diff_set_full_check(struct diff *d, unsigned int every)
{
	d->full_every = every;
}

int
diff_verify(struct diff *d)
{
	return verify_all(d);
}

void
diff_release(struct diff *d)
{
	unsigned int i;

	for (i = 0; i < d->np; i++)
		rte_pktmbuf_free(d->p[i].m);
	d->np = 0;
	rte_pktmbuf_free_bulk(d->hog, d->nhog);
	d->nhog = 0;
}

int
diff_audit(struct diff *d, FILE *f)
{
	struct rte_mempool *pinned = tu_pinned_pool();

	if (mbufx_zone_set_audit(d->zs, f) != 0)
		return -1;
	if (pinned != NULL && rte_mempool_avail_count(pinned) != pinned->size) {
		if (f != NULL)
			fprintf(f, "pinned pool: %u of %u mbufs back\n",
				rte_mempool_avail_count(pinned), pinned->size);
		return -1;
	}
	if (tu_ext_live != 0) {
		if (f != NULL)
			fprintf(f, "%d external buffers not freed\n", tu_ext_live);
		return -1;
	}
	return 0;
}

void
diff_print_ops(const struct diff *d, FILE *f)
{
	unsigned int i;

	for (i = 0; i < OP_NUM; i++)
		fprintf(f, "  %-8s %10" PRIu64 " done %10" PRIu64 " failed\n",
			op_names[i], d->done[i], d->failed[i]);
}

/* The zone-set kinds every sequence runs on. */
static const struct diff_kind {
	const char *name;
	const char *ops;	/* mempool ops, NULL: "mbufx" */
	int cache;		/* per-lcore caches of the default size */
	int hdr;		/* a header zone */
} diff_kinds[] = {
	{ "mbufx ops, no cache", NULL, 0, 1 },
	{ "mbufx ops, per-lcore caches", NULL, 1, 1 },
	{ "mbufx ops, no header zone", NULL, 0, 0 },
	{ "ring_mp_mc ops, no cache", "ring_mp_mc", 0, 1 },
};

unsigned int
diff_kind_count(void)
{
	return RTE_DIM(diff_kinds);
}

const char *
diff_kind_name(unsigned int kind)
{
	return kind < RTE_DIM(diff_kinds) ? diff_kinds[kind].name : NULL;
}

static struct mbufx_zone_set *
kind_zs_create(const struct diff_kind *k, const char *name)
{
	struct mbufx_zone_params p;
	unsigned int z;

	mbufx_zone_params_init(&p);
	p.count[MBUFX_ZONE_HDR] = k->hdr ? 255 : 0;
	p.count[MBUFX_ZONE_PKT] = 255;
	p.count[MBUFX_ZONE_JUMBO] = 7;
	if (!k->hdr)
		p.flags |= MBUFX_ZONE_F_NO_HDR;
	for (z = 0; z < MBUFX_ZONE_NUM; z++)
		p.cache[z] = k->cache ? 0 : MBUFX_ZONE_CACHE_NONE;
	p.ops_name = k->ops;
	return mbufx_zone_set_create(name, SOCKET_ID_ANY, &p);
}

struct mbufx_zone_set *
diff_zs_create(unsigned int kind, const char *name)
{
	if (kind >= RTE_DIM(diff_kinds)) {
		rte_errno = EINVAL;
		return NULL;
	}
	return kind_zs_create(&diff_kinds[kind], name);
}

struct diff_loop {
	struct diff *d;
	uint64_t steps;
	int ret;
};

static void *
diff_loop(void *arg)
{
	struct diff_loop *l = arg;

	l->ret = 0;
	while (l->d->step < l->steps)
		if (diff_step(l->d) != 0) {
			l->ret = -1;
			break;
		}
	return NULL;
}

/* Every kind of operation ran, and the library paths they reach. */
static int
diff_paths(const struct diff *d, const struct mbufx_zone_stats *st, int all)
{
	static const enum op must[] = {
		OP_CLONE, OP_SHARE, OP_ATTACH, OP_FREE, OP_FANOUT, OP_PREPEND,
		OP_PCONTIG, OP_UNSHARE, OP_PULLUP, OP_VLAN, OP_APPEND,
	};
	unsigned int i;

	for (i = 0; i < RTE_DIM(must); i++)
		if (d->done[must[i]] == 0) {
			printf("operation %s never done\n", op_names[must[i]]);
			return -1;
		}
	if (!st->fanout_indirect || !st->prepend_inplace ||
	    !st->prepend_chained)
		return -1;
	if (!all)
		return 0;
	return st->pullup_inplace && st->pullup_alloc && st->pullup_noop &&
		st->fanout_hdr_saved && st->fanout_deep &&
		st->jumbo_fallback && st->pkt_fallback && st->alloc_fail &&
		st->hdr_fallback && d->failed[OP_PREPEND] &&
		d->failed[OP_PULLUP] && d->failed[OP_PCONTIG] &&
		d->failed[OP_FANOUT] ? 0 : -1;
}

/* One run: kind k, on this EAL lcore or on a thread of its own that is
 * not an EAL lcore (no mempool cache, shared counter slot). */
static int
diff_run_one(const struct diff_kind *k, unsigned int run, int eal,
	     uint64_t steps, uint64_t seed)
{
	char name[MBUFX_ZONE_SET_NAMESIZE];
	struct mbufx_zone_set *zs;
	struct mbufx_zone_stats st;
	struct diff_loop l;
	struct diff *d;
	pthread_t th;
	uint64_t t0;
	unsigned int z;
	int ret = TEST_FAILED;

	snprintf(name, sizeof(name), "tdiff%u", run);
	zs = kind_zs_create(k, name);
	TEST_ASSERT_NOT_NULL(zs, "zone set: %s", rte_strerror(rte_errno));
	TEST_ASSERT_NOT_NULL(tu_pinned_pool(), "pinned pool");
	d = diff_create(zs, seed, NULL, NULL);
	TEST_ASSERT_NOT_NULL(d, "calloc");
	printf("run %u: %s, %s: %" PRIu64 " steps, engine seed %" PRIu64
	       "\n", run, k->name, eal ? "EAL lcore" : "non-EAL thread",
	       steps, seed);

	t0 = rte_get_timer_cycles();
	l.d = d;
	l.steps = steps;
	if (eal) {
		diff_loop(&l);
	} else if (pthread_create(&th, NULL, diff_loop, &l) != 0 ||
		   pthread_join(th, NULL) != 0) {
		TEST_FAIL_MSG("run %u: no non-EAL thread", run);
		goto out;
	}
	if (l.ret != 0)
		goto out;
	diff_release(d);

	printf("%" PRIu64 " steps in %.2f s\n", steps,
	       (double)(rte_get_timer_cycles() - t0) / rte_get_timer_hz());
	diff_print_ops(d, stdout);
	mbufx_zone_set_stats(d->zs, &st);
	/* the paths the test is about were all taken */
	if (steps >= 10000 && diff_paths(d, &st, run == 0) != 0) {
		mbufx_zone_set_dump(stdout, d->zs);
		TEST_FAIL_MSG("run %u: a path was never exercised", run);
		goto out;
	}
	if (diff_audit(d, stdout) != 0)
		goto out;
	ret = TEST_SUCCESS;
out:
	if (ret != TEST_SUCCESS) {
		printf("run %u (%s, %s) failed; packets: %u live; zones:", run,
		       k->name, eal ? "EAL lcore" : "non-EAL thread", d->np);
		for (z = 0; z < MBUFX_ZONE_NUM; z++)
			if (d->zs->pool[z] != NULL)
				printf(" %u", rte_mempool_avail_count(
					d->zs->pool[z]));
		printf("\n");
		/* give back what can be, for the runs that follow */
		diff_release(d);
		mbufx_zone_set_free(d->zs);
	} else {
		TEST_ASSERT_SUCCESS(mbufx_zone_set_free(d->zs), "free");
	}
	diff_free(d);
	return ret;
}

static int
diff_run(uint64_t steps)
{
	unsigned int k, eal, run = 0, bad = 0;
	uint64_t seed;

	if (mbufx_test_env_u64("MBUFX_DIFF_STEPS", steps, 1, UINT64_MAX, &steps) < 0)
		return TEST_FAILED;
	printf("differential test: seed %" PRIu64 " (replay: MBUFX_TEST_SEED=%"
	       PRIu64 "), %" PRIu64 " steps on each of %u zone-set kinds, on "
	       "an EAL lcore and a non-EAL thread\n", mbufx_test_seed(),
	       mbufx_test_seed(), steps, (unsigned int)RTE_DIM(diff_kinds));
	for (eal = 2; eal-- > 0; )
		for (k = 0; k < RTE_DIM(diff_kinds); k++, run++) {
			/* every run its own sequence, all from one seed */
			seed = mbufx_test_seed() ^ (run + 1ull) * 0xd1b54a32d192ed03ull;
			/* all runs, so that a failure shows where it occurs */
			if (diff_run_one(&diff_kinds[k], run, eal, steps,
					 seed) != TEST_SUCCESS)
				bad++;
		}
	tu_pinned_pool_free();
	TEST_ASSERT_EQUAL(bad, 0, "%u of %u runs failed", bad, run);
	return TEST_SUCCESS;
}

static int
test_mbufx_diff(void)
{
	return diff_run(250000);
}

static int
test_mbufx_diff_perf(void)
{
	return diff_run(2500000);
}

MBUFX_TEST_REGISTER(mbufx_diff_autotest, test_mbufx_diff);
MBUFX_TEST_REGISTER(mbufx_diff_perf_autotest, test_mbufx_diff_perf);
