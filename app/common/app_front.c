/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The mbufx authors
 */

#include "app_front.h"

void *
app_front_chain(struct mbufx_zone_set *zs, struct rte_mbuf **mp, uint16_t len)
{
	struct rte_mbuf *m = *mp, *h;

	h = rte_pktmbuf_alloc(mbufx_zone_set_pool(zs, MBUFX_ZONE_HDR));
	if (h == NULL)
		return NULL;
	mbufx_copy_metadata(h, m);
	h->next = m;
	h->nb_segs = m->nb_segs + 1;
	h->data_len = len;
	h->pkt_len = m->pkt_len + len;
	*mp = h;
	return rte_pktmbuf_mtod(h, void *);
}
