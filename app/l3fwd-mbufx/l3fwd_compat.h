/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The mbufx authors
 */

/*
 * The DPDK API differences l3fwd meets between 22.11 and 25.11, in one place.
 *
 * IPv6 addresses. Up to 24.07, rte_ipv6_hdr's src_addr and dst_addr are
 * uint8_t[16] and rte_lpm6_add() / rte_lpm6_lookup() take a const uint8_t *.
 * From 24.11 both are struct rte_ipv6_addr, a struct of one uint8_t a[16]
 * (size 16, alignment 1). l3fwd keeps every address as 16 bytes in network
 * order and converts only at the edges:
 *   L3FWD_IP6_BYTES(field)  the bytes of a header field (const uint8_t *)
 *   l3fwd_lpm6_ip(bytes)    the address argument rte_lpm6 expects
 * Both are identities on 22.11, so the fast path compiles to the same code.
 */

#ifndef L3FWD_COMPAT_H
#define L3FWD_COMPAT_H

#include <stdint.h>

#include <rte_ip.h>
#include <rte_version.h>

#if RTE_VERSION >= RTE_VERSION_NUM(24, 11, 0, 0)

#define L3FWD_IP6_BYTES(field) ((field).a)

typedef struct rte_ipv6_addr l3fwd_lpm6_ip_t;

_Static_assert(sizeof(struct rte_ipv6_addr) == 16 &&
	       _Alignof(struct rte_ipv6_addr) == 1,
	       "struct rte_ipv6_addr is read in place of 16 bytes");

#else

#define L3FWD_IP6_BYTES(field) (field)

typedef uint8_t l3fwd_lpm6_ip_t;

#endif

/** The 16 bytes at @p a as the address argument of rte_lpm6_add/lookup. */
static inline const l3fwd_lpm6_ip_t *
l3fwd_lpm6_ip(const uint8_t *a)
{
	return (const l3fwd_lpm6_ip_t *)a;
}

#endif /* L3FWD_COMPAT_H */
