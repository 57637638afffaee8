/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The mbufx authors
 */

/*
 * mbufx_mbuf_autotest: writability predicates, prepend, pullup,
 * unshare_hdr and fan-out.
 *
 * Protects, across direct, indirect (clone), external and pinned-external
 * mbufs, single and multi-segment, exact headroom and headroom - 1:
 * - the writability table of mbufx_mbuf.h;
 * - prepend writes in place exactly when the first segment is writable
 *   with room, else chains a header (metadata moved, old segment untouched);
 * - pullup moves no more than needed, allocates nothing when the first
 *   segment is writable, never writes shared bytes or shared structures;
 * - fan-out gives n copies with private header bytes, n - 1 header
 *   allocations when the original is private;
 * - every documented errno, and that a failure changes and leaks nothing,
 *   with the zones short by any number of mbufs (every allocation point);
 * - fan-out's reference-count limit when several segments share one data
 *   owner; headers made contiguous after a chained prepend satisfy the
 *   checksum preparation of rte_eth_tx_prepare();
 * - and why the library exists: stock rte_pktmbuf_prepend() on a clone
 *   corrupts the other clone, mbufx_prepend() does not.
 */

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <rte_errno.h>
#include <rte_ether.h>
#include <rte_ip.h>
#include <rte_mbuf.h>
#include <rte_mbuf_dyn.h>
#include <rte_net.h>
#include <rte_udp.h>

#include "mbufx.h"
#include "mbufx_test.h"
#include "test_mbufx_util.h"

#define MAXB 12000

static struct mbufx_zone_set *zs;
static int dyn_off = -1;

static int
suite_setup(void)
{
	static const struct rte_mbuf_dynfield dyn = {
		.name = "mbufx_test_dynfield",
		.size = sizeof(uint64_t),
		.align = __alignof__(uint64_t),
	};

	zs = tu_zs_create("tm");
	TEST_ASSERT_NOT_NULL(zs, "create: %s", rte_strerror(rte_errno));
	dyn_off = rte_mbuf_dynfield_register(&dyn);
	TEST_ASSERT(dyn_off >= 0, "dynfield: %s", rte_strerror(rte_errno));
	return TEST_SUCCESS;
}

static void
suite_teardown(void)
{
	mbufx_zone_set_free(zs);
	zs = NULL;
	tu_pinned_pool_free();
}

/* Every zone (and the pinned pool, and external buffers) back. */
#define ASSERT_NO_LEAK() do {						\
	TEST_ASSERT_SUCCESS(mbufx_zone_set_audit(zs, stdout), "leak");	\
	if (tu_pinned_pool() != NULL)					\
		TEST_ASSERT_EQUAL(rte_mempool_avail_count(tu_pinned_pool()), \
				  tu_pinned_pool()->size, "pinned leak"); \
	TEST_ASSERT_EQUAL(tu_ext_live, 0, "external buffers leaked");	\
} while (0)

#define ASSERT_AVAIL_SAME(before, msg) do {				\
	unsigned int now_[MBUFX_ZONE_NUM], z_;				\
	tu_avail(zs, now_);						\
	for (z_ = 0; z_ < MBUFX_ZONE_NUM; z_++)				\
		TEST_ASSERT_EQUAL(now_[z_], (before)[z_],		\
				  "zone %u: %s", z_, msg);		\
} while (0)

/* Every mbuf of all zones fits. */
#define ALL_N (TU_HDR_N + TU_PKT_N + TU_JUMBO_N)

/* Drain zone z and every larger one: the library falls back to those when
 * the zone that fits is dry. Returns the count taken into v. */
static unsigned int
drain_from(unsigned int z, struct rte_mbuf **v, unsigned int cap)
{
	unsigned int n = 0;

	for (; z < MBUFX_ZONE_NUM; z++)
		n += tu_drain(zs->pool[z], &v[n], cap - n);
	return n;
}

/* Kinds whose first segment is writable when built by tu_make(). */
static int
kind_writable(enum tu_kind k)
{
	return k == TU_DIRECT || k == TU_INDIRECT_SOLE || k == TU_EXT ||
		k == TU_PINNED;
}

/* Recognisable metadata on a head segment. */
static void
meta_set(struct rte_mbuf *m)
{
	m->port = 7;
	m->ol_flags |= RTE_MBUF_F_RX_VLAN | RTE_MBUF_F_RX_RSS_HASH |
		RTE_MBUF_F_TX_IPV4 | RTE_MBUF_F_TX_IP_CKSUM;
	m->packet_type = RTE_PTYPE_L2_ETHER | RTE_PTYPE_L3_IPV4 |
		RTE_PTYPE_L4_UDP;
	m->hash.rss = 0xdeadbeef;
	m->vlan_tci = 100;
	m->vlan_tci_outer = 200;
	m->l2_len = 14;
	m->l3_len = 20;
	m->l4_len = 8;
	m->outer_l2_len = 3;
	m->timesync = 5;
	*RTE_MBUF_DYNFIELD(m, dyn_off, uint64_t *) = 0x1122334455667788ull;
}

static int
meta_check(const struct rte_mbuf *m)
{
	const uint64_t want = RTE_MBUF_F_RX_VLAN | RTE_MBUF_F_RX_RSS_HASH |
		RTE_MBUF_F_TX_IPV4 | RTE_MBUF_F_TX_IP_CKSUM;

	TEST_ASSERT_EQUAL(m->port, 7, "port");
	TEST_ASSERT_EQUAL(m->ol_flags & ~(RTE_MBUF_F_INDIRECT |
			  RTE_MBUF_F_EXTERNAL), want, "ol_flags");
	TEST_ASSERT_EQUAL(m->packet_type, RTE_PTYPE_L2_ETHER |
			  RTE_PTYPE_L3_IPV4 | RTE_PTYPE_L4_UDP, "ptype");
	TEST_ASSERT_EQUAL(m->hash.rss, 0xdeadbeef, "rss");
	TEST_ASSERT_EQUAL(m->vlan_tci, 100, "vlan");
	TEST_ASSERT_EQUAL(m->vlan_tci_outer, 200, "outer vlan");
	TEST_ASSERT(m->l2_len == 14 && m->l3_len == 20 && m->l4_len == 8 &&
		    m->outer_l2_len == 3, "tx_offload");
	TEST_ASSERT_EQUAL(m->timesync, 5, "timesync");
	TEST_ASSERT(*RTE_MBUF_DYNFIELD(m, dyn_off, const uint64_t *) ==
		    0x1122334455667788ull, "dynfield");
	return TEST_SUCCESS;
}

/* ---- predicates ------------------------------------------------------ */

static int
test_writable_table(void)
{
	struct rte_mbuf *m, *o, *c;
	enum tu_kind k;

	for (k = 0; k < TU_KIND_NUM; k++) {
		m = tu_make(k, zs, 100, 50, k, &o);
		TEST_ASSERT_NOT_NULL(m, "make %s", tu_kind_names[k]);
		TEST_ASSERT_EQUAL(mbufx_seg_writable(m), kind_writable(k),
				  "%s", tu_kind_names[k]);
		if (kind_writable(k)) {
			TEST_ASSERT_EQUAL(mbufx_leading_space(m), 100, "lead");
			TEST_ASSERT_EQUAL(mbufx_trailing_space(m),
					  rte_pktmbuf_tailroom(m), "trail");
		} else {
			TEST_ASSERT_EQUAL(mbufx_leading_space(m), 0, "lead");
			TEST_ASSERT_EQUAL(mbufx_trailing_space(m), 0, "trail");
		}
		if (o != NULL) {
			/* the other reference is shared as well */
			TEST_ASSERT(!mbufx_seg_writable(o), "other %s",
				    tu_kind_names[k]);
			rte_pktmbuf_free(o);
			/* ... and once it is gone the data is ours */
			TEST_ASSERT(mbufx_seg_writable(m), "sole %s",
				    tu_kind_names[k]);
		}
		/* the structure itself shared: never writable */
		rte_mbuf_refcnt_update(m, 1);
		TEST_ASSERT(!mbufx_seg_writable(m), "struct shared %s",
			    tu_kind_names[k]);
		TEST_ASSERT_EQUAL(mbufx_leading_space(m), 0, "lead");
		rte_pktmbuf_free(m);
		TEST_ASSERT(mbufx_seg_writable(m), "refcnt back to 1");
		/* a clone makes both sides shared */
		c = rte_pktmbuf_clone(m, zs->pool[MBUFX_ZONE_HDR]);
		TEST_ASSERT_NOT_NULL(c, "clone");
		TEST_ASSERT(!mbufx_seg_writable(m) && !mbufx_seg_writable(c),
			    "cloned %s", tu_kind_names[k]);
		/* freeing the original: the clone is the sole holder (for a
		 * pinned buffer the original mbuf stays out until then) */
		rte_pktmbuf_free(m);
		TEST_ASSERT(mbufx_seg_writable(c), "clone sole %s",
			    tu_kind_names[k]);
		rte_pktmbuf_free(c);
	}
	ASSERT_NO_LEAK();
	return TEST_SUCCESS;
}

/* ---- prepend --------------------------------------------------------- */

static int
prepend_case(enum tu_kind k, uint16_t len, uint16_t headroom)
{
	uint8_t exp[MAXB], hdr[256];
	unsigned int a0[MBUFX_ZONE_NUM], a1[MBUFX_ZONE_NUM];
	struct mbufx_zone_stats s0, s1;
	struct rte_mbuf *m, *o, *m0;
	uint16_t off0, dlen0;
	uint8_t *p;
	int inplace;

	m = tu_make(k, zs, headroom, 300, 77, &o);
	TEST_ASSERT_NOT_NULL(m, "make");
	meta_set(m);
	m0 = m;
	off0 = m->data_off;
	dlen0 = m->data_len;
	tu_pattern(hdr, len, 5);
	memcpy(exp, hdr, len);
	tu_pattern(exp + len, 300, 77);
	inplace = kind_writable(k) && headroom >= len;

	tu_avail(zs, a0);
	mbufx_zone_set_stats(zs, &s0);
	p = mbufx_prepend(zs, &m, len);
	TEST_ASSERT_NOT_NULL(p, "prepend: %s", rte_strerror(rte_errno));
	memcpy(p, hdr, len);
	tu_avail(zs, a1);
	mbufx_zone_set_stats(zs, &s1);
	TEST_ASSERT_SUCCESS(tu_cmp(m, exp, 300 + len), "content");
	TEST_RUN(meta_check(m));
	if (inplace) {
		TEST_ASSERT(m == m0, "same head");
		TEST_ASSERT_EQUAL(m->nb_segs, 1, "segments");
		TEST_ASSERT_EQUAL(a1[MBUFX_ZONE_HDR], a0[MBUFX_ZONE_HDR],
				  "no allocation");
		TEST_ASSERT_EQUAL(s1.prepend_inplace - s0.prepend_inplace, 1,
				  "counted");
	} else {
		TEST_ASSERT(m != m0 && m->next == m0, "chained");
		TEST_ASSERT_EQUAL(m->nb_segs, 2, "segments");
		TEST_ASSERT(m->pool == zs->pool[MBUFX_ZONE_HDR], "hdr zone");
		TEST_ASSERT_EQUAL(a0[MBUFX_ZONE_HDR] - a1[MBUFX_ZONE_HDR], 1,
				  "one header");
		TEST_ASSERT_EQUAL(rte_pktmbuf_tailroom(m), 0, "bytes at end");
		TEST_ASSERT_EQUAL(mbufx_leading_space(m), m->buf_len - len,
				  "leading space for more prepends");
		TEST_ASSERT(m0->data_off == off0 && m0->data_len == dlen0,
			    "old first segment untouched");
		TEST_ASSERT_EQUAL(s1.prepend_chained - s0.prepend_chained, 1,
				  "counted");
		/* the next prepend goes in place into the header */
		p = mbufx_prepend(zs, &m, 4);
		TEST_ASSERT(p != NULL && m->nb_segs == 2, "second prepend");
		memmove(exp + 4, exp, 300 + len);
		memset(exp, 0xab, 4);
		memset(p, 0xab, 4);
		TEST_ASSERT_SUCCESS(tu_cmp(m, exp, 304 + len), "content 2");
		memmove(exp, exp + 4, 300 + len);
	}
	if (o != NULL) {
		/* the other reference still reads the original bytes */
		TEST_ASSERT_SUCCESS(tu_cmp(o, exp + len, 300), "other intact");
		rte_pktmbuf_free(o);
	}
	rte_pktmbuf_free(m);
	return TEST_SUCCESS;
}

static int
test_prepend_kinds(void)
{
	static const uint16_t lens[] = { 4, 8, 18, 50 };
	enum tu_kind k;
	unsigned int i;

	for (k = 0; k < TU_KIND_NUM; k++)
		for (i = 0; i < RTE_DIM(lens); i++) {
			printf("    %s, %u bytes, headroom exact / minus one\n",
			       tu_kind_names[k], lens[i]);
			TEST_RUN(prepend_case(k, lens[i], lens[i]));
			TEST_RUN(prepend_case(k, lens[i], lens[i] - 1));
			TEST_RUN(prepend_case(k, lens[i], 128));
		}
	ASSERT_NO_LEAK();
	return TEST_SUCCESS;
}

static int
test_prepend_multiseg(void)
{
	uint8_t exp[MAXB];
	struct rte_mbuf *m, *t, *o;
	uint8_t *p;

	/* direct head + clone tail: head writable -> in place */
	m = tu_make(TU_DIRECT, zs, 64, 100, 1, &o);
	t = tu_make(TU_INDIRECT, zs, 128, 200, 2, &o);
	TEST_ASSERT(m != NULL && t != NULL, "make");
	TEST_ASSERT_SUCCESS(rte_pktmbuf_chain(m, t), "chain");
	tu_read(m, exp + 14, MAXB);
	p = mbufx_prepend(zs, &m, 14);
	TEST_ASSERT(p != NULL && m->nb_segs == 2, "in place");
	memset(p, 0x11, 14);
	memset(exp, 0x11, 14);
	TEST_ASSERT_SUCCESS(tu_cmp(m, exp, 314), "content");
	TEST_ASSERT_SUCCESS(tu_cmp(o, exp + 114, 200), "tail owner intact");
	rte_pktmbuf_free(o);
	rte_pktmbuf_free(m);

	/* clone of a 2-segment packet: both segments shared -> chained */
	m = tu_make(TU_DIRECT, zs, 64, 100, 1, &o);
	t = tu_make(TU_DIRECT, zs, 0, 1000, 3, &o);
	TEST_ASSERT_SUCCESS(rte_pktmbuf_chain(m, t), "chain");
	o = rte_pktmbuf_clone(m, zs->pool[MBUFX_ZONE_HDR]);
	TEST_ASSERT_NOT_NULL(o, "clone");
	tu_read(m, exp + 20, MAXB);
	p = mbufx_prepend(zs, &o, 20);
	TEST_ASSERT(p != NULL && o->nb_segs == 3 && o->pkt_len == 1120,
		    "chained");
	memset(p, 0x22, 20);
	memset(exp, 0x22, 20);
	TEST_ASSERT_SUCCESS(tu_cmp(o, exp, 1120), "clone content");
	TEST_ASSERT_SUCCESS(tu_cmp(m, exp + 20, 1100), "original intact");
	rte_pktmbuf_free(o);
	rte_pktmbuf_free(m);
	ASSERT_NO_LEAK();
	return TEST_SUCCESS;
}

#define PREPEND_FAILS(z, mp, len, err) do {				\
	rte_errno = 0;							\
	TEST_ASSERT_NULL(mbufx_prepend(z, mp, len), "should fail");	\
	TEST_ASSERT_EQUAL(rte_errno, err, "errno");			\
} while (0)

/*
 * The packet the error cases prepend to: an indirect mbuf of 200 bytes
 * (its owner in *o), its bytes in exp.
 */
