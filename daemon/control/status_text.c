// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * `ikebana status` as text, rendered here rather than in the client:
 * with 10,000 IKE SAs the JSON of the same answer is 10 MB, and
 * building, sending and parsing it took the client 350 to 700 ms. The
 * IKE SAs, which grow, are written from the engine's structs
 * (ike_sa_status_text()); the small parts from their JSON, as --json
 * shows them.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <json-c/json.h>

#include "app/daemon.h"
#include "app/keylog.h"
#include "build-config.h"
#include "config/config.h"
#include "control/status_text.h"
#include "ike/ike.h"

static const char *str(struct json_object *o, const char *key)
{
	struct json_object *v;

	if (!o || !json_object_object_get_ex(o, key, &v) || !v)
		return NULL;
	return json_object_get_string(v);
}

static long long num(struct json_object *o, const char *key)
{
	struct json_object *v;

	return json_object_object_get_ex(o, key, &v) ?
		       json_object_get_int64(v) :
		       0;
}

static bool yes(struct json_object *o, const char *key)
{
	struct json_object *v;

	return json_object_object_get_ex(o, key, &v) &&
	       json_object_get_boolean(v);
}

static const char *or_unset(const char *s)
{
	return s ? s : "-";
}

/* fn writes the array a, which is put after. */
static void put_array(FILE *f, struct json_object *a,
		      void (*fn)(FILE *f, struct json_object *a))
{
	if (json_object_is_type(a, json_type_array))
		fn(f, a);
	json_object_put(a);
}

static void daemon_text(FILE *f, const struct ikbd *d)
{
	const char *secrets = opts_secrets(d->opts);

	fprintf(f, "ikebanad %s (pid %d), up ", IKB_VERSION, (int)getpid());
	status_duration(f, (long long)ikbd_uptime(d));
	fprintf(f, ", %u reload(s)\n", (unsigned)d->reloads);
	fprintf(f, "config:  %s\nsecrets: %s\nrundir:  %s\n", d->opts->config,
		secrets ? secrets : "none", d->opts->rundir);
}

static void plugins_text(FILE *f, const struct ikbd *d)
{
	size_t n = d->conf.plugins ? plugin_set_count(d->conf.plugins) : 0;

	fputs("plugins:", f);
	for (size_t i = 0; i < n; i++) {
		void *state;
		const struct ikb_plugin *p =
			plugin_set_get(d->conf.plugins, i, &state);

		fprintf(f, "%s %s", i ? "," : "", or_unset(p->name));
	}
	fprintf(f, "%s\n", n ? "" : " none");
}

static const char *key_of(const struct ikb_section *s, const char *key)
{
	const struct ikb_value *v = cfg_get(s, key);

	return v && v->value ? v->value : "-";
}

static void conns_text(FILE *f, const struct ikbd *d)
{
	const struct cfg *c = d->conf.cfg;
	size_t n = c ? c->nconns : 0, w = 4;

	for (size_t i = 0; i < n; i++)
		if (c->conns[i].name && strlen(c->conns[i].name) > w)
			w = strlen(c->conns[i].name);
	fprintf(f, "\nconnections (%zu):\n", n);
	for (size_t i = 0; i < n; i++) {
		const struct ikb_section *s = &c->conns[i];

		fprintf(f, "  %-*s  auto=%s left=%s right=%s  (%s:%u)\n",
			(int)w, or_unset(s->name), key_of(s, "auto"),
			key_of(s, "left"), key_of(s, "right"),
			or_unset(s->file), (unsigned)s->line);
		/* what left=/right= names and %defaultroute resolved to */
		ike_engine_hosts_text(d->engine, s->name, f);
	}
}

