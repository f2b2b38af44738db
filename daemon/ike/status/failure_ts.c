// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Selectors in a failure record, in the words of the configuration: the
 * peer's TSi and TSr as prefixes where a range is one ("10.1.0.0/24"),
 * else as ranges, with protocol and ports when not all; ours as the
 * conn's leftsubnet= and rightsubnet= (or the hosts) and protoports.
 */
#include <arpa/inet.h>
#include <stdio.h>
#include <string.h>

#include "ike/conn/conn.h"
#include "ike/status/failure.h"
#include "wire/wire.h"

/* The prefix length of start..end when it is one, else -1. */
static int prefix_of(const uint8_t *s, const uint8_t *e, unsigned len)
{
	unsigned bits = 0, i = 0;

	while (i < len && s[i] == e[i]) {
		bits += 8;
		i++;
	}
	if (i < len) {
		/* a prefix differs in the low bits only: 0..0 to 1..1 */
		unsigned diff = (unsigned)(s[i] ^ e[i]);

		if ((diff & (diff + 1)) || (s[i] & diff) ||
		    (e[i] & diff) != diff)
			return -1;
		bits += 8 - (unsigned)__builtin_popcount(diff);
		for (unsigned j = i + 1; j < len; j++)
			if (s[j] != 0 || e[j] != 0xff)
				return -1;
	}
	return (int)bits;
}

static void one_ts(const struct wire_ts *t, char *buf, size_t len)
{
	int af = t->type == WIRE_TS_IPV6_ADDR_RANGE ? AF_INET6 : AF_INET;
	unsigned alen = af == AF_INET6 ? 16 : 4;
	char a[INET6_ADDRSTRLEN] = "?", b[INET6_ADDRSTRLEN] = "?";
	int plen = prefix_of(t->start, t->end, alen);
	size_t off;

	inet_ntop(af, t->start, a, sizeof(a));
	inet_ntop(af, t->end, b, sizeof(b));
	if (plen >= 0)
		off = (size_t)snprintf(buf, len, "%s/%d", a, plen);
	else
		off = (size_t)snprintf(buf, len, "%s-%s", a, b);
	if (off >= len ||
	    (!t->ip_proto && t->start_port == 0 && t->end_port == 0xffff))
		return;
	if (t->start_port == t->end_port)
		snprintf(buf + off, len - off, "[%u/%u]", t->ip_proto,
			 t->start_port);
	else if (t->start_port == 0 && t->end_port == 0xffff)
		snprintf(buf + off, len - off, "[%u]", t->ip_proto);
	else
		snprintf(buf + off, len - off, "[%u/%u-%u]", t->ip_proto,
			 t->start_port, t->end_port);
}

static void pld(const char *what, const struct wire_ts_pld *p, char *buf,
		size_t len)
{
	size_t off = (size_t)snprintf(buf, len, "%s ", what);

	for (unsigned i = 0; p && i < p->n && off < len; i++) {
		char one[96];

		one_ts(&p->ts[i], one, sizeof(one));
		off += (size_t)snprintf(buf + off, len - off, "%s%s",
					i ? "," : "", one);
	}
}

static void end_nets(const char *what, const struct conn_end *e, char *buf,
		     size_t len)
{
	size_t off = (size_t)snprintf(buf, len, "%s ", what);

	for (unsigned i = 0; i < e->nnets && off < len; i++) {
		char a[INET6_ADDRSTRLEN] = "%any";

		if (e->nets[i].a.family)
			inet_ntop(e->nets[i].a.family, e->nets[i].a.bytes, a,
				  sizeof(a));
		off += (size_t)snprintf(buf + off, len - off, "%s%s/%u",
					i ? "," : "", a, e->nets[i].plen);
	}
	if (off < len && (e->proto || e->port))
		snprintf(buf + off, len - off, "[%u/%u]", e->proto, e->port);
}

void failure_ts(struct ike_failure *f, const struct wire_ts_pld *tsi,
		const struct wire_ts_pld *tsr, const struct conn_view *v,
		bool peer_initiated)
{
	char a[IKE_FAIL_TEXT / 2], b[IKE_FAIL_TEXT / 2];

	pld("TSi", tsi, a, sizeof(a));
	pld("TSr", tsr, b, sizeof(b));
	if (snprintf(f->peer, sizeof(f->peer), "%s %s", a, b) < 0)
		f->peer[0] = '\0';
	/* the initiator's side is TSi: ours when we initiated */
	end_nets(peer_initiated ? "TSi" : "TSr", &v->remote, a, sizeof(a));
	end_nets(peer_initiated ? "TSr" : "TSi", &v->local, b, sizeof(b));
	if (snprintf(f->local, sizeof(f->local), "%s %s",
		     peer_initiated ? a : b, peer_initiated ? b : a) < 0)
		f->local[0] = '\0';
}
