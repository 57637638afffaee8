/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The mbufx authors
 */

#ifndef MBUFX_PRIVATE_H
#define MBUFX_PRIVATE_H

/* Library internals shared by the zone, mbuf, fan-out and stats sources. */

#include <rte_log.h>
#include <rte_mbuf.h>
#include <rte_memcpy.h>

#include "mbufx_stats.h"
#include "mbufx_zone.h"

extern int mbufx_logtype;

#define MBUFX_LOG(level, fmt, ...) \
	rte_log(RTE_LOG_ ## level, mbufx_logtype, "mbufx: " fmt "\n", \
		##__VA_ARGS__)

/* Memzone holding a zone set: "MBUFX_ZS_<name>", found by lookup. */
#define MBUFX_ZS_MZ_PREFIX "MBUFX_ZS_"

/*
 * A zone set as the library keeps it in its memzone: the public part (what
 * the inlines read, mbufx_zone.h) first, then what only the library reads.
 */
struct mbufx_zone_set_priv {
	struct mbufx_zone_set pub;
	int socket_id;				/* socket the pools live on */
	char name[MBUFX_ZONE_SET_NAMESIZE];	/* zone-set name */
	/* resolved parameters; params.ops_name points to ops_name below */
	struct mbufx_zone_params params;
	char ops_name[RTE_MEMPOOL_OPS_NAMESIZE]; /* mempool ops of the pools */
};

static inline struct mbufx_zone_set_priv *
mbufx_zs_priv(const struct mbufx_zone_set *zs)
{
	return container_of((struct mbufx_zone_set *)(uintptr_t)zs,
			    struct mbufx_zone_set_priv, pub);
}

/*
 * Counter sets of the library (the zone sets' here, late attach's in
 * mbufx_rx.c) are a struct plus a table of struct mbufx_stat_field
 * (mbufx_stats.h); these print and serve any of them from its table.
 */
struct rte_tel_data;
/* netstat -m style, "value description (name)", one line per counter
 * (gauges are left out); per-zone counters as hdr/pkt/jumbo. */
void mbufx_stats_dump_counters(FILE *f, const void *st,
		const struct mbufx_stat_field *fields, unsigned int n);
/* Every field into telemetry dict d: u64 values, per-zone fields as
 * arrays. */
void mbufx_stats_tel_fields(struct rte_tel_data *d, const void *st,
		const struct mbufx_stat_field *fields, unsigned int n);

/* Call fn for every zone set (under the zone-set lock and the memzone
 * lock: fn must not create or free zone sets or memzones). */
void mbufx_zone_set_walk(void (*fn)(const struct mbufx_zone_set *zs,
		void *arg), void *arg);

/* Call fn for the zone set of that name under the zone-set lock, so that it
 * cannot be freed meanwhile; -ENOENT when there is none. */
int mbufx_zone_set_with(const char *name,
		void (*fn)(const struct mbufx_zone_set *zs, void *arg),
		void *arg);

/*
 * Pool for the mbufs the library puts in front of packets or uses as
 * clones: the header zone when the set has one and its buffers hold need
 * bytes, else the smallest larger zone. NULL when none holds need bytes.
 */
static inline struct rte_mempool *
mbufx_hdr_pool(const struct mbufx_zone_set *zs, uint32_t need,
	       enum mbufx_zone_id *zid)
{
	unsigned int z;

	for (z = MBUFX_ZONE_HDR; z < MBUFX_ZONE_NUM; z++) {
		if (zs->pool[z] == NULL)
			continue;
		if (need <= zs->room[z] + RTE_PKTMBUF_HEADROOM) {
			*zid = (enum mbufx_zone_id)z;
			return zs->pool[z];
		}
	}
	return NULL;
}

/*
 * n >= 1 mbufs for the library's own use (headers, indirect mbufs), all
 * from one zone: *zid, or when it is dry the next larger enabled zone. On
 * success *zid is the zone that served. 0 or -ENOMEM; counts nothing (see
 * mbufx_lib_count()).
 */
int mbufx_lib_get(struct mbufx_zone_set *zs, enum mbufx_zone_id *zid,
		struct rte_mbuf **v, unsigned int n);

/* One such mbuf: inline for the preferred zone, out of line for the
 * fallback. NULL when every candidate zone is dry. */
static inline struct rte_mbuf *
mbufx_lib_alloc(struct mbufx_zone_set *zs, enum mbufx_zone_id *zid)
{
	struct rte_mbuf *m = rte_pktmbuf_alloc(zs->pool[*zid]);
	enum mbufx_zone_id z;

	if (likely(m != NULL))
		return m;
	z = (enum mbufx_zone_id)(*zid + 1);
	if (z < MBUFX_ZONE_NUM && mbufx_lib_get(zs, &z, &m, 1) == 0) {
		*zid = z;
		return m;
	}
	return NULL;
}

/* Count n mbufs the library took from zone got for a request that
 * preferred zone pref. */
#define mbufx_lib_count(zs, pref, got, n) do {				\
	MBUFX_ZONE_STAT_ADD(zs, alloc[got], n);				\
	if ((got) != (pref))						\
		MBUFX_ZONE_STAT_ADD(zs, hdr_fallback, n);		\
} while (0)

