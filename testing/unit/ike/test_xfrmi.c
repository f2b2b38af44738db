// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * ipsec-interface= over kernel-mem and the harness's fake interfaces
 * (hxfrmi.c): the if_id on both SAs and every policy of the Child SAs and
 * of a trap, the status, and the interfaces made at load, shared by the
 * conns naming them, deleted with the last (reload, the end), and never
 * when they were there before us.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>
#include <json-c/json.h>

#include "config/diag.h"
#include "harness.h"
#include "ike/ike.h"

#define ANY "\tleftsubnet=0.0.0.0/0\n\trightsubnet=0.0.0.0/0\n"

/* Every SA and policy of who carries if_id; how many there are. */
static unsigned all_if_id(struct net *n, int who, uint32_t if_id)
{
	struct kdump d;

	kernel_dump(n, who, &d);
	for (unsigned i = 0; i < d.nsa; i++)
		assert_int_equal(d.sa[i].if_id, if_id);
	for (unsigned i = 0; i < d.npol; i++)
		assert_int_equal(d.pol[i].if_id, if_id);
	return d.nsa + d.npol;
}

static void test_if_id_on_child(void **state)
{
	struct net *n;
	struct ikb_error err = { "" };
	uint32_t id = 0;
	char buf[64];

	hxfrmi_reset();
	/* east is policy-based: the if_id is west's business alone */
	n = net_new("\tipsec-interface=1\n" ANY, ANY, NULL, NULL, NULL);
	assert_true(hxfrmi_has(WEST, "ipsec1", &id));
	assert_int_equal(id, 1);
	assert_false(hxfrmi_has(EAST, "ipsec1", NULL));
	assert_int_equal(hxfrmi_adds, 1);
	assert_int_equal(ike_engine_up(n->p[WEST].e, "test", &err), 0);
	assert_true(net_run(n, both_up, 10000));
	/* two SAs, and out, in, fwd */
	assert_int_equal(all_if_id(n, WEST, 1), 5);
	assert_int_equal(all_if_id(n, EAST, 0), 5);
	assert_string_equal(
		status_str(n, WEST, true, "if_id", buf, sizeof(buf)), "1");
	assert_string_equal(
		status_str(n, WEST, true, "interface", buf, sizeof(buf)),
		"ipsec1");
	net_free(n);
	/* the end deletes what the engine made */
	assert_int_equal(hxfrmi_dels, 1);
	assert_false(hxfrmi_has(WEST, "ipsec1", NULL));
}

static void test_trap_if_id(void **state)
{
	struct net *n;
	struct kdump d;
	uint32_t reqid;

	hxfrmi_reset();
	n = net_new("\tauto=route\n\ttype=tunnel\n\tipsec-interface=5\n"
		    "\tleftsubnet=10.1.0.0/16\n\trightsubnet=10.2.0.0/16\n",
		    "\ttype=tunnel\n\tleftsubnet=10.1.0.0/16\n"
		    "\trightsubnet=10.2.0.0/16\n",
		    NULL, NULL, NULL);
	assert_int_equal(all_if_id(n, WEST, 5), 3);
	kernel_dump(n, WEST, &d);
	reqid = d.pol[0].reqid;
	kernel_acquire(n, WEST, reqid, -1);
	assert_true(net_run(n, both_up, 10000));
	/* the Child SA took the trap's policies, in the same if_id */
	assert_int_equal(all_if_id(n, WEST, 5), 5);
	net_free(n);
}

/* A second configuration for west, with its own plugin instances. */
static void load(struct net *n, struct loaded_conf *lc, const char *conns)
{
	char path[] = "/tmp/ikb-xfrmi-XXXXXX";
	int fd = mkstemp(path);
	struct conf_load_opts o = { .config = path, .base = n->base };
	struct ikb_diag d;

	assert_true(fd >= 0);
	dprintf(fd,
		"config setup\n\tplugins=\"esp-proposals replay-window multi-sa kernel-mem\"\n%s",
		conns);
	close(fd);
	diag_init(&d);
	memset(lc, 0, sizeof(*lc));
	assert_int_equal(conf_load(&o, lc, &d), 0);
	diag_free(&d);
	unlink(path);
}

#define CONN(name, ifc)                                        \
	"conn " name "\n\tleft=192.0.2.1\n\tright=192.0.2.2\n" \
	"\tleftid=@west\n\trightid=@east\n\tauthby=secret\n" ifc "\n"

