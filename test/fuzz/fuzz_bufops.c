/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The mbufx authors
 */

/*
 * fuzz_bufops: libmbufx's buffer operations driven by the fuzz input.
 *
 * The engine of the differential test (test_mbufx_diff.h) runs with its
 * random generator replaced by the input. The first byte picks the zone
 * set (one of the engine's kinds: mbufx ops without and with per-lcore
 * caches, without a header zone, ring_mp_mc ops) and whether the steps run
 * on the EAL lcore or on a thread that is not one; then two bytes per
 * choice: which operation (alloc over the three zones, external and
 * pinned-external buffers, new readers by rte_pktmbuf_clone(),
 * rte_pktmbuf_attach() and rte_pktmbuf_refcnt_update(), prepend,
 * prepend_contig, vlan_insert, pullup, unshare_hdr, writes, adj, trim,
 * append, chain, fan-out, free, starving a zone and giving it back), on
 * which packet, with which sizes and bytes. After every step the packet it
 * worked on and the newest packet must equal their models (bytes, the
 * data_off and data_len of every segment, metadata, rte_mbuf_check()),
 * every live packet on each FULL_EVERY-th step and at the end of the
 * input; a failed call must leave everything as it was; then every packet
 * is freed and every zone, the pinned pool and every external buffer must
 * be back.
 *
 * Why not every packet after every step, as mbufx_diff_autotest does:
 * with up to 24 live packets of up to 9 KB, comparing them all under ASan
 * was most of the harness's time (about 1 300 inputs/s); a byte that goes
 * wrong stays wrong, so the sparser check still sees it, a few steps on.
 */

#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#include <rte_errno.h>

#include "fuzz_common.h"
#include "mbufx_test.h"
#include "test_mbufx_diff.h"
#include "test_mbufx_util.h"

#define MAX_STEPS 4096
#define FULL_EVERY 8
#define MAX_KINDS 8

static struct mbufx_zone_set *zs[MAX_KINDS];
static struct diff *engine[MAX_KINDS];
static unsigned int nkinds;
static struct fuzz_in input;

/* The steps of one input, on the caller's thread or another. */
struct steps {
	struct diff *d;
	unsigned int n;
	int ret;
};

/*
 * The autotest runner's hooks, for test_mbufx_diff.c: its autotests are
 * not run here, and the "seed" of a failure is the saved input.
 */
void
mbufx_test_register(struct mbufx_test_cmd *cmd __rte_unused)
{
}

uint64_t
mbufx_test_seed(void)
{
	return 0;
}

int
mbufx_test_env_u64(const char *name __rte_unused, uint64_t def,
		   uint64_t min __rte_unused, uint64_t max __rte_unused, uint64_t *v)
{
	*v = def;
	return 0;
}

static uint64_t
next_choice(void *arg)
{
	return fuzz_u16(arg);
}

static void *
run_steps(void *arg)
{
	struct steps *st = arg;

	st->ret = 0;
	for (st->n = 0; input.n > 0 && st->n < MAX_STEPS; st->n++)
		if (diff_step(st->d) != 0) {
			st->ret = -1;
			break;
		}
	return NULL;
}

int
LLVMFuzzerInitialize(int *argc, char ***argv)
{
	char name[32];
	unsigned int k;

	fuzz_eal_init("fuzz_bufops", 0);
	nkinds = RTE_MIN(diff_kind_count(), (unsigned int)MAX_KINDS);
	for (k = 0; k < nkinds; k++) {
		snprintf(name, sizeof(name), "fzdiff%u", k);
		zs[k] = diff_zs_create(k, name);
		if (zs[k] == NULL || tu_pinned_pool() == NULL) {
			fprintf(stderr, "fuzz_bufops: zone set %s: %s\n",
				diff_kind_name(k), rte_strerror(rte_errno));
			exit(1);
		}
		engine[k] = diff_create(zs[k], 0, next_choice, &input);
		if (engine[k] == NULL) {
			fprintf(stderr, "fuzz_bufops: no memory\n");
			exit(1);
		}
		diff_set_full_check(engine[k], FULL_EVERY);
	}
	return 0;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct steps st = { NULL, 0, 0 };
	unsigned int sel, k, eal;
	pthread_t th;

	input.p = data;
	input.n = size;
	sel = fuzz_u8(&input);
	k = sel % nkinds;
	eal = (sel / nkinds) % 2 == 0;
	st.d = engine[k];
	if (eal) {
		run_steps(&st);
	} else {
		FUZZ_CHECK(pthread_create(&th, NULL, run_steps, &st) == 0,
			   "thread");
		FUZZ_CHECK(pthread_join(th, NULL) == 0, "join");
	}
	FUZZ_CHECK(st.ret == 0, "%s, %s, step %u: packets differ from the model",
		   diff_kind_name(k), eal ? "EAL lcore" : "non-EAL thread", st.n);
	FUZZ_CHECK(diff_verify(st.d) == 0, "%s, after %u steps: packets differ "
		   "from the model", diff_kind_name(k), st.n);
	diff_release(st.d);
	FUZZ_CHECK(diff_audit(st.d, stderr) == 0, "%s: mbufs not back after %u "
		   "steps", diff_kind_name(k), st.n);
	return 0;
}
