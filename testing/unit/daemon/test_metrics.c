// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * `ikebana metrics` and metrics-file= against two real ikebanad on
 * 127.0.0.1 (kernel-mem, told apart by port): the series move as a tunnel
 * comes up and goes down, promtool accepts the text, and the file is
 * rewritten every metrics-interval= and removed when the daemon stops.
 * promtool (Debian's prometheus package, unpacked by
 * testing/lib/fetch-promtool) is required: without it the test
 * fails, so that a missing check never passes as a green one.
 */
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "pair_fx.h"

static struct pair_end west, east;
/* the metrics file west writes */
static char *west_prom;

/* West writes its metrics file every second. */
static int setup(void **state)
{
	char *setup;

	pair_end_init(&west, "metrics test");
	pair_end_init(&east, "metrics test");
	if (asprintf(&west_prom, "%s/ikebana.prom", west.dir) < 0 ||
	    asprintf(&setup, "\tmetrics-file=%s\n\tmetrics-interval=1\n",
		     west_prom) < 0)
		return -1;
	pair_end_conf(&west, "west", "east", east.ike, setup);
	pair_end_conf(&east, "east", "west", west.ike, "");
	free(setup);
	return 0;
}

static int teardown(void **state)
{
	pair_end_free(&west);
	pair_end_free(&east);
	free(west_prom);
	west_prom = NULL;
	return 0;
}

/* `ikebana metrics` of e, which must succeed; the caller frees it. */
static char *metrics(struct pair_end *e)
{
	char *out, *err;

	if (h_cli(e->dir, e->run, &out, &err, "metrics", NULL) != 0)
		fail_msg("ikebana metrics: %s", err);
	free(err);
	return out;
}

/* The value of the sample line that starts with series (name{labels}). */
static long sample(const char *text, const char *series)
{
	size_t n = strlen(series);

	for (const char *p = text; p && *p; p = strchr(p, '\n'), p += !!p)
		if (!strncmp(p, series, n) && p[n] == ' ')
			return strtol(p + n + 1, NULL, 10);
	fail_msg("no sample %s in:\n%s", series, text);
	return -1;
}

#define ESTABLISHED "ikebana_ike_sas{state=\"established\"}"
#define ESTABLISHED_TOTAL "ikebana_ike_negotiations_established_total"
#define STARTED_I "ikebana_ike_negotiations_started_total{role=\"initiator\"}"
#define CHILD_SAS "ikebana_child_sas"
#define REQ_METRICS "ikebana_control_requests_total{command=\"metrics\"}"

static void up_down(struct pair_end *e, const char *verb)
{
	char *out, *err;

	if (h_cli(e->dir, e->run, &out, &err, verb, "t", NULL) != 0)
		fail_msg("ikebana %s t: %s%s", verb, out, err);
	free(out);
	free(err);
}

static bool no_sa(void *arg)
{
	char *m = metrics(arg);
	bool none = sample(m, ESTABLISHED) == 0 && sample(m, CHILD_SAS) == 0;

	free(m);
	return none;
}

/* The series of the initiator as its tunnel comes up and goes down. */
static void test_series_move(void **state)
{
	char *m;

	assert_true(h_start_daemon(&east.p, east.dir, east.run, east.conf));
	assert_true(h_start_daemon(&west.p, west.dir, west.run, west.conf));
	m = metrics(&west);
	assert_int_equal(sample(m, ESTABLISHED), 0);
	assert_int_equal(sample(m, ESTABLISHED_TOTAL), 0);
	assert_int_equal(sample(m, STARTED_I), 0);
	assert_int_equal(sample(m, REQ_METRICS), 1);
	assert_non_null(strstr(m, "\n# EOF\n"));
	assert_string_equal(m + strlen(m) - 6, "# EOF\n");
	free(m);

	up_down(&west, "up"); /* returns once the Child SA is up */
	m = metrics(&west);
	assert_int_equal(sample(m, ESTABLISHED), 1);
	assert_int_equal(sample(m, CHILD_SAS), 1);
	assert_int_equal(sample(m, ESTABLISHED_TOTAL), 1);
	assert_int_equal(sample(m, STARTED_I), 1);
	assert_int_equal(sample(m, REQ_METRICS), 2);
	/* kernel-mem counts nothing: the conn's series are there, at 0 */
	assert_int_equal(
		sample(m,
		       "ikebana_child_sa_bytes_total{conn=\"t\",direction=\"in\"}"),
		0);
	free(m);
	m = metrics(&east);
	assert_int_equal(sample(m, ESTABLISHED), 1);
	assert_int_equal(
		sample(m,
		       "ikebana_ike_negotiations_started_total{role=\"responder\"}"),
		1);
	free(m);

	up_down(&west, "down");
	assert_true(h_wait_for(no_sa, &west, H_DEADLINE_MS));
	m = metrics(&west);
	assert_int_equal(sample(m, ESTABLISHED_TOTAL), 1);
	free(m);
}

