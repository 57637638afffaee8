/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The mbufx authors
 */

#ifndef MBUFX_MBUF_H
#define MBUFX_MBUF_H

/**
 * @file
 * mbufx writability predicates, prepend, pullup and fan-out.
 *
 * A segment's bytes are written only where mbufx_seg_writable() allows: the
 * caller holds the only reference to the segment and to its data (DPDK's
 * reference counts, nothing else). The calls that take
 * `struct rte_mbuf **m` may put a new first segment in front, moving the
 * packet's metadata into it, and write it back through m: use the pointer
 * written back. They leave the packet as it was when they fail; the mbufs
 * they add come from the smallest zone whose buffer fits, then from larger
 * ones. The rules, the zones each call draws from, porting notes and thread
 * safety: doc/guides/prog_guide/mbufx_lib.rst.
 */

#include <stdint.h>

#include <rte_common.h>
#include <rte_mbuf.h>

#ifdef __cplusplus
extern "C" {
#endif

struct mbufx_zone_set;

/**
 * The direct mbuf whose buffer an indirect segment uses (a const-correct
 * rte_mbuf_from_indirect()). Meaningless for external-buffer segments.
 *
 * @param seg
 *   Any segment; for a direct one the result is seg itself.
 * @return
 *   The owner of the data buffer.
 */
static inline const struct rte_mbuf *
mbufx_seg_owner(const struct rte_mbuf *seg)
{
	return (const struct rte_mbuf *)RTE_PTR_SUB(seg->buf_addr,
			sizeof(*seg) + seg->priv_size);
}

/**
 * May the bytes of this segment's buffer be written?
 *
 * @param seg
 *   Any segment of a packet (not only the first).
 * @return
 *   1 when the caller holds the only reference to both the segment and
 *   its data buffer (its refcnt, and the owner's or the external buffer's
 *   refcnt, are 1), 0 otherwise.
 */
static inline int
mbufx_seg_writable(const struct rte_mbuf *seg)
{
	if (rte_mbuf_refcnt_read(seg) != 1)
		return 0;
	if (RTE_MBUF_DIRECT(seg))
		return 1;
	if (RTE_MBUF_HAS_EXTBUF(seg))
		return rte_mbuf_ext_refcnt_read(seg->shinfo) == 1;
	return rte_mbuf_refcnt_read(mbufx_seg_owner(seg)) == 1;
}

/**
 * @deprecated Kept for binary compatibility; no segment carries a private
 * front beyond what mbufx_seg_writable() says.
 *
 * @param seg
 *   Any segment (unused).
 * @return
 *   0.
 */
__rte_deprecated
uint16_t mbufx_own_front(const struct rte_mbuf *seg);

/**
 * @deprecated Kept for binary compatibility; does nothing. Taking a
 * reference on any packet needs no call to the library first.
 *
 * @param m
 *   A packet (unused, not modified).
 */
__rte_deprecated
void mbufx_own_front_clear(struct rte_mbuf *m);

/**
 * Bytes that may be written in front of the segment's data.
 *
 * @return
 *   rte_pktmbuf_headroom(seg) when mbufx_seg_writable(seg), else 0.
 */
static inline uint16_t
mbufx_leading_space(const struct rte_mbuf *seg)
{
	return mbufx_seg_writable(seg) ? rte_pktmbuf_headroom(seg) : 0;
}

/**
 * Bytes that may be written after the segment's data.
 *
 * @return
 *   rte_pktmbuf_tailroom(seg) when mbufx_seg_writable(seg), else 0.
 */
static inline uint16_t
mbufx_trailing_space(const struct rte_mbuf *seg)
{
	return mbufx_seg_writable(seg) ? rte_pktmbuf_tailroom(seg) : 0;
}

/**
 * Make room for len bytes in front of a packet (the M_PREPEND of mbufx).
 *
 * In place (no allocation) when mbufx_leading_space() of the first segment
 * is at least len. Otherwise a header mbuf holding only the len new bytes
 * is chained in front and takes the packet metadata; the old first segment
 * is not modified. The new bytes are uninitialised. Code that needs the new
 * bytes and the packet's headers in one segment (VLAN insertion, checksum
 * and TSO offloads) calls mbufx_prepend_contig().
 *
 * @param zs
 *   Zone set providing header mbufs.
 * @param m
 *   In: the packet. Out: the packet, whose first segment may be new.
 * @param len
 *   Bytes to prepend (0 returns the current data start, no change).
 * @return
 *   Pointer to the first of the len new bytes (writable), or NULL with
 *   rte_errno set and the packet unchanged:
 *   - EINVAL: zs, m or *m NULL, or len larger than the buffer of every
 *     zone;
 *   - ENOMEM: the zone that fits the header mbuf and every larger one
 *     are empty;
 *   - EOVERFLOW: the packet would exceed RTE_MBUF_MAX_NB_SEGS segments or
 *     UINT32_MAX bytes.
 *   *m may have changed: use it, not a copy of the old pointer.
 */
__rte_warn_unused_result
void *mbufx_prepend(struct mbufx_zone_set *zs, struct rte_mbuf **m,
		uint16_t len);

/**
 * Make room for len bytes in front of a packet so that the first contig
 * bytes of the result (the len new ones and the contig - len after them)
 * are contiguous and writable in the first segment: what rte_vlan_insert()
 * style code and checksum/TSO offloads (contig = l2_len + l3_len + l4_len
 * after the prepend) need.
 *
 * In place when the first segment is writable and its buffer big enough
 * (data moved within it, bytes pulled up from the next segments);
 * otherwise a fresh first segment takes a copy of the contig - len bytes,
 * the metadata, and the len new bytes in front.
 *
 * @param zs
 *   Zone set providing fresh segments.
 * @param m
 *   In: the packet. Out: the packet, whose first segment may be new.
 * @param len
 *   Bytes to prepend (uninitialised).
 * @param contig
 *   Bytes from the new start wanted contiguous and writable; values below
 *   len mean len.
 * @return
 *   Pointer to the first new byte, or NULL with rte_errno set and the
 *   packet unchanged:
 *   - EINVAL: zs, m or *m NULL, or contig > len + pkt_len;
 *   - ENOSPC: contig larger than any zone's buffer holds;
 *   - ENOMEM: the zone that fits the fresh segment (or a replacement
 *     indirect mbuf) and every larger one are empty;
 *   - EOVERFLOW: the packet would exceed RTE_MBUF_MAX_NB_SEGS segments or
 *     UINT32_MAX bytes.
 *   *m may have changed: use it, not a copy of the old pointer.
 */
__rte_warn_unused_result
void *mbufx_prepend_contig(struct mbufx_zone_set *zs, struct rte_mbuf **m,
		uint16_t len, uint32_t contig);

/**
 * Insert an 802.1Q tag carrying m->vlan_tci after the MAC addresses: what
 * rte_vlan_insert() does (same bytes, same ol_flags and l2_len /
 * outer_l2_len updates), on any packet, also where rte_vlan_insert()
 * refuses (a clone, a head with clones attached, no headroom): it is
 * mbufx_prepend_contig(zs, m, 4, 16) and a move of the 12 address bytes.
 *
 * @param zs
 *   Zone set providing fresh segments.
 * @param m
 *   In: the packet. Out: the packet, whose first segment may be new.
 * @return
 *   0, or a negative errno with the packet unchanged: -EINVAL (NULL
 *   argument, packet shorter than 12 bytes), -ENOMEM, -EOVERFLOW.
 *   *m may have changed: use it, not a copy of the old pointer.
 */
__rte_warn_unused_result
int mbufx_vlan_insert(struct mbufx_zone_set *zs, struct rte_mbuf **m);

/**
 * Make the first len bytes of a packet contiguous in its first segment
 * (the m_pullup of mbufx).
 *
 * Nothing changes when the bytes are already contiguous; in place when the
 * first segment is writable and its buffer holds len bytes; otherwise the
 * first len bytes are copied into a fresh first segment that takes the
 * metadata. Bytes of shared segments are never written.
 *
 * The result is contiguous, NOT necessarily writable (it may point into a
 * clone's buffer): to write the bytes, call mbufx_unshare_hdr().
 *
 * @param zs
 *   Zone set providing fresh segments.
 * @param m
 *   In: the packet. Out: the packet, whose first segment may be new.
 * @param len
 *   Bytes wanted contiguous (0 returns the data start).
 * @return
 *   Pointer to the first byte of the packet, or NULL with rte_errno set
 *   and the packet unchanged:
 *   - EINVAL: zs, m or *m NULL, or len > pkt_len;
 *   - ENOSPC: len larger than any zone's segment can hold;
 *   - ENOMEM: the zone providing the fresh segment (or a replacement
 *     indirect mbuf) is empty;
 *   - EOVERFLOW: a fresh segment would make the packet exceed
 *     RTE_MBUF_MAX_NB_SEGS segments.
 *   The bytes may be read, not written (see above). *m may have changed:
 *   use it, not a copy of the old pointer.
 */
__rte_warn_unused_result
void *mbufx_pullup(struct mbufx_zone_set *zs, struct rte_mbuf **m,
		uint32_t len);

/**
 * Make the first len bytes of a packet contiguous and writable in its first
 * segment, and its headroom private, copying them into a fresh segment when
 * the first one is shared (the skb_cow_head of mbufx). Headroom of a fresh
 * segment is all the space left in it, so prepends after this call go in
 * place.
 *
 * len 0 makes only the headroom private: a packet whose first segment is
 * shared gets a fresh, empty first segment (all its buffer headroom) in
 * front. Prepend into it before transmitting: some PMDs refuse a
 * zero-length segment.
 *
 * @param zs
 *   Zone set providing fresh segments.
 * @param m
 *   In: the packet. Out: the packet, whose first segment may be new.
 * @param len
 *   Bytes wanted contiguous and writable.
 * @return
 *   Pointer to the first byte (writable), or NULL with rte_errno set as for
 *   mbufx_pullup() and the packet unchanged. *m may have changed: use it,
 *   not a copy of the old pointer.
 */
__rte_warn_unused_result
void *mbufx_unshare_hdr(struct mbufx_zone_set *zs, struct rte_mbuf **m,
		uint32_t len);

/**
 * Append len bytes copied from src at the end of a packet, filling the
 * writable trailing space of the segment holding the last byte and then
 * the empty segments after it (the chains mbufx_alloc() returns).
 *
 * @param m
 *   Packet (head segment).
 * @param src
 *   Bytes to copy.
 * @param len
 *   Number of bytes.
 * @return
 *   0, or -EINVAL (m or src NULL), -EBUSY, -ENOSPC (not enough writable
 *   room); nothing is written on error. -EBUSY: the head's refcnt is above
 *   1, so its pkt_len may be read by another holder. DPDK's refcnt cannot
 *   tell a head shared by several chains (rte_pktmbuf_refcnt_update())
 *   from a direct head that merely has clones attached (the original of
 *   rte_pktmbuf_clone()): both get -EBUSY.
 */
int mbufx_append_data(struct rte_mbuf *m, const void *src, uint32_t len);

/** Payload bytes that mbufx_fanout() copies rather than shares. */
#define MBUFX_FANOUT_COPY_MAX 128

/**
 * Make n copies of a packet for multicast or mirroring, sharing the payload.
 *
 * Each copy's first segment is writable (refcnt 1, its own buffer), holds
 * a private copy of the first hdr_len bytes with its free space as leading
 * space, and carries m's metadata; the rest of the packet is shared
 * through indirect mbufs (packets with at most MBUFX_FANOUT_COPY_MAX bytes
 * after hdr_len are copied whole). m itself, or m behind a header of its
 * own, serves as the last copy where that is safe. hdr_len should cover
 * every byte the transmit path writes (l2_len + l3_len + l4_len with
 * checksum or TSO offloads). The layouts, zones and counters: the
 * programmer's guide, Fan-out.
 *
 * @param zs
 *   Zone set providing header and indirect mbufs.
 * @param m
 *   The packet (its first segment); consumed on success.
 * @param hdr_len
 *   Bytes each copy gets privately (<= pkt_len and <= the largest zone
 *   buffer; 0 is allowed: then only the leading space is private).
 * @param copies
 *   Array of n pointers, filled on success.
 * @param n
 *   Number of copies (>= 1).
 * @return
 *   n on success, or a negative errno with m unchanged and nothing
 *   allocated:
 *   - -EINVAL: NULL argument, n == 0, or hdr_len out of range;
 *   - -ENOMEM: the zones ran out (the one that fits and every larger);
 *   - -EOVERFLOW: more than RTE_MBUF_MAX_NB_SEGS segments per copy, or
 *     a reference counter of m's data (the owning mbuf's refcnt, or an
 *     external buffer's shinfo refcnt) would exceed UINT16_MAX: each copy
 *     takes one reference per shared segment, so a counter used by s
 *     segments of m needs n * s free counts.
 */
__rte_warn_unused_result
int mbufx_fanout(struct mbufx_zone_set *zs, struct rte_mbuf *m,
		uint16_t hdr_len, struct rte_mbuf **copies, unsigned int n);

/**
 * Copy the packet metadata of src into dst (both first segments): port,
 * ol_flags except RTE_MBUF_F_INDIRECT / RTE_MBUF_F_EXTERNAL (dst keeps its
 * own), packet_type, hash, vlan_tci, vlan_tci_outer, tx_offload, timesync,
 * dynamic fields and the private area (min of both priv_size). Lengths and
 * segment links are not touched.
 *
 * @param dst
 *   Destination segment.
 * @param src
 *   Source segment.
 */
void mbufx_copy_metadata(struct rte_mbuf *dst, const struct rte_mbuf *src);

#ifdef __cplusplus
}
#endif

#endif /* MBUFX_MBUF_H */
