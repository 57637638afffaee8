/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The mbufx authors
 */

/*
 * Autotests of late metadata attach (mbufx_rx.h).
 *
 * What they protect:
 * - refill hands out, for every object of a pool, the data address and IOVA
 *   that the mbuf header holds (buf_addr/buf_iova + headroom) and that
 *   rte_mempool_virt2iova() gives, for pools of one chunk, of hundreds of
 *   chunks with different IOVA offsets (PA mode, external 4K pages, synthetic
 *   populate), jumbo data rooms and private areas;
 * - refill and return neither read nor write mbuf headers (poisoned headers
 *   stay poisoned and do not leak into the results);
 * - attach builds an mbuf byte-identical to rte_pktmbuf_reset() plus the
 *   fields a PMD fills, also for mbufs that were used, chained and freed;
 * - an exhausted pool gives partial refills, counted; return gives back
 *   exactly the buffers; every pool is full at the end;
 * - every documented errno of the control path;
 * - the device-offset calls (AF_XDP): refill as UMEM offsets that map back
 *   to buf_addr, attach at the device's data offset, one-pass chains that
 *   pass rte_mbuf_check(), recycled buffers counted as posted.
 */

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#include <rte_errno.h>
#include <rte_launch.h>
#include <rte_lcore.h>
#include <rte_malloc.h>
#include <rte_mbuf.h>
#include <rte_memzone.h>
#include <rte_mempool.h>
#include <rte_random.h>

#include "mbufx.h"
#include "mbufx_test.h"
#include "test_mbufx_util.h"

#define RX_PORT 7

static uint16_t
pool_headroom(struct rte_mempool *mp)
{
	return RTE_MIN((uint16_t)RTE_PKTMBUF_HEADROOM,
		       rte_pktmbuf_data_room_size(mp));
}

static int
ptr_cmp(const void *a, const void *b)
{
	uintptr_t x = *(const uintptr_t *)a, y = *(const uintptr_t *)b;

	return x < y ? -1 : x > y;
}

/* ---- synthetic pools: populated piece by piece with chosen IOVAs -------- */

enum synth_iova {
	SYNTH_SCATTERED,	/* a different IOVA offset per piece */
	SYNTH_PACKED,		/* the same, pieces sharing 4 KiB pages */
	SYNTH_UNIFORM,		/* one offset, pieces with gaps between them */
	SYNTH_BAD,		/* every piece RTE_BAD_IOVA */
	SYNTH_MIXED,		/* every other piece RTE_BAD_IOVA */
};

#define SYNTH_PIECES 7

struct synth {
	struct rte_mempool *mp;
	const struct rte_memzone *mz;
};

static void
synth_free(struct synth *s)
{
	rte_mempool_free(s->mp);
	rte_memzone_free(s->mz);
	s->mp = NULL;
	s->mz = NULL;
}

/* A pktmbuf pool of per * SYNTH_PIECES objects from one memzone, populated
 * in shuffled order, or only `populate` pieces of it. */
static int
synth_create(struct synth *s, const char *name, unsigned int per,
	     uint16_t priv_size, enum synth_iova kind, unsigned int populate)
{
	struct rte_pktmbuf_pool_private pp = {
		.mbuf_data_room_size = RTE_MBUF_DEFAULT_BUF_SIZE,
		.mbuf_priv_size = priv_size,
	};
	size_t total, piece_len, stride;
	unsigned int j, i;
	rte_iova_t iova;
	char *va;
	int ret;

	memset(s, 0, sizeof(*s));
	/* NO_IOVA_CONTIG: objects are packed regardless of page boundaries,
	 * so each piece holds exactly `per` objects whatever the page size;
	 * the IOVAs given below are what the chunks claim, as for any pool */
	s->mp = rte_mempool_create_empty(name, per * SYNTH_PIECES,
			sizeof(struct rte_mbuf) + priv_size +
			RTE_MBUF_DEFAULT_BUF_SIZE, 0, sizeof(pp),
			SOCKET_ID_ANY, RTE_MEMPOOL_F_NO_IOVA_CONTIG);
	TEST_ASSERT_NOT_NULL(s->mp, "create_empty: %s", rte_strerror(rte_errno));
	TEST_ASSERT_SUCCESS(rte_mempool_set_ops_byname(s->mp, "ring_mp_mc",
						       NULL), "set ops");
	rte_pktmbuf_pool_init(s->mp, &pp);
	total = s->mp->header_size + s->mp->elt_size + s->mp->trailer_size;
	piece_len = per * total + RTE_CACHE_LINE_SIZE;
	/* pieces on pages of their own, or packed one cache line apart */
	stride = kind == SYNTH_PACKED ?
		RTE_ALIGN_CEIL(piece_len + RTE_CACHE_LINE_SIZE,
			       RTE_CACHE_LINE_SIZE) :
		RTE_ALIGN_CEIL(piece_len + 4096, 4096);
	s->mz = rte_memzone_reserve_aligned(name, stride * SYNTH_PIECES,
					    SOCKET_ID_ANY, 0, 4096);
	TEST_ASSERT_NOT_NULL(s->mz, "memzone: %s", rte_strerror(rte_errno));
	for (j = 0; j < populate; j++) {
		i = (j * 3) % SYNTH_PIECES;	/* 0 3 6 2 5 1 4 */
		va = (char *)s->mz->addr + i * stride;
		switch (kind) {
		case SYNTH_SCATTERED:
		case SYNTH_PACKED:
			/* below and above va, not sorted like va */
			iova = (rte_iova_t)(uintptr_t)va +
				((i & 1) ? 0x100000000ULL * (i + 1) :
				 -0x200000ULL * (i + 3));
			break;
		case SYNTH_UNIFORM:
			iova = (rte_iova_t)(uintptr_t)va + 0x40000000ULL;
			break;
		case SYNTH_BAD:
			iova = RTE_BAD_IOVA;
			break;
		default:
			iova = (i & 1) ? RTE_BAD_IOVA : (uintptr_t)va;
			break;
		}
		ret = rte_mempool_populate_iova(s->mp, va, iova, piece_len,
						NULL, NULL);
		TEST_ASSERT_EQUAL(ret, (int)per, "populate piece %u", i);
	}
	rte_mempool_obj_iter(s->mp, rte_pktmbuf_init, NULL);
	return TEST_SUCCESS;
}

/* ---- IOVA and address correctness ---------------------------------------- */

static const unsigned int bursts[] = { 1, 7, 32, 64, 100, 255 };

/* addr/iova of a buffer against what the mbuf header and the mempool say */
static int
check_buf(struct rte_mempool *mp, uint32_t flags, uint16_t room,
	  struct rte_mbuf *m, const void *addr, rte_iova_t iova)
{
	uint16_t headroom = pool_headroom(mp);
	char *want = (char *)m->buf_addr + headroom;
	rte_iova_t wiova = rte_mbuf_iova_get(m) + headroom;
	rte_iova_t viova = rte_mempool_virt2iova(m) + sizeof(*m) +
		rte_pktmbuf_priv_size(mp) + headroom;

	if (addr != want || (const char *)addr + room !=
			(char *)m->buf_addr + m->buf_len) {
		TEST_FAIL_MSG("%s: obj %p addr %p want %p", mp->name,
		       (void *)m, addr, want);
		return TEST_FAILED;
	}
	if (flags & MBUFX_RX_F_NO_IOVA) {
		if (iova != RTE_BAD_IOVA) {
			TEST_FAIL_MSG("%s: iova without IOVA", mp->name);
			return TEST_FAILED;
		}
	} else if (iova != wiova || iova != viova) {
		TEST_FAIL_MSG("%s: obj %p iova 0x%" PRIx64 " header 0x%" PRIx64
		       " virt2iova 0x%" PRIx64, mp->name, (void *)m, iova,
		       wiova, viova);
		return TEST_FAILED;
	}
	return TEST_SUCCESS;
}

/*
 * The context's memory ranges (mbufx_rx_chunk_get()): sorted, disjoint, and
 * together holding every object of the pool whole; -ENOENT past the last
 * one, -EINVAL for a NULL argument. Returns the number of ranges, or 0 on
 * a failure (printed).
 */
