/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The mbufx authors
 */

#ifndef MBUFX_COMPAT_H
#define MBUFX_COMPAT_H

/*
 * The DPDK API differences libmbufx meets between 22.11 and 25.11, in one
 * place. Private to the library: not installed.
 *
 * Telemetry: unsigned values go in with rte_tel_data_add_dict_uint() and
 * rte_tel_data_add_array_uint() into RTE_TEL_UINT_VAL arrays from 23.03 on;
 * 22.11 has only the _u64 forms and RTE_TEL_U64_VAL, which 24.11 deprecates
 * and 25.11 removes. The JSON they produce is the same.
 */

#include <stdint.h>

#include <rte_telemetry.h>
#include <rte_version.h>

#if RTE_VERSION >= RTE_VERSION_NUM(23, 3, 0, 0)

#define MBUFX_TEL_UINT_VAL RTE_TEL_UINT_VAL

static inline int
mbufx_tel_dict_uint(struct rte_tel_data *d, const char *name, uint64_t v)
{
	return rte_tel_data_add_dict_uint(d, name, v);
}

static inline int
mbufx_tel_array_uint(struct rte_tel_data *d, uint64_t v)
{
	return rte_tel_data_add_array_uint(d, v);
}

#else

#define MBUFX_TEL_UINT_VAL RTE_TEL_U64_VAL

static inline int
mbufx_tel_dict_uint(struct rte_tel_data *d, const char *name, uint64_t v)
{
	return rte_tel_data_add_dict_u64(d, name, v);
}

static inline int
mbufx_tel_array_uint(struct rte_tel_data *d, uint64_t v)
{
	return rte_tel_data_add_array_u64(d, v);
}

#endif

#endif /* MBUFX_COMPAT_H */
