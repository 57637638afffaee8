/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The mbufx authors
 */

/*
 * fuzz_rules: mbufx-l3fwd's rule files (app/l3fwd-mbufx/route_parse.c):
 * LPM prefixes and EM 5-tuples, IPv4 and IPv6, port lists (multicast) and
 * the encapsulation actions.
 *
 * Input: a flags byte, a port-mask byte, then the file text.
 *   flags bit 0   --lookup em (else lpm)
 *   flags bits 1-2  0: the text is --rule_ipv4; 1: --rule_ipv6; 2, 3: the
 *                 text up to the first NUL is --rule_ipv4, the rest
 *                 --rule_ipv6
 * The files are memfds opened through /proc/self/fd, as the app opens a
 * path. The loader must never crash; what it accepts must hold together:
 * one next hop per rule, output ports inside the mask, a port list only on
 * a multicast route and never with an encapsulation, encapsulation lengths
 * matching their kind, and every next hop printable (l3fwd_nh_format) into
 * a buffer of any size.
 */

#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <rte_malloc.h>

#include "fuzz_common.h"
#include "l3fwd.h"

static int fd4 = -1, fd6 = -1;
static char path4[64], path6[64];

int
LLVMFuzzerInitialize(int *argc, char ***argv)
{
	fuzz_eal_init("fuzz_rules", 0);
	fd4 = memfd_create("rule_ipv4", 0);
	fd6 = memfd_create("rule_ipv6", 0);
	if (fd4 < 0 || fd6 < 0) {
		perror("memfd_create");
		exit(1);
	}
	snprintf(path4, sizeof(path4), "/proc/self/fd/%d", fd4);
	snprintf(path6, sizeof(path6), "/proc/self/fd/%d", fd6);
	return 0;
}

static void
put_file(int fd, const uint8_t *p, size_t n)
{
	FUZZ_CHECK(ftruncate(fd, 0) == 0, "ftruncate: %s", strerror(errno));
	FUZZ_CHECK(pwrite(fd, p, n, 0) == (ssize_t)n, "pwrite: %s", strerror(errno));
}

static void
check_nh(const struct l3fwd_nh *nh)
{
	static const uint8_t encap_len[] = {
		[L3FWD_ENCAP_NONE] = 0, [L3FWD_ENCAP_VLAN] = 4, [L3FWD_ENCAP_MPLS] = 4,
		[L3FWD_ENCAP_IPIP] = 20, [L3FWD_ENCAP_GRE] = 24,
	};
	char buf[128];
	unsigned int i;
	size_t len;

	FUZZ_CHECK(nh->encap < RTE_DIM(encap_len) && nh->encap_len == encap_len[nh->encap],
		   "encap %u len %u", nh->encap, nh->encap_len);
	FUZZ_CHECK(l3fwd.portmask & (1ULL << nh->port), "port %u", nh->port);
	FUZZ_CHECK(nh->nb_ports <= L3FWD_MAX_MCAST_PORTS, "%u ports", nh->nb_ports);
	FUZZ_CHECK(nh->nb_ports == 0 || nh->encap == L3FWD_ENCAP_NONE,
		   "encapsulated multicast");
	for (i = 0; i < nh->nb_ports; i++)
		FUZZ_CHECK(nh->ports[i] < RTE_MAX_ETHPORTS &&
			   (l3fwd.portmask & (1ULL << nh->ports[i])), "port %u", nh->ports[i]);
	if (nh->encap == L3FWD_ENCAP_VLAN)
		FUZZ_CHECK((nh->vlan_tci & 0xfff) >= 1 && (nh->vlan_tci & 0xfff) <= 4094,
			   "tci 0x%x", nh->vlan_tci);
	if (nh->encap == L3FWD_ENCAP_MPLS)
		FUZZ_CHECK(nh->mpls_label >= 16 && nh->mpls_label < (1u << 20),
			   "label %u", nh->mpls_label);
	FUZZ_CHECK(memchr(nh->text, '\0', sizeof(nh->text)) != NULL, "text unterminated");
	for (len = 1; len <= sizeof(buf); len += len < 16 ? 1 : 37) {
		memset(buf, 0x5a, sizeof(buf));
		l3fwd_nh_format(nh, buf, len);
		FUZZ_CHECK(memchr(buf, '\0', len) != NULL, "format into %zu: unterminated", len);
		FUZZ_CHECK(len == sizeof(buf) || buf[len] == 0x5a, "format wrote past %zu", len);
	}
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fuzz_in in = { data, size };
	uint8_t flags = fuzz_u8(&in), mask = fuzz_u8(&in);
	const uint8_t *nul;
	uint32_t i;
	int rc;

	memset(&l3fwd, 0, sizeof(l3fwd));
	app_opts_init(&l3fwd.common);
	l3fwd.lookup = flags & 1 ? L3FWD_LOOKUP_EM : L3FWD_LOOKUP_LPM;
	/* ports 0..7, with port 31 now and then (the last one there is) */
	l3fwd.portmask = (mask & 0x7f) | (uint64_t)(mask >> 7) << (RTE_MAX_ETHPORTS - 1);
	if (l3fwd.portmask == 0)
		l3fwd.portmask = 1;
	switch ((flags >> 1) & 3) {
	case 0:
		put_file(fd4, in.p, in.n);
		l3fwd.rule_v4 = path4;
		break;
	case 1:
		put_file(fd6, in.p, in.n);
		l3fwd.rule_v6 = path6;
		break;
	default:
		nul = memchr(in.p, '\0', in.n);
		put_file(fd4, in.p, nul != NULL ? (size_t)(nul - in.p) : in.n);
		put_file(fd6, nul != NULL ? nul + 1 : in.p + in.n,
			 nul != NULL ? in.n - (size_t)(nul - in.p) - 1 : 0);
		l3fwd.rule_v4 = path4;
		l3fwd.rule_v6 = path6;
		break;
	}

	fuzz_quiet(true);
	rc = l3fwd_routes_load();
	fuzz_quiet(false);
	FUZZ_CHECK(rc == 0 || rc == -EINVAL || rc == -ENOMEM || rc == -E2BIG, "rc %d", rc);
	if (rc == 0) {
		FUZZ_CHECK(l3fwd.nb_rules == l3fwd.nb_nh && l3fwd.nb_nh <= L3FWD_MAX_ROUTES,
			   "%u rules, %u next hops", l3fwd.nb_rules, l3fwd.nb_nh);
		for (i = 0; i < l3fwd.nb_rules; i++) {
			const struct l3fwd_rule *r = &l3fwd.rules[i];

			FUZZ_CHECK(r->nh == i, "rule %u -> next hop %u", i, r->nh);
			FUZZ_CHECK(r->depth <= (r->v6 ? 128 : 32), "depth %u", r->depth);
			FUZZ_CHECK(l3fwd.nh[i].v6 == r->v6, "family");
			check_nh(&l3fwd.nh[i]);
		}
	}
	rte_free(l3fwd.nh);
	rte_free(l3fwd.rules);
	return 0;
}
