// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The verdict on every key libreswan knows (keys_setup.c, keys_conn.c,
 * keys_end.c), row by row: each row's example value, alone in a conn or in
 * config setup, draws exactly the message its verdict says (an error, a
 * warning with its reason, or none), with file:line and the key. And every
 * key libreswan knows has a verdict.
 */
#include "helpers.h"
#include "config/internal.h"

/*
 * libreswan 4.x and 5.x's keys (lib/libipsecconf/keywords.c and
 * ipsec.conf(5)), per-end ones without left/right: each must have rows.
 */
// clang-format off
static const char *const lsw_setup[] = {
	"audit-log", "crl-strict", "crlcheckinterval", "curl-iface",
	"curl-timeout", "ddos-ike-threshold", "ddos-mode", "debug",
	"dnssec-anchors", "dnssec-enable", "dnssec-rootkey-file",
	"dnssec-trusted", "drop-oppo-null", "dumpdir", "expire-shunt-interval",
	"force-busy", "fragicmp", "global-redirect", "global-redirect-to",
	"hidetos", "ike-socket-bufsize", "ike-socket-errqueue", "ikebuf",
	"ikeport", "ikev1-policy", "ikev1-secctx-attr-type", "interfaces",
	"ipsec-interface-managed", "ipsecdir", "keep-alive", "klipsdebug",
	"listen", "listen-tcp", "listen-udp", "logappend", "logfile", "logip",
	"logstderr", "logtime", "max-halfopen-ike", "myid", "myvendorid",
	"nat-ikeport", "nat_traversal", "nflog-all", "nhelpers", "nssdir",
	"ocsp-cache-max-age", "ocsp-cache-min-age", "ocsp-cache-size",
	"ocsp-enable", "ocsp-method", "ocsp-strict", "ocsp-timeout",
	"ocsp-trustname", "ocsp-uri", "oe", "overridemtu", "perpeerlog",
	"perpeerlogdir", "plutodebug", "plutofork", "plutorestartoncrash",
	"plutostderrlog", "plutostderrlogtime", "protostack",
	"secctx-attr-type", "seccomp", "secretsfile", "seedbits",
	"shuntlifetime", "statsbin", "strictcrlpolicy", "syslog", "uniqueids",
	"virtual-private", "virtual_private", "xfrmlifetime", NULL,
};
static const char *const lsw_end[] = {
	"", "addresspool", "auth", "autheap", "ca", "cat", "cert", "ckaid",
	"ecdsakey", "groundhog", "id", "ikeport", "interface-ip",
	"modecfgclient", "modecfgserver", "nexthop", "protoport", "pubkey",
	"rsasigkey", "rsasigkey2", "sendcert", "sourceip", "subnet", "subnets",
	"updown", "username", "vti", "xauthclient", "xauthserver",
	"xauthusername", NULL,
};
static const char *const lsw_conn[] = {
	"accept-redirect", "accept-redirect-to", "aggressive", "aggrmode", "ah",
	"also", "authby", "auto", "cisco-unity", "clientaddrfamily", "compress",
	"connaddrfamily", "connalias", "debug", "decap-dscp", "dns-match-id",
	"dpdaction", "dpddelay", "dpdtimeout", "enable-tcp", "encap-dscp",
	"encapsulation", "esn", "esp", "fake-strongswan", "failureshunt",
	"fragmentation", "hostaddrfamily", "ignore-peer-dns", "ike",
	"ikelifetime", "ikepad", "ikev1-dpdtimeout", "ikev2", "initial-contact",
	"intermediate", "ipsec-interface", "ipsec-lifetime", "ipsec-max-bytes",
	"ipsec-max-packets", "iptfs", "iptfs-dont-frag", "iptfs-drop-time",
	"iptfs-init-delay", "iptfs-max-queue-size", "iptfs-packet-size",
	"iptfs-reorder-window", "keyexchange", "keyingtries", "keylife",
	"labeled-ipsec", "lifetime", "mark", "mark-in", "mark-out", "metric",
	"mobike", "modecfgbanner", "modecfgdns", "modecfgdns1", "modecfgdns2",
	"modecfgdomains", "modecfgpull", "ms-dh-downgrade", "mtu", "narrowing",
	"nat-ikev1-method", "nat-keepalive", "negotiationshunt", "nflog",
	"nic-offload", "nm-configured", "nopmtudisc", "overlapip",
	"pam-authorize", "pfs", "pfs-rekey-workaround", "phase2", "phase2alg",
	"plutodebug", "policy-label", "ppk", "ppk-ids", "priority", "reauth",
	"redirect-to", "rekey", "rekeyfuzz", "rekeymargin", "remote-peer-type",
	"remote_peer_type", "replay-window", "reqid",
	"require-id-on-certificate", "retransmit-interval",
	"retransmit-timeout", "salifetime", "sareftrack", "sec-label",
	"send-no-esp-tfc", "send-redirect", "send-supported-auth-methods",
	"send-vendorid", "sendca",
	"session-resumption", "sha2-truncbug", "sha2_truncbug",
	"tcp-remoteport", "tfc", "type", "vti-interface", "vti-routing",
	"vti-shared", "xauthby", "xauthfail", NULL,
};
// clang-format on

