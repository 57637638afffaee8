/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The mbufx authors
 */

#include <errno.h>
#include <signal.h>
#include <string.h>

#include <rte_cycles.h>
#include <rte_eal.h>
#include <rte_errno.h>

#include "app_ctl.h"
#include "app_lcore.h"
#include "app_pools.h"
#include "app_port.h"
#include "app_run.h"
#include "app_stats.h"

struct app_lcore app_lcores[RTE_MAX_LCORE];
uint32_t app_quit;
uint16_t app_burst = 32;

static volatile sig_atomic_t app_signal;

static struct {
	const struct app_common_opts *o;
	const struct app_hooks *h;
	uint64_t start, end;
	uint64_t next_check, next_stats, last_change, last_rx;
	struct app_totals prev;
	uint64_t prev_tsc;
} run;

static void
on_signal(int sig)
{
	app_signal = sig;
	__atomic_store_n(&app_quit, 1, __ATOMIC_RELAXED);
}

int
app_eal_init(int *argc, char ***argv, struct app_common_opts *o)
{
	int rc = rte_eal_init(*argc, *argv);

	if (rc < 0) {
		fprintf(stderr, "error: EAL initialisation failed: %s\n", rte_strerror(rte_errno));
		return -1;
	}
	*argc -= rc;
	*argv += rc;
	app_opts_init(o);
	return 0;
}

void
app_run_init(const struct app_common_opts *o, const struct app_hooks *h)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
	run.o = o;
	run.h = h;
	app_burst = o->burst;
}

void
app_main_tick(void)
{
	const uint64_t hz = rte_get_tsc_hz();
	uint64_t now = rte_rdtsc();
	struct app_totals cur;
	uint64_t rx;

	if (now < run.next_check)
		return;
	run.next_check = now + hz / 1000;
	if (app_ctl_ticking())
		app_ctl_tick((now - run.start) * 1000 / hz, app_stats_rx_total());
	if (run.o->run_time != 0 && now - run.start >= run.o->run_time * hz)
		__atomic_store_n(&app_quit, 1, __ATOMIC_RELAXED);
	if (run.o->idle_exit_ms != 0) {
		rx = app_stats_rx_total();
		if (rx != run.last_rx) {
			run.last_rx = rx;
			run.last_change = now;
		} else if (now - run.last_change >= run.o->idle_exit_ms * hz / 1000) {
			__atomic_store_n(&app_quit, 1, __ATOMIC_RELAXED);
		}
	}
	if (run.o->stats_period != 0 && now >= run.next_stats) {
		app_stats_sum(&cur);
		app_stats_print_line(stdout, (double)(now - run.start) / hz,
				     (double)(now - run.prev_tsc) / hz, &cur, &run.prev);
		run.prev = cur;
		run.prev_tsc = now;
		run.next_stats += run.o->stats_period * hz;
	}
}

int
app_lcore_idle(void)
{
	if (rte_lcore_id() != rte_get_main_lcore())
		return 0;
	while (!app_quitting()) {
		app_main_tick();
		rte_delay_us_sleep(1000);
	}
	return 0;
}

int
app_run(lcore_function_t *fn)
{
	const uint64_t hz = rte_get_tsc_hz();
	unsigned int lcore, nb = 0;
	int rc;

	rc = app_ports_start(run.o->link_wait);
	if (rc != 0)
		return rc;
	RTE_LCORE_FOREACH(lcore)
		nb += app_lcores[lcore].n_rxq != 0;
	printf("%s: forwarding on %u lcore(s); SIGINT or SIGTERM stops\n", run.h->name, nb);
	fflush(stdout);

	run.start = rte_rdtsc();
	run.prev_tsc = run.start;
	run.last_change = run.start;
	run.next_stats = run.start + run.o->stats_period * hz;
	rc = app_ctl_init();
	if (rc != 0)
		return rc;
	for (;;) {
		rte_eal_mp_remote_launch(fn, NULL, CALL_MAIN);
		rte_eal_mp_wait_lcore();
		/* SIGUSR1: restart the ports, then forward again */
		if (!app_ctl_restart_pending() || app_signal != 0 ||
		    (run.o->run_time != 0 &&
		     rte_rdtsc() - run.start >= run.o->run_time * hz))
			break;
		rc = app_ports_restart();
		if (rc != 0)
			break;
		app_ctl_restarted();
		printf("%s: ports restarted\n", run.h->name);
		fflush(stdout);
		__atomic_store_n(&app_quit, 0, __ATOMIC_RELAXED);
	}
	run.end = rte_rdtsc();
	if (app_signal != 0)
		printf("\n%s: signal %d received, stopping\n", run.h->name, (int)app_signal);
	return 0;
}