static struct rte_mbuf *
prepend_err_packet(struct rte_mbuf **o, uint8_t *exp)
{
	struct rte_mbuf *m = tu_make(TU_INDIRECT, zs, 128, 200, 4, o);

	if (m != NULL)
		tu_read(m, exp, MAXB);
	return m;
}

/* Bad arguments fail with EINVAL; len 0 is the data start, no change. */
static int
test_prepend_bad_args(void)
{
	struct rte_mbuf *m, *o, *m0, *null = NULL;
	unsigned int a0[MBUFX_ZONE_NUM];
	uint8_t exp[MAXB];
	void *p;

	m = prepend_err_packet(&o, exp);
	TEST_ASSERT_NOT_NULL(m, "make");
	PREPEND_FAILS(NULL, &m, 4, EINVAL);
	PREPEND_FAILS(zs, NULL, 4, EINVAL);
	PREPEND_FAILS(zs, &null, 4, EINVAL);
	PREPEND_FAILS(zs, &m, 9345, EINVAL); /* no zone buffer that big */

	/* len 0: the data start, nothing changes, also when shared */
	m0 = m;
	tu_avail(zs, a0);
	p = mbufx_prepend(zs, &m, 0);
	TEST_ASSERT(p == rte_pktmbuf_mtod(m0, void *) && m == m0, "len 0");
	ASSERT_AVAIL_SAME(a0, "len 0");
	TEST_ASSERT_SUCCESS(tu_cmp(m, exp, 200), "content unchanged");
	rte_pktmbuf_free(m);
	rte_pktmbuf_free(o);
	ASSERT_NO_LEAK();
	return TEST_SUCCESS;
}

/*
 * A header the header zone cannot give comes from the packet zone: too big
 * for a header-zone buffer, or the header zone empty (counted). Every zone
 * empty: ENOMEM, packet and pools unchanged.
 */
static int
test_prepend_zone_fallback(void)
{
	static struct rte_mbuf *hv[ALL_N];
	struct rte_mbuf *m, *o, *m0;
	struct mbufx_zone_stats s0, s1;
	unsigned int a0[MBUFX_ZONE_NUM], n;
	uint8_t exp[MAXB];
	void *p;

	m = prepend_err_packet(&o, exp);
	TEST_ASSERT_NOT_NULL(m, "make");
	m0 = m;
	p = mbufx_prepend(zs, &m, 300);
	TEST_ASSERT(p != NULL && m->pool == zs->pool[MBUFX_ZONE_PKT], "300");
	memset(p, 1, 300);
	TEST_ASSERT(m->next == m0 && m0->data_len == 200, "chained");
	/* drop the header again; a segment made head again by hand needs a
	 * head's nb_segs (debug checks mark demoted heads with 0) */
	rte_pktmbuf_free_seg(m);
	m = m0;
	m->nb_segs = 1;

	/* header zone empty: the header comes from the packet zone, counted */
	n = tu_drain(zs->pool[MBUFX_ZONE_HDR], hv, RTE_DIM(hv));
	mbufx_zone_set_stats(zs, &s0);
	p = mbufx_prepend(zs, &m, 4);
	mbufx_zone_set_stats(zs, &s1);
	TEST_ASSERT(p != NULL && m->pool == zs->pool[MBUFX_ZONE_PKT] &&
		    m->next == m0, "packet-zone header");
	TEST_ASSERT_EQUAL(s1.hdr_fallback - s0.hdr_fallback, 1, "counted");
	TEST_ASSERT_EQUAL(s1.alloc[MBUFX_ZONE_PKT] - s0.alloc[MBUFX_ZONE_PKT],
			  1, "alloc counted in the zone that served");
	rte_pktmbuf_free_seg(m);
	m = m0;
	m->nb_segs = 1;
	/* every zone empty: ENOMEM, packet and pools unchanged */
	n += drain_from(MBUFX_ZONE_PKT, &hv[n], RTE_DIM(hv) - n);
	tu_avail(zs, a0);
	PREPEND_FAILS(zs, &m, 4, ENOMEM);
	PREPEND_FAILS(zs, &m, 300, ENOMEM);
	TEST_ASSERT(m == m0, "head unchanged");
	TEST_ASSERT_SUCCESS(tu_cmp(m, exp, 200), "content unchanged");
	ASSERT_AVAIL_SAME(a0, "nothing allocated");
	rte_pktmbuf_free_bulk(hv, n);
	rte_pktmbuf_free(m);
	rte_pktmbuf_free(o);
	ASSERT_NO_LEAK();
	return TEST_SUCCESS;
}

/*
 * EOVERFLOW, nothing allocated, the packet unchanged: too many segments, or
 * more than UINT32_MAX bytes (pkt_len faked, then restored), chained and in
 * place; a header that exactly fits is prepended.
 */
static int
test_prepend_overflow(void)
{
	struct rte_mbuf *m, *o, *m0, *d, *d0, *no;
	unsigned int a0[MBUFX_ZONE_NUM];
	uint8_t exp[MAXB];
	uint16_t off;

	m = prepend_err_packet(&o, exp);
	TEST_ASSERT_NOT_NULL(m, "make");
	m0 = m;
	m->nb_segs = RTE_MBUF_MAX_NB_SEGS;
	tu_avail(zs, a0);
	PREPEND_FAILS(zs, &m, 4, EOVERFLOW);
	ASSERT_AVAIL_SAME(a0, "nothing allocated");
	m->nb_segs = 1;
	TEST_ASSERT_SUCCESS(tu_cmp(m, exp, 200), "content unchanged");

	m->pkt_len = UINT32_MAX - 2;
	tu_avail(zs, a0);
	PREPEND_FAILS(zs, &m, 4, EOVERFLOW);
	ASSERT_AVAIL_SAME(a0, "nothing allocated");
	TEST_ASSERT(m == m0 && m->data_len == 200, "unchanged");
	m->pkt_len = 200;

	d = tu_make(TU_DIRECT, zs, 128, 100, 5, &no);
	TEST_ASSERT_NOT_NULL(d, "make");
	d0 = d;
	off = d->data_off;
	d->pkt_len = UINT32_MAX - 3;
	PREPEND_FAILS(zs, &d, 4, EOVERFLOW);
	TEST_ASSERT(d == d0 && d->data_off == off &&
		    d->data_len == 100, "in-place path unchanged");
	d->pkt_len = UINT32_MAX - 4;
	TEST_ASSERT_NOT_NULL(mbufx_prepend(zs, &d, 4), "exactly fits");
	TEST_ASSERT(d == d0 && d->pkt_len == UINT32_MAX, "in place");
	d->pkt_len = 104;
	rte_pktmbuf_free(d);
	rte_pktmbuf_free(m);
	rte_pktmbuf_free(o);
	ASSERT_NO_LEAK();
	return TEST_SUCCESS;
}
#undef PREPEND_FAILS

/* ---- pullup ---------------------------------------------------------- */

/* A packet: first segment of kind k with l0 bytes (headroom h0), then
 * direct segments of the given lengths. Bytes go to exp. */
static struct rte_mbuf *
mk_packet(enum tu_kind k, uint16_t h0, uint16_t l0, const uint16_t *tails,
	  unsigned int nt, uint8_t *exp, struct rte_mbuf **other)
{
	struct rte_mbuf *m, *t, *o;
	unsigned int i;

	m = tu_make(k, zs, h0, l0, 100, other);
	if (m == NULL)
		return NULL;
	for (i = 0; i < nt; i++) {
		t = tu_make(TU_DIRECT, zs, 0, tails[i], 200 + i, &o);
		if (t == NULL || rte_pktmbuf_chain(m, t) != 0) {
			rte_pktmbuf_free(m);
			return NULL;
		}
	}
	tu_read(m, exp, MAXB);
	return m;
}

static int
pullup_check(struct rte_mbuf *m, const uint8_t *exp, uint32_t len, void *p)
{
	TEST_ASSERT_NOT_NULL(p, "pullup: %s", rte_strerror(rte_errno));
	TEST_ASSERT(p == rte_pktmbuf_mtod(m, void *), "pointer");
	TEST_ASSERT(m->data_len >= len, "contiguous");
	TEST_ASSERT_SUCCESS(tu_cmp(m, exp, m->pkt_len), "content");
	return TEST_SUCCESS;
}

static int
test_pullup_kinds(void)
{
	static const uint16_t tails[] = { 30, 0, 500 };
	uint8_t exp[MAXB], oexp[MAXB];
	unsigned int a0[MBUFX_ZONE_NUM], a1[MBUFX_ZONE_NUM];
	struct mbufx_zone_stats s0, s1;
	struct rte_mbuf *m, *o, *m0;
	enum tu_kind k;
	void *p;

	for (k = 0; k < TU_KIND_NUM; k++) {
		printf("    %s head, pull 64 and 128 of 20 + 30 + 0 + 500\n",
		       tu_kind_names[k]);
		m = mk_packet(k, 128, 20, tails, RTE_DIM(tails), exp, &o);
		TEST_ASSERT_NOT_NULL(m, "make");
		meta_set(m);
		if (o != NULL)
			tu_read(o, oexp, MAXB);
		m0 = m;
		tu_avail(zs, a0);
		mbufx_zone_set_stats(zs, &s0);
		p = mbufx_pullup(zs, &m, 64);
		TEST_RUN(pullup_check(m, exp, 64, p));
		TEST_RUN(meta_check(m));
		tu_avail(zs, a1);
		mbufx_zone_set_stats(zs, &s1);
		if (kind_writable(k)) {
			TEST_ASSERT(m == m0, "same head");
			TEST_ASSERT_EQUAL(m->data_len, 64, "exactly 64");
			TEST_ASSERT_EQUAL(m->data_off, 128,
					  "enough tailroom: the data stays");
			TEST_ASSERT_EQUAL(a1[MBUFX_ZONE_HDR], a0[MBUFX_ZONE_HDR],
					  "no allocation");
			/* 30 and 0 consumed, 14 off the 500 */
			TEST_ASSERT_EQUAL(m->nb_segs, 2, "segments freed");
			TEST_ASSERT_EQUAL(a1[MBUFX_ZONE_PKT] - a0[MBUFX_ZONE_PKT],
					  2, "freed to the pool");
			TEST_ASSERT_EQUAL(s1.pullup_inplace - s0.pullup_inplace,
					  1, "counted");
		} else {
			TEST_ASSERT(m != m0, "fresh head");
			TEST_ASSERT(m->pool == zs->pool[MBUFX_ZONE_HDR], "hdr");
			TEST_ASSERT_EQUAL(s1.pullup_alloc - s0.pullup_alloc, 1,
					  "counted");
			TEST_ASSERT_EQUAL(m->nb_segs, 2, "old head consumed");
		}
		/* a second pullup of fewer bytes is a no-op */
		m0 = m;
		p = mbufx_pullup(zs, &m, 50);
		TEST_ASSERT(m == m0, "noop");
		TEST_RUN(pullup_check(m, exp, 50, p));
		/* and more bytes again */
		p = mbufx_pullup(zs, &m, 128);
		TEST_RUN(pullup_check(m, exp, 128, p));
		/* everything */
		p = mbufx_pullup(zs, &m, m->pkt_len);
		TEST_RUN(pullup_check(m, exp, 550, p));
		TEST_ASSERT_EQUAL(m->nb_segs, 1, "one segment");
		if (o != NULL) {
			TEST_ASSERT_SUCCESS(tu_cmp(o, oexp, o->pkt_len),
					    "other reference intact");
			rte_pktmbuf_free(o);
		}
		rte_pktmbuf_free(m);
	}
	ASSERT_NO_LEAK();
	return TEST_SUCCESS;
}

static int
test_pullup_move(void)
{
	static const uint16_t tails[] = { 200 };
	uint8_t exp[MAXB];
	unsigned int a0[MBUFX_ZONE_NUM];
	struct rte_mbuf *m, *o, *m0;
	void *p;

	/* first segment ends at the end of its buffer: the data has to move
	 * towards the front, exactly as far as needed */
	m = mk_packet(TU_DIRECT, 2176 - 100, 100, tails, 1, exp, &o);
	TEST_ASSERT_NOT_NULL(m, "make");
	TEST_ASSERT_EQUAL(rte_pktmbuf_tailroom(m), 0, "no tailroom");
	m0 = m;
	tu_avail(zs, a0);
	p = mbufx_pullup(zs, &m, 250);
	TEST_RUN(pullup_check(m, exp, 250, p));
	TEST_ASSERT(m == m0, "in place");
	TEST_ASSERT_EQUAL(m->data_off, 2176 - 250, "moved by 150 only");
	TEST_ASSERT_EQUAL(m->next->data_len, 50, "rest");
	TEST_ASSERT_EQUAL(a0[MBUFX_ZONE_HDR],
			  rte_mempool_avail_count(zs->pool[MBUFX_ZONE_HDR]),
			  "no allocation");
	rte_pktmbuf_free(m);

	/* whole buffer: len == buf_len still in place */
	{
		static const uint16_t t2[] = { 2000, 500 };

		m = mk_packet(TU_DIRECT, 100, 176, t2, 2, exp, &o);
		m0 = m;
		p = mbufx_pullup(zs, &m, 2176);
		TEST_RUN(pullup_check(m, exp, 2176, p));
		TEST_ASSERT(m == m0 && m->data_off == 0, "whole buffer");
		/* one more byte does not fit this buffer: fresh segment
		 * (from the jumbo zone) */
		p = mbufx_pullup(zs, &m, 2177);
		TEST_RUN(pullup_check(m, exp, 2177, p));
		TEST_ASSERT(m->pool == zs->pool[MBUFX_ZONE_JUMBO], "jumbo");
		rte_pktmbuf_free(m);
	}
	ASSERT_NO_LEAK();
	return TEST_SUCCESS;
}

static int
test_pullup_shared_struct(void)
{
	static const uint16_t tails[] = { 300 };
	uint8_t exp[MAXB];
	unsigned int a0[MBUFX_ZONE_NUM], a1[MBUFX_ZONE_NUM];
	struct mbufx_zone_stats s0, s1;
	struct rte_mbuf *m, *o, *t;
	uint16_t toff, tlen;
	void *p;

	/* the second segment's structure is shared with another chain:
	 * it must not be shortened in place */
	m = mk_packet(TU_DIRECT, 128, 20, tails, 1, exp, &o);
	TEST_ASSERT_NOT_NULL(m, "make");
	t = m->next;
	rte_mbuf_refcnt_update(t, 1); /* the other holder */
	toff = t->data_off;
	tlen = t->data_len;
	tu_avail(zs, a0);
	mbufx_zone_set_stats(zs, &s0);
	p = mbufx_pullup(zs, &m, 64);
	TEST_RUN(pullup_check(m, exp, 64, p));
	tu_avail(zs, a1);
	mbufx_zone_set_stats(zs, &s1);
	TEST_ASSERT(t->data_off == toff && t->data_len == tlen,
		    "shared structure untouched");
	TEST_ASSERT(m->next != t && RTE_MBUF_CLONED(m->next), "replacement");
	TEST_ASSERT_EQUAL(a0[MBUFX_ZONE_HDR] - a1[MBUFX_ZONE_HDR], 1,
			  "one indirect mbuf");
	TEST_ASSERT_EQUAL(s1.pullup_alloc - s0.pullup_alloc, 1, "counted");
	TEST_ASSERT_SUCCESS(tu_cmp(t, exp + 20, 300), "other holder's view");
	rte_pktmbuf_free(m);
	TEST_ASSERT_EQUAL(rte_mbuf_refcnt_read(t), 1, "our reference dropped");
	rte_pktmbuf_free(t);

	/* same with the header zone empty: ENOMEM, nothing changed */
	m = mk_packet(TU_DIRECT, 128, 20, tails, 1, exp, &o);
	t = m->next;
	rte_mbuf_refcnt_update(t, 1);
	{
		static struct rte_mbuf *hv[ALL_N];
		unsigned int n = drain_from(MBUFX_ZONE_HDR, hv, RTE_DIM(hv));

		tu_avail(zs, a0);
		rte_errno = 0;
		TEST_ASSERT_NULL(mbufx_pullup(zs, &m, 64), "ENOMEM");
		TEST_ASSERT_EQUAL(rte_errno, ENOMEM, "errno");
		ASSERT_AVAIL_SAME(a0, "nothing allocated");
		TEST_ASSERT_SUCCESS(tu_cmp(m, exp, 320), "unchanged");
		TEST_ASSERT_EQUAL(m->data_len, 20, "unchanged");
		rte_pktmbuf_free_bulk(hv, n);
	}
	rte_pktmbuf_free(m);
	rte_pktmbuf_free(t);

	/* the first segment's structure shared: fresh head, and the shared
	 * head is replaced when only part of it is consumed */
	m = mk_packet(TU_DIRECT, 128, 200, tails, 1, exp, &o);
	rte_pktmbuf_refcnt_update(m, 1); /* every segment, DPDK's convention */
	o = m;
	toff = m->data_off;
	p = mbufx_unshare_hdr(zs, &m, 64);
	TEST_RUN(pullup_check(m, exp, 64, p));
	TEST_ASSERT(m != o && mbufx_seg_writable(m), "fresh private head");
	TEST_ASSERT(o->data_off == toff && o->data_len == 200, "untouched");
	memset(p, 0x5a, 64);
	TEST_ASSERT_SUCCESS(tu_cmp(o, exp, 500), "other holder intact");
	rte_pktmbuf_free(m);
	rte_pktmbuf_free(o);
	ASSERT_NO_LEAK();
	return TEST_SUCCESS;
}

