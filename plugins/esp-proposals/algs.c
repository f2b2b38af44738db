// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The algorithm table: config names (libreswan's and strongSwan's), IANA
 * ids, key sizes and the Linux crypto API names. One row per algorithm;
 * everything else in the plugin derives from it.
 */
#include <ctype.h>
#include <string.h>
#include <strings.h>

#include "esp_proposals.h"

#define NAMES(...) ((const char *const[]){ __VA_ARGS__, NULL })

static const struct epr_alg algs[] = {
	/* Encryption (RFC 7296 §3.3.2 type 1) */
	{ IKB_XF_ENCR, EPR_ENCR_AES_GCM_16, "aes_gcm", "AES_GCM_16",
	  EPR_AEAD | EPR_KEYLEN, 0, 128, 32, 0, "rfc4106(gcm(aes))", NULL,
	  NAMES("aes_gcm", "aes_gcm_16", "aes_gcm16", "aes_gcm_c") },
	{ IKB_XF_ENCR, EPR_ENCR_AES_GCM_12, "aes_gcm_12", "AES_GCM_12",
	  EPR_AEAD | EPR_KEYLEN, 0, 96, 32, 0, "rfc4106(gcm(aes))", NULL,
	  NAMES("aes_gcm_12", "aes_gcm12", "aes_gcm_b") },
	{ IKB_XF_ENCR, EPR_ENCR_AES_GCM_8, "aes_gcm_8", "AES_GCM_8",
	  EPR_AEAD | EPR_KEYLEN, 0, 64, 32, 0, "rfc4106(gcm(aes))", NULL,
	  NAMES("aes_gcm_8", "aes_gcm8", "aes_gcm_a") },
	/* libreswan has no CCM for IKE (NSS lacks it); ESP only. */
	{ IKB_XF_ENCR, EPR_ENCR_AES_CCM_16, "aes_ccm", "AES_CCM_16",
	  EPR_AEAD | EPR_KEYLEN | EPR_NOT_IKE, 0, 128, 24, 0,
	  "rfc4309(ccm(aes))", NULL,
	  NAMES("aes_ccm", "aes_ccm_16", "aes_ccm16", "aes_ccm_c") },
	{ IKB_XF_ENCR, EPR_ENCR_AES_CCM_12, "aes_ccm_12", "AES_CCM_12",
	  EPR_AEAD | EPR_KEYLEN | EPR_NOT_IKE, 0, 96, 24, 0,
	  "rfc4309(ccm(aes))", NULL,
	  NAMES("aes_ccm_12", "aes_ccm12", "aes_ccm_b") },
	{ IKB_XF_ENCR, EPR_ENCR_AES_CCM_8, "aes_ccm_8", "AES_CCM_8",
	  EPR_AEAD | EPR_KEYLEN | EPR_NOT_IKE, 0, 64, 24, 0,
	  "rfc4309(ccm(aes))", NULL,
	  NAMES("aes_ccm_8", "aes_ccm8", "aes_ccm_a") },
	/* RFC 7634: no Key Length attribute, 256-bit key + 32-bit salt */
	{ IKB_XF_ENCR, EPR_ENCR_CHACHA20_POLY1305, "chacha20_poly1305",
	  "CHACHA20_POLY1305", EPR_AEAD, 256, 128, 32, 0,
	  "rfc7539esp(chacha20,poly1305)", NULL,
	  NAMES("chacha20_poly1305", "chacha20poly1305", "chacha20") },
	{ IKB_XF_ENCR, EPR_ENCR_AES_CBC, "aes_cbc", "AES_CBC", EPR_KEYLEN, 0, 0,
	  0, 0, "cbc(aes)", NULL, NAMES("aes", "aes_cbc", "aescbc") },
	/* RFC 3686: 32-bit nonce after the key */
	{ IKB_XF_ENCR, EPR_ENCR_AES_CTR, "aes_ctr", "AES_CTR", EPR_KEYLEN, 0, 0,
	  32, 0, "rfc3686(ctr(aes))", NULL, NAMES("aes_ctr", "aesctr") },
	{ IKB_XF_ENCR, EPR_ENCR_CAMELLIA_CBC, "camellia", "CAMELLIA_CBC",
	  EPR_KEYLEN, 0, 0, 0, 0, "cbc(camellia)", NULL,
	  NAMES("camellia", "camellia_cbc", "camelliacbc") },
	{ IKB_XF_ENCR, EPR_ENCR_3DES, "3des", "3DES", 0, 192, 0, 0, 0,
	  "cbc(des3_ede)", NULL, NAMES("3des", "3des_cbc", "des3_ede") },
	/* RFC 7296: ENCR_NULL is not allowed for IKE */
	{ IKB_XF_ENCR, EPR_ENCR_NULL, "null", "NULL", EPR_NOT_IKE, 0, 0, 0, 0,
	  "ecb(cipher_null)", NULL, NAMES("null", "null_enc", "enc_null") },
	{ IKB_XF_ENCR, 2, "des", "DES", 0, 64, 0, 0, 0, NULL,
	  "single DES has a 56-bit key and is broken (RFC 8221: MUST NOT)",
	  NAMES("des", "des_cbc") },

	/* Integrity (type 3): RFC 8221 truncations and key sizes */
	{ IKB_XF_INTEG, EPR_NONE, "none", "NONE", 0, 0, 0, 0, 0, NULL, NULL,
	  NAMES("none", "null", "null_auth") },
	{ IKB_XF_INTEG, EPR_INTEG_HMAC_SHA2_512_256, "sha2_512",
	  "HMAC_SHA2_512_256", 0, 0, 256, 0, 512, "hmac(sha512)", NULL,
	  NAMES("sha2_512", "sha512", "sha2_512_256", "hmac_sha2_512",
		"hmac_sha2_512_256") },
	{ IKB_XF_INTEG, EPR_INTEG_HMAC_SHA2_384_192, "sha2_384",
	  "HMAC_SHA2_384_192", 0, 0, 192, 0, 384, "hmac(sha384)", NULL,
	  NAMES("sha2_384", "sha384", "sha2_384_192", "hmac_sha2_384",
		"hmac_sha2_384_192") },
	{ IKB_XF_INTEG, EPR_INTEG_HMAC_SHA2_256_128, "sha2_256",
	  "HMAC_SHA2_256_128", 0, 0, 128, 0, 256, "hmac(sha256)", NULL,
	  NAMES("sha2_256", "sha256", "sha2", "sha2_256_128", "hmac_sha2_256",
		"hmac_sha2_256_128") },
	{ IKB_XF_INTEG, EPR_INTEG_HMAC_SHA1_96, "sha1", "HMAC_SHA1_96", 0, 0,
	  96, 0, 160, "hmac(sha1)", NULL,
	  NAMES("sha1", "sha", "sha1_96", "hmac_sha1", "hmac_sha1_96") },
	{ IKB_XF_INTEG, EPR_INTEG_AES_XCBC_96, "aes_xcbc", "AES_XCBC_96", 0, 0,
	  96, 0, 128, "xcbc(aes)", NULL,
	  NAMES("aes_xcbc", "aes_xcbc_96", "aesxcbc") },
	{ IKB_XF_INTEG, 1, "md5", "HMAC_MD5_96", 0, 0, 96, 0, 128, "hmac(md5)",
	  "HMAC-MD5 is insecure (RFC 8221: MUST NOT)",
	  NAMES("md5", "hmac_md5", "hmac_md5_96") },

	/* PRF (type 2), IKE only */
	{ IKB_XF_PRF, EPR_PRF_HMAC_SHA2_512, "sha2_512", "HMAC_SHA2_512",
	  EPR_NOT_ESP, 0, 0, 0, 0, NULL, NULL,
	  NAMES("sha2_512", "sha512", "hmac_sha2_512", "prfsha512") },
	{ IKB_XF_PRF, EPR_PRF_HMAC_SHA2_384, "sha2_384", "HMAC_SHA2_384",
	  EPR_NOT_ESP, 0, 0, 0, 0, NULL, NULL,
	  NAMES("sha2_384", "sha384", "hmac_sha2_384", "prfsha384") },
	{ IKB_XF_PRF, EPR_PRF_HMAC_SHA2_256, "sha2_256", "HMAC_SHA2_256",
	  EPR_NOT_ESP, 0, 0, 0, 0, NULL, NULL,
	  NAMES("sha2_256", "sha256", "sha2", "hmac_sha2_256", "prfsha256") },
	{ IKB_XF_PRF, EPR_PRF_HMAC_SHA1, "sha1", "HMAC_SHA1", EPR_NOT_ESP, 0, 0,
	  0, 0, NULL, NULL, NAMES("sha1", "sha", "hmac_sha1", "prfsha1") },
	{ IKB_XF_PRF, EPR_PRF_AES128_XCBC, "aes_xcbc", "AES128_XCBC",
	  EPR_NOT_ESP, 0, 0, 0, 0, NULL, NULL,
	  NAMES("aes_xcbc", "aesxcbc", "aes128_xcbc", "prfaesxcbc") },
	{ IKB_XF_PRF, 1, "md5", "HMAC_MD5", EPR_NOT_ESP, 0, 0, 0, 0, NULL,
	  "HMAC-MD5 is insecure (RFC 8247: MUST NOT)",
	  NAMES("md5", "hmac_md5", "prfmd5") },

	/* Key exchange (type 4) */
	{ IKB_XF_KE, EPR_NONE, "none", "NONE", EPR_NOT_IKE, 0, 0, 0, 0, NULL,
	  NULL, NAMES("none", "null") },
	{ IKB_XF_KE, 19, "dh19", "DH19", 0, 0, 0, 0, 0, NULL, NULL,
	  NAMES("dh19", "ecp_256", "ecp256", "secp256r1") },
	{ IKB_XF_KE, 20, "dh20", "DH20", 0, 0, 0, 0, 0, NULL, NULL,
	  NAMES("dh20", "ecp_384", "ecp384", "secp384r1") },
	{ IKB_XF_KE, 21, "dh21", "DH21", 0, 0, 0, 0, 0, NULL, NULL,
	  NAMES("dh21", "ecp_521", "ecp521", "secp521r1") },
	{ IKB_XF_KE, 31, "dh31", "DH31", 0, 0, 0, 0, 0, NULL, NULL,
	  NAMES("dh31", "curve25519", "x25519") },
	{ IKB_XF_KE, 14, "modp2048", "MODP2048", 0, 0, 0, 0, 0, NULL, NULL,
	  NAMES("modp2048", "dh14") },
	{ IKB_XF_KE, 15, "modp3072", "MODP3072", 0, 0, 0, 0, 0, NULL, NULL,
	  NAMES("modp3072", "dh15") },
	{ IKB_XF_KE, 16, "modp4096", "MODP4096", 0, 0, 0, 0, 0, NULL, NULL,
	  NAMES("modp4096", "dh16") },
	{ IKB_XF_KE, 17, "modp6144", "MODP6144", 0, 0, 0, 0, 0, NULL, NULL,
	  NAMES("modp6144", "dh17") },
	{ IKB_XF_KE, 18, "modp8192", "MODP8192", 0, 0, 0, 0, 0, NULL, NULL,
	  NAMES("modp8192", "dh18") },
	{ IKB_XF_KE, 5, "modp1536", "MODP1536", 0, 0, 0, 0, 0, NULL, NULL,
	  NAMES("modp1536", "dh5") },
	{ IKB_XF_KE, 2, "modp1024", "MODP1024", 0, 0, 0, 0, 0, NULL,
	  "1024-bit MODP is too weak (RFC 8247: SHOULD NOT; libreswan 4 "
	  "no longer builds it)",
	  NAMES("modp1024", "dh2") },
	{ IKB_XF_KE, 1, "modp768", "MODP768", 0, 0, 0, 0, 0, NULL,
	  "768-bit MODP is broken (RFC 8247: MUST NOT)",
	  NAMES("modp768", "dh1") },
	{ IKB_XF_KE, 22, "dh22", "DH22", 0, 0, 0, 0, 0, NULL,
	  "RFC 5114 groups have unverifiable parameters (RFC 8247: SHOULD "
	  "NOT)",
	  NAMES("dh22", "modp1024s160") },
	{ IKB_XF_KE, 23, "dh23", "DH23", 0, 0, 0, 0, 0, NULL,
	  "RFC 5114 groups have unverifiable parameters (RFC 8247: SHOULD "
	  "NOT)",
	  NAMES("dh23", "modp2048s224") },
	{ IKB_XF_KE, 24, "dh24", "DH24", 0, 0, 0, 0, 0, NULL,
	  "RFC 5114 groups have unverifiable parameters (RFC 8247: SHOULD "
	  "NOT)",
	  NAMES("dh24", "modp2048s256") },

	/* Extended sequence numbers (type 5), strongSwan's esn/noesn */
	{ IKB_XF_ESN, EPR_ESN_YES, "esn", "ESN", EPR_NOT_IKE, 0, 0, 0, 0, NULL,
	  NULL, NAMES("esn") },
	{ IKB_XF_ESN, EPR_ESN_NO, "noesn", "NO_ESN", EPR_NOT_IKE, 0, 0, 0, 0,
	  NULL, NULL, NAMES("noesn") },
};