struct table {
	const char *name;
	const struct cfg_rule *rows;
	const char *const *keys;
	bool setup, end;
};

static const struct table tables[] = {
	{ "keys_setup.c", cfg_setup_rules, lsw_setup, true, false },
	{ "keys_conn.c", cfg_conn_rules, lsw_conn, false, false },
	{ "keys_end.c", cfg_end_rules, lsw_end, false, true },
};

static unsigned counts[CFG_V_ERROR + 1];

static bool own_all(void *ctx, const char *key, enum ikb_key_scope scope)
{
	return true;
}

/* Parse `text` and run the key and core checks (no plugin, or all). */
static void run(const char *text, bool plugins, struct ikb_diag *d)
{
	struct cfg *c = NULL;

	diag_init(d);
	assert_int_equal(cfg_parse_buffer("t.conf", text, strlen(text), &c, d),
			 0);
	cfg_check_keys(c, plugins ? own_all : NULL, NULL, d);
	cfg_check_core(c, d);
	cfg_free(c);
}

static void conf_for(const struct table *t, const char *key, const char *v,
		     char *buf, size_t len)
{
	if (t->setup) {
		/* the OCSP keys that mean something only with others */
		bool ocsp =
			!strncmp(key, "ocsp-", 5) && strcmp(key, "ocsp-enable");

		snprintf(buf, len, "config setup\n\t%s=\"%s\"\n%s%s%s", key, v,
			 ocsp ? "\tocsp-enable=yes\n" : "",
			 !strcmp(key, "ocsp-uri") ? "\tocsp-trustname=ca\n" :
						    "",
			 !strcmp(key, "ocsp-trustname") ?
				 "\tocsp-uri=http://ocsp.example/\n" :
				 "");
		return;
	}
	/* both ends, so that auto= has what it needs; also= has "other" */
	const char *src = strstr(key, "sourceip");
	char sub[64] = "";

	/* a source address is one of leftsubnet= */
	if (src)
		snprintf(sub, sizeof(sub), "\t%.*ssubnet=%s/32\n",
			 (int)(src - key), key, v);
	/* an interface address goes on the conn's ipsecN */
	if (strstr(key, "interface-ip"))
		snprintf(sub, sizeof(sub), "\tipsec-interface=1\n");
	snprintf(buf, len, "conn t\n\t%s=\"%s\"\n%s%s%sconn other\n", key, v,
		 strcmp(key, "left") ? "\tleft=192.0.2.1\n" : "",
		 strcmp(key, "right") ? "\tright=192.0.2.2\n" : "", sub);
}

static void check_row(const struct table *t, const struct cfg_rule *r,
		      const char *key)
{
	enum ikb_key_scope scope = t->setup ? IKB_KEY_SETUP : IKB_KEY_CONN;
	bool msg = r->verdict == CFG_V_WARN || r->verdict == CFG_V_ERROR;
	char text[512], want[1024], got[2048];
	struct ikb_diag d;

	/* the example reaches this row, not an earlier one of the key */
	if (cfg_libreswan_rule(key, scope, r->eg) != r)
		fail_msg("%s: %s=%s is taken by an earlier row", t->name, key,
			 r->eg);
	conf_for(t, key, r->eg, text, sizeof(text));
	run(text, false, &d);
	if (d.n != (msg ? 1u : 0u)) {
		char *all = diag_text(&d);

		fail_msg("%s: %s=%s: %zu messages, expected %d:\n%s", t->name,
			 key, r->eg, d.n, msg, all);
	}
	if (msg) {
		assert_int_equal(d.msgs[0].sev, r->verdict == CFG_V_ERROR ?
							IKB_SEV_ERROR :
							IKB_SEV_WARNING);
		diag_format(&d, 0, got, sizeof(got));
		snprintf(want, sizeof(want), "t.conf:2: %s: %s%s=%s: ",
			 r->verdict == CFG_V_ERROR ? "error" : "warning",
			 t->setup ? "config setup: " : "conn t: ", key, r->eg);
		if (strncmp(got, want, strlen(want)) || !strstr(got, r->why))
			fail_msg("%s: got \"%s\"; expected \"%s...%s\"",
				 t->name, got, want, r->why);
	}
	diag_free(&d);
	/* a plugin that owns the key silences every verdict */
	if (r->verdict != CFG_V_CORE) {
		run(text, true, &d);
		if (!cfg_core_owns(key, scope))
			assert_int_equal(d.n, 0);
		diag_free(&d);
	}
}

