/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The mbufx authors
 */

#ifndef MBUFX_XDP_PLAN_H
#define MBUFX_XDP_PLAN_H

/*
 * Internal header of net_mbufx_xdp: the choices the socket layer makes
 * from what the kernel says, without a socket (unit-tested as the cores).
 */

#include <stdint.h>

/* How a queue may be bound (devarg bind_mode). */
enum xdp_mode { MODE_AUTO, MODE_COPY, MODE_ZC };

#define MBUFX_XDP_PLAN_MAX 4

/*
 * Bind flags to try for a queue, best first, into flags[MBUFX_XDP_PLAN_MAX];
 * returns how many (0: no bind can receive the MTU's frames).
 *
 * need_sg: a frame of the MTU is longer than one descriptor, so a bind
 * without XDP_USE_SG would drop every such frame; such binds are not
 * tried, and zero-copy without multi-buffer loses to copy mode with it.
 * kernel_sg: the kernel knows XDP_USE_SG (Linux 6.6+).
 * Without need_sg: zero-copy before copy, multi-buffer first in each.
 */
unsigned int mbufx_xdp_bind_plan(enum xdp_mode mode, int need_sg,
		int kernel_sg, uint16_t flags[MBUFX_XDP_PLAN_MAX]);

#endif /* MBUFX_XDP_PLAN_H */
