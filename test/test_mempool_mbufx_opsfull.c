/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The mbufx authors
 */

/*
 * mempool-mbufx-opsfull-test PLUGIN full|room
 *
 * The plugin loaded into a process whose mempool ops table is full (all of
 * DPDK's RTE_MEMPOOL_MAX_OPS_IDX slots taken, as the stock drivers and one
 * more plugin do on 24.11 and 25.11, and the stock drivers alone from 26.03)
 * registers nothing and says what to do: that the table is full and which
 * drivers hold it, that "mbufx" pools fail, the -d path of this very plugin,
 * and which hardware-pool plugins present could go, with their slot counts.
 * With one slot free ("room") it takes that slot and logs no error.
 *
 * No EAL: the ops table and the plugin's constructor need none. The table is
 * filled with stand-in drivers before the plugin is dlopen()ed; two of them
 * carry cnxk's ops names and one dpaa2's, so the hints can be checked.
 * Exit 0 pass, 1 fail.
 */

#include <dlfcn.h>
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_common.h>
#include <rte_log.h>
#include <rte_mempool.h>

#include "mbufx_test.h"

static int
stub_alloc(struct rte_mempool *mp)
{
	RTE_SET_USED(mp);
	return 0;
}

static int
stub_enqueue(struct rte_mempool *mp, void * const *obj, unsigned int n)
{
	RTE_SET_USED(mp);
	RTE_SET_USED(obj);
	RTE_SET_USED(n);
	return 0;
}

static int
stub_dequeue(struct rte_mempool *mp, void **obj, unsigned int n)
{
	RTE_SET_USED(mp);
	RTE_SET_USED(obj);
	RTE_SET_USED(n);
	return -ENOBUFS;
}

static unsigned int
stub_count(const struct rte_mempool *mp)
{
	RTE_SET_USED(mp);
	return 0;
}

static bool
registered(const char *name)
{
	unsigned int i;

	for (i = 0; i < rte_mempool_ops_table.num_ops; i++)
		if (strcmp(rte_mempool_ops_table.ops[i].name, name) == 0)
			return true;
	return false;
}

/* Register stand-ins until num_ops == want; false when one is refused. */
static bool
fill_table(unsigned int want)
{
	static const char * const hw[] = {
		"cn9k_mempool_ops", "cn10k_mempool_ops", "dpaa2",
	};
	static struct rte_mempool_ops ops[RTE_MEMPOOL_MAX_OPS_IDX];
	unsigned int i;

	for (i = 0; rte_mempool_ops_table.num_ops < want; i++) {
		struct rte_mempool_ops *o = &ops[i];

		if (i < RTE_DIM(hw))
			snprintf(o->name, sizeof(o->name), "%s", hw[i]);
		else
			snprintf(o->name, sizeof(o->name), "stand_in_%u", i);
		o->alloc = stub_alloc;
		o->enqueue = stub_enqueue;
		o->dequeue = stub_dequeue;
		o->get_count = stub_count;
		if (rte_mempool_register_ops(o) < 0)
			return false;
	}
	return true;
}

int
main(int argc, char **argv)
{
	char *log = NULL, want[1024];
	const char *plugin;
	size_t log_len = 0;
	int ret = TEST_SUCCESS;
	bool full;
	FILE *f;
	void *h;

	if (argc != 3 || (strcmp(argv[2], "full") != 0 &&
			  strcmp(argv[2], "room") != 0)) {
		fprintf(stderr, "usage: %s PLUGIN full|room\n", argv[0]);
		return 1;
	}
	plugin = argv[1];
	full = strcmp(argv[2], "full") == 0;
	if (!fill_table(RTE_MEMPOOL_MAX_OPS_IDX - (full ? 0 : 1))) {
		TEST_FAIL_MSG("cannot fill the ops table (%u of %d)",
			      rte_mempool_ops_table.num_ops,
			      RTE_MEMPOOL_MAX_OPS_IDX);
		return 1;
	}

	f = open_memstream(&log, &log_len);
	if (f == NULL) {
		TEST_FAIL_MSG("open_memstream");
		return 1;
	}
	rte_openlog_stream(f);
	h = dlopen(plugin, RTLD_NOW | RTLD_LOCAL);
	rte_openlog_stream(NULL);
	fclose(f);
	if (h == NULL) {
		TEST_FAIL_MSG("dlopen %s: %s", plugin, dlerror());
		free(log);
		return 1;
	}
	printf("plugin log:\n%s", log);

	if (!full) {
		TEST_EXPECT(ret, registered("mbufx"),
			    "\"mbufx\" takes the free slot");
		TEST_EXPECT(ret, strstr(log, "not registered") == NULL,
			    "no error");
		goto out;
	}
	TEST_EXPECT(ret, !registered("mbufx"),
		    "\"mbufx\" is not in a full table");
	snprintf(want, sizeof(want), "mempool ops \"mbufx\" not registered: "
		 "DPDK's table of %d mempool drivers (RTE_MEMPOOL_MAX_OPS_IDX) "
		 "is full: cn9k_mempool_ops, cn10k_mempool_ops, dpaa2, ",
		 RTE_MEMPOOL_MAX_OPS_IDX);
	TEST_EXPECT(ret, strstr(log, want) != NULL,
		    "the table is full, and by whom");
	TEST_EXPECT(ret, strstr(log, "Pools asking for \"mbufx\" fail with "
				"EINVAL") != NULL, "what fails");
	snprintf(want, sizeof(want), "give this plugin with -d %s: ", plugin);
	TEST_EXPECT(ret, strstr(log, want) != NULL,
		    "the -d fix names this plugin");
	TEST_EXPECT(ret, strstr(log, "librte_mempool_cnxk.so (2 slots), "
				"librte_mempool_dpaa2.so (1 slot).") != NULL,
		    "the hardware plugins present, with their slots");
	TEST_EXPECT(ret, strstr(log, "octeontx") == NULL,
		    "no hint for a plugin that is not loaded");
out:
	free(log);
	printf("%s\n", ret == TEST_SUCCESS ? "OK" : "FAILED");
	return ret == TEST_SUCCESS ? 0 : 1;
}