static int
test_pullup_errors(void)
{
	static const uint16_t tails[] = { 100 };
	struct rte_mbuf *m, *o, *null = NULL, *j1, *j2;
	unsigned int a0[MBUFX_ZONE_NUM];
	uint8_t exp[MAXB];
	void *p;

	m = mk_packet(TU_INDIRECT, 128, 20, tails, 1, exp, &o);
	TEST_ASSERT_NOT_NULL(m, "make");
#define PULLUP_FAILS(z, mp, len, err) do {				\
	rte_errno = 0;							\
	TEST_ASSERT_NULL(mbufx_pullup(z, mp, len), "should fail");	\
	TEST_ASSERT_EQUAL(rte_errno, err, "errno");			\
	rte_errno = 0;							\
	TEST_ASSERT_NULL(mbufx_unshare_hdr(z, mp, len), "should fail");	\
	TEST_ASSERT_EQUAL(rte_errno, err, "errno");			\
} while (0)
	PULLUP_FAILS(NULL, &m, 4, EINVAL);
	PULLUP_FAILS(zs, NULL, 4, EINVAL);
	PULLUP_FAILS(zs, &null, 4, EINVAL);
	PULLUP_FAILS(zs, &m, 121, EINVAL); /* beyond the packet */
	p = mbufx_pullup(zs, &m, 0);
	TEST_ASSERT(p == rte_pktmbuf_mtod(m, void *), "len 0");

	/* header zone empty, shared head: ENOMEM, unchanged */
	{
		static struct rte_mbuf *hv[ALL_N];
		unsigned int n = drain_from(MBUFX_ZONE_HDR, hv, RTE_DIM(hv));

		tu_avail(zs, a0);
		PULLUP_FAILS(zs, &m, 64, ENOMEM);
		ASSERT_AVAIL_SAME(a0, "nothing allocated");
		TEST_ASSERT_SUCCESS(tu_cmp(m, exp, 120), "unchanged");
		TEST_ASSERT_EQUAL(m->data_len, 20, "unchanged");
		rte_pktmbuf_free_bulk(hv, n);
	}
	/* too many segments for a fresh one */
	m->nb_segs = RTE_MBUF_MAX_NB_SEGS;
	tu_avail(zs, a0);
	rte_errno = 0;
	TEST_ASSERT_NULL(mbufx_unshare_hdr(zs, &m, 10), "EOVERFLOW");
	TEST_ASSERT_EQUAL(rte_errno, EOVERFLOW, "errno");
	ASSERT_AVAIL_SAME(a0, "nothing allocated");
	m->nb_segs = 2;
	rte_pktmbuf_free(m);
	rte_pktmbuf_free(o);

	/* more than any buffer holds: two full jumbo segments */
	j1 = mbufx_alloc(zs, 9216);
	j2 = mbufx_alloc(zs, 9216);
	TEST_ASSERT(j1 != NULL && j2 != NULL, "jumbo");
	j1->data_off = 0;
	TEST_ASSERT_SUCCESS(tu_fill(j1, 9344, 1), "fill");
	TEST_ASSERT_SUCCESS(tu_fill(j2, 100, 2), "fill");
	TEST_ASSERT_SUCCESS(rte_pktmbuf_chain(j1, j2), "chain");
	tu_avail(zs, a0);
	PULLUP_FAILS(zs, &j1, 9345, ENOSPC);
	ASSERT_AVAIL_SAME(a0, "nothing allocated");
	rte_pktmbuf_free(j1);
#undef PULLUP_FAILS
	ASSERT_NO_LEAK();
	return TEST_SUCCESS;
}

static int
test_unshare_hdr(void)
{
	uint8_t exp[MAXB], oexp[MAXB];
	struct rte_mbuf *m, *o, *m0;
	enum tu_kind k;
	uint8_t *p;

	for (k = 0; k < TU_KIND_NUM; k++) {
		m = tu_make(k, zs, 128, 400, 9, &o);
		TEST_ASSERT_NOT_NULL(m, "make");
		tu_read(m, exp, MAXB);
		memcpy(oexp, exp, 400);
		m0 = m;
		p = mbufx_unshare_hdr(zs, &m, 34);
		TEST_RUN(pullup_check(m, exp, 34, p));
		TEST_ASSERT(mbufx_seg_writable(m), "writable %s",
			    tu_kind_names[k]);
		TEST_ASSERT_EQUAL(m == m0, kind_writable(k), "copied iff shared");
		memset(p, 0xee, 34);
		memset(exp, 0xee, 34);
		TEST_ASSERT_SUCCESS(tu_cmp(m, exp, 400), "written");
		if (o != NULL) {
			TEST_ASSERT_SUCCESS(tu_cmp(o, oexp, 400), "intact");
			rte_pktmbuf_free(o);
		}
		rte_pktmbuf_free(m);
	}
	ASSERT_NO_LEAK();
	return TEST_SUCCESS;
}

/* ---- fan-out --------------------------------------------------------- */

static int
fanout_case(enum tu_kind k, const uint16_t *lens, unsigned int nl,
	    uint16_t hdr_len, unsigned int n, int expect_deep)
{
	uint8_t exp[MAXB], mine[MAXB];
	struct rte_mbuf *copies[16], *m, *o, *m0;
	unsigned int a0[MBUFX_ZONE_NUM], a1[MBUFX_ZONE_NUM], i, j;
	uint16_t segs[16];
	struct mbufx_zone_stats s0, s1;
	uint32_t len;
	uint8_t *p;
	int own, ret;

	m = mk_packet(k, 128, lens[0], lens + 1, nl - 1, exp, &o);
	TEST_ASSERT_NOT_NULL(m, "make");
	meta_set(m);
	len = m->pkt_len;
	m0 = m;
	/* the original serves as a copy when its first segment is private,
	 * holds the header and no other copy reads it (one copy, a deep copy,
	 * or at most MBUFX_FANOUT_COPY_MAX bytes after the header, copied) */
	own = mbufx_seg_writable(m) && m->data_len >= hdr_len &&
		(n == 1 || expect_deep == 1 ||
		 m->data_len - hdr_len <= MBUFX_FANOUT_COPY_MAX);
	tu_avail(zs, a0);
	mbufx_zone_set_stats(zs, &s0);
	ret = mbufx_fanout(zs, m, hdr_len, copies, n);
	TEST_ASSERT_EQUAL(ret, (int)n, "fanout: %s", strerror(-ret));
	tu_avail(zs, a1);
	mbufx_zone_set_stats(zs, &s1);
	TEST_ASSERT_EQUAL(s1.fanout_hdr_alloc - s0.fanout_hdr_alloc,
			  own ? n - 1 : n, "header allocations");
	TEST_ASSERT_EQUAL(s1.fanout_hdr_saved - s0.fanout_hdr_saved,
			  own ? 1 : 0, "saved");
	if (expect_deep >= 0)
		TEST_ASSERT_EQUAL(s1.fanout_deep - s0.fanout_deep,
				  expect_deep ? (own ? n - 1 : n) : 0, "deep");
	if (own)
		TEST_ASSERT(copies[n - 1] == m0, "original is the last copy");
	/* the counters match what the zones gave out */
	TEST_ASSERT_EQUAL(s1.alloc[MBUFX_ZONE_HDR] - s0.alloc[MBUFX_ZONE_HDR] +
			  s1.alloc[MBUFX_ZONE_PKT] - s0.alloc[MBUFX_ZONE_PKT],
			  (s1.fanout_hdr_alloc - s0.fanout_hdr_alloc) +
			  (s1.fanout_indirect - s0.fanout_indirect),
			  "allocations counted");
	if (own)
		TEST_ASSERT_EQUAL(a0[MBUFX_ZONE_HDR] + a0[MBUFX_ZONE_PKT] -
				  a1[MBUFX_ZONE_HDR] - a1[MBUFX_ZONE_PKT],
				  (s1.fanout_hdr_alloc - s0.fanout_hdr_alloc) +
				  (s1.fanout_indirect - s0.fanout_indirect),
				  "zone use");
	if (!own)
		TEST_ASSERT(copies[n - 1] != m0, "original not a copy");
	/* every copy, the original included, has a private first segment */
	for (i = 0; i < n; i++) {
		TEST_ASSERT_SUCCESS(tu_cmp(copies[i], exp, len), "copy %u", i);
		TEST_RUN(meta_check(copies[i]));
		TEST_ASSERT(mbufx_seg_writable(copies[i]) &&
			    copies[i]->data_len >= hdr_len,
			    "private header %u", i);
	}
	/* each copy writes its header bytes and prepends its own
	 * encapsulation: no copy sees another's */
	for (i = 0; i < n; i++) {
		segs[i] = copies[i]->nb_segs;
		memset(rte_pktmbuf_mtod(copies[i], uint8_t *), 0x40 + i,
		       hdr_len);
		p = mbufx_prepend(zs, &copies[i], 14);
		TEST_ASSERT_NOT_NULL(p, "prepend on copy %u: %s", i,
				     rte_strerror(rte_errno));
		memset(p, 0x80 + i, 14);
	}
	for (i = 0; i < n; i++) {
		memset(mine, 0x80 + i, 14);
		memset(mine + 14, 0x40 + i, hdr_len);
		memcpy(mine + 14 + hdr_len, exp + hdr_len, len - hdr_len);
		TEST_ASSERT_SUCCESS(tu_cmp(copies[i], mine, len + 14),
				    "copy %u after writes", i);
		/* private first segments prepend in place */
		TEST_ASSERT_EQUAL(copies[i]->nb_segs, segs[i],
				  "in-place prepend on copy %u", i);
	}
	if (o != NULL) {
		TEST_ASSERT_SUCCESS(tu_cmp(o, exp, o->pkt_len), "other intact");
		rte_pktmbuf_free(o);
	}
	for (j = 0; j < n; j++)
		rte_pktmbuf_free(copies[j]);
	return TEST_SUCCESS;
}

static int
test_fanout(void)
{
	static const uint16_t small[] = { 64 };
	static const uint16_t mtu[] = { 1500 };
	static const uint16_t split[] = { 60, 1440 };
	static const uint16_t chain[] = { 1000, 2000, 0, 700 };
	static const uint16_t frag[] = { 10, 30, 1460 };
	static const unsigned int ns[] = { 1, 2, 4, 8 };
	enum tu_kind kinds[] = { TU_DIRECT, TU_INDIRECT, TU_EXT, TU_PINNED };
	unsigned int i, j;

	for (i = 0; i < RTE_DIM(kinds); i++)
		for (j = 0; j < RTE_DIM(ns); j++) {
			printf("    %s, n = %u\n", tu_kind_names[kinds[i]], ns[j]);
			TEST_RUN(fanout_case(kinds[i], small, 1, 14, ns[j], 1));
			TEST_RUN(fanout_case(kinds[i], mtu, 1, 14, ns[j], 0));
			TEST_RUN(fanout_case(kinds[i], mtu, 1, 0, ns[j], 0));
			TEST_RUN(fanout_case(kinds[i], split, 2, 34, ns[j], 0));
			TEST_RUN(fanout_case(kinds[i], chain, 4, 54, ns[j], 0));
			/* hdr_len beyond the first two segments */
			TEST_RUN(fanout_case(kinds[i], frag, 3, 54, ns[j], 0));
			TEST_RUN(fanout_case(kinds[i], mtu, 1, 1500, ns[j], 1));
		}
	ASSERT_NO_LEAK();
	return TEST_SUCCESS;
}

static int
test_fanout_shapes(void)
{
	static const uint16_t split[] = { 60, 1440 };
	static const uint16_t mtu[] = { 1500 };
	struct rte_mbuf *copies[4], *m, *o;
	uint8_t exp[MAXB];
	unsigned int i;
	int ret;

	/* a private original whose first segment holds header plus a little
	 * payload: that payload is copied, so the original serves as the
	 * last copy and stays entirely private */
	m = mk_packet(TU_DIRECT, 128, split[0], split + 1, 1, exp, &o);
	ret = mbufx_fanout(zs, m, 34, copies, 4);
	TEST_ASSERT_EQUAL(ret, 4, "fanout");
	TEST_ASSERT(copies[3] == m && mbufx_seg_writable(m),
		    "original private");
	for (i = 0; i < 3; i++) {
		TEST_ASSERT_EQUAL(copies[i]->data_len, 60, "seg 0 copied");
		TEST_ASSERT_EQUAL(copies[i]->nb_segs, 2, "one indirect");
		TEST_ASSERT(RTE_MBUF_CLONED(copies[i]->next), "indirect");
	}
	for (i = 0; i < 4; i++)
		rte_pktmbuf_free(copies[i]);

	/* a 1500-byte single segment: the payload is shared, the header
	 * mbufs (all four: the original's first segment is read by the
	 * copies, so it is not one of them) hold exactly hdr_len bytes with
	 * all free space in front; the last copy's payload is the original
	 * itself, the others' indirect mbufs attached to it */
	m = mk_packet(TU_DIRECT, 128, mtu[0], NULL, 0, exp, &o);
	ret = mbufx_fanout(zs, m, 14, copies, 4);
	TEST_ASSERT_EQUAL(ret, 4, "fanout");
	TEST_ASSERT(copies[3]->next == m && copies[3]->nb_segs == 2,
		    "the original behind the last header");
	for (i = 0; i < 4; i++) {
		TEST_ASSERT_EQUAL(copies[i]->data_len, 14, "header");
		TEST_ASSERT_EQUAL(rte_pktmbuf_tailroom(copies[i]), 0, "at end");
		TEST_ASSERT_EQUAL(copies[i]->next->data_len, 1486, "payload");
		TEST_ASSERT(rte_mbuf_from_indirect(copies[i]->next) == m,
			    "shares the original");
		TEST_ASSERT_EQUAL(RTE_MBUF_CLONED(copies[i]->next) != 0, i < 3,
				  "indirect in the first three only");
	}
	TEST_ASSERT_EQUAL(rte_mbuf_refcnt_read(m), 4, "4 references");
	TEST_ASSERT(!mbufx_seg_writable(m), "payload shared");
	for (i = 0; i < 4; i++)
		rte_pktmbuf_free(copies[i]);
	ASSERT_NO_LEAK();
	return TEST_SUCCESS;
}

