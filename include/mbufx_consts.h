/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The mbufx authors
 */

#ifndef MBUFX_CONSTS_H
#define MBUFX_CONSTS_H

/**
 * @file
 * Values the mbufx mempool driver and the mbufx library must agree on.
 *
 * The driver is a plugin that depends on DPDK only: it never includes a
 * library header nor links libmbufx. What both sides must share is therefore
 * kept here, in a header of plain macros that includes nothing, has no types
 * and no functions, and is installed with the library's headers. Change a
 * value here and both are rebuilt with it.
 */

/** The one mempool ops name of the driver, the library's default ops. */
#define MBUFX_OPS_NAME "mbufx"

/**
 * The jumbo frame: a buffer (data room less RTE_PKTMBUF_HEADROOM) of at
 * least this many bytes holds a jumbo frame in one segment. The driver
 * classifies such pools as jumbo (one IOVA-contiguous chunk); the library's
 * default jumbo zone is built to hold it.
 */
#define MBUFX_JUMBO_FRAME_LEN 9000

#endif /* MBUFX_CONSTS_H */
