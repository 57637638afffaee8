/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The mbufx authors
 */

/*
 * Rule files, in l3fwd's format with optional extensions:
 *
 *   # comment
 *   R<prefix>/<depth> <port>[,<port>...] [action]                  (--lookup lpm)
 *   R<dst> <src> <dst port> <src port> <proto> <port>[,...] [action] (--lookup em)
 *
 *   action:  vlan <vid>[:<pcp>]  |  mpls <label>
 *            |  ipip <outer src> <outer dst>  |  gre <outer src> <outer dst>
 *
 * A port list with more than one port is a multicast route and needs a
 * multicast destination (224.0.0.0/4, ff00::/8). Every output port must be
 * enabled in the port mask. Duplicate rules, host bits set in a prefix, and
 * anything else unexpected stop the program with "file:line: reason" before
 * any port starts. Without a file, every enabled port p gets l3fwd's default
 * route: 198.18.p.0/24 and 2001:200:0:p::/64 (LPM), or the 5-tuples of
 * l3fwd's em_default_v4/v6.cfg (EM).
 */

#include <arpa/inet.h>
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_malloc.h>

#include "l3fwd.h"

struct l3fwd_conf l3fwd;

#define MAX_TOKENS 12

struct parse_ctx {
	const char *file;
	unsigned int line;
	bool v6;
};

static int __rte_format_printf(2, 3)
perr(const struct parse_ctx *c, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "error: %s:%u: ", c->file, c->line);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\n");
	return -EINVAL;
}

static int
parse_addr(const struct parse_ctx *c, const char *s, uint8_t *out)
{
	if (inet_pton(c->v6 ? AF_INET6 : AF_INET, s, out) != 1)
		return perr(c, "'%s' is not an IPv%c address", s, c->v6 ? '6' : '4');
	return 0;
}

static int
parse_num(const struct parse_ctx *c, const char *what, const char *s, uint64_t min,
	  uint64_t max, uint64_t *v)
{
	if (app_parse_u64(s, min, max, v) < 0)
		return perr(c, "bad %s '%s' (expected %" PRIu64 "..%" PRIu64 ")", what, s,
			    min, max);
	return 0;
}

static bool
is_multicast(const uint8_t *a, bool v6)
{
	return v6 ? a[0] == 0xff : (a[0] & 0xf0) == 0xe0;
}

/* "1" or "0,2,3": fills the next hop's port(s) */
static int
parse_ports(const struct parse_ctx *c, const char *s, struct l3fwd_nh *nh, uint8_t *list_len)
{
	uint16_t ports[L3FWD_MAX_MCAST_PORTS + 1];
	char buf[128], *tok, *save;
	unsigned int n = 0, i;
	uint64_t v;

	if (strlen(s) >= sizeof(buf))
		return perr(c, "port list too long");
	strcpy(buf, s);
	for (tok = strtok_r(buf, ",", &save); tok != NULL; tok = strtok_r(NULL, ",", &save)) {
		if (n == L3FWD_MAX_MCAST_PORTS)
			return perr(c, "more than %u ports in '%s'", L3FWD_MAX_MCAST_PORTS, s);
		if (parse_num(c, "port", tok, 0, RTE_MAX_ETHPORTS - 1, &v) < 0)
			return -EINVAL;
		if ((l3fwd.portmask & (1ULL << v)) == 0)
			return perr(c, "routes to port %" PRIu64 ", which is not enabled in the "
				    "port mask (-p 0x%" PRIx64 ")", v, l3fwd.portmask);
		for (i = 0; i < n; i++)
			if (ports[i] == v)
				return perr(c, "port %" PRIu64 " listed twice", v);
		ports[n++] = (uint16_t)v;
	}
	if (n == 0)
		return perr(c, "missing output port");
	nh->port = ports[0];
	memcpy(nh->ports, ports, n * sizeof(ports[0]));
	*list_len = (uint8_t)n;
	return 0;
}

