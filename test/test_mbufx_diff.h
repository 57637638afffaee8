/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The mbufx authors
 */

/*
 * The engine of the differential test (test_mbufx_diff.c), for its two
 * drivers: mbufx_diff_autotest (a seeded random generator) and
 * test/fuzz/fuzz_bufops (libFuzzer's input). Each step applies one
 * operation to real mbufs and to a byte model, then checks the live
 * packets against their models; a failure prints the step and what differed.
 */

#ifndef TEST_MBUFX_DIFF_H
#define TEST_MBUFX_DIFF_H

#include <stdint.h>
#include <stdio.h>

#include "mbufx.h"

struct diff;

/**
 * Kinds of zone set the engine is run on (mbufx ops without and with
 * per-lcore caches, without a header zone, ring_mp_mc ops): how many.
 */
unsigned int diff_kind_count(void);

/** Name of kind (< diff_kind_count()), for messages. */
const char *diff_kind_name(unsigned int kind);

/**
 * A zone set of that kind (255 header, 255 packet, 7 jumbo mbufs).
 * @return NULL with rte_errno set on failure.
 */
struct mbufx_zone_set *diff_zs_create(unsigned int kind, const char *name);

/**
 * An engine over zone set zs (and the pinned pool of test_mbufx_util.h).
 * Choices come from next(arg) when next is not NULL, else from a splitmix64
 * generator seeded with seed. @return NULL when out of memory.
 */
struct diff *diff_create(struct mbufx_zone_set *zs, uint64_t seed,
		uint64_t (*next)(void *arg), void *arg);

/** One operation, then the check of every live packet: 0 or -1. */
int diff_step(struct diff *d);

/**
 * Check every live packet only on every every-th step (0 or 1: on every
 * step, the default); the other steps check the packet they worked on and
 * the newest packet. Call diff_verify() before diff_release().
 */
void diff_set_full_check(struct diff *d, unsigned int every);

/** Check every live packet against its model now: 0 or -1. */
int diff_verify(struct diff *d);

/** Free every live packet and every mbuf held to starve a zone. */
void diff_release(struct diff *d);

/**
 * Every zone full, the pinned pool full, no external buffer alive (after
 * diff_release()): 0, or -1 after printing what is missing to f (if not
 * NULL).
 */
int diff_audit(struct diff *d, FILE *f);

/** Print the count of each operation, done and failed as documented. */
void diff_print_ops(const struct diff *d, FILE *f);

/** Free the engine (not its zone set; release the packets first). */
void diff_free(struct diff *d);

#endif /* TEST_MBUFX_DIFF_H */
