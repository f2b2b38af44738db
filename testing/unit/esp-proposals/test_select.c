// SPDX-License-Identifier: GPL-2.0-or-later
/* Responder selection: match, preference order, mismatch reasons, ESN. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "tests.h"

#define ESP IKB_PROTO_ESP
#define IKE IKB_PROTO_IKE

static struct ikb_proposal_list parse(enum ikb_protocol proto, const char *spec)
{
	struct ikb_proposal_list l;
	struct ikb_error err;

	if (epr_parse(proto, spec, &l, &err) != 0)
		fail_msg("%s: %s", spec, err.msg);
	return l;
}

struct sel_case {
	enum ikb_protocol ours_proto;
	const char *ours;
	enum ikb_protocol peer_proto;
	const char *peer;
	unsigned num; /* 0 = no proposal chosen */
	const char *want; /* chosen proposal, or the error */
};

static const struct sel_case cases[] = {
	{ ESP, "aes_gcm256,aes128-sha2_256", ESP, "aes128-sha2_256", 1,
	  "AES_CBC_128-HMAC_SHA2_256_128" },
	/* our preference inside a slot wins over the peer's */
	{ ESP, "aes_gcm256+aes_gcm128", ESP, "aes_gcm128+aes_gcm256", 1,
	  "AES_GCM_16_256" },
	{ ESP, "aes128-sha1+sha2_256", ESP, "aes128-sha2_256+sha1", 1,
	  "AES_CBC_128-HMAC_SHA1_96" },
	/* our first proposal wins even when it is the peer's second */
	{ ESP, "aes_gcm256,aes128-sha1", ESP, "aes128-sha1,aes_gcm256", 2,
	  "AES_GCM_16_256" },
	{ ESP, "aes_gcm256", ESP, "aes128-sha1", 0,
	  "NO_PROPOSAL_CHOSEN: peer offered: AES_CBC_128-HMAC_SHA1_96; we "
	  "accept: AES_GCM_16_256" },
	/* the key length must match too */
	{ ESP, "aes_gcm256", ESP, "aes_gcm128", 0,
	  "NO_PROPOSAL_CHOSEN: peer offered: AES_GCM_16_128; we accept: "
	  "AES_GCM_16_256" },
	{ ESP, "aes128-sha2_256", ESP, "aes128-sha1", 0,
	  "NO_PROPOSAL_CHOSEN: peer offered: AES_CBC_128-HMAC_SHA1_96; we "
	  "accept: AES_CBC_128-HMAC_SHA2_256_128" },
	{ ESP, "aes_gcm256", IKE, "aes_gcm256-sha2_256-dh19", 0,
	  "NO_PROPOSAL_CHOSEN: peer offered: AES_GCM_16_256-HMAC_SHA2_256-DH19; "
	  "we accept: AES_GCM_16_256" },
	/* PFS: a peer that insists on a group we do not do */
	{ ESP, "aes_gcm256", ESP, "aes_gcm256;dh19", 0,
	  "NO_PROPOSAL_CHOSEN: peer offered: AES_GCM_16_256-DH19; we accept: "
	  "AES_GCM_16_256" },
	{ ESP, "aes_gcm256;dh19", ESP, "aes_gcm256", 0,
	  "NO_PROPOSAL_CHOSEN: peer offered: AES_GCM_16_256; we accept: "
	  "AES_GCM_16_256-DH19" },
	{ ESP, "aes_gcm256", ESP, "aes_gcm256;none+dh19", 1,
	  "AES_GCM_16_256-NONE" },
	{ ESP, "aes_gcm256;dh19+dh31", ESP, "aes_gcm256;dh31+dh20+dh19", 1,
	  "AES_GCM_16_256-DH19" },
	/* IKE against strongSwan-style offers */
	{ IKE, "aes_gcm256-sha2_512+sha2_256;dh19+dh31,aes256-sha2_256;dh19",
	  IKE, "aes128gcm16-prfsha256-ecp256,aes256-sha256-ecp256", 2,
	  "AES_CBC_256-HMAC_SHA2_256_128-HMAC_SHA2_256-DH19" },
	{ IKE, "aes_gcm256-sha2_512+sha2_256;dh19+dh31", IKE,
	  "aes256gcm16-prfsha256-prfsha512-x25519-ecp256", 1,
	  "AES_GCM_16_256-HMAC_SHA2_512-DH19" },
};

