/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The mbufx authors
 */

#ifndef XDP_FAKE_KERNEL_H
#define XDP_FAKE_KERNEL_H

/*
 * The kernel's side of an AF_XDP socket, in plain memory, for driving the
 * receive and transmit cores of net_mbufx_xdp without a socket (the unit
 * tests test_xdp_rx.c / test_xdp_tx.c and the fuzz harnesses). One fake
 * kernel for all of them.
 *
 * Receive: take a fill address, write a frame at the kernel's offset (256)
 * and return the RX descriptor the kernel would.
 *
 * Transmit: consume TX descriptors as a device would, reassemble the frames
 * (XDP_PKT_CONTD), check every descriptor against the UMEM, and owe one
 * completion per descriptor. What real kernels do and veth does not can be
 * asked for: a segment limit (a zero-copy device drops a frame of more
 * descriptors, without completions: xdp_zc_max_segs), completions given in
 * any order, or never.
 */

#include <stdint.h>

#include "mbufx_xdp_rx.h"
#include "mbufx_xdp_tx.h"

/* ---- receive ---- */

/* Take the next posted fill address, UINT64_MAX when the ring is empty. */
uint64_t fk_fill_take(struct mbufx_xdp_rxq *q);

/* How the device moves frames: 0 (the default) through this core's caches,
 * as the kernel's copy in copy mode does (plain stores on receive, frames
 * read and kept on transmit); 1 as a zero-copy NIC's DMA: received frames
 * written in whole lines with non-temporal stores, outside this core's
 * caches (the rest of the last line gets the pattern too), transmitted
 * frames checked but not read nor kept (benchmarks; the caller fences
 * before the poll). */
extern int fk_dma;

/* Write len bytes of pattern (seed + i) at fill + 256; the descriptor. */
struct xdp_desc fk_rx_write(struct mbufx_xdp_rxq *q, uint64_t fill,
		uint32_t len, uint32_t opts, uint8_t seed);

/* Fill and RX rings of size entries in plain memory for q, the fill ring
 * stocked: 0 or a negative errno. */
int fk_rx_init(struct mbufx_xdp_rxq *q, uint32_t size);
void fk_rx_fini(struct mbufx_xdp_rxq *q);

/* Deliver a one-descriptor frame of len bytes on q's RX ring, as the
 * kernel does: 0, -ENOENT (fill ring empty) or -ENOSPC (RX ring full). */
int fk_rx_deliver(struct mbufx_xdp_rxq *q, uint32_t len, uint8_t seed);

/* The same for a frame of frags descriptors of len bytes each
 * (XDP_PKT_CONTD on all but the last), all or nothing. */
int fk_rx_deliver_frame(struct mbufx_xdp_rxq *q, uint32_t frags,
		uint32_t len, uint8_t seed);

/* ---- transmit ---- */

#define FK_FRAMES 512		/* frames kept for checking */
#define FK_FRAME_MAX 9216
#define FK_OWED_MAX 8192	/* completions owed at once */

struct fk_tx {
	struct mbufx_xdp_txq *q;
	uint32_t seg_limit;	/* 0: none; else frames of more descriptors
				 * are dropped without completion */
	uint64_t owed[FK_OWED_MAX];	/* completion addresses, consumption order */
	uint32_t nb_owed;
	/* the frame being reassembled */
	uint8_t cur[FK_FRAME_MAX];
	uint32_t cur_len;
	uint32_t cur_descs;
	uint64_t cur_addr[64];
	int cur_bad;
	/* frames received, in order (the first FK_FRAMES kept) */
	uint32_t nb_frames;
	uint32_t len[FK_FRAMES];
	uint8_t *data[FK_FRAMES];
	uint64_t invalid;	/* descriptors outside the UMEM or too long */
	uint64_t seg_drops;	/* frames dropped for the segment limit */
	uint64_t descs;		/* descriptors consumed */
};

/* TX and completion rings of size entries in plain memory for q; k set up
 * to play the device. 0 or a negative errno. */
int fk_tx_init(struct fk_tx *k, struct mbufx_xdp_txq *q, uint32_t size);
void fk_tx_fini(struct fk_tx *k);

/* Consume up to max TX descriptors; returns how many. */
uint32_t fk_tx_consume(struct fk_tx *k, uint32_t max);

/* Give the completion owed at index i (0 = the oldest); 0 or -ENOSPC when
 * the completion ring is full, -ENOENT when nothing is owed there. */
int fk_tx_complete_at(struct fk_tx *k, uint32_t i);

/* Put any address on the completion ring, owed or not (a kernel that
 * completes what it was never given, or twice): 0 or -ENOSPC. */
int fk_tx_complete_addr(struct fk_tx *k, uint64_t addr);

/* Give every owed completion, oldest first (reverse: newest first), as far
 * as the completion ring takes them; returns how many. */
uint32_t fk_tx_complete_all(struct fk_tx *k, int reverse);

/* Forget the owed completion at index i (the kernel never gives it). */
void fk_tx_lose_at(struct fk_tx *k, uint32_t i);

#endif /* XDP_FAKE_KERNEL_H */