static unsigned int
check_ranges(const struct mbufx_rx *rx, const struct rte_mempool *mp,
	     const uintptr_t *objs, unsigned int n)
{
	size_t len = mp->header_size + mp->elt_size + mp->trailer_size;
	uintptr_t s, e, prev_e = 0;
	unsigned int nr, i, j;

	if (mbufx_rx_chunk_get(rx, 0, NULL, &e) != -EINVAL ||
	    mbufx_rx_chunk_get(NULL, 0, &s, &e) != -EINVAL) {
		TEST_FAIL_MSG("%s: chunk_get takes NULL", mp->name);
		return 0;
	}
	for (nr = 0; mbufx_rx_chunk_get(rx, nr, &s, &e) == 0; nr++) {
		if (e <= s || s < prev_e) {
			TEST_FAIL_MSG("%s: range %u [%#" PRIxPTR ", %#" PRIxPTR
			       ") not sorted or empty", mp->name, nr, s, e);
			return 0;
		}
		prev_e = e;
	}
	if (nr == 0 || mbufx_rx_chunk_get(rx, nr, &s, &e) != -ENOENT) {
		TEST_FAIL_MSG("%s: %u ranges", mp->name, nr);
		return 0;
	}
	for (i = 0; i < n; i++) {
		for (j = 0; j < nr; j++) {
			mbufx_rx_chunk_get(rx, j, &s, &e);
			if (objs[i] - mp->header_size >= s &&
			    objs[i] - mp->header_size + len <= e)
				break;
		}
		if (j == nr) {
			TEST_FAIL_MSG("%s: object %#" PRIxPTR " in no range",
			       mp->name, objs[i]);
			return 0;
		}
	}
	return nr;
}

/*
 * Refill every object of mp through a context and check each buffer against
 * the header: addr == buf_addr + headroom, iova == buf_iova + headroom ==
 * rte_mempool_virt2iova(obj) + sizeof(mbuf) + priv + headroom; every object
 * exactly once; then return them all.
 */
static int
check_pool(struct rte_mempool *mp, uint32_t flags, int want_kind,
	   unsigned int min_chunks)
{
	struct mbufx_rx_info info;
	struct mbufx_rx_stats st;
	struct mbufx_rx_buf *bufs, extra;
	struct mbufx_rx *rx;
	uintptr_t *objs;
	void **handles;
	unsigned int n = mp->size, got = 0, k, r, i, b = 0;
	uint16_t headroom = pool_headroom(mp);
	int ret = TEST_FAILED;

	rx = mbufx_rx_create(mp, RX_PORT, flags);
	TEST_ASSERT_NOT_NULL(rx, "create on %s: %s", mp->name,
			     rte_strerror(rte_errno));
	bufs = calloc(n, sizeof(*bufs));
	objs = calloc(n, sizeof(*objs));
	if (bufs == NULL || objs == NULL)
		goto out;
	if (mbufx_rx_info_get(rx, &info) != 0)
		goto out;
	printf("  %s: %u objs, room %u, priv %u, %u chunks, iova kind %d "
	       "(%u pages of 2^%u)\n", mp->name, n,
	       rte_pktmbuf_data_room_size(mp), rte_pktmbuf_priv_size(mp),
	       rx->nb_chunks, rx->iova_kind, rx->nb_pages, rx->page_shift);
	if ((want_kind >= 0 && (int)rx->iova_kind != want_kind) ||
			rx->nb_chunks < min_chunks ||
			info.headroom != headroom || info.port != RX_PORT ||
			info.room != rte_pktmbuf_data_room_size(mp) - headroom) {
		TEST_FAIL_MSG("%s: unexpected info", mp->name);
		goto out;
	}

	while (got < n) {
		k = RTE_MIN(bursts[b++ % RTE_DIM(bursts)], n - got);
		r = mbufx_rx_refill(rx, &bufs[got], k);
		if (r != k) {
			TEST_FAIL_MSG("%s: refill %u of %u at %u", mp->name, r,
			       k, got);
			goto out;
		}
		got += r;
	}
	if (mbufx_rx_refill(rx, &extra, 1) != 0) {
		TEST_FAIL_MSG("%s: refill from an empty pool", mp->name);
		goto out;
	}
	for (i = 0; i < n; i++) {
		objs[i] = (uintptr_t)bufs[i].handle;
		if (check_buf(mp, flags, info.room, bufs[i].handle,
			      bufs[i].addr, bufs[i].iova) != TEST_SUCCESS)
			goto out;
	}
	if (check_ranges(rx, mp, objs, n) == 0)
		goto out;
	qsort(objs, n, sizeof(*objs), ptr_cmp);
	for (i = 1; i < n; i++)
		if (objs[i] == objs[i - 1]) {
			TEST_FAIL_MSG("%s: object handed out twice", mp->name);
			goto out;
		}
	mbufx_rx_stats_get(rx, &st);
	if (st.refilled != n || st.refill_fails != 1 || st.refill_missed != 1 ||
			st.posted != n) {
		TEST_FAIL_MSG("%s: stats refilled %" PRIu64 " fails %" PRIu64,
		       mp->name, st.refilled, st.refill_fails);
		goto out;
	}
	mbufx_rx_return(rx, bufs, n);
	mbufx_rx_stats_get(rx, &st);
	if (st.returned != n || st.posted != 0 ||
			rte_mempool_avail_count(mp) != n) {
		TEST_FAIL_MSG("%s: not full after return", mp->name);
		goto out;
	}

	/* the same through the PMD-shaped calls: handles, then arithmetic */
	handles = (void **)bufs;	/* n pointers fit in n buffers */
	for (got = 0; got < n; got += k) {
		k = RTE_MIN(32u, n - got);
		if (mbufx_rx_refill_bulk(rx, &handles[got], k) == 0)
			continue;
		k = 1;		/* the rest of a cache and the backend */
		if (mbufx_rx_refill_bulk(rx, &handles[got], 1) != 0)
			break;
	}
	if (got != n || mbufx_rx_refill_bulk(rx, &extra.handle, 1) !=
			-ENOBUFS) {
		TEST_FAIL_MSG("%s: bulk refill got %u of %u", mp->name, got, n);
		goto out;
	}
	for (i = 0; i < n; i++)
		if (check_buf(mp, flags, info.room, handles[i],
			      mbufx_rx_handle_addr(rx, handles[i]),
			      mbufx_rx_handle_iova(rx, handles[i])) !=
				TEST_SUCCESS)
			goto out;
	mbufx_rx_return_handles(rx, handles, n);
	mbufx_rx_stats_get(rx, &st);
	if (st.posted != 0 || rte_mempool_avail_count(mp) != n) {
		TEST_FAIL_MSG("%s: not full after bulk return", mp->name);
		goto out;
	}

	/* the burst IOVA form: the same IOVAs as one handle at a time */
	for (got = 0; got < n; got += k) {
		rte_iova_t iova[32];

		k = RTE_MIN(32u, n - got);
		if (mbufx_rx_refill_iova(rx, &handles[got], iova, k) != 0) {
			k = 1;
			if (mbufx_rx_refill_iova(rx, &handles[got], iova,
						 1) != 0)
				break;
		}
		for (i = got; i < got + k; i++)
			if (iova[i - got] != mbufx_rx_handle_iova(rx,
								  handles[i]) ||
					check_buf(mp, flags, info.room,
						  handles[i],
						  mbufx_rx_handle_addr(rx,
								handles[i]),
						  iova[i - got]) !=
					TEST_SUCCESS) {
				TEST_FAIL_MSG("%s: burst IOVA of buffer %u",
				       mp->name, i);
				goto out;
			}
	}
	if (got != n) {
		TEST_FAIL_MSG("%s: IOVA refill got %u of %u", mp->name, got, n);
		goto out;
	}
	mbufx_rx_return_handles(rx, handles, n);
	ret = TEST_SUCCESS;
out:
	free(bufs);
	free(objs);
	mbufx_rx_free(rx);
	return ret;
}

static int
check_created(const char *name, unsigned int n, unsigned int cache,
	      uint16_t priv, uint16_t room, const char *ops)
{
	struct rte_mempool *mp;
	int ret;

	mp = rte_pktmbuf_pool_create_by_ops(name, n, cache, priv, room,
					    SOCKET_ID_ANY, ops);
	TEST_ASSERT_NOT_NULL(mp, "pool %s: %s", name, rte_strerror(rte_errno));
	ret = check_pool(mp, 0, -1, 1);
	rte_mempool_free(mp);
	return ret;
}

static int
test_rx_iova_pools(void)
{
	TEST_RUN(check_created("rx_ring2k", 2047, 0, 0, 2176, "ring_mp_mc"));
	TEST_RUN(check_created("rx_mbufx2k", 4095, 256, 0, 2176, "mbufx"));
	TEST_RUN(check_created("rx_priv64", 1023, 64, 64, 2176, "mbufx"));
	TEST_RUN(check_created("rx_jumbo", 2047, 64, 24, 9344, "mbufx"));
	/* big enough for many chunks in PA mode (2 MiB pages) */
	TEST_RUN(check_created("rx_jumbo_big", 8191, 0, 0, 9344,
			       "ring_mp_mc"));
	/* smallest room: one byte after the headroom */
	TEST_RUN(check_created("rx_tiny", 511, 0, 8,
			       RTE_PKTMBUF_HEADROOM + 1, "ring_mp_mc"));
	return TEST_SUCCESS;
}

