// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * leftsubnets= and rightsubnets=, as libreswan's: one Child SA for each
 * pair of a left and a right subnet, under one IKE SA. A side without a
 * list keeps the conn's own selector (leftsubnet=, or the host). Each
 * Child SA's selector is the core's c[0] with the pair's subnets; the
 * responder finds the entry that takes the initiator's TS as offered.
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

int ms_plan_subnets(const struct ms_state *st, const struct ikb_section *conn,
		    struct ikb_child_plan *plan, struct ikb_error *err)
{
	struct ms_net_list *l = calloc(2, sizeof(*l)), *loc, *rem;
	struct ikb_child_spec base = plan->c[0];
	unsigned n = 0;
	int rc = l ? 0 : -ENOMEM;

	if (!rc)
		rc = side_nets(st, conn, "leftsubnets", &l[0], err);
	if (!rc)
		rc = side_nets(st, conn, "rightsubnets", &l[1], err);
	if (rc) {
		free(l);
		return rc;
	}
	loc = plan->left_is_local ? &l[0] : &l[1];
	rem = plan->left_is_local ? &l[1] : &l[0];
	/* a side without a list: the core's selector for it */
	if (!loc->n)
		loc->e[loc->n++] =
			(struct ms_net){ base.ts.src, base.ts.src_plen };
	if (!rem->n)
		rem->e[rem->n++] =
			(struct ms_net){ base.ts.dst, base.ts.dst_plen };
	if (loc->e[0].addr.family != rem->e[0].addr.family)
		rc = ikb_error_set(
			err, EINVAL,
			"leftsubnets and rightsubnets (or the other side's subnet) mix IPv4 and IPv6");
	else if ((unsigned long)loc->n * rem->n > IKB_CHILD_PLAN_MAX)
		rc = ikb_error_set(
			err, E2BIG,
			"leftsubnets and rightsubnets make %u x %u Child SAs, at most %u",
			l[0].n, l[1].n, IKB_CHILD_PLAN_MAX);
	for (unsigned i = 0; !rc && i < loc->n; i++)
		for (unsigned j = 0; j < rem->n; j++, n++) {
			plan->c[n] = base;
			plan->c[n].ts.src = loc->e[i].addr;
			plan->c[n].ts.src_plen = loc->e[i].plen;
			plan->c[n].ts.dst = rem->e[j].addr;
			plan->c[n].ts.dst_plen = rem->e[j].plen;
		}
	if (!rc)
		plan->n = n;
	free(l);
	return rc;
}
