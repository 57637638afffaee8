/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The mbufx authors
 */

/*
 * mbufx-l2fwd: l2fwd on mbufx zones, with VLAN push/pop on egress and port
 * mirroring.
 *
 *   rx SRC --+--------------------------------------------> tx dst[SRC]
 *            |  (MAC update; --vlan-pop / --vlan-push of dst[SRC])
 *            |
 *            +-- --mirror SRC:DST[:VID] -- fan-out copy --> tx DST (+ VID tag)
 *
 * A mirrored frame goes through mbufx_fanout(): both copies get a private
 * Ethernet header over one shared payload, so the forwarded copy can have its
 * MACs rewritten while the mirror copy keeps the frame as received. Tags are
 * inserted with mbufx_prepend(): in the headroom when the buffer is private,
 * in a chained header mbuf when it is shared (a mirrored payload).
 *
 * The per-burst work is in l2fwd_fwd.c behind l2fwd_core.h, callable without
 * ports; main.c wraps it in the polling loop.
 */

#ifndef L2FWD_H
#define L2FWD_H

#include <stdbool.h>
#include <stdint.h>

#include "app_lcore.h"
#include "app_opts.h"

enum l2fwd_drop {
	L2FWD_DROP_VLAN = APP_DROP_COMMON_MAX,	/**< no header mbuf for a tag */
	L2FWD_DROP_RUNT,			/**< shorter than an Ethernet header */
	L2FWD_DROP_SHARED,	/**< no mbuf to make a shared frame's MACs private */
	L2FWD_DROP_MAX,
};

struct l2fwd_port_conf {
	uint16_t dst;			/**< output port of frames received here */
	bool push;			/**< --vlan-push: tag frames sent here */
	bool pop;			/**< --vlan-pop: untag frames sent here */
	uint16_t push_tci;
	bool mirror;			/**< --mirror: copy frames received here */
	uint16_t mirror_port;
	uint16_t mirror_tci;		/**< 0 = mirror copies untagged */
};

struct l2fwd_conf {
	uint64_t portmask;
	unsigned int rx_per_lcore;	/**< -q */
	bool promisc;
	bool mac_updating;
	bool portmap_given;
	struct l2fwd_port_conf port[RTE_MAX_ETHPORTS];
	struct app_common_opts common;
};

extern struct l2fwd_conf l2fwd;

/** Counters of a forwarding context (l2fwd_core.h). */
struct l2fwd_counters {
	uint64_t mirrored;		/**< mirror copies sent */
	uint64_t mirror_fail;		/**< frames not mirrored (no mbufs) */
	uint64_t pushed;		/**< tags inserted */
	uint64_t popped;		/**< tags removed */
};

int l2fwd_lcore_main(void *arg);

#endif /* L2FWD_H */
