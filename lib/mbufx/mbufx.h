/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The mbufx authors
 */

/**
 * @file
 * mbufx: packet buffers for DPDK. The umbrella header: includes every
 * public header of the library (one per line, sorted).
 *
 * - mbufx_zone.h: zone sets (header, 2K packet and 9K jumbo pools per
 *   socket) and size-generic allocation, mbufx_alloc();
 * - mbufx_mbuf.h: writability predicates, mbufx_prepend(), mbufx_pullup(),
 *   mbufx_fanout();
 * - mbufx_stats.h: counters, the netstat -m like dump, telemetry;
 * - mbufx_rx.h: late metadata attach on receive.
 *
 * Link with libmbufx (pkg-config libmbufx, or mbufx_dep in meson). The
 * pools use the "mbufx" mempool driver, which must be loaded
 * (-d librte_mempool_mbufx.so, or linked with --no-as-needed).
 */

#ifndef MBUFX_H
#define MBUFX_H

#include "mbufx_mbuf.h"
#include "mbufx_rx.h"
#include "mbufx_stats.h"
#include "mbufx_zone.h"

#ifdef __cplusplus
extern "C" {
#endif

/** @return the library version string. */
const char *mbufx_version(void);

#ifdef __cplusplus
}
#endif

#endif /* MBUFX_H */