/*
 * Debug checks (MBUFX_DEBUG, set by -Dsanitize=true or -Ddebug_checks=true):
 * a first segment the library demotes to a later one, and that the caller
 * alone holds, gets nb_segs 0 (a value no head has; DPDK reads nb_segs of
 * the first segment only), and every call that takes a head aborts with a
 * message when given one: ported code that kept the old head pointer.
 */
#ifdef MBUFX_DEBUG
void mbufx_debug_stale_head(const struct rte_mbuf *m, const char *fn);
#define MBUFX_DEBUG_HEAD(m) do {					\
	if (unlikely((m)->nb_segs == 0))				\
		mbufx_debug_stale_head(m, __func__);			\
} while (0)
#define MBUFX_DEBUG_DEMOTE(m) do {					\
	if (rte_mbuf_refcnt_read(m) == 1)				\
		(m)->nb_segs = 0;					\
} while (0)
#else
#define MBUFX_DEBUG_HEAD(m) do { } while (0)
#define MBUFX_DEBUG_DEMOTE(m) do { } while (0)
#endif

/* Copy len bytes from the front of the chain at s to dst. */
static inline void
mbufx_copy_front(uint8_t *dst, const struct rte_mbuf *s, uint32_t len)
{
	uint32_t k;

	for (; len != 0; s = s->next) {
		k = RTE_MIN((uint32_t)s->data_len, len);
		rte_memcpy(dst, rte_pktmbuf_mtod(s, const uint8_t *), k);
		dst += k;
		len -= k;
	}
}

/* mbufx_copy_metadata(), inline for the library's own paths. */
static inline void
__mbufx_copy_metadata(struct rte_mbuf *dst, const struct rte_mbuf *src)
{
	const uint64_t seg_flags = RTE_MBUF_F_INDIRECT | RTE_MBUF_F_EXTERNAL;
	uint16_t dpriv, spriv;

	dst->port = src->port;
	dst->ol_flags = (dst->ol_flags & seg_flags) |
		(src->ol_flags & ~seg_flags);
	dst->packet_type = src->packet_type;
	dst->hash = src->hash;
	dst->vlan_tci = src->vlan_tci;
	dst->vlan_tci_outer = src->vlan_tci_outer;
	dst->tx_offload = src->tx_offload;
	dst->timesync = src->timesync;
	rte_mbuf_dynfield_copy(dst, src);
	/* The private area behind each structure is its own pool's; an
	 * indirect mbuf's priv_size field holds its owner's size instead. */
	dpriv = RTE_MBUF_CLONED(dst) ? rte_pktmbuf_priv_size(dst->pool) :
		dst->priv_size;
	if (dpriv == 0)
		return;
	spriv = RTE_MBUF_CLONED(src) ? rte_pktmbuf_priv_size(src->pool) :
		src->priv_size;
	if (spriv != 0)
		rte_memcpy(rte_mbuf_to_priv(dst), (const void *)(src + 1),
			   RTE_MIN(dpriv, spriv));
}

#endif /* MBUFX_PRIVATE_H */