static void
write_json(const char *path, const struct app_totals *t, double secs, bool leak)
{
	FILE *f = fopen(path, "w");

	if (f == NULL) {
		fprintf(stderr, "%s: cannot write %s: %s\n", run.h->name, path, strerror(errno));
		return;
	}
	fprintf(f, "{\"app\": \"%s\", \"pool_ops\": \"%s\", ", run.h->name, run.o->pool_ops);
	app_stats_json(f, t, secs);
	fprintf(f, ", \"zones\": ");
	app_pools_json(f);
	fprintf(f, ", \"leak\": %s", leak ? "true" : "false");
	app_ctl_json(f);
	if (run.h->json != NULL)
		run.h->json(f);
	fprintf(f, "}\n");
	fclose(f);
}

static uint16_t
first_port(void)
{
	uint16_t port;

	for (port = 0; port < RTE_MAX_ETHPORTS; port++)
		if (app_port_state[port].enabled)
			return port;
	return 0;
}

int
app_run_finish(void)
{
	struct rte_mbuf *kept[1024];
	bool held = false;
	struct app_totals t;
	uint64_t drained;
	double secs;
	int code = APP_EXIT_OK;
	bool leak;

	if (run.end == 0)
		run.end = rte_rdtsc();
	secs = run.start != 0 ? (double)(run.end - run.start) / rte_get_tsc_hz() : 0;
	app_stats_sum(&t);
	if (run.h->stopped != NULL)
		run.h->stopped();
	app_ctl_stopped();
	drained = app_ports_close();

	app_stats_print_summary(stdout, &t, secs);
	if (drained != 0)
		printf("drained at exit: %" PRIu64 " packets left in Rx queues\n", drained);
	if (run.h->summary != NULL)
		run.h->summary(stdout);
	app_ctl_summary(stdout);
	app_pools_dump(stdout);
	fflush(stdout);

	if (run.o->debug_leak != 0)
		held = rte_pktmbuf_alloc_bulk(mbufx_zone_set_pool(app_pools_of_port(first_port()),
						MBUFX_ZONE_PKT), kept, run.o->debug_leak) == 0;
	leak = app_pools_audit(stderr) != 0;
	if (held)
		rte_pktmbuf_free_bulk(kept, run.o->debug_leak);
	if (leak) {
		fprintf(stderr, "%s: LEAK: mbufs still out at exit (zones above)\n", run.h->name);
		code = APP_EXIT_LEAK;
	} else {
		printf("every zone is full again\n");
	}
	if (run.o->summary != NULL)
		write_json(run.o->summary, &t, secs, leak);
	if (run.h->cleanup != NULL)
		run.h->cleanup();
	app_ctl_free();
	app_pools_free();
	rte_eal_cleanup();
	return code;
}

int
app_run_main(const struct app_common_opts *o, const struct app_hooks *h, lcore_function_t *fn)
{
	int rc, code;

	app_run_init(o, h);
	rc = app_run(fn);
	code = app_run_finish();
	return rc != 0 && code == APP_EXIT_OK ? APP_EXIT_SETUP : code;
}

int
app_setup_abort(const struct app_hooks *h)
{
	if (h->stopped != NULL)
		h->stopped();
	app_ports_close();
	if (h->cleanup != NULL)
		h->cleanup();
	app_pools_free();
	rte_eal_cleanup();
	return APP_EXIT_SETUP;
}