/*
 * The packet the fan-out error cases copy: an indirect mbuf of 1000 bytes
 * (its owner in *o), its bytes in exp.
 */
static struct rte_mbuf *
fanout_err_packet(struct rte_mbuf **o, uint8_t *exp)
{
	struct rte_mbuf *m = tu_make(TU_INDIRECT, zs, 128, 1000, 3, o);

	if (m != NULL)
		tu_read(m, exp, MAXB);
	return m;
}

/* After a failed call the fan-out works: it consumes m. */
static int
fanout_then_works(struct rte_mbuf *m, struct rte_mbuf *o)
{
	struct rte_mbuf *copies[2];

	TEST_ASSERT_EQUAL(mbufx_fanout(zs, m, 14, copies, 2), 2, "works");
	rte_pktmbuf_free(copies[0]);
	rte_pktmbuf_free(copies[1]);
	rte_pktmbuf_free(o);
	ASSERT_NO_LEAK();
	return TEST_SUCCESS;
}

/* Bad arguments, hdr_len beyond the packet or every zone's buffer: EINVAL. */
static int
test_fanout_bad_args(void)
{
	struct rte_mbuf *copies[8], *m, *o, *j1, *j2;
	uint8_t exp[MAXB];

	m = fanout_err_packet(&o, exp);
	TEST_ASSERT_NOT_NULL(m, "make");
	TEST_ASSERT_EQUAL(mbufx_fanout(NULL, m, 14, copies, 2), -EINVAL, "zs");
	TEST_ASSERT_EQUAL(mbufx_fanout(zs, NULL, 14, copies, 2), -EINVAL, "m");
	TEST_ASSERT_EQUAL(mbufx_fanout(zs, m, 14, NULL, 2), -EINVAL, "copies");
	TEST_ASSERT_EQUAL(mbufx_fanout(zs, m, 14, copies, 0), -EINVAL, "n");
	TEST_ASSERT_EQUAL(mbufx_fanout(zs, m, 1001, copies, 2), -EINVAL,
			  "hdr_len > pkt_len");
	TEST_ASSERT_SUCCESS(tu_cmp(m, exp, 1000), "m unchanged");

	/* hdr_len beyond every zone's buffer (a packet longer than that) */
	j1 = mbufx_alloc(zs, 9216);
	j2 = mbufx_alloc(zs, 9216);
	TEST_ASSERT(j1 != NULL && j2 != NULL, "jumbo");
	j1->data_off = 0;
	TEST_ASSERT_SUCCESS(tu_fill(j1, 9344, 1), "fill");
	TEST_ASSERT_SUCCESS(tu_fill(j2, 100, 2), "fill");
	TEST_ASSERT_SUCCESS(rte_pktmbuf_chain(j1, j2), "chain");
	TEST_ASSERT_EQUAL(mbufx_fanout(zs, j1, 9345, copies, 2), -EINVAL,
			  "hdr_len > largest buffer");
	TEST_ASSERT_EQUAL(mbufx_fanout(zs, j1, 9344, copies, 2), 2,
			  "hdr_len = largest buffer");
	rte_pktmbuf_free(copies[0]);
	rte_pktmbuf_free(copies[1]);
	return fanout_then_works(m, o);
}

/*
 * Not enough mbufs in any zone: -ENOMEM, m untouched, nothing leaked (the
 * larger zones are drained too: the library falls back to them).
 */
static int
test_fanout_enomem(void)
{
	static struct rte_mbuf *hv[ALL_N];
	struct rte_mbuf *copies[8], *m, *o;
	unsigned int a0[MBUFX_ZONE_NUM], n;
	uint8_t exp[MAXB];
	uint16_t rc;

	m = fanout_err_packet(&o, exp);
	TEST_ASSERT_NOT_NULL(m, "make");
	n = drain_from(MBUFX_ZONE_PKT, hv, RTE_DIM(hv));
	n += tu_drain(zs->pool[MBUFX_ZONE_HDR], &hv[n], RTE_DIM(hv) - n);
	rte_pktmbuf_free_bulk(&hv[n - 5], 5); /* room for 2 copies, not 4 */
	n -= 5;
	rc = rte_mbuf_refcnt_read(o);
	tu_avail(zs, a0);
	TEST_ASSERT_EQUAL(mbufx_fanout(zs, m, 14, copies, 4), -ENOMEM, "4");
	ASSERT_AVAIL_SAME(a0, "nothing kept");
	TEST_ASSERT_EQUAL(rte_mbuf_refcnt_read(o), rc, "owner refcnt");
	TEST_ASSERT_SUCCESS(tu_cmp(m, exp, 1000), "m unchanged");
	/* header zone completely empty */
	n += tu_drain(zs->pool[MBUFX_ZONE_HDR], &hv[n], RTE_DIM(hv) - n);
	TEST_ASSERT_EQUAL(mbufx_fanout(zs, m, 14, copies, 2), -ENOMEM, "2");
	TEST_ASSERT_SUCCESS(tu_cmp(m, exp, 1000), "m unchanged");
	rte_pktmbuf_free_bulk(hv, n);
	return fanout_then_works(m, o);
}

/*
 * The data reference counter would overflow: -EOVERFLOW, nothing taken.
 * Two segments sharing one data owner (a chain of two clones of the same
 * packet): every copy takes two references on it, so 4 copies need 8 free
 * counts, not 4. The counter must not wrap.
 */
static int
test_fanout_refcnt_overflow(void)
{
	struct rte_mbuf *copies[8], *m, *o, *c1, *c2;
	unsigned int a0[MBUFX_ZONE_NUM], i;
	const char *why = NULL;
	uint8_t exp[MAXB];
	uint16_t rc, base;

	m = fanout_err_packet(&o, exp);
	TEST_ASSERT_NOT_NULL(m, "make");
	rc = rte_mbuf_refcnt_read(o);
	rte_mbuf_refcnt_set(o, UINT16_MAX - 2);
	TEST_ASSERT_EQUAL(mbufx_fanout(zs, m, 14, copies, 4), -EOVERFLOW,
			  "refcnt");
	rte_mbuf_refcnt_set(o, rc);
	TEST_ASSERT_EQUAL(rte_mbuf_refcnt_read(o), rc, "restored");
	TEST_ASSERT_SUCCESS(tu_cmp(m, exp, 1000), "m unchanged");

	c1 = rte_pktmbuf_clone(o, zs->pool[MBUFX_ZONE_HDR]);
	c2 = rte_pktmbuf_clone(o, zs->pool[MBUFX_ZONE_HDR]);
	TEST_ASSERT(c1 != NULL && c2 != NULL, "clones");
	TEST_ASSERT_SUCCESS(rte_pktmbuf_chain(c1, c2), "chain");
	base = rte_mbuf_refcnt_read(o);
	rte_mbuf_refcnt_set(o, UINT16_MAX - 6); /* room for 6 */
	tu_avail(zs, a0);
	TEST_ASSERT_EQUAL(mbufx_fanout(zs, c1, 14, copies, 4), -EOVERFLOW,
			  "same owner twice");
	TEST_ASSERT_EQUAL(rte_mbuf_refcnt_read(o), UINT16_MAX - 6,
			  "owner refcnt unchanged");
	ASSERT_AVAIL_SAME(a0, "nothing allocated");
	/* 3 copies: 6 references fit exactly */
	TEST_ASSERT_EQUAL(mbufx_fanout(zs, c1, 14, copies, 3), 3,
			  "exactly full");
	TEST_ASSERT_EQUAL(rte_mbuf_refcnt_read(o), UINT16_MAX - 2,
			  "6 taken, the 2 of c1/c2 released");
	for (i = 0; i < 3; i++) {
		TEST_ASSERT_SUCCESS(rte_mbuf_check(copies[i], 1, &why),
				    "copy %u: %s", i, why);
		rte_pktmbuf_free(copies[i]);
	}
	TEST_ASSERT_EQUAL(rte_mbuf_refcnt_read(o), UINT16_MAX - 8,
			  "all released");
	rte_mbuf_refcnt_set(o, (uint16_t)(base - 2));
	return fanout_then_works(m, o);
}

/*
 * The recipe of mbufx_prepend()'s documentation: a chained prepend leaves
 * the inner headers in the second segment, which the checksum preparation
 * of rte_eth_tx_prepare() refuses (ENOTSUP); mbufx_unshare_hdr() over the
 * headers fixes that without an allocation, and the pseudo-header checksum
 * the preparation then writes stays private to the clone.
 */
static int
test_tx_prepare_after_prepend(void)
{
	const uint16_t l2 = sizeof(struct rte_ether_hdr);
	const uint16_t l3 = sizeof(struct rte_ipv4_hdr);
	const uint16_t l4 = sizeof(struct rte_udp_hdr);
	unsigned int a0[MBUFX_ZONE_NUM];
	struct rte_ether_hdr *eth;
	struct rte_ipv4_hdr *ip;
	struct rte_mbuf *m, *c, *no;
	const char *why = NULL;
	uint8_t exp[MAXB];
	void *p;

	m = tu_make(TU_DIRECT, zs, 128, l2 + l3 + l4 + 100, 3, &no);
	TEST_ASSERT_NOT_NULL(m, "make");
	eth = rte_pktmbuf_mtod(m, struct rte_ether_hdr *);
	eth->ether_type = rte_cpu_to_be_16(RTE_ETHER_TYPE_IPV4);
	ip = (struct rte_ipv4_hdr *)(eth + 1);
	ip->version_ihl = RTE_IPV4_VHL_DEF;
	ip->next_proto_id = IPPROTO_UDP;
	ip->total_length = rte_cpu_to_be_16(l3 + l4 + 100);
	tu_read(m, exp, MAXB);

	c = rte_pktmbuf_clone(m, zs->pool[MBUFX_ZONE_HDR]);
	TEST_ASSERT_NOT_NULL(c, "clone");
	p = mbufx_prepend(zs, &c, 4);	/* an 802.1Q tag, say */
	TEST_ASSERT(p != NULL && c->nb_segs == 2, "chained");
	memset(p, 0x81, 4);
	c->ol_flags |= RTE_MBUF_F_TX_IPV4 | RTE_MBUF_F_TX_IP_CKSUM |
		RTE_MBUF_F_TX_UDP_CKSUM;
	c->l2_len = 4 + l2;
	c->l3_len = l3;
	c->l4_len = l4;
	TEST_ASSERT_EQUAL(rte_net_intel_cksum_prepare(c), -ENOTSUP,
			  "headers split over two segments");

	tu_avail(zs, a0);
	p = mbufx_unshare_hdr(zs, &c, c->l2_len + l3 + l4);
	TEST_ASSERT_NOT_NULL(p, "unshare_hdr: %s", rte_strerror(rte_errno));
	ASSERT_AVAIL_SAME(a0, "in place in the header mbuf");
	TEST_ASSERT(c->data_len >= 4 + l2 + l3 + l4 && mbufx_seg_writable(c),
		    "headers contiguous and private");
	TEST_ASSERT_SUCCESS(rte_mbuf_check(c, 1, &why), "%s", why);
	TEST_ASSERT_SUCCESS(rte_net_intel_cksum_prepare(c), "prepare");
	TEST_ASSERT_SUCCESS(tu_cmp(m, exp, m->pkt_len),
			    "the original's headers untouched");
	rte_pktmbuf_free(c);
	rte_pktmbuf_free(m);
	ASSERT_NO_LEAK();
	return TEST_SUCCESS;
}

/*
 * A first segment with no data (left by rte_pktmbuf_adj() of a whole
 * segment, or a header stripped to nothing): writable, it takes the bytes
 * in place; shared, it is skipped (pullup frees it from the chain, prepend
 * chains in front of it, fan-out copies skip it).
 */
static int
test_empty_first_segment(void)
{
	static const uint16_t tail[] = { 300 };
	struct rte_mbuf *m, *o, *m0, *copies[3];
	uint8_t exp[MAXB];
	const char *why;
	unsigned int i;
	void *p;

	/* writable empty head */
	m = mk_packet(TU_DIRECT, 128, 10, tail, 1, exp, &o);
	TEST_ASSERT_NOT_NULL(m, "make");
	rte_pktmbuf_adj(m, 10);
	TEST_ASSERT_EQUAL(m->data_len, 0, "empty head");
	m0 = m;
	p = mbufx_pullup(zs, &m, 64);
	TEST_RUN(pullup_check(m, exp + 10, 64, p));
	TEST_ASSERT(m == m0 && m->nb_segs == 2, "in place");
	p = mbufx_prepend(zs, &m, 8);
	TEST_ASSERT(p != NULL && m == m0, "prepend in place");
	memset(p, 0x33, 8);
	memmove(exp + 8, exp + 10, 300);
	memset(exp, 0x33, 8);
	TEST_ASSERT_SUCCESS(tu_cmp(m, exp, 308), "content");
	rte_pktmbuf_free(m);

	/* shared empty head (a clone stripped to nothing) */
	m = mk_packet(TU_INDIRECT, 128, 10, tail, 1, exp, &o);
	TEST_ASSERT_NOT_NULL(m, "make");
	rte_pktmbuf_adj(m, 10);
	p = mbufx_prepend(zs, &m, 8);
	TEST_ASSERT(p != NULL && m->nb_segs == 3 && m->next->data_len == 0,
		    "chained in front of the empty segment");
	memset(p, 0x44, 8);
	TEST_ASSERT_SUCCESS(rte_mbuf_check(m, 1, &why), "%s", why);
	rte_pktmbuf_adj(m, 8);	/* back to the empty header + empty seg */
	p = mbufx_pullup(zs, &m, 64);
	TEST_RUN(pullup_check(m, exp + 10, 64, p));
	TEST_ASSERT_EQUAL(m->nb_segs, 2, "empty segments consumed");
	TEST_ASSERT_EQUAL(mbufx_fanout(zs, m, 14, copies, 3), 3, "fanout");
	for (i = 0; i < 3; i++) {
		TEST_ASSERT_SUCCESS(tu_cmp(copies[i], exp + 10, 300), "copy");
		rte_pktmbuf_free(copies[i]);
	}
	TEST_ASSERT_SUCCESS(tu_cmp(o, exp, 10), "original intact");
	rte_pktmbuf_free(o);

	/* fan-out of a chain whose shared first segment is empty */
	m = mk_packet(TU_INDIRECT, 128, 10, tail, 1, exp, &o);
	rte_pktmbuf_adj(m, 10);
	TEST_ASSERT_EQUAL(mbufx_fanout(zs, m, 14, copies, 3), 3, "fanout");
	for (i = 0; i < 3; i++) {
		TEST_ASSERT_SUCCESS(tu_cmp(copies[i], exp + 10, 300), "copy");
		TEST_ASSERT(copies[i]->data_len >= 14, "header contiguous");
		rte_pktmbuf_free(copies[i]);
	}
	rte_pktmbuf_free(o);
	ASSERT_NO_LEAK();
	return TEST_SUCCESS;
}

/* ---- exhaustion at every allocation point ---------------------------- */

/*
 * Every call below is run with a zone holding 0, 1, ... mbufs up to what it
 * needs: whichever of its allocations fails, it must fail with ENOMEM and
 * leave the packet exactly as it was (structure, reference counts and
 * bytes) and every zone's count unchanged; once enough is there it must
 * succeed. Covers the second allocation of pullup (header, then a
 * replacement), fan-out's two pools and its chunked bulk get (> 64 mbufs).
 */
enum sw_op { SW_PREPEND, SW_PULLUP, SW_UNSHARE, SW_FANOUT, SW_PCONTIG };

