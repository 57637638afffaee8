/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The mbufx authors
 */

#ifndef MBUFX_MEMPOOL_COMPAT_H
#define MBUFX_MEMPOOL_COMPAT_H

/*
 * The DPDK API differences the mempool driver meets between 22.11 and
 * 25.11, and the one mempool internal it relies on, in one place. The
 * driver includes no library header: libmbufx has its own mbufx_compat.h.
 *
 * Telemetry: unsigned values go in with rte_tel_data_add_dict_uint() from
 * 23.03 on; 22.11 has only rte_tel_data_add_dict_u64(), which 24.11
 * deprecates and 25.11 removes. The JSON they produce is the same.
 *
 * Per-lcore caches: the checking mode must see every get and put, and
 * DPDK has no call that turns a pool's default caches off once the pool
 * exists. mbufx_mp_caches_bypass() writes the two fields of struct
 * rte_mempool_cache that rte_mempool_generic_get/put() decide on: with
 * size 0 and flushthresh 0 (22.11 to 25.11) a put of n >= 1 objects crosses
 * the threshold and goes to the driver, and a get finds the cache empty and
 * dequeues exactly n objects (size + n) from the driver. This is the only
 * place the driver touches a cache; mempool_mbufx_check_autotest
 * (test_cache_bypassed) checks the behaviour against the installed DPDK.
 */

#include <stdint.h>

#include <rte_lcore.h>
#include <rte_mempool.h>
#include <rte_telemetry.h>
#include <rte_version.h>

#if RTE_VERSION >= RTE_VERSION_NUM(23, 3, 0, 0)

static inline int
mbufx_mp_tel_dict_uint(struct rte_tel_data *d, const char *name, uint64_t v)
{
	return rte_tel_data_add_dict_uint(d, name, v);
}

#else

static inline int
mbufx_mp_tel_dict_uint(struct rte_tel_data *d, const char *name, uint64_t v)
{
	return rte_tel_data_add_dict_u64(d, name, v);
}

#endif

/*
 * Send every get and put of mp to the driver. Call before the pool's first
 * object exists (the caches are empty). mp->cache_size stays: the pool's
 * private area is found through it.
 */
static inline void
mbufx_mp_caches_bypass(struct rte_mempool *mp)
{
	unsigned int i;

	if (mp->cache_size == 0 || mp->local_cache == NULL)
		return;
	for (i = 0; i < RTE_MAX_LCORE; i++) {
		mp->local_cache[i].size = 0;
		mp->local_cache[i].flushthresh = 0;
	}
}

#endif /* MBUFX_MEMPOOL_COMPAT_H */
