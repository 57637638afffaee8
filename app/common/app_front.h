/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The mbufx authors
 */

/*
 * Replace the front of a packet: the one helper behind the l3fwd
 * encapsulations and the l2fwd VLAN push and pop.
 *
 *   before   | old_len bytes (first keep of them kept) | rest ...
 *   after    | new_len bytes: kept bytes, then room    | rest ...
 *
 * The old front is dropped by moving the data offset (rte_pktmbuf_adj) and
 * the new one is made with mbufx_prepend(): in the headroom when the segment
 * is private, a chained header mbuf when it is shared or has no room. With
 * APP_FRONT_CHAIN a fresh header mbuf is always chained (what DPDK's
 * ipv4_multicast example does; the baseline of the encapsulation benchmark).
 * When no header mbuf is available the packet is left exactly as it was.
 */

#ifndef APP_FRONT_H
#define APP_FRONT_H

#include <stdint.h>

#include <rte_branch_prediction.h>
#include <rte_mbuf.h>
#include <rte_memcpy.h>

#include <mbufx.h>

/** Bytes of the old front that app_replace_front() can keep at most. */
#define APP_FRONT_KEEP_MAX 16

/** app_replace_front() flag: always chain a new header mbuf. */
#define APP_FRONT_CHAIN 1u

/**
 * Make the first @p len bytes of @p *mp (at most its length) private and
 * contiguous when its first segment is shared: a clone, or a buffer with
 * other references (what a PMD never delivers, but a ring port fed by
 * another stage of the same process may). The rewrites in place that follow
 * (MACs, TTL, checksum) then never reach bytes another reference sees. A
 * private first segment costs one test.
 * @return 0, or -1 when no mbuf was available (packet unchanged).
 */
static __rte_always_inline int
app_own_front(struct mbufx_zone_set *zs, struct rte_mbuf **mp, uint32_t len)
{
	if (likely(mbufx_seg_writable(*mp)))
		return 0;
	return mbufx_unshare_hdr(zs, mp, RTE_MIN(len, (*mp)->pkt_len)) == NULL ? -1 : 0;
}

/** Chain a fresh header-zone mbuf of @p len bytes in front of @p *mp. */
void *app_front_chain(struct mbufx_zone_set *zs, struct rte_mbuf **mp, uint16_t len);

/**
 * Replace the first @p old_len bytes of @p *mp (all in the first segment)
 * by @p new_len bytes whose first @p keep (<= APP_FRONT_KEEP_MAX, <= both
 * lengths) are the old front's first @p keep bytes.
 * @return the new front, contiguous and writable, or NULL (no header mbuf,
 * or @p old_len beyond the first segment) with the packet unchanged.
 */
static __rte_always_inline void *
app_replace_front(struct mbufx_zone_set *zs, struct rte_mbuf **mp, uint16_t old_len,
		  uint16_t new_len, uint16_t keep, unsigned int flags)
{
	struct rte_mbuf *old = *mp;
	uint8_t save[APP_FRONT_KEEP_MAX];
	uint8_t *p;

	if (unlikely(old->data_len < old_len))
		return NULL;
	if (keep != 0)
		rte_memcpy(save, rte_pktmbuf_mtod(old, void *), keep);
	rte_pktmbuf_adj(old, old_len);
	p = (flags & APP_FRONT_CHAIN) ? app_front_chain(zs, mp, new_len) :
					mbufx_prepend(zs, mp, new_len);
	if (unlikely(p == NULL)) {
		/* only the offsets moved: the bytes are intact */
		rte_pktmbuf_prepend(old, old_len);
		return NULL;
	}
	if (keep != 0)
		rte_memcpy(p, save, keep);
	return p;
}

#endif /* APP_FRONT_H */
