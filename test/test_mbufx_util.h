/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The mbufx authors
 */

/*
 * Helpers shared by the libmbufx autotests: small zone sets with no
 * per-lcore cache (so exhaustion is exact), the four kinds of mbuf
 * (direct, indirect, external, pinned external), byte patterns and a
 * byte-exact comparison of a chain with an expected buffer.
 */

#ifndef TEST_MBUFX_UTIL_H
#define TEST_MBUFX_UTIL_H

#include <stdint.h>

#include <rte_mbuf.h>
#include <rte_mempool.h>

#include "mbufx.h"

/* Object counts of tu_zs_create() zone sets. */
#define TU_HDR_N 63
#define TU_PKT_N 127
#define TU_JUMBO_N 15

/* A zone set with TU_*_N objects and no caches, ops "mbufx". */
struct mbufx_zone_set *tu_zs_create(const char *name);

/* Same with explicit counts (0 = zone disabled through a flag). */
struct mbufx_zone_set *tu_zs_create_n(const char *name, uint32_t hdr,
		uint32_t pkt, uint32_t jumbo);

/* Kinds of first segment the tests run across. */
enum tu_kind {
	TU_DIRECT = 0,
	TU_INDIRECT,	/* a clone whose original is still alive */
	TU_INDIRECT_SOLE, /* a clone whose original was freed */
	TU_EXT,		/* rte_pktmbuf_attach_extbuf(), sole reference */
	TU_EXT_SHARED,	/* external buffer with a second reference */
	TU_PINNED,	/* pinned external buffer pool */
	TU_KIND_NUM
};

extern const char * const tu_kind_names[TU_KIND_NUM];

/*
 * A one-segment packet of kind k holding len pattern bytes (seed s) with
 * the given headroom. *other receives the second reference for the shared
 * kinds (free it after the test), NULL otherwise.
 */
struct rte_mbuf *tu_make(enum tu_kind k, struct mbufx_zone_set *zs,
		uint16_t headroom, uint16_t len, uint32_t s,
		struct rte_mbuf **other);

/* An external-buffer mbuf from mp with room bytes after the headroom. */
struct rte_mbuf *tu_ext_alloc(struct rte_mempool *mp, uint16_t room);

/* External buffers alive (allocated, free callback not yet called). */
extern int tu_ext_live;

/* The pinned-external pool (created on first use, 63 mbufs, 2176 B). */
struct rte_mempool *tu_pinned_pool(void);
/* Free the pinned pool (call at the end of a test). */
void tu_pinned_pool_free(void);

/* Fill n bytes with the pattern of seed s. */
void tu_pattern(uint8_t *p, uint32_t n, uint32_t s);

/* Append n pattern bytes (seed s) to a single segment; 0 or -1. */
int tu_fill(struct rte_mbuf *m, uint32_t n, uint32_t s);

/*
 * Compare packet m with exp[0..len): structure (rte_mbuf_check), pkt_len
 * and every byte. Prints the first difference. 0 when equal.
 */
int tu_cmp(const struct rte_mbuf *m, const uint8_t *exp, uint32_t len);

/* Copy the packet's bytes to out (at most cap); returns pkt_len. */
uint32_t tu_read(const struct rte_mbuf *m, uint8_t *out, uint32_t cap);

/* Free mbufs still counted by the zones: avail of each pool. */
void tu_avail(const struct mbufx_zone_set *zs, unsigned int avail[MBUFX_ZONE_NUM]);

/* Take every mbuf of pool mp into v (cap entries); returns the count. */
unsigned int tu_drain(struct rte_mempool *mp, struct rte_mbuf **v,
		unsigned int cap);

/*
 * Check a counter table (mbufx_stats.h) against the struct of size bytes it
 * describes: entries in struct order, scalar or per-zone, each byte of the
 * struct up to the last entry named exactly once. *end receives the offset
 * one past the last entry. Returns TEST_SUCCESS or TEST_FAILED (logged).
 */
int tu_stat_table_check(const struct mbufx_stat_field *t, unsigned int n,
		size_t size, size_t *end);

#endif /* TEST_MBUFX_UTIL_H */
