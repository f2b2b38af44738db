// SPDX-License-Identifier: GPL-2.0-or-later
/* esp= and ike= parsing: every accepted form, every error, the defaults. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "tests.h"

#define ESP IKB_PROTO_ESP
#define IKE IKB_PROTO_IKE
#define IKE_KE "DH19+DH20+DH21+DH31+MODP4096+MODP3072+MODP2048+MODP8192"
#define CBC_INTEG "HMAC_SHA2_512_256+HMAC_SHA2_256_128"

struct ok_case {
	enum ikb_protocol proto;
	const char *spec;
	const char *want; /* epr_render_list() */
};

static const struct ok_case ok_cases[] = {
	/* AES-GCM: key length in the name, after '_', after '-', omitted */
	{ ESP, "aes_gcm256", "AES_GCM_16_256" },
	{ ESP, "aes_gcm128", "AES_GCM_16_128" },
	{ ESP, "aes_gcm192", "AES_GCM_16_192" },
	{ ESP, "aes_gcm_256", "AES_GCM_16_256" },
	{ ESP, "aes_gcm-256", "AES_GCM_16_256" },
	{ ESP, "aes_gcm_16_256", "AES_GCM_16_256" },
	{ ESP, "aes_gcm_16_128", "AES_GCM_16_128" },
	{ ESP, "aes_gcm16_128", "AES_GCM_16_128" },
	{ ESP, "aes_gcm16", "AES_GCM_16_128+AES_GCM_16_256" },
	{ ESP, "aes_gcm_c-256", "AES_GCM_16_256" },
	{ ESP, "aes_gcm_c256", "AES_GCM_16_256" },
	{ ESP, "aes_gcm", "AES_GCM_16_128+AES_GCM_16_256" },
	{ ESP, "AES_GCM_16_256", "AES_GCM_16_256" },
	{ ESP, "aes_gcm_b", "AES_GCM_12_128+AES_GCM_12_256" },
	{ ESP, "aes_gcm_b256", "AES_GCM_12_256" },
	{ ESP, "aes_gcm_12_128", "AES_GCM_12_128" },
	{ ESP, "aes_gcm12_192", "AES_GCM_12_192" },
	{ ESP, "aes_gcm_a128", "AES_GCM_8_128" },
	{ ESP, "aes_gcm_8_256", "AES_GCM_8_256" },
	{ ESP, "aes_gcm8-128", "AES_GCM_8_128" },
	{ ESP, "aes_gcm256+aes_gcm128", "AES_GCM_16_256+AES_GCM_16_128" },
	{ ESP, "aes_gcm256-none", "AES_GCM_16_256" },
	{ ESP, "aes_gcm256-null", "AES_GCM_16_256" },
	{ ESP, "aes_ccm", "AES_CCM_16_128+AES_CCM_16_256" },
	{ ESP, "aes_ccm_a256", "AES_CCM_8_256" },
	{ ESP, "aes_ccm_b128", "AES_CCM_12_128" },
	{ ESP, "aes_ccm_c192", "AES_CCM_16_192" },
	{ ESP, "chacha20_poly1305", "CHACHA20_POLY1305" },
	{ ESP, "chacha20poly1305", "CHACHA20_POLY1305" },
	/* CBC, CTR, 3DES, NULL, Camellia with integrity */
	{ ESP, "aes", "AES_CBC_128+AES_CBC_256-" CBC_INTEG },
	{ ESP, "aes_cbc", "AES_CBC_128+AES_CBC_256-" CBC_INTEG },
	{ ESP, "aes128", "AES_CBC_128-" CBC_INTEG },
	{ ESP, "aes128-sha1", "AES_CBC_128-HMAC_SHA1_96" },
	{ ESP, "aes128-sha", "AES_CBC_128-HMAC_SHA1_96" },
	{ ESP, "aes128-sha1_96", "AES_CBC_128-HMAC_SHA1_96" },
	{ ESP, "aes256-sha2_256", "AES_CBC_256-HMAC_SHA2_256_128" },
	{ ESP, "aes256-sha256", "AES_CBC_256-HMAC_SHA2_256_128" },
	{ ESP, "aes256-sha2", "AES_CBC_256-HMAC_SHA2_256_128" },
	{ ESP, "aes_256-sha2_256_128", "AES_CBC_256-HMAC_SHA2_256_128" },
	{ ESP, "aes_cbc_192-sha2_384", "AES_CBC_192-HMAC_SHA2_384_192" },
	{ ESP, "aes256-sha384", "AES_CBC_256-HMAC_SHA2_384_192" },
	{ ESP, "aes-128-sha2_512", "AES_CBC_128-HMAC_SHA2_512_256" },
	{ ESP, "aes256-sha512", "AES_CBC_256-HMAC_SHA2_512_256" },
	{ ESP, "aes128-aes_xcbc", "AES_CBC_128-AES_XCBC_96" },
	{ ESP, "aes128-aes_xcbc_96", "AES_CBC_128-AES_XCBC_96" },
	{ ESP, "aes-sha2_512+sha2_256", "AES_CBC_128+AES_CBC_256-" CBC_INTEG },
	{ ESP, "aes_ctr128-sha2_256", "AES_CTR_128-HMAC_SHA2_256_128" },
	{ ESP, "aesctr256-sha1", "AES_CTR_256-HMAC_SHA1_96" },
	{ ESP, "aes_ctr", "AES_CTR_128+AES_CTR_256-" CBC_INTEG },
	{ ESP, "3des-sha1", "3DES-HMAC_SHA1_96" },
	{ ESP, "null-sha2_256", "NULL-HMAC_SHA2_256_128" },
	{ ESP, "null", "NULL-" CBC_INTEG },
	{ ESP, "camellia256-sha2_256", "CAMELLIA_CBC_256-HMAC_SHA2_256_128" },
	/* key exchange for PFS: '-' and ';' forms, every group alias */
	{ ESP, "aes128-sha2_256-dh19", "AES_CBC_128-HMAC_SHA2_256_128-DH19" },
	{ ESP, "aes128-sha2_512;dh19", "AES_CBC_128-HMAC_SHA2_512_256-DH19" },
	{ ESP, "aes_gcm256;dh14+dh19", "AES_GCM_16_256-MODP2048+DH19" },
	{ ESP, "aes_gcm256-none-dh31", "AES_GCM_16_256-DH31" },
	{ ESP, "aes_gcm256;modp2048", "AES_GCM_16_256-MODP2048" },
	{ ESP, "aes_gcm256;modp3072+dh15", "AES_GCM_16_256-MODP3072" },
	{ ESP, "aes_gcm256;modp4096+dh16", "AES_GCM_16_256-MODP4096" },
	{ ESP, "aes_gcm256;modp6144+dh17", "AES_GCM_16_256-MODP6144" },
	{ ESP, "aes_gcm256;modp8192+dh18", "AES_GCM_16_256-MODP8192" },
	{ ESP, "aes_gcm256;modp1536+dh5", "AES_GCM_16_256-MODP1536" },
	{ ESP, "aes_gcm256;ecp_256+ecp256", "AES_GCM_16_256-DH19" },
	{ ESP, "aes_gcm256;dh20+ecp_384+ecp384", "AES_GCM_16_256-DH20" },
	{ ESP, "aes_gcm256;dh21+ecp_521+ecp521", "AES_GCM_16_256-DH21" },
	{ ESP, "aes_gcm256;curve25519+x25519", "AES_GCM_16_256-DH31" },
	{ ESP, "aes_gcm256;none", "AES_GCM_16_256-NONE" },
	/* several proposals, spaces, strongSwan's trailing '!' */
	{ ESP, "aes_gcm256,aes128-sha1",
	  "AES_GCM_16_256, AES_CBC_128-HMAC_SHA1_96" },
	{ ESP, " aes_gcm256 , aes128-sha1 ",
	  "AES_GCM_16_256, AES_CBC_128-HMAC_SHA1_96" },
	{ ESP, "aes_gcm256,aes_gcm256", "AES_GCM_16_256, AES_GCM_16_256" },
	/* strongSwan spellings */
	{ ESP, "aes128gcm16", "AES_GCM_16_128" },
	{ ESP, "aes256gcm16", "AES_GCM_16_256" },
	{ ESP, "aes256gcm128", "AES_GCM_16_256" },
	{ ESP, "aes128gcm12", "AES_GCM_12_128" },
	{ ESP, "aes192gcm96", "AES_GCM_12_192" },
	{ ESP, "aes128gcm8", "AES_GCM_8_128" },
	{ ESP, "aes128ccm16", "AES_CCM_16_128" },
	{ ESP, "aes256gcm16-ecp256", "AES_GCM_16_256-DH19" },
	{ ESP, "aes128gcm16-aes256gcm16!", "AES_GCM_16_128+AES_GCM_16_256" },
	{ ESP, "aes128-sha256-modp2048",
	  "AES_CBC_128-HMAC_SHA2_256_128-MODP2048" },
	{ ESP, "aes128ctr-sha1", "AES_CTR_128-HMAC_SHA1_96" },
	{ ESP, "aes256-aes128-sha256-sha1",
	  "AES_CBC_256+AES_CBC_128-HMAC_SHA2_256_128+HMAC_SHA1_96" },
	{ ESP, "chacha20poly1305-x25519", "CHACHA20_POLY1305-DH31" },
	{ ESP, "aes128-aesxcbc", "AES_CBC_128-AES_XCBC_96" },
	{ ESP, "aes128-sha256-esn", "AES_CBC_128-HMAC_SHA2_256_128-ESN" },
	{ ESP, "aes128-sha256-esn-noesn",
	  "AES_CBC_128-HMAC_SHA2_256_128-ESN+NO_ESN" },
	{ ESP, "aes128-sha256-modp2048!",
	  "AES_CBC_128-HMAC_SHA2_256_128-MODP2048" },
	{ ESP, "3des-sha1,null-sha1", "3DES-HMAC_SHA1_96, NULL-HMAC_SHA1_96" },

	/* ike=: ENCR-PRF-KE, the ';' form, defaults for what is left out */
	{ IKE, "aes_gcm256-sha2_256", "AES_GCM_16_256-HMAC_SHA2_256-" IKE_KE },
	{ IKE, "aes_gcm256-sha2_256-dh19",
	  "AES_GCM_16_256-HMAC_SHA2_256-DH19" },
	{ IKE, "aes_gcm256-sha2_256;dh19",
	  "AES_GCM_16_256-HMAC_SHA2_256-DH19" },
	{ IKE, "aes_gcm256;dh19",
	  "AES_GCM_16_256-HMAC_SHA2_512+HMAC_SHA2_256-DH19" },
	{ IKE, "aes256-sha2_256-dh19",
	  "AES_CBC_256-HMAC_SHA2_256_128-HMAC_SHA2_256-DH19" },
	{ IKE, "aes-sha2;modp2048",
	  "AES_CBC_256+AES_CBC_128-HMAC_SHA2_256_128-HMAC_SHA2_256-MODP2048" },
	{ IKE, "aes128-sha1;modp2048",
	  "AES_CBC_128-HMAC_SHA1_96-HMAC_SHA1-MODP2048" },
	{ IKE, "aes_gcm",
	  "AES_GCM_16_256+AES_GCM_16_128-HMAC_SHA2_512+HMAC_SHA2_256-" IKE_KE },
	{ IKE, "aes128-sha2_256-sha2_512-dh19",
	  "AES_CBC_128-HMAC_SHA2_256_128-HMAC_SHA2_512-DH19" },
	{ IKE, "aes_gcm-none-sha2_256-dh19",
	  "AES_GCM_16_256+AES_GCM_16_128-HMAC_SHA2_256-DH19" },
	{ IKE, "aes128-aes_xcbc-dh19",
	  "AES_CBC_128-AES_XCBC_96-AES128_XCBC-DH19" },
	{ IKE, "aes256-sha2_384-dh20",
	  "AES_CBC_256-HMAC_SHA2_384_192-HMAC_SHA2_384-DH20" },
	{ IKE, "aes256-sha2_512-dh21",
	  "AES_CBC_256-HMAC_SHA2_512_256-HMAC_SHA2_512-DH21" },
	{ IKE, "3des-sha1;modp2048", "3DES-HMAC_SHA1_96-HMAC_SHA1-MODP2048" },
	{ IKE, "aes_gcm256+chacha20_poly1305-sha2_512;dh19+dh31",
	  "AES_GCM_16_256+CHACHA20_POLY1305-HMAC_SHA2_512-DH19+DH31" },
	{ IKE, "aes_ctr256-sha2_256-dh19",
	  "AES_CTR_256-HMAC_SHA2_256_128-HMAC_SHA2_256-DH19" },
	{ IKE, "aes128gcm16-prfsha256-ecp256",
	  "AES_GCM_16_128-HMAC_SHA2_256-DH19" },
	{ IKE, "aes256-sha256-modp2048!",
	  "AES_CBC_256-HMAC_SHA2_256_128-HMAC_SHA2_256-MODP2048" },
	{ IKE, "aes128-sha256-prfsha384-curve25519",
	  "AES_CBC_128-HMAC_SHA2_256_128-HMAC_SHA2_384-DH31" },
	{ IKE, "aes256gcm16-prfsha512-prfsha256-ecp384-modp3072",
	  "AES_GCM_16_256-HMAC_SHA2_512+HMAC_SHA2_256-DH20+MODP3072" },
	{ IKE, "aes128-sha1-prfaesxcbc-modp2048",
	  "AES_CBC_128-HMAC_SHA1_96-AES128_XCBC-MODP2048" },
	{ IKE, "chacha20poly1305-prfsha256-x25519",
	  "CHACHA20_POLY1305-HMAC_SHA2_256-DH31" },
	{ IKE, "aes_gcm256-sha2_256-dh19,aes256-sha2_512-dh19",
	  "AES_GCM_16_256-HMAC_SHA2_256-DH19, "
	  "AES_CBC_256-HMAC_SHA2_512_256-HMAC_SHA2_512-DH19" },
};

