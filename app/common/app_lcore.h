/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The mbufx authors
 */

/*
 * The forwarding lcore: per-lcore state, Tx buffering and the polling loop
 * shared by every app.
 *
 * Each forwarding lcore polls its list of (port, queue) pairs and owns one Tx
 * queue (the same index, lc->txq) on every port, so no Tx queue is ever shared
 * between lcores. Packets are buffered per output port and sent when a burst
 * is full or every APP_DRAIN_US microseconds. The app's per-burst function is
 * passed to app_lcore_run() and inlined there.
 *
 * Counters are per lcore (no sharing on the fast path) and summed by the main
 * lcore: per port rx/tx packets and bytes and drops, drops by reason, and the
 * busy cycles (TSC) of loop iterations that did work, so cycles per packet stay
 * meaningful when the traffic source is slower than the forwarder.
 *
 * A port that does not offer Tx MULTI_SEGS never gets a chain: it is copied
 * into one segment first (counted as "linearised").
 */

#ifndef APP_LCORE_H
#define APP_LCORE_H

#include <stdbool.h>
#include <stdint.h>

#include <rte_branch_prediction.h>
#include <rte_cycles.h>
#include <rte_ethdev.h>
#include <rte_lcore.h>
#include <rte_mbuf.h>

#include "app_gen.h"
#include "app_port.h"

#define APP_MAX_BURST 64
#define APP_TX_BURST 32
#define APP_MAX_RXQ_PER_LCORE 16
#define APP_DRAIN_US 100
#define APP_MAX_DROP_REASONS 32

/** Drop reasons counted by the common code; apps number theirs after these. */
enum app_drop_reason {
	APP_DROP_TX_FULL = 0,	/**< the Tx queue did not take the packet */
	APP_DROP_LINEARISE,	/**< no mbuf to copy a chain for a single-segment port */
	APP_DROP_COMMON_MAX,
};

struct app_port_ctr {
	uint64_t rx_pkts;
	uint64_t rx_bytes;
	uint64_t tx_pkts;
	uint64_t tx_bytes;
	uint64_t drop;
};

struct app_txbuf {
	uint16_t n;
	uint32_t bytes;
	struct rte_mbuf *m[APP_TX_BURST];
};

struct app_lcore {
	uint16_t n_rxq;
	uint16_t txq;		/**< this lcore's Tx queue on every port */
	struct {
		uint16_t port;
		uint16_t queue;
	} rxq[APP_MAX_RXQ_PER_LCORE];
	uint64_t tx_pending;	/**< bit per port with packets in its Tx buffer */
	uint64_t busy_cycles;
	uint64_t linearised;
	uint64_t rx_multiseg;	/**< packets received as chains */
	uint64_t drop[APP_MAX_DROP_REASONS];
	struct app_port_ctr ctr[RTE_MAX_ETHPORTS];
	struct app_txbuf tx[RTE_MAX_ETHPORTS];
	void *priv;		/**< the app's per-lcore data */
} __rte_cache_aligned;

extern struct app_lcore app_lcores[RTE_MAX_LCORE];
extern uint32_t app_quit;
extern uint16_t app_burst;

/** Main-lcore housekeeping: stats lines, --run-time, --idle-exit (cheap). */
void app_main_tick(void);

/** For an lcore without Rx queues: the main lcore ticks, others return. */
int app_lcore_idle(void);

/** Copy a chain into one segment for a port without MULTI_SEGS; NULL = dropped. */
struct rte_mbuf *app_linearise(struct app_lcore *lc, struct rte_mbuf *m);

static inline bool
app_quitting(void)
{
	return __atomic_load_n(&app_quit, __ATOMIC_RELAXED) != 0;
}

static inline void
app_drop(struct app_lcore *lc, uint16_t port, unsigned int reason, struct rte_mbuf *m)
{
	lc->drop[reason]++;
	lc->ctr[port].drop++;
	rte_pktmbuf_free(m);
}

/* Send @p n packets (@p bytes in all) from @p m; what the port does not
 * take is freed and counted. */