const struct epr_alg *epr_alg_by_id(uint8_t type, uint16_t id)
{
	for (size_t i = 0; i < sizeof(algs) / sizeof(algs[0]); i++) {
		if (algs[i].type == type && algs[i].id == id)
			return &algs[i];
	}
	return NULL;
}

bool epr_key_bits_valid(const struct epr_alg *alg, unsigned bits)
{
	if (!(alg->flags & EPR_KEYLEN))
		return false;
	return bits == 128 || bits == 192 || bits == 256;
}

static const struct epr_alg *by_name(uint8_t type, const char *s, size_t n)
{
	for (size_t i = 0; i < sizeof(algs) / sizeof(algs[0]); i++) {
		if (algs[i].type != type)
			continue;
		for (const char *const *nm = algs[i].names; *nm; nm++) {
			if (strlen(*nm) == n && strncasecmp(*nm, s, n) == 0)
				return &algs[i];
		}
	}
	return NULL;
}

static bool all_digits(const char *s, size_t n)
{
	if (n == 0)
		return false;
	for (size_t i = 0; i < n; i++) {
		if (!isdigit((unsigned char)s[i]))
			return false;
	}
	return true;
}

static unsigned to_uint(const char *s, size_t n)
{
	unsigned v = 0;

	for (size_t i = 0; i < n && v < 100000; i++)
		v = v * 10 + (unsigned)(s[i] - '0');
	return v;
}