static int
parse_action(const struct parse_ctx *c, char **tok, unsigned int n, struct l3fwd_nh *nh)
{
	struct parse_ctx c4 = *c;
	uint64_t v, pcp = 0;
	char *colon;

	if (n == 0)
		return 0;
	c4.v6 = false;
	if (strcmp(tok[0], "vlan") == 0 && n == 2) {
		colon = strchr(tok[1], ':');
		if (colon != NULL) {
			*colon = '\0';
			if (parse_num(c, "VLAN priority", colon + 1, 0, 7, &pcp) < 0)
				return -EINVAL;
		}
		if (parse_num(c, "VLAN id", tok[1], 1, 4094, &v) < 0)
			return -EINVAL;
		nh->encap = L3FWD_ENCAP_VLAN;
		nh->encap_len = sizeof(struct rte_vlan_hdr);
		nh->vlan_tci = (uint16_t)(v | pcp << 13);
	} else if (strcmp(tok[0], "mpls") == 0 && n == 2) {
		if (parse_num(c, "MPLS label", tok[1], 16, (1u << 20) - 1, &v) < 0)
			return -EINVAL;
		nh->encap = L3FWD_ENCAP_MPLS;
		nh->encap_len = 4;
		nh->mpls_label = (uint32_t)v;
	} else if ((strcmp(tok[0], "ipip") == 0 || strcmp(tok[0], "gre") == 0) && n == 3) {
		if (parse_addr(&c4, tok[1], (uint8_t *)&nh->tun_src) < 0 ||
		    parse_addr(&c4, tok[2], (uint8_t *)&nh->tun_dst) < 0)
			return -EINVAL;
		if (tok[0][0] == 'i') {
			nh->encap = L3FWD_ENCAP_IPIP;
			nh->encap_len = sizeof(struct rte_ipv4_hdr);
		} else {
			nh->encap = L3FWD_ENCAP_GRE;
			nh->encap_len = sizeof(struct rte_ipv4_hdr) + 4;
		}
	} else {
		return perr(c, "unknown action '%s' with %u argument(s); expected "
			    "'vlan VID[:PCP]', 'mpls LABEL', 'ipip SRC DST' or 'gre SRC DST'",
			    tok[0], n - 1);
	}
	return 0;
}

static int
add_nh(const struct l3fwd_nh *nh)
{
	if (l3fwd.nb_nh == L3FWD_MAX_ROUTES)
		return -E2BIG;
	l3fwd.nh[l3fwd.nb_nh] = *nh;
	return (int)l3fwd.nb_nh++;
}

static bool
same_rule(const struct l3fwd_rule *a, const struct l3fwd_rule *b)
{
	if (a->v6 != b->v6)
		return false;
	if (l3fwd.lookup == L3FWD_LOOKUP_LPM)
		return a->depth == b->depth && memcmp(a->ip_dst, b->ip_dst, 16) == 0;
	return memcmp(a->ip_dst, b->ip_dst, 16) == 0 && memcmp(a->ip_src, b->ip_src, 16) == 0 &&
		a->port_dst == b->port_dst && a->port_src == b->port_src &&
		a->proto == b->proto;
}

/* prefix "a.b.c.d/n": address, depth, no host bits */
static int
parse_prefix(const struct parse_ctx *c, char *s, struct l3fwd_rule *r)
{
	unsigned int max = c->v6 ? 128 : 32, i;
	char *slash = strchr(s, '/');
	uint64_t depth;

	if (slash == NULL)
		return perr(c, "'%s' is not a prefix: expected ADDRESS/LENGTH", s);
	*slash = '\0';
	if (parse_addr(c, s, r->ip_dst) < 0 ||
	    parse_num(c, "prefix length", slash + 1, 0, max, &depth) < 0)
		return -EINVAL;
	r->depth = (uint8_t)depth;
	for (i = r->depth; i < max; i++)
		if (r->ip_dst[i / 8] & (0x80 >> (i % 8)))
			return perr(c, "prefix %s/%u has host bits set", s, r->depth);
	return 0;
}

