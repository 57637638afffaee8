/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The mbufx authors
 */

/*
 * Exact-match tables: rte_hash on the 5-tuple (destination, source, L4
 * destination port, L4 source port, protocol), one IPv4 and one IPv6 table
 * per socket that has a forwarding lcore. The hash position indexes an array
 * of next hops.
 */

#include <stdio.h>
#include <string.h>

#include <rte_errno.h>
#include <rte_hash_crc.h>
#include <rte_malloc.h>

#include "lookup.h"

static struct rte_hash *
em_create(const char *kind, int socket, uint32_t entries, uint32_t key_len, uint32_t **nh)
{
	struct rte_hash_parameters p = {
		.entries = entries,
		.key_len = key_len,
		.hash_func = rte_hash_crc,
		.socket_id = socket,
	};
	char name[32];

	snprintf(name, sizeof(name), "l3fwd_%s_%d", kind, socket);
	p.name = name;
	*nh = rte_zmalloc_socket(name, sizeof(**nh) * entries, 0, socket);
	if (*nh == NULL)
		return NULL;
	return rte_hash_create(&p);
}

int
l3fwd_em_build(int socket)
{
	struct l3fwd_tables *t = &l3fwd_tables[socket];
	const uint32_t entries = RTE_MAX(1024u, rte_align32pow2(l3fwd.nb_rules * 2));
	uint32_t i;
	int pos;

	t->def4 = L3FWD_NO_ROUTE;
	t->def6 = L3FWD_NO_ROUTE;
	t->em4 = em_create("em4", socket, entries, sizeof(struct l3fwd_em_key4), &t->em4_nh);
	t->em6 = em_create("em6", socket, entries, sizeof(struct l3fwd_em_key6), &t->em6_nh);
	if (t->em4 == NULL || t->em6 == NULL) {
		fprintf(stderr, "error: cannot create the EM tables on socket %d: %s\n",
			socket, rte_strerror(rte_errno));
		return -ENOMEM;
	}
	for (i = 0; i < l3fwd.nb_rules; i++) {
		const struct l3fwd_rule *r = &l3fwd.rules[i];

		if (r->v6) {
			struct l3fwd_em_key6 k;

			memset(&k, 0, sizeof(k));
			memcpy(k.dst, r->ip_dst, 16);
			memcpy(k.src, r->ip_src, 16);
			k.dport = rte_cpu_to_be_16(r->port_dst);
			k.sport = rte_cpu_to_be_16(r->port_src);
			k.proto = r->proto;
			pos = rte_hash_add_key(t->em6, &k);
			if (pos >= 0)
				t->em6_nh[pos] = r->nh;
		} else {
			struct l3fwd_em_key4 k;

			memset(&k, 0, sizeof(k));
			memcpy(&k.dst, r->ip_dst, 4);
			memcpy(&k.src, r->ip_src, 4);
			k.dport = rte_cpu_to_be_16(r->port_dst);
			k.sport = rte_cpu_to_be_16(r->port_src);
			k.proto = r->proto;
			pos = rte_hash_add_key(t->em4, &k);
			if (pos >= 0)
				t->em4_nh[pos] = r->nh;
		}
		if (pos < 0) {
			fprintf(stderr, "error: cannot add rule %s to the EM table: %s\n",
				l3fwd.nh[r->nh].text, strerror(-pos));
			return pos;
		}
	}
	return 0;
}