/* strongSwan: aes<bits>gcm<icv>, aes<bits>ccm<icv>, aes<bits>ctr */
static const struct epr_alg *strongswan_aes(const char *s, size_t n,
					    uint16_t *key_bits, bool *bad_key)
{
	size_t i = 3, d;

	if (n < 7 || strncasecmp(s, "aes", 3) != 0)
		return NULL;
	for (d = i; d < n && isdigit((unsigned char)s[d]); d++)
		;
	if (d == i || n - d < 3)
		return NULL;

	const char *mode = s + d;
	const char *icv = mode + 3;
	size_t icv_len = n - d - 3;
	unsigned bits = to_uint(s + i, d - i);
	uint16_t id;

	if (strncasecmp(mode, "ctr", 3) == 0 && icv_len == 0) {
		id = EPR_ENCR_AES_CTR;
	} else if (strncasecmp(mode, "gcm", 3) == 0 ||
		   strncasecmp(mode, "ccm", 3) == 0) {
		bool gcm = tolower((unsigned char)mode[0]) == 'g';
		unsigned v = icv_len ? to_uint(icv, icv_len) : 16;

		if (icv_len && !all_digits(icv, icv_len))
			return NULL;
		if (v == 16 || v == 128)
			id = gcm ? EPR_ENCR_AES_GCM_16 : EPR_ENCR_AES_CCM_16;
		else if (v == 12 || v == 96)
			id = gcm ? EPR_ENCR_AES_GCM_12 : EPR_ENCR_AES_CCM_12;
		else if (v == 8 || v == 64)
			id = gcm ? EPR_ENCR_AES_GCM_8 : EPR_ENCR_AES_CCM_8;
		else
			return NULL;
	} else {
		return NULL;
	}

	const struct epr_alg *alg = epr_alg_by_id(IKB_XF_ENCR, id);

	if (!epr_key_bits_valid(alg, bits)) {
		*bad_key = true;
		return alg;
	}
	*key_bits = (uint16_t)bits;
	return alg;
}

