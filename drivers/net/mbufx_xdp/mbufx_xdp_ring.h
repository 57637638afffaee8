/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The mbufx authors
 */

#ifndef MBUFX_XDP_RING_H
#define MBUFX_XDP_RING_H

/*
 * Internal header of net_mbufx_xdp: the single-producer/single-consumer
 * ring shape the kernel shares with an AF_XDP socket (fill, RX, TX,
 * completion), and the same ring in plain memory, for driving the receive
 * and transmit cores without a socket (tests, fuzzing).
 */

#include <stddef.h>
#include <stdint.h>

#include <linux/if_xdp.h>

#ifndef XDP_USE_SG
#define XDP_USE_SG (1 << 4)
#endif
#ifndef XDP_PKT_CONTD
#define XDP_PKT_CONTD (1 << 0)
#endif

/*
 * A ring shared with the kernel (or, for tests, with plain memory):
 * producer and consumer indexes run freely, entries at index & mask.
 */
struct mbufx_xdp_ring {
	uint32_t *producer;
	uint32_t *consumer;
	uint32_t *flags;
	void *descs;
	uint32_t mask;
	uint32_t size;
	uint32_t cached_prod;
	uint32_t cached_cons;
	void *map;		/* mmap() of the ring, NULL for a test ring */
	size_t map_len;
};

/* Producer side (fill, TX): free entries, refreshing the consumer index
 * only when the cached view shows fewer than want. */
static inline uint32_t
mbufx_xdp_prod_free(struct mbufx_xdp_ring *r, uint32_t want)
{
	uint32_t free_n = r->size - (r->cached_prod - r->cached_cons);

	if (free_n >= want)
		return free_n;
	r->cached_cons = __atomic_load_n(r->consumer, __ATOMIC_ACQUIRE);
	return r->size - (r->cached_prod - r->cached_cons);
}

static inline void
mbufx_xdp_prod_submit(struct mbufx_xdp_ring *r, uint32_t n)
{
	r->cached_prod += n;
	__atomic_store_n(r->producer, r->cached_prod, __ATOMIC_RELEASE);
}

/* Consumer side (RX, completion): entries available. */
static inline uint32_t
mbufx_xdp_cons_avail(struct mbufx_xdp_ring *r)
{
	uint32_t n = r->cached_prod - r->cached_cons;

	if (n == 0) {
		r->cached_prod = __atomic_load_n(r->producer,
						 __ATOMIC_ACQUIRE);
		n = r->cached_prod - r->cached_cons;
	}
	return n;
}

static inline void
mbufx_xdp_cons_release(struct mbufx_xdp_ring *r, uint32_t n)
{
	r->cached_cons += n;
	__atomic_store_n(r->consumer, r->cached_cons, __ATOMIC_RELEASE);
}

/*
 * A ring in plain memory, for driving the cores without a socket
 * (tests, fuzzing): 0 or -ENOMEM; size a power of two.
 */
int mbufx_xdp_ring_mem_init(struct mbufx_xdp_ring *r, uint32_t size,
		size_t entry);
void mbufx_xdp_ring_mem_fini(struct mbufx_xdp_ring *r);

/* The kernel's side of a fill ring in plain memory (tests, fuzzing): take
 * the next posted fill address, UINT64_MAX when the ring is empty. */
static inline uint64_t
mbufx_xdp_ring_mem_take(struct mbufx_xdp_ring *r)
{
	uint32_t c = *r->consumer;
	uint64_t a;

	if (c == *r->producer)
		return UINT64_MAX;
	a = ((uint64_t *)r->descs)[c & r->mask];
	*r->consumer = c + 1;
	return a;
}

#endif /* MBUFX_XDP_RING_H */