static void test_cases(void **unused)
{
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const struct sel_case *c = &cases[i];
		struct ikb_proposal_list ours = parse(c->ours_proto, c->ours);
		struct ikb_proposal_list peer = parse(c->peer_proto, c->peer);
		struct ikb_proposal chosen;
		struct ikb_error err;
		unsigned num = 99;
		char got[512];
		int r = epr_select(&ours, &peer, &chosen, &num, &err);

		if (c->num == 0) {
			if (r == 0)
				fail_msg("%s vs %s: chose proposal %u", c->ours,
					 c->peer, num);
			assert_int_equal(r, -ENOENT);
			if (strcmp(err.msg, c->want))
				fail_msg("%s vs %s:\n got  %s\n want %s",
					 c->ours, c->peer, err.msg, c->want);
			continue;
		}
		if (r != 0)
			fail_msg("%s vs %s: %s", c->ours, c->peer, err.msg);
		epr_render_proposal(&chosen, got, sizeof(got));
		if (strcmp(got, c->want) || num != c->num)
			fail_msg("%s vs %s:\n got  #%u %s\n want #%u %s",
				 c->ours, c->peer, num, got, c->num, c->want);
		assert_int_equal(chosen.protocol, c->peer_proto);
	}
}

static struct ikb_proposal_list with(const char *spec, uint8_t type,
				     const uint16_t *ids, unsigned n)
{
	struct ikb_proposal_list l = parse(ESP, spec);

	for (unsigned i = 0; i < n; i++)
		assert_int_equal(epr_add(&l.p[0], type, ids[i], 0), 0);
	return l;
}

static int sel(const struct ikb_proposal_list *ours,
	       const struct ikb_proposal_list *peer, char *got, size_t len)
{
	struct ikb_proposal chosen;
	struct ikb_error err;
	unsigned num;
	int r = epr_select(ours, peer, &chosen, &num, &err);

	if (r == 0)
		epr_render_proposal(&chosen, got, len);
	else
		snprintf(got, len, "%s", err.msg);
	return r;
}

static void test_esn(void **unused)
{
	static const uint16_t both[] = { EPR_ESN_YES, EPR_ESN_NO };
	static const uint16_t yes[] = { EPR_ESN_YES };
	struct ikb_proposal_list plain = parse(ESP, "aes_gcm256");
	struct ikb_proposal_list want_esn = parse(ESP, "aes_gcm256-esn");
	struct ikb_proposal_list peer_both =
		with("aes_gcm256", IKB_XF_ESN, both, 2);
	struct ikb_proposal_list peer_yes =
		with("aes_gcm256", IKB_XF_ESN, yes, 1);
	char got[256];

	/* no ESN configured: "no" out of yes+no, answered explicitly */
	assert_int_equal(sel(&plain, &peer_both, got, sizeof(got)), 0);
	assert_string_equal(got, "AES_GCM_16_256-NO_ESN");
	assert_int_equal(sel(&plain, &peer_yes, got, sizeof(got)), -ENOENT);
	assert_string_equal(got, "NO_PROPOSAL_CHOSEN: peer offered: "
				 "AES_GCM_16_256-ESN; we accept: "
				 "AES_GCM_16_256");
	/* peer proposes no ESN transform at all: treated as "no ESN" */
	assert_int_equal(sel(&plain, &plain, got, sizeof(got)), 0);
	assert_string_equal(got, "AES_GCM_16_256");
	assert_int_equal(sel(&want_esn, &plain, got, sizeof(got)), -ENOENT);
	assert_int_equal(sel(&want_esn, &peer_both, got, sizeof(got)), 0);
	assert_string_equal(got, "AES_GCM_16_256-ESN");
}

