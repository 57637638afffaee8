/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The mbufx authors
 */

/* Helpers of the libmbufx autotests (see test_mbufx_util.h). */

#include <stdio.h>
#include <string.h>

#include <rte_malloc.h>
#include <rte_mbuf.h>
#include <rte_memzone.h>

#include "mbufx_test.h"
#include "test_mbufx_util.h"

const char * const tu_kind_names[TU_KIND_NUM] = {
	[TU_DIRECT] = "direct",
	[TU_INDIRECT] = "indirect",
	[TU_INDIRECT_SOLE] = "indirect-sole",
	[TU_EXT] = "external",
	[TU_EXT_SHARED] = "external-shared",
	[TU_PINNED] = "pinned-external",
};

int tu_ext_live;

static struct rte_mempool *pinned_mp;
static const struct rte_memzone *pinned_mz;

struct mbufx_zone_set *
tu_zs_create_n(const char *name, uint32_t hdr, uint32_t pkt, uint32_t jumbo)
{
	struct mbufx_zone_params p;
	unsigned int z;

	mbufx_zone_params_init(&p);
	p.count[MBUFX_ZONE_HDR] = hdr;
	p.count[MBUFX_ZONE_PKT] = pkt;
	p.count[MBUFX_ZONE_JUMBO] = jumbo;
	if (hdr == 0)
		p.flags |= MBUFX_ZONE_F_NO_HDR;
	if (jumbo == 0)
		p.flags |= MBUFX_ZONE_F_NO_JUMBO;
	for (z = 0; z < MBUFX_ZONE_NUM; z++)
		p.cache[z] = MBUFX_ZONE_CACHE_NONE;
	return mbufx_zone_set_create(name, SOCKET_ID_ANY, &p);
}

struct mbufx_zone_set *
tu_zs_create(const char *name)
{
	return tu_zs_create_n(name, TU_HDR_N, TU_PKT_N, TU_JUMBO_N);
}

void
tu_pattern(uint8_t *p, uint32_t n, uint32_t s)
{
	uint32_t i, x = s * 2654435761u + 1;

	for (i = 0; i < n; i++) {
		x ^= x << 13;
		x ^= x >> 17;
		x ^= x << 5;
		p[i] = (uint8_t)x;
	}
}

int
tu_fill(struct rte_mbuf *m, uint32_t n, uint32_t s)
{
	uint8_t *p = (uint8_t *)rte_pktmbuf_append(m, (uint16_t)n);

	if (p == NULL)
		return -1;
	tu_pattern(p, n, s);
	return 0;
}

static void
ext_free_cb(void *addr __rte_unused, void *opaque)
{
	rte_free(opaque);
	tu_ext_live--;
}

struct rte_mbuf *
tu_ext_alloc(struct rte_mempool *mp, uint16_t room)
{
	struct rte_mbuf_ext_shared_info *shinfo;
	struct rte_mbuf *m;
	uint16_t buf_len;
	void *buf;

	m = rte_pktmbuf_alloc(mp);
	if (m == NULL)
		return NULL;
	buf_len = (uint16_t)(RTE_PKTMBUF_HEADROOM + room + sizeof(*shinfo) + 8);
	buf = rte_malloc(NULL, buf_len, RTE_CACHE_LINE_SIZE);
	if (buf == NULL) {
		rte_pktmbuf_free(m);
		return NULL;
	}
	shinfo = rte_pktmbuf_ext_shinfo_init_helper(buf, &buf_len, ext_free_cb,
						    buf);
	rte_pktmbuf_attach_extbuf(m, buf, rte_malloc_virt2iova(buf), buf_len,
				  shinfo);
	rte_pktmbuf_reset_headroom(m);
	tu_ext_live++;
	return m;
}

struct rte_mempool *
tu_pinned_pool(void)
{
	struct rte_pktmbuf_extmem em;
	const uint16_t elt = 2176;
	const unsigned int n = 63;

	if (pinned_mp != NULL)
		return pinned_mp;
	pinned_mz = rte_memzone_reserve_aligned("tu_pinned_mz", (size_t)elt * n,
			SOCKET_ID_ANY, RTE_MEMZONE_IOVA_CONTIG, RTE_CACHE_LINE_SIZE);
	if (pinned_mz == NULL)
		pinned_mz = rte_memzone_reserve_aligned("tu_pinned_mz",
				(size_t)elt * n, SOCKET_ID_ANY, 0,
				RTE_CACHE_LINE_SIZE);
	if (pinned_mz == NULL)
		return NULL;
	em.buf_ptr = pinned_mz->addr;
	em.buf_iova = pinned_mz->iova;
	em.buf_len = (size_t)elt * n;
	em.elt_size = elt;
	pinned_mp = rte_pktmbuf_pool_create_extbuf("tu_pinned", n, 0, 0, elt,
						   SOCKET_ID_ANY, &em, 1);
	if (pinned_mp == NULL) {
		rte_memzone_free(pinned_mz);
		pinned_mz = NULL;
	}
	return pinned_mp;
}

void
tu_pinned_pool_free(void)
{
	rte_mempool_free(pinned_mp);
	pinned_mp = NULL;
	rte_memzone_free(pinned_mz);
	pinned_mz = NULL;
}

