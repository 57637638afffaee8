/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The mbufx authors
 */

/*
 * Pool classes: what a pool is, and where its memory goes.
 *
 * The mempool API passes no configuration to a driver
 * (rte_pktmbuf_pool_create gives NULL), so the driver recognises pktmbuf pools
 * by their private area, which rte_pktmbuf_pool_init writes before the first
 * populate, and checks that the element size matches an mbuf of that data
 * room exactly:
 *
 *   data room - RTE_PKTMBUF_HEADROOM     class
 *   ----------------------------------   -------------------------------
 *   [1518, 4096)                          packet (the 2K class: 2176 room)
 *   >= MBUFX_JUMBO_FRAME_LEN (9000)       jumbo (a 9000-byte frame in one
 *                                         IOVA-contiguous buffer)
 *   anything else, or not a pktmbuf pool  generic
 *
 * Jumbo memory. The default layout keeps every object inside one page and
 * lets the EAL hand out as many chunks as it likes. For the jumbo class the
 * driver asks for the whole pool as ONE IOVA-contiguous chunk, densely
 * packed (a 9.3 KiB object may straddle a page because the chunk is
 * contiguous), whenever the EAL can give it: in IOVA-as-VA mode, when a
 * probe reservation of that size succeeds (it does for the EAL's own memory
 * unless the heap is fragmented; external memory has IOVAs of its own).
 * Otherwise it falls back to the default, page-bounded placement, in which
 * every object is still IOVA-contiguous (it never crosses a page) - so the
 * driver never fails where the ring driver would succeed. Objects take the
 * IOVAs of their pages, checked page by page.
 *
 * Not in PA mode: there, physically contiguous pages are a lottery over the
 * kernel's hugepage pool, shared by every process. A probe that succeeds
 * proves nothing about the reservation that follows it (the probe's pages go
 * back to the kernel, another process may take them), and 22.11's
 * rte_mempool_populate_default() has no fallback once it asked for an
 * IOVA-contiguous chunk: pool creation would fail now and then. Use
 * --iova-mode=va for the one-chunk jumbo pool.
 *
 * The mempool library sizes and populates a pool in steps (one per memory
 * chunk, halving its reservations on ENOMEM), so the sizing call decides
 * the placement of the next chunk only (pool.pack) and logs the fallback
 * once per pool; the populate calls record whether the pool as a whole is
 * one IOVA-contiguous range (pool.iova_contig, the telemetry's
 * iova_contig_pool).
 */

#include <stdio.h>

#include <rte_eal.h>
#include <rte_mbuf.h>
#include <rte_memzone.h>

#include "mbufx_mempool.h"

enum mbufx_mp_class
mbufx_mp_classify(const struct rte_mempool *mp, uint16_t *data_room)
{
	const struct rte_pktmbuf_pool_private *priv;
	uint32_t room;

	*data_room = 0;
	if (mp->private_data_size < sizeof(*priv))
		return MBUFX_MP_CLASS_GENERIC;
	priv = rte_mempool_get_priv((struct rte_mempool *)(uintptr_t)mp);
	room = priv->mbuf_data_room_size;
	/* the mempool rounds the element up to 8 bytes */
	if (mp->elt_size != RTE_ALIGN_CEIL(sizeof(struct rte_mbuf) +
			priv->mbuf_priv_size + room, sizeof(uint64_t)))
		return MBUFX_MP_CLASS_GENERIC;
	*data_room = room;
	if (room >= RTE_PKTMBUF_HEADROOM + MBUFX_JUMBO_FRAME_LEN)
		return MBUFX_MP_CLASS_JUMBO;
	if (room >= RTE_PKTMBUF_HEADROOM + MBUFX_PACKET_MIN_BUF &&
	    room < RTE_PKTMBUF_HEADROOM + MBUFX_PACKET_MAX_BUF)
		return MBUFX_MP_CLASS_PACKET;
	return MBUFX_MP_CLASS_GENERIC;
}

const char *
mbufx_mp_class_name(enum mbufx_mp_class cls)
{
	switch (cls) {
	case MBUFX_MP_CLASS_PACKET:
		return "packet";
	case MBUFX_MP_CLASS_JUMBO:
		return "jumbo";
	default:
		return "generic";
	}
}

/*
 * Can the EAL give an IOVA-contiguous chunk of len bytes right now? Ask it,
 * in VA mode too: external memory keeps its own IOVAs, and a fragmented heap
 * may have no VA-contiguous len bytes where smaller chunks would do.
 */
static int
contig_probe(const struct rte_mempool *mp, size_t len, size_t align)
{
	const struct rte_memzone *mz;
	char name[RTE_MEMZONE_NAMESIZE];

	snprintf(name, sizeof(name), "mbufx_probe_%p", (const void *)mp);
	mz = rte_memzone_reserve_aligned(name, len, mp->socket_id,
					 RTE_MEMZONE_IOVA_CONTIG, align);
	if (mz == NULL)
		return 0;
	rte_memzone_free(mz);
	return 1;
}

