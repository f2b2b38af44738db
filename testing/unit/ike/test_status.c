// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * `ikebana status` per Child SA: replay window, ESN, CPU id, pcrypt and
 * offload as installed, read from the SAs the kernel backend wrote back
 * (kernel-mem here; what kernel-xfrm writes is set by hand, as it would
 * after a fallback).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <json-c/json.h>

#include "harness.h"
#include "crypto/cred.h"
#include "ike/child/child.h"
#include "ike/engine.h"

static struct json_object *root;
static char *sa_text(struct net *n);

/* west's first Child SA in a fresh status snapshot. */
static struct json_object *child0(struct net *n)
{
	struct json_object *sas, *kids;

	if (root)
		json_object_put(root);
	root = ike_engine_status(n->p[WEST].e);
	assert_true(json_object_object_get_ex(root, "ike_sas", &sas));
	assert_true(json_object_object_get_ex(json_object_array_get_idx(sas, 0),
					      "child_sas", &kids));
	return json_object_array_get_idx(kids, 0);
}

static const char *str(struct json_object *o, const char *key)
{
	struct json_object *v;

	return json_object_object_get_ex(o, key, &v) && v ?
		       json_object_get_string(v) :
		       NULL;
}

static bool has(struct json_object *o, const char *key)
{
	return json_object_object_get_ex(o, key, NULL);
}

static void test_tuning_fields(void **state)
{
	struct net *n = net_new("\treplay-window=512\n\tesn=yes\n", NULL, NULL,
				NULL, NULL);
	struct ikb_error err = { "" };
	struct json_object *c, *cpu;
	struct child_sa *k;
	char *text;

	assert_int_equal(ike_engine_up(n->p[WEST].e, "test", &err), 0);
	assert_true(net_run(n, both_up, 10000));

	/* As kernel-mem installed it: nothing asked, nothing fell back. */
	c = child0(n);
	assert_int_equal(json_object_get_int64(
				 json_object_object_get(c, "replay_window")),
			 512);
	assert_true(json_object_get_boolean(json_object_object_get(c, "esn")));
	assert_true(json_object_object_get_ex(c, "cpu", &cpu));
	assert_null(cpu);
	assert_string_equal(str(c, "pcrypt"), "off");
	assert_string_equal(str(c, "offload"), "none");
	assert_false(has(c, "offload_dev"));

	/* What kernel-xfrm writes back after its fallbacks. */
	k = n->p[WEST].e->all->children;
	k->cpu = k->sa_in.cpu = k->sa_out.cpu = 1;
	k->sa_in.pcrypt = k->sa_out.pcrypt = true;
	c = child0(n);
	assert_int_equal(
		json_object_get_int64(json_object_object_get(c, "cpu")), 1);
	assert_string_equal(str(c, "pcrypt"), "on");
	k->sa_out.pcrypt_fallback = true;
	k->sa_in.offload = k->sa_out.offload = IKB_OFFLOAD_YES;
	strcpy(k->sa_in.offload_dev, "eth0");
	strcpy(k->sa_out.offload_dev, "eth0");
	k->sa_in.offload_fallback = true;
	c = child0(n);
	assert_string_equal(str(c, "pcrypt"), "fallback");
	assert_string_equal(str(c, "offload"), "software");
	assert_string_equal(str(c, "offload_dev"), "eth0");

	/* Offloaded: the mode the device took. */
	k->sa_in.offload_fallback = false;
	k->sa_in.offload = k->sa_out.offload = IKB_OFFLOAD_PACKET;
	c = child0(n);
	assert_string_equal(str(c, "offload"), "packet");
	k->sa_in.offload = k->sa_out.offload = IKB_OFFLOAD_CRYPTO;
	c = child0(n);
	assert_string_equal(str(c, "offload"), "crypto");
	assert_string_equal(str(c, "offload_dev"), "eth0");
	text = sa_text(n);
	assert_non_null(strstr(
		text, "\n      CPU 1, pcrypt fallback, offload crypto on eth0\n"));
	free(text);

	/* mark= and ipsec-interface=, as the text shows them */
	k->sa_in.mark = k->sa_out.mark = 7;
	k->sa_in.mark_mask = k->sa_out.mark_mask = 0xff;
	k->sa_out.if_id = 3;
	c = child0(n);
	assert_string_equal(str(c, "mark"), "0x7/0xff");
	assert_false(has(c, "mark_in"));
	text = sa_text(n);
	assert_non_null(strstr(text, " on eth0, mark 0x7/0xff, interface "
				     "ipsec3 (if_id 3)\n"));
	free(text);
	k->sa_out.mark = k->sa_out.mark_mask = 0;
	c = child0(n);
	assert_false(has(c, "mark"));
	assert_string_equal(str(c, "mark_in"), "0x7/0xff");
	text = sa_text(n);
	assert_non_null(strstr(text, ", mark out - in 0x7/0xff, interface "));
	free(text);

	json_object_put(root);
	root = NULL;
	net_free(n);
}

