// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * config setup: one meaning per key. Every core key of the setup table,
 * with each spelling its check accepts, must become the same typed value
 * in cfg->set (what the daemon and the engine read) and in checkconfig
 * --json's setup_values; and nothing outside daemon/config/ may read a
 * setup key's string (the source is searched).
 */
#include <dirent.h>
#include <json-c/json.h>

#include "helpers.h"

struct spelling {
	const char *key, *text;
	const char *want; /* the typed value as JSON text */
};

static const struct spelling spellings[] = {
	{ "fips", "yes", "true" },
	{ "fips", "on", "true" },
	{ "fips", "y", "true" },
	{ "fips", "TRUE", "true" },
	{ "fips", "On", "true" },
	{ "fips", "no", "false" },
	{ "fips", "off", "false" },
	{ "fips", "n", "false" },
	{ "fips", "False", "false" },
	{ "uniqueids", "off", "false" },
	{ "uniqueids", "y", "true" },
	{ "drop-oppo-null", "on", "true" },
	{ "drop-oppo-null", "n", "false" },
	{ "ipsec-interface-managed", "off", "false" },
	{ "ipsec-interface-managed", "true", "true" },
	{ "crl-strict", "on", "true" },
	{ "crl-strict", "no", "false" },
	{ "strictcrlpolicy", "y", "true" },
	{ "ocsp-enable", "on", "true" },
	{ "ocsp-enable", "false", "false" },
	{ "ocsp-strict", "Y", "true" },
	{ "ocsp-strict", "off", "false" },
	{ "nhelpers", "-1", "-1" },
	{ "nhelpers", "0", "0" },
	{ "nhelpers", "4", "4" },
	{ "ddos-ike-threshold", "0", "0" },
	{ "ddos-ike-threshold", "25000", "25000" },
	{ "max-halfopen-ike", "4294967295", "4294967295" },
	{ "ddos-mode", "auto", "\"auto\"" },
	{ "ddos-mode", "BUSY", "\"busy\"" },
	{ "ddos-mode", "Unlimited", "\"unlimited\"" },
	{ "shuntlifetime", "90", "90000" },
	{ "shuntlifetime", "2m", "120000" },
	{ "shuntlifetime", "1.5h", "5400000" },
	{ "shuntlifetime", "1d", "86400000" },
	{ "shuntlifetime", "500ms", "500" },
	{ "keep-alive", "0", "0" },
	{ "keep-alive", "30", "30000" },
	{ "keep-alive", "1m", "60000" },
	{ "ikeport", "4501", "4501" },
	{ "nat-ikeport", "65535", "65535" },
	{ "ike-fragment-size", "576", "576" },
	{ "ike-fragment-size", "1280", "1280" },
	{ "ocsp-timeout", "5", "5000" },
	{ "ocsp-timeout", "2m", "120000" },
	{ "ocsp-timeout", "1500ms", "1000" },
	{ "ocsp-method", "get", "\"get\"" },
	{ "ocsp-method", "POST", "\"post\"" },
	{ "ocsp-cache-size", "0", "0" },
	{ "ocsp-cache-min-age", "1h", "3600000" },
	{ "ocsp-cache-max-age", "2d", "172800000" },
	{ "metrics-interval", "1", "1000" },
	{ "metrics-interval", "1m", "60000" },
	{ "metrics-interval", "2d", "86400000" },
	{ "plutodebug", "all", "\"debug\"" },
	{ "plutodebug", "none", "\"none\"" },
	{ "plutodebug", "private", "\"private\"" },
	{ "plutodebug", "\"base, private\"", "\"private\"" },
	{ "plugins", "esp-proposals", "\"esp-proposals\"" },
	{ "ipsecdir", "/etc/ipsec.d", "\"\\/etc\\/ipsec.d\"" },
	{ "listen", "192.0.2.1", "\"192.0.2.1\"" },
	{ "logfile", "/var/log/ikebana.log", "\"\\/var\\/log\\/ikebana.log\"" },
	{ "plutostderrlog", "/var/log/p.log", "\"\\/var\\/log\\/p.log\"" },
	{ "nssdir", "/var/lib/ipsec/nss", "\"\\/var\\/lib\\/ipsec\\/nss\"" },
	/* the pair: one without the other is an error (values_ocsp.c) */
	{ "ocsp-uri", "http://ocsp.example/\n\tocsp-trustname=s",
	  "\"http:\\/\\/ocsp.example\\/\"" },
	{ "ocsp-trustname", "\"ocsp signer\"\n\tocsp-uri=http://o/",
	  "\"ocsp signer\"" },
	{ "metrics-file", "/run/m.prom", "\"\\/run\\/m.prom\"" },
};

#define NSPELLINGS (sizeof(spellings) / sizeof(spellings[0]))

/* The canonical name the field is shown under (aliases share it). */
static const char *shown_as(const char *key)
{
	if (!strcmp(key, "strictcrlpolicy"))
		return "crl-strict";
	if (!strcmp(key, "plutostderrlog"))
		return "logfile";
	return key;
}

/* ocsp-*= need ocsp-enable=yes, which warns without; no error either way */
static char *conf_with(const struct spelling *sp)
{
	char *text = NULL;

	assert_true(asprintf(&text, "config setup\n\t%s=%s\n", sp->key,
			     sp->text) > 0);
	return text;
}

