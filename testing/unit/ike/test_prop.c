// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The proposal an SA keeps (daemon/ike/prop.c): what is kept is what was
 * chosen, widened back it is the same ikb_proposal, and a chosen proposal
 * with more transforms than one of each type is refused with a message,
 * leaving what was kept before.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>
#include <cmocka.h>

#include "ike/prop.h"

static struct ikb_proposal gcm(void)
{
	struct ikb_proposal p = { .protocol = IKB_PROTO_IKE, .n = 4 };

	p.xf[0] = (struct ikb_transform){ IKB_XF_ENCR, 20, 256 };
	p.xf[1] = (struct ikb_transform){ IKB_XF_PRF, 7, 0 };
	p.xf[2] = (struct ikb_transform){ IKB_XF_INTEG, 0, 0 };
	p.xf[3] = (struct ikb_transform){ IKB_XF_KE, 19, 0 };
	return p;
}

static void test_keep_widen(void **state)
{
	struct ikb_proposal chosen = gcm(), back;
	struct ike_prop kept;
	char buf[128];

	assert_int_equal(ike_prop_keep(&kept, &chosen, NULL), 0);
	assert_int_equal(kept.n, 4);
	assert_int_equal(ike_prop_xf(&kept, IKB_XF_KE)->id, 19);
	assert_int_equal(ike_prop_xf(&kept, IKB_XF_ENCR)->key_bits, 256);
	assert_null(ike_prop_xf(&kept, IKB_XF_ESN));
	memset(&back, 0xa5, sizeof(back));
	ike_prop_widen(&kept, &back);
	chosen = gcm(); /* the same, with the unused transforms zero */
	memset(&chosen.xf[chosen.n], 0,
	       sizeof(chosen.xf) - chosen.n * sizeof(chosen.xf[0]));
	assert_memory_equal(&back, &chosen, sizeof(back));
	/* INTEG NONE is left out of what status shows */
	ike_prop_render(&kept, buf, sizeof(buf));
	assert_string_equal(buf, "AES_GCM_16_256-HMAC_SHA2_512-ECP256");
}

static void test_too_many(void **state)
{
	struct ikb_proposal chosen = gcm(), big = { .protocol = IKB_PROTO_ESP };
	struct ikb_error err = { "" };
	struct ike_prop kept;

	/* seventeen types, as a proposals plugin's select() could return */
	for (unsigned t = 0; t <= IKE_PROP_XFORMS; t++)
		big.xf[big.n++] =
			(struct ikb_transform){ (uint8_t)(100 + t), 0, 0 };
	assert_int_equal(ike_prop_keep(&kept, &chosen, NULL), 0);
	assert_false(ike_prop_fits(&big, &err));
	assert_string_equal(
		err.msg,
		"SA payload: the chosen proposal has 17 transforms; one of each type is at most 16");
	err.msg[0] = '\0';
	assert_int_equal(ike_prop_keep(&kept, &big, &err), -E2BIG);
	assert_non_null(strstr(err.msg, "17 transforms"));
	assert_int_equal(kept.n, 4); /* unchanged */
	assert_int_equal(kept.protocol, IKB_PROTO_IKE);
	big.n = IKE_PROP_XFORMS;
	assert_true(ike_prop_fits(&big, NULL));
	assert_int_equal(ike_prop_keep(&kept, &big, NULL), 0);
	assert_int_equal(kept.n, IKE_PROP_XFORMS);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_keep_widen),
		cmocka_unit_test(test_too_many),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
