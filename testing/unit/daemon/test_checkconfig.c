// SPDX-License-Identifier: GPL-2.0-or-later
/* `ikebana checkconfig` without a daemon: exit codes and output. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <sys/stat.h>
#include <json-c/json.h>

#include "harness.h"

static const char good[] = "config setup\n"
			   "\tplugins=kernel-mem\n"
			   "conn west-east\n"
			   "\tleft=192.0.2.1\n"
			   "\tright=192.0.2.2\n"
			   "\tauthby=secret\n"
			   "\tauto=start\n";

/* Two errors, lines 5 and 7: both must be reported in one run. */
static const char bad[] = "config setup\n"
			  "\tplugins=kernel-mem\n"
			  "conn west-east\n"
			  "\tleft=192.0.2.1\n"
			  "\tright=192.0.2.300\n"
			  "\tauthby=secret\n"
			  "\tfrobnicate=yes\n";

static int checkconfig(const char *dir, char **out, char **err, ...)
{
	char *argv[12] = { (char *)h_env("IKEBANA"), "checkconfig" };
	size_t n = 2;
	va_list ap;

	va_start(ap, err);
	while (n < 11 && (argv[n] = va_arg(ap, char *)))
		n++;
	va_end(ap);
	argv[n] = NULL;
	return h_run(dir, out, err, argv);
}

static void test_good(void **state)
{
	char *dir = h_tmpdir(), *conf = h_write(dir, "good.conf", 0644, good);
	char *out, *err;
	struct json_object *j;

	if (checkconfig(dir, &out, &err, conf, NULL) != 0)
		fail_msg("good file refused: %s", err);
	assert_non_null(strstr(out, "west-east"));
	free(out);
	free(err);

	assert_int_equal(checkconfig(dir, &out, &err, "--json", conf, NULL), 0);
	j = json_tokener_parse(out);
	if (!j)
		fail_msg("--json printed no JSON: %s", out);
	assert_non_null(strstr(out, "west-east"));
	json_object_put(j);
	free(out);
	free(err);
	h_rmrf(dir);
	free(conf);
	free(dir);
}

/* An opportunistic group's networks are shown, text and JSON. */
static void test_groups(void **state)
{
	static const char oe[] = "config setup\n"
				 "\tplugins=kernel-mem\n"
				 "conn private\n"
				 "\tleft=192.0.2.1\n"
				 "\tright=%opportunisticgroup\n"
				 "\tauthby=null\n"
				 "\tleftid=%null\n"
				 "\trightid=%null\n"
				 "\tauto=ondemand\n";
	char *dir = h_tmpdir(), *conf, *pol, *out, *err;
	struct json_object *j, *g;

	conf = h_write(dir, "ikebana.conf", 0644, oe);
	assert_int_equal(asprintf(&pol, "%s/ipsec.d", dir) > 0, 1);
	assert_int_equal(mkdir(pol, 0700), 0);
	free(pol);
	assert_int_equal(asprintf(&pol, "%s/ipsec.d/policies", dir) > 0, 1);
	assert_int_equal(mkdir(pol, 0700), 0);
	free(pol);
	pol = h_write(dir, "ipsec.d/policies/private", 0644,
		      "# two\n192.0.2.0/24\n10.0.0.1\n");
	if (checkconfig(dir, &out, &err, conf, NULL) != 0)
		fail_msg("refused: %s", err);
	assert_non_null(strstr(out, "# policy group private: "));
	assert_non_null(strstr(out, "#\t192.0.2.0/24\t(line 2)"));
	assert_non_null(strstr(out, "#\t10.0.0.1/32\t(line 3)"));
	free(out);
	free(err);
	assert_int_equal(checkconfig(dir, &out, &err, "--json", conf, NULL), 0);
	j = json_tokener_parse(out);
	assert_non_null(j);
	assert_true(json_object_object_get_ex(j, "groups", &g));
	assert_int_equal(json_object_array_length(g), 1);
	g = json_object_array_get_idx(g, 0);
	assert_true(json_object_object_get_ex(g, "networks", &g));
	assert_string_equal(
		json_object_get_string(json_object_array_get_idx(g, 1)),
		"10.0.0.1/32");
	json_object_put(j);
	free(out);
	free(err);
	h_rmrf(dir);
	free(pol);
	free(conf);
	free(dir);
}

static void test_bad(void **state)
{
	char *dir = h_tmpdir(), *conf = h_write(dir, "bad.conf", 0644, bad);
	char *out, *err, want[512];

	assert_int_equal(checkconfig(dir, &out, &err, conf, NULL), 1);
	snprintf(want, sizeof(want), "%s:5: error:", conf);
	if (!strstr(err, want))
		fail_msg("no '%s' in: %s", want, err);
	snprintf(want, sizeof(want), "%s:7: error:", conf);
	if (!strstr(err, want))
		fail_msg("no '%s' in: %s", want, err);
	assert_string_equal(out, "");
	free(out);
	free(err);
	h_rmrf(dir);
	free(conf);
	free(dir);
}