struct sw_case {
	const char *what;
	enum tu_kind kind;	/* first segment */
	uint16_t l0;		/* its bytes */
	uint16_t tail;		/* bytes of a second, direct segment (0: none) */
	int share_tail;		/* that segment's structure shared */
	int share_all;		/* the whole chain shared (refcnt_update) */
	enum sw_op op;
	uint16_t len;		/* prepend / pullup length, fan-out hdr_len */
	unsigned int n;		/* fan-out copies */
	unsigned int need[MBUFX_ZONE_NUM]; /* mbufs the call takes */
};

#define SW_SEGS 8

struct sw_snap {
	unsigned int nseg;
	struct rte_mbuf *seg[SW_SEGS], *next[SW_SEGS];
	uint16_t off[SW_SEGS], len[SW_SEGS], rc[SW_SEGS], data_rc[SW_SEGS];
	uint32_t pkt_len;
	uint16_t nb_segs;
	uint8_t bytes[MAXB];
};

static uint16_t
sw_data_refs(const struct rte_mbuf *s)
{
	if (RTE_MBUF_HAS_EXTBUF(s))
		return rte_mbuf_ext_refcnt_read(s->shinfo);
	return rte_mbuf_refcnt_read(mbufx_seg_owner(s));
}

static void
sw_snap_take(struct sw_snap *sn, const struct rte_mbuf *m)
{
	const struct rte_mbuf *s;
	unsigned int i = 0;

	for (s = m; s != NULL && i < SW_SEGS; s = s->next, i++) {
		sn->seg[i] = (struct rte_mbuf *)(uintptr_t)s;
		sn->next[i] = s->next;
		sn->off[i] = s->data_off;
		sn->len[i] = s->data_len;
		sn->rc[i] = rte_mbuf_refcnt_read(s);
		sn->data_rc[i] = sw_data_refs(s);
	}
	sn->nseg = i;
	sn->pkt_len = m->pkt_len;
	sn->nb_segs = m->nb_segs;
	tu_read(m, sn->bytes, MAXB);
}

static int
sw_snap_same(const struct sw_snap *a, const struct rte_mbuf *m)
{
	static struct sw_snap b;
	unsigned int i;

	sw_snap_take(&b, m);
	TEST_ASSERT(a->nseg == b.nseg && a->pkt_len == b.pkt_len &&
		    a->nb_segs == b.nb_segs, "shape changed");
	for (i = 0; i < a->nseg; i++)
		TEST_ASSERT(a->seg[i] == b.seg[i] && a->next[i] == b.next[i] &&
			    a->off[i] == b.off[i] && a->len[i] == b.len[i] &&
			    a->rc[i] == b.rc[i] && a->data_rc[i] == b.data_rc[i],
			    "segment %u changed", i);
	TEST_ASSERT(memcmp(a->bytes, b.bytes, a->pkt_len) == 0, "bytes");
	return TEST_SUCCESS;
}

static const struct sw_case sw_cases[] = {
	{ "prepend, chained header", TU_INDIRECT, 200, 0, 0, 0,
	  SW_PREPEND, 8, 0, { 1, 0, 0 } },
	{ "prepend, header from the packet zone", TU_INDIRECT, 200, 0, 0, 0,
	  SW_PREPEND, 300, 0, { 0, 1, 0 } },
	{ "pullup in place, shared tail replaced", TU_DIRECT, 20, 300, 1, 0,
	  SW_PULLUP, 64, 0, { 1, 0, 0 } },
	{ "pullup, fresh head and replacement", TU_INDIRECT, 20, 300, 1, 0,
	  SW_PULLUP, 64, 0, { 2, 0, 0 } },
	{ "pullup, fresh head from the packet zone", TU_INDIRECT, 20, 500, 0,
	  0, SW_PULLUP, 300, 0, { 0, 1, 0 } },
	{ "unshare_hdr of a clone", TU_INDIRECT, 400, 0, 0, 0,
	  SW_UNSHARE, 34, 0, { 1, 0, 0 } },
	{ "unshare_hdr of a shared chain", TU_DIRECT, 400, 100, 0, 1,
	  SW_UNSHARE, 34, 0, { 2, 0, 0 } },
	{ "fan-out x4 of a clone", TU_INDIRECT, 1500, 0, 0, 0,
	  SW_FANOUT, 14, 4, { 8, 0, 0 } },
	{ "fan-out x3, packet-zone headers", TU_DIRECT, 1500, 0, 0, 0,
	  SW_FANOUT, 300, 3, { 2, 3, 0 } },
	{ "fan-out x3 of a 2-segment clone", TU_INDIRECT, 60, 1440, 0, 0,
	  SW_FANOUT, 34, 3, { 6, 0, 0 } },
	{ "fan-out x30 of a clone, two chunks", TU_INDIRECT, 1500, 0, 0, 0,
	  SW_FANOUT, 14, 30, { 60, 0, 0 } },
	{ "prepend_contig of a clone", TU_INDIRECT, 400, 0, 0, 0,
	  SW_PCONTIG, 4, 0, { 1, 0, 0 } },
	{ "prepend_contig, shared tail replaced", TU_INDIRECT, 10, 300, 1, 0,
	  SW_PCONTIG, 4, 0, { 2, 0, 0 } },
	{ "fan-out x70 deep, chunked get", TU_INDIRECT, 400, 0, 0, 0,
	  SW_FANOUT, 300, 70, { 0, 70, 0 } },
};

/* Run case c with zone z limited to avail mbufs; *ok tells the outcome. */
static int
sw_run(const struct sw_case *c, unsigned int z, unsigned int avail, int *ok)
{
	static struct sw_snap sn;
	static struct rte_mbuf *hog[ALL_N];
	struct rte_mbuf *m, *o, *t = NULL, *copies[80];
	unsigned int a0[MBUFX_ZONE_NUM], nh, i, nout = 0, zz, k;
	uint8_t exp[MAXB];
	const char *why;
	void *p = NULL;
	int ret = 0;

	m = mk_packet(c->kind, 128, c->l0, &c->tail, c->tail != 0, exp, &o);
	TEST_ASSERT_NOT_NULL(m, "make");
	if (c->share_tail) {
		t = m->next;
		rte_mbuf_refcnt_update(t, 1);
	}
	if (c->share_all) {
		rte_pktmbuf_refcnt_update(m, 1);
		t = m;
	}
	nh = tu_drain(zs->pool[z], hog, RTE_DIM(hog));
	TEST_ASSERT(nh >= avail, "zone %u has %u", z, nh);
	rte_pktmbuf_free_bulk(&hog[nh - avail], avail);
	nh -= avail;
	/* the larger zones keep exactly what the call takes from them, so
	 * that falling back to them cannot make up for zone z */
	for (zz = z + 1; zz < MBUFX_ZONE_NUM; zz++) {
		k = tu_drain(zs->pool[zz], &hog[nh], RTE_DIM(hog) - nh);
		TEST_ASSERT(k >= c->need[zz], "zone %u has %u", zz, k);
		rte_pktmbuf_free_bulk(&hog[nh + k - c->need[zz]], c->need[zz]);
		nh += k - c->need[zz];
	}
	sw_snap_take(&sn, m);
	tu_avail(zs, a0);
	rte_errno = 0;
	switch (c->op) {
	case SW_PREPEND:
		p = mbufx_prepend(zs, &m, c->len);
		break;
	case SW_PULLUP:
		p = mbufx_pullup(zs, &m, c->len);
		break;
	case SW_UNSHARE:
		p = mbufx_unshare_hdr(zs, &m, c->len);
		break;
	case SW_PCONTIG:
		/* len new bytes, 30 bytes of the packet contiguous after them */
		p = mbufx_prepend_contig(zs, &m, c->len, c->len + 30);
		break;
	case SW_FANOUT:
		ret = mbufx_fanout(zs, m, c->len, copies, c->n);
		if (ret < 0) {
			rte_errno = -ret;
		} else {
			TEST_ASSERT_EQUAL(ret, (int)c->n, "copies");
			p = copies[0];
			nout = c->n;
		}
		break;
	}
	*ok = p != NULL;
	if (p == NULL) {
		TEST_ASSERT_EQUAL(rte_errno, ENOMEM, "%s, %u left: errno",
				  c->what, avail);
		TEST_RUN(sw_snap_same(&sn, m));
		ASSERT_AVAIL_SAME(a0, "a failed call kept mbufs");
	} else if (c->op != SW_FANOUT) {
		copies[nout++] = m;
	}
	if (p != NULL && (c->op == SW_PREPEND || c->op == SW_PCONTIG)) {
		memset(p, 0xa5, c->len);
		memmove(exp + c->len, exp, sn.pkt_len);
		memset(exp, 0xa5, c->len);
		sn.pkt_len += c->len;
	}
	for (i = 0; i < nout; i++) {
		TEST_ASSERT_SUCCESS(rte_mbuf_check(copies[i], 1, &why),
				    "%s: %s", c->what, why);
		TEST_ASSERT_SUCCESS(tu_cmp(copies[i], exp, sn.pkt_len),
				    "%s: copy %u", c->what, i);
		rte_pktmbuf_free(copies[i]);
	}
	if (p == NULL)
		rte_pktmbuf_free(m);
	rte_pktmbuf_free_bulk(hog, nh);
	if (t != NULL)
		rte_pktmbuf_free(t);
	if (o != NULL)
		rte_pktmbuf_free(o);
	ASSERT_NO_LEAK();
	return TEST_SUCCESS;
}

static int
test_exhaustion_sweep(void)
{
	static const unsigned int zones[] = { MBUFX_ZONE_HDR, MBUFX_ZONE_PKT };
	const struct sw_case *c;
	unsigned int i, j, avail, fails;
	int ok;

	for (i = 0; i < RTE_DIM(sw_cases); i++) {
		c = &sw_cases[i];
		for (j = 0; j < RTE_DIM(zones); j++) {
			if (c->need[zones[j]] == 0)
				continue;
			fails = 0;
			for (avail = 0; avail <= c->need[zones[j]]; avail++) {
				TEST_RUN(sw_run(c, zones[j], avail, &ok));
				fails += !ok;
				TEST_ASSERT(ok == (avail ==
						   c->need[zones[j]]),
					    "%s: %u of %u %s mbufs: %s", c->what,
					    avail, c->need[zones[j]],
					    zones[j] == MBUFX_ZONE_HDR ? "hdr" :
					    "pkt", ok ? "worked" : "failed");
			}
			printf("    %s: %u short %s supplies fail cleanly\n",
			       c->what, fails, zones[j] == MBUFX_ZONE_HDR ?
			       "header-zone" : "packet-zone");
		}
	}
	return TEST_SUCCESS;
}

/* ---- issue 8: docs and behaviour agree, API traps --------------------- */

/*
 * A packet with at most MBUFX_FANOUT_COPY_MAX bytes after hdr_len is
 * deep-copied, also when it does not fit the zone that holds hdr_len: the
 * copy then comes from the packet zone, and nothing is shared.
 */
static int
test_fanout_deep_bigger_zone(void)
{
	static const uint16_t one[] = { 300 };
	struct rte_mbuf *copies[3], *m, *o;
	struct mbufx_zone_stats s0, s1;
	uint8_t exp[MAXB];
	unsigned int i;

	m = mk_packet(TU_INDIRECT, 128, one[0], NULL, 0, exp, &o);
	TEST_ASSERT_NOT_NULL(m, "make");
	mbufx_zone_set_stats(zs, &s0);
	TEST_ASSERT_EQUAL(mbufx_fanout(zs, m, 200, copies, 3), 3, "fanout");
	mbufx_zone_set_stats(zs, &s1);
	TEST_ASSERT_EQUAL(s1.fanout_deep - s0.fanout_deep, 3, "deep");
	TEST_ASSERT_EQUAL(s1.fanout_indirect - s0.fanout_indirect, 0,
			  "nothing shared");
	for (i = 0; i < 3; i++) {
		TEST_ASSERT(copies[i]->nb_segs == 1 &&
			    copies[i]->pool == zs->pool[MBUFX_ZONE_PKT] &&
			    mbufx_seg_writable(copies[i]), "copy %u private", i);
		TEST_ASSERT_SUCCESS(tu_cmp(copies[i], exp, 300), "copy %u", i);
		rte_pktmbuf_free(copies[i]);
	}
	TEST_ASSERT_EQUAL(rte_mbuf_refcnt_read(o), 1, "no reference left");
	rte_pktmbuf_free(o);
	ASSERT_NO_LEAK();
	return TEST_SUCCESS;
}

/* unshare_hdr(zs, &m, 0) makes the headroom private: a shared head gets an
 * empty private segment in front, into which prepends go in place. */
static int
test_unshare_zero(void)
{
	struct rte_mbuf *m, *o, *m0;
	uint8_t exp[MAXB];
	void *p;

	m = tu_make(TU_INDIRECT, zs, 128, 200, 6, &o);
	TEST_ASSERT_NOT_NULL(m, "make");
	tu_read(m, exp + 8, MAXB);
	m0 = m;
	TEST_ASSERT_EQUAL(mbufx_leading_space(m), 0, "clone: shared");
	p = mbufx_unshare_hdr(zs, &m, 0);
	TEST_ASSERT(p != NULL && m != m0 && m->next == m0, "fresh head");
	TEST_ASSERT(m->data_len == 0 && m->pkt_len == 200 && m->nb_segs == 2,
		    "empty first segment");
	TEST_ASSERT(mbufx_leading_space(m) == rte_pktmbuf_headroom(m) &&
		    mbufx_leading_space(m) == m->buf_len, "headroom private");
	m0 = m;
	p = mbufx_prepend(zs, &m, 8);
	TEST_ASSERT(p != NULL && m == m0, "prepend in place after it");
	memset(p, 0x3c, 8);
	memset(exp, 0x3c, 8);
	TEST_ASSERT_SUCCESS(tu_cmp(m, exp, 208), "content");
	TEST_ASSERT_SUCCESS(tu_cmp(o, exp + 8, 200), "other intact");
	/* a private head: nothing to do */
	m0 = m;
	TEST_ASSERT(mbufx_unshare_hdr(zs, &m, 0) == rte_pktmbuf_mtod(m, void *)
		    && m == m0, "no-op");
	rte_pktmbuf_free(m);
	rte_pktmbuf_free(o);
	ASSERT_NO_LEAK();
	return TEST_SUCCESS;
}

/*
 * mbufx_append_data(): -EBUSY when the head's refcnt is above 1 (a head
 * shared by two chains and the original of a clone look the same to
 * DPDK); a fan-out copy's head is its own, so appending to it works into
 * writable trailing space, which its shared payload segment has none of.
 */
static int
test_append_busy(void)
{
	struct rte_mbuf *m, *o, *c, *t, *copies[3];
	uint8_t in[64] = { 0 };
	unsigned int i;

	m = tu_make(TU_DIRECT, zs, 128, 100, 1, &o);
	TEST_ASSERT_NOT_NULL(m, "make");
	rte_mbuf_refcnt_update(m, 1);
	TEST_ASSERT_EQUAL(mbufx_append_data(m, in, 4), -EBUSY, "two holders");
	rte_mbuf_refcnt_update(m, -1);
	c = rte_pktmbuf_clone(m, zs->pool[MBUFX_ZONE_HDR]);
	TEST_ASSERT_NOT_NULL(c, "clone");
	TEST_ASSERT_EQUAL(mbufx_append_data(m, in, 4), -EBUSY,
			  "original of a clone");
	rte_pktmbuf_free(c);
	rte_pktmbuf_free(m);

	/* a fan-out copy, with a private segment chained after it */
	m = tu_make(TU_DIRECT, zs, 128, 1500, 2, &o);
	TEST_ASSERT_EQUAL(mbufx_fanout(zs, m, 14, copies, 3), 3, "fanout");
	m = copies[2];
	TEST_ASSERT_EQUAL(rte_mbuf_refcnt_read(m), 1, "head its own");
	TEST_ASSERT_EQUAL(mbufx_append_data(m, in, 4), -ENOSPC,
			  "tail shared: no room, but not busy");
	t = rte_pktmbuf_alloc(zs->pool[MBUFX_ZONE_PKT]);
	TEST_ASSERT_NOT_NULL(t, "tail");
	TEST_ASSERT_SUCCESS(rte_pktmbuf_chain(m, t), "chain");
	TEST_ASSERT_SUCCESS(mbufx_append_data(m, in, 64), "append");
	TEST_ASSERT(m->pkt_len == 1564 && t->data_len == 64, "appended");
	for (i = 0; i < 2; i++)
		TEST_ASSERT_EQUAL(copies[i]->pkt_len, 1500, "copy %u", i);
	for (i = 0; i < 3; i++)
		rte_pktmbuf_free(copies[i]);
	ASSERT_NO_LEAK();
	return TEST_SUCCESS;
}