static int
parse_rule(const struct parse_ctx *c, char *line, struct l3fwd_rule *r, struct l3fwd_nh *nh)
{
	const unsigned int key_fields = l3fwd.lookup == L3FWD_LOOKUP_LPM ? 1 : 5;
	char *tok[MAX_TOKENS], *save;
	unsigned int n = 0;
	uint8_t nb_ports = 0;
	uint64_t v;
	char what[48];

	for (tok[0] = strtok_r(line, " \t\r\n", &save); tok[n] != NULL;
	     tok[n] = strtok_r(NULL, " \t\r\n", &save)) {
		if (++n == MAX_TOKENS)
			return perr(c, "too many fields");
	}
	if (l3fwd.lookup == L3FWD_LOOKUP_EM && n > 0 && strchr(tok[0], '/') != NULL)
		return perr(c, "'%s' is a prefix, but --lookup em takes a 5-tuple: "
			    "R<dst> <src> <dst port> <src port> <proto> <port>", tok[0]);
	if (n < key_fields + 1)
		return perr(c, "expected %s", l3fwd.lookup == L3FWD_LOOKUP_LPM ?
			    "R<prefix>/<length> <port>[,<port>...] [action]" :
			    "R<dst> <src> <dst port> <src port> <proto> <port>[,...] [action]");
	memset(r, 0, sizeof(*r));
	memset(nh, 0, sizeof(*nh));
	r->v6 = c->v6;
	r->line = c->line;
	if (l3fwd.lookup == L3FWD_LOOKUP_LPM) {
		if (parse_prefix(c, tok[0], r) < 0)
			return -EINVAL;
	} else {
		if (parse_addr(c, tok[0], r->ip_dst) < 0 || parse_addr(c, tok[1], r->ip_src) < 0)
			return -EINVAL;
		if (parse_num(c, "destination port", tok[2], 0, UINT16_MAX, &v) < 0)
			return -EINVAL;
		r->port_dst = (uint16_t)v;
		if (parse_num(c, "source port", tok[3], 0, UINT16_MAX, &v) < 0)
			return -EINVAL;
		r->port_src = (uint16_t)v;
		if (parse_num(c, "protocol", tok[4], 0, UINT8_MAX, &v) < 0)
			return -EINVAL;
		r->proto = (uint8_t)v;
		r->depth = c->v6 ? 128 : 32;
	}
	if (parse_ports(c, tok[key_fields], nh, &nb_ports) < 0 ||
	    parse_action(c, &tok[key_fields + 1], n - key_fields - 1, nh) < 0)
		return -EINVAL;
	nh->v6 = c->v6;
	if (is_multicast(r->ip_dst, c->v6) && r->depth >= (c->v6 ? 8 : 4)) {
		if (nh->encap != L3FWD_ENCAP_NONE)
			return perr(c, "encapsulation on a multicast route is not supported");
		nh->nb_ports = nb_ports;
	} else if (nb_ports > 1) {
		return perr(c, "a port list needs a multicast destination (%s)",
			    c->v6 ? "ff00::/8" : "224.0.0.0/4");
	}
	inet_ntop(c->v6 ? AF_INET6 : AF_INET, r->ip_dst, what, sizeof(what));
	if (l3fwd.lookup == L3FWD_LOOKUP_LPM) {
		snprintf(nh->text, sizeof(nh->text), "%s/%u", what, r->depth);
	} else {
		char src[48];

		inet_ntop(c->v6 ? AF_INET6 : AF_INET, r->ip_src, src, sizeof(src));
		snprintf(nh->text, sizeof(nh->text), "%s %s %u %u %u", what, src,
			 r->port_dst, r->port_src, r->proto);
	}
	return 0;
}

static int
add_rule(const struct parse_ctx *c, struct l3fwd_rule *r, const struct l3fwd_nh *nh)
{
	uint32_t i;
	int idx;

	for (i = 0; i < l3fwd.nb_rules; i++) {
		if (!same_rule(&l3fwd.rules[i], r))
			continue;
		return perr(c, "duplicate rule (same %s as line %u)",
			    l3fwd.lookup == L3FWD_LOOKUP_LPM ? "prefix" : "5-tuple",
			    l3fwd.rules[i].line);
	}
	idx = add_nh(nh);
	if (idx < 0)
		return perr(c, "more than %u rules", L3FWD_MAX_ROUTES);
	r->nh = (uint32_t)idx;
	l3fwd.rules[l3fwd.nb_rules++] = *r;
	return 0;
}

static int
load_file(const char *path, bool v6)
{
	struct parse_ctx c = { .file = path, .line = 0, .v6 = v6 };
	struct l3fwd_rule r;
	struct l3fwd_nh nh;
	char line[LINE_MAX];
	unsigned int nb = 0;
	FILE *f;
	char *p;
	int rc = 0;

	f = fopen(path, "r");
	if (f == NULL) {
		fprintf(stderr, "error: --rule_ipv%c %s: %s\n", v6 ? '6' : '4', path,
			strerror(errno));
		return -errno;
	}
	while (fgets(line, sizeof(line), f) != NULL) {
		c.line++;
		if (strchr(line, '\n') == NULL && !feof(f)) {
			rc = perr(&c, "line too long");
			break;
		}
		p = line + strspn(line, " \t");
		if (*p == '#' || *p == '\n' || *p == '\r' || *p == '\0')
			continue;
		if (*p != 'R') {
			rc = perr(&c, "a rule starts with 'R', a comment with '#'");
			break;
		}
		rc = parse_rule(&c, p + 1, &r, &nh);
		if (rc == 0)
			rc = add_rule(&c, &r, &nh);
		if (rc < 0)
			break;
		nb++;
	}
	fclose(f);
	if (rc == 0 && nb == 0) {
		fprintf(stderr, "error: %s: no rule in the file\n", path);
		rc = -EINVAL;
	}
	return rc;
}

