// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Opportunistic encryption over kernel-mem, as libreswan's: a group
 * conn's trap covers its networks; an ACQUIRE for a destination makes
 * the instance GROUP#ADDRESS, with its own trap of that peer alone, and
 * negotiates it with authby=null; the responder takes the peer as its
 * own group's instance. A peer that speaks no IKE gets the failure shunt
 * for shuntlifetime=, and then the group's trap covers it again.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "harness.h"
#include "hclock.h"
#include "ike/conn/conn.h"
#include "ike/engine.h"
#include "ike/ike.h"

static char wdir[64], edir[64], wsetup[128], esetup[128];

/* who's policies of action a, and the reqid of the last of them */
static unsigned pols(struct net *n, int who, enum ikb_policy_action a,
		     uint32_t *reqid)
{
	struct kdump d;
	unsigned k = 0;

	kernel_dump(n, who, &d);
	for (unsigned i = 0; i < d.npol; i++)
		if (d.pol[i].action == a) {
			k++;
			if (reqid)
				*reqid = d.pol[i].reqid;
		}
	return k;
}

static unsigned sas(struct net *n, int who)
{
	struct kdump d;

	kernel_dump(n, who, &d);
	return d.nsa;
}

/* IPSECDIR of one peer: its policies/NAME holding text */
static void group(const char *dir, const char *name, const char *text)
{
	char p[128];
	FILE *f;

	snprintf(p, sizeof(p), "%s/policies/%s", dir, name);
	f = fopen(p, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static void mkdirs(char *dir, char *setup, size_t len)
{
	char p[128];

	strcpy(dir, "/tmp/ikb-oe-XXXXXX");
	assert_non_null(mkdtemp(dir));
	snprintf(p, sizeof(p), "%s/policies", dir);
	assert_int_equal(mkdir(p, 0700), 0);
	snprintf(setup, len, "\tipsecdir=%s\n", dir);
}

static int setup(void **state)
{
	(void)state;
	mkdirs(wdir, wsetup, sizeof(wsetup));
	mkdirs(edir, esetup, sizeof(esetup));
	return 0;
}

static int teardown(void **state)
{
	char cmd[192];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s' '%s'", wdir, edir);
	return system(cmd);
}

#define OE_ENDS(me)                                                         \
	"\tleft=" me "\n\tright=%opportunisticgroup\n\tauthby=null\n" \
	"\tleftid=%null\n\trightid=%null\n"

static const char west_poc[] =
	"\tauto=ignore\n"
	"conn private-or-clear\n" OE_ENDS("192.0.2.1")
	"\tnegotiationshunt=passthrough\n\tfailureshunt=passthrough\n"
	"\tkeyingtries=1\n\tretransmit-timeout=2s\n\tauto=ondemand\n";
static const char east_cop[] =
	"\tauto=ignore\n"
	"conn clear-or-private\n" OE_ENDS("192.0.2.2")
	"\tfailureshunt=passthrough\n\tauto=add\n";

static struct ikb_selector to_east(void)
{
	struct ikb_selector s = { .src_plen = 32, .dst_plen = 32 };

	s.src.family = s.dst.family = AF_INET;
	inet_pton(AF_INET, "192.0.2.1", s.src.bytes);
	inet_pton(AF_INET, "192.0.2.2", s.dst.bytes);
	return s;
}

static bool oe_up(struct net *n)
{
	return child_count(n, WEST) == 1 && child_count(n, EAST) == 1 &&
	       pols(n, WEST, IKB_POLICY_PASS, NULL) == 0;
}

static bool group_only(struct net *n)
{
	return child_count(n, WEST) == 0 &&
	       pols(n, WEST, IKB_POLICY_IPSEC, NULL) == 1 &&
	       pols(n, WEST, IKB_POLICY_PASS, NULL) == 0;
}

static struct net *oe_net(const char *west, const char *east)
{
	struct net *n;

	harness_west_setup = wsetup;
	n = net_new(west, east, esetup, NULL, NULL);
	harness_west_setup = NULL;
	return n;
}

/* ikebana to ikebana: the ACQUIRE, the instances, and the trap back. */
static void test_oe_both(void **state)
{
	struct ikb_selector sel = to_east();
	struct ikb_error err = { "" };
	uint32_t reqid = 0;
	struct net *n;
	char buf[128];

	group(wdir, "private-or-clear", "# east's net\n192.0.2.0/24\n");
	group(edir, "clear-or-private", "192.0.2.0/24\n");
	n = oe_net(west_poc, east_cop);
	/* the group's trap, outbound only (it may pass), and no SA */
	assert_int_equal(pols(n, WEST, IKB_POLICY_IPSEC, &reqid), 1);
	assert_int_equal(sas(n, WEST), 0);
	/* a group conn itself is never started */
	assert_int_equal(
		ike_engine_up(n->p[WEST].e, "private-or-clear", &err), -EINVAL);
	assert_non_null(strstr(err.msg, "is opportunistic"));

	kernel_acquire_sel(n, WEST, reqid, -1, &sel);
	/* negotiationshunt=passthrough: the peer alone passes meanwhile */
	assert_int_equal(pols(n, WEST, IKB_POLICY_PASS, NULL), 3);
	assert_true(net_run(n, oe_up, 10000));
	assert_true(log_has("conn private-or-clear#192.0.2.2: instance for"));
	assert_true(log_has("conn clear-or-private#192.0.2.1: instance for"));
	assert_string_equal(status_str(n, WEST, false, "conn", buf,
				       sizeof(buf)),
			    "private-or-clear#192.0.2.2");
	assert_string_equal(status_str(n, EAST, false, "peer_auth", buf,
				       sizeof(buf)),
			    "NULL");
	/* the group's trap and the instance's, which the SA uses */
	assert_int_equal(pols(n, WEST, IKB_POLICY_IPSEC, NULL), 4);
	assert_int_equal(sas(n, WEST), 2);
	assert_int_equal(sas(n, EAST), 2);

	/* a reload with the same groups keeps the instances' SAs */
	for (int who = WEST; who <= EAST; who++) {
		ike_engine_reload_prune(n->p[who].e, &n->p[who].lc);
		ike_engine_reload(n->p[who].e, &n->p[who].lc);
	}
	assert_false(log_has("was removed by the reload"));
	assert_true(net_run(n, oe_up, 2000));
	assert_int_equal(sas(n, WEST), 2);
	assert_int_equal(sas(n, EAST), 2);

	/* down: the instance's route goes, the group's trap covers east */
	assert_int_equal(ike_engine_down(n->p[WEST].e,
					 "private-or-clear#192.0.2.2", &err),
			 0);
	assert_true(net_run(n, group_only, 10000));
	assert_int_equal(sas(n, WEST), 0);
	net_free(n);
}

static bool east_empty_insts(struct net *n)
{
	return conn_inst_count(n->p[EAST].e) == 0;
}

static bool east_insts_one(struct net *n)
{
	return conn_inst_count(n->p[EAST].e) == 1;
}

static const struct conn *east_inst(struct net *n, unsigned host)
{
	char name[64];

	snprintf(name, sizeof(name), "clear-or-private#192.0.2.%u", host);
	return engine_conn(n->p[EAST].e, name);
}

/*
 * A responder makes an instance at each IKE_SA_INIT, before anyone is
 * authenticated (as engine_conn() by name here): those nothing names go
 * once idle, those with an SA stay, and the cap is no lockout.
 */
static void test_oe_instances_go(void **state)
{
	struct ikb_selector sel = to_east();
	uint32_t reqid = 0;
	struct net *n;

	group(wdir, "private-or-clear", "192.0.2.0/24\n");
	group(edir, "clear-or-private", "192.0.2.0/24\n");
	n = oe_net(west_poc, east_cop);
	n->p[EAST].e->inst_idle_ms = 300;
	n->p[EAST].e->inst_max = 20;
	/* as spoofed IKE_SA_INITs from 20 addresses of the group leave */
	for (unsigned h = 100; h < 120; h++)
		assert_non_null(east_inst(n, h));
	assert_int_equal(conn_inst_count(n->p[EAST].e), 20);
	/* the cap, and none idle yet: refused */
	assert_null(east_inst(n, 120));
	assert_true(log_has("20 instances already, none idle"));

	/* once idle they go, and a real peer gets its instance and SA */
	assert_true(net_run(n, east_empty_insts, 5000));
	assert_int_equal(pols(n, WEST, IKB_POLICY_IPSEC, &reqid), 1);
	kernel_acquire_sel(n, WEST, reqid, -1, &sel);
	assert_true(net_run(n, oe_up, 10000));
	assert_int_equal(conn_inst_count(n->p[EAST].e), 1);

	/* a sweep after another spoof's: the SA's instance stays */
	assert_non_null(east_inst(n, 130));
	assert_int_equal(conn_inst_count(n->p[EAST].e), 2);
	assert_true(net_run(n, east_insts_one, 5000));
	assert_true(oe_up(n));
	assert_non_null(engine_conn(n->p[EAST].e,
				    "clear-or-private#192.0.2.1"));

	net_free(n);
}

/*
 * The defaults, with no limits of the test's own: 16384 instances at most
 * (INST_MAX), and an instance idle for 60 s (INST_IDLE_MS) gives its place
 * to the next; refusals are logged 5 a second. The clock is stopped and moved (hclock.h), not waited for.
 */
static void test_oe_instance_defaults(void **state)
{
	struct ike_engine *e;
	char name[64];
	struct net *n;

	group(wdir, "private-or-clear", "192.0.2.0/24\n");
	group(edir, "clear-or-private", "10.0.0.0/8\n");
	n = oe_net(west_poc, east_cop);
	e = n->p[EAST].e;
	hclock_freeze(n->base, true); /* however long 16384 take */
	hclock_skip(n->base, 1000); /* a second no log limiter has seen */
	for (unsigned h = 0; h < 16384; h++) {
		snprintf(name, sizeof(name), "clear-or-private#10.0.%u.%u",
			 h / 256, h % 256);
		assert_non_null(engine_conn(e, name));
	}
	assert_int_equal(conn_inst_count(e), 16384);
	/* refused, and 5 lines a second say so (the clock stands still) */
	log_reset();
	for (unsigned h = 1; h <= 12; h++) {
		snprintf(name, sizeof(name), "clear-or-private#10.1.0.%u", h);
		assert_null(engine_conn(e, name));
	}
	assert_int_equal(log_count("16384 instances already, none idle"), 5);
	hclock_skip(n->base, 59000);
	assert_null(engine_conn(e, "clear-or-private#10.1.0.20"));
	assert_true(log_has("7 more instance refusals not logged"));
	assert_int_equal(log_count("16384 instances already, none idle"), 6);
	hclock_skip(n->base, 2000);
	assert_non_null(engine_conn(e, "clear-or-private#10.1.0.3"));
	assert_int_equal(conn_inst_count(e), 1);
	hclock_freeze(n->base, false);
	net_free(n);
}

/* Two groups hold the initiator: the responder takes the narrower. */
static void test_oe_most_specific(void **state)
{
	static const char east2[] =
		"\tauto=ignore\n"
		"conn clear-or-private\n" OE_ENDS("192.0.2.2")
		"\tfailureshunt=passthrough\n\tauto=add\n"
		"conn private\n" OE_ENDS("192.0.2.2")
		"\tfailureshunt=drop\n\tauto=add\n";
	struct ikb_selector sel = to_east();
	uint32_t reqid = 0;
	struct net *n;
	char buf[128];

	group(wdir, "private-or-clear", "192.0.2.0/24\n");
	group(edir, "clear-or-private", "192.0.2.0/24\n");
	group(edir, "private", "192.0.2.1/32\n");
	n = oe_net(west_poc, east2);
	assert_int_equal(pols(n, WEST, IKB_POLICY_IPSEC, &reqid), 1);
	kernel_acquire_sel(n, WEST, reqid, -1, &sel);
	assert_true(net_run(n, oe_up, 10000));
	assert_string_equal(status_str(n, EAST, false, "conn", buf,
				       sizeof(buf)),
			    "private#192.0.2.1");
	assert_false(log_has("conn clear-or-private#192.0.2.1: instance for"));
	net_free(n);
}

static bool clear_passes(struct net *n)
{
	return log_has("traffic: stays passthrough (failureshunt=");
}

/* A peer that speaks no IKE: clear for shuntlifetime=, then the trap. */
static void test_oe_clear_host(void **state)
{
	struct ikb_selector sel = to_east();
	char setup[192];
	uint32_t reqid = 0;
	struct net *n;

	group(wdir, "private-or-clear", "192.0.2.0/24\n");
	snprintf(setup, sizeof(setup), "%s\tshuntlifetime=1s\n", wsetup);
	harness_west_setup = setup;
	n = net_new(west_poc, "\tauto=ignore\n", NULL, NULL, NULL);
	harness_west_setup = NULL;
	assert_int_equal(pols(n, WEST, IKB_POLICY_IPSEC, &reqid), 1);
	kernel_acquire_sel(n, WEST, reqid, -1, &sel);
	assert_true(net_run(n, clear_passes, 20000));
	assert_int_equal(pols(n, WEST, IKB_POLICY_PASS, NULL), 3);
	assert_int_equal(sas(n, WEST), 0);
	assert_true(net_run(n, group_only, 5000));
	assert_true(log_has("unrouted (shuntlifetime= is over)"));
	net_free(n);
}

static bool dropped(struct net *n)
{
	return pols(n, WEST, IKB_POLICY_BLOCK, NULL) == 3;
}

/* private: held while negotiating, dropped after a failure, never clear */
static void test_oe_private(void **state)
{
	struct ikb_selector sel = to_east();
	uint32_t reqid = 0;
	struct net *n;

	group(wdir, "private", "192.0.2.2\n");
	n = oe_net("\tauto=ignore\n"
		   "conn private\n" OE_ENDS("192.0.2.1")
		   "\tnegotiationshunt=hold\n\tfailureshunt=drop\n"
		   "\tkeyingtries=1\n\tretransmit-timeout=2s\n\tauto=ondemand\n",
		   "\tauto=ignore\n");
	/* both ways: nothing of the group comes in clear either */
	assert_int_equal(pols(n, WEST, IKB_POLICY_IPSEC, &reqid), 3);
	kernel_acquire_sel(n, WEST, reqid, -1, &sel);
	assert_int_equal(pols(n, WEST, IKB_POLICY_PASS, NULL), 0);
	assert_true(net_run(n, dropped, 20000));
	assert_int_equal(pols(n, WEST, IKB_POLICY_PASS, NULL), 0);
	net_free(n);
}

/* clear and block: a shunt per network of the group, both ways */
static void test_oe_shunt_groups(void **state)
{
	struct net *n;

	group(wdir, "clear", "198.51.100.0/24\n203.0.113.7\n2001:db8::/32\n");
	group(wdir, "block", "192.0.2.128/25\n");
	n = oe_net("\tauto=ignore\n"
		   "conn clear\n\tleft=192.0.2.1\n\tright=%group\n"
		   "\ttype=passthrough\n\tauthby=never\n\tauto=ondemand\n"
		   "conn block\n\tleft=192.0.2.1\n\tright=%group\n"
		   "\ttype=reject\n\tauthby=never\n\tauto=ondemand\n",
		   "\tauto=ignore\n");
	/* the IPv6 network has no route from an IPv4 host: skipped */
	assert_int_equal(pols(n, WEST, IKB_POLICY_PASS, NULL), 6);
	assert_int_equal(pols(n, WEST, IKB_POLICY_BLOCK, NULL), 3);
	net_free(n);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(test_oe_both, net_cleanup),
		cmocka_unit_test_teardown(test_oe_clear_host, net_cleanup),
		cmocka_unit_test_teardown(test_oe_instances_go, net_cleanup),
		cmocka_unit_test_teardown(test_oe_instance_defaults,
					  net_cleanup),
		cmocka_unit_test_teardown(test_oe_most_specific, net_cleanup),
		cmocka_unit_test_teardown(test_oe_private, net_cleanup),
		cmocka_unit_test_teardown(test_oe_shunt_groups, net_cleanup),
	};

	harness_global_init();
	return cmocka_run_group_tests(tests, setup, teardown);
}
