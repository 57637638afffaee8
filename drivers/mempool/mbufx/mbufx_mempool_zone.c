/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The mbufx authors
 */

/*
 * Zones: what a pool is, and where its memory goes.
 *
 * The mempool API passes no configuration to a driver
 * (rte_pktmbuf_pool_create gives NULL), so the driver recognises pktmbuf pools
 * by their private area, which rte_pktmbuf_pool_init writes before the first
 * populate, and checks that the element size matches an mbuf of that data
 * room exactly:
 *
 *   data room - RTE_PKTMBUF_HEADROOM     zone
 *   ----------------------------------   -------------------------------
 *   [1518, 4096)                          packet (the 2K class: 2176 room)
 *   >= 9000                               jumbo (a 9000-byte frame in one
 *                                         IOVA-contiguous buffer)
 *   anything else, or not a pktmbuf pool  generic
 *
 * Jumbo memory. The default layout keeps every object inside one page and
 * lets the EAL hand out as many chunks as it likes. For the jumbo zone the
 * driver asks for the whole pool as ONE IOVA-contiguous chunk, densely
 * packed (a 9.3 KiB object may straddle a page because the chunk is
 * contiguous), whenever the EAL can give it: always in IOVA-as-VA mode, and
 * in PA mode when a probe reservation of that size succeeds. Otherwise it
 * falls back to the default, page-bounded placement, in which every object is
 * still IOVA-contiguous (it never crosses a page) - so the driver never fails
 * where the ring driver would succeed.
 */

#include <stdio.h>

#include <rte_eal.h>
#include <rte_mbuf.h>
#include <rte_memzone.h>

#include "mbufx_mempool.h"

enum mbufx_mp_zone
mbufx_mp_classify(const struct rte_mempool *mp, uint16_t *data_room)
{
	const struct rte_pktmbuf_pool_private *priv;
	uint32_t room;

	*data_room = 0;
	if (mp->private_data_size < sizeof(*priv))
		return MBUFX_MP_ZONE_GENERIC;
	priv = rte_mempool_get_priv((struct rte_mempool *)(uintptr_t)mp);
	room = priv->mbuf_data_room_size;
	/* the mempool rounds the element up to 8 bytes */
	if (mp->elt_size != RTE_ALIGN_CEIL(sizeof(struct rte_mbuf) +
			priv->mbuf_priv_size + room, sizeof(uint64_t)))
		return MBUFX_MP_ZONE_GENERIC;
	*data_room = room;
	if (room >= RTE_PKTMBUF_HEADROOM + MBUFX_JUMBO_MIN_BUF)
		return MBUFX_MP_ZONE_JUMBO;
	if (room >= RTE_PKTMBUF_HEADROOM + MBUFX_PACKET_MIN_BUF &&
	    room < RTE_PKTMBUF_HEADROOM + MBUFX_PACKET_MAX_BUF)
		return MBUFX_MP_ZONE_PACKET;
	return MBUFX_MP_ZONE_GENERIC;
}

const char *
mbufx_mp_zone_name(enum mbufx_mp_zone zone)
{
	switch (zone) {
	case MBUFX_MP_ZONE_PACKET:
		return "packet";
	case MBUFX_MP_ZONE_JUMBO:
		return "jumbo";
	default:
		return "generic";
	}
}

/* Can the EAL give an IOVA-contiguous chunk of len bytes right now? */
static int
contig_probe(const struct rte_mempool *mp, size_t len, size_t align)
{
	const struct rte_memzone *mz;
	char name[RTE_MEMZONE_NAMESIZE];

	if (rte_eal_iova_mode() == RTE_IOVA_VA)
		return 1;
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
	if (p != NULL && p->zone == MBUFX_MP_ZONE_JUMBO && pg_shift != 0 &&
	    obj_num == mp->size - mp->populated_size &&
	    (mp->flags & RTE_MEMPOOL_F_NO_IOVA_CONTIG) == 0) {
		len = total * obj_num;
		*align = RTE_CACHE_LINE_SIZE;
		if (contig_probe(mp, len, *align)) {
			p->contig = 1;
			*min_chunk_size = len;
			return len;
		}
		MBUFX_MP_LOG(INFO, "pool %s: no IOVA-contiguous %zu bytes, "
			     "page-bounded placement", mp->name, len);
	}
	if (p != NULL)
		p->contig = 0;
	return rte_mempool_op_calc_mem_size_default(mp, obj_num, pg_shift,
						    min_chunk_size, align);
}

int
mbufx_mp_populate(struct rte_mempool *mp, unsigned int max_objs, void *vaddr,
		  rte_iova_t iova, size_t len,
		  rte_mempool_populate_obj_cb_t *obj_cb, void *obj_cb_arg)
{
	struct mbufx_pool *p = mp->pool_data;
	size_t total = mp->header_size + mp->elt_size + mp->trailer_size;
	size_t off = 0;
	unsigned int i;
	char *obj;

	if (p == NULL || !p->contig || iova == RTE_BAD_IOVA)
		return rte_mempool_op_populate_default(mp, max_objs, vaddr,
						       iova, len, obj_cb,
						       obj_cb_arg);
	/* one IOVA-contiguous chunk: pack the objects, pages do not matter */
	for (i = 0; i < max_objs && off + total <= len; i++) {
		obj = (char *)vaddr + off + mp->header_size;
		obj_cb(mp, obj_cb_arg, obj, iova + off + mp->header_size);
		rte_mempool_ops_enqueue_bulk(mp, (void **)&obj, 1);
		off += total;
	}
	return i;
}
