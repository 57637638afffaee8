/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The mbufx authors
 */

/* TEMPORARY STUB: a spinlock-protected LIFO array, replaced by the real driver. */

#include <errno.h>
#include <string.h>

#include <rte_errno.h>
#include <rte_malloc.h>
#include <rte_mempool.h>
#include <rte_spinlock.h>

struct stub_pool {
	rte_spinlock_t lock;
	unsigned int len, size;
	void *objs[];
};

static int
stub_alloc(struct rte_mempool *mp)
{
	struct stub_pool *s;

	s = rte_zmalloc_socket("mbufx", sizeof(*s) + sizeof(void *) * mp->size,
			       RTE_CACHE_LINE_SIZE, mp->socket_id);
	if (s == NULL)
		return -ENOMEM;
	rte_spinlock_init(&s->lock);
	s->size = mp->size;
	mp->pool_data = s;
	return 0;
}

static void
stub_free(struct rte_mempool *mp)
{
	rte_free(mp->pool_data);
}

static int
stub_enqueue(struct rte_mempool *mp, void * const *obj, unsigned int n)
{
	struct stub_pool *s = mp->pool_data;

	rte_spinlock_lock(&s->lock);
	if (s->len + n > s->size) {
		rte_spinlock_unlock(&s->lock);
		return -ENOBUFS;
	}
	memcpy(&s->objs[s->len], obj, sizeof(void *) * n);
	s->len += n;
	rte_spinlock_unlock(&s->lock);
	return 0;
}

static int
stub_dequeue(struct rte_mempool *mp, void **obj, unsigned int n)
{
	struct stub_pool *s = mp->pool_data;
	unsigned int i;

	rte_spinlock_lock(&s->lock);
	if (s->len < n) {
		rte_spinlock_unlock(&s->lock);
		return -ENOBUFS;
	}
	for (i = 0; i < n; i++)
		obj[i] = s->objs[--s->len];
	rte_spinlock_unlock(&s->lock);
	return 0;
}

static unsigned int
stub_count(const struct rte_mempool *mp)
{
	const struct stub_pool *s = mp->pool_data;

	return s->len;
}

static const struct rte_mempool_ops stub_ops = {
	.name = "mbufx",
	.alloc = stub_alloc,
	.free = stub_free,
	.enqueue = stub_enqueue,
	.dequeue = stub_dequeue,
	.get_count = stub_count,
};

RTE_MEMPOOL_REGISTER_OPS(stub_ops);
