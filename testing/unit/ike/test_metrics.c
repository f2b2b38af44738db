// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The metrics text (daemon/control/metrics.c) over two engines in one
 * process: the series the engine counts move as tunnels come up, carry
 * traffic (kernel-mem counts what the test injects), rekey, lose their
 * peer and fail. The daemon's own view of it is a struct ikbd holding
 * just the engine and its configuration.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "app/daemon.h"
#include "control/metrics.h"
#include "harness.h"
#include "ike/engine.h"
#include "ike/status/status.h"
#include "kernel_mem.h"
#include "plugin/plugin_set.h"

#define TRANSPORT                                            \
	"\tike=aes_gcm256-sha2_256-dh19\n\tesp=aes_gcm128\n" \
	"\ttype=transport\n"
#define LONG "\tipsec-lifetime=1h\n\tikelifetime=1h\n"

/* who's metrics, as `ikebana metrics` would print them; free it. */
static char *render(struct net *n, int who)
{
	struct ikbd d = { 0 };
	size_t len = 0;
	char *text;

	d.engine = n->p[who].e;
	d.conf = n->p[who].lc;
	text = metrics_render(&d, &len);
	assert_non_null(text);
	assert_int_equal(strlen(text), len);
	assert_string_equal(text + len - 6, "# EOF\n");
	return text;
}

/* The value of the sample named series (name{labels}) in who's metrics. */
static long sample(struct net *n, int who, const char *series)
{
	char *text = render(n, who);
	size_t len = strlen(series);
	long v = -1;

	for (const char *p = text; p && *p; p = strchr(p, '\n'), p += !!p)
		if (!strncmp(p, series, len) && p[len] == ' ') {
			v = strtol(p + len + 1, NULL, 10);
			break;
		}
	if (v < 0)
		fail_msg("no sample %s in:\n%s", series, text);
	free(text);
	return v;
}

#define IKE_SAS(state) "ikebana_ike_sas{state=\"" state "\"}"
#define REKEYS(sa) "ikebana_rekeys_total{sa=\"" sa "\"}"
#define TRAFFIC(what, dir) \
	"ikebana_child_sa_" what "_total{conn=\"test\",direction=\"" dir "\"}"

static struct net *up(const char *west, const char *east)
{
	struct net *n = net_new(west, east, NULL, NULL, NULL);
	struct ikb_error err = { "" };

	assert_int_equal(ike_engine_up(n->p[WEST].e, "test", &err), 0);
	assert_true(net_run(n, both_up, 5000));
	return n;
}

static bool none_left(struct net *n)
{
	return ike_sa_count(n, WEST, NULL) == 0 &&
	       ike_sa_count(n, EAST, NULL) == 0;
}

/* kernel-mem counts bytes and packets on who's SA of direction dir. */
static void traffic(struct net *n, int who, enum ikb_dir dir, uint64_t bytes,
		    uint64_t packets)
{
	void *st;
	const struct ikb_kernel_ops *k =
		plugin_set_kernel(n->p[who].lc.plugins, &st);
	ikb_kernel_mem_traffic_fn fn =
		(ikb_kernel_mem_traffic_fn)plugin_set_symbol(
			n->p[who].lc.plugins, "kernel-mem",
			IKB_KERNEL_MEM_TRAFFIC);
	struct kdump d;
	const struct ikb_sa *sa;

	assert_non_null(k);
	assert_non_null(fn);
	kernel_dump(n, who, &d);
	sa = kdump_sa(&d, dir);
	assert_non_null(sa);
	assert_int_equal(fn(st, &sa->dst, sa->spi, sa->proto, bytes, packets),
			 0);
}

/* Up, traffic, down: the gauges go 1 and back to 0, counters stay. */
static void test_up_traffic_down(void **state)
{
	struct net *n = up(TRANSPORT, NULL);
	struct ikb_error err = { "" };

	assert_int_equal(sample(n, WEST, IKE_SAS("established")), 1);
	assert_int_equal(sample(n, WEST, "ikebana_child_sas"), 1);
	assert_int_equal(
		sample(n, WEST,
		       "ikebana_ike_negotiations_started_total{role=\"initiator\"}"),
		1);
	assert_int_equal(
		sample(n, EAST,
		       "ikebana_ike_negotiations_started_total{role=\"responder\"}"),
		1);
	assert_int_equal(
		sample(n, WEST, "ikebana_ike_negotiations_established_total"),
		1);
	assert_int_equal(
		sample(n, EAST, "ikebana_ike_negotiations_established_total"),
		1);
	assert_int_equal(sample(n, EAST, "ikebana_ike_half_open_sas"), 0);

	traffic(n, WEST, IKB_DIR_IN, 1000, 10);
	traffic(n, WEST, IKB_DIR_OUT, 300, 3);
	assert_int_equal(sample(n, WEST, TRAFFIC("bytes", "in")), 1000);
	assert_int_equal(sample(n, WEST, TRAFFIC("packets", "in")), 10);
	assert_int_equal(sample(n, WEST, TRAFFIC("bytes", "out")), 300);
	assert_int_equal(sample(n, WEST, TRAFFIC("packets", "out")), 3);

	assert_int_equal(ike_engine_down(n->p[WEST].e, "test", &err), 0);
	assert_true(net_run(n, none_left, 5000));
	assert_int_equal(sample(n, WEST, IKE_SAS("established")), 0);
	assert_int_equal(sample(n, WEST, "ikebana_child_sas"), 0);
	assert_int_equal(
		sample(n, WEST, "ikebana_ike_negotiations_established_total"),
		1);
	net_free(n);
}