static void test_shared_refcount(void **state)
{
	struct net *n;
	struct loaded_conf one, none;
	uint32_t id = 0;

	hxfrmi_reset();
	n = net_new("\tipsec-interface=yes\n"
		    "conn b\n\tleft=192.0.2.1\n\tright=192.0.2.9\n"
		    "\tauthby=secret\n\tipsec-interface=1\n"
		    "conn z\n\tleft=192.0.2.1\n\tright=192.0.2.8\n"
		    "\tauthby=secret\n\tipsec-interface=0\n",
		    "", NULL, NULL, NULL);
	/* yes is 1: test and b share ipsec1; 0 is ipsec0, if_id 16384 */
	assert_int_equal(hxfrmi_adds, 2);
	assert_true(hxfrmi_has(WEST, "ipsec1", &id));
	assert_int_equal(id, 1);
	assert_true(hxfrmi_has(WEST, "ipsec0", &id));
	assert_int_equal(id, 16384);

	/* b and z go: ipsec1 stays for test, ipsec0 goes with z */
	load(n, &one, CONN("test", "\tipsec-interface=1"));
	ike_engine_set_conf(n->p[WEST].e, &one);
	assert_int_equal(hxfrmi_adds, 2);
	assert_int_equal(hxfrmi_dels, 1);
	assert_true(hxfrmi_has(WEST, "ipsec1", NULL));
	assert_false(hxfrmi_has(WEST, "ipsec0", NULL));

	/* the last conn naming 1 goes */
	load(n, &none, CONN("test", ""));
	ike_engine_set_conf(n->p[WEST].e, &none);
	assert_int_equal(hxfrmi_dels, 2);
	assert_false(hxfrmi_has(WEST, "ipsec1", NULL));

	/* back to the first: both made again, and deleted at the end */
	ike_engine_set_conf(n->p[WEST].e, &n->p[WEST].lc);
	assert_int_equal(hxfrmi_adds, 4);
	conf_unload(&one);
	conf_unload(&none);
	net_free(n);
	assert_int_equal(hxfrmi_dels, 4);
	assert_false(hxfrmi_has(WEST, "ipsec1", NULL));
	assert_false(hxfrmi_has(WEST, "ipsec0", NULL));
}

/* west's status.interfaces has name, created and up as given */
static bool iface_is(struct net *n, const char *name, bool created, bool up)
{
	struct json_object *st = ike_engine_status(n->p[WEST].e), *a, *v;
	bool found = false;

	assert_true(json_object_object_get_ex(st, "interfaces", &a));
	for (size_t i = 0; i < json_object_array_length(a); i++) {
		struct json_object *x = json_object_array_get_idx(a, i);

		if (!json_object_object_get_ex(x, "name", &v) ||
		    strcmp(json_object_get_string(v), name))
			continue;
		found = json_object_object_get_ex(x, "created", &v) &&
			json_object_get_boolean(v) == created &&
			json_object_object_get_ex(x, "up", &v) &&
			json_object_get_boolean(v) == up;
	}
	json_object_put(st);
	return found;
}

/* A device there before us is used, and never deleted. */
static void test_not_ours(void **state)
{
	struct net *n;

	hxfrmi_reset();
	hxfrmi_foreign(WEST, "ipsec1", 1);
	hxfrmi_foreign(WEST, "ipsec2", 7);
	n = net_new("\tipsec-interface=1\n"
		    "conn b\n\tleft=192.0.2.1\n\tright=192.0.2.9\n"
		    "\tauthby=secret\n\tipsec-interface=2\n",
		    "", NULL, NULL, NULL);
	assert_int_equal(hxfrmi_adds, 0);
	assert_true(iface_is(n, "ipsec1", false, true));
	/* another if_id: not used, and said why when it was loaded */
	assert_true(iface_is(n, "ipsec2", false, false));
	log_reset();
	ike_engine_set_conf(n->p[WEST].e, &n->p[WEST].lc);
	assert_true(log_has("ipsec2 exists, another if_id"));
	net_free(n);
	assert_int_equal(hxfrmi_dels, 0);
	assert_true(hxfrmi_has(WEST, "ipsec1", NULL));
	assert_true(hxfrmi_has(WEST, "ipsec2", NULL));
}

/*
 * interface-ip=: this end's address goes on ipsecN once, however many
 * conns name it; a reload adds the new and removes the old; a device we
 * made takes its addresses along, one we found loses only ours.
 */
