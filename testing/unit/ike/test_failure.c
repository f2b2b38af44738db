// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Failure records (issue 20): every failed negotiation leaves one on its
 * conn, on each side that can tell, with both sides of what did not meet;
 * and `ikebana explain`'s words (daemon/cli/explain_text.c) of them name
 * the cause and the key to change. Each case fails on its own when the
 * step that should record it does not.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <json-c/json.h>

#include "harness.h"
#include "cli/explain.h"
#include "ike/status/ike_failure.h"
#include "ike/status/ike_stats.h"

static const struct ike_failure *last(struct net *n, int who)
{
	return ike_engine_last_failure(n->p[who].e, "test");
}

static bool both_failed(struct net *n)
{
	return last(n, WEST) && last(n, EAST);
}

static bool west_failed(struct net *n)
{
	return last(n, WEST) != NULL;
}

static struct net *start(const char *west, const char *east,
			 const char *west_psk, const char *east_psk)
{
	struct net *n = net_new(west, east, NULL, west_psk, east_psk);
	struct ikb_error err = { "" };

	assert_null(last(n, WEST));
	assert_int_equal(ike_engine_up(n->p[WEST].e, "test", &err), 0);
	return n;
}

/* explain's words of who's failures, in a buffer the caller frees. */
static char *explained(struct net *n, int who)
{
	struct json_object *d = json_object_new_object();
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	assert_non_null(f);
	json_object_object_add(d, "conn", json_object_new_string("test"));
	json_object_object_add(d, "ike_sas_up", json_object_new_int(0));
	json_object_object_add(d, "failures",
			       ike_engine_failures(n->p[who].e, "test"));
	explain_print(f, d);
	fclose(f);
	json_object_put(d);
	print_message("%s", text);
	return text;
}

static void assert_has(const char *text, const char *want)
{
	assert_non_null(text); /* and GCC's -Wformat-overflow under ASan knows */
	if (!strstr(text, want))
		fail_msg("no \"%s\" in:\n%s", want, text);
}

static void test_ike_proposal(void **state)
{
	struct net *n = start("\tike=aes128-sha2_256-modp2048\n",
			      "\tike=aes_gcm256-sha2_512-dh20\n", NULL, NULL);
	const struct ike_failure *w, *e;
	char *t;

	assert_true(net_run(n, both_failed, 5000));
	e = last(n, EAST);
	assert_int_equal(e->kind, IKE_FAIL_IKE_PROPOSAL);
	assert_false(e->initiator);
	assert_non_null(strstr(e->peer, "AES_CBC_128"));
	assert_non_null(strstr(e->local, "AES_GCM_16_256"));
	assert_non_null(strstr(e->closest, "ENCR: peer AES_CBC_128"));
	assert_non_null(strstr(e->closest, "KE: peer MODP2048, here ECP384"));
	w = last(n, WEST);
	assert_int_equal(w->kind, IKE_FAIL_IKE_PROPOSAL);
	assert_true(w->initiator);
	assert_string_equal(ike_fail_kind_name(w->kind), "ike_proposal");
	t = explained(n, EAST);
	assert_has(t, "cause: 192.0.2.1 offered only AES_CBC_128");
	assert_has(t, "fix: add aes128-sha2_256-modp2048 to ike= here");
	free(t);
	t = explained(n, WEST);
	assert_has(t, "answered NO_PROPOSAL_CHOSEN to IKE_SA_INIT");
	free(t);
	net_free(n);
}

static void test_esp_proposal(void **state)
{
	struct net *n = start("\tesp=aes128-sha1\n", "\tesp=aes_gcm128\n",
			      NULL, NULL);
	const struct ike_failure *e;
	char *t;

	assert_true(net_run(n, both_failed, 5000));
	e = last(n, EAST);
	assert_int_equal(e->kind, IKE_FAIL_ESP_PROPOSAL);
	assert_int_equal(e->exchange, 35); /* IKE_AUTH */
	assert_non_null(strstr(e->closest, "ENCR"));
	assert_int_equal(last(n, WEST)->kind, IKE_FAIL_ESP_PROPOSAL);
	t = explained(n, EAST);
	assert_has(t, "fix: add aes128-sha1 to esp= here");
	free(t);
	net_free(n);
}

static void test_wrong_psk(void **state)
{
	struct net *n = start(NULL, NULL, "secret", "other secret");
	char *t;

	assert_true(net_run(n, both_failed, 5000));
	assert_int_equal(last(n, EAST)->kind, IKE_FAIL_AUTH);
	assert_int_equal(last(n, WEST)->kind, IKE_FAIL_PEER_AUTH);
	t = explained(n, EAST);
	assert_has(t, "fix: make the PSK for this pair of IDs the same");
	free(t);
	t = explained(n, WEST);
	assert_has(t, "answered AUTHENTICATION_FAILED");
	free(t);
	/* east's SA stays to answer retransmits, but holds nothing in the kernel */
	assert_int_equal(ike_sa_count(n, EAST, NULL), 1);
	assert_int_equal(kernel_objects(n, EAST), 0);
	net_free(n);
}

