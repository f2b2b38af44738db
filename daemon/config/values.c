// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Checks of single values: words, switches and numbers here; addresses in
 * values_addr.c, ports in values_port.c, durations in values_time.c. Each
 * returns false and says what it expected in `why`; the caller adds
 * "conn NAME: KEY=VALUE: " and file:line.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "config/internal.h"
#include "config/values.h"

bool values_one_of(const char *v, const char *const *names)
{
	for (; *names; names++)
		if (!strcasecmp(v, *names))
			return true;
	return false;
}

bool values_number(const char *s, unsigned long max, unsigned long *out)
{
	char *end;

	if (!isdigit((unsigned char)s[0]))
		return false;
	errno = 0;
	*out = strtoul(s, &end, 10);
	return !*end && !errno && *out <= max;
}

/* libreswan's authby= words ikebana implements (conn_auth.c reads them). */
static const char *const authby_done[] = { "secret",
					   "rsasig",
					   "rsa",
					   "ecdsa",
					   "rsa-sha1",
					   "rsa-sha2",
					   "rsa-sha2_256",
					   "rsa-sha2_384",
					   "rsa-sha2_512",
					   "ecdsa-sha2",
					   "ecdsa-sha2_256",
					   "ecdsa-sha2_384",
					   "ecdsa-sha2_512",
					   "null",
					   "never",
					   NULL };

bool check_authby(const char *v, char *why, size_t len)
{
	static const char *const later[] = { "eaponly", "secret|rsasig",
					     "rsasig|secret", NULL };
	char *copy = strdup(v), *save, *t;
	bool ok = true, any = false;

	if (!copy)
		abort();
	for (t = strtok_r(copy, ", ", &save); t && ok;
	     t = strtok_r(NULL, ", ", &save)) {
		any = true;
		if (values_one_of(t, authby_done))
			continue;
		ok = false;
		if (values_one_of(t, later))
			snprintf(
				why, len,
				"%s is not implemented by ikebana yet: use secret, rsasig, ecdsa or null",
				t);
		else
			snprintf(
				why, len,
				"unknown method \"%s\": expected secret, rsasig, ecdsa, null, rsa-sha1, rsa-sha2[_256|_384|_512] or ecdsa-sha2[_256|_384|_512]",
				t);
	}
	free(copy);
	if (ok && !any)
		FAIL("expected secret, rsasig, ecdsa or null");
	return ok;
}

/* leftauth=, rightauth=: one method for that end. */
bool check_end_auth(const char *v, char *why, size_t len)
{
	static const char *const ok[] = { "secret", "rsasig", "rsa",
					  "ecdsa",  "null",   NULL };

	if (values_one_of(v, ok))
		return true;
	if (!strcmp(v, "eaponly"))
		FAIL("not implemented by ikebana yet: use secret, rsasig, ecdsa or null");
	FAIL("expected secret, rsasig, ecdsa or null");
}

bool check_sendcert(const char *v, char *why, size_t len)
{
	static const char *const ok[] = { "always",  "yes",   "sendifasked",
					  "ifasked", "never", "no",
					  NULL };

	if (values_one_of(v, ok))
		return true;
	FAIL("expected always, sendifasked or never");
}

static bool base64_text(const char *s)
{
	size_t n = 0;

	for (; *s; s++, n++)
		if (!isalnum((unsigned char)*s) && *s != '+' && *s != '/' &&
		    *s != '=')
			return false;
	return n > 0;
}

/* leftrsasigkey=: %cert, or libreswan's 0s + base64 (decoded at compile). */
bool check_rsasigkey(const char *v, char *why, size_t len)
{
	if (!strcmp(v, "%cert"))
		return true;
	if (v[0] == '0' && v[1] == 's' && base64_text(v + 2))
		return true;
	if (v[0] == '0' && v[1] == 'x')
		FAIL("hex keys (0x...) are not implemented by ikebana: write the key as 0s + base64, as ipsec showhostkey prints it");
	FAIL("expected %%cert or an RSA key as 0s + base64 (RFC 3110), as ipsec showhostkey prints it");
}

/* leftckaid=: the private key's CKA_ID, hex. */
bool check_ckaid(const char *v, char *why, size_t len)
{
	size_t n = strlen(v);

	if (n && n % 2 == 0 && n <= 128 &&
	    strspn(v, "0123456789abcdefABCDEF") == n)
		return true;
	FAIL("expected the key's CKA_ID in hex (certutil -K lists them)");
}

