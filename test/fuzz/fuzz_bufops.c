/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The mbufx authors
 */

/*
 * fuzz_bufops: libmbufx's buffer operations driven by the fuzz input.
 *
 * The engine of the differential test (test_mbufx_diff.h) runs with its
 * random generator replaced by the input, two bytes per choice: which
 * operation (alloc over the three zones, external and pinned-external
 * buffers, clone / attach, sharing a chain, prepend, pullup, unshare_hdr,
 * writes, adj, trim, append, chain, fan-out, free, starving a zone and
 * giving it back), on which packet, with which sizes and bytes. After
 * every step the packet it worked on and the newest packet must equal
 * their byte models (data, metadata, rte_mbuf_check()), every live packet
 * on each FULL_EVERY-th step and at the end of the input; a failed call
 * must leave everything as it was; then every packet is freed and every
 * zone, the pinned pool and every external buffer must be back.
 *
 * Why not every packet after every step, as mbufx_diff_autotest does:
 * with up to 24 live packets of up to 9 KB, comparing them all under ASan
 * was most of the harness's time (about 1 300 inputs/s); a byte that goes
 * wrong stays wrong, so the sparser check still sees it, a few steps on.
 */

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include <rte_errno.h>

#include "fuzz_common.h"
#include "mbufx_test.h"
#include "test_mbufx_diff.h"
#include "test_mbufx_util.h"

#define MAX_STEPS 4096
#define FULL_EVERY 8

static struct mbufx_zone_set *zs;
static struct diff *engine;
static struct fuzz_in input;

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

int
LLVMFuzzerInitialize(int *argc, char ***argv)
{
	fuzz_eal_init("fuzz_bufops", 0);
	zs = tu_zs_create_n("fzdiff", 255, 255, 7);
	if (zs == NULL || tu_pinned_pool() == NULL) {
		fprintf(stderr, "fuzz_bufops: zone set: %s\n", rte_strerror(rte_errno));
		exit(1);
	}
	engine = diff_create(zs, 0, next_choice, &input);
	if (engine == NULL) {
		fprintf(stderr, "fuzz_bufops: no memory\n");
		exit(1);
	}
	diff_set_full_check(engine, FULL_EVERY);
	return 0;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	unsigned int n;

	input.p = data;
	input.n = size;
	for (n = 0; input.n > 0 && n < MAX_STEPS; n++)
		FUZZ_CHECK(diff_step(engine) == 0, "step %u: packets differ from the model", n);
	FUZZ_CHECK(diff_verify(engine) == 0, "after %u steps: packets differ from the model", n);
	diff_release(engine);
	FUZZ_CHECK(diff_audit(engine, stderr) == 0, "mbufs not back after %u steps", n);
	return 0;
}
