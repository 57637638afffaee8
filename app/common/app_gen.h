/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The mbufx authors
 */

/*
 * A software NIC for benchmarks on net_ring loopback ports: the one receive
 * path the apps own, and so the one place where they use late attach.
 *
 * A net_ring port hands its Rx queue whatever was sent on its Tx queue of
 * the same index. The generator plays the NIC of the source port: it keeps
 * a descriptor ring of posted receive buffers, "DMAs" a frame header into the
 * oldest ones, completes them into mbufs and puts them on the source port's
 * ring, where the forwarding loop receives them as from any PMD; then it
 * drains and frees what was forwarded to the sink port. Payload bytes are not
 * written (no-copy model: a NIC's DMA costs no CPU), so per-packet work is
 * the buffer path only.
 *
 *   classic (stock pools)        refill: mempool get, read buf_iova, write
 *                                the rearm word; completion: write lengths,
 *                                flags, chain 2K segments for long frames
 *   late attach (mbufx pools)    refill: mbufx_rx_refill() (no header
 *                                access; MBUFX_RX_F_NO_IOVA, as nothing is
 *                                handed to a device); completion:
 *                                mbufx_rx_attach(), one segment of the zone
 *                                that fits the frame
 *
 * It runs inside the forwarding loop of the main lcore, so cycles per packet
 * cover generate + forward + free on one core.
 */

#ifndef APP_GEN_H
#define APP_GEN_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include <rte_mempool.h>

struct app_gen_conf {
	uint16_t src_port;	/**< net_ring port whose Rx gets the frames */
	uint16_t sink_port;	/**< net_ring port whose Rx is drained and freed */
	uint32_t frame_len;	/**< bytes per frame (no CRC) */
	struct rte_mempool *mp;	/**< Rx pool of the source port */
	const uint8_t *hdr;	/**< header bytes written into every frame (copied) */
	uint64_t ol_flags;	/**< RTE_MBUF_F_RX_* of every frame (a NIC's verdicts) */
	uint16_t hdr_len;	/**< at most 128 */
	bool late_attach;	/**< mbufx_rx late attach, else classic refill */
};

extern bool app_gen_active;

/** Set up the generator (ring of posted buffers). Prints why on error. */
int app_gen_init(const struct app_gen_conf *c);

/** One burst: complete and inject frames, refill, drain the sink. */
void app_gen_poll(void);

/** Give every posted buffer back (before the leak audit). */
void app_gen_stop(void);

/** JSON members of the generator's counters, each led by ", ". */
void app_gen_json(FILE *f);

#endif /* APP_GEN_H */