static int
test_rx_iova_synthetic(void)
{
	struct synth s;
	int ret;

	/* different offsets, pieces populated out of address order */
	TEST_RUN(synth_create(&s, "rx_syn_scat", 150, 16, SYNTH_SCATTERED,
			      SYNTH_PIECES));
	ret = check_pool(s.mp, 0, MBUFX_RX_IOVA_PAGES, SYNTH_PIECES);
	synth_free(&s);
	TEST_RUN(ret);
	/* different offsets within one 4 KiB page: the search fallback */
	TEST_RUN(synth_create(&s, "rx_syn_pack", 150, 16, SYNTH_PACKED,
			      SYNTH_PIECES));
	ret = check_pool(s.mp, 0, MBUFX_RX_IOVA_TABLE, SYNTH_PIECES);
	synth_free(&s);
	TEST_RUN(ret);
	/* same offset everywhere: the linear fast path despite 7 chunks */
	TEST_RUN(synth_create(&s, "rx_syn_unif", 150, 0, SYNTH_UNIFORM,
			      SYNTH_PIECES));
	ret = check_pool(s.mp, 0, MBUFX_RX_IOVA_LINEAR, SYNTH_PIECES);
	synth_free(&s);
	TEST_RUN(ret);
	/* no IOVA at all: refused without the flag, RTE_BAD_IOVA with it */
	TEST_RUN(synth_create(&s, "rx_syn_bad", 100, 0, SYNTH_BAD,
			      SYNTH_PIECES));
	rte_errno = 0;
	ret = mbufx_rx_create(s.mp, 0, 0) == NULL && rte_errno == ENOTSUP ?
		check_pool(s.mp, MBUFX_RX_F_NO_IOVA, MBUFX_RX_IOVA_NONE, 1) :
		TEST_FAILED;
	synth_free(&s);
	TEST_ASSERT_SUCCESS(ret, "all-bad pool");
	/* part of the memory without IOVA: refused as a whole */
	TEST_RUN(synth_create(&s, "rx_syn_mix", 100, 0, SYNTH_MIXED,
			      SYNTH_PIECES));
	rte_errno = 0;
	ret = mbufx_rx_create(s.mp, 0, 0) == NULL && rte_errno == ENOTSUP ?
		check_pool(s.mp, MBUFX_RX_F_NO_IOVA, MBUFX_RX_IOVA_NONE, 1) :
		TEST_FAILED;
	synth_free(&s);
	TEST_ASSERT_SUCCESS(ret, "mixed pool");
	return TEST_SUCCESS;
}

/*
 * A pool in an external heap of plain 4 KiB pages: in PA mode every page is
 * its own chunk with its own physical address (hundreds of chunks, table
 * lookups across pages); in VA mode one chunk.
 */
static int
test_rx_iova_extmem(void)
{
	const size_t len = 32 << 20, pg = 4096;
	struct rte_mempool *mp = NULL;
	int socket, ret = TEST_FAILED;
	void *va;

	va = mmap(NULL, len, PROT_READ | PROT_WRITE,
		  MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);
	TEST_ASSERT(va != MAP_FAILED, "mmap");
	if (rte_malloc_heap_create("rx_ext") != 0)
		goto unmap;
	if (rte_malloc_heap_memory_add("rx_ext", va, len, NULL, 0, pg) != 0) {
		printf("heap add: %s\n", rte_strerror(rte_errno));
		goto destroy;
	}
	socket = rte_malloc_heap_get_socket("rx_ext");
	mp = rte_pktmbuf_pool_create_by_ops("rx_ext_pool", 2047, 0, 0, 2176,
					    socket, "ring_mp_mc");
	if (mp == NULL) {
		printf("pool: %s\n", rte_strerror(rte_errno));
		goto remove;
	}
	ret = check_pool(mp, 0,
			 rte_eal_iova_mode() == RTE_IOVA_VA ?
			 MBUFX_RX_IOVA_LINEAR : -1, 1);
	rte_mempool_free(mp);
remove:
	rte_malloc_heap_memory_remove("rx_ext", va, len);
destroy:
	rte_malloc_heap_destroy("rx_ext");
unmap:
	munmap(va, len);
	return ret;
}

/* ---- headers are not read or written by refill / return ----------------- */

#define POISON 0xa5

struct saved_hdr {
	uintptr_t obj;
	void *addr;
	rte_iova_t iova;
	rte_iova_t objhdr_iova;
	uint8_t hdr[sizeof(struct rte_mbuf)];
};

static int
saved_cmp(const void *a, const void *b)
{
	const struct saved_hdr *x = a, *y = b;

	return x->obj < y->obj ? -1 : x->obj > y->obj;
}

static struct saved_hdr *
saved_find(struct saved_hdr *sv, unsigned int n, const void *obj)
{
	struct saved_hdr key = { .obj = (uintptr_t)obj };

	return bsearch(&key, sv, n, sizeof(*sv), saved_cmp);
}

static int
poisoned(const void *obj)
{
	const uint8_t *p = obj;
	size_t i;

	for (i = 0; i < sizeof(struct rte_mbuf); i++)
		if (p[i] != POISON)
			return 0;
	return 1;
}

/*
 * Take every object out raw, remember where its data is, overwrite its whole
 * mbuf header (both cache lines) and the mempool object header's IOVA with
 * garbage, put it back raw. Refill must still give the right address and
 * IOVA (so it derived them from neither header) and leave the garbage as is
 * (so it wrote nothing); return likewise. Headers are restored at the end.
 */
static int
check_untouched(struct rte_mempool *mp, uint32_t flags)
{
	struct mbufx_rx_buf *bufs = NULL;
	struct saved_hdr *sv = NULL, *h;
	struct mbufx_rx *rx = NULL;
	void **objs = NULL;
	const unsigned int n = mp->size;
	unsigned int i, k, got;
	int ret = TEST_FAILED;

	objs = calloc(n, sizeof(*objs));
	sv = calloc(n, sizeof(*sv));
	bufs = calloc(n, sizeof(*bufs));
	rx = mbufx_rx_create(mp, RX_PORT, flags);
	if (objs == NULL || sv == NULL || bufs == NULL || rx == NULL)
		goto out;
	if (rte_mempool_get_bulk(mp, objs, n) != 0)
		goto out;
	for (i = 0; i < n; i++) {
		struct rte_mbuf *m = objs[i];

		sv[i].obj = (uintptr_t)m;
		sv[i].addr = rte_pktmbuf_mtod(m, void *);
		sv[i].iova = (flags & MBUFX_RX_F_NO_IOVA) ? RTE_BAD_IOVA :
			rte_pktmbuf_iova(m);
		sv[i].objhdr_iova = rte_mempool_get_header(m)->iova;
		memcpy(sv[i].hdr, m, sizeof(*m));
		memset(m, POISON, sizeof(*m));
		rte_mempool_get_header(m)->iova = 0xdead0000beefULL;
	}
	qsort(sv, n, sizeof(*sv), saved_cmp);
	rte_mempool_put_bulk(mp, objs, n);

	for (got = 0; got < n; got += i)
		if ((i = mbufx_rx_refill(rx, &bufs[got],
					 RTE_MIN(32u, n - got))) == 0)
			break;
	if (got != n) {
		TEST_FAIL_MSG("refill %u of %u", got, n);
		goto restore_all;
	}
	for (i = 0; i < n; i++) {
		h = saved_find(sv, n, bufs[i].handle);
		if (h == NULL || bufs[i].addr != h->addr ||
				bufs[i].iova != h->iova ||
				!poisoned(bufs[i].handle)) {
			TEST_FAIL_MSG("buffer %u: %s", i, h == NULL ?
			       "unknown handle" : !poisoned(bufs[i].handle) ?
			       "header written by refill" :
			       "address or IOVA from the header");
			goto restore_all;
		}
	}
	mbufx_rx_return(rx, bufs, n);

	/* the PMD-shaped calls: bulk refill, address arithmetic per handle */
	for (got = 0; got < n; got += k) {
		k = RTE_MIN(32u, n - got);
		if (mbufx_rx_refill_bulk(rx, &objs[got], k) == 0)
			continue;
		k = 1;
		if (mbufx_rx_refill_bulk(rx, &objs[got], 1) != 0)
			break;
	}
	if (got != n) {
		TEST_FAIL_MSG("bulk refill %u of %u", got, n);
		goto restore_handles;
	}
	for (i = 0; i < n; i++) {
		h = saved_find(sv, n, objs[i]);
		if (h == NULL || !poisoned(objs[i]) ||
				mbufx_rx_handle_addr(rx, objs[i]) != h->addr ||
				mbufx_rx_handle_iova(rx, objs[i]) != h->iova) {
			TEST_FAIL_MSG("handle %u: wrong, or header touched", i);
			goto restore_handles;
		}
	}
	mbufx_rx_return_handles(rx, objs, n);

	if (rte_mempool_get_bulk(mp, objs, n) != 0)
		goto out;
	for (i = 0; i < n; i++)
		if (!poisoned(objs[i])) {
			TEST_FAIL_MSG("header written by return");
			break;
		}
	ret = i == n ? TEST_SUCCESS : TEST_FAILED;
	goto restore;

restore_all:
	/* put what refill took back and take everything out once more */
	mbufx_rx_return(rx, bufs, got);
	goto take_all;
restore_handles:
	mbufx_rx_return_handles(rx, objs, got);
take_all:
	if (rte_mempool_get_bulk(mp, objs, n) != 0)
		goto out;
restore:
	for (i = 0; i < n; i++) {
		h = saved_find(sv, n, objs[i]);
		if (h == NULL) {	/* cannot happen: same object set */
			ret = TEST_FAILED;
			continue;
		}
		memcpy(objs[i], h->hdr, sizeof(struct rte_mbuf));
		rte_mempool_get_header(objs[i])->iova = h->objhdr_iova;
	}
	rte_mempool_put_bulk(mp, objs, n);
	if (rte_mempool_avail_count(mp) != n)
		ret = TEST_FAILED;
out:
	mbufx_rx_free(rx);
	free(bufs);
	free(sv);
	free(objs);
	return ret;
}