/* Copies of a packet whose first segment they all read: each copy's own
 * first segment is writable, in place, until a clone shares it. */
static int
fanout_copies_writable(void)
{
	struct rte_mbuf *copies[4], *m, *o, *m0, *c;
	unsigned int a0[MBUFX_ZONE_NUM], i;
	uint8_t exp[MAXB], mine[MAXB];
	uint16_t head;
	void *p;

	m = tu_make(TU_DIRECT, zs, 128, 1500, 3, &o);
	TEST_ASSERT_NOT_NULL(m, "make");
	tu_read(m, exp, MAXB);
	m0 = m;
	TEST_ASSERT_EQUAL(mbufx_fanout(zs, m, 14, copies, 4), 4, "fanout");
	for (i = 0; i < 4; i++) {
		TEST_ASSERT(copies[i] != m0, "the original's first segment is "
			    "read by the copies: not a copy itself");
		TEST_ASSERT(mbufx_seg_writable(copies[i]) &&
			    mbufx_leading_space(copies[i]) ==
			    rte_pktmbuf_headroom(copies[i]), "copy %u private",
			    i);
	}
	m = copies[3];
	m0 = m;
	tu_avail(zs, a0);
	m->vlan_tci = 0x123;
	m->l2_len = 14;
	TEST_ASSERT_SUCCESS(rte_vlan_insert(&m), "stock rte_vlan_insert()");
	TEST_ASSERT(m == m0 && m->l2_len == 18, "in place");
	ASSERT_AVAIL_SAME(a0, "no allocation");
	p = mbufx_prepend(zs, &m, 4);
	TEST_ASSERT(p != NULL && m == m0, "prepend in place");
	ASSERT_AVAIL_SAME(a0, "no allocation");
	memset(p, 0x99, 4);
	/* expected: 4 x 0x99, MACs, 81 00 01 23, rest */
	memset(mine, 0x99, 4);
	memcpy(mine + 4, exp, 12);
	mine[16] = 0x81;
	mine[17] = 0x00;
	mine[18] = 0x01;
	mine[19] = 0x23;
	memcpy(mine + 20, exp + 12, 1500 - 12);
	TEST_ASSERT_SUCCESS(tu_cmp(m, mine, 1508), "this copy");
	for (i = 0; i < 3; i++)
		TEST_ASSERT_SUCCESS(tu_cmp(copies[i], exp, 1500), "copy %u", i);
	/* a clone of a copy shares its first segment: no longer writable,
	 * whatever happens to the other copies */
	c = rte_pktmbuf_clone(m, zs->pool[MBUFX_ZONE_HDR]);
	TEST_ASSERT_NOT_NULL(c, "clone");
	rte_pktmbuf_free(copies[0]);
	rte_pktmbuf_free(copies[1]);
	TEST_ASSERT_EQUAL(mbufx_leading_space(m), 0, "shared");
	head = m->data_off;
	p = mbufx_prepend(zs, &m, 2);
	TEST_ASSERT(p != NULL && m != m0 && m0->data_off == head, "chained");
	memset(p, 0x77, 2);
	TEST_ASSERT_SUCCESS(tu_cmp(c, mine, 1508), "clone intact");
	rte_pktmbuf_free(c);
	rte_pktmbuf_free(m);
	rte_pktmbuf_free(copies[2]);
	return TEST_SUCCESS;
}

/* The original is the last copy's payload: shared while the other copies
 * live, writable by the count once they are gone. */
static int
fanout_original_payload(void)
{
	struct rte_mbuf *copies[2], *m, *o, *m0;

	m = tu_make(TU_DIRECT, zs, 128, 1500, 4, &o);
	TEST_ASSERT_NOT_NULL(m, "make");
	m0 = m;
	TEST_ASSERT_EQUAL(mbufx_fanout(zs, m, 14, copies, 2), 2, "fanout");
	TEST_ASSERT(copies[1]->next == m0 && !mbufx_seg_writable(m0),
		    "payload shared");
	rte_pktmbuf_free(copies[0]);
	TEST_ASSERT(mbufx_seg_writable(m0) && m0->data_len == 1486,
		    "sole reader: writable");
	rte_pktmbuf_free(copies[1]);
	return TEST_SUCCESS;
}

/* The original serves as a copy when the others do not read its first
 * segment: it stays writable and takes no mark; the compatibility calls
 * change nothing. */
static int
fanout_original_as_copy(void)
{
	static const uint16_t split[] = { 60, 1440 };
	struct rte_mbuf *copies[3], *m, *o, *m0;
	uint8_t exp[MAXB];
	unsigned int i;

	m = mk_packet(TU_DIRECT, 128, split[0], split + 1, 1, exp, &o);
	TEST_ASSERT_NOT_NULL(m, "make");
	m0 = m;
	TEST_ASSERT_EQUAL(mbufx_fanout(zs, m, 34, copies, 3), 3, "fanout");
	TEST_ASSERT(copies[2] == m0 && rte_mbuf_refcnt_read(m0) == 1 &&
		    mbufx_seg_writable(m0), "original kept, private");
	/* the compatibility calls: no private front, nothing cleared */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
	for (i = 0; i < 3; i++) {
		uint64_t fl = copies[i]->ol_flags;

		TEST_ASSERT_EQUAL(mbufx_own_front(copies[i]), 0, "own_front");
		mbufx_own_front_clear(copies[i]);
		TEST_ASSERT_EQUAL(copies[i]->ol_flags, fl, "clear: no change");
	}
	TEST_ASSERT_EQUAL(mbufx_own_front(NULL), 0, "own_front(NULL)");
	mbufx_own_front_clear(NULL);
#pragma GCC diagnostic pop
	for (i = 0; i < 3; i++) {
		TEST_ASSERT_SUCCESS(tu_cmp(copies[i], exp, 1500), "copy %u", i);
		rte_pktmbuf_free(copies[i]);
	}
	return TEST_SUCCESS;
}

/*
 * Every fan-out copy obeys the one writability rule: its first segment is
 * writable by DPDK's reference counts (so stock rte_vlan_insert() works on
 * it too, and mbufx's calls go in place), until a reference is taken on
 * it; then it is shared like any packet. The original serves as a copy
 * only when no other copy reads its first segment. The compatibility
 * calls mbufx_own_front() and mbufx_own_front_clear() change nothing.
 */
static int
test_fanout_copies_private(void)
{
	TEST_ASSERT_SUCCESS(fanout_copies_writable(), "copies writable");
	TEST_ASSERT_SUCCESS(fanout_original_payload(), "original as payload");
	TEST_ASSERT_SUCCESS(fanout_original_as_copy(), "original as a copy");
	ASSERT_NO_LEAK();
	return TEST_SUCCESS;
}

/*
 * Many copies of a direct packet whose first segment they share: built in
 * two chunks, the last copy's header in the first; a zone running dry in
 * the second chunk gives everything back, that header included.
 */
static int
test_fanout_chunks_direct(void)
{
	static struct rte_mbuf *hv[ALL_N];
	struct rte_mbuf *copies[40], *m, *o;
	unsigned int a0[MBUFX_ZONE_NUM], i, nh;
	uint8_t exp[MAXB];

	m = tu_make(TU_DIRECT, zs, 128, 1500, 6, &o);
	TEST_ASSERT_NOT_NULL(m, "make");
	tu_read(m, exp, MAXB);
	/* 40 headers and 39 indirect mbufs: more than the header zone */
	TEST_ASSERT_EQUAL(mbufx_fanout(zs, m, 14, copies, 40), 40, "fanout");
	TEST_ASSERT(copies[39]->next == m, "the original behind the last");
	for (i = 0; i < 40; i++) {
		TEST_ASSERT_SUCCESS(tu_cmp(copies[i], exp, 1500), "copy %u", i);
		TEST_ASSERT(mbufx_seg_writable(copies[i]), "copy %u private", i);
	}
	rte_pktmbuf_free_bulk(copies, 40);
	ASSERT_NO_LEAK();

	/* room for the first chunk (31 copies and the last header, 63
	 * mbufs) and a little more, not for the second */
	m = tu_make(TU_DIRECT, zs, 128, 1500, 7, &o);
	TEST_ASSERT_NOT_NULL(m, "make");
	tu_read(m, exp, MAXB);
	nh = drain_from(MBUFX_ZONE_HDR, hv, RTE_DIM(hv));
	TEST_ASSERT(nh == ALL_N - 1 && hv[TU_HDR_N]->pool ==
		    zs->pool[MBUFX_ZONE_PKT] && hv[TU_HDR_N + 69]->pool ==
		    zs->pool[MBUFX_ZONE_PKT], "drained in zone order");
	/* 70 packet-zone mbufs back (the fallback of the empty header zone) */
	rte_pktmbuf_free_bulk(&hv[TU_HDR_N], 70);
	memmove(&hv[TU_HDR_N], &hv[TU_HDR_N + 70],
		(nh - TU_HDR_N - 70) * sizeof(hv[0]));
	nh -= 70;
	tu_avail(zs, a0);
	TEST_ASSERT_EQUAL(mbufx_fanout(zs, m, 14, copies, 40), -ENOMEM,
			  "second chunk");
	ASSERT_AVAIL_SAME(a0, "everything back");
	TEST_ASSERT_EQUAL(rte_mbuf_refcnt_read(m), 1, "no reference left");
	TEST_ASSERT_SUCCESS(tu_cmp(m, exp, 1500), "m unchanged");
	rte_pktmbuf_free_bulk(hv, nh);
	rte_pktmbuf_free(m);
	ASSERT_NO_LEAK();
	return TEST_SUCCESS;
}

/*
 * What a reader of a fan-out copy can see stays as it was, whatever the
 * order of references taken and copies freed: the copy mbufx_fanout()
 * keeps is mirrored (rte_pktmbuf_clone()), attached to
 * (rte_pktmbuf_attach()) or held twice (rte_pktmbuf_refcnt_update()), then
 * another copy is freed, then a writing call runs on the kept copy. The
 * reader's bytes, its headroom bytes and its data_off / data_len / pkt_len
 * must not change, mbufx_leading_space() must say 0 while it holds the
 * buffer, and every promised byte is written to prove it.
 */
enum kept_reader { KR_CLONE, KR_ATTACH, KR_REFCNT, KR_NUM };
enum kept_writer { KW_PREPEND, KW_PCONTIG, KW_UNSHARE, KW_PULLUP, KW_VLAN,
		   KW_APPEND, KW_NUM };

/* The reader kr takes of the kept copy k: a new mbuf, or k held twice. */
static struct rte_mbuf *
kept_reader_take(struct mbufx_zone_set *z, struct rte_mbuf *k,
		 enum kept_reader kr)
{
	struct rte_mbuf *r;

	if (kr == KR_CLONE)
		return rte_pktmbuf_clone(k, z->pool[MBUFX_ZONE_HDR]);
	if (kr == KR_ATTACH) {
		r = rte_pktmbuf_alloc(z->pool[MBUFX_ZONE_HDR]);
		if (r != NULL)
			rte_pktmbuf_attach(r, k);
		return r;
	}
	rte_pktmbuf_refcnt_update(k, 1);
	return k;
}

/*
 * The writing call kw on the kept copy *k, every byte it promises written:
 * the packet's data start, or NULL when the call failed.
 */
static uint8_t *
kept_write(struct mbufx_zone_set *z, struct rte_mbuf **k,
	   enum kept_writer kw)
{
	uint8_t add[4] = { 1, 2, 3, 4 };
	uint8_t *p;
	int ret;

	switch (kw) {
	case KW_PREPEND:
		p = mbufx_prepend(z, k, 4);
		if (p != NULL)
			memset(p, 0xa5, 4);
		return p;
	case KW_PCONTIG:
		p = mbufx_prepend_contig(z, k, 4, 18);
		if (p != NULL)
			memset(p, 0xa5, 18);
		return p;
	case KW_UNSHARE:
		p = mbufx_unshare_hdr(z, k, 14);
		if (p != NULL)
			memset(p, 0xa5, 14);
		return p;
	case KW_PULLUP:
		/* contiguous, written only where the rule allows */
		p = mbufx_pullup(z, k, 14);
		if (p != NULL && mbufx_seg_writable(*k))
			memset(p, 0xa5, 14);
		return p;
	case KW_VLAN:
		(*k)->vlan_tci = 0x321;
		ret = mbufx_vlan_insert(z, k);
		return ret == 0 ? rte_pktmbuf_mtod(*k, uint8_t *) : NULL;
	default:
		ret = mbufx_append_data(*k, add, sizeof(add));
		return ret == 0 || ret == -EBUSY || ret == -ENOSPC ?
			rte_pktmbuf_mtod(*k, uint8_t *) : NULL;
	}
}

static int
kept_copy_case(struct mbufx_zone_set *z, enum kept_reader kr,
	       enum kept_writer kw, int free_first)
{
	static const char * const rn[KR_NUM] = { "clone", "attach", "refcnt" };
	static const char * const wn[KW_NUM] = { "prepend", "pcontig",
		"unshare_hdr", "pullup", "vlan_insert", "append_data" };
	struct rte_mbuf *cp[3], *m, *k, *r;
	uint8_t exp[MAXB], rd[MAXB], rhead[MAXB];
	uint16_t r_off, r_dlen, lead, shared_lead;
	uint32_t r_plen, rlen;
	uint8_t *p;

	m = rte_pktmbuf_alloc(z->pool[MBUFX_ZONE_PKT]);
	TEST_ASSERT_NOT_NULL(m, "alloc");
	TEST_ASSERT_SUCCESS(tu_fill(m, 1000, 20 + kr * KW_NUM + kw), "fill");
	tu_read(m, exp, MAXB);
	TEST_ASSERT_EQUAL(mbufx_fanout(z, m, 14, cp, 3), 3, "fanout");
	k = cp[2];
	if (free_first)
		rte_pktmbuf_free(cp[0]);
	r = kept_reader_take(z, k, kr);
	TEST_ASSERT_NOT_NULL(r, "%s", rn[kr]);
	TEST_ASSERT_EQUAL(mbufx_leading_space(k), 0, "%s: shared", rn[kr]);
	if (!free_first)
		rte_pktmbuf_free(cp[0]);
	/* what the reader can see: bytes, headroom, fields */
	rlen = tu_read(r, rd, MAXB);
	r_off = r->data_off;
	r_dlen = r->data_len;
	r_plen = r->pkt_len;
	TEST_ASSERT(r_off <= sizeof(rhead), "headroom");
	memcpy(rhead, r->buf_addr, r_off);
	/* checked after the writer, so that a failure shows what it hit */
	shared_lead = mbufx_leading_space(k);

	p = kept_write(z, &k, kw);
	TEST_ASSERT_NOT_NULL(p, "%s after %s: %s", wn[kw], rn[kr],
			     rte_strerror(rte_errno));
	lead = mbufx_leading_space(k);
	if (lead != 0)
		memset(rte_pktmbuf_mtod_offset(k, uint8_t *, -(int)lead), 0x5a,
		       lead);

