// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * `ikebana trafficstatus` against a real ikebanad: the control command,
 * the conn argument and its errors, --json, and the exit codes. The
 * numbers with traffic are checked in-process (testing/unit/ike/
 * test_traffic.c), where kernel-mem can be made to count packets.
 */
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <json-c/json.h>

#include "harness.h"

struct fx {
	char *dir, *rundir, *conf;
	struct proc d;
};

static const char conf[] = "config setup\n"
			   "\tplugins=kernel-mem\n"
			   "conn alpha\n"
			   "\tleft=192.0.2.1\n"
			   "\tright=192.0.2.2\n"
			   "\tauthby=secret\n"
			   "\tauto=add\n";

static int setup(void **state)
{
	struct fx *f = calloc(1, sizeof(*f));

	f->dir = h_tmpdir();
	if (asprintf(&f->rundir, "%s/run", f->dir) < 0)
		return -1;
	f->conf = h_write_conf(f->dir, "ikebana.conf", conf);
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fx *f = *state;

	h_kill(&f->d);
	h_rmrf(f->dir);
	free(f->dir);
	free(f->rundir);
	free(f->conf);
	free(f);
	return 0;
}

#define cli(f, out, err, ...) \
	h_cli((f)->dir, (f)->rundir, out, err, __VA_ARGS__)

/* Run the client; check its exit code; return its stdout (free it). */
static char *run(struct fx *f, int want, const char *needle_err, ...)
{
	char *argv[8] = { 0 }, *out, *err;
	size_t n = 0;
	va_list ap;
	int rc;

	va_start(ap, needle_err);
	while (n < 7 && (argv[n] = va_arg(ap, char *)))
		n++;
	va_end(ap);
	rc = cli(f, &out, &err, argv[0], argv[1], argv[2], argv[3], NULL);
	if (rc != want)
		fail_msg("ikebana %s %s: exit %d, expected %d; stderr: %s",
			 argv[0], argv[1] ? argv[1] : "", rc, want, err);
	if (needle_err && !strstr(err, needle_err))
		fail_msg("stderr lacks '%s': %s", needle_err, err);
	free(err);
	return out;
}

static void test_trafficstatus(void **state)
{
	struct fx *f = *state;
	struct json_object *j, *a;
	char *out;

	assert_true(h_start_daemon(&f->d, f->dir, f->rundir, f->conf));

	/* nothing installed: no lines, exit 0 */
	out = run(f, 0, NULL, "trafficstatus", NULL);
	assert_string_equal(out, "");
	free(out);
	out = run(f, 0, NULL, "trafficstatus", "alpha", NULL);
	assert_string_equal(out, "");
	free(out);

	out = run(f, 0, NULL, "trafficstatus", "--json", "alpha", NULL);
	j = json_tokener_parse(out);
	assert_non_null(j);
	assert_true(json_object_object_get_ex(j, "child_sas", &a));
	assert_true(json_object_is_type(a, json_type_array));
	assert_int_equal(json_object_array_length(a), 0);
	json_object_put(j);
	free(out);

	/* an unknown conn is an error that names it */
	out = run(f, 1, "trafficstatus: no conn named 'nosuch' is loaded",
		  "trafficstatus", "nosuch", NULL);
	assert_string_equal(out, "");
	free(out);
	out = run(f, 1, "no conn named 'nosuch'", "trafficstatus", "--json",
		  "nosuch", NULL);
	free(out);

	/* usage errors never reach the daemon */
	free(run(f, 2, "unexpected argument 'beta'", "trafficstatus", "alpha",
		 "beta", NULL));
	free(run(f, 2, NULL, "trafficstatus", "--bogus", NULL));

	assert_int_equal(kill(f->d.pid, SIGTERM), 0);
	assert_int_equal(h_wait(&f->d, H_DEADLINE_MS), 0);
}

/* The command is in the usage text the table generates. */
static void test_usage(void **state)
{
	struct fx *f = *state;
	char *out = run(f, 0, NULL, "--help", NULL);

	assert_non_null(strstr(out, "trafficstatus [--json] [CONN]"));
	free(out);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_trafficstatus, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_usage, setup, teardown),
	};

	return cmocka_run_group_tests_name("daemon-trafficstatus", tests, NULL,
					   NULL);
}
