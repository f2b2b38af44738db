// SPDX-License-Identifier: GPL-2.0-or-later
#include <arpa/inet.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include <cert.h>
#include <cryptohi.h>
#include <keyhi.h>
#include <pk11pub.h>
#include <secasn1.h>
#include <secoid.h>

#include "crypto/dn.h"
#include "tcert.h"

/* tag, short or 0x81 length, contents */
static void tlv(struct tbuf *t, uint8_t tag, const void *v, size_t n)
{
	assert_true(n < 0x100 && t->len + n + 3 <= sizeof(t->b));
	t->b[t->len++] = tag;
	if (n >= 0x80)
		t->b[t->len++] = 0x81;
	t->b[t->len++] = (uint8_t)n;
	memcpy(t->b + t->len, v, n);
	t->len += n;
}

static void san_one(struct tbuf *names, const char *item)
{
	uint8_t a[16];

	if (!strncmp(item, "DNS:", 4))
		tlv(names, 0x82, item + 4, strlen(item + 4)); /* [2] dNSName */
	else if (!strncmp(item, "email:", 6))
		tlv(names, 0x81, item + 6, strlen(item + 6)); /* [1] */
	else if (!strncmp(item, "URI:", 4))
		tlv(names, 0x86, item + 4, strlen(item + 4)); /* [6] */
	else if (!strncmp(item, "IP:", 3) && inet_pton(AF_INET, item + 3, a))
		tlv(names, 0x87, a, 4); /* [7] iPAddress */
	else if (!strncmp(item, "IP:", 3) && inet_pton(AF_INET6, item + 3, a))
		tlv(names, 0x87, a, 16);
	else
		fail_msg("bad SAN \"%s\"", item);
}

struct tbuf tsan(const char *spec)
{
	struct tbuf names = { .len = 0 }, ext = { .len = 0 };
	char copy[512], *save = NULL;

	assert_true(strlen(spec) < sizeof(copy));
	strcpy(copy, spec);
	for (char *tok = strtok_r(copy, ", ", &save); tok;
	     tok = strtok_r(NULL, ", ", &save))
		san_one(&names, tok);
	tlv(&ext, 0x30, names.b, names.len);
	return ext;
}

static void keypair(SECKEYPrivateKey **priv, SECKEYPublicKey **pub)
{
	SECOidData *curve = SECOID_FindOIDByTag(SEC_OID_ANSIX962_EC_PRIME256V1);
	struct tbuf p = { .len = 0 };
	SECItem params;
	PK11SlotInfo *slot = PK11_GetInternalSlot();

	assert_non_null(curve);
	assert_non_null(slot);
	tlv(&p, 0x06, curve->oid.data, curve->oid.len);
	params = (SECItem){ siBuffer, p.b, (unsigned)p.len };
	*priv = PK11_GenerateKeyPair(slot, CKM_EC_KEY_PAIR_GEN, &params, pub,
				     PR_FALSE, PR_FALSE, NULL);
	PK11_FreeSlot(slot);
	assert_non_null(*priv);
}

/* dn_from_text, then NSS's decoded form of it, in arena */
static CERTName *name_of(PLArenaPool *arena, const char *text)
{
	uint8_t *der = PORT_ArenaAlloc(arena, DN_MAX);
	CERTName *name = PORT_ArenaZNew(arena, CERTName);
	struct crypto_err err = { 0 };
	size_t len = 0;
	SECItem item;

	assert_non_null(der);
	if (dn_from_text(text, der, DN_MAX, &len, &err))
		fail_msg("%s", err.msg);
	item = (SECItem){ siBuffer, der, (unsigned)len };
	assert_int_equal(SEC_QuickDERDecodeItem(arena, name,
						SEC_ASN1_GET(CERT_NameTemplate),
						&item),
			 SECSuccess);
	return name;
}

static void add_san(CERTCertificate *c, const struct tbuf *san)
{
	void *h = CERT_StartCertExtensions(c);
	SECItem v = { siBuffer, (unsigned char *)san->b, (unsigned)san->len };

	assert_non_null(h);
	assert_int_equal(CERT_AddExtension(h, SEC_OID_X509_SUBJECT_ALT_NAME, &v,
					   PR_FALSE, PR_TRUE),
			 SECSuccess);
	assert_int_equal(CERT_FinishExtensions(h), SECSuccess);
}

/* TBSCertificate signed with ECDSA-SHA256: the certificate's DER */
static void sign(CERTCertificate *c, SECKEYPrivateKey *priv, struct tcert *out)
{
	const SECOidTag alg = SEC_OID_ANSIX962_ECDSA_SHA256_SIGNATURE;
	SECItem tbs = { siBuffer, NULL, 0 }, der = { siBuffer, NULL, 0 };

	assert_int_equal(
		SECOID_SetAlgorithmID(c->arena, &c->signature, alg, NULL),
		SECSuccess);
	assert_non_null(SEC_ASN1EncodeItem(
		c->arena, &tbs, c, SEC_ASN1_GET(CERT_CertificateTemplate)));
	assert_int_equal(
		SEC_DerSignData(c->arena, &der, tbs.data, tbs.len, priv, alg),
		SECSuccess);
	assert_true(der.len <= sizeof(out->b));
	memcpy(out->b, der.data, der.len);
	out->len = der.len;
}

struct tcert tcert_make(const char *subject, const char *issuer,
			const struct tbuf *san)
{
	static unsigned long serial = 1;
	PLArenaPool *arena = PORT_NewArena(DER_DEFAULT_CHUNKSIZE);
	SECKEYPrivateKey *priv;
	SECKEYPublicKey *pub;
	CERTSubjectPublicKeyInfo *spki;
	CERTCertificateRequest *req;
	CERTValidity *validity;
	CERTCertificate *c;
	struct tcert out = { .len = 0 };
	PRTime now = PR_Now(), hour = 3600 * (PRTime)PR_USEC_PER_SEC;

	assert_non_null(arena);
	keypair(&priv, &pub);
	spki = SECKEY_CreateSubjectPublicKeyInfo(pub);
	req = CERT_CreateCertificateRequest(name_of(arena, subject), spki,
					    NULL);
	validity = CERT_CreateValidity(now - hour, now + hour);
	assert_true(spki && req && validity);
	c = CERT_CreateCertificate(serial++, name_of(arena, issuer), validity,
				   req);
	assert_non_null(c);
	/* extensions need X.509 v3, which is version 2 on the wire */
	assert_non_null(SEC_ASN1EncodeInteger(c->arena, &c->version, 2));
	if (san)
		add_san(c, san);
	sign(c, priv, &out);
	CERT_DestroyCertificate(c);
	CERT_DestroyValidity(validity);
	CERT_DestroyCertificateRequest(req);
	SECKEY_DestroySubjectPublicKeyInfo(spki);
	SECKEY_DestroyPublicKey(pub);
	SECKEY_DestroyPrivateKey(priv);
	PORT_FreeArena(arena, PR_FALSE);
	return out;
}