	TEST_ASSERT(r->data_off == r_off && r->data_len == r_dlen &&
		    r->pkt_len == r_plen,
		    "%s after %s%s: reader's fields %u/%u/%u -> %u/%u/%u",
		    wn[kw], rn[kr], free_first ? " (copy freed first)" : "",
		    r_off, r_dlen, r_plen, r->data_off, r->data_len,
		    r->pkt_len);
	TEST_ASSERT_SUCCESS(tu_cmp(r, rd, rlen), "%s after %s%s: reader's bytes",
			    wn[kw], rn[kr], free_first ? " (copy freed first)" :
			    "");
	TEST_ASSERT(memcmp(rhead, r->buf_addr, r_off) == 0,
		    "%s after %s%s: reader's headroom written", wn[kw],
		    rn[kr], free_first ? " (copy freed first)" : "");
	TEST_ASSERT_SUCCESS(tu_cmp(cp[1], exp, 1000), "other copy");
	TEST_ASSERT_EQUAL(shared_lead, 0, "%s%s: leading space of the kept "
			  "copy while a reader holds it", rn[kr],
			  free_first ? " (copy freed first)" : "");
	if (kr != KR_REFCNT)
		rte_pktmbuf_free(r);
	else if (k != r)
		rte_pktmbuf_free(r);	/* the second holder's reference */
	else
		rte_pktmbuf_refcnt_update(k, -1);
	rte_pktmbuf_free(k);
	rte_pktmbuf_free(cp[1]);
	return TEST_SUCCESS;
}

static int
test_fanout_kept_copy_readers(void)
{
	static const char * const ops[] = { "mbufx", "ring_mp_mc" };
	struct mbufx_zone_params p;
	struct mbufx_zone_set *z;
	unsigned int i, r, w, f, bad = 0;

	for (i = 0; i < RTE_DIM(ops); i++) {
		if (i == 0) {
			z = zs;
		} else {
			mbufx_zone_params_init(&p);
			p.count[MBUFX_ZONE_HDR] = TU_HDR_N;
			p.count[MBUFX_ZONE_PKT] = TU_PKT_N;
			p.count[MBUFX_ZONE_JUMBO] = TU_JUMBO_N;
			p.cache[MBUFX_ZONE_HDR] = p.cache[MBUFX_ZONE_PKT] =
				p.cache[MBUFX_ZONE_JUMBO] = MBUFX_ZONE_CACHE_NONE;
			p.ops_name = ops[i];
			z = mbufx_zone_set_create("tkept", SOCKET_ID_ANY, &p);
			TEST_ASSERT_NOT_NULL(z, "create %s: %s", ops[i],
					     rte_strerror(rte_errno));
		}
		/* every combination, so that a failure shows them all */
		for (r = 0; r < KR_NUM; r++)
			for (w = 0; w < KW_NUM; w++)
				for (f = 0; f < 2; f++)
					if (kept_copy_case(z, r, w, f) !=
					    TEST_SUCCESS) {
						printf("    (%s ops)\n", ops[i]);
						bad++;
					}
		TEST_ASSERT_EQUAL(bad, 0, "%u sequences wrote what a reader "
				  "sees", bad);
		TEST_ASSERT_SUCCESS(mbufx_zone_set_audit(z, stdout), "leak %s",
				    ops[i]);
		if (z != zs)
			TEST_ASSERT_SUCCESS(mbufx_zone_set_free(z), "free");
	}
	return TEST_SUCCESS;
}

/* vlan_insert writes the bytes and metadata rte_vlan_insert() writes, and
 * works where it refuses (a clone, no headroom). */
static int
test_vlan_insert(void)
{
	struct rte_mbuf *a, *b, *o, *c, *m0, *null = NULL;
	uint8_t exp[MAXB], got[MAXB];
	uint32_t n;

	a = tu_make(TU_DIRECT, zs, 128, 100, 4, &o);
	b = tu_make(TU_DIRECT, zs, 128, 100, 4, &o);
	TEST_ASSERT(a != NULL && b != NULL, "make");
	a->vlan_tci = b->vlan_tci = 0xabc;
	a->ol_flags |= RTE_MBUF_F_TX_VLAN | RTE_MBUF_F_RX_VLAN_STRIPPED;
	b->ol_flags = a->ol_flags;
	a->l2_len = b->l2_len = 14;
	TEST_ASSERT_SUCCESS(rte_vlan_insert(&a), "stock");
	m0 = b;
	TEST_ASSERT_SUCCESS(mbufx_vlan_insert(zs, &b), "mbufx");
	TEST_ASSERT(b == m0, "in place");
	n = tu_read(a, exp, MAXB);
	TEST_ASSERT_SUCCESS(tu_cmp(b, exp, n), "same bytes");
	TEST_ASSERT(a->ol_flags == b->ol_flags && a->l2_len == b->l2_len,
		    "same metadata");
	/* a clone: stock refuses, mbufx copies the 12 address bytes */
	c = rte_pktmbuf_clone(b, zs->pool[MBUFX_ZONE_HDR]);
	TEST_ASSERT_NOT_NULL(c, "clone");
	TEST_ASSERT_EQUAL(rte_vlan_insert(&c), -EINVAL, "stock refuses");
	m0 = c;
	TEST_ASSERT_SUCCESS(mbufx_vlan_insert(zs, &c), "mbufx on a clone");
	TEST_ASSERT(c != m0 && c->data_len >= 16 && mbufx_seg_writable(c),
		    "fresh head holding the tag");
	tu_read(c, got, MAXB);
	TEST_ASSERT(got[16] == 0x81 && got[17] == 0 && got[18] == 0x0a &&
		    got[19] == 0xbc && memcmp(got + 20, exp + 16, n - 16) == 0,
		    "second tag after the first");
	TEST_ASSERT_SUCCESS(tu_cmp(b, exp, n), "original intact");
	rte_pktmbuf_free(c);
	/* errors */
	TEST_ASSERT_EQUAL(mbufx_vlan_insert(zs, NULL), -EINVAL, "NULL");
	TEST_ASSERT_EQUAL(mbufx_vlan_insert(zs, &null), -EINVAL, "NULL m");
	TEST_ASSERT_EQUAL(mbufx_vlan_insert(NULL, &b), -EINVAL, "NULL zs");
	rte_pktmbuf_trim(b, b->pkt_len - 11);
	TEST_ASSERT_EQUAL(mbufx_vlan_insert(zs, &b), -EINVAL, "11 bytes");
	rte_pktmbuf_free(a);
	rte_pktmbuf_free(b);
	ASSERT_NO_LEAK();
	return TEST_SUCCESS;
}

/*
 * prepend_contig: the first contig bytes contiguous and writable, in place
 * when the first segment allows (also after moving its data), a fresh
 * segment otherwise; every documented errno, the packet unchanged.
 */
#define PC_FAILS(z, mp, len, contig, err) do {				\
	rte_errno = 0;							\
	TEST_ASSERT_NULL(mbufx_prepend_contig(z, mp, len, contig),	\
			 "should fail");				\
	TEST_ASSERT_EQUAL(rte_errno, err, "errno");			\
} while (0)

/*
 * A clone of 100 + 300 bytes gets 4 bytes with 46 contiguous: a fresh
 * private head, every promised byte written, the original intact. *m the
 * packet (404 bytes, in exp), *o the original.
 */
static int
pc_clone_head(struct rte_mbuf **m, struct rte_mbuf **o, uint8_t *exp)
{
	static const uint16_t tail[] = { 300 };
	struct rte_mbuf *m0;
	uint8_t *p;

	*m = mk_packet(TU_INDIRECT, 128, 100, tail, 1, exp, o);
	TEST_ASSERT_NOT_NULL(*m, "make");
	m0 = *m;
	p = mbufx_prepend_contig(zs, m, 4, 4 + 42);
	TEST_ASSERT(p != NULL && *m != m0 && (*m)->data_len == 46 &&
		    mbufx_seg_writable(*m), "fresh private head");
	memset(p, 0x44, 46);	/* every promised byte */
	TEST_ASSERT_SUCCESS(tu_cmp(*o, exp, 100), "original intact");
	memmove(exp + 4, exp, 400);
	memset(exp, 0x44, 46);
	TEST_ASSERT_SUCCESS(tu_cmp(*m, exp, 404), "content");
	return TEST_SUCCESS;
}

/*
 * In place in a writable head with headroom (pulled up when the first
 * segment holds too little), the data moved back without headroom, a fresh
 * head on a clone.
 */
static int
test_prepend_contig(void)
{
	static const uint16_t tail[] = { 300 };
	struct rte_mbuf *m, *o, *m0;
	unsigned int a0[MBUFX_ZONE_NUM];
	uint8_t exp[MAXB];
	uint8_t *p;

	/* writable head with headroom and data: in place */
	m = mk_packet(TU_DIRECT, 128, 100, tail, 1, exp, &o);
	TEST_ASSERT_NOT_NULL(m, "make");
	m0 = m;
	tu_avail(zs, a0);
	p = mbufx_prepend_contig(zs, &m, 4, 4 + 60);
	TEST_ASSERT(p != NULL && m == m0 && m->nb_segs == 2, "in place");
	ASSERT_AVAIL_SAME(a0, "no allocation");
	memset(p, 0x11, 4);
	memmove(exp + 4, exp, 400);
	memset(exp, 0x11, 4);
	TEST_ASSERT_SUCCESS(tu_cmp(m, exp, 404), "content");
	/* more than the first segment holds: pulled up in place */
	p = mbufx_prepend_contig(zs, &m, 4, 4 + 200);
	TEST_ASSERT(p != NULL && m == m0 && m->data_len >= 204, "pulled up");
	memset(p, 0x22, 4);
	memmove(exp + 4, exp, 404);
	memset(exp, 0x22, 4);
	TEST_ASSERT_SUCCESS(tu_cmp(m, exp, 408), "content");
	rte_pktmbuf_free(m);

	/* no headroom in a writable head: the data moves back */
	m = mk_packet(TU_DIRECT, 0, 100, tail, 1, exp, &o);
	TEST_ASSERT_NOT_NULL(m, "make");
	m0 = m;
	p = mbufx_prepend_contig(zs, &m, 18, 18 + 34);
	TEST_ASSERT(p != NULL && m == m0 && m->data_off == 0, "moved");
	memset(p, 0x33, 18);
	memmove(exp + 18, exp, 400);
	memset(exp, 0x33, 18);
	TEST_ASSERT_SUCCESS(tu_cmp(m, exp, 418), "content");
	rte_pktmbuf_free(m);

	/* a clone: fresh segment, the clone's bytes and the original intact */
	TEST_RUN(pc_clone_head(&m, &o, exp));
	rte_pktmbuf_free(m);
	rte_pktmbuf_free(o);
	ASSERT_NO_LEAK();
	return TEST_SUCCESS;
}

/*
 * EINVAL, ENOMEM, EOVERFLOW and ENOSPC, the packet unchanged and nothing
 * allocated; a contig within the packet is pulled up in place.
 */
static int
test_prepend_contig_errors(void)
{
	static struct rte_mbuf *hv[ALL_N];
	struct rte_mbuf *m, *o, *m0, *null = NULL, *j1, *j2;
	unsigned int a0[MBUFX_ZONE_NUM], n;
	uint8_t exp[MAXB];

	TEST_RUN(pc_clone_head(&m, &o, exp));
	m0 = m;
	PC_FAILS(NULL, &m, 4, 10, EINVAL);
	PC_FAILS(zs, NULL, 4, 10, EINVAL);
	PC_FAILS(zs, &null, 4, 10, EINVAL);
	PC_FAILS(zs, &m, 4, 4 + 405, EINVAL);	/* beyond the packet */
	TEST_ASSERT_NOT_NULL(mbufx_prepend_contig(zs, &m, 0, 200), "200");
	TEST_ASSERT(m == m0 && m->data_len == 200, "pulled in place");
	n = drain_from(MBUFX_ZONE_HDR, hv, RTE_DIM(hv));
	rte_mbuf_refcnt_update(m, 1);	/* shared: needs a fresh segment */
	tu_avail(zs, a0);
	PC_FAILS(zs, &m, 4, 14, ENOMEM);
	ASSERT_AVAIL_SAME(a0, "nothing allocated");
	TEST_ASSERT_SUCCESS(tu_cmp(m, exp, 404), "unchanged");
	rte_pktmbuf_free_bulk(hv, n);
	n = m->nb_segs;
	m->nb_segs = RTE_MBUF_MAX_NB_SEGS;
	PC_FAILS(zs, &m, 4, 14, EOVERFLOW);
	m->nb_segs = (uint16_t)n;
	rte_mbuf_refcnt_update(m, -1);
	m->pkt_len = UINT32_MAX - 2;
	PC_FAILS(zs, &m, 4, 14, EOVERFLOW);
	m->pkt_len = 404;
	TEST_ASSERT(m == m0, "head unchanged");
	TEST_ASSERT_SUCCESS(tu_cmp(m, exp, 404), "unchanged");
	rte_pktmbuf_free(m);
	rte_pktmbuf_free(o);

	/* contig beyond every zone's buffer */
	j1 = mbufx_alloc(zs, 9216);
	j2 = mbufx_alloc(zs, 9216);
	TEST_ASSERT(j1 != NULL && j2 != NULL, "jumbo");
	TEST_ASSERT_SUCCESS(tu_fill(j1, 9000, 1), "fill");
	TEST_ASSERT_SUCCESS(tu_fill(j2, 1000, 2), "fill");
	TEST_ASSERT_SUCCESS(rte_pktmbuf_chain(j1, j2), "chain");
	PC_FAILS(zs, &j1, 4, 9345, ENOSPC);
	rte_pktmbuf_free(j1);
	ASSERT_NO_LEAK();
	return TEST_SUCCESS;
}
#undef PC_FAILS

/* Header zone dry: pullup and fan-out take the next larger zone, counted,
 * exactly as prepend does (test_prepend_zone_fallback). */
static int
test_hdr_fallback(void)
{
	static const uint16_t tail[] = { 300 };
	static struct rte_mbuf *hv[ALL_N];
	struct rte_mbuf *m, *o, *copies[3];
	struct mbufx_zone_stats s0, s1;
	uint8_t exp[MAXB];
	unsigned int n, i;
	void *p;

	m = mk_packet(TU_INDIRECT, 128, 20, tail, 1, exp, &o);
	TEST_ASSERT_NOT_NULL(m, "make");
	n = tu_drain(zs->pool[MBUFX_ZONE_HDR], hv, RTE_DIM(hv));
	mbufx_zone_set_stats(zs, &s0);
	p = mbufx_pullup(zs, &m, 64);
	TEST_RUN(pullup_check(m, exp, 64, p));
	TEST_ASSERT(m->pool == zs->pool[MBUFX_ZONE_PKT], "packet zone");
	TEST_ASSERT_EQUAL(mbufx_fanout(zs, m, 14, copies, 3), 3, "fanout");
	mbufx_zone_set_stats(zs, &s1);
	/* pullup: 1 head; fan-out: 2 headers + 2 indirect (the pulled-up
	 * head is private and serves as the third copy) */
	TEST_ASSERT_EQUAL(s1.hdr_fallback - s0.hdr_fallback, 5, "counted");
	TEST_ASSERT_EQUAL(s1.alloc[MBUFX_ZONE_HDR], s0.alloc[MBUFX_ZONE_HDR],
			  "nothing from the dry zone");
	for (i = 0; i < 3; i++) {
		TEST_ASSERT_SUCCESS(tu_cmp(copies[i], exp, 320), "copy %u", i);
		rte_pktmbuf_free(copies[i]);
	}
	rte_pktmbuf_free(o);
	rte_pktmbuf_free_bulk(hv, n);
	ASSERT_NO_LEAK();
	return TEST_SUCCESS;
}