static void ike_sas_text(FILE *f, const struct ikbd *d)
{
	const struct ike_sa *sa = NULL;
	size_t n = 0;

	while (d->engine && (sa = ike_engine_next_sa(d->engine, sa)))
		n++;
	fprintf(f, "\nIKE SAs (%zu):%s\n", n, n ? "" : " none");
	while (d->engine && (sa = ike_engine_next_sa(d->engine, sa)))
		ike_sa_status_text(sa, f);
}

/* Traps and shunts: "  conn: trap 10.1.0.0/16 === 10.2.0.0/16, ..." */
static void routes_text(FILE *f, struct json_object *a)
{
	size_t n = json_object_array_length(a);

	if (!n)
		return;
	fprintf(f, "\nroutes (%zu):\n", n);
	for (size_t i = 0; i < n; i++) {
		struct json_object *r = json_object_array_get_idx(a, i);

		fprintf(f, "  %s: %s %s, outbound %s", or_unset(str(r, "conn")),
			or_unset(str(r, "kind")), or_unset(str(r, "selectors")),
			or_unset(str(r, "action")));
		if (num(r, "acquires"))
			fprintf(f, ", %lld ACQUIRE(s)", num(r, "acquires"));
		fputc('\n', f);
	}
}

/*
 * ipsec-interface=: "  ipsec1 if_id 1, 2 conn(s), created by ikebanad",
 * then ", interface-ip 10.9.0.1/24 ..." when conns put addresses on it.
 */
static void interfaces_text(FILE *f, struct json_object *a)
{
	size_t n = json_object_array_length(a);

	if (!n)
		return;
	fprintf(f, "\ninterfaces (%zu):\n", n);
	for (size_t i = 0; i < n; i++) {
		struct json_object *x = json_object_array_get_idx(a, i);
		struct json_object *ips = NULL;

		fprintf(f, "  %s if_id %lld, %lld conn(s), %s",
			or_unset(str(x, "name")), num(x, "if_id"),
			num(x, "conns"),
			!yes(x, "up")	  ? "not there (see the log)" :
			yes(x, "created") ? "created by ikebanad" :
					    "found, not ours");
		/* interface-ip= */
		json_object_object_get_ex(x, "addresses", &ips);
		for (size_t j = 0;
		     j < (ips ? json_object_array_length(ips) : 0); j++)
			fprintf(f, "%s%s", j ? " " : ", interface-ip ",
				json_object_get_string(
					json_object_array_get_idx(ips, j)));
		fputc('\n', f);
	}
}

static void keys_text(FILE *f, struct json_object *a)
{
	size_t n = json_object_array_length(a);

	fprintf(f, "\nChild SA keys (debug-private) (%zu):\n", n);
	for (size_t i = 0; i < n; i++) {
		struct json_object *k = json_object_array_get_idx(a, i);
		const char *key = str(k, "key"), *ik = str(k, "integ_key");

		fprintf(f, "  %-3s spi %s %s -> %s %s", or_unset(str(k, "dir")),
			or_unset(str(k, "spi")), or_unset(str(k, "src")),
			or_unset(str(k, "dst")), or_unset(str(k, "alg")));
		if (key)
			fprintf(f, " 0x%s", key);
		else
			fputs(" (key only in the kernel: ip xfrm state)", f);
		if (ik)
			fprintf(f, " %s 0x%s", or_unset(str(k, "integ_alg")),
				ik);
		fputc('\n', f);
	}
}

char *status_text(const struct ikbd *d, bool private_keys, size_t *len)
{
	char *buf = NULL;
	FILE *f = open_memstream(&buf, len);

	if (!f)
		return NULL;
	daemon_text(f, d);
	plugins_text(f, d);
	conns_text(f, d);
	ike_sas_text(f, d);
	if (d->engine) {
		put_array(f, ike_engine_routes(d->engine), routes_text);
		put_array(f, ike_engine_interfaces(d->engine), interfaces_text);
	}
	if (private_keys)
		put_array(f, keylog_json(d), keys_text);
	if (fclose(f) != 0) {
		free(buf);
		return NULL;
	}
	return buf;
}
