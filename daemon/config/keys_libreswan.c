// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The keys that libreswan 4.x and 5.x know (lib/libipsecconf/keywords.c
 * and ipsec.conf(5)), each with ikebana's verdict: implemented, harmless to
 * ignore (a warning with the reason), or refused (an error that says what
 * to write). The rows are in keys_setup.c, keys_conn.c and keys_end.c; this
 * file looks them up and holds the value tests they share.
 */
#include <stdbool.h>
#include <string.h>
#include <strings.h>

#include "config/internal.h"

static bool is(const char *v, const char *a)
{
	return !strcasecmp(v, a);
}

/* no, never: the key asks for nothing */
bool when_off(const char *v)
{
	bool b;

	return (cfg_parse_bool(v, &b) && !b) || is(v, "never");
}

bool when_on(const char *v)
{
	bool b;

	return cfg_parse_bool(v, &b) && b;
}

/* libreswan runs no updown for "" and %disabled; no asks for none too */
bool when_updown_off(const char *v)
{
	return !*v || is(v, "%disabled") || when_off(v);
}

bool cfg_updown_off(const char *v)
{
	return when_updown_off(v);
}

bool when_zero(const char *v)
{
	return !strcmp(v, "0");
}

bool when_secret(const char *v)
{
	return is(v, "secret");
}

bool when_none(const char *v)
{
	return is(v, "none");
}

bool when_esp(const char *v)
{
	return is(v, "esp") || is(v, "default");
}

bool when_hold(const char *v)
{
	return is(v, "hold");
}

bool when_not_hold(const char *v)
{
	return !is(v, "hold");
}

/* a shunt that lets the traffic pass, which is what no shunt does */
bool when_pass(const char *v)
{
	return is(v, "passthrough") || is(v, "pass") || is(v, "none");
}

bool when_fallback(const char *v)
{
	return is(v, "fallback");
}

bool when_never(const char *v)
{
	return is(v, "never");
}

/*
 * Every core key's value passes through here (keys_limits.c): a scan of
 * the tables cost a third of a 10,000-conn load. Binary search for the
 * key's first row, then try its rows in order.
 */
static const struct cfg_rule *find(const struct cfg_rule *t, size_t n,
				   const char *key, const char *value)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (strcmp(t[mid].key, key) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (t += lo; t->key && !strcmp(t->key, key); t++)
		if (!t->when || t->when(value))
			return t;
	return NULL;
}

const struct cfg_rule *
cfg_libreswan_rule(const char *key, enum ikb_key_scope scope, const char *value)
{
	if (scope == IKB_KEY_SETUP)
		return find(cfg_setup_rules, cfg_setup_nrules, key, value);
	const struct cfg_rule *r =
		find(cfg_conn_rules, cfg_conn_nrules, key, value);

	if (r)
		return r;
	if (!strncmp(key, "left", 4))
		return find(cfg_end_rules, cfg_end_nrules, key + 4, value);
	if (!strncmp(key, "right", 5))
		return find(cfg_end_rules, cfg_end_nrules, key + 5, value);
	return NULL;
}

bool cfg_libreswan_knows(const char *key, enum ikb_key_scope scope)
{
	/* every key's last row takes any value, "" among them */
	return cfg_libreswan_rule(key, scope, "") != NULL;
}