static void test_ok(void **unused)
{
	for (size_t i = 0; i < sizeof(ok_cases) / sizeof(ok_cases[0]); i++) {
		const struct ok_case *c = &ok_cases[i];
		struct ikb_proposal_list l;
		struct ikb_error err;
		char got[1024];
		int r = epr_parse(c->proto, c->spec, &l, &err);

		if (r != 0)
			fail_msg("%s=%s: unexpected error: %s",
				 c->proto == IKE ? "ike" : "esp", c->spec,
				 err.msg);
		epr_render_list(&l, got, sizeof(got));
		if (strcmp(got, c->want) != 0)
			fail_msg("%s=%s:\n got  %s\n want %s",
				 c->proto == IKE ? "ike" : "esp", c->spec, got,
				 c->want);
		assert_int_equal(l.p[0].protocol, c->proto);
	}
}

struct err_case {
	enum ikb_protocol proto;
	const char *spec;
	const char *want; /* the whole message */
};

static const struct err_case err_cases[] = {
	{ ESP, "aes_gcm128-sha1",
	  "esp=aes_gcm128-sha1: AEAD algorithm aes_gcm128 must not have an "
	  "integrity algorithm (sha1)" },
	{ ESP, "aes_cbc-none",
	  "esp=aes_cbc-none: aes_cbc needs an integrity algorithm; 'none' is "
	  "only for AEAD algorithms such as aes_gcm" },
	{ ESP, "aes_gcm129",
	  "esp=aes_gcm129: unknown encryption algorithm 'aes_gcm129' (aes_gcm "
	  "key length must be 128, 192 or 256)" },
	{ ESP, "blowfish",
	  "esp=blowfish: unknown encryption algorithm "
	  "'blowfish'" },
	{ ESP, "aes-512",
	  "esp=aes-512: invalid key length 512 for aes: must "
	  "be 128, 192 or 256" },
	{ ESP, "aes512-sha1",
	  "esp=aes512-sha1: unknown encryption algorithm 'aes512' (aes_cbc key "
	  "length must be 128, 192 or 256)" },
	{ ESP, "aes128gcm17",
	  "esp=aes128gcm17: unknown encryption algorithm 'aes128gcm17'" },
	{ ESP, "aes100gcm16",
	  "esp=aes100gcm16: unknown encryption algorithm 'aes100gcm16' "
	  "(aes_gcm key length must be 128, 192 or 256)" },
	{ ESP, "3des168-sha1",
	  "esp=3des168-sha1: unknown encryption algorithm '3des168' (3des has "
	  "a fixed key length)" },
	{ ESP, "3des-192",
	  "esp=3des-192: 3des does not take a key length "
	  "(got '192')" },
	{ ESP, "chacha20_poly1305-256",
	  "esp=chacha20_poly1305-256: chacha20_poly1305 does not take a key "
	  "length (got '256')" },
	{ ESP, "aes128-256",
	  "esp=aes128-256: key length given twice: "
	  "'aes128' and '256'" },
	/* a repeated cipher adds no transform: the length has none to go
	 * to (fuzz-proposals found a NULL dereference here) */
	{ ESP, "aes+3des+3des-4",
	  "esp=aes+3des+3des-4: key length '4' after 3des, which the "
	  "proposal names already" },
	{ ESP, "aes+aes-256",
	  "esp=aes+aes-256: key length '256' after aes, which the proposal "
	  "names already" },
	{ ESP, "",
	  "esp=: empty value; write proposals such as aes_gcm256 or "
	  "aes256-sha2_256, or leave the key out for the defaults" },
	{ ESP, "!",
	  "esp=: empty value; write proposals such as aes_gcm256 or "
	  "aes256-sha2_256, or leave the key out for the defaults" },
	{ ESP, "aes,", "esp=aes,: proposal 2 is empty" },
	{ ESP, ",aes", "esp=,aes: proposal 1 is empty" },
	{ ESP, "aes-", "esp=aes-: trailing '-' with no algorithm after it" },
	{ ESP, "aes+", "esp=aes+: trailing '+' with no algorithm after it" },
	{ ESP, "aes;", "esp=aes;: trailing ';' with no algorithm after it" },
	{ ESP, "-sha1", "esp=-sha1: empty encryption algorithm before '-'" },
	{ ESP, "aes--sha1",
	  "esp=aes--sha1: empty algorithm between '-' and "
	  "'-'" },
	{ ESP, "aes+-sha1",
	  "esp=aes+-sha1: empty algorithm between '+' and "
	  "'-'" },
	{ ESP, "null-none",
	  "esp=null-none: null encryption with integrity "
	  "'none' protects nothing" },
	{ ESP, "aes-sha3", "esp=aes-sha3: unknown integrity algorithm 'sha3'" },
	{ ESP, "aes-sha1-dh99",
	  "esp=aes-sha1-dh99: unknown key exchange group "
	  "'dh99'" },
	{ ESP, "aes-sha1-dh19-foo",
	  "esp=aes-sha1-dh19-foo: unexpected 'foo' "
	  "after the key exchange group" },
	{ ESP, "aes-md5",
	  "esp=aes-md5: md5 is not allowed: HMAC-MD5 is "
	  "insecure (RFC 8221: MUST NOT)" },
	{ ESP, "aes-sha1-modp1024",
	  "esp=aes-sha1-modp1024: modp1024 is not allowed: 1024-bit MODP is "
	  "too weak (RFC 8247: SHOULD NOT; libreswan 4 no longer builds it)" },
	{ ESP, "aes-sha1;dh2",
	  "esp=aes-sha1;dh2: dh2 is not allowed: 1024-bit MODP is too weak "
	  "(RFC 8247: SHOULD NOT; libreswan 4 no longer builds it)" },
	{ ESP, "aes-sha1;modp768",
	  "esp=aes-sha1;modp768: modp768 is not "
	  "allowed: 768-bit MODP is broken (RFC "
	  "8247: MUST NOT)" },
	{ ESP, "aes-sha1;dh22",
	  "esp=aes-sha1;dh22: dh22 is not allowed: RFC "
	  "5114 groups have unverifiable parameters "
	  "(RFC 8247: SHOULD NOT)" },
	{ ESP, "des-sha1",
	  "esp=des-sha1: des is not allowed: single DES has a "
	  "56-bit key and is broken (RFC 8221: MUST NOT)" },
	{ ESP, "aes_gcm256+aes128-sha1",
	  "esp=aes_gcm256+aes128-sha1: AEAD and non-AEAD encryption "
	  "algorithms cannot be combined in one proposal (aes_gcm256 and "
	  "aes128); separate them with ','" },
	{ ESP, "sha1",
	  "esp=sha1: 'sha1' is an integrity algorithm; a proposal "
	  "starts with an encryption algorithm" },
	{ ESP, "dh19",
	  "esp=dh19: 'dh19' is a key exchange group; a proposal "
	  "starts with an encryption algorithm" },
	{ ESP, "aes-sha1-dh19-sha256",
	  "esp=aes-sha1-dh19-sha256: integrity algorithm 'sha256' must come "
	  "before the key exchange group" },
	{ ESP, "aes-sha1-aes256",
	  "esp=aes-sha1-aes256: encryption algorithm "
	  "'aes256' must come before the integrity "
	  "algorithm" },
	{ ESP, "aes-sha1+dh19",
	  "esp=aes-sha1+dh19: '+' joins algorithms of one "
	  "kind: 'dh19' is not an integrity algorithm" },
	{ ESP, "aes-sha1+sha4",
	  "esp=aes-sha1+sha4: unknown integrity algorithm "
	  "'sha4'" },
	{ ESP, "aes-sha1;sha256",
	  "esp=aes-sha1;sha256: 'sha256' after ';' is "
	  "not a key exchange group" },
	{ ESP, "aes-sha1;dh19;dh20",
	  "esp=aes-sha1;dh19;dh20: a second ';': only one ';' may introduce "
	  "the key exchange groups" },
	{ ESP, "aes;dh19-dh20",
	  "esp=aes;dh19-dh20: unexpected 'dh20' after the "
	  "key exchange groups that ';' introduced" },
	{ ESP, "aes-sha1-dh19,aes_gcm256",
	  "esp=aes-sha1-dh19,aes_gcm256 (proposal 2): has no key exchange "
	  "group while other proposals have one: either all or no esp= "
	  "proposals name one" },
	{ ESP, "aes_gcm256,aes_gcm129",
	  "esp=aes_gcm129 (proposal 2): unknown encryption algorithm "
	  "'aes_gcm129' (aes_gcm key length must be 128, 192 or 256)" },
	{ ESP, "aes_gcm256,,aes128",
	  "esp=aes_gcm256,,aes128: proposal 2 is "
	  "empty" },
	{ ESP, "aes128-prfsha256",
	  "esp=aes128-prfsha256: unknown integrity "
	  "algorithm 'prfsha256'" },
	{ ESP, "aes-sha1-100",
	  "esp=aes-sha1-100: unknown key exchange group "
	  "'100'" },
	{ ESP,
	  "aes_gcm,aes_gcm,aes_gcm,aes_gcm,aes_gcm,aes_gcm,aes_gcm,aes_gcm,"
	  "aes_gcm,aes_gcm,aes_gcm,aes_gcm,aes_gcm,aes_gcm,aes_gcm,aes_gcm,"
	  "aes_gcm",
	  /* the proposal text is cut at 96 characters to keep the reason */
	  "esp=aes_gcm,aes_gcm,aes_gcm,aes_gcm,aes_gcm,aes_gcm,aes_gcm,"
	  "aes_gcm,aes_gcm,aes_gcm,aes_gcm,aes_gcm,...: 17 proposals: at "
	  "most 16 are allowed" },

	{ IKE, "null-sha2_256",
	  "ike=null-sha2_256: null encryption is not allowed for IKE (RFC "
	  "7296: the IKE SA is always encrypted)" },
	{ IKE, "aes-sha2;none",
	  "ike=aes-sha2;none: IKE needs a key exchange "
	  "group; 'none' is only for esp=" },
	{ IKE, "aes_ccm-sha2",
	  "ike=aes_ccm-sha2: aes_ccm is only supported for "
	  "ESP, not IKE" },
	{ IKE, "aes_gcm-sha1-sha2_256",
	  "ike=aes_gcm-sha1-sha2_256: AEAD algorithm aes_gcm must not have an "
	  "integrity algorithm (sha1)" },
	{ IKE, "aes-none-sha2_256",
	  "ike=aes-none-sha2_256: aes needs an integrity algorithm; 'none' is "
	  "only for AEAD algorithms such as aes_gcm" },
	{ IKE, "aes-foo",
	  "ike=aes-foo: unknown PRF or integrity algorithm "
	  "'foo'" },
	{ IKE, "aes-sha2-foo",
	  "ike=aes-sha2-foo: unknown key exchange group "
	  "'foo'" },
	{ IKE, "aes-sha2-dh19-foo",
	  "ike=aes-sha2-dh19-foo: unexpected 'foo' "
	  "after the key exchange group" },
	{ IKE, "aes-md5",
	  "ike=aes-md5: md5 is not allowed: HMAC-MD5 is "
	  "insecure (RFC 8247: MUST NOT)" },
	{ IKE, "aes-sha2-modp1024",
	  "ike=aes-sha2-modp1024: modp1024 is not allowed: 1024-bit MODP is "
	  "too weak (RFC 8247: SHOULD NOT; libreswan 4 no longer builds it)" },
	{ IKE, "aes-esn",
	  "ike=aes-esn: unknown PRF or integrity algorithm "
	  "'esn'" },
	{ IKE, "aes-sha2-dh19,aes_gcm-sha2_256-dh31-sha1",
	  "ike=aes_gcm-sha2_256-dh31-sha1 (proposal 2): PRF 'sha1' must come "
	  "before the key exchange group" },
};

