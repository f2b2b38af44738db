// SPDX-License-Identifier: GPL-2.0-or-later
/* Names for logs: payload and exchange types, transforms, IDs, methods. */
#include "wire/internal.h"

#define NAME_AT(tab, i) \
	((size_t)(i) < sizeof(tab) / sizeof((tab)[0]) ? (tab)[i] : NULL)

const char *wire_payload_name(uint8_t type)
{
	static const char *const names[] = {
		[WIRE_PT_SA] = "SA",	     [WIRE_PT_KE] = "KE",
		[WIRE_PT_IDI] = "IDi",	     [WIRE_PT_IDR] = "IDr",
		[WIRE_PT_CERT] = "CERT",     [WIRE_PT_CERTREQ] = "CERTREQ",
		[WIRE_PT_AUTH] = "AUTH",     [WIRE_PT_NONCE] = "Nonce",
		[WIRE_PT_NOTIFY] = "Notify", [WIRE_PT_DELETE] = "Delete",
		[WIRE_PT_VID] = "Vendor ID", [WIRE_PT_TSI] = "TSi",
		[WIRE_PT_TSR] = "TSr",	     [WIRE_PT_SK] = "SK",
		[WIRE_PT_CP] = "CP",	     [WIRE_PT_EAP] = "EAP",
		[WIRE_PT_GSPM] = "GSPM",     [WIRE_PT_SKF] = "SKF",
	};

	return NAME_AT(names, type);
}

const char *wire_exchange_name(uint8_t exchange)
{
	static const char *const names[] = {
		[WIRE_EXCH_IKE_SA_INIT] = "IKE_SA_INIT",
		[WIRE_EXCH_IKE_AUTH] = "IKE_AUTH",
		[WIRE_EXCH_CREATE_CHILD_SA] = "CREATE_CHILD_SA",
		[WIRE_EXCH_INFORMATIONAL] = "INFORMATIONAL",
		[WIRE_EXCH_IKE_SESSION_RESUME] = "IKE_SESSION_RESUME",
		[WIRE_EXCH_IKE_INTERMEDIATE] = "IKE_INTERMEDIATE",
		[WIRE_EXCH_IKE_FOLLOWUP_KE] = "IKE_FOLLOWUP_KE",
	};

	return NAME_AT(names, exchange);
}

const char *wire_xform_type_name(uint8_t type)
{
	static const char *const names[] = {
		[1] = "ENCR",	 [2] = "PRF",	  [3] = "INTEG",
		[4] = "KE",	 [5] = "ESN",	  [6] = "ADDKE1",
		[7] = "ADDKE2",	 [8] = "ADDKE3",  [9] = "ADDKE4",
		[10] = "ADDKE5", [11] = "ADDKE6", [12] = "ADDKE7",
	};

	return NAME_AT(names, type);
}

static const char *encr_name(uint16_t id)
{
	static const char *const names[] = {
		[1] = "DES_IV64",
		[2] = "DES",
		[3] = "3DES",
		[4] = "RC5",
		[5] = "IDEA",
		[6] = "CAST",
		[7] = "BLOWFISH",
		[8] = "3IDEA",
		[9] = "DES_IV32",
		[11] = "NULL",
		[12] = "AES_CBC",
		[13] = "AES_CTR",
		[14] = "AES_CCM_8",
		[15] = "AES_CCM_12",
		[16] = "AES_CCM_16",
		[18] = "AES_GCM_8",
		[19] = "AES_GCM_12",
		[20] = "AES_GCM_16",
		[21] = "NULL_AUTH_AES_GMAC",
		[23] = "CAMELLIA_CBC",
		[24] = "CAMELLIA_CTR",
		[25] = "CAMELLIA_CCM_8",
		[26] = "CAMELLIA_CCM_12",
		[27] = "CAMELLIA_CCM_16",
		[28] = "CHACHA20_POLY1305",
	};

	return NAME_AT(names, id);
}