static void test_interface_ip(void **state)
{
	struct net *n;
	struct loaded_conf other;

	hxfrmi_reset();
	hxfrmi_foreign(WEST, "ipsec3", 3);
	hxfrmi_ip_foreign(WEST, "ipsec3", "10.9.3.9/24");
	n = net_new("\tipsec-interface=1\n\tleftinterface-ip=10.9.0.1/24\n"
		    "\trightinterface-ip=10.9.0.2/24\n"
		    "conn b\n\tleft=192.0.2.1\n\tright=192.0.2.9\n"
		    "\tauthby=secret\n\tipsec-interface=1\n"
		    "\tleftinterface-ip=10.9.0.1/24\n"
		    "conn c\n\tleft=192.0.2.1\n\tright=192.0.2.8\n"
		    "\tauthby=secret\n\tipsec-interface=3\n"
		    "\tleftinterface-ip=10.9.3.1/24\n"
		    "conn d\n\tleft=192.0.2.1\n\tright=192.0.2.7\n"
		    "\tauthby=secret\n\tipsec-interface=3\n"
		    "\tleftinterface-ip=10.9.3.9/24\n",
		    "", NULL, NULL, NULL);
	assert_true(hxfrmi_has_ip(WEST, "ipsec1", "10.9.0.1/24"));
	/* the peer's end is the peer's */
	assert_false(hxfrmi_has_ip(WEST, "ipsec1", "10.9.0.2/24"));
	assert_true(hxfrmi_has_ip(WEST, "ipsec3", "10.9.3.1/24"));
	/* 10.9.3.9 was there: used, not ours */
	assert_int_equal(hxfrmi_ip_adds, 2);

	/* another address on ipsec1, none on ipsec3 */
	load(n, &other,
	     CONN("test", "\tipsec-interface=1\n\tleftinterface-ip=10.9.0.5/24")
		     CONN("c", "\tipsec-interface=3"));
	ike_engine_set_conf(n->p[WEST].e, &other);
	assert_true(hxfrmi_has_ip(WEST, "ipsec1", "10.9.0.5/24"));
	assert_false(hxfrmi_has_ip(WEST, "ipsec1", "10.9.0.1/24"));
	assert_false(hxfrmi_has_ip(WEST, "ipsec3", "10.9.3.1/24"));
	assert_true(hxfrmi_has_ip(WEST, "ipsec3", "10.9.3.9/24"));
	assert_int_equal(hxfrmi_ip_adds, 3);
	assert_int_equal(hxfrmi_ip_dels, 2);

	/* back, then the end: ipsec1 goes whole, ipsec3 keeps its own */
	ike_engine_set_conf(n->p[WEST].e, &n->p[WEST].lc);
	assert_true(hxfrmi_has_ip(WEST, "ipsec3", "10.9.3.1/24"));
	assert_int_equal(hxfrmi_ip_dels, 3);
	conf_unload(&other);
	net_free(n);
	assert_false(hxfrmi_has(WEST, "ipsec1", NULL));
	assert_false(hxfrmi_has_ip(WEST, "ipsec3", "10.9.3.1/24"));
	assert_true(hxfrmi_has_ip(WEST, "ipsec3", "10.9.3.9/24"));
	assert_int_equal(hxfrmi_ip_dels, 4);
}

/* ipsec-interface-managed=no: only a device made beforehand is used. */
static void test_unmanaged(void **state)
{
	struct net *n;

	hxfrmi_reset();
	hxfrmi_foreign(WEST, "ipsec5", 5);
	harness_west_setup = "config setup\n\tipsec-interface-managed=no\n";
	n = net_new("\tipsec-interface=4\n"
		    "conn b\n\tleft=192.0.2.1\n\tright=192.0.2.9\n"
		    "\tauthby=secret\n\tipsec-interface=5\n",
		    "", NULL, NULL, NULL);
	harness_west_setup = NULL;
	assert_int_equal(hxfrmi_adds, 0);
	assert_false(hxfrmi_has(WEST, "ipsec4", NULL));
	assert_true(iface_is(n, "ipsec4", false, false));
	assert_true(iface_is(n, "ipsec5", false, true));
	net_free(n);
	assert_int_equal(hxfrmi_dels, 0);
	assert_true(hxfrmi_has(WEST, "ipsec5", NULL));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(test_if_id_on_child, net_cleanup),
		cmocka_unit_test_teardown(test_trap_if_id, net_cleanup),
		cmocka_unit_test_teardown(test_shared_refcount, net_cleanup),
		cmocka_unit_test_teardown(test_not_ours, net_cleanup),
		cmocka_unit_test_teardown(test_interface_ip, net_cleanup),
		cmocka_unit_test_teardown(test_unmanaged, net_cleanup),
	};

	harness_global_init();
	return cmocka_run_group_tests(tests, NULL, NULL);
}