static bool child_rekeyed(struct net *n)
{
	return log_has("Child SA deleted") && child_count(n, WEST) == 1 &&
	       child_count(n, EAST) == 1;
}

static bool ike_rekeyed(struct net *n)
{
	return log_has("IKE SA established by rekeying") &&
	       ike_sa_count(n, WEST, NULL) == 1 &&
	       ike_sa_count(n, EAST, NULL) == 1;
}

/* A Child SA rekey and an IKE SA rekey, each counted on both ends. */
static void test_rekeys(void **state)
{
	struct net *n = up("\tikelifetime=2s\n\trekeymargin=1s\n"
			   "\trekeyfuzz=0%\n\tipsec-lifetime=1h\n",
			   LONG);
	struct kdump k;

	assert_int_equal(sample(n, WEST, REKEYS("child")), 0);
	kernel_dump(n, WEST, &k);
	kernel_expire(n, WEST, kdump_sa(&k, IKB_DIR_OUT), false);
	assert_true(net_run(n, child_rekeyed, 5000));
	assert_int_equal(sample(n, WEST, REKEYS("child")), 1);
	assert_int_equal(sample(n, EAST, REKEYS("child")), 1);
	assert_int_equal(sample(n, WEST, REKEYS("ike")), 0);
	log_reset();
	assert_true(net_run(n, ike_rekeyed, 5000));
	assert_int_equal(sample(n, WEST, REKEYS("ike")), 1);
	assert_int_equal(sample(n, EAST, REKEYS("ike")), 1);
	/* a rekey is no new negotiation */
	assert_int_equal(
		sample(n, WEST, "ikebana_ike_negotiations_established_total"),
		1);
	net_free(n);
}

static unsigned drop_all(struct net *n, int from, unsigned seq,
			 const uint8_t *buf, size_t len)
{
	return 0;
}

static bool west_dead(struct net *n)
{
	return log_has("peer is dead") &&
	       ike_sa_count(n, WEST, "established") == 0;
}

/* The peer goes silent: retransmits, then one DPD death. */
static void test_dpd_death(void **state)
{
	struct net *n = up("\tdpddelay=100ms\n\tretransmit-interval=20\n"
			   "\tretransmit-timeout=200ms\n",
			   "\tauto=add\n"); /* east checks nothing */

	assert_int_equal(sample(n, WEST, "ikebana_ike_retransmits_total"), 0);
	n->filter = drop_all;
	assert_true(net_run(n, west_dead, 5000));
	assert_true(sample(n, WEST, "ikebana_ike_retransmits_total") > 0);
	assert_int_equal(sample(n, WEST, "ikebana_dpd_deaths_total"), 1);
	assert_int_equal(sample(n, EAST, "ikebana_dpd_deaths_total"), 0);
	net_free(n);
}

/* ddos-ike-threshold=0: east asks for a COOKIE, once. */
static void test_cookie(void **state)
{
	struct net *n = net_new("\tretransmit-interval=20s\n", NULL,
				"\tddos-ike-threshold=0\n", NULL, NULL);
	struct ikb_error err = { "" };

	assert_int_equal(ike_engine_up(n->p[WEST].e, "test", &err), 0);
	assert_true(net_run(n, both_up, 5000));
	assert_int_equal(sample(n, EAST, "ikebana_ike_cookies_sent_total"), 1);
	assert_int_equal(sample(n, WEST, "ikebana_ike_cookies_sent_total"), 0);
	net_free(n);
}

static bool west_gone(struct net *n)
{
	return ike_sa_count(n, WEST, NULL) == 0;
}

#define FAILED(reason) \
	"ikebana_ike_negotiations_failed_total{reason=\"" reason "\"}"
#define FAILED_AUTH FAILED("auth")

/*
 * A wrong PSK: started, never established, and a failure of each end
 * under its reason: east's AUTH check failed, west was told
 * AUTHENTICATION_FAILED. Any failure filed (failure.h) counts so.
 */
static void test_failed(void **state)
{
	struct net *n = net_new(NULL, NULL, NULL, "secret", "other secret");
	struct ikb_error err = { "" };
	struct ike_failure f;
	long before;

	assert_int_equal(ike_engine_up(n->p[WEST].e, "test", &err), 0);
	assert_true(net_run(n, west_gone, 5000));
	assert_int_equal(
		sample(n, WEST,
		       "ikebana_ike_negotiations_started_total{role=\"initiator\"}"),
		1);
	assert_int_equal(
		sample(n, WEST, "ikebana_ike_negotiations_established_total"),
		0);
	assert_int_equal(sample(n, WEST, FAILED("peer_auth")), 1);
	assert_int_equal(sample(n, WEST, FAILED("auth")), 0);
	assert_int_equal(sample(n, EAST, FAILED_AUTH), 1);
	before = sample(n, EAST, FAILED_AUTH);
	memset(&f, 0, sizeof(f));
	f.kind = IKE_FAIL_AUTH;
	snprintf(f.conn, sizeof(f.conn), "test");
	failure_file(n->p[EAST].e, &f);
	assert_int_equal(sample(n, EAST, FAILED_AUTH), before + 1);
	net_free(n);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(test_up_traffic_down, net_cleanup),
		cmocka_unit_test_teardown(test_rekeys, net_cleanup),
		cmocka_unit_test_teardown(test_dpd_death, net_cleanup),
		cmocka_unit_test_teardown(test_cookie, net_cleanup),
		cmocka_unit_test_teardown(test_failed, net_cleanup),
	};

	harness_global_init();
	return cmocka_run_group_tests_name("ike-metrics", tests, NULL, NULL);
}
