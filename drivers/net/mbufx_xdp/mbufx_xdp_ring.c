/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The mbufx authors
 */

/* Rings in plain memory (mbufx_xdp_ring.h): the kernel's ring layout for
 * driving the receive and transmit cores without a socket. */

#include <errno.h>
#include <string.h>

#include <rte_common.h>
#include <rte_malloc.h>

#include "mbufx_xdp_ring.h"

int
mbufx_xdp_ring_mem_init(struct mbufx_xdp_ring *r, uint32_t size, size_t entry)
{
	uint32_t *idx;

	memset(r, 0, sizeof(*r));
	if (size == 0 || !rte_is_power_of_2(size))
		return -EINVAL;
	/* producer, consumer, flags on their own line, then the entries */
	idx = rte_zmalloc("mbufx_xdp_ring", RTE_CACHE_LINE_SIZE + size * entry,
			  RTE_CACHE_LINE_SIZE);
	if (idx == NULL)
		return -ENOMEM;
	r->producer = &idx[0];
	r->consumer = &idx[1];
	r->flags = &idx[2];
	r->descs = RTE_PTR_ADD(idx, RTE_CACHE_LINE_SIZE);
	r->size = size;
	r->mask = size - 1;
	return 0;
}

void
mbufx_xdp_ring_mem_fini(struct mbufx_xdp_ring *r)
{
	rte_free(r->producer);
	memset(r, 0, sizeof(*r));
}
