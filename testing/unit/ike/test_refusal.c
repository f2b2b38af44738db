// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A kernel that refuses a Child SA (an algorithm it cannot load, say):
 * in IKE_AUTH and in CREATE_CHILD_SA, on either side, for a new Child SA
 * and a rekey. Whichever side fails logs the kernel's message and keeps
 * nothing of that Child SA in its kernel, not even the larval SA of its
 * SPI; the peer is told (an error notify, or a Delete of the half it
 * installed); the IKE SA stays up (§2.21, as strongSwan); and the
 * initiator's outcome, what `ikebana up` prints, carries the message.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "harness.h"

/* What Linux's xfrm_user answers without the AEAD's crypto module. */
#define NO_AEAD "Requested AEAD algorithm not found"

/* no leftprotoports: left's own selector pairs with every entry */
#define PP2 "\trightprotoports=tcp/80,udp/53\n"
#define LONG "\tipsec-lifetime=1h\n\tikelifetime=1h\n"

/* West's outcome, and west's kernel at that moment. */
static struct seen {
	unsigned n;
	int rc;
	bool ike_up;
	char why[512];
	uint32_t spi_in;
	unsigned west_objects; /* kernel_objects(WEST) when it came */
	struct net *net;
} seen;

/*
 * The outcome, as `ikebana up` takes it from the bus: FAILED, or the
 * IKE_UP with its first Child SA (one without follows a FAILED).
 */
static void on_outcome(void *ctx, const struct ike_event *ev)
{
	struct seen *s = ctx;
	bool up = ev->kind == IKE_EVENT_IKE_UP && ev->child;

	if (!ev->ike->initiator || (!up && ev->kind != IKE_EVENT_FAILED))
		return;
	s->n++;
	s->rc = up ? 0 : ev->rc;
	s->ike_up = up || ev->ike_up;
	snprintf(s->why, sizeof(s->why), "%s", ev->why ? ev->why : "");
	s->spi_in = up ? ev->child->spi_in : 0;
	s->west_objects = kernel_objects(s->net, WEST);
}

static struct net *net_watched(const char *west, const char *east)
{
	struct net *n = net_new(west, east, NULL, NULL, NULL);

	memset(&seen, 0, sizeof(seen));
	seen.net = n;
	ike_engine_subscribe(n->p[WEST].e, on_outcome, &seen);
	return n;
}

static void up(struct net *n)
{
	struct ikb_error err = { "" };

	assert_int_equal(ike_engine_up(n->p[WEST].e, "test", &err), 0);
}

static bool outcome_seen(struct net *n)
{
	return seen.n > 0;
}

static void assert_ike_up_no_child(struct net *n)
{
	for (int who = WEST; who <= EAST; who++) {
		assert_int_equal(ike_sa_count(n, who, "established"), 1);
		assert_int_equal(ike_sa_count(n, who, NULL), 1);
		assert_int_equal(child_count(n, who), 0);
		assert_int_equal(kernel_objects(n, who), 0);
	}
}

/* Success: the outcome says so, with the Child SA's SPI. */
static void test_outcome_established(void **state)
{
	struct net *n = net_watched(NULL, NULL);

	up(n);
	assert_true(net_run(n, both_up, 5000));
	assert_int_equal(seen.n, 1);
	assert_int_equal(seen.rc, 0);
	assert_true(seen.ike_up);
	assert_int_not_equal(seen.spi_in, 0);
	net_free(n);
}

/* The responder's kernel refuses: NO_PROPOSAL_CHOSEN, the IKE SA stays. */
static void test_auth_responder_refuses(void **state)
{
	struct net *n = net_watched(NULL, NULL);

	kernel_refuse(n, EAST, "sa_update", 0, ENOSYS, NO_AEAD);
	up(n);
	assert_true(net_run(n, outcome_seen, 5000));
	assert_int_equal(seen.rc, -ECONNREFUSED);
	assert_true(seen.ike_up);
	assert_non_null(strstr(seen.why, "NO_PROPOSAL_CHOSEN"));
	/* west's larval SA went with the refusal */
	assert_int_equal(seen.west_objects, 0);
	assert_true(log_has(
		"conn test #1: Child SA not installed, answering NO_PROPOSAL_CHOSEN: " NO_AEAD));
	assert_ike_up_no_child(n);
	net_free(n);
}

static bool child_gone_both(struct net *n)
{
	return log_has("Child SA deleted") && child_count(n, WEST) == 0 &&
	       child_count(n, EAST) == 0;
}

/*
 * The initiator's kernel refuses the Child SA the responder installed:
 * nothing stays in the initiator's kernel from the moment it knows, and
 * its Delete takes the responder's half away.
 */
static void initiator_refuses(const char *op, unsigned after)
{
	struct net *n = net_watched(NULL, NULL);

	kernel_refuse(n, WEST, op, after, ENOSYS, NO_AEAD);
	up(n);
	assert_true(net_run(n, outcome_seen, 5000));
	/* the kernel's own errno */
	assert_int_equal(seen.rc, -ENOSYS);
	assert_true(seen.ike_up);
	assert_non_null(strstr(seen.why, NO_AEAD));
	assert_int_equal(seen.west_objects, 0);
	assert_true(net_run(n, child_gone_both, 5000));
	assert_true(log_has("conn test #1: Child SA not installed, deleting "
			    "it at the peer: " NO_AEAD));
	assert_true(log_has("sending Delete for Child SA"));
	assert_ike_up_no_child(n);
	net_free(n);
}

/* Its inbound SA (UPDSA of the larval SA) is refused: nothing got in. */
static void test_auth_initiator_refuses_in(void **state)
{
	initiator_refuses("sa_update", 0);
}