/* l3fwd's built-in tables, for the enabled ports */
static int
load_defaults(bool v6)
{
	struct parse_ctx c = { .file = "<default routes>", .line = 0, .v6 = v6 };
	char line[160];
	uint16_t p;
	int rc;

	for (p = 0; p < RTE_MAX_ETHPORTS; p++) {
		struct l3fwd_rule r;
		struct l3fwd_nh nh;

		if ((l3fwd.portmask & (1ULL << p)) == 0)
			continue;
		if (l3fwd.lookup == L3FWD_LOOKUP_LPM && !v6)
			snprintf(line, sizeof(line), "198.18.%u.0/24 %u", p, p);
		else if (l3fwd.lookup == L3FWD_LOOKUP_LPM)
			snprintf(line, sizeof(line), "2001:200:0:%x::/64 %u", p, p);
		else if (!v6)
			snprintf(line, sizeof(line), "198.18.%u.0 198.18.%u.1 9 9 17 %u", p, p, p);
		else
			snprintf(line, sizeof(line), "2001:200:0:%x:: 2001:200:0:%x::1 9 9 17 %u",
				 p, p, p);
		rc = parse_rule(&c, line, &r, &nh);
		if (rc == 0)
			rc = add_rule(&c, &r, &nh);
		if (rc < 0)
			return rc;
	}
	return 0;
}

void
l3fwd_nh_format(const struct l3fwd_nh *nh, char *buf, size_t len)
{
	char a[INET_ADDRSTRLEN], b[INET_ADDRSTRLEN];
	size_t off;
	unsigned int i;

	if (nh->nb_ports != 0) {
		off = snprintf(buf, len, "ports");
		for (i = 0; i < nh->nb_ports && off < len; i++)
			off += snprintf(buf + off, len - off, "%s%u", i ? "," : " ", nh->ports[i]);
		return;
	}
	off = snprintf(buf, len, "port %u", nh->port);
	if (off >= len)
		return;
	switch (nh->encap) {
	case L3FWD_ENCAP_VLAN:
		snprintf(buf + off, len - off, " vlan %u:%u", nh->vlan_tci & 0xfff,
			 nh->vlan_tci >> 13);
		break;
	case L3FWD_ENCAP_MPLS:
		snprintf(buf + off, len - off, " mpls %u", nh->mpls_label);
		break;
	case L3FWD_ENCAP_IPIP:
	case L3FWD_ENCAP_GRE:
		inet_ntop(AF_INET, &nh->tun_src, a, sizeof(a));
		inet_ntop(AF_INET, &nh->tun_dst, b, sizeof(b));
		snprintf(buf + off, len - off, " %s %s %s",
			 nh->encap == L3FWD_ENCAP_IPIP ? "ipip" : "gre", a, b);
		break;
	default:
		break;
	}
}

int
l3fwd_routes_load(void)
{
	uint32_t i;
	int rc;

	l3fwd.nh = rte_zmalloc("l3fwd_nh", sizeof(*l3fwd.nh) * L3FWD_MAX_ROUTES, 0);
	l3fwd.rules = rte_zmalloc("l3fwd_rules", sizeof(*l3fwd.rules) * L3FWD_MAX_ROUTES, 0);
	if (l3fwd.nh == NULL || l3fwd.rules == NULL) {
		fprintf(stderr, "error: no memory for the route tables\n");
		return -ENOMEM;
	}
	rc = l3fwd.rule_v4 != NULL ? load_file(l3fwd.rule_v4, false) : load_defaults(false);
	if (rc == 0)
		rc = l3fwd.rule_v6 != NULL ? load_file(l3fwd.rule_v6, true) : load_defaults(true);
	if (rc < 0)
		return rc;
	for (i = 0; i < l3fwd.nb_nh; i++) {
		l3fwd.any_encap |= l3fwd.nh[i].encap != L3FWD_ENCAP_NONE;
		l3fwd.any_mcast |= l3fwd.nh[i].nb_ports != 0;
	}
	return 0;
}
