// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * config setup's core keys: one row each, which names the check the load
 * runs and the typed field the value becomes. The field is converted with
 * the primitive the check accepted it with (cfg_parse_bool,
 * cfg_parse_duration_ms, values_number, ...), so a spelling the check
 * takes means the same at run time: fips=on is FIPS mode.
 */
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <json-c/json.h>

#include "config/internal.h"
#include "config/setup.h"
#include "config/values.h"

enum setup_type {
	T_BOOL,
	T_UINT,
	T_PORT,
	T_MS, /* a duration in milliseconds */
	T_SECONDS, /* a duration in whole seconds */
	T_VALUE, /* the value as written, with its file:line */
	T_NHELPERS,
	T_DDOS,
	T_OCSP_METHOD,
	T_PLUTODEBUG,
	T_INTERVAL, /* metrics-interval=: seconds, at most a day */
};

struct setup_key {
	const char *key;
	value_check_fn check;
	enum setup_type type;
	size_t off;
};

#define F(field) offsetof(struct cfg_setup, field)

static const struct setup_key keys[] = {
	{ "plugins", check_plugins, T_VALUE, F(plugins) },
	{ "nhelpers", check_nhelpers, T_NHELPERS, F(nhelpers) },
	{ "ddos-ike-threshold", check_unsigned, T_UINT, F(ddos_ike_threshold) },
	{ "max-halfopen-ike", check_unsigned, T_UINT, F(max_halfopen_ike) },
	{ "ddos-mode", check_ddos_mode, T_DDOS, F(ddos_mode) },
	{ "shuntlifetime", check_duration, T_MS, F(shuntlifetime_ms) },
	/* where policies/NAME, the policy group files, are (groups.c) */
	{ "ipsecdir", check_nonempty, T_VALUE, F(ipsecdir) },
	{ "listen", check_listen, T_VALUE, F(listen) },
	{ "ikeport", check_port, T_PORT, F(ikeport) },
	{ "nat-ikeport", check_port, T_PORT, F(nat_ikeport) },
	/* NAT-keepalive interval, libreswan's seconds */
	{ "keep-alive", check_duration, T_MS, F(keep_alive_ms) },
	/* ikebana's: RFC 7383's fragment size, an IP datagram's octets */
	{ "ike-fragment-size", check_fragment_size, T_UINT,
	  F(ike_fragment_size) },
	/* daemon/app/log_conf.c: where and how much the daemon logs */
	{ "logfile", check_nonempty, T_VALUE, F(logfile) },
	/* an alias the parser stores as logfile=; owned, never stored */
	{ "plutostderrlog", check_nonempty, T_VALUE, F(logfile) },
	{ "plutodebug", check_any, T_PLUTODEBUG, F(plutodebug) },
	{ "uniqueids", check_bool, T_BOOL, F(uniqueids) },
	{ "drop-oppo-null", check_bool, T_BOOL, F(drop_oppo_null) },
	{ "ipsec-interface-managed", check_bool, T_BOOL,
	  F(ipsec_interface_managed) },
	{ "fips", check_bool, T_BOOL, F(fips) },
	{ "nssdir", check_nonempty, T_VALUE, F(nssdir) },
	/* daemon/app/revocation_conf.c */
	{ "crl-strict", check_bool, T_BOOL, F(crl_strict) },
	{ "strictcrlpolicy", check_bool, T_BOOL, F(crl_strict) },
	{ "ocsp-enable", check_bool, T_BOOL, F(ocsp_enable) },
	{ "ocsp-strict", check_bool, T_BOOL, F(ocsp_strict) },
	{ "ocsp-timeout", check_ocsp_timeout, T_SECONDS, F(ocsp_timeout_s) },
	{ "ocsp-uri", check_ocsp_uri, T_VALUE, F(ocsp_uri) },
	{ "ocsp-trustname", check_nonempty, T_VALUE, F(ocsp_trustname) },
	{ "ocsp-method", check_ocsp_method, T_OCSP_METHOD, F(ocsp_post) },
	{ "ocsp-cache-size", check_unsigned, T_UINT, F(ocsp_cache_size) },
	{ "ocsp-cache-min-age", check_duration, T_SECONDS,
	  F(ocsp_cache_min_s) },
	{ "ocsp-cache-max-age", check_duration, T_SECONDS,
	  F(ocsp_cache_max_s) },
	/* ikebana's: daemon/app/metrics_file.c, for node_exporter's textfile */
	{ "metrics-file", check_metrics_file, T_VALUE, F(metrics_file) },
	{ "metrics-interval", check_metrics_interval, T_INTERVAL,
	  F(metrics_interval_s) },
	{ NULL, NULL, 0, 0 },
};

void cfg_setup_defaults(struct cfg_setup *out)
{
	*out = (struct cfg_setup){
		.nhelpers = -1,
		.ikeport = 500,
		.nat_ikeport = 4500,
		.ddos_ike_threshold = CFG_DDOS_IKE_THRESHOLD,
		.max_halfopen_ike = 50000,
		.keep_alive_ms = 20000,
		.shuntlifetime_ms = 15 * 60000ULL,
		.uniqueids = true,
		.ipsec_interface_managed = true,
		.ocsp_timeout_s = 2,
		.ocsp_cache_size = 1000,
		.ocsp_cache_min_s = 3600,
		.ocsp_cache_max_s = 86400,
		.metrics_interval_s = CFG_METRICS_INTERVAL_S,
	};
}