static void test_errors(void **unused)
{
	for (size_t i = 0; i < sizeof(err_cases) / sizeof(err_cases[0]); i++) {
		const struct err_case *c = &err_cases[i];
		struct ikb_proposal_list l;
		struct ikb_error err;
		int r = epr_parse(c->proto, c->spec, &l, &err);

		if (r == 0)
			fail_msg("%s=%s: accepted, want error \"%s\"",
				 c->proto == IKE ? "ike" : "esp", c->spec,
				 c->want);
		assert_int_equal(r, -EINVAL);
		if (strcmp(err.msg, c->want) != 0)
			fail_msg("%s:\n got  \"%s\"\n want \"%s\"", c->spec,
				 err.msg, c->want);
	}
}

static void test_too_many_algorithms(void **unused)
{
	char spec[1024] = "aes128";
	struct ikb_proposal_list l;
	struct ikb_error err;

	for (int i = 1; i < IKB_PROPOSAL_MAX_XFORMS + 1; i++)
		strcat(spec, "+aes128");
	assert_int_equal(epr_parse(ESP, spec, &l, &err), -EINVAL);
	assert_non_null(strstr(err.msg, "...: too many algorithms (at most "
					"64)"));
	assert_int_equal(strncmp(err.msg, "esp=aes128+aes128", 17), 0);
}

