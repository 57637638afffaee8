/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The mbufx authors
 */

/* Helpers of the libFuzzer harnesses (see fuzz_common.h). */

#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <rte_common.h>
#include <rte_eal.h>
#include <rte_errno.h>
#include <rte_log.h>

#include "fuzz_common.h"

static FILE *devnull;
static FILE *saved_out, *saved_err;
static int verbose = -1;

void
fuzz_quiet(bool on)
{
	if (verbose < 0) {
		const char *v = getenv("FUZZ_VERBOSE");

		verbose = v != NULL && strcmp(v, "0") != 0;
	}
	if (verbose)
		return;
	if (devnull == NULL) {
		devnull = fopen("/dev/null", "w");
		if (devnull == NULL)
			return;
	}
	if (on && saved_out == NULL) {
		fflush(stdout);
		fflush(stderr);
		saved_out = stdout;
		saved_err = stderr;
		stdout = devnull;
		stderr = devnull;
		rte_openlog_stream(devnull);
	} else if (!on && saved_out != NULL) {
		stdout = saved_out;
		stderr = saved_err;
		saved_out = NULL;
		saved_err = NULL;
		rte_openlog_stream(NULL);
	}
}

void
fuzz_eal_init(const char *name, unsigned int flags)
{
	static char prefix[64];
	char *argv[16];
	cpu_set_t cpus;
	int argc = 0, have_cpus;

	/* the EAL pins lcore 0 to the first CPU: every harness (and two
	 * run side by side) would share it; the CPUs are given back below */
	have_cpus = sched_getaffinity(0, sizeof(cpus), &cpus) == 0;

	snprintf(prefix, sizeof(prefix), "--file-prefix=fuzz_%s_%d", name,
		 (int)getpid());
	argv[argc++] = (char *)(uintptr_t)name;
	argv[argc++] = (char *)(uintptr_t)"-l";
	argv[argc++] = (char *)(uintptr_t)"0";
	argv[argc++] = (char *)(uintptr_t)"--no-pci";
	argv[argc++] = (char *)(uintptr_t)"--no-huge";
	argv[argc++] = (char *)(uintptr_t)"-m";
	argv[argc++] = (char *)(uintptr_t)"512";
	argv[argc++] = (char *)(uintptr_t)"--no-shconf";
	argv[argc++] = prefix;
	argv[argc++] = (char *)(uintptr_t)"--log-level=*:error";
	if ((flags & FUZZ_EAL_TELEMETRY) == 0)
		argv[argc++] = (char *)(uintptr_t)"--no-telemetry";
	argv[argc] = NULL;
	if (rte_eal_init(argc, argv) < 0) {
		fprintf(stderr, "%s: EAL init failed: %s\n", name,
			rte_strerror(rte_errno));
		exit(1);
	}
	if (have_cpus)
		sched_setaffinity(0, sizeof(cpus), &cpus);
}

size_t
fuzz_str(struct fuzz_in *in, char *buf, size_t cap)
{
	size_t k = 0;

	while (in->n > 0 && *in->p != '\0') {
		if (k + 1 < cap)
			buf[k++] = (char)*in->p;
		in->p++;
		in->n--;
	}
	if (in->n > 0) {	/* the NUL */
		in->p++;
		in->n--;
	}
	buf[k] = '\0';
	return k;
}

size_t
fuzz_bytes(struct fuzz_in *in, void *buf, size_t len)
{
	size_t k = RTE_MIN(len, in->n);

	memcpy(buf, in->p, k);
	memset((uint8_t *)buf + k, 0, len - k);
	in->p += k;
	in->n -= k;
	return k;
}
