/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The mbufx authors
 */

/* Bind choices of net_mbufx_xdp without a socket (mbufx_xdp_plan.h). */

#include <linux/if_xdp.h>

#include "mbufx_xdp_plan.h"
#include "mbufx_xdp_ring.h"

unsigned int
mbufx_xdp_bind_plan(enum xdp_mode mode, int need_sg, int kernel_sg,
		    uint16_t flags[MBUFX_XDP_PLAN_MAX])
{
	static const uint16_t order[2][MBUFX_XDP_PLAN_MAX] = {
		/* the MTU fits one descriptor: zero-copy wins */
		{ XDP_ZEROCOPY | XDP_USE_SG, XDP_ZEROCOPY,
		  XDP_COPY | XDP_USE_SG, XDP_COPY },
		/* it does not: only multi-buffer binds receive it */
		{ XDP_ZEROCOPY | XDP_USE_SG, XDP_COPY | XDP_USE_SG, 0, 0 },
	};
	unsigned int i, n = 0;
	uint16_t f;

	for (i = 0; i < MBUFX_XDP_PLAN_MAX; i++) {
		f = order[need_sg != 0][i];
		if (f == 0)
			break;
		if ((f & XDP_USE_SG) != 0 && !kernel_sg)
			continue;
		if ((mode == MODE_COPY && (f & XDP_ZEROCOPY) != 0) ||
		    (mode == MODE_ZC && (f & XDP_COPY) != 0))
			continue;
		flags[n++] = f;
	}
	return n;
}
