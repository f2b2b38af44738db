// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The lines of `ikebana status` on how an IKE SA's peer authenticated,
 * apart so that the engine's tests render its own JSON with them.
 */
#include <stdio.h>
#include <json-c/json.h>

#include "cli/cli.h"

static const char *str(struct json_object *o, const char *key)
{
	struct json_object *v;

	if (!o || !json_object_object_get_ex(o, key, &v) || !v)
		return NULL;
	return json_object_get_string(v);
}

void status_peer_print(FILE *f, struct json_object *sa)
{
	struct json_object *pc = NULL;
	const char *how = str(sa, "peer_auth");

	if (!json_object_object_get_ex(sa, "peer_cert", &pc) ||
	    !json_object_is_type(pc, json_type_object))
		pc = NULL;
	if (!how && !pc)
		return; /* not authenticated yet */
	fprintf(f, "    peer   authenticated by %s\n", how ? how : "-");
	if (pc) {
		const char *s = str(pc, "subject"), *i = str(pc, "issuer");

		fprintf(f, "    peer   cert %s\n", s ? s : "-");
		fprintf(f, "           issued by %s\n", i ? i : "-");
	}
}

static long long count(struct json_object *o, const char *key)
{
	struct json_object *v;

	return json_object_object_get_ex(o, key, &v) ?
		       json_object_get_int64(v) :
		       0;
}

void status_frag_print(FILE *f, struct json_object *sa)
{
	struct json_object *fr = NULL;

	if (!json_object_object_get_ex(sa, "fragmentation", &fr) ||
	    !json_object_is_type(fr, json_type_object))
		return; /* not negotiated */
	fprintf(f,
		"    frags  sent %lld message(s) in %lld, received %lld in %lld, %lld dropped (RFC 7383)\n",
		count(fr, "messages_sent"), count(fr, "fragments_sent"),
		count(fr, "messages_received"), count(fr, "fragments_received"),
		count(fr, "fragments_dropped"));
}

static bool yes(struct json_object *o, const char *key)
{
	struct json_object *v;

	return json_object_object_get_ex(o, key, &v) &&
	       json_object_get_boolean(v);
}

void status_nat_print(FILE *f, struct json_object *sa)
{
	struct json_object *n = NULL, *last = NULL;
	bool l, r;

	if (!json_object_object_get_ex(sa, "nat", &n) ||
	    !json_object_is_type(n, json_type_object))
		return; /* no NAT found, none forced */
	l = yes(n, "local_behind");
	r = yes(n, "remote_behind");
	fprintf(f, "    nat    %s%s, ",
		l && r ? "both ends behind a NAT" :
		l      ? "we are behind a NAT" :
		r      ? "the peer is behind a NAT" :
			 "none",
		yes(n, "forced") ? " (encapsulation=yes)" : "");
	if (yes(n, "encapsulation"))
		fprintf(f, "ESP in UDP %lld -> %lld", count(sa, "local_port"),
			count(sa, "remote_port"));
	else
		fprintf(f, "ESP bare (encapsulation=no)");
	fprintf(f, ", %lld keepalive(s) sent", count(n, "keepalives_sent"));
	if (json_object_object_get_ex(n, "last_keepalive_s", &last) && last)
		fprintf(f, " (last %llds ago)",
			(long long)json_object_get_int64(last));
	fprintf(f, ", %lld move(s) followed\n", count(n, "mappings_followed"));
}

void status_mobike_print(FILE *f, struct json_object *sa)
{
	struct json_object *m = NULL, *addrs = NULL, *last = NULL;
	size_t n = 0;

	if (!json_object_object_get_ex(sa, "mobike", &m) ||
	    !json_object_is_type(m, json_type_object))
		return; /* not negotiated */
	fprintf(f, "    mobike %lld address update(s)", count(m, "updates"));
	if (json_object_object_get_ex(m, "last_update_s", &last) && last)
		fprintf(f, ", last %llds ago from %s - %s",
			(long long)json_object_get_int64(last),
			str(m, "previous_local") ?: "?",
			str(m, "previous_remote") ?: "?");
	if (json_object_object_get_ex(m, "peer_additional_addresses", &addrs))
		n = json_object_array_length(addrs);
	fprintf(f, ", peer's additional addresses:%s", n ? "" : " none");
	for (size_t i = 0; i < n; i++)
		fprintf(f, " %s",
			json_object_get_string(
				json_object_array_get_idx(addrs, i)));
	fputc('\n', f);
}

/* "    dns    remote east.example (resolved 2026-...Z)" */
void status_host_print(FILE *f, struct json_object *sa)
{
	const char *r = str(sa, "remote_host"), *l = str(sa, "local_host");
	const char *at = str(sa, "resolved_at");

	if (!r && !l)
		return;
	fprintf(f, "    dns   ");
	if (l)
		fprintf(f, " local %s", l);
	if (r)
		fprintf(f, " remote %s", r);
	fprintf(f, " (%s%s)\n", at ? "resolved " : "resolving", at ? at : "");
}

static void host_print(FILE *f, struct json_object *h)
{
	const char *addr = str(h, "addr"), *err = str(h, "error");
	const char *at = str(h, "resolved_at"), *side = str(h, "side");
	const char *host = str(h, "host");

	fprintf(f, "      %s=%s: ", side ? side : "?", host ? host : "?");
	if (err)
		fprintf(f, "%s", err);
	if (addr)
		fprintf(f, "%s%s", err ? ", last address " : "", addr);
	if (at)
		fprintf(f, " at %s", at);
	if (!err && !addr)
		fprintf(f, "not resolved yet");
	if (yes(h, "resolving"))
		fprintf(f, " (resolving)");
	fprintf(f, "\n");
}

void status_conn_hosts_print(FILE *f, struct json_object *conn)
{
	struct json_object *a = NULL;

	if (!json_object_object_get_ex(conn, "hosts", &a) ||
	    !json_object_is_type(a, json_type_array))
		return;
	for (size_t i = 0; i < json_object_array_length(a); i++)
		host_print(f, json_object_array_get_idx(a, i));
}