static int
untouched_created(const char *ops, unsigned int cache)
{
	struct rte_mempool *mp;
	int ret;

	mp = rte_pktmbuf_pool_create_by_ops("rx_poison", 1023, cache, 0, 2176,
					    SOCKET_ID_ANY, ops);
	TEST_ASSERT_NOT_NULL(mp, "pool: %s", rte_strerror(rte_errno));
	ret = check_untouched(mp, 0);
	rte_mempool_free(mp);
	return ret;
}

static int
untouched_synth(enum synth_iova kind, uint32_t flags)
{
	struct synth s;
	int ret;

	TEST_RUN(synth_create(&s, "rx_poison_syn", 64, 0, kind, SYNTH_PIECES));
	ret = check_untouched(s.mp, flags);
	synth_free(&s);
	return ret;
}

static int
test_rx_headers_untouched(void)
{
	TEST_RUN(untouched_created("ring_mp_mc", 0));
	TEST_RUN(untouched_created("mbufx", 0));
	TEST_RUN(untouched_created("mbufx", 256));
	/* each IOVA kind: linear, pages, table, none */
	TEST_RUN(untouched_synth(SYNTH_UNIFORM, 0));
	TEST_RUN(untouched_synth(SYNTH_SCATTERED, 0));
	TEST_RUN(untouched_synth(SYNTH_PACKED, 0));
	TEST_RUN(untouched_synth(SYNTH_BAD, MBUFX_RX_F_NO_IOVA));
	return TEST_SUCCESS;
}

/* ---- attach gives what a PMD gives --------------------------------------- */

static void
random_meta(struct mbufx_rx_meta *md, uint16_t room)
{
	static const uint64_t flags[] = {
		0,
		RTE_MBUF_F_RX_RSS_HASH | RTE_MBUF_F_RX_IP_CKSUM_GOOD |
			RTE_MBUF_F_RX_L4_CKSUM_GOOD,
		RTE_MBUF_F_RX_VLAN | RTE_MBUF_F_RX_VLAN_STRIPPED |
			RTE_MBUF_F_RX_RSS_HASH,
		RTE_MBUF_F_RX_QINQ | RTE_MBUF_F_RX_QINQ_STRIPPED |
			RTE_MBUF_F_RX_VLAN | RTE_MBUF_F_RX_VLAN_STRIPPED,
		RTE_MBUF_F_RX_FDIR | RTE_MBUF_F_RX_FDIR_ID |
			RTE_MBUF_F_RX_IP_CKSUM_BAD,
	};
	uint64_t r = rte_rand();

	md->ol_flags = flags[r % RTE_DIM(flags)];
	md->packet_type = RTE_PTYPE_L2_ETHER | RTE_PTYPE_L3_IPV4 |
		((r >> 8) & 1 ? RTE_PTYPE_L4_UDP : RTE_PTYPE_L4_TCP);
	md->len = 1 + (uint16_t)((r >> 16) % room);
	md->rss = (uint32_t)(r >> 32) | 1;
	md->hash_hi = (md->ol_flags & RTE_MBUF_F_RX_FDIR_ID) ?
		(uint32_t)rte_rand() : 0;
	md->vlan_tci = (md->ol_flags & RTE_MBUF_F_RX_VLAN) ?
		(uint16_t)(r >> 24) | 1 : 0;
	md->vlan_tci_outer = (md->ol_flags & RTE_MBUF_F_RX_QINQ) ?
		(uint16_t)(r >> 40) | 1 : 0;
}

/* Leave stale metadata in every mbuf of mp the way real traffic does. */
static int
dirty_pool(struct rte_mempool *mp, unsigned int n)
{
	struct rte_mbuf *m[n];
	unsigned int i;

	TEST_ASSERT_SUCCESS(rte_pktmbuf_alloc_bulk(mp, m, n), "alloc");
	for (i = 0; i < n; i++) {
		rte_pktmbuf_append(m[i], 300);
		rte_pktmbuf_adj(m[i], 14);
		m[i]->ol_flags |= RTE_MBUF_F_RX_VLAN | RTE_MBUF_F_RX_RSS_HASH |
			RTE_MBUF_F_TX_IPV4;
		m[i]->packet_type = 0xffffffff;
		m[i]->vlan_tci = 0xbeef;
		m[i]->vlan_tci_outer = 0xcafe;
		m[i]->hash.fdir.lo = 0x11111111;
		m[i]->hash.fdir.hi = 0x22222222;
		m[i]->port = 42;
		m[i]->tx_offload = 0x123456789ULL;
	}
	/* chains: freeing restores next = NULL, nb_segs = 1 in the pool */
	for (i = 0; i + 1 < n; i += 2)
		TEST_ASSERT_SUCCESS(rte_pktmbuf_chain(m[i], m[i + 1]), "chain");
	for (i = 0; i < n; i += 2)
		rte_pktmbuf_free(m[i]);
	return TEST_SUCCESS;
}