/* leftca=, rightca=: %same, %any or a DN (parsed when the conn compiles). */
bool check_ca(const char *v, char *why, size_t len)
{
	if (!strcmp(v, "%same") || !strcmp(v, "%any"))
		return true;
	if (strchr(v, '=') && isalpha((unsigned char)v[0]))
		return true;
	FAIL("expected %%same, %%any or a DN like \"C=CH, O=Example, CN=Example CA\"");
}

bool check_auto(const char *v, char *why, size_t len)
{
	static const char *const ok[] = { "add",   "start",  "ondemand",
					  "route", "ignore", "keep",
					  "up",	   NULL };

	if (values_one_of(v, ok))
		return true;
	FAIL("expected one of add, start, ondemand, route, ignore, keep");
}

bool check_type(const char *v, char *why, size_t len)
{
	static const char *const ok[] = { "tunnel", "transport", "passthrough",
					  "pass",   "drop",	 "reject",
					  NULL };

	if (values_one_of(v, ok))
		return true;
	FAIL("expected tunnel, transport, passthrough, drop or reject");
}

bool check_negotiationshunt(const char *v, char *why, size_t len)
{
	/* libreswan 5.4: drop, its default, and hold, drop's alias */
	static const char *const ok[] = { "drop",	 "hold", "passthrough",
					  "pass", NULL };

	if (values_one_of(v, ok))
		return true;
	FAIL("expected drop (hold), or passthrough");
}

bool check_failureshunt(const char *v, char *why, size_t len)
{
	static const char *const ok[] = { "none", "passthrough", "pass",
					  "drop", "reject",	 "hold",
					  NULL };

	if (values_one_of(v, ok))
		return true;
	FAIL("expected none, passthrough, drop, reject or hold (as drop)");
}

bool cfg_parse_bool(const char *s, bool *out)
{
	static const char *const yes[] = { "yes", "true", "on", "y", NULL };
	static const char *const no[] = { "no", "false", "off", "n", NULL };

	if (values_one_of(s, yes))
		return *out = true, true;
	if (values_one_of(s, no))
		return *out = false, true;
	return false;
}

bool check_bool(const char *v, char *why, size_t len)
{
	bool b;

	if (cfg_parse_bool(v, &b))
		return true;
	FAIL("expected yes or no");
}

bool ikev2_is_permit(const char *v)
{
	return !strcasecmp(v, "permit");
}

bool check_ikev2(const char *v, char *why, size_t len)
{
	static const char *const yes[] = { "insist", "propose", "permit",
					   "always", NULL };
	bool b;

	if (values_one_of(v, yes) || (cfg_parse_bool(v, &b) && b))
		return true;
	if (!strcasecmp(v, "never") || cfg_parse_bool(v, &b))
		FAIL("ikebana speaks IKEv2 only");
	FAIL("expected yes (ikebana speaks IKEv2 only)");
}

bool check_keyexchange(const char *v, char *why, size_t len)
{
	if (!strcasecmp(v, "ike") || !strcasecmp(v, "ikev2"))
		return true;
	if (!strcasecmp(v, "ikev1"))
		FAIL("ikebana speaks IKEv2 only");
	FAIL("expected ike or ikev2");
}

bool check_percent(const char *v, char *why, size_t len)
{
	char *end;

	errno = 0;
	unsigned long n = strtoul(v, &end, 10);

	if (isdigit((unsigned char)v[0]) && !errno &&
	    (!*end || !strcmp(end, "%")) && n <= 1000)
		return true;
	FAIL("expected a percentage, e.g. 100%%");
}

bool check_keyingtries(const char *v, char *why, size_t len)
{
	unsigned long n;

	if (!strcmp(v, "%forever") || values_number(v, 1000000, &n))
		return true;
	FAIL("expected a number of tries (0 or %%forever: no limit)");
}

/* priority=: the kernel's policy priority, 0 (ikebana's own) to 2^32-1 */
bool check_priority(const char *v, char *why, size_t len)
{
	unsigned long n;

	if (values_number(v, 0xffffffffUL, &n))
		return true;
	FAIL("expected a policy priority 0..4294967295 (lower wins; 0: ikebana's own, by selector)");
}

/*
 * dpdaction=: hold keeps the conn's trap once a dead peer's SAs are gone
 * (the engine routes the conn if it was not), so that its traffic waits
 * for new SAs; restart and clear: keys_conn.c's warning.
 */
bool check_dpdaction(const char *v, char *why, size_t len)
{
	if (!strcasecmp(v, "hold") || !strcasecmp(v, "restart") ||
	    !strcasecmp(v, "clear"))
		return true;
	FAIL("expected hold, restart or clear");
}

