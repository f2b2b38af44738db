// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The text of `ikebana status` and `ikebana trafficstatus`, which the
 * daemon writes ({"text": true}), against two real ikebanad on 127.0.0.1
 * (kernel-mem) with one tunnel up: the text names what --json names, the
 * same SA serial and SPIs, so that the two views cannot drift apart.
 */
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>
#include <json-c/json.h>

#include "pair_fx.h"

static struct pair_end west, east;

/* Both daemons, and conn t up (`ikebana up` returns once it is). */
static int setup(void **state)
{
	char *out, *err;

	pair_end_init(&west, "text test");
	pair_end_init(&east, "text test");
	pair_end_conf(&west, "west", "east", east.ike, "");
	pair_end_conf(&east, "east", "west", west.ike, "");
	assert_true(h_start_daemon(&east.p, east.dir, east.run, east.conf));
	assert_true(h_start_daemon(&west.p, west.dir, west.run, west.conf));
	if (h_cli(west.dir, west.run, &out, &err, "up", "t", NULL) != 0)
		fail_msg("ikebana up t: %s%s", out, err);
	free(out);
	free(err);
	return 0;
}

static int teardown(void **state)
{
	pair_end_free(&west);
	pair_end_free(&east);
	return 0;
}

/* West's `ikebana CMD [ARG] --json`, parsed; put it. */
static struct json_object *json_of(const char *cmd, const char *arg)
{
	struct json_object *o;
	char *out, *err;
	int rc = arg ? h_cli(west.dir, west.run, &out, &err, cmd, "--json", arg,
			     NULL) :
		       h_cli(west.dir, west.run, &out, &err, cmd, "--json",
			     NULL);

	if (rc != 0)
		fail_msg("ikebana %s --json: %s%s", cmd, out, err);
	o = json_tokener_parse(out);
	if (!o)
		fail_msg("ikebana %s --json is not JSON: %s", cmd, out);
	free(out);
	free(err);
	return o;
}

/* West's `ikebana CMD [ARG]`, its text, which must end in a newline. */
static char *text_of(const char *cmd, const char *arg)
{
	char *out, *err;
	int rc = arg ? h_cli(west.dir, west.run, &out, &err, cmd, arg, NULL) :
		       h_cli(west.dir, west.run, &out, &err, cmd, NULL);

	if (rc != 0)
		fail_msg("ikebana %s: %s%s", cmd, out, err);
	assert_true(*out && out[strlen(out) - 1] == '\n');
	assert_string_equal(err, "");
	free(err);
	return out;
}

static const char *str_at(struct json_object *o, const char *key)
{
	struct json_object *v;

	if (!json_object_object_get_ex(o, key, &v) || !v)
		fail_msg("no %s in %s", key, json_object_to_json_string(o));
	return json_object_get_string(v);
}

static struct json_object *only(struct json_object *o, const char *key)
{
	struct json_object *a;

	assert_true(json_object_object_get_ex(o, key, &a));
	assert_int_equal(json_object_array_length(a), 1);
	return json_object_array_get_idx(a, 0);
}

static void has(const char *text, const char *what)
{
	if (!strstr(text, what))
		fail_msg("no \"%s\" in:\n%s", what, text);
}

static unsigned lines(const char *text)
{
	unsigned n = 0;

	for (; *text; text++)
		n += *text == '\n';
	return n;
}

/* The one Child SA's line: conn, serial, reqid, both SPIs, the peer. */
static void check_traffic(const char *text, struct json_object *c)
{
	char want[128];

	assert_int_equal(lines(text), 1);
	snprintf(want, sizeof(want), "\"t\" #%s, reqid %s: ESP tunnel ",
		 str_at(c, "ike_serial"), str_at(c, "reqid"));
	if (strncmp(text, want, strlen(want)))
		fail_msg("want \"%s\" first in:\n%s", want, text);
	snprintf(want, sizeof(want), ", in 0x%s ", str_at(c, "spi_in"));
	has(text, want);
	snprintf(want, sizeof(want), ", out 0x%s ", str_at(c, "spi_out"));
	has(text, want);
	has(text, " bytes ");
	has(text, ", id '@east'\n");
}

static void test_trafficstatus_text(void **state)
{
	struct json_object *j = json_of("trafficstatus", NULL);
	struct json_object *c = only(j, "child_sas");
	char *all = text_of("trafficstatus", NULL);
	char *one = text_of("trafficstatus", "t");

	check_traffic(all, c);
	check_traffic(one, c);
	free(all);
	free(one);
	json_object_put(j);
}

static void test_trafficstatus_nosuch(void **state)
{
	char *out, *err;

	assert_int_equal(h_cli(west.dir, west.run, &out, &err, "trafficstatus",
			       "nosuch", NULL),
			 1);
	has(err, "no conn named 'nosuch'");
	assert_string_equal(out, "");
	free(out);
	free(err);
}

static void test_status_text(void **state)
{
	struct json_object *j = json_of("status", NULL);
	struct json_object *sa = only(j, "ike_sas");
	struct json_object *c = only(sa, "child_sas");
	char *text = text_of("status", NULL);
	char want[128];

	snprintf(want, sizeof(want), "\n  t #%s: initiator, ",
		 str_at(sa, "serial"));
	has(text, want);
	snprintf(want, sizeof(want), "    child #%s tunnel ",
		 str_at(c, "reqid"));
	has(text, want);
	snprintf(want, sizeof(want), "      spi in %s out %s, ",
		 str_at(c, "spi_in"), str_at(c, "spi_out"));
	has(text, want);
	has(text, " id @east\n");
	free(text);
	json_object_put(j);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_trafficstatus_text),
		cmocka_unit_test(test_trafficstatus_nosuch),
		cmocka_unit_test(test_status_text),
	};

	return cmocka_run_group_tests_name("daemon-text", tests, setup,
					   teardown);
}