static inline void
app_tx_send(struct app_lcore *lc, uint16_t port, struct rte_mbuf **m, uint16_t n,
	    uint32_t bytes)
{
	uint32_t unsent_bytes = 0;
	uint16_t sent, i;

	sent = rte_eth_tx_burst(port, lc->txq, m, n);
	if (unlikely(sent < n)) {
		for (i = sent; i < n; i++)
			unsent_bytes += m[i]->pkt_len;
		lc->drop[APP_DROP_TX_FULL] += n - sent;
		lc->ctr[port].drop += n - sent;
		rte_pktmbuf_free_bulk(&m[sent], n - sent);
	}
	lc->ctr[port].tx_pkts += sent;
	lc->ctr[port].tx_bytes += bytes - unsent_bytes;
}

/** Send what is buffered for @p port; unsent packets are freed and counted. */
static inline bool
app_tx_flush(struct app_lcore *lc, uint16_t port)
{
	struct app_txbuf *b = &lc->tx[port];

	if (b->n == 0)
		return false;
	app_tx_send(lc, port, b->m, b->n, b->bytes);
	b->n = 0;
	b->bytes = 0;
	lc->tx_pending &= ~(UINT64_C(1) << port);
	return true;
}

/** Queue @p m for transmission on @p port. */
static inline void
app_tx(struct app_lcore *lc, uint16_t port, struct rte_mbuf *m)
{
	struct app_txbuf *b = &lc->tx[port];

	if (unlikely(m->nb_segs > 1 && !app_port_state[port].tx_multiseg)) {
		m = app_linearise(lc, m);
		if (m == NULL)
			return;
	}
	b->m[b->n++] = m;
	b->bytes += m->pkt_len;
	lc->tx_pending |= UINT64_C(1) << port;
	if (b->n == APP_TX_BURST)
		app_tx_flush(lc, port);
}

/*
 * Send @p n packets (@p bytes in all, @p segs the OR of their nb_segs) of a
 * full burst straight from the caller's array (its Tx buffer is empty): no
 * copy into the buffer. Unsent packets are freed and counted, as in
 * app_tx_flush(). @return false, having sent nothing, when a chain is among
 * them and the port takes none.
 */
static inline bool
app_tx_direct(struct app_lcore *lc, uint16_t port, struct rte_mbuf **m, uint16_t n,
	      uint32_t bytes, uint16_t segs)
{
	if (unlikely(segs > 1) && !app_port_state[port].tx_multiseg)
		return false;
	app_tx_send(lc, port, m, n, bytes);
	return true;
}

/* app_tx_direct() of the first APP_TX_BURST packets of @p m, summed here. */
static inline bool
app_tx_direct_burst(struct app_lcore *lc, uint16_t port, struct rte_mbuf **m)
{
	uint32_t bytes = 0;
	uint16_t i, segs = 0;

	for (i = 0; i < APP_TX_BURST; i++) {
		bytes += m[i]->pkt_len;
		segs |= m[i]->nb_segs;
	}
	return app_tx_direct(lc, port, m, APP_TX_BURST, bytes, segs);
}

/**
 * Queue @p n packets for transmission on @p port, in order. Full bursts go
 * to the port without a copy when nothing is waiting in its buffer (and,
 * for a port without MULTI_SEGS, none is a chain); the rest is buffered.
 */
static inline void
app_tx_bulk(struct app_lcore *lc, uint16_t port, struct rte_mbuf **m, uint16_t n)
{
	struct app_txbuf *b = &lc->tx[port];
	uint16_t i, k;

	while (b->n == 0 && n >= APP_TX_BURST && app_tx_direct_burst(lc, port, m)) {
		m += APP_TX_BURST;
		n -= APP_TX_BURST;
	}
	if (unlikely(!app_port_state[port].tx_multiseg)) {
		for (i = 0; i < n; i++)
			app_tx(lc, port, m[i]);
		return;
	}
	while (n != 0) {
		k = RTE_MIN(n, (uint16_t)(APP_TX_BURST - b->n));
		for (i = 0; i < k; i++) {
			b->m[b->n + i] = m[i];
			b->bytes += m[i]->pkt_len;
		}
		b->n += k;
		lc->tx_pending |= UINT64_C(1) << port;
		if (b->n == APP_TX_BURST)
			app_tx_flush(lc, port);
		m += k;
		n -= k;
	}
}