static void test_rows(void **state)
{
	for (size_t i = 0; i < sizeof(tables) / sizeof(tables[0]); i++) {
		const struct table *t = &tables[i];

		for (const struct cfg_rule *r = t->rows; r->key; r++) {
			char key[64];

			/* the lookup binary-searches: sorted by key */
			if (r != t->rows && strcmp(r[-1].key, r->key) > 0)
				fail_msg(
					"%s: %s stands after %s: keep the rows sorted by key",
					t->name, r->key, r[-1].key);
			if (r->verdict == CFG_V_UNSET)
				fail_msg("%s: %s has no verdict", t->name,
					 r->key);
			if ((r->verdict == CFG_V_WARN ||
			     r->verdict == CFG_V_ERROR) &&
			    (!r->why || !*r->why))
				fail_msg("%s: %s has no reason", t->name,
					 r->key);
			assert_non_null(r->eg);
			counts[r->verdict]++;
			for (int end = 0; end < (t->end ? 2 : 1); end++) {
				snprintf(key, sizeof(key), "%s%s",
					 !t->end ? "" :
					 end	 ? "right" :
						   "left",
					 r->key);
				check_row(t, r, key);
			}
		}
	}
	print_message("%u rows: %u implemented, %u harmless values, "
		      "%u warnings, %u errors\n",
		      counts[CFG_V_CORE] + counts[CFG_V_NONE] +
			      counts[CFG_V_WARN] + counts[CFG_V_ERROR],
		      counts[CFG_V_CORE], counts[CFG_V_NONE],
		      counts[CFG_V_WARN], counts[CFG_V_ERROR]);
}

static bool listed(const char *const *keys, const char *key)
{
	for (; *keys; keys++)
		if (!strcmp(*keys, key))
			return true;
	return false;
}

/*
 * Every libreswan key has rows, next to each other, the last one for any
 * value; it is the core's exactly when the core owns the key; and no row
 * names a key libreswan does not know.
 */
static void test_every_key(void **state)
{
	for (size_t i = 0; i < sizeof(tables) / sizeof(tables[0]); i++) {
		const struct table *t = &tables[i];
		enum ikb_key_scope scope =
			t->setup ? IKB_KEY_SETUP : IKB_KEY_CONN;

		for (const char *const *k = t->keys; *k; k++) {
			const struct cfg_rule *first = NULL, *last = NULL;
			char key[64];

			for (const struct cfg_rule *r = t->rows; r->key; r++) {
				if (strcmp(r->key, *k))
					continue;
				if (last && last != r - 1)
					fail_msg("%s: %s: rows apart", t->name,
						 *k);
				first = first ? first : r;
				last = r;
			}
			if (!last)
				fail_msg(
					"%s: libreswan key %s%s has no verdict",
					t->name, t->end ? "left" : "", *k);
			for (const struct cfg_rule *r = first; r < last; r++)
				assert_non_null(r->when);
			if (last->when)
				fail_msg("%s: %s: no row for any value",
					 t->name, *k);
			snprintf(key, sizeof(key), "%s%s", t->end ? "left" : "",
				 *k);
			assert_true(cfg_libreswan_knows(key, scope));
			if ((last->verdict == CFG_V_CORE) !=
			    cfg_core_owns(key, scope))
				fail_msg("%s: %s: the core %s it", t->name, key,
					 cfg_core_owns(key, scope) ?
						 "owns" :
						 "does not own");
		}
		for (const struct cfg_rule *r = t->rows; r->key; r++)
			if (!listed(t->keys, r->key))
				fail_msg("%s: %s is not a libreswan key",
					 t->name, r->key);
	}
	assert_false(cfg_libreswan_knows("bogus", IKB_KEY_CONN));
	assert_false(cfg_libreswan_knows("leftbogus", IKB_KEY_CONN));
	assert_false(cfg_libreswan_knows("bogus", IKB_KEY_SETUP));
}

