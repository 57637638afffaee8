/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The mbufx authors
 */

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <rte_errno.h>
#include <rte_lcore.h>
#include <rte_mbuf.h>

#include "app_lcore.h"
#include "app_pools.h"

/* Zone sets live per socket, or per port with --per-port-pool. */
#define APP_MAX_ZS (RTE_MAX_NUMA_NODES > RTE_MAX_ETHPORTS ? \
	RTE_MAX_NUMA_NODES : RTE_MAX_ETHPORTS)

/* Header zone default: room for chained headers of a few full Tx rings. */
#define APP_DEFAULT_HDR_MBUFS 4096
/* Jumbo reserve when no port receives jumbo frames (linearising, fallbacks). */
#define APP_JUMBO_RESERVE 512
/* Data room of the default jumbo zone: 9216-byte frames plus headroom. */
#define APP_JUMBO_ROOM (9216 + RTE_PKTMBUF_HEADROOM)

static struct {
	struct mbufx_zone_set *zs[APP_MAX_ZS];
	char name[APP_MAX_ZS][32];
	unsigned int nb_zs;
	uint8_t zs_of_port[RTE_MAX_ETHPORTS];
	struct rte_mempool *rx_pool[RTE_MAX_ETHPORTS];
	bool scatter[RTE_MAX_ETHPORTS];
	unsigned int nb_rx_pools;
} app_pools;

static int
port_socket(uint16_t port, bool no_numa)
{
	int s = rte_eth_dev_socket_id(port);

	if (no_numa || s < 0)
		return 0;
	return s;
}

static int
zs_create(unsigned int idx, int socket, const struct app_common_opts *o,
	  const struct app_pool_req *req, bool jumbo_rx)
{
	struct mbufx_zone_params p;
	uint32_t room;

	mbufx_zone_params_init(&p);
	if (strcmp(o->pool_ops, "mbufx") != 0)
		p.ops_name = o->pool_ops;
	p.count[MBUFX_ZONE_PKT] = o->nb_mbufs != 0 ? o->nb_mbufs :
		RTE_MAX(req->auto_mbufs, 8192u);
	if (o->nb_jumbo != 0)
		p.count[MBUFX_ZONE_JUMBO] = o->nb_jumbo;
	else
		p.count[MBUFX_ZONE_JUMBO] = jumbo_rx ?
			RTE_MAX(req->auto_mbufs, 1024u) : APP_JUMBO_RESERVE;
	p.count[MBUFX_ZONE_HDR] = o->nb_hdr != 0 ? o->nb_hdr : APP_DEFAULT_HDR_MBUFS;
	room = req->max_frame + RTE_PKTMBUF_HEADROOM;
	if (room > APP_JUMBO_ROOM && room <= UINT16_MAX)
		p.data_room[MBUFX_ZONE_JUMBO] = (uint16_t)RTE_ALIGN_CEIL(room, 64);

	snprintf(app_pools.name[idx], sizeof(app_pools.name[idx]), "%s%u",
		 req->per_port ? "app_p" : "app_s", req->per_port ? idx : (unsigned int)socket);
	app_pools.zs[idx] = mbufx_zone_set_create(app_pools.name[idx], socket, &p);
	if (app_pools.zs[idx] == NULL) {
		fprintf(stderr, "error: cannot create zone set %s on socket %d with %s "
			"(pkt %u, jumbo %u, hdr %u mbufs): %s\n", app_pools.name[idx], socket,
			o->pool_ops, p.count[MBUFX_ZONE_PKT], p.count[MBUFX_ZONE_JUMBO],
			p.count[MBUFX_ZONE_HDR], rte_strerror(rte_errno));
		return -rte_errno;
	}
	return 0;
}

uint32_t
app_pools_auto_mbufs(unsigned int nb_rxd_total, unsigned int nb_ports,
		     unsigned int nb_lcores, unsigned int nb_txd)
{
	return nb_rxd_total + nb_ports * nb_lcores * nb_txd +
		nb_lcores * (nb_ports + 1) * APP_TX_BURST + nb_lcores * 512 + 2048;
}