bool check_encapsulation(const char *v, char *why, size_t len)
{
	bool b;

	if (!strcasecmp(v, "auto") || cfg_parse_bool(v, &b))
		return true;
	FAIL("expected yes, no or auto");
}

/* ike-fragment-size=: IPv4's minimum path is 576 octets, UDP's 65535. */
bool check_fragment_size(const char *v, char *why, size_t len)
{
	unsigned long n;

	if (values_number(v, 65535, &n) && n >= 576)
		return true;
	FAIL("expected the size of an IP datagram, 576 to 65535 octets");
}

bool check_fragmentation(const char *v, char *why, size_t len)
{
	bool b;

	if (!strcasecmp(v, "force") || !strcasecmp(v, "insist") ||
	    !strcasecmp(v, "never") || cfg_parse_bool(v, &b))
		return true;
	FAIL("expected yes, no or force");
}

static bool u32(const char *s, unsigned long long *out)
{
	char *end;

	if (!isdigit((unsigned char)s[0]))
		return false;
	errno = 0;
	*out = strtoull(s, &end, 0);
	return !*end && !errno && *out <= 0xffffffffULL;
}

bool check_mark(const char *v, char *why, size_t len)
{
	char val[32];
	const char *slash = strchr(v, '/');
	size_t n = slash ? (size_t)(slash - v) : strlen(v);
	unsigned long long x;

	if (n == 0 || n >= sizeof(val))
		FAIL("expected VALUE[/MASK], 32-bit numbers in decimal or 0x hex (VALUE -1: a unique mark per SA)");
	memcpy(val, v, n);
	val[n] = '\0';
	if (strcmp(val, "-1") && !u32(val, &x))
		FAIL("expected VALUE[/MASK], 32-bit numbers in decimal or 0x hex (VALUE -1: a unique mark per SA)");
	if (slash && !u32(slash + 1, &x))
		FAIL("expected a 32-bit MASK in decimal or 0x hex after /");
	return true;
}

/*
 * ipsec-interface=yes|no|N, as libreswan: yes is 1, N a decimal below
 * 2^32 - 1 (0 is ipsec0, whose if_id the engine maps, the kernel refusing
 * if_id 0). Digits are a number here, never a switch.
 */
bool check_ipsec_interface(const char *v, char *why, size_t len)
{
	unsigned long n;
	bool b;

	if (!isdigit((unsigned char)v[0]) && cfg_parse_bool(v, &b))
		return true;
	if (values_number(v, 0xfffffffeUL, &n))
		return true;
	FAIL("expected yes, no or an interface number 0..4294967294 (N: the XFRM interface ipsecN)");
}

bool check_plugins(const char *v, char *why, size_t len)
{
	bool any = false;

	for (const char *p = v; *p; p++) {
		unsigned char c = *p;

		if (c == ' ' || c == ',' || c == '\t')
			continue;
		if (!islower(c) && !isdigit(c) && c != '-' && c != '_')
			FAIL("expected plugin names (lower-case letters, digits, '-') separated by spaces or commas");
		any = true;
	}
	if (!any)
		FAIL("expected at least one plugin name");
	return true;
}

bool check_nhelpers(const char *v, char *why, size_t len)
{
	unsigned long n;

	if (!strcmp(v, "-1") || values_number(v, 4096, &n))
		return true;
	FAIL("expected a number of helper threads 0..4096, or -1 for one per CPU less one");
}

bool check_unsigned(const char *v, char *why, size_t len)
{
	unsigned long n;

	if (values_number(v, 0xffffffffUL, &n))
		return true;
	FAIL("expected a whole number");
}

bool check_ddos_mode(const char *v, char *why, size_t len)
{
	static const char *const ok[] = { "auto", "busy", "unlimited", NULL };

	if (values_one_of(v, ok))
		return true;
	FAIL("expected one of auto, busy, unlimited");
}

bool check_nonempty(const char *v, char *why, size_t len)
{
	if (*v)
		return true;
	FAIL("expected a value");
}

/* The daemon writes PATH.tmp beside it and renames: a file, not a dir. */
bool check_metrics_file(const char *v, char *why, size_t len)
{
	if (v[0] != '/')
		FAIL("expected an absolute path (a detached daemon runs in /)");
	if (v[strlen(v) - 1] == '/')
		FAIL("expected the path of a file, not of a directory (e.g. /var/lib/prometheus/node-exporter/ikebana.prom)");
	return true;
}

bool check_any(const char *v, char *why, size_t len)
{
	return true;
}