static int
check_attach(int dirty)
{
	const unsigned int n = 64;
	struct rte_mbuf ref, *pkts[n], *m;
	struct mbufx_rx_meta md[n];
	struct mbufx_rx_buf bufs[n];
	struct mbufx_rx_stats st;
	struct mbufx_rx_burst b;
	struct mbufx_rx_info info;
	void *handles[n];
	uint64_t tx_offload[n];
	struct rte_mempool *mp;
	struct mbufx_rx *rx;
	const char *reason;
	unsigned int i, j;

	mp = rte_pktmbuf_pool_create_by_ops(dirty ? "rx_attach1" : "rx_attach0",
					    n, 0, 16, 2176, SOCKET_ID_ANY,
					    "mbufx");
	TEST_ASSERT_NOT_NULL(mp, "pool: %s", rte_strerror(rte_errno));
	if (dirty)
		TEST_RUN(dirty_pool(mp, n));
	rx = mbufx_rx_create(mp, RX_PORT, 0);
	TEST_ASSERT_NOT_NULL(rx, "create");
	mbufx_rx_info_get(rx, &info);
	TEST_ASSERT_EQUAL(mbufx_rx_refill(rx, bufs, n), n, "refill");
	for (i = 0; i < n; i++) {
		m = bufs[i].handle;
		/* the invariant attach relies on (test only: line 1 read) */
		TEST_ASSERT(m->next == NULL && m->nb_segs == 1,
			    "free mbuf with next/nb_segs set");
		tx_offload[i] = m->tx_offload;
		random_meta(&md[i], info.room);
		/* the "DMA": the frame lands at addr */
		for (j = 0; j < md[i].len; j++)
			((uint8_t *)bufs[i].addr)[j] = (uint8_t)(i + j);
		handles[i] = bufs[i].handle;
	}
	/* all three forms: simple, meta, burst */
	for (i = 0; i < n / 4; i++) {
		md[i].rss = md[i].hash_hi = 0;
		md[i].vlan_tci = md[i].vlan_tci_outer = 0;
		pkts[i] = mbufx_rx_attach(rx, &bufs[i], md[i].len,
					  md[i].ol_flags, md[i].packet_type);
	}
	for (; i < 3 * n / 8; i++)
		pkts[i] = mbufx_rx_attach_meta(rx, handles[i], &md[i]);
	/* a receive loop's form: uncounted per buffer, counted per burst */
	b = mbufx_rx_burst_begin(rx);
	for (; i < n / 2; i++)
		pkts[i] = mbufx_rx_attach_uncounted(&b, handles[i], &md[i]);
	mbufx_rx_stats_get(rx, &st);
	TEST_ASSERT_EQUAL(st.attached, 3 * n / 8, "uncounted attach counted");
	mbufx_rx_attached(rx, n / 2 - 3 * n / 8);
	TEST_ASSERT_EQUAL(mbufx_rx_attach_burst(rx, &handles[i], &md[i],
						&pkts[i], n - i), n - i,
			  "burst");

	for (i = 0; i < n; i++) {
		m = pkts[i];
		TEST_ASSERT(m == bufs[i].handle, "attach returned another mbuf");
		TEST_ASSERT(rte_mbuf_check(m, 1, &reason) == 0,
			    "rte_mbuf_check: %s", reason);
		TEST_ASSERT(rte_pktmbuf_mtod(m, void *) == bufs[i].addr, "mtod");
		TEST_ASSERT(rte_pktmbuf_iova(m) == bufs[i].iova, "iova");
		TEST_ASSERT_EQUAL(rte_mbuf_refcnt_read(m), 1, "refcnt");
		TEST_ASSERT_EQUAL(rte_pktmbuf_tailroom(m),
				  info.room - md[i].len, "tailroom");
		for (j = 0; j < md[i].len; j++)
			TEST_ASSERT_EQUAL(rte_pktmbuf_mtod(m, uint8_t *)[j],
					  (uint8_t)(i + j), "frame byte %u", j);
		/* what a PMD hands out: reset + the descriptor's fields */
		memcpy(&ref, m, sizeof(ref));
		rte_pktmbuf_reset(m);
		m->port = RX_PORT;
		m->ol_flags = md[i].ol_flags;
		m->packet_type = md[i].packet_type;
		m->pkt_len = md[i].len;
		m->data_len = md[i].len;
		m->hash.rss = md[i].rss;
		m->hash.fdir.hi = md[i].hash_hi;
		m->vlan_tci = md[i].vlan_tci;
		m->vlan_tci_outer = md[i].vlan_tci_outer;
		/* the one field reset clears and PMDs leave: second line */
		TEST_ASSERT_EQUAL(ref.tx_offload, tx_offload[i],
				  "attach wrote the second cache line");
		TEST_ASSERT_EQUAL(ref.tx_offload, dirty ? 0x123456789ULL : 0,
				  "stale tx_offload");
		m->tx_offload = ref.tx_offload;
		TEST_ASSERT(memcmp(&ref, m, sizeof(ref)) == 0,
			    "mbuf %u differs from reset + PMD fill", i);
	}
	mbufx_rx_stats_get(rx, &st);
	TEST_ASSERT_EQUAL(st.attached, n, "attached");
	TEST_ASSERT_EQUAL(st.posted, 0, "posted");
	rte_pktmbuf_free_bulk(pkts, n);
	TEST_ASSERT_EQUAL(rte_mempool_avail_count(mp), n, "leak");
	mbufx_rx_free(rx);
	rte_mempool_free(mp);
	return TEST_SUCCESS;
}

static int
test_rx_attach_fresh(void)
{
	return check_attach(0);
}

static int
test_rx_attach_reused(void)
{
	return check_attach(1);
}

/* ---- exhaustion, return, stats ------------------------------------------ */

static int
check_exhaust(const char *ops, unsigned int cache)
{
	struct mbufx_rx_buf bufs[160];
	struct mbufx_rx_stats st;
	struct rte_mempool *mp;
	struct mbufx_rx *rx;
	void *h[101];

	mp = rte_pktmbuf_pool_create_by_ops("rx_exhaust", 100, cache, 0, 2176,
					    SOCKET_ID_ANY, ops);
	TEST_ASSERT_NOT_NULL(mp, "pool: %s", rte_strerror(rte_errno));
	rx = mbufx_rx_create(mp, 0, 0);
	TEST_ASSERT_NOT_NULL(rx, "create");
	/* bulk form: all or nothing */
	TEST_ASSERT_EQUAL(mbufx_rx_refill_bulk(rx, h, 101), -ENOBUFS, "bulk");
	TEST_ASSERT_EQUAL(rte_mempool_avail_count(mp), 100, "nothing taken");
	TEST_ASSERT_SUCCESS(mbufx_rx_refill_bulk(rx, h, 100), "bulk of all");
	TEST_ASSERT_EQUAL(mbufx_rx_refill_bulk(rx, &h[100], 1), -ENOBUFS,
			  "bulk from empty pool");
	mbufx_rx_return_handles(rx, h, 100);
	{
		rte_iova_t iova[101];

		iova[0] = 0;
		TEST_ASSERT_EQUAL(mbufx_rx_refill_iova(rx, h, iova, 101),
				  -ENOBUFS, "IOVA bulk");
		TEST_ASSERT_EQUAL(iova[0], 0, "IOVAs written on failure");
		TEST_ASSERT_EQUAL(rte_mempool_avail_count(mp), 100,
				  "nothing taken by the IOVA bulk");
	}
	mbufx_rx_stats_get(rx, &st);
	TEST_ASSERT_EQUAL(st.refilled, 100, "refilled");
	TEST_ASSERT_EQUAL(st.refill_fails, 3, "fails");
	TEST_ASSERT_EQUAL(st.refill_missed, 203, "missed");
	TEST_ASSERT_EQUAL(st.posted, 0, "posted");

	/* burst form: as many as there are */
	TEST_ASSERT_EQUAL(mbufx_rx_refill(rx, bufs, 64), 64, "first 64");
	/* 36 left: a partial refill takes all of them */
	TEST_ASSERT_EQUAL(mbufx_rx_refill(rx, &bufs[64], 64), 36, "partial");
	TEST_ASSERT_EQUAL(mbufx_rx_refill(rx, &bufs[100], 8), 0, "none");
	TEST_ASSERT_EQUAL(rte_mempool_avail_count(mp), 0, "pool empty");
	mbufx_rx_stats_get(rx, &st);
	TEST_ASSERT_EQUAL(st.refilled, 200, "refilled");
	TEST_ASSERT_EQUAL(st.refill_fails, 5, "fails");
	TEST_ASSERT_EQUAL(st.refill_missed, 203 + 28 + 8, "missed");
	TEST_ASSERT_EQUAL(st.posted, 100, "posted");
	mbufx_rx_return(rx, bufs, 100);
	TEST_ASSERT_EQUAL(rte_mempool_avail_count(mp), 100, "full again");
	/* one call larger than the internal bulk, more than the pool holds */
	TEST_ASSERT_EQUAL(mbufx_rx_refill(rx, bufs, 160), 100, "big refill");
	mbufx_rx_stats_get(rx, &st);
	TEST_ASSERT_EQUAL(st.refill_fails, 6, "fails");
	TEST_ASSERT_EQUAL(st.refill_missed, 239 + 60, "missed");
	mbufx_rx_return(rx, bufs, 100);
	TEST_ASSERT_EQUAL(rte_mempool_avail_count(mp), 100, "full again");
	TEST_ASSERT_EQUAL(mbufx_rx_refill(rx, bufs, 0), 0, "refill of 0");
	mbufx_rx_stats_get(rx, &st);
	TEST_ASSERT_EQUAL(st.posted, 0, "posted");
	mbufx_rx_free(rx);
	rte_mempool_free(mp);
	return TEST_SUCCESS;
}

static int
test_rx_refill_exhausted(void)
{
	TEST_RUN(check_exhaust("ring_mp_mc", 0));
	TEST_RUN(check_exhaust("mbufx", 0));
	TEST_RUN(check_exhaust("mbufx", 32));
	return TEST_SUCCESS;
}

