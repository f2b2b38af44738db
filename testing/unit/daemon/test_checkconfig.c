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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_good),
		cmocka_unit_test(test_bad),
		cmocka_unit_test(test_groups),
		cmocka_unit_test(test_missing_and_usage),
		cmocka_unit_test(test_secrets_mode),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