/**
 * app_tx_bulk() for a caller that knows the @p bytes of the @p n packets
 * and the OR of their nb_segs (@p segs): a full burst (APP_TX_BURST) with
 * nothing waiting in the port's buffer goes out without another look at
 * the packets, if none is a chain or the port takes chains.
 */
static inline void
app_tx_bulk_bytes(struct app_lcore *lc, uint16_t port, struct rte_mbuf **m, uint16_t n,
		  uint32_t bytes, uint16_t segs)
{
	if (likely(n == APP_TX_BURST && lc->tx[port].n == 0) &&
	    app_tx_direct(lc, port, m, n, bytes, segs))
		return;
	app_tx_bulk(lc, port, m, n);
}

/** Send what is buffered for every port; @return whether anything was. */
static inline bool
app_tx_flush_all(struct app_lcore *lc)
{
	uint64_t pending = lc->tx_pending;

	RTE_BUILD_BUG_ON(RTE_MAX_ETHPORTS > 64);
	if (pending == 0)
		return false;
	do {
		app_tx_flush(lc, (uint16_t)rte_bsf64(pending));
		pending &= pending - 1;
	} while (pending != 0);
	return true;
}

/** Per-burst work of an app: consume (forward or drop) every packet. */
typedef void (*app_burst_fn_t)(struct app_lcore *lc, uint16_t port,
			       struct rte_mbuf **pkts, uint16_t n);

/** app_lcore_run() flag: the main lcore also polls the benchmark generator. */
#define APP_LOOP_GEN 1u
/**
 * app_lcore_run() flag: the burst function counts each burst's received
 * bytes (lc->ctr[port].rx_bytes) and chains (lc->rx_multiseg) itself, from
 * a pass over the packets it makes anyway; the loop counts packets only.
 */
#define APP_LOOP_RX_COUNTED 2u

/**
 * The polling loop of the calling lcore (app_lcore_idle() if it has no Rx
 * queue); returns when app_quit is set, after flushing its Tx buffers.
 * Always inline so that @p fn is inlined too, and so that a constant
 * @p flags leaves the generator (APP_LOOP_GEN, app_gen.h) out of the loop
 * of every run that does not use it.
 */
static __rte_always_inline int
app_lcore_run(app_burst_fn_t fn, unsigned int flags)
{
	struct app_lcore *lc = &app_lcores[rte_lcore_id()];
	const uint64_t drain_tsc = (rte_get_tsc_hz() + US_PER_S - 1) / US_PER_S * APP_DRAIN_US;
	const bool is_main = rte_lcore_id() == rte_get_main_lcore();
	const uint16_t burst = app_burst;
	struct rte_mbuf *pkts[APP_MAX_BURST];
	uint64_t prev_drain = rte_rdtsc();
	uint16_t i, j, n;

	if (lc->n_rxq == 0)
		return app_lcore_idle();
	while (!app_quitting()) {
		uint64_t t0 = rte_rdtsc();
		bool work = false;

		if ((flags & APP_LOOP_GEN) && is_main && likely(app_gen_active)) {
			app_gen_poll();
			work = true;
		}
		if (unlikely(t0 - prev_drain > drain_tsc)) {
			work = app_tx_flush_all(lc);
			prev_drain = t0;
			if (is_main)
				app_main_tick();
		}
		for (i = 0; i < lc->n_rxq; i++) {
			uint16_t port = lc->rxq[i].port;
			uint32_t bytes = 0;
			uint16_t segs = 0;

			n = rte_eth_rx_burst(port, lc->rxq[i].queue, pkts, burst);
			if (n == 0)
				continue;
			lc->ctr[port].rx_pkts += n;
			if (!(flags & APP_LOOP_RX_COUNTED)) {
				for (j = 0; j < n; j++) {
					bytes += pkts[j]->pkt_len;
					segs |= pkts[j]->nb_segs;
				}
				if (unlikely(segs > 1))		/* a chain among them */
					for (j = 0; j < n; j++)
						lc->rx_multiseg += pkts[j]->nb_segs > 1;
				lc->ctr[port].rx_bytes += bytes;
			}
			fn(lc, port, pkts, n);
			work = true;
		}
		if (work)
			lc->busy_cycles += rte_rdtsc() - t0;
	}
	app_tx_flush_all(lc);
	return 0;
}

#endif /* APP_LCORE_H */
