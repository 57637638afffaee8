/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The mbufx authors
 */

/* Helpers of the benchmarks (see bench_util.h). */

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <rte_common.h>

#include "bench_util.h"

unsigned int
bench_reps(unsigned int def, unsigned int max)
{
	const char *s = getenv("MBUFX_BENCH_REPS");
	unsigned int r = s != NULL ? (unsigned int)atoi(s) : def;

	return RTE_MIN(RTE_MAX(r, BENCH_REPS_MIN), max);
}

static int
cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

double
bench_median(const double *v, unsigned int n)
{
	double t[BENCH_MEDIAN_MAX];

	n = RTE_MIN(n, BENCH_MEDIAN_MAX);
	if (n == 0)
		return 0;
	memcpy(t, v, sizeof(*v) * n);
	qsort(t, n, sizeof(*t), cmp_double);
	return n % 2 ? t[n / 2] : (t[n / 2 - 1] + t[n / 2]) / 2;
}

double
bench_loadavg(void)
{
	double l = -1;
	FILE *f = fopen("/proc/loadavg", "r");

	if (f != NULL) {
		if (fscanf(f, "%lf", &l) != 1)
			l = -1;
		fclose(f);
	}
	return l;
}

FILE *
bench_json_open(const char *name, const char *title, const char *env,
		char *path, size_t len)
{
	const char *dir = getenv("MBUFX_BENCH_OUT");
	FILE *f;

	if (dir == NULL || dir[0] == '\0')
		dir = "bench-results";
	snprintf(path, len, "%s/%s.json", dir, name);
	if (mkdir(dir, 0755) != 0 && errno != EEXIST) {
		printf("mkdir %s: %s\n", dir, strerror(errno));
		return NULL;
	}
	f = fopen(path, "w");
	if (f == NULL) {
		printf("cannot write %s: %s\n", path, strerror(errno));
		return NULL;
	}
	fprintf(f, "{\"bench\": \"%s\", \"title\": \"%s\",\n \"env\": {%s},\n"
		" \"rows\": [\n", name, title, env);
	return f;
}

int
bench_json_close(FILE *f, const char *path)
{
	fprintf(f, " ]}\n");
	if (fclose(f) != 0) {
		printf("cannot write %s: %s\n", path, strerror(errno));
		return -1;
	}
	printf("wrote %s\n", path);
	return 0;
}

void
bench_json_variants(FILE *f, unsigned int nv, const char *const key[],
		    const double val[], const double *const runs[],
		    unsigned int nruns, int decimals)
{
	unsigned int v, i;

	fprintf(f, "\"values\": {");
	for (v = 0; v < nv; v++)
		fprintf(f, "%s\"%s\": %.*f", v ? ", " : "", key[v], decimals,
			val[v]);
	fprintf(f, "},\n   \"runs\": {");
	for (v = 0; v < nv; v++) {
		fprintf(f, "%s\"%s\": [", v ? ", " : "", key[v]);
		for (i = 0; runs[v] != NULL && i < nruns; i++)
			fprintf(f, "%s%.*f", i ? ", " : "", decimals,
				runs[v][i]);
		fprintf(f, "]");
	}
	fprintf(f, "}");
}
