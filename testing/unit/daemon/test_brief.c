// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * {"brief": true}, what `ikebana status` and `ikebana trafficstatus` ask
 * for their text, against two real ikebanad on 127.0.0.1 (kernel-mem)
 * with one tunnel up: the brief answer is the full one without only the
 * members the text never prints (a null reads as absent to it), and it
 * keeps every member the text does print.
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

#include "control/client.h"
#include "pair_fx.h"

static struct pair_end west, east;

/* Both daemons, and conn t up (`ikebana up` returns once it is). */
static int setup(void **state)
{
	char *out, *err;

	pair_end_init(&west, "brief test");
	pair_end_init(&east, "brief test");
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

/* West's answer's data to {"cmd": cmd, "brief": brief}; put it. */
static struct json_object *ask(const char *cmd, bool brief)
{
	struct json_object *req = json_object_new_object(), *resp, *data;
	const char *why = "";
	int fd = ctl_connect(west.run);

	assert_true(fd >= 0);
	json_object_object_add(req, "cmd", json_object_new_string(cmd));
	if (brief)
		json_object_object_add(req, "brief",
				       json_object_new_boolean(1));
	if (ctl_call(fd, req, &resp, H_DEADLINE_MS, &why) < 0)
		fail_msg("%s: %s", cmd, why);
	close(fd);
	json_object_put(req);
	assert_true(json_object_object_get_ex(resp, "data", &data));
	json_object_get(data);
	json_object_put(resp);
	return data;
}

static bool named(const char *k, const char *const *list)
{
	for (; list && *list; list++)
		if (!strcmp(k, *list))
			return true;
	return false;
}

/*
 * b (brief) against f (full): each member of b is f's, with the same
 * type (values such as age_s move between the two answers); a member f
 * has and b lacks is null in f or in dropped. Objects and arrays of
 * objects are compared member by member.
 */
static void same_but(struct json_object *b, struct json_object *f,
		     const char *const *dropped, const char *where)
{
	struct json_object *fv;

	assert_int_equal(json_object_get_type(b), json_object_get_type(f));
	if (json_object_is_type(f, json_type_array)) {
		assert_int_equal(json_object_array_length(b),
				 json_object_array_length(f));
		for (size_t i = 0; i < json_object_array_length(f); i++)
			same_but(json_object_array_get_idx(b, i),
				 json_object_array_get_idx(f, i), dropped,
				 where);
		return;
	}
	if (!json_object_is_type(f, json_type_object))
		return;
	json_object_object_foreach(b, k, v)
	{
		if (!json_object_object_get_ex(f, k, &fv))
			fail_msg("%s: brief has %s, full has not", where, k);
		if (v && fv)
			same_but(v, fv, dropped, k);
		else
			assert_true(!v && !fv);
	}
	json_object_object_foreach(f, fk, fval)
	{
		if (!json_object_object_get_ex(b, fk, NULL) && fval &&
		    !named(fk, dropped))
			fail_msg("%s: brief lacks %s", where, fk);
	}
}

static void has_all(struct json_object *o, const char *const *keys,
		    const char *where)
{
	for (; *keys; keys++)
		if (!json_object_object_get_ex(o, *keys, NULL))
			fail_msg("%s: no %s", where, *keys);
}

static struct json_object *first(struct json_object *data, const char *key)
{
	struct json_object *a;

	assert_true(json_object_object_get_ex(data, key, &a));
	assert_int_equal(json_object_array_length(a), 1);
	return json_object_array_get_idx(a, 0);
}

static void test_status_brief(void **state)
{
	static const char *const dropped[] = { "failures", "hosts", "nat_local",
					       "nat_remote", NULL };
	/* what print_ike_sa() and print_child() read that is not null */
	static const char *const sa_keys[] = {
		"conn",	     "serial",	   "role",     "state",	 "age_s",
		"local",     "local_port", "local_id", "remote", "remote_port",
		"remote_id", "peer_auth",  "spi_i",    "spi_r",	 "proposal",
		"child_sas", "rekey_in_s", NULL
	};
	static const char *const child_keys[] = { "reqid",	"mode",
						  "state",	"spi_in",
						  "spi_out",	"proposal",
						  "kernel_alg", "ts_local",
						  "ts_remote",	"replay_window",
						  "esn",	"pcrypt",
						  "offload",	NULL };
	struct json_object *b = ask("status", true);
	struct json_object *f = ask("status", false);
	struct json_object *sa = first(b, "ike_sas"), *kids;

	same_but(b, f, dropped, "status");
	/* what brief leaves out, so that the test can tell it did */
	assert_false(json_object_object_get_ex(sa, "nat_local", NULL));
	assert_false(json_object_object_get_ex(sa, "peer_cert", NULL));
	assert_true(json_object_object_get_ex(first(f, "ike_sas"), "peer_cert",
					      NULL));
	assert_false(
		json_object_object_get_ex(first(b, "conns"), "failures", NULL));
	has_all(sa, sa_keys, "brief IKE SA");
	assert_true(json_object_object_get_ex(sa, "child_sas", &kids));
	has_all(json_object_array_get_idx(kids, 0), child_keys,
		"brief Child SA");
	json_object_put(b);
	json_object_put(f);
}

static void test_trafficstatus_brief(void **state)
{
	static const char *const dropped[] = { "kernel_alg",	 "add_time",
					       "use_time",	 "replay_fail",
					       "integrity_fail", NULL };
	/* exactly what traffic_print() reads */
	static const char *const keys[] = {
		"conn",	  "ike_serial", "reqid", "proto",  "mode",
		"alg",	  "in",		"out",	 "spi_in", "spi_out",
		"idle_s", "remote_id",	NULL
	};
	static const char *const dir_keys[] = { "bytes", "packets", NULL };
	struct json_object *b = ask("trafficstatus", true);
	struct json_object *f = ask("trafficstatus", false);
	struct json_object *c = first(b, "child_sas"), *in;

	same_but(b, f, dropped, "trafficstatus");
	has_all(c, keys, "brief Child SA");
	assert_int_equal(json_object_object_length(c), 12);
	assert_true(json_object_object_get_ex(c, "in", &in));
	has_all(in, dir_keys, "brief in");
	assert_int_equal(json_object_object_length(in), 2);
	assert_true(json_object_object_get_ex(first(f, "child_sas"), "add_time",
					      NULL));
	json_object_put(b);
	json_object_put(f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_status_brief, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_trafficstatus_brief, setup,
						teardown),
	};

	return cmocka_run_group_tests_name("daemon-brief", tests, NULL, NULL);
}
