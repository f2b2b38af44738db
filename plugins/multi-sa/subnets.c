// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * leftsubnets= and rightsubnets=, as libreswan's: one Child SA for each
 * pair of a left and a right subnet, under one IKE SA, by the rule of
 * pair.c (a side without a list keeps the conn's own selector,
 * leftsubnet= or the host). Each Child SA's selector is the core's c[0]
 * with the pair's subnets; the responder finds the entry that takes the
 * initiator's TS as offered.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ms.h"

static int parse_net(const char *t, struct ms_net *n, char *why, size_t len)
{
	char addr[INET6_ADDRSTRLEN + 1];
	const char *slash = strchr(t, '/');
	size_t alen = slash ? (size_t)(slash - t) : strlen(t);
	unsigned max, bits;
	char *end;

	if (alen == 0 || alen >= sizeof(addr))
		goto bad;
	memcpy(addr, t, alen);
	addr[alen] = '\0';
	memset(n, 0, sizeof(*n));
	if (inet_pton(AF_INET, addr, n->addr.bytes) == 1)
		n->addr.family = AF_INET;
	else if (inet_pton(AF_INET6, addr, n->addr.bytes) == 1)
		n->addr.family = AF_INET6;
	else
		goto bad;
	max = n->addr.family == AF_INET ? 32 : 128;
	bits = max;
	if (slash) {
		bits = (unsigned)strtoul(slash + 1, &end, 10);
		if (!slash[1] || *end || bits > max)
			goto bad;
	}
	n->plen = (uint8_t)bits;
	/* as the core's leftsubnet=: no guessing about host bits */
	for (unsigned b = bits; b < max; b++)
		if (n->addr.bytes[b / 8] & (0x80u >> (b % 8))) {
			snprintf(
				why, len,
				"%s: host bits are set after the prefix length; expected a network address",
				t);
			return -1;
		}
	return 0;
bad:
	snprintf(
		why, len,
		"%s: expected a subnet ADDRESS/PREFIX, e.g. 192.0.2.0/24 or 2001:db8::/32",
		t);
	return -1;
}

int ms_parse_net_list(const char *s, struct ms_net_list *out, char *why,
		      size_t len)
{
	char *copy = strdup(s), *save = NULL, *t;
	int rc = copy ? 0 : -1;

	out->n = 0;
	if (!copy)
		snprintf(why, len, "out of memory");
	for (t = copy ? strtok_r(copy, "{}, \t", &save) : NULL; t && !rc;
	     t = strtok_r(NULL, "{}, \t", &save)) {
		if (out->n == IKB_CHILD_PLAN_MAX) {
			snprintf(why, len, "more than %u subnets",
				 IKB_CHILD_PLAN_MAX);
			rc = -1;
		} else if (!(rc = parse_net(t, &out->e[out->n], why, len)) &&
			   out->e[out->n].addr.family !=
				   out->e[0].addr.family) {
			snprintf(why, len, "%s: mixes IPv4 and IPv6 subnets",
				 t);
			rc = -1;
		} else if (!rc) {
			out->n++;
		}
	}
	if (!rc && out->n == 0) {
		snprintf(why, len, "expected a list of subnets");
		rc = -1;
	}
	free(copy);
	return rc;
}

/* One side's list: 0 with l->n = 0 when unset. */
static int side_nets(const struct ms_state *st, const struct ikb_section *conn,
		     const char *key, struct ms_net_list *l,
		     struct ikb_error *err)
{
	const struct ikb_value *v = st->host->get(conn, key);
	char why[160];

	l->n = 0;
	if (!v || ms_parse_net_list(v->value, l, why, sizeof(why)) == 0)
		return 0;
	return ikb_error_set(err, EINVAL, "%s=%s: %s", key, v->value, why);
}

bool ms_has_subnets(const struct ms_state *st, const struct ikb_section *conn)
{
	return st->host->get(conn, "leftsubnets") ||
	       st->host->get(conn, "rightsubnets");
}

static int narrow(struct ikb_child_spec *c, const void *loc, const void *rem,
		  char *why, size_t len)
{
	const struct ms_net *l = loc, *r = rem;

	if (l) {
		c->ts.src = l->addr;
		c->ts.src_plen = l->plen;
	}
	if (r) {
		c->ts.dst = r->addr;
		c->ts.dst_plen = r->plen;
	}
	/* a family of 0 is a side not known yet (checking the lists alone) */
	if (c->ts.src.family && c->ts.dst.family &&
	    c->ts.src.family != c->ts.dst.family) {
		snprintf(why, len, "they mix IPv4 and IPv6");
		return -1;
	}
	return 0;
}

void ms_net_lists(struct ms_lists *ls, const struct ms_net_list *l,
		  const struct ms_net_list *r)
{
	*ls = (struct ms_lists){
		.key = { "leftsubnets", "rightsubnets" },
		.e = { l->e, r->e },
		.n = { l->n, r->n },
		.size = sizeof(l->e[0]),
		.narrow = narrow,
	};
}

int ms_plan_subnets(const struct ms_state *st, const struct ikb_section *conn,
		    struct ikb_child_plan *plan, struct ikb_error *err)
{
	struct ms_net_list *l = calloc(2, sizeof(*l));
	struct ms_lists ls;
	char why[256];
	int rc = l ? 0 : -ENOMEM;

	if (!rc)
		rc = side_nets(st, conn, "leftsubnets", &l[0], err);
	if (!rc)
		rc = side_nets(st, conn, "rightsubnets", &l[1], err);
	if (!rc) {
		ms_net_lists(&ls, &l[0], &l[1]);
		rc = ms_pairs(&ls, plan->left_is_local, &plan->c[0], plan, why,
			      sizeof(why));
		if (rc)
			rc = ikb_error_set(err, -rc, "%s", why);
	}
	free(l);
	return rc;
}