static const char *prf_name(uint16_t id)
{
	static const char *const names[] = {
		[1] = "HMAC_MD5",      [2] = "HMAC_SHA1",
		[3] = "HMAC_TIGER",    [4] = "AES128_XCBC",
		[5] = "HMAC_SHA2_256", [6] = "HMAC_SHA2_384",
		[7] = "HMAC_SHA2_512", [8] = "AES128_CMAC",
	};

	return NAME_AT(names, id);
}

static const char *integ_name(uint16_t id)
{
	static const char *const names[] = {
		[0] = "NONE",
		[1] = "HMAC_MD5_96",
		[2] = "HMAC_SHA1_96",
		[3] = "DES_MAC",
		[4] = "KPDK_MD5",
		[5] = "AES_XCBC_96",
		[6] = "HMAC_MD5_128",
		[7] = "HMAC_SHA1_160",
		[8] = "AES_CMAC_96",
		[9] = "AES_128_GMAC",
		[10] = "AES_192_GMAC",
		[11] = "AES_256_GMAC",
		[12] = "HMAC_SHA2_256_128",
		[13] = "HMAC_SHA2_384_192",
		[14] = "HMAC_SHA2_512_256",
	};

	return NAME_AT(names, id);
}

static const char *ke_name(uint16_t id)
{
	static const char *const names[] = {
		[0] = "NONE",	       [1] = "MODP768",
		[2] = "MODP1024",      [5] = "MODP1536",
		[14] = "MODP2048",     [15] = "MODP3072",
		[16] = "MODP4096",     [17] = "MODP6144",
		[18] = "MODP8192",     [19] = "ECP256",
		[20] = "ECP384",       [21] = "ECP521",
		[22] = "MODP1024_160", [23] = "MODP2048_224",
		[24] = "MODP2048_256", [25] = "ECP192",
		[26] = "ECP224",       [27] = "BRAINPOOL224",
		[28] = "BRAINPOOL256", [29] = "BRAINPOOL384",
		[30] = "BRAINPOOL512", [31] = "CURVE25519",
		[32] = "CURVE448",
	};

	return NAME_AT(names, id);
}

const char *wire_xform_id_name(uint8_t type, uint16_t id)
{
	switch (type) {
	case IKB_XF_ENCR:
		return encr_name(id);
	case IKB_XF_PRF:
		return prf_name(id);
	case IKB_XF_INTEG:
		return integ_name(id);
	case IKB_XF_ESN:
		return id == 0 ? "NO_ESN" : id == 1 ? "ESN" : NULL;
	default:
		return type >= IKB_XF_KE && type <= 12 ? ke_name(id) : NULL;
	}
}

const char *wire_protocol_name(uint8_t protocol)
{
	static const char *const names[] = {
		[0] = "none",
		[IKB_PROTO_IKE] = "IKE",
		[IKB_PROTO_AH] = "AH",
		[IKB_PROTO_ESP] = "ESP",
	};

	return NAME_AT(names, protocol);
}

const char *wire_id_type_name(uint8_t type)
{
	static const char *const names[] = {
		[1] = "ID_IPV4_ADDR",	[2] = "ID_FQDN",
		[3] = "ID_RFC822_ADDR", [5] = "ID_IPV6_ADDR",
		[9] = "ID_DER_ASN1_DN", [10] = "ID_DER_ASN1_GN",
		[11] = "ID_KEY_ID",	[12] = "ID_FC_NAME",
		[13] = "ID_NULL",
	};

	return NAME_AT(names, type);
}

const char *wire_auth_method_name(uint8_t method)
{
	static const char *const names[] = {
		[1] = "RSA_SIG",
		[2] = "SHARED_KEY_MIC",
		[3] = "DSS_SIG",
		[9] = "ECDSA_SHA256_P256",
		[10] = "ECDSA_SHA384_P384",
		[11] = "ECDSA_SHA512_P521",
		[12] = "GSPAM",
		[13] = "NULL",
		[14] = "DIGITAL_SIGNATURE",
	};

	return NAME_AT(names, method);
}
