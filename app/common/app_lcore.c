/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The mbufx authors
 */

#include <rte_memcpy.h>

#include "app_lcore.h"
#include "app_pools.h"

struct rte_mbuf *
app_linearise(struct app_lcore *lc, struct rte_mbuf *m)
{
	const struct rte_mbuf *seg;
	struct rte_mbuf *n;
	char *dst;

	n = mbufx_alloc(app_pools_of_port(m->port), m->pkt_len);
	if (n == NULL || n->nb_segs != 1) {
		rte_pktmbuf_free(n);
		app_drop(lc, m->port, APP_DROP_LINEARISE, m);
		return NULL;
	}
	dst = rte_pktmbuf_append(n, (uint16_t)m->pkt_len);
	for (seg = m; seg != NULL; seg = seg->next) {
		rte_memcpy(dst, rte_pktmbuf_mtod(seg, const char *), seg->data_len);
		dst += seg->data_len;
	}
	n->port = m->port;
	n->packet_type = m->packet_type;
	rte_pktmbuf_free(m);
	lc->linearised++;
	return n;
}