/* west's first IKE SA in a fresh status snapshot. */
static struct json_object *sa0(struct net *n)
{
	struct json_object *sas;

	if (root)
		json_object_put(root);
	root = ike_engine_status(n->p[WEST].e);
	assert_true(json_object_object_get_ex(root, "ike_sas", &sas));
	return json_object_array_get_idx(sas, 0);
}

/* The lines of `ikebana status` for west's first IKE SA. */
static char *sa_text(struct net *n)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	ike_sa_status_text(n->p[WEST].e->all, f);
	assert_int_equal(fclose(f), 0);
	return buf;
}

/* The lines of `ikebana status` under conn's line. */
static char *hosts_text(struct net *n, const char *conn)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	ike_engine_hosts_text(n->p[WEST].e, conn, f);
	assert_int_equal(fclose(f), 0);
	return buf;
}

static void test_peer_fields(void **state)
{
	struct net *n = net_new(NULL, NULL, NULL, NULL, NULL);
	struct ikb_error err = { "" };
	struct json_object *sa, *pc;
	struct peer_cert *p;
	char *text;

	assert_int_equal(ike_engine_up(n->p[WEST].e, "test", &err), 0);
	assert_true(net_run(n, both_up, 10000));

	/* authby=secret: the method, and no certificate. */
	sa = sa0(n);
	assert_string_equal(str(sa, "peer_auth"), "PSK");
	assert_true(json_object_object_get_ex(sa, "peer_cert", &pc));
	assert_null(pc);
	text = sa_text(n);
	assert_non_null(strstr(text, "\n    peer   authenticated by PSK\n"));
	assert_null(strstr(text, "    peer   cert "));
	free(text);

	/* As a verified certificate leaves it (cert_verify.c). */
	p = calloc(1, sizeof(*p));
	assert_non_null(p);
	p->refs = 1;
	strcpy(p->subject, "CN=east, O=Test");
	strcpy(p->issuer, "CN=Test CA, O=Test");
	n->p[WEST].e->all->peer_cert = p;
	n->p[WEST].e->all->peer_auth.method = "RSA-PSS with SHA2-256";
	sa = sa0(n);
	assert_string_equal(str(sa, "peer_auth"), "RSA-PSS with SHA2-256");
	assert_true(json_object_object_get_ex(sa, "peer_cert", &pc));
	assert_true(json_object_is_type(pc, json_type_object));
	assert_string_equal(str(pc, "subject"), "CN=east, O=Test");
	assert_string_equal(str(pc, "issuer"), "CN=Test CA, O=Test");
	text = sa_text(n);
	assert_non_null(
		strstr(text, "\n    peer   authenticated by RSA-PSS with SHA2-256\n"
			     "    peer   cert CN=east, O=Test\n"
			     "           issued by CN=Test CA, O=Test\n"));
	free(text);

	/* Before the peer has authenticated: nothing to say. */
	n->p[WEST].e->all->peer_auth.method = NULL;
	peer_cert_put(n->p[WEST].e->all->peer_cert);
	n->p[WEST].e->all->peer_cert = NULL;
	sa = sa0(n);
	assert_true(json_object_object_get_ex(sa, "peer_auth", &pc));
	assert_null(pc);
	text = sa_text(n);
	assert_null(strstr(text, "    peer "));
	free(text);

	json_object_put(root);
	root = NULL;
	net_free(n);
}

/*
 * Frees n; then on the plainest conn (addresses, no NAT) the IKE SA's
 * text has no line that starts with line.
 */
static void no_line_after(struct net *n, const char *line)
{
	struct ikb_error err = { "" };
	char *text;

	json_object_put(root);
	root = NULL;
	net_free(n);
	n = net_new(NULL, NULL, NULL, NULL, NULL);
	assert_int_equal(ike_engine_up(n->p[WEST].e, "test", &err), 0);
	assert_true(net_run(n, both_up, 10000));
	text = sa_text(n);
	assert_non_null(strstr(text, "\n    SPIs i "));
	assert_null(strstr(text, line));
	free(text);
	json_object_put(root);
	root = NULL;
	net_free(n);
}