const struct epr_alg *epr_alg_lookup(uint8_t type, const char *tok, size_t len,
				     uint16_t *key_bits, bool *bad_key)
{
	const struct epr_alg *alg = by_name(type, tok, len);

	*key_bits = 0;
	*bad_key = false;
	if (alg || type != IKB_XF_ENCR)
		return alg;

	/* <name><bits> or <name>_<bits>, as libreswan splits them */
	size_t end = len;

	while (end > 0 && isdigit((unsigned char)tok[end - 1]))
		end--;
	if (end < len && end > 0) {
		unsigned bits = to_uint(tok + end, len - end);
		size_t base = end;

		if (tok[base - 1] == '_')
			base--;
		alg = by_name(type, tok, base);
		if (alg) {
			if (!epr_key_bits_valid(alg, bits))
				*bad_key = true;
			else
				*key_bits = (uint16_t)bits;
			return alg;
		}
	}
	return strongswan_aes(tok, len, key_bits, bad_key);
}

const struct epr_alg *epr_integ_for_prf(uint16_t prf_id)
{
	switch (prf_id) {
	case EPR_PRF_HMAC_SHA1:
		return epr_alg_by_id(IKB_XF_INTEG, EPR_INTEG_HMAC_SHA1_96);
	case EPR_PRF_AES128_XCBC:
		return epr_alg_by_id(IKB_XF_INTEG, EPR_INTEG_AES_XCBC_96);
	case EPR_PRF_HMAC_SHA2_256:
		return epr_alg_by_id(IKB_XF_INTEG, EPR_INTEG_HMAC_SHA2_256_128);
	case EPR_PRF_HMAC_SHA2_384:
		return epr_alg_by_id(IKB_XF_INTEG, EPR_INTEG_HMAC_SHA2_384_192);
	case EPR_PRF_HMAC_SHA2_512:
		return epr_alg_by_id(IKB_XF_INTEG, EPR_INTEG_HMAC_SHA2_512_256);
	}
	return NULL;
}

const char *epr_type_noun(uint8_t type, bool ike)
{
	switch (type) {
	case IKB_XF_ENCR:
		return "encryption algorithm";
	case IKB_XF_PRF:
		return "PRF";
	case IKB_XF_INTEG:
		return ike ? "PRF or integrity algorithm" :
			     "integrity algorithm";
	case IKB_XF_KE:
		return "key exchange group";
	case IKB_XF_ESN:
		return "ESN setting";
	}
	return "transform";
}