static void check_one(const struct spelling *sp)
{
	char *text = conf_with(sp);
	struct ikb_diag d;
	struct cfg *c = NULL;
	struct json_object *typed, *root, *shown;
	const char *key = shown_as(sp->key);

	diag_init(&d);
	assert_int_equal(cfg_parse_buffer("t.conf", text, strlen(text), &c, &d),
			 0);
	/* the load check accepts the spelling ... */
	assert_int_equal(cfg_check_core(c, &d), 0);
	/* ... cfg->set, the daemon's and the engine's value, means it ... */
	typed = cfg_setup_to_json(&c->set);
	print_message(
		"%s=%s -> %s\n", sp->key, sp->text,
		json_object_to_json_string(json_object_object_get(typed, key)));
	assert_string_equal(
		json_object_to_json_string(json_object_object_get(typed, key)),
		sp->want);
	/* ... and checkconfig --json shows the same */
	root = cfg_to_json(c, 0);
	assert_true(json_object_object_get_ex(root, "setup_values", &shown));
	assert_string_equal(
		json_object_to_json_string(json_object_object_get(shown, key)),
		sp->want);
	json_object_put(root);
	json_object_put(typed);
	cfg_free(c);
	diag_free(&d);
	free(text);
}

static void test_spellings(void **state)
{
	for (size_t i = 0; i < NSPELLINGS; i++)
		check_one(&spellings[i]);
}

/* A key added to the table without spellings here fails. */
static void test_every_key_walked(void **state)
{
	for (size_t i = 0; cfg_setup_key(i); i++) {
		const char *key = cfg_setup_key(i);
		size_t n = 0;

		for (size_t j = 0; j < NSPELLINGS; j++)
			n += !strcmp(spellings[j].key, key);
		if (!n)
			fail_msg("config setup's %s= has no spelling here",
				 key);
	}
}

/* fips=on used to start NSS without FIPS mode: the daemon's own field. */
static void test_fips_on(void **state)
{
	static const char *const on[] = { "on", "y", "yes", "true", "ON" };

	for (size_t i = 0; i < sizeof(on) / sizeof(on[0]); i++) {
		char text[64];
		struct cfg *c;

		snprintf(text, sizeof(text), "config setup\n\tfips=%s\n",
			 on[i]);
		c = parse_expect(text, "");
		assert_true(c->set.fips);
		cfg_free(c);
	}
}

/* Unset keys hold libreswan's defaults, as the daemon always had them. */
static void test_defaults(void **state)
{
	struct cfg *c = parse_expect("config setup\n", "");

	assert_false(c->set.fips);
	assert_int_equal(c->set.nhelpers, -1);
	assert_int_equal(c->set.ikeport, 500);
	assert_int_equal(c->set.nat_ikeport, 4500);
	assert_int_equal(c->set.ddos_mode, CFG_DDOS_AUTO);
	assert_int_equal(c->set.ddos_ike_threshold, 100);
	assert_int_equal(c->set.max_halfopen_ike, 50000);
	assert_int_equal(c->set.keep_alive_ms, 20000);
	assert_int_equal(c->set.shuntlifetime_ms, 900000);
	assert_true(c->set.uniqueids);
	assert_true(c->set.ipsec_interface_managed);
	assert_false(c->set.drop_oppo_null);
	assert_int_equal(c->set.ocsp_timeout_s, 2);
	assert_int_equal(c->set.metrics_interval_s, 15);
	assert_null(c->set.listen);
	assert_null(c->set.logfile);
	cfg_free(c);
}

/* A refused value leaves the default, and the check names it. */
static void test_refused_keeps_default(void **state)
{
	struct ikb_diag d;
	struct cfg *c = NULL;
	static const char text[] = "config setup\n\tfips=maybe\n\tikeport=0\n";

	diag_init(&d);
	cfg_parse_buffer("t.conf", text, strlen(text), &c, &d);
	assert_false(c->set.fips);
	assert_int_equal(c->set.ikeport, 500);
	assert_int_equal(cfg_check_core(c, &d), -1);
	char *got = diag_text(&d);

	assert_non_null(
		strstr(got, "t.conf:2: error: config setup: fips=maybe"));
	assert_non_null(
		strstr(got, "t.conf:3: error: config setup: ikeport=0"));
	free(got);
	cfg_free(c);
	diag_free(&d);
}

/*
 * No file outside daemon/config/ reads config setup through cfg_get():
 * the typed struct is the only way in. IKB_SRC is the source tree.
 */
static void scan(const char *dir, int *found)
{
	DIR *dp = opendir(dir);
	struct dirent *e;
	char path[4096], line[1024];

	assert_non_null(dp);
	while ((e = readdir(dp))) {
		size_t n = strlen(e->d_name);
		FILE *f;

		if (e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		if (e->d_type == DT_DIR) {
			if (strcmp(e->d_name, "config"))
				scan(path, found);
			continue;
		}
		if (n < 2 || strcmp(e->d_name + n - 2, ".c"))
			continue;
		assert_non_null(f = fopen(path, "re"));
		for (unsigned ln = 1; fgets(line, sizeof(line), f); ln++)
			if (strstr(line, "cfg_get(") && strstr(line, "setup")) {
				print_error("%s:%u: %s", path, ln, line);
				(*found)++;
			}
		fclose(f);
	}
	closedir(dp);
}

static void test_no_setup_strings(void **state)
{
	const char *src = getenv("IKB_SRC");
	char daemon[4096];
	int found = 0;

	assert_non_null(src);
	snprintf(daemon, sizeof(daemon), "%s/daemon", src);
	scan(daemon, &found);
	assert_int_equal(found, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_spellings),
		cmocka_unit_test(test_every_key_walked),
		cmocka_unit_test(test_fips_on),
		cmocka_unit_test(test_defaults),
		cmocka_unit_test(test_refused_keeps_default),
		cmocka_unit_test(test_no_setup_strings),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