static void test_other_protocol(void **unused)
{
	struct ikb_proposal_list l;
	struct ikb_error err;

	assert_int_equal(epr_parse(IKB_PROTO_AH, "sha1", &l, &err), -EINVAL);
	assert_string_equal(err.msg,
			    "protocol 2: only esp= and ike= proposals exist");
	assert_int_equal(epr_parse(ESP, NULL, &l, &err), -EINVAL);
}

/* The wire view: transform types, IANA ids, Key Length attributes. */
static void test_transforms(void **unused)
{
	struct ikb_proposal_list l;
	struct ikb_error err;

	assert_int_equal(epr_parse(ESP, "aes_gcm256", &l, &err), 0);
	assert_int_equal(l.n, 1);
	assert_int_equal(l.p[0].protocol, IKB_PROTO_ESP);
	assert_int_equal(l.p[0].n, 1);
	assert_int_equal(l.p[0].xf[0].type, IKB_XF_ENCR);
	assert_int_equal(l.p[0].xf[0].id, 20);
	assert_int_equal(l.p[0].xf[0].key_bits, 256);

	assert_int_equal(epr_parse(ESP, "3des-sha1", &l, &err), 0);
	assert_int_equal(l.p[0].n, 2);
	assert_int_equal(l.p[0].xf[0].id, 3);
	assert_int_equal(l.p[0].xf[0].key_bits, 0); /* no Key Length */
	assert_int_equal(l.p[0].xf[1].type, IKB_XF_INTEG);
	assert_int_equal(l.p[0].xf[1].id, 2);

	assert_int_equal(
		epr_parse(IKE, "chacha20_poly1305-sha2_256-dh31", &l, &err), 0);
	assert_int_equal(l.p[0].n, 3);
	assert_int_equal(l.p[0].xf[0].id, 28);
	assert_int_equal(l.p[0].xf[0].key_bits, 0);
	assert_int_equal(l.p[0].xf[1].type, IKB_XF_PRF);
	assert_int_equal(l.p[0].xf[1].id, 5);
	assert_int_equal(l.p[0].xf[2].type, IKB_XF_KE);
	assert_int_equal(l.p[0].xf[2].id, 31);
}