static void test_missing_and_usage(void **state)
{
	char *dir = h_tmpdir(), *out, *err;

	assert_int_equal(
		checkconfig(dir, &out, &err, "/nonexistent/x.conf", NULL), 1);
	assert_non_null(strstr(err, "/nonexistent/x.conf"));
	free(out);
	free(err);
	assert_int_equal(checkconfig(dir, &out, &err, NULL), 2);
	assert_non_null(strstr(err, "Usage"));
	free(out);
	free(err);
	h_rmrf(dir);
	free(dir);
}

/* A secrets file that others can read is refused, as the daemon would. */
static void test_secrets_mode(void **state)
{
	char *dir = h_tmpdir(), *conf = h_write(dir, "good.conf", 0644, good);
	char *sec = h_write(dir, "loose.secrets", 0644,
			    "192.0.2.1 192.0.2.2 : PSK \"x\"\n");
	char *out, *err;

	assert_int_equal(
		checkconfig(dir, &out, &err, "--secrets", sec, conf, NULL), 1);
	assert_non_null(strstr(err, sec));
	free(out);
	free(err);
	h_rmrf(dir);
	free(conf);
	free(sec);
	free(dir);
}

/*
 * 2,000 conns that share a %default with a long value and a 20-deep also=
 * chain (issue 19: a 1.9 MB file gave 13 GB, every conn repeating every
 * inherited value). The output must grow with the file, not with conns
 * times what they inherit: under 20 times the input, each inherited value
 * printed once, where it is written. --conn NAME still expands one conn.
 */
#define BIG_CONNS 2000
#define BIG_CHAIN 20
#define BIG_ID 4000

static char *big_conf(size_t *len)
{
	char *buf = NULL;
	FILE *f = open_memstream(&buf, len);

	assert_non_null(f);
	fprintf(f, "config setup\n\tplugins=kernel-mem\n"
		   "conn %%default\n\tauthby=secret\n\tikelifetime=8h\n"
		   "\tleftid=@");
	for (int i = 0; i < BIG_ID; i++)
		fputc('a' + i % 26, f);
	fprintf(f, "\n\tauto=add\n");
	fprintf(f, "conn base0\n\tleft=192.0.2.1\n\tleftsubnet=10.0.0.0/16\n"
		   "\tauto=ignore\n");
	for (int i = 1; i < BIG_CHAIN; i++)
		fprintf(f, "conn base%d\n\talso=base%d\n", i, i - 1);
	for (int i = 0; i < BIG_CONNS; i++)
		fprintf(f,
			"conn c%d\n\talso=base%d\n\tright=198.51.%d.%d\n"
			"\tauto=add\n",
			i, BIG_CHAIN - 1, i / 250, i % 250 + 1);
	fclose(f);
	return buf;
}

static size_t count(const char *hay, const char *needle)
{
	size_t n = 0;

	for (const char *p = hay; (p = strstr(p, needle)); p++)
		n++;
	return n;
}

static void test_output_linear(void **state)
{
	size_t len;
	char *text = big_conf(&len), *dir = h_tmpdir();
	char *conf = h_write(dir, "big.conf", 0644, text);
	char *out, *err, *json;

	if (checkconfig(dir, &out, &err, conf, NULL) != 0)
		fail_msg("big file refused: %s", err);
	if (strlen(out) >= 20 * len)
		fail_msg("%zu bytes of output for a %zu-byte file", strlen(out),
			 len);
	assert_int_equal(count(out, "@abcdefghij"), 1);
	assert_int_equal(count(out, "\nconn c1999\t"), 1);
	free(err);

	assert_int_equal(checkconfig(dir, &json, &err, "--json", conf, NULL),
			 0);
	if (strlen(json) >= 20 * len)
		fail_msg("%zu bytes of JSON for a %zu-byte file", strlen(json),
			 len);
	assert_int_equal(count(json, "@abcdefghij"), 1);
	json_object_put(json_tokener_parse(json));
	free(json);
	free(err);
	free(out);

	/* one conn, with everything it inherits and where it comes from */
	assert_int_equal(
		checkconfig(dir, &out, &err, "--conn", "c7", conf, NULL), 0);
	assert_int_equal(count(out, "@abcdefghij"), 1);
	assert_non_null(strstr(out, "\tleftsubnet=10.0.0.0/16\t# "));
	assert_non_null(strstr(out, "\tright=198.51.0.8\t# "));
	assert_null(strstr(out, "c8"));
	free(out);
	free(err);
	h_rmrf(dir);
	free(conf);
	free(dir);
	free(text);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_good),
		cmocka_unit_test(test_bad),
		cmocka_unit_test(test_groups),
		cmocka_unit_test(test_missing_and_usage),
		cmocka_unit_test(test_secrets_mode),
		cmocka_unit_test(test_output_linear),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
