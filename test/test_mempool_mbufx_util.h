/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The mbufx authors
 */

/*
 * Helpers shared by the autotests of the mbufx mempool driver (one process,
 * several processes, races): plain pools on the "mbufx" ops, the driver's
 * own count, objects that carry their index with an ownership flag per
 * index (an object handed out twice, or never given back, is caught), an
 * lcore that strands every object in its magazines, and the check that a
 * pool gives all its objects in one call and not one more.
 */

#ifndef TEST_MEMPOOL_MBUFX_UTIL_H
#define TEST_MEMPOOL_MBUFX_UTIL_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include <rte_mempool.h>

/* The driver's one mempool ops name. */
#define MU_OPS "mbufx"

/*
 * A pool of n plain objects of elt bytes on the "mbufx" ops, populated.
 * NULL with rte_errno set on failure.
 */
struct rte_mempool *mu_pool_create(const char *name, unsigned int n,
		unsigned int elt, unsigned int cache, unsigned int flags);

/* What the driver itself reports (rte_mempool_ops_get_count is internal). */
unsigned int mu_driver_count(const struct rte_mempool *mp);

/* rte_mempool_obj_iter() callback: each object holds its index. */
void mu_obj_set_index(struct rte_mempool *mp, void *arg, void *obj,
		unsigned int idx);

/* The index an object holds (objects of at least 4 bytes). */
static inline uint32_t
mu_obj_index(const void *obj)
{
	return *(const uint32_t *)obj;
}

/*
 * Move the ownership flags owned[index] of objs[0..n) from `from` to `to`,
 * one atomic compare-and-exchange each. Returns how many moved: n, or the
 * position of the first object whose index is nb or more or whose flag was
 * not `from` (the flags before it stay moved).
 */
unsigned int mu_owned_move(uint8_t *owned, unsigned int nb, void *const *objs,
		unsigned int n, uint8_t from, uint8_t to);

/*
 * lcore function: take every object of the pool arg (cache 0) in one call
 * and free them in two halves, so that they sit in this lcore's magazines
 * and in the depot. 0, or -1 when the pool did not give them all.
 */
int mu_strand(void *arg);

/*
 * Take every object of mp in one driver call (whatever lcore or process
 * freed them) and put them back: one more is refused, the driver counts 0
 * while they are out and mp->size after, they are distinct objects of mp.
 * Messages name the caller, who. TEST_SUCCESS or TEST_FAILED.
 */
int mu_check_drain(struct rte_mempool *mp, const char *who);

/*
 * The pool is full again: every object came back (avail == size, none in
 * use), nothing was invented. TEST_SUCCESS or TEST_FAILED.
 */
int mu_check_full(struct rte_mempool *mp);

/*
 * An empty pktmbuf pool of n mbufs with a data room of room bytes on the
 * ops named ops, its private area initialised: the caller populates it
 * (then rte_mempool_obj_iter(mp, rte_pktmbuf_init, NULL)). NULL on failure.
 */
struct rte_mempool *mu_pktpool_empty(const char *name, const char *ops,
		unsigned int n, uint16_t room, int socket, unsigned int flags);

/*
 * External memory as a malloc heap: MU_EXT_PAGES 2 MiB pages of anonymous
 * memory whose fake IOVAs are such that no two pages are IOVA-contiguous
 * (each page's IOVA below the one before it).
 */
#define MU_EXT_PAGES 16

struct mu_ext_heap {
	const char *name;
	void *base;		/* the mapping */
	void *va;		/* its first 2 MiB boundary: the heap's memory */
	size_t len;
	int socket;		/* the heap's socket id, for pool creation */
};

/* Create heap name in *h. TEST_SUCCESS, or TEST_FAILED with nothing left. */
int mu_ext_heap_create(struct mu_ext_heap *h, const char *name);

/* Remove and unmap the heap (its pools freed). TEST_SUCCESS or TEST_FAILED. */
int mu_ext_heap_destroy(struct mu_ext_heap *h);

/*
 * Capture the EAL log into memory: mu_log_start() redirects it, and
 * mu_log_stop() restores stderr and returns what was logged in between
 * (free() it), or NULL.
 */
void mu_log_start(void);
char *mu_log_stop(void);

/*
 * A field of /mbufx/pool,<name>: the number after "key":, or, when str is
 * not NULL and the value is a string, that string copied to str (return 0).
 * -1 when telemetry or the field is missing.
 */
long long mu_tel_pool_field(const char *name, const char *key, char *str,
		size_t len);

/*
 * Send one telemetry command to this process's own socket; the answer (JSON)
 * in out. 0, or -1 when the socket is not reachable.
 */
int mu_telemetry_query(const char *cmd, char *out, size_t len);

/*
 * Start this runner again as a secondary process of the calling primary
 * (same --file-prefix, lcore 1), running autotest test with MBUFX_MP_ROLE
 * set to role and the EAL arguments extra (NULL-terminated, or NULL) added:
 * its pid, or -1.
 */
pid_t mu_start_secondary(const char *test, const char *role,
		const char *const *extra);

/* Wait for a secondary: its exit code, -1 if it did not exit normally. */
int mu_wait_secondary(pid_t pid);

/*
 * mu_start_secondary() then mu_wait_secondary(), started again (up to 5
 * times, each a new exec with a new address-space layout) while the
 * secondary's EAL cannot map the primary's memory: its exit code.
 */
int mu_run_secondary(const char *test, const char *role,
		const char *const *extra);

#endif /* TEST_MEMPOOL_MBUFX_UTIL_H */