ssize_t
mbufx_mp_calc_mem_size(const struct rte_mempool *mp, uint32_t obj_num,
		       uint32_t pg_shift, size_t *min_chunk_size, size_t *align)
{
	struct mbufx_pool *p = mp->pool_data;
	size_t total = mp->header_size + mp->elt_size + mp->trailer_size;
	size_t len;

	/* pg_shift 0: no IOVA constraint at all, the default is dense */
	if (p != NULL && p->cls == MBUFX_MP_CLASS_JUMBO && pg_shift != 0 &&
	    rte_eal_iova_mode() == RTE_IOVA_VA &&
	    obj_num == mp->size - mp->populated_size &&
	    (mp->flags & RTE_MEMPOOL_F_NO_IOVA_CONTIG) == 0) {
		len = total * obj_num;
		*align = RTE_CACHE_LINE_SIZE;
		if (contig_probe(mp, len, *align)) {
			p->pack = 1;
			*min_chunk_size = len;
			return len;
		}
		if (!p->placement_logged)
			MBUFX_MP_LOG(INFO, "pool %s: no IOVA-contiguous %zu "
				     "bytes, page-bounded placement",
				     mp->name, len);
		p->placement_logged = 1;
	}
	if (p != NULL)
		p->pack = 0;
	return rte_mempool_op_calc_mem_size_default(mp, obj_num, pg_shift,
						    min_chunk_size, align);
}

/* The IOVA of va as the EAL's memory map has it (as the mempool library). */
static rte_iova_t
page_iova(const void *va, const struct rte_memseg_list *msl)
{
	const struct rte_memseg *ms = rte_mem_virt2memseg(va, msl);

	if (ms == NULL || ms->iova == RTE_BAD_IOVA)
		return rte_mem_virt2iova(va);
	return ms->iova + RTE_PTR_DIFF(va, ms->addr);
}

/*
 * End of the IOVA-contiguous run that starts at off, page by page. The EAL
 * hands out "IOVA-contiguous" memzones that are not, on external memory in
 * legacy mode (--legacy-mem, --no-huge): trust the pages, not the chunk.
 */
static size_t
run_end(char *va, size_t off, size_t len, const struct rte_memseg_list *msl,
	rte_iova_t start)
{
	size_t pg = msl->page_sz, end;

	end = RTE_MIN((size_t)RTE_PTR_DIFF(RTE_PTR_ALIGN_CEIL(va + off + 1, pg),
					   va), len);
	while (end < len && start != RTE_BAD_IOVA &&
	       page_iova(va + end, msl) == start + (end - off))
		end = RTE_MIN(end + pg, len);
	return end;
}

int
mbufx_mp_populate(struct rte_mempool *mp, unsigned int max_objs, void *vaddr,
		  rte_iova_t iova, size_t len,
		  rte_mempool_populate_obj_cb_t *obj_cb, void *obj_cb_arg)
{
	struct mbufx_pool *p = mp->pool_data;
	size_t total = mp->header_size + mp->elt_size + mp->trailer_size;
	const struct rte_memseg_list *msl;
	size_t off = 0, start = 0, end = len;
	unsigned int i = 0;
	char *obj;

	msl = iova == RTE_BAD_IOVA ? NULL : rte_mem_virt2memseg_list(vaddr);
	if (msl != NULL && msl->page_sz != 0)
		end = run_end(vaddr, 0, len, msl, iova);
	if (p != NULL)
		/* called before the mempool counts this chunk */
		p->iova_contig = mp->nb_mem_chunks == 0 &&
			iova != RTE_BAD_IOVA && end == len;
	if (p == NULL || !p->pack || iova == RTE_BAD_IOVA)
		return rte_mempool_op_populate_default(mp, max_objs, vaddr,
						       iova, len, obj_cb,
						       obj_cb_arg);
	/*
	 * An IOVA-contiguous chunk: pack the objects, pages do not matter.
	 * Should the chunk break after all, pack each contiguous run.
	 */
	while (i < max_objs) {
		for (; i < max_objs && off + total <= end; i++) {
			obj = (char *)vaddr + off + mp->header_size;
			obj_cb(mp, obj_cb_arg, obj, iova == RTE_BAD_IOVA ?
			       RTE_BAD_IOVA :
			       iova + (off - start) + mp->header_size);
			rte_mempool_ops_enqueue_bulk(mp, (void **)&obj, 1);
			off += total;
		}
		if (end == len)
			break;
		off = start = end;
		iova = page_iova((char *)vaddr + start, msl);
		end = run_end(vaddr, start, len, msl, iova);
	}
	return i;
}
