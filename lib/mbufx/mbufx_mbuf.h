/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The mbufx authors
 */

#ifndef MBUFX_MBUF_H
#define MBUFX_MBUF_H

/**
 * @file
 * mbufx writability predicates, prepend, pullup and fan-out.
 *
 * DPDK's rte_pktmbuf_prepend() checks headroom only: on a clone it writes
 * into a buffer other packets read, and on an external buffer shared by
 * several mbufs likewise. The predicates below say when a segment's bytes
 * may be written, in the spirit of FreeBSD's M_WRITABLE / M_LEADINGSPACE:
 *
 * @verbatim
 *   segment kind                         writable when
 *   ----------------------------------   ------------------------------------
 *   direct                               refcnt(seg) == 1
 *   indirect (rte_pktmbuf_clone/attach)  refcnt(seg) == 1 and
 *                                        refcnt(rte_mbuf_from_indirect(seg))
 *                                        == 1 (the owner of the data)
 *   external buffer (attach_extbuf)      refcnt(seg) == 1 and
 *                                        shinfo->refcnt == 1
 *   pinned external (pinned-extbuf pool) same as external
 * @endverbatim
 *
 * A segment whose own refcnt is above 1 is shared as a structure (several
 * chains point at it, rte_pktmbuf_refcnt_update()): neither its bytes nor
 * its fields may be changed. mbufx never modifies such a segment; when an
 * operation has to shorten it, it puts an indirect mbuf in its place.
 *
 * mbufx_prepend(), mbufx_pullup() and mbufx_fanout() write only where these
 * predicates allow, take any extra mbufs from the zone set's header zone
 * (packet zone when the set has none or the header does not fit), and
 * leave the packet exactly as it was when they fail.
 *
 * Metadata of a packet lives in its first segment. When an operation puts a
 * new first segment in front, it moves all of it there: port, ol_flags
 * (except the per-segment RTE_MBUF_F_INDIRECT / RTE_MBUF_F_EXTERNAL bits),
 * packet_type, hash, vlan_tci, vlan_tci_outer, tx_offload, timesync, the
 * dynamic fields and the application private area (min of both sizes).
 *
 * Header mbufs the library allocates keep their bytes at the end of the
 * buffer, so that all their free space is leading space for later prepends
 * (pullup, unshare_hdr and fan-out start them at an even offset, one byte
 * before the end when the length is odd, so that headers stay 2-byte
 * aligned as rte_ether_hdr requires).
 *
 * Thread safety: the calls operate on packets owned by the caller; several
 * lcores may work on different packets that share data (clones) at the same
 * time, since shared bytes are never written. Each thread must hold its own
 * reference (its own clone or copy, or one taken with
 * rte_pktmbuf_refcnt_update() before the hand-over): DPDK updates a refcnt
 * of 1 without an atomic operation, taking it to mean "sole user".
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
 *   its data buffer (see the table in the file comment), 0 otherwise.
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
 * In place (no allocation) when the first segment is writable and has at
 * least len bytes of headroom. Otherwise a header mbuf is chained in front
 * (its bytes at the end of its buffer, so later prepends go in place) and
 * the packet metadata is moved to it; the old first segment is not
 * modified at all. The new bytes are uninitialised.
 *
 * A chained header holds only the len new bytes: the packet's own headers
 * stay in the second segment. Transmit paths that need every header in the
 * first segment (the rte_eth_tx_prepare() of Intel and many other PMDs
 * fails with ENOTSUP for checksum and TSO offloads otherwise, and then
 * writes the pseudo-header checksum into those headers) call
 * mbufx_unshare_hdr(zs, m, l2_len + l3_len + l4_len) after the prepend:
 * it copies them into the header mbuf, in place when it has room.
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
 *   - ENOMEM: the zone providing the header mbuf (the header zone unless
 *     len needs a bigger buffer) is empty;
 *   - EOVERFLOW: the packet would exceed RTE_MBUF_MAX_NB_SEGS segments or
 *     UINT32_MAX bytes.
 */
void *mbufx_prepend(struct mbufx_zone_set *zs, struct rte_mbuf **m,
		uint16_t len);