static void test_defaults(void **unused)
{
	struct ikb_proposal_list l;
	char got[2048];

	assert_int_equal(epr_defaults(ESP, &l), 0);
	epr_render_list(&l, got, sizeof(got));
	assert_string_equal(got, "AES_GCM_16_256, AES_GCM_16_128, "
				 "CHACHA20_POLY1305, AES_CBC_256-" CBC_INTEG
				 ", AES_CBC_128-" CBC_INTEG);
	assert_int_equal(l.n, 5);
	assert_false(epr_list_has_ke(&l));

	assert_int_equal(epr_defaults(IKE, &l), 0);
	epr_render_list(&l, got, sizeof(got));
	assert_string_equal(
		got, "AES_GCM_16_256-HMAC_SHA2_512+HMAC_SHA2_256-" IKE_KE
		     ", AES_GCM_16_128-HMAC_SHA2_512+HMAC_SHA2_256-" IKE_KE
		     ", CHACHA20_POLY1305-HMAC_SHA2_512+HMAC_SHA2_256-" IKE_KE
		     ", AES_CBC_256-" CBC_INTEG
		     "-HMAC_SHA2_512+HMAC_SHA2_256-" IKE_KE
		     ", AES_CBC_128-" CBC_INTEG
		     "-HMAC_SHA2_512+HMAC_SHA2_256-" IKE_KE);
	assert_int_equal(l.p[0].protocol, IKB_PROTO_IKE);
}

static void test_render_truncates(void **unused)
{
	struct ikb_proposal_list l;
	struct ikb_error err;
	char small[8];
	size_t n;

	assert_int_equal(epr_parse(ESP, "aes_gcm256,aes_gcm128", &l, &err), 0);
	n = epr_render_list(&l, small, sizeof(small));
	assert_int_equal(n, strlen("AES_GCM_16_256, AES_GCM_16_128"));
	assert_string_equal(small, "AES_GCM");

	struct ikb_proposal odd = { .protocol = ESP, .n = 2 };

	odd.xf[0] = (struct ikb_transform){ IKB_XF_ENCR, 99, 0 };
	odd.xf[1] = (struct ikb_transform){ 6, 36, 0 };
	char buf[64];

	epr_render_proposal(&odd, buf, sizeof(buf));
	assert_string_equal(buf, "TYPE1_ID99-TYPE6_ID36");
}

int epr_test_parse(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ok),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_too_many_algorithms),
		cmocka_unit_test(test_other_protocol),
		cmocka_unit_test(test_transforms),
		cmocka_unit_test(test_defaults),
		cmocka_unit_test(test_render_truncates),
	};

	return cmocka_run_group_tests_name("esp-proposals parse", tests, NULL,
					   NULL);
}