static void test_ts(void **state)
{
	struct net *n = start("\tleftsubnet=10.1.0.0/24\n"
			      "\trightsubnet=10.2.0.0/24\n",
			      "\tleftsubnet=10.1.0.0/24\n"
			      "\trightsubnet=10.9.0.0/24\n",
			      NULL, NULL);
	const struct ike_failure *e;
	char *t;

	assert_true(net_run(n, both_failed, 5000));
	e = last(n, EAST);
	assert_int_equal(e->kind, IKE_FAIL_TS);
	assert_non_null(strstr(e->peer, "TSr 10.2.0.0/24"));
	assert_non_null(strstr(e->local, "TSr 10.9.0.0/24"));
	assert_int_equal(last(n, WEST)->kind, IKE_FAIL_TS);
	t = explained(n, WEST);
	assert_has(t, "answered TS_UNACCEPTABLE");
	assert_has(t, "fix: make leftsubnet=/rightsubnet=");
	free(t);
	net_free(n);
}

/*
 * esp= with a DH group is for CREATE_CHILD_SA: IKE_AUTH's Child SA comes
 * up without one (it came up only when both ends named the same group);
 * the rekey then differs in the group alone, a PFS failure each side.
 */
static void test_pfs(void **state)
{
	struct net *n = net_new("\tesp=aes_gcm128\n", "\tesp=aes_gcm128-dh20\n",
				NULL, NULL, NULL);
	struct ikb_error err = { "" };
	struct kdump d;
	char *t;

	assert_int_equal(ike_engine_up(n->p[WEST].e, "test", &err), 0);
	assert_true(net_run(n, both_up, 5000));
	assert_null(last(n, EAST));
	kernel_dump(n, WEST, &d);
	kernel_expire(n, WEST, kdump_sa(&d, IKB_DIR_OUT), false);
	assert_true(net_run(n, both_failed, 5000));
	assert_int_equal(last(n, EAST)->kind, IKE_FAIL_PFS_GROUP);
	assert_non_null(strstr(last(n, EAST)->closest,
			       "KE: peer ECP256, here ECP384"));
	assert_int_equal(last(n, WEST)->kind, IKE_FAIL_PFS_GROUP);
	t = explained(n, WEST);
	assert_has(t, "fix: use the same DH group for PFS on both ends");
	free(t);
	net_free(n);
}

static unsigned drop_all(struct net *n, int from, unsigned seq,
			 const uint8_t *buf, size_t len)
{
	return from == EAST ? 0 : 1;
}

static void test_no_answer(void **state)
{
	struct net *n = net_new("\tretransmit-interval=20\n"
				"\tretransmit-timeout=200ms\n",
				NULL, NULL, NULL, NULL);
	struct ikb_error err = { "" };
	const struct ike_failure *w;
	char *t;

	n->filter = drop_all;
	assert_int_equal(ike_engine_up(n->p[WEST].e, "test", &err), 0);
	assert_true(net_run(n, west_failed, 5000));
	w = last(n, WEST);
	assert_int_equal(w->kind, IKE_FAIL_NO_ANSWER);
	assert_int_equal(w->exchange, 34); /* IKE_SA_INIT */
	assert_true(w->retransmits >= 2);
	t = explained(n, WEST);
	assert_has(t, "cause: no answer from 192.0.2.2:500 to IKE_SA_INIT");
	free(t);
	net_free(n);
}

static void test_kernel(void **state)
{
	struct net *n = net_new(NULL, NULL, NULL, NULL, NULL);
	struct ikb_error err = { "" };
	struct ike_stats st;

	kernel_refuse(n, EAST, "sa_update", 0, ENOSYS,
		      "Requested AEAD algorithm not found");
	assert_int_equal(ike_engine_up(n->p[WEST].e, "test", &err), 0);
	assert_true(net_run(n, both_failed, 5000));
	assert_int_equal(last(n, EAST)->kind, IKE_FAIL_KERNEL);
	assert_non_null(strstr(last(n, EAST)->detail, "AEAD"));
	ike_engine_stats(n->p[EAST].e, &st);
	assert_int_equal(st.failed[IKE_FAIL_KERNEL], 1);
	net_free(n);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(test_ike_proposal, net_cleanup),
		cmocka_unit_test_teardown(test_esp_proposal, net_cleanup),
		cmocka_unit_test_teardown(test_wrong_psk, net_cleanup),
		cmocka_unit_test_teardown(test_ts, net_cleanup),
		cmocka_unit_test_teardown(test_pfs, net_cleanup),
		cmocka_unit_test_teardown(test_no_answer, net_cleanup),
		cmocka_unit_test_teardown(test_kernel, net_cleanup),
	};

	harness_global_init();
	return cmocka_run_group_tests_name("ike-failure", tests, NULL, NULL);
}