/*
 * The head may change: with the debug checks built in (-Ddebug_checks or
 * -Dsanitize), a demoted head the caller owned alone is marked and passing
 * it back aborts with a message; without them this only shows the trap.
 */
static int
test_stale_head(void)
{
	struct rte_mbuf *m, *o, *m0;
	void *p;

	m = tu_make(TU_DIRECT, zs, 0, 100, 7, &o);	/* no headroom */
	TEST_ASSERT_NOT_NULL(m, "make");
	m0 = m;
	p = mbufx_prepend(zs, &m, 14);
	TEST_ASSERT(p != NULL && m != m0 && m->next == m0, "head changed");
#ifdef MBUFX_DEBUG
	{
		pid_t pid;
		int st;

		TEST_ASSERT_EQUAL(m0->nb_segs, 0, "demoted head marked");
		TEST_ASSERT_SUCCESS(rte_mbuf_check(m, 1, NULL), "packet valid");
		fflush(stdout);
		pid = fork();
		TEST_ASSERT(pid >= 0, "fork");
		if (pid == 0) {
			/* ported code that kept the old head */
			p = mbufx_prepend(zs, &m0, 4);
			_exit(0);
		}
		TEST_ASSERT_EQUAL(waitpid(pid, &st, 0), pid, "wait");
		TEST_ASSERT(WIFSIGNALED(st) && WTERMSIG(st) == SIGABRT,
			    "the stale head aborts (status %d)", st);
		printf("    debug checks: the stale head was caught\n");
	}
#else
	printf("    debug checks not built in (-Ddebug_checks=true)\n");
#endif
	rte_pktmbuf_free(m);
	ASSERT_NO_LEAK();
	return TEST_SUCCESS;
}

/* ---- no pool is ever asked for zero objects -------------------------- */

/*
 * A fan-out whose copies share nothing (a deep copy, or hdr_len == pkt_len)
 * with its header from a zone other than the header zone used to ask the
 * header zone for zero indirect mbufs. The stock ring driver refuses a
 * request for zero objects when no per-lcore cache serves it (cache 0, or
 * any non-EAL thread), so the call failed with ENOMEM although memory was
 * plentiful. Every call that may need no mbuf of some zone runs here.
 */
static int
zero_requests_run(struct mbufx_zone_set *z)
{
	static const struct {
		uint16_t len, hdr_len;
		unsigned int n;
	} fc[] = {
		{ 2000, 1900, 2 },	/* the report: deep, packet-zone header */
		{ 2000, 2000, 3 },	/* hdr_len == pkt_len */
		{ 2000, 1900, 1 },	/* the original alone */
		{ 100, 14, 2 },		/* deep, header-zone header */
		{ 1500, 300, 2 },	/* shared payload, packet-zone header */
	};
	struct rte_mbuf *m, *copies[4], *v[2], *o;
	uint8_t exp[MAXB];
	unsigned int i, j;
	int ret;

	for (i = 0; i < RTE_DIM(fc); i++) {
		for (j = 0; j < 2; j++) {
			/* private original (j = 0) and a clone (j = 1) */
			m = mbufx_alloc(z, fc[i].len);
			TEST_ASSERT_NOT_NULL(m, "alloc: %s",
					     rte_strerror(rte_errno));
			TEST_ASSERT_SUCCESS(tu_fill(m, fc[i].len, i), "fill");
			tu_read(m, exp, MAXB);
			o = NULL;
			if (j == 1) {
				o = m;
				m = rte_pktmbuf_clone(o, z->pool[MBUFX_ZONE_HDR]);
				TEST_ASSERT_NOT_NULL(m, "clone");
			}
			ret = mbufx_fanout(z, m, fc[i].hdr_len, copies, fc[i].n);
			TEST_ASSERT_EQUAL(ret, (int)fc[i].n,
					  "fanout %u of %u x %u: %s", fc[i].hdr_len,
					  fc[i].len, fc[i].n,
					  ret < 0 ? strerror(-ret) : "");
			while (ret-- > 0) {
				TEST_ASSERT_SUCCESS(tu_cmp(copies[ret], exp,
							   fc[i].len), "copy");
				rte_pktmbuf_free(copies[ret]);
			}
			rte_pktmbuf_free(o);
		}
	}
	TEST_ASSERT_SUCCESS(mbufx_alloc_bulk(z, v, 0, 64), "bulk of 0");
	TEST_ASSERT_SUCCESS(mbufx_alloc_bulk(z, v, 0, 9000), "jumbo bulk of 0");
	TEST_ASSERT_SUCCESS(mbufx_alloc_bulk(z, v, 2, 64), "bulk of 2");
	rte_pktmbuf_free_bulk(v, 2);
	TEST_ASSERT_SUCCESS(mbufx_zone_set_audit(z, stdout), "leak");
	return TEST_SUCCESS;
}

static void *
zero_requests_thread(void *arg)
{
	/* not an EAL lcore: no mempool cache, counters in the shared slot */
	if (rte_lcore_id() != LCORE_ID_ANY)
		return (void *)(uintptr_t)TEST_FAILED;
	return (void *)(uintptr_t)zero_requests_run(arg);
}

static int
test_zero_requests(void)
{
	static const char * const ops[] = { "mbufx", "ring_mp_mc" };
	struct mbufx_zone_params p;
	struct mbufx_zone_set *z;
	unsigned int i, c, zid;
	char name[MBUFX_ZONE_SET_NAMESIZE];
	pthread_t th;
	void *res;

	for (i = 0; i < RTE_DIM(ops); i++) {
		for (c = 0; c < 2; c++) {
			mbufx_zone_params_init(&p);
			p.count[MBUFX_ZONE_HDR] = TU_HDR_N;
			p.count[MBUFX_ZONE_PKT] = TU_PKT_N;
			p.count[MBUFX_ZONE_JUMBO] = TU_JUMBO_N;
			for (zid = 0; zid < MBUFX_ZONE_NUM; zid++)
				p.cache[zid] = c == 0 ? MBUFX_ZONE_CACHE_NONE :
					0; /* 0: the default cache */
			p.ops_name = ops[i];
			snprintf(name, sizeof(name), "tzr%u", i * 2 + c);
			z = mbufx_zone_set_create(name, SOCKET_ID_ANY, &p);
			TEST_ASSERT_NOT_NULL(z, "create %s: %s", ops[i],
					     rte_strerror(rte_errno));
			printf("    %s, %s cache: EAL lcore, non-EAL thread\n",
			       ops[i], c == 0 ? "no" : "default");
			TEST_RUN(zero_requests_run(z));
			TEST_ASSERT_SUCCESS(pthread_create(&th, NULL,
					zero_requests_thread, z), "thread");
			TEST_ASSERT_SUCCESS(pthread_join(th, &res), "join");
			TEST_ASSERT_EQUAL((int)(uintptr_t)res, TEST_SUCCESS,
					  "%s from a non-EAL thread", ops[i]);
			TEST_ASSERT_SUCCESS(mbufx_zone_set_free(z), "free");
		}
	}
	return TEST_SUCCESS;
}

/* The application private area moves with the rest of the metadata. */
static int
test_priv_area(void)
{
	struct mbufx_zone_params p;
	struct mbufx_zone_set *z;
	struct rte_mbuf *m, *c;
	uint8_t *priv;
	void *q;

	mbufx_zone_params_init(&p);
	p.count[MBUFX_ZONE_HDR] = 15;
	p.count[MBUFX_ZONE_PKT] = 15;
	p.count[MBUFX_ZONE_JUMBO] = 3;
	p.cache[MBUFX_ZONE_HDR] = p.cache[MBUFX_ZONE_PKT] =
		p.cache[MBUFX_ZONE_JUMBO] = MBUFX_ZONE_CACHE_NONE;
	p.priv_size = 24;
	z = mbufx_zone_set_create("tpriv", SOCKET_ID_ANY, &p);
	TEST_ASSERT_NOT_NULL(z, "create: %s", rte_strerror(rte_errno));
	m = mbufx_alloc(z, 100);
	TEST_ASSERT_NOT_NULL(m, "alloc");
	TEST_ASSERT_SUCCESS(tu_fill(m, 100, 1), "fill");
	priv = rte_mbuf_to_priv(m);
	memset(priv, 0x77, 24);
	c = rte_pktmbuf_clone(m, z->pool[MBUFX_ZONE_HDR]);
	TEST_ASSERT_NOT_NULL(c, "clone");
	memset(rte_mbuf_to_priv(c), 0x66, 24);
	/* shared: chained header, which gets the clone's private area */
	q = mbufx_prepend(z, &c, 8);
	TEST_ASSERT(q != NULL && c->nb_segs == 2, "chained");
	TEST_ASSERT(((uint8_t *)rte_mbuf_to_priv(c))[0] == 0x66 &&
		    ((uint8_t *)rte_mbuf_to_priv(c))[23] == 0x66,
		    "private area moved");
	/* and a fresh pullup head as well */
	q = mbufx_pullup(z, &c, 50);
	TEST_ASSERT_NOT_NULL(q, "pullup");
	TEST_ASSERT(((uint8_t *)rte_mbuf_to_priv(c))[23] == 0x66, "pullup");
	TEST_ASSERT(priv[0] == 0x77, "original's private area untouched");
	rte_pktmbuf_free(c);
	rte_pktmbuf_free(m);
	TEST_ASSERT_SUCCESS(mbufx_zone_set_audit(z, stdout), "leak");
	TEST_ASSERT_SUCCESS(mbufx_zone_set_free(z), "free");
	return TEST_SUCCESS;
}

/* ---- why the library exists ----------------------------------------- */

static int
test_stock_prepend_corrupts(void)
{
	uint8_t exp[MAXB];
	struct rte_mbuf *m, *c1, *c2;
	struct rte_mempool *cp = zs->pool[MBUFX_ZONE_HDR];
	uint8_t *p;
	int corrupted;

	/* Two clones of one packet, each gets its own 4-byte encapsulation
	 * with stock rte_pktmbuf_prepend(): both write into the same
	 * headroom, the second overwrites the first. */
	m = tu_make(TU_DIRECT, zs, 128, 200, 1, &c1);
	tu_read(m, exp + 4, MAXB);
	c1 = rte_pktmbuf_clone(m, cp);
	c2 = rte_pktmbuf_clone(m, cp);
	TEST_ASSERT(c1 != NULL && c2 != NULL, "clones");
	p = (uint8_t *)rte_pktmbuf_prepend(c1, 4);
	TEST_ASSERT_NOT_NULL(p, "stock prepend accepts a clone");
	memset(p, 0xaa, 4);
	p = (uint8_t *)rte_pktmbuf_prepend(c2, 4);
	memset(p, 0xbb, 4);
	memset(exp, 0xaa, 4);
	corrupted = tu_cmp(c1, exp, 204) != 0;
	TEST_ASSERT(corrupted, "stock prepend on clone 2 corrupts clone 1");
	TEST_ASSERT_EQUAL(*rte_pktmbuf_mtod(c1, uint8_t *), 0xbb,
			  "clone 1 reads clone 2's header");
	rte_pktmbuf_free(c1);
	rte_pktmbuf_free(c2);

	/* The same with mbufx_prepend(): each clone keeps its own. */
	c1 = rte_pktmbuf_clone(m, cp);
	c2 = rte_pktmbuf_clone(m, cp);
	p = mbufx_prepend(zs, &c1, 4);
	TEST_ASSERT_NOT_NULL(p, "mbufx prepend");
	memset(p, 0xaa, 4);
	p = mbufx_prepend(zs, &c2, 4);
	memset(p, 0xbb, 4);
	TEST_ASSERT_SUCCESS(tu_cmp(c1, exp, 204), "clone 1 intact");
	memset(exp, 0xbb, 4);
	TEST_ASSERT_SUCCESS(tu_cmp(c2, exp, 204), "clone 2 intact");
	TEST_ASSERT_SUCCESS(tu_cmp(m, exp + 4, 200), "original intact");
	rte_pktmbuf_free(c1);
	rte_pktmbuf_free(c2);

	/* Strip-and-replace the Ethernet header on a clone (adj 14, prepend
	 * 14): stock code overwrites the header the original still reads. */
	c1 = rte_pktmbuf_clone(m, cp);
	rte_pktmbuf_adj(c1, 14);
	p = (uint8_t *)rte_pktmbuf_prepend(c1, 14);
	memset(p, 0xcc, 14);
	TEST_ASSERT(tu_cmp(m, exp + 4, 200) != 0,
		    "stock prepend after adj corrupts the original");
	rte_pktmbuf_free(c1);
	/* repair, then mbufx */
	tu_pattern(rte_pktmbuf_mtod(m, uint8_t *), 200, 1);
	c1 = rte_pktmbuf_clone(m, cp);
	rte_pktmbuf_adj(c1, 14);
	p = mbufx_prepend(zs, &c1, 14);
	memset(p, 0xcc, 14);
	TEST_ASSERT_SUCCESS(tu_cmp(m, exp + 4, 200), "original intact");
	rte_pktmbuf_free(c1);
	rte_pktmbuf_free(m);
	ASSERT_NO_LEAK();
	return TEST_SUCCESS;
}

static const struct mbufx_test_suite mbuf_suite = {
	.name = "mbufx_mbuf",
	.setup = suite_setup,
	.teardown = suite_teardown,
	.cases = {
		MBUFX_TEST_CASE(test_writable_table),
		MBUFX_TEST_CASE(test_prepend_kinds),
		MBUFX_TEST_CASE(test_prepend_multiseg),
		MBUFX_TEST_CASE(test_prepend_bad_args),
		MBUFX_TEST_CASE(test_prepend_zone_fallback),
		MBUFX_TEST_CASE(test_prepend_overflow),
		MBUFX_TEST_CASE(test_pullup_kinds),
		MBUFX_TEST_CASE(test_pullup_move),
		MBUFX_TEST_CASE(test_pullup_shared_struct),
		MBUFX_TEST_CASE(test_pullup_errors),
		MBUFX_TEST_CASE(test_unshare_hdr),
		MBUFX_TEST_CASE(test_fanout),
		MBUFX_TEST_CASE(test_fanout_shapes),
		MBUFX_TEST_CASE(test_fanout_bad_args),
		MBUFX_TEST_CASE(test_fanout_enomem),
		MBUFX_TEST_CASE(test_fanout_refcnt_overflow),
		MBUFX_TEST_CASE(test_zero_requests),
		MBUFX_TEST_CASE(test_fanout_deep_bigger_zone),
		MBUFX_TEST_CASE(test_unshare_zero),
		MBUFX_TEST_CASE(test_append_busy),
		MBUFX_TEST_CASE(test_fanout_copies_private),
		MBUFX_TEST_CASE(test_fanout_chunks_direct),
		MBUFX_TEST_CASE(test_fanout_kept_copy_readers),
		MBUFX_TEST_CASE(test_vlan_insert),
		MBUFX_TEST_CASE(test_prepend_contig),
		MBUFX_TEST_CASE(test_prepend_contig_errors),
		MBUFX_TEST_CASE(test_hdr_fallback),
		MBUFX_TEST_CASE(test_stale_head),
		MBUFX_TEST_CASE(test_empty_first_segment),
		MBUFX_TEST_CASE(test_exhaustion_sweep),
		MBUFX_TEST_CASE(test_tx_prepare_after_prepend),
		MBUFX_TEST_CASE(test_priv_area),
		MBUFX_TEST_CASE(test_stock_prepend_corrupts),
		MBUFX_TEST_CASES_END(),
	},
};

static int
test_mbufx_mbuf(void)
{
	return mbufx_test_suite_run(&mbuf_suite);
}

MBUFX_TEST_REGISTER(mbufx_mbuf_autotest, test_mbufx_mbuf);