static const struct setup_key *row(const char *key)
{
	for (const struct setup_key *k = keys; k->key; k++)
		if (!strcmp(k->key, key))
			return k;
	return NULL;
}

const char *cfg_setup_key(size_t i)
{
	return i < sizeof(keys) / sizeof(keys[0]) ? keys[i].key : NULL;
}

bool cfg_setup_owns(const char *key)
{
	return row(key) != NULL;
}

bool cfg_setup_check(const char *key, const char *v, char *why, size_t len)
{
	const struct setup_key *k = row(key);

	return k && k->check(v, why, len);
}

/*
 * plutodebug=: libreswan's debug categories (all, base, crypt, ...); any
 * but none and private means debug, and private alone lets secrets in.
 */
static void plutodebug(const char *v, struct cfg_setup *out)
{
	char *copy = strdup(v), *save, *t;

	if (!copy)
		return;
	for (t = strtok_r(copy, " ,\t", &save); t;
	     t = strtok_r(NULL, " ,\t", &save)) {
		if (strcasecmp(t, "none") && strcasecmp(t, "private"))
			out->debug = true;
		if (!strcmp(t, "private"))
			out->debug_private = true;
	}
	free(copy);
}

static unsigned seconds(const char *v)
{
	unsigned long long ms = 0;

	cfg_parse_duration_ms(v, &ms);
	return ms / 1000 > UINT32_MAX ? UINT32_MAX : (unsigned)(ms / 1000);
}

/* Only after k->check accepted v: each primitive is the check's own. */
static void store(const struct setup_key *k, const struct ikb_value *iv,
		  struct cfg_setup *out)
{
	void *f = (char *)out + k->off;
	const char *v = iv->value;
	unsigned long n = 0;
	unsigned s;

	switch (k->type) {
	case T_BOOL:
		cfg_parse_bool(v, f);
		break;
	case T_UINT:
		values_number(v, UINT32_MAX, &n);
		*(unsigned *)f = (unsigned)n;
		break;
	case T_PORT:
		values_number(v, 65535, &n);
		*(uint16_t *)f = (uint16_t)n;
		break;
	case T_MS:
		cfg_parse_duration_ms(v, f);
		break;
	case T_SECONDS:
		*(unsigned *)f = seconds(v);
		break;
	case T_VALUE:
		*(const struct ikb_value **)f = iv;
		break;
	case T_NHELPERS:
		*(int *)f = values_number(v, 4096, &n) ? (int)n : -1;
		break;
	case T_DDOS:
		*(enum cfg_ddos_mode *)f =
			!strcasecmp(v, "busy")	    ? CFG_DDOS_BUSY :
			!strcasecmp(v, "unlimited") ? CFG_DDOS_UNLIMITED :
						      CFG_DDOS_AUTO;
		break;
	case T_OCSP_METHOD:
		*(bool *)f = !strcasecmp(v, "post");
		break;
	case T_PLUTODEBUG:
		*(const struct ikb_value **)f = iv;
		plutodebug(v, out);
		break;
	case T_INTERVAL:
		s = seconds(v);
		*(unsigned *)f = s > CFG_METRICS_INTERVAL_MAX_S ?
					 CFG_METRICS_INTERVAL_MAX_S :
					 s;
		break;
	}
}

void cfg_setup_parse(const struct ikb_section *s, struct cfg_setup *out)
{
	char why[300];

	cfg_setup_defaults(out);
	for (size_t i = 0; s && i < s->n; i++) {
		const struct setup_key *k = row(s->kv[i].key);

		if (k && k->check(s->kv[i].value, why, sizeof(why)))
			store(k, &s->kv[i], out);
	}
}

static struct json_object *typed(const struct setup_key *k,
				 const struct cfg_setup *s)
{
	const void *f = (const char *)s + k->off;
	const struct ikb_value *v;
	static const char *const ddos[] = { "auto", "busy", "unlimited" };

	switch (k->type) {
	case T_BOOL:
		return json_object_new_boolean(*(const bool *)f);
	case T_UINT:
		return json_object_new_int64(*(const unsigned *)f);
	case T_SECONDS:
	case T_INTERVAL:
		return json_object_new_int64(*(const unsigned *)f * 1000LL);
	case T_PORT:
		return json_object_new_int64(*(const uint16_t *)f);
	case T_MS:
		return json_object_new_int64((int64_t) *
					     (const unsigned long long *)f);
	case T_NHELPERS:
		return json_object_new_int64(*(const int *)f);
	case T_DDOS:
		return json_object_new_string(ddos[*(const int *)f]);
	case T_OCSP_METHOD:
		return json_object_new_string(*(const bool *)f ? "post" :
								 "get");
	case T_PLUTODEBUG:
		return json_object_new_string(s->debug_private ? "private" :
					      s->debug	       ? "debug" :
								 "none");
	case T_VALUE:
		v = *(const struct ikb_value *const *)f;
		return v ? json_object_new_string(v->value) : NULL;
	}
	return NULL;
}

/*
 * Every row's field by the key's name, each duration in milliseconds
 * (one held in seconds shows what is left after the truncation); a
 * text key unset is null. The alias rows are left
 * out: they share their canonical key's field.
 */
struct json_object *cfg_setup_to_json(const struct cfg_setup *s)
{
	struct json_object *o = json_object_new_object();

	for (const struct setup_key *k = keys; k->key; k++) {
		if (strcmp(cfg_canonical_key(k->key), k->key))
			continue;
		json_object_object_add(o, k->key, typed(k, s));
	}
	return o;
}