static void test_explicit_none_and_unknown_types(void **unused)
{
	static const uint16_t none[] = { 0 };
	static const uint16_t addke[] = { 36 };
	struct ikb_proposal_list ours = parse(ESP, "aes_gcm256");
	struct ikb_proposal_list peer =
		with("aes_gcm256", IKB_XF_INTEG, none, 1);
	char got[256];

	/* AEAD with an explicit INTEG NONE: echoed back */
	assert_int_equal(sel(&ours, &peer, got, sizeof(got)), 0);
	assert_string_equal(got, "AES_GCM_16_256-NONE");

	/* RFC 9370 ADDKE (type 6): only its NONE is acceptable to us */
	peer = with("aes_gcm256", 6, addke, 1);
	assert_int_equal(sel(&ours, &peer, got, sizeof(got)), -ENOENT);
	assert_string_equal(got, "NO_PROPOSAL_CHOSEN: peer offered: "
				 "AES_GCM_16_256-TYPE6_ID36; we accept: "
				 "AES_GCM_16_256");
	peer = with("aes_gcm256", 6, none, 1);
	assert_int_equal(sel(&ours, &peer, got, sizeof(got)), 0);
	assert_string_equal(got, "AES_GCM_16_256-TYPE6_ID0");

	/* a peer proposal we cannot parse the ids of is skipped */
	peer = parse(ESP, "aes_gcm256,aes_gcm256");
	peer.p[0].xf[0].id = 99;
	struct ikb_proposal chosen;
	struct ikb_error err;
	unsigned num = 0;

	assert_int_equal(epr_select(&ours, &peer, &chosen, &num, &err), 0);
	assert_int_equal(num, 2);

	/* a corrupt transform count never reads past the array */
	peer.p[1].n = 200;
	peer.n = 2;
	peer.p[0].xf[0].id = 99;
	assert_int_equal(epr_select(&ours, &peer, &chosen, &num, &err),
			 -ENOENT);

	struct ikb_proposal_list empty = { 0 };

	assert_int_equal(epr_select(&ours, &empty, &chosen, &num, &err),
			 -ENOENT);
	assert_string_equal(err.msg, "NO_PROPOSAL_CHOSEN: peer offered: "
				     "nothing; we accept: AES_GCM_16_256");
}

static void test_defaults_against_libreswan_and_strongswan(void **unused)
{
	struct ikb_proposal_list esp, ike;
	char got[256];

	assert_int_equal(epr_defaults(ESP, &esp), 0);
	assert_int_equal(epr_defaults(IKE, &ike), 0);
	struct ikb_proposal_list peer = parse(ESP, "aes128-sha256");

	/* default AES_CBC_128 proposal holds sha2_256 */
	assert_int_equal(sel(&esp, &peer, got, sizeof(got)), 0);
	assert_string_equal(got, "AES_CBC_128-HMAC_SHA2_256_128");
	peer = parse(IKE, "aes256gcm16-prfsha384-ecp384");
	assert_int_equal(sel(&ike, &peer, got, sizeof(got)), -ENOENT);
	peer = parse(IKE, "aes256gcm16-prfsha512-modp2048");
	assert_int_equal(sel(&ike, &peer, got, sizeof(got)), 0);
	assert_string_equal(got, "AES_GCM_16_256-HMAC_SHA2_512-MODP2048");
}

int epr_test_select(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cases),
		cmocka_unit_test(test_esn),
		cmocka_unit_test(test_explicit_none_and_unknown_types),
		cmocka_unit_test(
			test_defaults_against_libreswan_and_strongswan),
	};

	return cmocka_run_group_tests_name("esp-proposals select", tests, NULL,
					   NULL);
}