/* Return gives back exactly the buffers given, each once. */
static int
test_rx_return_exact(void)
{
	const unsigned int n = 200;
	struct mbufx_rx_buf bufs[50];
	void *handles[50], *all[n], *again[n];
	struct mbufx_rx_stats st;
	struct rte_mempool *mp;
	struct mbufx_rx *rx;
	unsigned int i;

	mp = rte_pktmbuf_pool_create_by_ops("rx_return", n, 0, 0, 2176,
					    SOCKET_ID_ANY, "mbufx");
	TEST_ASSERT_NOT_NULL(mp, "pool: %s", rte_strerror(rte_errno));
	rx = mbufx_rx_create(mp, 0, 0);
	TEST_ASSERT_NOT_NULL(rx, "create");
	TEST_ASSERT_SUCCESS(rte_mempool_get_bulk(mp, all, n), "get all");
	rte_mempool_put_bulk(mp, all, n);
	qsort(all, n, sizeof(all[0]), ptr_cmp);

	TEST_ASSERT_EQUAL(mbufx_rx_refill(rx, bufs, 50), 50, "refill");
	for (i = 0; i < 50; i++)
		handles[i] = bufs[i].handle;
	mbufx_rx_return(rx, &bufs[10], 20);
	TEST_ASSERT_EQUAL(rte_mempool_avail_count(mp), n - 30, "after 20");
	mbufx_rx_return_handles(rx, handles, 10);
	mbufx_rx_return_handles(rx, &handles[30], 20);
	TEST_ASSERT_EQUAL(rte_mempool_avail_count(mp), n, "after all");
	mbufx_rx_stats_get(rx, &st);
	TEST_ASSERT_EQUAL(st.returned, 50, "returned");
	TEST_ASSERT_EQUAL(st.posted, 0, "posted");

	/* the pool holds exactly the original objects, each once */
	TEST_ASSERT_SUCCESS(rte_mempool_get_bulk(mp, again, n), "get all");
	TEST_ASSERT_FAIL(rte_mempool_get_bulk(mp, handles, 1), "one too many");
	qsort(again, n, sizeof(again[0]), ptr_cmp);
	TEST_ASSERT(memcmp(all, again, sizeof(all)) == 0, "object set changed");
	rte_mempool_put_bulk(mp, again, n);
	mbufx_rx_free(rx);
	rte_mempool_free(mp);
	return TEST_SUCCESS;
}

static int
test_rx_stats_sum(void)
{
	struct rte_mempool *a, *b;
	struct mbufx_rx *ra1, *ra2, *rb;
	struct mbufx_rx_buf bufs[16];
	struct mbufx_rx_stats st;
	struct rte_mbuf *m;

	a = rte_pktmbuf_pool_create_by_ops("rx_sum_a", 255, 0, 0, 2176,
					   SOCKET_ID_ANY, "mbufx");
	b = rte_pktmbuf_pool_create_by_ops("rx_sum_b", 255, 0, 0, 2176,
					   SOCKET_ID_ANY, "mbufx");
	TEST_ASSERT(a != NULL && b != NULL, "pools");
	TEST_ASSERT_EQUAL(mbufx_rx_stats_sum(a, &st), 0, "no context");
	TEST_ASSERT_EQUAL(st.refilled + st.attached + st.returned, 0, "zero");
	ra1 = mbufx_rx_create(a, 0, 0);
	ra2 = mbufx_rx_create(a, 1, 0);
	rb = mbufx_rx_create(b, 0, 0);
	TEST_ASSERT(ra1 != NULL && ra2 != NULL && rb != NULL, "contexts");

	TEST_ASSERT_EQUAL(mbufx_rx_refill(ra1, bufs, 10), 10, "refill");
	m = mbufx_rx_attach(ra1, &bufs[0], 60, 0, RTE_PTYPE_L2_ETHER);
	rte_pktmbuf_free(m);
	mbufx_rx_return(ra1, &bufs[1], 9);
	TEST_ASSERT_EQUAL(mbufx_rx_refill(ra2, bufs, 5), 5, "refill");
	mbufx_rx_return(ra2, bufs, 2);
	TEST_ASSERT_EQUAL(mbufx_rx_refill(rb, &bufs[8], 7), 7, "refill");

	TEST_ASSERT_EQUAL(mbufx_rx_stats_sum(a, &st), 2, "contexts on a");
	TEST_ASSERT_EQUAL(st.refilled, 15, "refilled");
	TEST_ASSERT_EQUAL(st.attached, 1, "attached");
	TEST_ASSERT_EQUAL(st.returned, 11, "returned");
	TEST_ASSERT_EQUAL(st.posted, 3, "posted");
	TEST_ASSERT_EQUAL(mbufx_rx_stats_sum(b, &st), 1, "contexts on b");
	TEST_ASSERT_EQUAL(st.refilled, 7, "refilled b");
	TEST_ASSERT_EQUAL(st.posted, 7, "posted b");

	/* the dump names the pool and carries the counters */
	{
		char *text = NULL;
		size_t len = 0;
		FILE *f = open_memstream(&text, &len);

		TEST_ASSERT_NOT_NULL(f, "memstream");
		mbufx_rx_dump(f, ra1);
		mbufx_rx_dump(f, NULL);
		mbufx_rx_dump(NULL, ra1);
		fclose(f);
		TEST_ASSERT(strstr(text, "pool=rx_sum_a port=0") != NULL &&
			    strstr(text, "  10 late-attach buffers handed out "
				   "by refill (refilled)\n") != NULL &&
			    strstr(text, "  1 buffers turned into mbufs by "
				   "attach (attached)\n") != NULL &&
			    strstr(text, "  9 buffers given back unused "
				   "(returned)\n") != NULL &&
			    strstr(text, "  0 buffers currently posted "
				   "(posted)\n") != NULL,
			    "dump: %s", text);
		free(text);
	}

	mbufx_rx_return(ra2, &bufs[2], 3);
	mbufx_rx_free(ra1);
	TEST_ASSERT_EQUAL(mbufx_rx_stats_sum(a, &st), 1, "after free");
	TEST_ASSERT_EQUAL(st.refilled, 5, "only ra2 left");
	TEST_ASSERT_EQUAL(st.posted, 0, "ra2 posted");
	mbufx_rx_return(rb, &bufs[8], 7);
	mbufx_rx_free(ra2);
	mbufx_rx_free(rb);
	TEST_ASSERT_EQUAL(mbufx_rx_stats_sum(a, &st), 0, "none left");
	TEST_ASSERT_EQUAL(rte_mempool_avail_count(a), 255, "leak a");
	TEST_ASSERT_EQUAL(rte_mempool_avail_count(b), 255, "leak b");
	rte_mempool_free(a);
	rte_mempool_free(b);
	return TEST_SUCCESS;
}

/*
 * The counter table is the one list of struct mbufx_rx_stats: it must name
 * every byte of the struct exactly once, in struct order, with every field
 * a uint64_t counter except the posted gauge, last; and it must drive the
 * sum and the JSON. A field added to the struct without its table line
 * fails here.
 */
static int
test_rx_stats_table(void)
{
	const struct mbufx_stat_field *t;
	struct mbufx_rx_stats st;
	unsigned int n, i;
	char *buf = NULL;
	size_t sz = 0, end;
	FILE *f;

	t = mbufx_rx_stats_fields(&n);
	if (tu_stat_table_check(t, n, sizeof(st), &end) != TEST_SUCCESS)
		return TEST_FAILED;
	TEST_ASSERT_EQUAL(end, sizeof(st), "unnamed tail");
	for (i = 0; i < n; i++) {
		TEST_ASSERT(t[i].n == 1 && t[i].size == sizeof(uint64_t),
			    "%s: scalar uint64_t", t[i].name);
		TEST_ASSERT_EQUAL(t[i].kind, i == n - 1 ? MBUFX_STAT_GAUGE :
				  MBUFX_STAT_COUNTER, "%s kind", t[i].name);
	}
	TEST_ASSERT_EQUAL(strcmp(t[n - 1].name, "posted"), 0, "posted last");

	/* each value lands under its own name in the JSON */
	for (i = 0; i < n; i++)
		*(uint64_t *)RTE_PTR_ADD(&st, t[i].offset) = 100 + i;
	f = open_memstream(&buf, &sz);
	TEST_ASSERT_NOT_NULL(f, "memstream");
	TEST_ASSERT_SUCCESS(mbufx_stats_json(f, &st, t, n), "json");
	fclose(f);
	TEST_ASSERT(strstr(buf, "\"refilled\": 100") != NULL &&
		    strstr(buf, "\"refill_missed\": 102") != NULL, "json: %s",
		    buf);
	for (i = 0; i < n; i++) {
		char want[64];

		snprintf(want, sizeof(want), "\"%s\": %u", t[i].name, 100 + i);
		TEST_ASSERT_NOT_NULL(strstr(buf, want), "json misses %s: %s",
				     want, buf);
	}
	free(buf);
	return TEST_SUCCESS;
}

/* ---- documented errors --------------------------------------------------- */

#define CREATE_FAILS(mp, flags, err, what) do {				\
	rte_errno = 0;							\
	TEST_ASSERT_NULL(mbufx_rx_create(mp, 0, flags), what);	\
	TEST_ASSERT_EQUAL(rte_errno, err, what);			\
} while (0)