/**
 * Make the first len bytes of a packet contiguous in its first segment
 * (the m_pullup of mbufx).
 *
 * - Already contiguous (data_len >= len): nothing changes.
 * - First segment writable and its leading plus data plus trailing space
 *   holds len: no allocation. The data moves towards the front of the
 *   buffer only as far as needed, the missing bytes are copied in from the
 *   following segments, segments emptied on the way are freed.
 * - Otherwise the first len bytes are copied into a fresh segment (header
 *   zone when they fit, else packet or jumbo zone) that becomes the first
 *   one, taking the metadata.
 *
 * Bytes of shared segments are never written: only the fields of the
 * caller's own segments are adjusted, and a shared segment structure that
 * must be shortened is replaced by an indirect mbuf.
 *
 * The result is contiguous, not necessarily writable: when nothing had to
 * change, the first segment may still be shared (check mbufx_seg_writable(),
 * or use mbufx_unshare_hdr()).
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
 */
void *mbufx_pullup(struct mbufx_zone_set *zs, struct rte_mbuf **m,
		uint32_t len);

/**
 * Make the first len bytes of a packet contiguous and writable in its first
 * segment, copying them into a fresh segment when the first one is shared
 * (the skb_cow_head of mbufx). Headroom of a fresh segment is all the space
 * left in it.
 *
 * @param zs
 *   Zone set providing fresh segments.
 * @param m
 *   In: the packet. Out: the packet, whose first segment may be new.
 * @param len
 *   Bytes wanted contiguous and writable.
 * @return
 *   Pointer to the first byte (writable), or NULL with rte_errno set as for
 *   mbufx_pullup() and the packet unchanged.
 */
void *mbufx_unshare_hdr(struct mbufx_zone_set *zs, struct rte_mbuf **m,
		uint32_t len);

/** Payload bytes that mbufx_fanout() copies rather than shares. */
#define MBUFX_FANOUT_COPY_MAX 128

/**
 * Make n copies of a packet for multicast or mirroring, sharing the payload.
 *
 * Copy i (i < n - 1) is a header mbuf holding a private copy of the first
 * hdr_len bytes with all its free space as leading space, followed by
 * indirect mbufs sharing the rest of the packet. Payload bytes that sit in
 * the same segment as the header and number at most MBUFX_FANOUT_COPY_MAX
 * are copied into the header mbuf instead of shared, and a packet with at
 * most MBUFX_FANOUT_COPY_MAX bytes after hdr_len is deep-copied: one
 * allocation per copy and no sharing.
 *
 * When the first segment of m is writable and holds the first hdr_len
 * bytes, m itself serves as the last copy: n - 1 header allocations
 * instead of n. Its first hdr_len bytes and
 * its headroom are referenced by no other copy and may be written through
 * rte_pktmbuf_mtod(); but when its first segment also holds payload the
 * other copies share, mbufx_seg_writable() (which judges whole buffers)
 * reports it shared, so an mbufx_prepend() on it chains a header mbuf.
 * Otherwise every copy gets a header mbuf and m is released. In every copy
 * the first hdr_len bytes are contiguous in the first segment.
 *
 * Every copy carries m's metadata. Allocations are counted in the zone
 * set's fan-out counters.
 *
 * hdr_len should cover every byte the transmit path writes: for checksum
 * or TSO offloads that is l2_len + l3_len + l4_len, since the
 * rte_eth_tx_prepare() of Intel and many other PMDs writes the
 * pseudo-header checksum into the L4 header and wants the headers in the
 * first segment.
 *
 * @param zs
 *   Zone set providing header and indirect mbufs.
 * @param m
 *   The packet; consumed on success.
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
 *   - -ENOMEM: the header zone ran out;
 *   - -EOVERFLOW: more than RTE_MBUF_MAX_NB_SEGS segments per copy, or
 *     a reference counter of m's data (the owning mbuf's refcnt, or an
 *     external buffer's shinfo refcnt) would exceed UINT16_MAX: each copy
 *     takes one reference per shared segment, so a counter used by s
 *     segments of m needs n * s free counts.
 */
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