/* Both SAs and one policy got in before a refusal: all of it goes. */
static void test_auth_initiator_refuses_policy(void **state)
{
	initiator_refuses("policy_add", 1);
}

static bool refused_seen(struct net *n)
{
	return log_has("Child SA refused by the peer: NO_PROPOSAL_CHOSEN") &&
	       child_count(n, WEST) == 1 && child_count(n, EAST) == 1;
}

/* Exactly the first Child SA (2 SAs, 3 tunnel policies), no larval. */
static void assert_first_child_only(struct net *n)
{
	for (int who = WEST; who <= EAST; who++) {
		struct kdump d;

		kernel_dump(n, who, &d);
		assert_int_equal(d.nsa, 2);
		assert_int_equal(d.npol, 3);
		assert_int_equal(kernel_larval(n, who), 0);
		assert_int_equal(child_count(n, who), 1);
		assert_int_equal(ike_sa_count(n, who, "established"), 1);
	}
}

/* The plan's second Child SA: the responder's kernel refuses it. */
static void test_ccs_responder_refuses(void **state)
{
	struct net *n = net_watched(PP2, NULL);

	kernel_refuse(n, EAST, "sa_update", 1, ENOSYS, NO_AEAD);
	up(n);
	assert_true(net_run(n, refused_seen, 5000));
	assert_true(log_has("Child SA not installed, answering "
			    "NO_PROPOSAL_CHOSEN: " NO_AEAD));
	assert_first_child_only(n);
	net_free(n);
}

static bool one_child_after_delete(struct net *n)
{
	return log_has("Child SA deleted") && child_count(n, WEST) == 1 &&
	       child_count(n, EAST) == 1;
}

/*
 * The plan's second Child SA: the initiator's kernel takes its inbound
 * SA and refuses the outbound one.
 */
static void test_ccs_initiator_refuses(void **state)
{
	struct net *n = net_watched(PP2, NULL);

	kernel_refuse(n, WEST, "sa_add", 1, ENOSYS, NO_AEAD);
	up(n);
	assert_true(net_run(n, one_child_after_delete, 5000));
	assert_true(log_has("CREATE_CHILD_SA: Child SA not installed, "
			    "deleting it at the peer: " NO_AEAD));
	assert_first_child_only(n);
	net_free(n);
}

/*
 * A rekey that a kernel refuses, on either side: the old Child SA stays
 * in both kernels and in use, the new one is nowhere.
 */
static void rekey_refused(int refuser, bool (*done)(struct net *),
			  const char *logged)
{
	struct net *n = net_watched(LONG, LONG);
	struct kdump before, w, e;

	up(n);
	assert_true(net_run(n, both_up, 5000));
	kernel_dump(n, WEST, &before);
	kernel_refuse(n, refuser, "sa_update", 0, ENOSYS, NO_AEAD);
	log_reset();
	/* west rekeys: its outbound SA reached its soft limit */
	kernel_expire(n, WEST, kdump_sa(&before, IKB_DIR_OUT), false);
	assert_true(net_run(n, done, 5000));
	assert_true(log_has("rekeying Child SA"));
	assert_true(log_has(logged));
	assert_first_child_only(n);
	kernel_dump(n, WEST, &w);
	kernel_dump(n, EAST, &e);
	for (unsigned i = 0; i < 2; i++) {
		assert_non_null(kdump_spi(&w, before.sa[i].spi));
		assert_non_null(kdump_spi(&e, before.sa[i].spi));
	}
	net_free(n);
}

static void test_rekey_responder_refuses(void **state)
{
	rekey_refused(
		EAST, refused_seen,
		"Child SA not installed, answering NO_PROPOSAL_CHOSEN: " NO_AEAD);
}

static void test_rekey_initiator_refuses(void **state)
{
	rekey_refused(WEST, one_child_after_delete,
		      "CREATE_CHILD_SA: Child SA not installed, "
		      "deleting it at the peer: " NO_AEAD);
}

/* An IKE SA that never comes up is an outcome too. */
static void test_outcome_auth_failed(void **state)
{
	struct net *n = net_new(NULL, NULL, NULL, "secret", "other secret");
	struct ikb_error err = { "" };

	memset(&seen, 0, sizeof(seen));
	seen.net = n;
	ike_engine_subscribe(n->p[WEST].e, on_outcome, &seen);
	assert_int_equal(ike_engine_up(n->p[WEST].e, "test", &err), 0);
	assert_true(net_run(n, outcome_seen, 5000));
	assert_int_equal(seen.rc, -ECONNABORTED);
	assert_false(seen.ike_up);
	assert_non_null(strstr(seen.why, "AUTHENTICATION_FAILED"));
	assert_int_equal(seen.west_objects, 0);
	net_free(n);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(test_outcome_established,
					  net_cleanup),
		cmocka_unit_test_teardown(test_auth_responder_refuses,
					  net_cleanup),
		cmocka_unit_test_teardown(test_auth_initiator_refuses_in,
					  net_cleanup),
		cmocka_unit_test_teardown(test_auth_initiator_refuses_policy,
					  net_cleanup),
		cmocka_unit_test_teardown(test_ccs_responder_refuses,
					  net_cleanup),
		cmocka_unit_test_teardown(test_ccs_initiator_refuses,
					  net_cleanup),
		cmocka_unit_test_teardown(test_rekey_responder_refuses,
					  net_cleanup),
		cmocka_unit_test_teardown(test_rekey_initiator_refuses,
					  net_cleanup),
		cmocka_unit_test_teardown(test_outcome_auth_failed,
					  net_cleanup),
	};

	harness_global_init();
	return cmocka_run_group_tests_name("ike-refusal", tests, NULL, NULL);
}
