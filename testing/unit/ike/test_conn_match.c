// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Which conn the responder picks (conn_match.c) now that each conn's
 * addresses are parsed once per config: among conns written before the
 * right one, auto=ignore is skipped even with exact addresses, a peer
 * of %any loses to an exact peer, other addresses never match; among
 * many conns, the one that fits is still found; and a conn that pins
 * another certificate than the peer's (rightcert=) loses to one that
 * does not.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "crypto/cred.h"
#include "harness.h"
#include "ike/conn/conn.h"
#include "ike/engine.h"

/* East's conns before "test" (east_setup ends the setup section). */
#define DECOYS                                                              \
	"\nconn decoy-ignored\n\tleft=192.0.2.1\n\tright=192.0.2.2\n"       \
	"\tleftid=@west\n\trightid=@east\n\tauthby=secret\n\tauto=ignore\n" \
	"\nconn decoy-any\n\tleft=%any\n\tright=192.0.2.2\n"                \
	"\tleftid=@west\n\trightid=@east\n\tauthby=secret\n"                \
	"\nconn decoy-other\n\tleft=192.0.2.99\n\tright=192.0.2.2\n"        \
	"\tleftid=@west\n\trightid=@east\n\tauthby=secret\n"

static void up_as_test(const char *east_setup)
{
	struct net *n = net_new(NULL, NULL, east_setup, NULL, NULL);
	struct ikb_error err = { "" };
	char buf[64];

	assert_int_equal(ike_engine_up(n->p[WEST].e, "test", &err), 0);
	assert_true(net_run(n, both_up, 5000));
	assert_string_equal(
		status_str(n, EAST, false, "conn", buf, sizeof(buf)), "test");
	net_free(n);
}

static void test_decoys_lose(void **state)
{
	up_as_test(DECOYS);
}

static void test_many_conns(void **state)
{
	size_t len = 0, cap = 400 * 160;
	char *setup = malloc(cap);

	assert_non_null(setup);
	setup[0] = '\0';
	for (int i = 0; i < 400; i++)
		len += (size_t)snprintf(
			setup + len, cap - len,
			"\nconn many%d\n\tleft=198.51.%d.%d\n\tright=192.0.2.2\n"
			"\tleftid=@west\n\trightid=@east\n\tauthby=secret\n",
			i, 100 + i / 250, 1 + i % 250);
	up_as_test(setup);
	free(setup);
}

static struct conn *conn_named(struct ike_engine *e, const char *name)
{
	for (size_t i = 0; i < e->conns->n; i++)
		if (!strcmp(e->conns->conns[i].name, name))
			return &e->conns->conns[i];
	fail_msg("no conn %s", name);
	return NULL;
}

/*
 * East has "second" before "test", the same but for its name, and
 * "second" is made to pin a certificate (rightcert=) whose DER is "old":
 * a peer that sends "new" gets "test", one that sends "old" gets
 * "second", as does one that sends none (a PSK peer: the first one).
 */
static void test_pinned_elsewhere(void **state)
{
	static const uint8_t old[] = "old certificate", fresh[] = "new one";
	struct net *n = net_new(NULL, NULL,
				"\nconn second\n\tleft=192.0.2.1\n"
				"\tright=192.0.2.2\n\tleftid=@west\n"
				"\trightid=@east\n\tauthby=secret\n",
				NULL, NULL);
	struct ike_engine *e = n->p[EAST].e;
	struct cred pin = { .nchain = 1 };
	struct ike_id peer = { 0 };
	struct ikb_error err = { "" };
	struct conn_view v;
	struct conn_match_req q = { .peer = &peer, .auth_method = 2 };
	struct conn *second = conn_named(e, "second");
	const int side = 0; /* east is right= */
	struct cred *was = second->view[side].remote.auth.cred;
	struct ike_path p = { .local = second->view[side].local.addr,
			      .remote = second->view[side].remote.addr };

	assert_int_equal(id_local(&second->view[side].remote, &peer, &err), 0);
	pin.chain[0] = (struct cred_der){ old, sizeof(old) };
	second->view[side].remote.auth.cred = &pin;

	assert_string_equal(conn_match_id(e, &p, &q, &v)->name, "second");
	q.cert = fresh;
	q.cert_len = sizeof(fresh);
	assert_string_equal(conn_match_id(e, &p, &q, &v)->name, "test");
	q.cert = old;
	q.cert_len = sizeof(old);
	assert_string_equal(conn_match_id(e, &p, &q, &v)->name, "second");
	second->view[side].remote.auth.cred = was;
	net_free(n);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(test_decoys_lose, net_cleanup),
		cmocka_unit_test_teardown(test_many_conns, net_cleanup),
		cmocka_unit_test_teardown(test_pinned_elsewhere, net_cleanup),
	};

	harness_global_init();
	return cmocka_run_group_tests_name("ike-conn-match", tests, NULL, NULL);
}
