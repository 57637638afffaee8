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

/**
 * Memzone in which the primary process records the names of its mempool
 * ops by index: RTE_MEMPOOL_MAX_OPS_IDX entries of RTE_MEMPOOL_OPS_NAMESIZE
 * bytes each, NUL-padded, "" where the primary has no ops.
 *
 * A pool stores only its ops index, and each process numbers its mempool
 * drivers in the order it registers them (drivers linked into the program
 * first, then -d plugins in command-line order, then the EAL's plugin
 * directory): the same index may name another driver in another process.
 * The primary's numbering is the reference. The driver (at the first pool it
 * creates) and the library (at the first zone set) write the record in the
 * primary; both read it in every process to refuse a pool whose index
 * names another driver here than in the primary.
 */
#define MBUFX_OPS_RECORD_MZ "mbufx_ops_record"

#endif /* MBUFX_CONSTS_H */