static bool resolved_both(struct net *n)
{
	return both_up(n) && log_has("gone.test: NXDOMAIN");
}

/* Names in status: the conn's hosts and the IKE SA's, JSON and text. */
static void test_host_fields(void **state)
{
	struct ikb_error err = { "" };
	struct json_object *sa, *conn;
	struct net *n;
	char *text;

	hdns_set("east.test", "192.0.2.2");
	harness_west_right = "east.test";
	n = net_new("\nconn gone\n\tleft=192.0.2.1\n\tright=gone.test\n"
		    "\tauthby=secret\n",
		    NULL, NULL, NULL, NULL);
	harness_west_right = NULL;
	assert_int_equal(ike_engine_up(n->p[WEST].e, "test", &err), 0);
	assert_true(net_run(n, resolved_both, 5000));
	sa = sa0(n);
	assert_string_equal(str(sa, "remote_host"), "east.test");
	text = sa_text(n);
	assert_non_null(
		strstr(text, "\n    dns    remote east.test (resolved 20"));
	free(text);
	/* the same time as --json shows */
	conn = ike_engine_hosts(n->p[WEST].e, "test");
	text = hosts_text(n, "test");
	assert_non_null(strstr(text, "      right=east.test: 192.0.2.2 at 20"));
	assert_non_null(strstr(
		text, str(json_object_array_get_idx(conn, 0), "resolved_at")));
	json_object_put(conn);
	free(text);
	text = hosts_text(n, "gone");
	assert_non_null(strstr(text, "      right=gone.test: NXDOMAIN at 20"));
	free(text);
	/* a conn of addresses only: no line */
	no_line_after(n, "    dns ");
}

static bool keepalive_sent(struct net *n)
{
	return n->p[WEST].keepalives > 0;
}

/* Behind the harness's NAT: the nat object and its line. */
static void test_nat_fields(void **state)
{
	struct net *n;
	struct ikb_error err = { "" };
	struct json_object *sa, *nat;
	char *text;

	harness_nat = true;
	harness_west_setup = "\tkeep-alive=1\n";
	n = net_new("\ttype=transport\n", NULL, NULL, NULL, NULL);
	harness_west_setup = NULL;
	assert_int_equal(ike_engine_up(n->p[WEST].e, "test", &err), 0);
	assert_true(net_run(n, both_up, 10000));
	assert_true(net_run(n, keepalive_sent, 5000));
	sa = sa0(n);
	assert_int_equal(
		json_object_get_int(json_object_object_get(sa, "local_port")),
		4500);
	assert_true(json_object_object_get_ex(sa, "nat", &nat));
	assert_true(json_object_get_boolean(
		json_object_object_get(nat, "local_behind")));
	text = sa_text(n);
	assert_non_null(strstr(
		text, "nat    we are behind a NAT, ESP in UDP 4500 -> 4500, "));
	assert_non_null(strstr(text, "keepalive(s) sent (last "));
	assert_non_null(strstr(text, ", 0 move(s) followed\n"));
	free(text);
	/* no NAT: no line */
	no_line_after(n, "    nat ");
}

/* mobike=yes on both ends: the mobike object and its line; else none. */
static void test_mobike_fields(void **state)
{
	struct net *n;
	struct ikb_error err = { "" };
	struct json_object *sa, *m;
	char *text;

	n = net_new("\tmobike=yes\n", NULL, NULL, NULL, NULL);
	assert_int_equal(ike_engine_up(n->p[WEST].e, "test", &err), 0);
	assert_true(net_run(n, both_up, 10000));
	sa = sa0(n);
	assert_true(json_object_object_get_ex(sa, "mobike", &m));
	assert_int_equal(
		json_object_get_int(json_object_object_get(m, "updates")), 0);
	text = sa_text(n);
	assert_non_null(strstr(
		text,
		"\n    mobike 0 address update(s), peer's additional addresses: none\n"));
	free(text);
	no_line_after(n, "    mobike ");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(test_tuning_fields, net_cleanup),
		cmocka_unit_test_teardown(test_peer_fields, net_cleanup),
		cmocka_unit_test_teardown(test_nat_fields, net_cleanup),
		cmocka_unit_test_teardown(test_mobike_fields, net_cleanup),
		cmocka_unit_test_teardown(test_host_fields, net_cleanup),
	};

	harness_global_init();
	return cmocka_run_group_tests_name("ike-status", tests, NULL, NULL);
}
