/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The mbufx authors
 */

#ifndef MBUFX_STATS_H
#define MBUFX_STATS_H

/**
 * @file
 * mbufx zone-set counters, the netstat -m like dump, telemetry.
 *
 * Counters are kept per lcore inside the zone set and summed on read, so
 * the data path never executes an atomic instruction for them (non-EAL
 * threads share one slot that is updated atomically). They count what the
 * library does: mbufs a PMD takes from a zone pool directly are not in
 * alloc[] (the mempool driver's own statistics count those), late-attach
 * activity comes from the rx contexts bound to the zone pools
 * (mbufx_rx_stats_sum()).
 *
 * Telemetry (rte_telemetry, e.g. usertools/dpdk-telemetry.py):
 * - /mbufx/zones: list of zone-set names;
 * - /mbufx/zone,NAME: one zone set as a JSON dictionary with the fields of
 *   struct mbufx_zone_stats, named as in its table (per-zone arrays in
 *   zone order, hdr/pkt/jumbo).
 * The mempool driver registers its own commands under /mbufx/ as well
 * (/mbufx/pools, ...); these two names are the library's.
 */

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <rte_common.h>

#include "mbufx_zone.h"

#ifdef __cplusplus
extern "C" {
#endif

/** What a field of a statistics struct holds. */
enum mbufx_stat_kind {
	MBUFX_STAT_COUNTER,	/**< counts events since creation or reset */
	MBUFX_STAT_GAUGE,	/**< a level: occupancy, sizes, live objects */
};

/**
 * One field of a statistics struct: a set of counters is a struct plus one
 * array of these (as ethdev's stats strings), and every dump, telemetry
 * reply and JSON object iterates that array instead of naming the fields
 * again.
 */
struct mbufx_stat_field {
	const char *name;	/**< key in telemetry and JSON */
	const char *desc;	/**< what it counts, for dumps */
	uint16_t offset;	/**< offsetof() in the struct */
	uint8_t size;		/**< bytes of one element: 2, 4 or 8 */
	uint8_t n;		/**< elements: 1, or MBUFX_ZONE_NUM per zone */
	uint8_t kind;		/**< enum mbufx_stat_kind */
};

/** A scalar field of struct type, for a table of struct mbufx_stat_field. */
#define MBUFX_STAT_FIELD(type, field, kind, desc) \
	{ #field, desc, offsetof(type, field), \
	  sizeof(((type *)0)->field), 1, kind }

/** A per-zone array field of struct type (MBUFX_ZONE_NUM elements). */
#define MBUFX_STAT_ZONE_FIELD(type, field, kind, desc) \
	{ #field, desc, offsetof(type, field), \
	  sizeof(((type *)0)->field[0]), MBUFX_ZONE_NUM, kind }

/**
 * Element i of field f of a statistics struct.
 *
 * @param st
 *   The struct the table describes.
 * @param f
 *   A field of its table.
 * @param i
 *   Element, below f->n.
 * @return
 *   The value, widened to 64 bits.
 */
static inline uint64_t
mbufx_stat_value(const void *st, const struct mbufx_stat_field *f,
		 unsigned int i)
{
	const void *p = RTE_PTR_ADD(st, f->offset + (size_t)f->size * i);

	switch (f->size) {
	case sizeof(uint16_t):
		return *(const uint16_t *)p;
	case sizeof(uint32_t):
		return *(const uint32_t *)p;
	default:
		return *(const uint64_t *)p;
	}
}

/**
 * The table of struct mbufx_zone_stats: every field, in struct order.
 *
 * @param n
 *   Set to the number of entries (not NULL).
 * @return
 *   The table, static.
 */
const struct mbufx_stat_field *mbufx_zone_stats_fields(unsigned int *n);

/**
 * Print a statistics struct as the members of a JSON object, from its
 * table: "name": value for a scalar, "name": [v0, v1, v2] for a per-zone
 * field, separated by ", ", without the braces (the caller adds its own
 * members around them).
 *
 * @param f
 *   Output stream.
 * @param st
 *   The struct.
 * @param fields
 *   Its table.
 * @param n
 *   Entries in the table.
 * @return
 *   0, or -EINVAL for a NULL argument.
 */
int mbufx_stats_json(FILE *f, const void *st,
		const struct mbufx_stat_field *fields, unsigned int n);

/**
 * Read a zone set's counters and occupancy.
 *
 * The sum is not a snapshot: lcores keep counting while it is taken.
 *
 * @param zs
 *   Zone set.
 * @param st
 *   Filled on success.
 * @return
 *   0, or -EINVAL when zs or st is NULL.
 */
int mbufx_zone_set_stats(const struct mbufx_zone_set *zs,
		struct mbufx_zone_stats *st);

/**
 * Reset a zone set's counters to zero (occupancy is not a counter). Not
 * synchronised with lcores counting at the same time.
 *
 * @param zs
 *   Zone set.
 * @return
 *   0, or -EINVAL when zs is NULL.
 */
int mbufx_zone_set_stats_reset(struct mbufx_zone_set *zs);

/**
 * Print a zone set in the manner of FreeBSD's netstat -m: per zone the
 * mbufs in use / free / total, the data room and memory, then the
 * allocation, fallback, prepend, pullup, fan-out and late-attach counters.
 *
 * @param f
 *   Output stream (NULL = stdout).
 * @param zs
 *   Zone set; NULL prints every zone set.
 */
void mbufx_zone_set_dump(FILE *f, const struct mbufx_zone_set *zs);

#ifdef __cplusplus
}
#endif

#endif /* MBUFX_STATS_H */