static int
test_rx_errors(void)
{
	struct rte_pktmbuf_pool_private pp = { .mbuf_data_room_size = 2048 };
	struct rte_pktmbuf_extmem ext;
	const struct rte_memzone *mz;
	struct rte_mempool *mp;
	struct mbufx_rx_stats st;
	struct mbufx_rx_info info;
	struct mbufx_rx *rx;
	struct synth s;

	CREATE_FAILS(NULL, 0, EINVAL, "NULL pool");

	mp = rte_pktmbuf_pool_create_by_ops("rx_err_ok", 63, 0, 0, 2176,
					    SOCKET_ID_ANY, "mbufx");
	TEST_ASSERT_NOT_NULL(mp, "pool");
	CREATE_FAILS(mp, RTE_BIT32(5), EINVAL, "unknown flag");
	rx = mbufx_rx_create(mp, 0, 0);
	TEST_ASSERT_NOT_NULL(rx, "valid pool");
	TEST_ASSERT_EQUAL(mbufx_rx_info_get(NULL, &info), -EINVAL, "info");
	TEST_ASSERT_EQUAL(mbufx_rx_info_get(rx, NULL), -EINVAL, "info");
	TEST_ASSERT_EQUAL(mbufx_rx_stats_get(NULL, &st), -EINVAL, "stats");
	TEST_ASSERT_EQUAL(mbufx_rx_stats_get(rx, NULL), -EINVAL, "stats");
	TEST_ASSERT_EQUAL(mbufx_rx_stats_sum(NULL, &st), -EINVAL, "sum");
	TEST_ASSERT_EQUAL(mbufx_rx_stats_sum(mp, NULL), -EINVAL, "sum");
	mbufx_rx_free(rx);
	mbufx_rx_free(NULL);
	rte_mempool_free(mp);

	/* not a pktmbuf pool: no private area */
	mp = rte_mempool_create("rx_err_plain", 63, 2048, 0, 0, NULL, NULL,
				NULL, NULL, SOCKET_ID_ANY, 0);
	TEST_ASSERT_NOT_NULL(mp, "plain pool");
	CREATE_FAILS(mp, 0, EINVAL, "plain pool");
	rte_mempool_free(mp);
	/* private area of the right size, elements too small for the room */
	mp = rte_mempool_create("rx_err_small", 63, 1024, 0, sizeof(pp),
				rte_pktmbuf_pool_init, &pp, NULL, NULL,
				SOCKET_ID_ANY, 0);
	TEST_ASSERT_NOT_NULL(mp, "small pool");
	CREATE_FAILS(mp, 0, EINVAL, "elements smaller than mbuf + room");
	rte_mempool_free(mp);
	/* no room after the headroom */
	mp = rte_pktmbuf_pool_create("rx_err_room0", 63, 0, 0, 0,
				     SOCKET_ID_ANY);
	TEST_ASSERT_NOT_NULL(mp, "room 0");
	CREATE_FAILS(mp, 0, EINVAL, "data room 0");
	rte_mempool_free(mp);
	mp = rte_pktmbuf_pool_create("rx_err_roomh", 63, 0, 0,
				     RTE_PKTMBUF_HEADROOM, SOCKET_ID_ANY);
	TEST_ASSERT_NOT_NULL(mp, "room == headroom");
	CREATE_FAILS(mp, 0, EINVAL, "data room == headroom");
	rte_mempool_free(mp);
	/* not populated, then partly populated */
	mp = rte_mempool_create_empty("rx_err_empty", 63, 2304, 0, sizeof(pp),
				      SOCKET_ID_ANY, 0);
	TEST_ASSERT_NOT_NULL(mp, "empty pool");
	rte_pktmbuf_pool_init(mp, &pp);
	CREATE_FAILS(mp, 0, EINVAL, "unpopulated pool");
	rte_mempool_free(mp);
	TEST_RUN(synth_create(&s, "rx_err_part", 20, 0, SYNTH_UNIFORM, 3));
	CREATE_FAILS(s.mp, 0, EINVAL, "partly populated pool");
	synth_free(&s);
	/* pinned external buffers: data not inside the object */
	mz = rte_memzone_reserve_aligned("rx_err_extmem", 64 * 2048,
					 SOCKET_ID_ANY, RTE_MEMZONE_IOVA_CONTIG,
					 RTE_CACHE_LINE_SIZE);
	TEST_ASSERT_NOT_NULL(mz, "extmem zone");
	ext.buf_ptr = mz->addr;
	ext.buf_iova = mz->iova;
	ext.buf_len = mz->len;
	ext.elt_size = 2048;
	mp = rte_pktmbuf_pool_create_extbuf("rx_err_pinned", 63, 0, 0, 2048,
					    SOCKET_ID_ANY, &ext, 1);
	TEST_ASSERT_NOT_NULL(mp, "pinned pool: %s", rte_strerror(rte_errno));
	CREATE_FAILS(mp, 0, ENOTSUP, "pinned external buffers");
	CREATE_FAILS(mp, MBUFX_RX_F_NO_IOVA, ENOTSUP, "pinned, no iova");
	rte_mempool_free(mp);
	rte_memzone_free(mz);
	/* memory without IOVA (ENOTSUP): test_rx_iova_synthetic;
	 * ENOMEM: test_rx_enomem */
	return TEST_SUCCESS;
}

/*
 * ENOMEM: the context is allocated on the pool's socket. A pool in a small
 * external heap, the rest of the heap taken by fillers: create must fail
 * with ENOMEM, then work once the fillers are freed.
 */
static int
test_rx_enomem(void)
{
	const size_t len = 8 << 20, pg = 4096;
	struct rte_mempool *mp = NULL;
	struct mbufx_rx *rx;
	void *fill[2048], *va;
	unsigned int nf = 0, i;
	size_t sz;
	int socket, ret = TEST_FAILED;

	va = mmap(NULL, len, PROT_READ | PROT_WRITE,
		  MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);
	TEST_ASSERT(va != MAP_FAILED, "mmap");
	if (rte_malloc_heap_create("rx_nomem") != 0)
		goto unmap;
	if (rte_malloc_heap_memory_add("rx_nomem", va, len, NULL, 0, pg) != 0)
		goto destroy;
	socket = rte_malloc_heap_get_socket("rx_nomem");
	mp = rte_pktmbuf_pool_create_by_ops("rx_nomem_pool", 255, 0, 0, 2176,
					    socket, "ring_mp_mc");
	if (mp == NULL) {
		printf("pool: %s\n", rte_strerror(rte_errno));
		goto remove;
	}
	for (sz = len; sz >= 64 && nf < RTE_DIM(fill); )
		if ((fill[nf] = rte_malloc_socket(NULL, sz, 0, socket)) != NULL)
			nf++;
		else
			sz /= 2;
	rte_errno = 0;
	rx = mbufx_rx_create(mp, 0, 0);
	if (rx != NULL || rte_errno != ENOMEM) {
		TEST_FAIL_MSG("create on a full heap: %p, %s", (void *)rx,
		       rte_strerror(rte_errno));
		mbufx_rx_free(rx);
		goto release;
	}
	for (i = 0; i < nf; i++)
		rte_free(fill[i]);
	nf = 0;
	rx = mbufx_rx_create(mp, 0, 0);
	if (rx == NULL) {
		TEST_FAIL_MSG("create after freeing: %s",
		       rte_strerror(rte_errno));
		goto release;
	}
	mbufx_rx_free(rx);
	ret = TEST_SUCCESS;
release:
	for (i = 0; i < nf; i++)
		rte_free(fill[i]);
	rte_mempool_free(mp);
remove:
	rte_malloc_heap_memory_remove("rx_nomem", va, len);
destroy:
	rte_malloc_heap_destroy("rx_nomem");
unmap:
	munmap(va, len);
	return ret;
}

/* ---- two lcores, one context each, one pool ----------------------------- */

struct mt_arg {
	struct mbufx_rx *rx;
	unsigned int rounds;
	int result;
};

static int
mt_worker(void *p)
{
	struct mt_arg *a = p;
	struct mbufx_rx_buf bufs[32];
	struct rte_mbuf *pkts[32];
	unsigned int r, i, n, k;

	a->result = TEST_SUCCESS;
	for (r = 0; r < a->rounds; r++) {
		n = mbufx_rx_refill(a->rx, bufs, 1 + r % 32);
		/* odd rounds: half the posted buffers go back unused */
		k = (r & 1) ? n / 2 : n;
		for (i = 0; i < k; i++) {
			*(uint32_t *)bufs[i].addr = (uint32_t)r;
			pkts[i] = mbufx_rx_attach(a->rx, &bufs[i], 60, 0, 0);
			if (pkts[i]->data_len != 60 ||
					rte_mbuf_refcnt_read(pkts[i]) != 1 ||
					*rte_pktmbuf_mtod(pkts[i], uint32_t *)
					!= r)
				a->result = TEST_FAILED;
		}
		mbufx_rx_return(a->rx, &bufs[k], n - k);
		rte_pktmbuf_free_bulk(pkts, k);
	}
	return 0;
}

