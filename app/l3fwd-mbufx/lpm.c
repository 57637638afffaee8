/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The mbufx authors
 */

/*
 * Longest-prefix-match tables, one pair (IPv4, IPv6) per socket that has a
 * forwarding lcore. rte_lpm takes prefix lengths 1..32 (rte_lpm6 1..128), so
 * a /0 rule becomes the table's default next hop instead.
 */

#include <stdio.h>
#include <string.h>

#include <rte_errno.h>
#include <rte_malloc.h>

#include "lookup.h"

struct l3fwd_tables l3fwd_tables[RTE_MAX_NUMA_NODES];

int
l3fwd_lpm_build(int socket)
{
	struct l3fwd_tables *t = &l3fwd_tables[socket];
	struct rte_lpm_config c4 = { .max_rules = 1024, .number_tbl8s = 256 };
	struct rte_lpm6_config c6 = { .max_rules = 1024, .number_tbl8s = 1024 };
	char name[32];
	uint32_t i, n6 = 0;
	int rc;

	t->def4 = L3FWD_NO_ROUTE;
	t->def6 = L3FWD_NO_ROUTE;
	for (i = 0; i < l3fwd.nb_rules; i++)
		n6 += l3fwd.rules[i].v6;
	c4.max_rules = RTE_MAX(c4.max_rules, l3fwd.nb_rules);
	c6.max_rules = RTE_MAX(c6.max_rules, n6);
	c6.number_tbl8s = RTE_MAX(c6.number_tbl8s, n6 * 14);

	snprintf(name, sizeof(name), "l3fwd_lpm4_%d", socket);
	t->lpm4 = rte_lpm_create(name, socket, &c4);
	snprintf(name, sizeof(name), "l3fwd_lpm6_%d", socket);
	t->lpm6 = rte_lpm6_create(name, socket, &c6);
	if (t->lpm4 == NULL || t->lpm6 == NULL) {
		fprintf(stderr, "error: cannot create the LPM tables on socket %d: %s\n",
			socket, rte_strerror(rte_errno));
		return -ENOMEM;
	}
	for (i = 0; i < l3fwd.nb_rules; i++) {
		const struct l3fwd_rule *r = &l3fwd.rules[i];

		if (r->depth == 0) {
			if (r->v6)
				t->def6 = r->nh;
			else
				t->def4 = r->nh;
			continue;
		}
		if (r->v6) {
			rc = rte_lpm6_add(t->lpm6, l3fwd_lpm6_ip(r->ip_dst), r->depth, r->nh);
		} else {
			rte_be32_t a;

			memcpy(&a, r->ip_dst, sizeof(a));
			/* next_hop has 24 bits */
			RTE_BUILD_BUG_ON(L3FWD_MAX_ROUTES * L3FWD_LPM4_NH_SCALE >
					 RTE_LPM_TBL24_NUM_ENTRIES);
			rc = rte_lpm_add(t->lpm4, rte_be_to_cpu_32(a), r->depth,
					 r->nh * L3FWD_LPM4_NH_SCALE);
		}
		if (rc < 0) {
			fprintf(stderr, "error: cannot add rule %s to the LPM table: %s\n",
				l3fwd.nh[r->nh].text, strerror(-rc));
			return rc;
		}
	}
	return 0;
}

void
l3fwd_tables_free(void)
{
	unsigned int s;

	for (s = 0; s < RTE_MAX_NUMA_NODES; s++) {
		struct l3fwd_tables *t = &l3fwd_tables[s];

		rte_lpm_free(t->lpm4);
		rte_lpm6_free(t->lpm6);
		rte_hash_free(t->em4);
		rte_hash_free(t->em6);
		rte_free(t->em4_nh);
		rte_free(t->em6_nh);
		memset(t, 0, sizeof(*t));
	}
}
