/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The mbufx authors
 */

/**
 * @file
 * mbufx: packet buffers for DPDK (placeholder umbrella header).
 */

#ifndef MBUFX_H
#define MBUFX_H

#ifdef __cplusplus
extern "C" {
#endif

/** @return the library version string. */
const char *mbufx_version(void);

#ifdef __cplusplus
}
#endif

#endif /* MBUFX_H */