struct rte_mbuf *
tu_make(enum tu_kind k, struct mbufx_zone_set *zs, uint16_t headroom,
	uint16_t len, uint32_t s, struct rte_mbuf **other)
{
	struct rte_mempool *pkt = zs->pool[MBUFX_ZONE_PKT];
	struct rte_mempool *hdr = zs->pool[MBUFX_ZONE_HDR] != NULL ?
		zs->pool[MBUFX_ZONE_HDR] : pkt;
	struct rte_mbuf *m = NULL, *c;

	*other = NULL;
	switch (k) {
	case TU_DIRECT:
	case TU_INDIRECT:
	case TU_INDIRECT_SOLE:
		m = rte_pktmbuf_alloc(pkt);
		break;
	case TU_EXT:
	case TU_EXT_SHARED:
		m = tu_ext_alloc(hdr, 2048);
		break;
	case TU_PINNED:
		if (tu_pinned_pool() == NULL)
			return NULL;
		m = rte_pktmbuf_alloc(tu_pinned_pool());
		break;
	default:
		return NULL;
	}
	if (m == NULL)
		return NULL;
	if (headroom > m->buf_len || (uint32_t)headroom + len > m->buf_len) {
		rte_pktmbuf_free(m);
		return NULL;
	}
	m->data_off = headroom;
	if (tu_fill(m, len, s) != 0) {
		rte_pktmbuf_free(m);
		return NULL;
	}
	if (k == TU_DIRECT || k == TU_EXT || k == TU_PINNED)
		return m;
	c = rte_pktmbuf_clone(m, hdr);
	if (c == NULL) {
		rte_pktmbuf_free(m);
		return NULL;
	}
	if (k == TU_INDIRECT_SOLE) {
		rte_pktmbuf_free(m);
		return c;
	}
	*other = m;
	return c;
}

uint32_t
tu_read(const struct rte_mbuf *m, uint8_t *out, uint32_t cap)
{
	const struct rte_mbuf *s;
	uint32_t off = 0, k;

	for (s = m; s != NULL; s = s->next) {
		k = RTE_MIN((uint32_t)s->data_len, cap - RTE_MIN(cap, off));
		memcpy(out + off, rte_pktmbuf_mtod(s, const uint8_t *), k);
		off += s->data_len;
	}
	return m->pkt_len;
}

int
tu_cmp(const struct rte_mbuf *m, const uint8_t *exp, uint32_t len)
{
	const struct rte_mbuf *s;
	const char *reason = NULL;
	const uint8_t *p;
	uint32_t off = 0, i;

	if (rte_mbuf_check(m, 1, &reason) != 0) {
		printf("    bad mbuf: %s\n", reason);
		return -1;
	}
	if (m->pkt_len != len) {
		printf("    pkt_len %u, expected %u\n", m->pkt_len, len);
		return -1;
	}
	for (s = m; s != NULL; s = s->next) {
		p = rte_pktmbuf_mtod(s, const uint8_t *);
		if (off + s->data_len > len) {
			printf("    segments hold more than pkt_len\n");
			return -1;
		}
		if (memcmp(p, exp + off, s->data_len) != 0) {
			for (i = 0; p[i] == exp[off + i]; i++)
				;
			printf("    byte %u differs: 0x%02x, expected 0x%02x\n",
			       off + i, p[i], exp[off + i]);
			return -1;
		}
		off += s->data_len;
	}
	return off == len ? 0 : -1;
}

void
tu_avail(const struct mbufx_zone_set *zs, unsigned int avail[MBUFX_ZONE_NUM])
{
	unsigned int z;

	for (z = 0; z < MBUFX_ZONE_NUM; z++)
		avail[z] = zs->pool[z] != NULL ?
			rte_mempool_avail_count(zs->pool[z]) : 0;
}

unsigned int
tu_drain(struct rte_mempool *mp, struct rte_mbuf **v, unsigned int cap)
{
	unsigned int n = 0;

	while (n < cap && (v[n] = rte_pktmbuf_alloc(mp)) != NULL)
		n++;
	return n;
}

int
tu_stat_table_check(const struct mbufx_stat_field *t, unsigned int n,
		    size_t size, size_t *end)
{
	uint8_t covered[1024];
	size_t b, e = 0;
	unsigned int i;

	TEST_ASSERT(t != NULL && n > 0, "empty table");
	TEST_ASSERT(size <= sizeof(covered), "struct of %zu bytes", size);
	memset(covered, 0, size);
	for (i = 0; i < n; i++) {
		TEST_ASSERT(t[i].name != NULL && t[i].desc != NULL,
			    "entry %u unnamed", i);
		TEST_ASSERT(t[i].offset >= e, "%s out of order", t[i].name);
		TEST_ASSERT(t[i].n == 1 || t[i].n == MBUFX_ZONE_NUM, "%s n",
			    t[i].name);
		e = t[i].offset + (size_t)t[i].size * t[i].n;
		TEST_ASSERT(e <= size, "%s beyond the struct", t[i].name);
		for (b = t[i].offset; b < e; b++)
			covered[b]++;
	}
	/* everything up to the last field, the tail padding aside */
	for (b = 0; b < e; b++)
		TEST_ASSERT_EQUAL(covered[b], 1, "byte %zu of the struct is in "
				  "%u table entries", b, covered[b]);
	*end = e;
	return TEST_SUCCESS;
}