/* The values singled out by the issue: refused unless they ask for nothing. */
static void test_named(void **state)
{
	static const struct {
		const char *key, *value;
		enum ikb_key_scope scope;
		enum cfg_verdict v;
	} cases[] = {
		{ "ppk", "no", IKB_KEY_CONN, CFG_V_NONE },
		{ "ppk", "never", IKB_KEY_CONN, CFG_V_NONE },
		{ "ppk", "propose", IKB_KEY_CONN, CFG_V_ERROR },
		{ "ppk", "permit", IKB_KEY_CONN, CFG_V_ERROR },
		{ "ipsec-interface", "no", IKB_KEY_CONN, CFG_V_CORE },
		{ "ipsec-interface", "yes", IKB_KEY_CONN, CFG_V_CORE },
		{ "ipsec-interface-managed", "yes", IKB_KEY_SETUP, CFG_V_CORE },
		{ "ipsec-interface-managed", "no", IKB_KEY_SETUP, CFG_V_CORE },
		{ "drop-oppo-null", "yes", IKB_KEY_SETUP, CFG_V_CORE },
		{ "leftupdown", "", IKB_KEY_CONN, CFG_V_CORE },
		{ "rightupdown", "%disabled", IKB_KEY_CONN, CFG_V_CORE },
		{ "leftupdown", "no", IKB_KEY_CONN, CFG_V_CORE },
		{ "leftupdown", "ipsec _updown --route yes", IKB_KEY_CONN,
		  CFG_V_CORE },
		{ "rightauth", "secret", IKB_KEY_CONN, CFG_V_CORE },
		{ "rightauth", "ecdsa", IKB_KEY_CONN, CFG_V_CORE },
		{ "leftsendcert", "never", IKB_KEY_CONN, CFG_V_CORE },
		{ "leftsendcert", "sendifasked", IKB_KEY_CONN, CFG_V_CORE },
		{ "leftcert", "west", IKB_KEY_CONN, CFG_V_CORE },
		{ "rightca", "%same", IKB_KEY_CONN, CFG_V_CORE },
		{ "leftrsasigkey", "0sAwEAAcM", IKB_KEY_CONN, CFG_V_CORE },
		{ "leftpubkey", "0sAwEAAcM", IKB_KEY_CONN, CFG_V_ERROR },
		{ "encap-dscp", "no", IKB_KEY_CONN, CFG_V_ERROR },
		{ "narrowing", "no", IKB_KEY_CONN, CFG_V_ERROR },
		{ "dpdaction", "clear", IKB_KEY_CONN, CFG_V_WARN },
		{ "failureshunt", "reject", IKB_KEY_CONN, CFG_V_CORE },
		{ "failureshunt", "none", IKB_KEY_CONN, CFG_V_CORE },
		{ "negotiationshunt", "hold", IKB_KEY_CONN, CFG_V_CORE },
		{ "auto", "ondemand", IKB_KEY_CONN, CFG_V_CORE },
		{ "shuntlifetime", "1h", IKB_KEY_SETUP, CFG_V_CORE },
		{ "phase2", "ah+esp", IKB_KEY_CONN, CFG_V_ERROR },
		{ "nssdir", "/etc/ipsec.d", IKB_KEY_SETUP, CFG_V_CORE },
		{ "ocsp-enable", "yes", IKB_KEY_SETUP, CFG_V_CORE },
		{ "ocsp-enable", "no", IKB_KEY_SETUP, CFG_V_CORE },
		{ "crl-strict", "yes", IKB_KEY_SETUP, CFG_V_CORE },
		{ "strictcrlpolicy", "yes", IKB_KEY_SETUP, CFG_V_CORE },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const struct cfg_rule *r = cfg_libreswan_rule(
			cases[i].key, cases[i].scope, cases[i].value);

		assert_non_null(r);
		if (r->verdict != cases[i].v)
			fail_msg("%s=%s: verdict %d, expected %d", cases[i].key,
				 cases[i].value, r->verdict, cases[i].v);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rows),
		cmocka_unit_test(test_every_key),
		cmocka_unit_test(test_named),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