int
app_pools_create(const struct app_common_opts *o, const struct app_pool_req *req)
{
	int zs_of_socket[RTE_MAX_NUMA_NODES];
	struct rte_mempool *pkt;
	bool jumbo_rx;
	uint16_t port;
	unsigned int i;
	int rc;

	memset(&app_pools, 0, sizeof(app_pools));
	for (i = 0; i < RTE_MAX_NUMA_NODES; i++)
		zs_of_socket[i] = -1;
	jumbo_rx = !o->scatter &&
		req->max_frame + RTE_PKTMBUF_HEADROOM > RTE_MBUF_DEFAULT_BUF_SIZE;

	RTE_ETH_FOREACH_DEV(port) {
		int s;

		if ((req->portmask & (1ULL << port)) == 0)
			continue;
		s = port_socket(port, req->no_numa);
		if (!req->per_port && zs_of_socket[s] >= 0) {
			app_pools.zs_of_port[port] = (uint8_t)zs_of_socket[s];
			continue;
		}
		i = app_pools.nb_zs++;
		rc = zs_create(i, s, o, req, jumbo_rx);
		if (rc < 0)
			return rc;
		zs_of_socket[s] = (int)i;
		app_pools.zs_of_port[port] = (uint8_t)i;
	}
	if (app_pools.nb_zs == 0) {
		fprintf(stderr, "error: no enabled port exists\n");
		return -ENODEV;
	}

	RTE_ETH_FOREACH_DEV(port) {
		struct mbufx_zone_set *zs;

		if ((req->portmask & (1ULL << port)) == 0)
			continue;
		zs = app_pools.zs[app_pools.zs_of_port[port]];
		pkt = mbufx_zone_set_pool(zs, MBUFX_ZONE_PKT);
		if (jumbo_rx) {
			app_pools.rx_pool[port] = mbufx_zone_set_pool(zs, MBUFX_ZONE_JUMBO);
		} else {
			app_pools.rx_pool[port] = pkt;
			app_pools.scatter[port] = req->max_frame + RTE_PKTMBUF_HEADROOM >
				rte_pktmbuf_data_room_size(pkt);
		}
		if (app_pools.rx_pool[port] == NULL) {
			fprintf(stderr, "error: zone set %s has no zone for %u-byte frames\n",
				app_pools.name[app_pools.zs_of_port[port]], req->max_frame);
			return -ENOENT;
		}
	}
	/* one receive zone per zone set: the zone-set count is the pool count */
	app_pools.nb_rx_pools = app_pools.nb_zs;
	return 0;
}

struct mbufx_zone_set *
app_pools_of_port(uint16_t port)
{
	return app_pools.zs[app_pools.zs_of_port[port]];
}

struct rte_mempool *
app_pools_rx_pool(uint16_t port)
{
	return app_pools.rx_pool[port];
}

bool
app_pools_rx_scatter(uint16_t port)
{
	return app_pools.scatter[port];
}

unsigned int
app_pools_nb_rx_pools(void)
{
	return app_pools.nb_rx_pools;
}

int
app_pools_format_use(char *buf, size_t len)
{
	size_t off = 0;
	unsigned int i, z;

	buf[0] = '\0';
	for (i = 0; i < app_pools.nb_zs; i++) {
		if (app_pools.nb_zs > 1 && off < len)
			off += snprintf(buf + off, len - off, " %s:", app_pools.name[i]);
		for (z = 0; z < MBUFX_ZONE_NUM; z++) {
			struct rte_mempool *mp = mbufx_zone_set_pool(app_pools.zs[i], z);

			if (mp == NULL || off >= len)
				continue;
			off += snprintf(buf + off, len - off, " %s %u/%u", mbufx_zone_name(z),
					rte_mempool_in_use_count(mp), mp->size);
		}
	}
	return (int)RTE_MIN(off, len);
}

void
app_pools_dump(FILE *f)
{
	unsigned int i;

	for (i = 0; i < app_pools.nb_zs; i++)
		mbufx_zone_set_dump(f, app_pools.zs[i]);
}

void
app_pools_json(FILE *f)
{
	const struct mbufx_stat_field *fields;
	struct mbufx_zone_stats st;
	unsigned int i, z, nf;

	fields = mbufx_zone_stats_fields(&nf);
	fprintf(f, "[");
	for (i = 0; i < app_pools.nb_zs; i++) {
		fprintf(f, "%s{\"name\": \"%s\"", i ? ", " : "", app_pools.name[i]);
		for (z = 0; z < MBUFX_ZONE_NUM; z++) {
			struct rte_mempool *mp = mbufx_zone_set_pool(app_pools.zs[i], z);

			if (mp == NULL)
				continue;
			fprintf(f, ", \"%s\": {\"ops\": \"%s\", \"size\": %u, "
				"\"room\": %u, \"in_use\": %u}", mbufx_zone_name(z),
				rte_mempool_get_ops(mp->ops_index)->name, mp->size,
				rte_pktmbuf_data_room_size(mp), rte_mempool_in_use_count(mp));
		}
		if (mbufx_zone_set_stats(app_pools.zs[i], &st) == 0) {
			fprintf(f, ", \"lib\": {");
			mbufx_stats_json(f, &st, fields, nf);
			fprintf(f, "}");
		}
		fprintf(f, "}");
	}
	fprintf(f, "]");
}

int
app_pools_audit(FILE *f)
{
	unsigned int i;
	int rc = 0;

	for (i = 0; i < app_pools.nb_zs; i++)
		if (mbufx_zone_set_audit(app_pools.zs[i], f) != 0)
			rc = -EBUSY;
	return rc;
}

void
app_pools_free(void)
{
	unsigned int i;

	for (i = 0; i < app_pools.nb_zs; i++)
		mbufx_zone_set_free(app_pools.zs[i]);
	memset(&app_pools, 0, sizeof(app_pools));
}