/* promtool check metrics on the text; exit 0 and nothing said. */
static void promtool_check(struct pair_end *e, const char *text)
{
	/* meson's, else fetch-promtool's: a build dir configured before
	 * the fetch (testing/demo builds first) has none */
	static const char cached[] =
		"/var/cache/ikebana-testing/promtool/usr/bin/promtool";
	const char *promtool = getenv("PROMTOOL");
	char *in, *sh, *out, *err;
	char *argv[] = { "/bin/sh", "-c", NULL, NULL };
	int rc;

	if ((!promtool || !promtool[0] || access(promtool, X_OK)) &&
	    access(cached, X_OK) == 0)
		promtool = cached;
	if (!promtool || !promtool[0])
		fail_msg("promtool not found: run testing/lib/fetch-promtool "
			 "(testing/check does)");
	in = h_write(e->dir, "check.prom", 0644, text);
	assert_true(asprintf(&sh, "'%s' check metrics < '%s'", promtool, in) >
		    0);
	argv[2] = sh;
	rc = h_run(e->dir, &out, &err, argv);
	if (rc != 0 || out[0] || err[0])
		fail_msg("promtool check metrics: exit %d:\n%s%s\non:\n%s", rc,
			 out, err, text);
	free(out);
	free(err);
	free(sh);
	free(in);
}

/* promtool accepts the text, with an SA up (the per-conn series too). */
static void test_promtool(void **state)
{
	char *m;

	assert_true(h_start_daemon(&east.p, east.dir, east.run, east.conf));
	assert_true(h_start_daemon(&west.p, west.dir, west.run, west.conf));
	m = metrics(&west);
	promtool_check(&west, m);
	free(m);
	up_down(&west, "up");
	m = metrics(&west);
	assert_non_null(strstr(m, "conn=\"t\""));
	promtool_check(&west, m);
	free(m);
}

static bool file_gone(void *arg)
{
	return access(arg, F_OK) != 0;
}

/*
 * metrics-file=: written at start, rewritten with the tunnel up and again
 * with it down (metrics-interval=1), never seen half written (no .tmp
 * left), removed at SIGTERM.
 */
static void test_metrics_file(void **state)
{
	char *text, tmp[512];

	assert_true(h_start_daemon(&east.p, east.dir, east.run, east.conf));
	assert_true(h_start_daemon(&west.p, west.dir, west.run, west.conf));
	assert_true(
		h_wait_contains(west_prom, ESTABLISHED " 0\n", H_DEADLINE_MS));
	up_down(&west, "up");
	assert_true(
		h_wait_contains(west_prom, ESTABLISHED " 1\n", H_DEADLINE_MS));
	text = h_slurp(west_prom);
	assert_string_equal(text + strlen(text) - 6, "# EOF\n");
	promtool_check(&west, text);
	free(text);
	up_down(&west, "down");
	assert_true(
		h_wait_contains(west_prom, ESTABLISHED " 0\n", H_DEADLINE_MS));
	snprintf(tmp, sizeof(tmp), "%s.tmp", west_prom);
	assert_int_not_equal(access(tmp, F_OK), 0);
	assert_int_equal(kill(west.p.pid, SIGTERM), 0);
	assert_int_equal(h_wait(&west.p, H_DEADLINE_MS), 0);
	assert_true(h_wait_for(file_gone, west_prom, H_DEADLINE_MS));
}

/* The verb is in the usage text; it takes no arguments. */
static void test_usage(void **state)
{
	char *out, *err;

	assert_int_equal(h_cli(west.dir, west.run, &out, &err, "--help", NULL),
			 0);
	assert_non_null(strstr(out, "metrics "));
	free(out);
	free(err);
	assert_int_equal(
		h_cli(west.dir, west.run, &out, &err, "metrics", "extra", NULL),
		2);
	free(out);
	free(err);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_series_move, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_promtool, setup, teardown),
		cmocka_unit_test_setup_teardown(test_metrics_file, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_usage, setup, teardown),
	};

	return cmocka_run_group_tests_name("daemon-metrics", tests, NULL, NULL);
}