static int
test_rx_two_lcores(void)
{
	struct mt_arg a[2];
	struct rte_mempool *mp;
	struct mbufx_rx_stats st;
	unsigned int worker, i;

	worker = rte_get_next_lcore(rte_lcore_id(), 1, 0);
	if (worker >= RTE_MAX_LCORE) {
		printf("needs 2 lcores\n");
		return TEST_SKIPPED;
	}
	mp = rte_pktmbuf_pool_create_by_ops("rx_mt", 511, 32, 0, 2176,
					    SOCKET_ID_ANY, "mbufx");
	TEST_ASSERT_NOT_NULL(mp, "pool");
	for (i = 0; i < 2; i++) {
		a[i].rx = mbufx_rx_create(mp, (uint16_t)i, 0);
		a[i].rounds = 20000;
		TEST_ASSERT_NOT_NULL(a[i].rx, "create");
	}
	rte_eal_remote_launch(mt_worker, &a[1], worker);
	mt_worker(&a[0]);
	rte_eal_wait_lcore(worker);
	TEST_ASSERT_SUCCESS(a[0].result, "main lcore");
	TEST_ASSERT_SUCCESS(a[1].result, "worker lcore");
	TEST_ASSERT_EQUAL(mbufx_rx_stats_sum(mp, &st), 2, "contexts");
	TEST_ASSERT(st.attached > 0 && st.returned > 0, "both paths ran");
	TEST_ASSERT_EQUAL(st.attached + st.returned, st.refilled, "balance");
	TEST_ASSERT_EQUAL(st.posted, 0, "posted");
	for (i = 0; i < 2; i++)
		mbufx_rx_free(a[i].rx);
	TEST_ASSERT_EQUAL(rte_mempool_avail_count(mp), 511, "leak");
	rte_mempool_free(mp);
	return TEST_SUCCESS;
}

/* ---- device-offset refill, attach at an offset, chains ------------------ */

static void
lowest_obj(struct rte_mempool *mp __rte_unused, void *opaque,
	   struct rte_mempool_memhdr *hdr, unsigned int idx __rte_unused)
{
	uintptr_t *lo = opaque;

	if (*lo == 0 || (uintptr_t)hdr->addr < *lo)
		*lo = (uintptr_t)hdr->addr;
}

static int
check_offsets(const char *ops, uint16_t priv)
{
	const unsigned int n = 200;
	struct rte_mbuf *m, *chain, *seg;
	uint64_t offs[256];
	struct mbufx_rx_stats st;
	struct rte_mempool *mp;
	struct mbufx_rx *rx;
	uintptr_t base = 0;
	const char *why;
	void *h[4];
	uint16_t doff[3] = { 256, 256, 300 }, len[3] = { 1000, 1920, 77 };
	unsigned int i;

	mp = rte_pktmbuf_pool_create_by_ops("rx_offs", n, 0, priv, 2176,
					    SOCKET_ID_ANY, ops);
	TEST_ASSERT_NOT_NULL(mp, "pool: %s", rte_strerror(rte_errno));
	rx = mbufx_rx_create(mp, RX_PORT, 0);
	TEST_ASSERT_NOT_NULL(rx, "create");
	rte_mempool_mem_iter(mp, lowest_obj, &base);
	base = RTE_ALIGN_FLOOR(base, 4096);
	TEST_ASSERT_EQUAL(mbufx_rx_buf_offset(rx),
			  sizeof(struct rte_mbuf) + priv, "buf offset");
	/* every offset is buf_addr - base of a distinct mbuf of the pool */
	TEST_ASSERT_EQUAL(mbufx_rx_refill_offsets(rx, base, offs, 256), n,
			  "refill of more than the pool");
	for (i = 0; i < n; i++) {
		m = mbufx_rx_handle_from_offset(rx, base, offs[i]);
		TEST_ASSERT_EQUAL(m->pool, mp, "offset %u: not an mbuf", i);
		TEST_ASSERT_EQUAL((uintptr_t)m->buf_addr, base + offs[i],
				  "offset %u: not buf_addr", i);
	}
	qsort(offs, n, sizeof(offs[0]), ptr_cmp);
	for (i = 1; i < n; i++)
		TEST_ASSERT(offs[i] != offs[i - 1], "offset twice");
	mbufx_rx_stats_get(rx, &st);
	TEST_ASSERT(st.refilled == n && st.refill_fails == 1 &&
		    st.refill_missed == 256 - n && st.posted == n,
		    "stats after refill");

	/* attach at the device's offset: a valid single-segment mbuf */
	m = mbufx_rx_attach_at(rx, mbufx_rx_handle_from_offset(rx, base,
					offs[0]), 256, 60,
			       RTE_MBUF_F_RX_IP_CKSUM_GOOD, RTE_PTYPE_L2_ETHER);
	TEST_ASSERT(m->data_off == 256 && m->pkt_len == 60 &&
		    m->data_len == 60 && m->nb_segs == 1 &&
		    rte_mbuf_refcnt_read(m) == 1 && m->port == RX_PORT &&
		    m->ol_flags == RTE_MBUF_F_RX_IP_CKSUM_GOOD &&
		    m->packet_type == RTE_PTYPE_L2_ETHER && m->next == NULL,
		    "attach_at fields");
	TEST_ASSERT_SUCCESS(rte_mbuf_check(m, 1, &why), "attach_at: %s", why);
	rte_pktmbuf_free(m);

	/* a chain of three in one pass */
	for (i = 0; i < 3; i++)
		h[i] = mbufx_rx_handle_from_offset(rx, base, offs[1 + i]);
	chain = mbufx_rx_attach_chain(rx, h, doff, len, 3, 0, 0);
	TEST_ASSERT(chain == h[0] && chain->nb_segs == 3 &&
		    chain->pkt_len == 1000 + 1920 + 77 && chain->port == RX_PORT,
		    "chain head");
	for (i = 0, seg = chain; seg != NULL; seg = seg->next, i++)
		TEST_ASSERT(seg == h[i] && seg->data_off == doff[i] &&
			    seg->data_len == len[i], "segment %u", i);
	TEST_ASSERT_EQUAL(i, 3, "segments");
	TEST_ASSERT_SUCCESS(rte_mbuf_check(chain, 1, &why), "chain: %s", why);
	rte_pktmbuf_free(chain);

	/* TX-to-RX recycling: re-posted buffers count as posted */
	mbufx_rx_recycled(rx, 4);
	mbufx_rx_stats_get(rx, &st);
	TEST_ASSERT(st.attached == 4 && st.recycled == 4 &&
		    st.posted == n - 4 + 4, "stats after recycle");
	for (i = 4; i < n; i++) {
		h[0] = mbufx_rx_handle_from_offset(rx, base, offs[i]);
		mbufx_rx_return_handles(rx, h, 1);
	}
	TEST_ASSERT_EQUAL(rte_mempool_avail_count(mp), n, "pool not full");
	mbufx_rx_free(rx);
	rte_mempool_free(mp);
	return TEST_SUCCESS;
}

static int
test_rx_offsets(void)
{
	TEST_RUN(check_offsets("ring_mp_mc", 0));
	TEST_RUN(check_offsets("mbufx", 0));
	TEST_RUN(check_offsets("mbufx", 64));
	return TEST_SUCCESS;
}

static const struct mbufx_test_suite mbufx_rx_suite = {
	.name = "mbufx_rx",
	.cases = {
		MBUFX_TEST_CASE(test_rx_iova_pools),
		MBUFX_TEST_CASE(test_rx_iova_synthetic),
		MBUFX_TEST_CASE(test_rx_iova_extmem),
		MBUFX_TEST_CASE(test_rx_headers_untouched),
		MBUFX_TEST_CASE(test_rx_attach_fresh),
		MBUFX_TEST_CASE(test_rx_attach_reused),
		MBUFX_TEST_CASE(test_rx_refill_exhausted),
		MBUFX_TEST_CASE(test_rx_return_exact),
		MBUFX_TEST_CASE(test_rx_stats_sum),
		MBUFX_TEST_CASE(test_rx_stats_table),
		MBUFX_TEST_CASE(test_rx_errors),
		MBUFX_TEST_CASE(test_rx_enomem),
		MBUFX_TEST_CASE(test_rx_two_lcores),
		MBUFX_TEST_CASE(test_rx_offsets),
		MBUFX_TEST_CASES_END(),
	},
};

static int
test_mbufx_rx(void)
{
	return mbufx_test_suite_run(&mbufx_rx_suite);
}

MBUFX_TEST_REGISTER(mbufx_rx_autotest, test_mbufx_rx);
