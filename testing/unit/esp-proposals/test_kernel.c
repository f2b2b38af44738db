// SPDX-License-Identifier: GPL-2.0-or-later
/* kernel_algs: XFRM names, key bits (with salt) and ICV for each algorithm. */
#include <errno.h>
#include <string.h>

#include "tests.h"

struct k_case {
	const char *esp;
	const char *aead;
	unsigned aead_key, aead_icv;
	const char *encr;
	unsigned encr_key;
	const char *integ;
	unsigned integ_key, integ_icv;
};

static const struct k_case cases[] = {
	{ "aes_gcm256", "rfc4106(gcm(aes))", 288, 128, "", 0, "", 0, 0 },
	{ "aes_gcm192", "rfc4106(gcm(aes))", 224, 128, "", 0, "", 0, 0 },
	{ "aes_gcm128", "rfc4106(gcm(aes))", 160, 128, "", 0, "", 0, 0 },
	{ "aes_gcm_b256", "rfc4106(gcm(aes))", 288, 96, "", 0, "", 0, 0 },
	{ "aes_gcm_a128", "rfc4106(gcm(aes))", 160, 64, "", 0, "", 0, 0 },
	{ "aes_ccm256", "rfc4309(ccm(aes))", 280, 128, "", 0, "", 0, 0 },
	{ "aes_ccm_b192", "rfc4309(ccm(aes))", 216, 96, "", 0, "", 0, 0 },
	{ "aes_ccm_a128", "rfc4309(ccm(aes))", 152, 64, "", 0, "", 0, 0 },
	{ "chacha20_poly1305", "rfc7539esp(chacha20,poly1305)", 288, 128, "", 0,
	  "", 0, 0 },
	{ "aes128-sha1", "", 0, 0, "cbc(aes)", 128, "hmac(sha1)", 160, 96 },
	{ "aes192-sha2_256", "", 0, 0, "cbc(aes)", 192, "hmac(sha256)", 256,
	  128 },
	{ "aes256-sha2_384", "", 0, 0, "cbc(aes)", 256, "hmac(sha384)", 384,
	  192 },
	{ "aes256-sha2_512", "", 0, 0, "cbc(aes)", 256, "hmac(sha512)", 512,
	  256 },
	{ "aes128-aes_xcbc", "", 0, 0, "cbc(aes)", 128, "xcbc(aes)", 128, 96 },
	{ "aes_ctr128-sha2_256", "", 0, 0, "rfc3686(ctr(aes))", 160,
	  "hmac(sha256)", 256, 128 },
	{ "aes_ctr256-sha2_256", "", 0, 0, "rfc3686(ctr(aes))", 288,
	  "hmac(sha256)", 256, 128 },
	{ "3des-sha1", "", 0, 0, "cbc(des3_ede)", 192, "hmac(sha1)", 160, 96 },
	{ "null-sha2_256", "", 0, 0, "ecb(cipher_null)", 0, "hmac(sha256)", 256,
	  128 },
	{ "camellia128-sha2_256", "", 0, 0, "cbc(camellia)", 128,
	  "hmac(sha256)", 256, 128 },
};

static void fill_junk(struct ikb_sa *sa)
{
	memset(sa, 0, sizeof(*sa));
	strcpy(sa->aead.name, "junk");
	strcpy(sa->encr.name, "junk");
	strcpy(sa->integ.name, "junk");
	sa->aead.key_bits = sa->encr.key_bits = sa->integ.key_bits = 7;
	sa->aead.key[0] = 0x5a; /* keys are not ours to touch */
}

static void test_cases(void **unused)
{
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const struct k_case *c = &cases[i];
		struct ikb_proposal_list l;
		struct ikb_error err;
		struct ikb_sa sa;

		if (epr_parse(IKB_PROTO_ESP, c->esp, &l, &err))
			fail_msg("%s: %s", c->esp, err.msg);
		fill_junk(&sa);
		if (epr_kernel_algs(&l.p[0], &sa, &err))
			fail_msg("%s: %s", c->esp, err.msg);
		if (strcmp(sa.aead.name, c->aead) ||
		    sa.aead.key_bits != c->aead_key ||
		    sa.aead.icv_bits != c->aead_icv ||
		    strcmp(sa.encr.name, c->encr) ||
		    sa.encr.key_bits != c->encr_key ||
		    strcmp(sa.integ.name, c->integ) ||
		    sa.integ.key_bits != c->integ_key ||
		    sa.integ.icv_bits != c->integ_icv)
			fail_msg("%s: aead %s/%u/%u encr %s/%u integ %s/%u/%u",
				 c->esp, sa.aead.name, sa.aead.key_bits,
				 sa.aead.icv_bits, sa.encr.name,
				 sa.encr.key_bits, sa.integ.name,
				 sa.integ.key_bits, sa.integ.icv_bits);
		assert_int_equal(sa.aead.key[0], 0x5a);
	}
}

static void test_errors(void **unused)
{
	struct ikb_proposal_list l;
	struct ikb_error err;
	struct ikb_sa sa;
	struct ikb_proposal p = { .protocol = IKB_PROTO_ESP, .n = 1 };

	p.xf[0] = (struct ikb_transform){ IKB_XF_ENCR, EPR_ENCR_AES_CBC, 0 };
	assert_int_equal(epr_kernel_algs(&p, &sa, &err), -EINVAL);
	assert_string_equal(err.msg, "AES_CBC needs a key length of 128, 192 "
				     "or 256 bits, not 0");
	p.xf[0].key_bits = 128;
	assert_int_equal(epr_kernel_algs(&p, &sa, &err), -EINVAL);
	assert_string_equal(err.msg, "AES_CBC needs an integrity algorithm the "
				     "kernel knows (integrity transform 0)");
	p.xf[0].id = 99;
	assert_int_equal(epr_kernel_algs(&p, &sa, &err), -EINVAL);
	assert_string_equal(err.msg,
			    "no kernel algorithm for encryption transform 99");
	p.n = 0;
	assert_int_equal(epr_kernel_algs(&p, &sa, &err), -EINVAL);
	assert_string_equal(err.msg,
			    "no kernel algorithm for encryption transform 0");

	assert_int_equal(
		epr_parse(IKB_PROTO_IKE, "aes_gcm256-sha2_256-dh19", &l, &err),
		0);
	assert_int_equal(epr_kernel_algs(&l.p[0], &sa, &err), -EINVAL);
	assert_string_equal(err.msg,
			    "only ESP SAs go to the kernel, not protocol 1");
}

int epr_test_kernel(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cases),
		cmocka_unit_test(test_errors),
	};

	return cmocka_run_group_tests_name("esp-proposals kernel_algs", tests,
					   NULL, NULL);
}
