// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * ikebana import: PEM files, a certificate with its private key (PKCS#8,
 * or PKCS#1 / RFC 5915 wrapped into PKCS#8) and the CA certificates after
 * it, or with --ca CA certificates; and DER CA certificates.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <cert.h>
#include <keyhi.h>
#include <nssb64.h>
#include <pk11pub.h>
#include <secoid.h>
#include <secport.h>

#include "cli/import.h"

/*
 * PEM blocks. Key blocks are wiped when freed. An encrypted block (with
 * "Proc-Type:" headers) is marked, not decoded.
 */
struct pem_block {
	char type[32];
	SECItem *der;
	bool encrypted;
};

struct pem {
	struct pem_block b[MAX_CERTS + 4];
	size_t n;
};

static void pem_free(struct pem *p)
{
	for (size_t i = 0; i < p->n; i++)
		if (p->b[i].der)
			SECITEM_ZfreeItem(p->b[i].der, PR_TRUE);
	p->n = 0;
}

/* 0, or -1 after printing why. */
static int pem_parse(const struct imp *im, const char *text, struct pem *p)
{
	const char *s = text, *begin, *end, *body, *type_end;
	char endmark[64];
	struct pem_block *b;

	p->n = 0;
	while ((begin = strstr(s, "-----BEGIN "))) {
		begin += strlen("-----BEGIN ");
		type_end = strstr(begin, "-----");
		if (!type_end || type_end - begin >= (long)sizeof(b->type) ||
		    memchr(begin, '\n', type_end - begin)) {
			refuse(im, "malformed PEM BEGIN line");
			return -1;
		}
		if (p->n == sizeof(p->b) / sizeof(p->b[0])) {
			refuse(im, "more than %zu PEM blocks", p->n);
			return -1;
		}
		b = &p->b[p->n];
		memset(b, 0, sizeof(*b));
		memcpy(b->type, begin, type_end - begin);
		snprintf(endmark, sizeof(endmark), "-----END %s-----", b->type);
		body = type_end + 5;
		end = strstr(body, endmark);
		if (!end) {
			refuse(im, "no '%s'", endmark);
			return -1;
		}
		p->n++;
		s = end + strlen(endmark);
		/* RFC 1421 headers: only encrypted keys have them. */
		b->encrypted = memchr(body, ':', end - body) != NULL;
		if (b->encrypted)
			continue;
		b->der = NSSBase64_DecodeBuffer(NULL, NULL, body,
						(unsigned)(end - body));
		if (!b->der) {
			refuse(im, "bad base64 in the %s block", b->type);
			return -1;
		}
	}
	return 0;
}

static bool is_cert_type(const char *t)
{
	return !strcmp(t, "CERTIFICATE") || !strcmp(t, "X509 CERTIFICATE");
}

static bool is_key_type(const char *t)
{
	size_t n = strlen(t);

	return n >= 11 && !strcmp(t + n - 11, "PRIVATE KEY");
}

/*
 * A PKCS#8 PrivateKeyInfo for key: itself for "PRIVATE KEY"; a PKCS#1
 * RSAPrivateKey or RFC 5915 ECPrivateKey wrapped with the algorithm of
 * the certificate's public key. In arena; NULL after printing why.
 */
static SECItem *pkcs8_of(const struct imp *im, PLArenaPool *arena,
			 const struct pem_block *key, CERTCertificate *cert)
{
	SECOidTag alg =
		SECOID_GetAlgorithmTag(&cert->subjectPublicKeyInfo.algorithm);
	SECKEYPrivateKeyInfo pki = { 0 };
	bool rsa = alg == SEC_OID_PKCS1_RSA_ENCRYPTION;
	bool ec = alg == SEC_OID_ANSIX962_EC_PUBLIC_KEY;
	SECItem *der;

	if (!strcmp(key->type, "PRIVATE KEY"))
		return key->der;
	if (strcmp(key->type, "RSA PRIVATE KEY") &&
	    strcmp(key->type, "EC PRIVATE KEY")) {
		refuse(im,
		       "%s blocks are not supported: convert the key to "
		       "PKCS#8 (openssl pkcs8 -topk8 -nocrypt)",
		       key->type);
		return NULL;
	}
	if ((!strcmp(key->type, "RSA PRIVATE KEY") && !rsa) ||
	    (!strcmp(key->type, "EC PRIVATE KEY") && !ec)) {
		refuse(im,
		       "the %s does not match the certificate '%s' (its key "
		       "is %s)",
		       key->type, cert->subjectName,
		       SECOID_FindOIDTagDescription(alg));
		return NULL;
	}
	if (!rsa && !ec) {
		refuse(im,
		       "%s blocks are not supported: convert it to PKCS#8 "
		       "(openssl pkcs8 -topk8 -nocrypt)",
		       key->type);
		return NULL;
	}
	pki.arena = arena;
	if (!SEC_ASN1EncodeInteger(arena, &pki.version, 0) ||
	    SECOID_CopyAlgorithmID(arena, &pki.algorithm,
				   &cert->subjectPublicKeyInfo.algorithm) !=
		    SECSuccess)
		goto fail;
	pki.privateKey = *key->der;
	der = SEC_ASN1EncodeItem(arena, NULL, &pki,
				 SECKEY_PrivateKeyInfoTemplate);
	if (der)
		return der;
fail:
	refuse(im, "cannot encode the %s as PKCS#8 (%s)", key->type,
	       nss_error());
	return NULL;
}

/* RSA modulus or EC/DSA public value: NSS makes the key's CKA_ID of it. */
static SECItem *public_value(SECKEYPublicKey *pub)
{
	switch (SECKEY_GetPublicKeyType(pub)) {
	case rsaKey:
	case rsaPssKey:
		return &pub->u.rsa.modulus;
	case ecKey:
		return &pub->u.ec.publicValue;
	case dsaKey:
		return &pub->u.dsa.publicValue;
	default:
		return NULL;
	}
}

/* Whether priv signs what the certificate's public key verifies. */
static bool key_matches(SECKEYPrivateKey *priv, SECKEYPublicKey *pub)
{
	unsigned char digest[32];
	SECItem hash = { siBuffer, digest, sizeof(digest) }, sig = { 0 };
	int len = PK11_SignatureLen(priv);
	bool ok = false;

	if (len <= 0 ||
	    PK11_GenerateRandom(digest, sizeof(digest)) != SECSuccess ||
	    !SECITEM_AllocItem(NULL, &sig, (unsigned)len))
		return false;
	ok = PK11_Sign(priv, &sig, &hash) == SECSuccess &&
	     PK11_Verify(pub, &sig, &hash, NULL) == SECSuccess;
	SECITEM_FreeItem(&sig, PR_FALSE);
	return ok;
}

/* The host certificate and its key; 0 or CLI_FAIL. */
static int put_host(const struct imp *im, CERTCertificate *cert,
		    const struct pem_block *key, const char *nick)
{
	PLArenaPool *arena = PORT_NewArena(2048);
	SECKEYPublicKey *pub = CERT_ExtractPublicKey(cert);
	SECKEYPrivateKey *priv = NULL, *have;
	SECItem *p8;
	int rc = CLI_FAIL;

	if (!arena || !pub) {
		refuse(im, "cannot read the public key of %s (%s)",
		       cert->subjectName, nss_error());
		goto out;
	}
	p8 = pkcs8_of(im, arena, key, cert);
	if (!p8)
		goto out;
	/* First as a session object: a wrong key leaves nothing behind. */
	if (PK11_ImportDERPrivateKeyInfoAndReturnKey(
		    im->db.slot, p8, NULL, public_value(pub), PR_FALSE, PR_TRUE,
		    KU_ALL, &priv, NULL) != SECSuccess ||
	    !priv) {
		refuse(im, "cannot read the private key (%s)", nss_error());
		goto out;
	}
	if (!key_matches(priv, pub)) {
		refuse(im, "the private key does not match the certificate %s",
		       cert->subjectName);
		goto out;
	}
	SECKEY_DestroyPrivateKey(priv);
	priv = NULL;
	have = PK11_FindPrivateKeyFromCert(im->db.slot, cert, NULL);
	if (have) {
		SECKEY_DestroyPrivateKey(have);
	} else if (PK11_ImportDERPrivateKeyInfoAndReturnKey(
			   im->db.slot, p8, (SECItem *)NULL, public_value(pub),
			   PR_TRUE, PR_TRUE, KU_ALL, &priv,
			   NULL) != SECSuccess) {
		refuse(im, "cannot store the private key (%s)", nss_error());
		goto out;
	}
	rc = put_cert(im, cert, nick, NULL, "certificate with its key");
out:
	if (priv)
		SECKEY_DestroyPrivateKey(priv);
	if (pub)
		SECKEY_DestroyPublicKey(pub);
	if (arena)
		PORT_FreeArena(arena, PR_TRUE);
	return rc;
}

int import_pem(const struct imp *im, const char *text)
{
	CERTCertificate *certs[MAX_CERTS] = { 0 }, *host = NULL;
	const struct pem_block *key = NULL;
	size_t ncerts = 0;
	char *nick = NULL;
	struct pem p;
	int rc = CLI_FAIL;

	if (pem_parse(im, text, &p) < 0)
		goto out;
	for (size_t i = 0; i < p.n; i++) {
		struct pem_block *b = &p.b[i];

		if (b->encrypted || !strcmp(b->type, "ENCRYPTED PRIVATE KEY")) {
			refuse(im,
			       "the %s block is encrypted, which is not "
			       "supported: decrypt it (openssl pkey) or import "
			       "a PKCS#12 file",
			       b->type);
			goto out;
		}
		if (is_key_type(b->type)) {
			if (key) {
				refuse(im, "more than one private key");
				goto out;
			}
			key = b;
		} else if (is_cert_type(b->type)) {
			if (ncerts == MAX_CERTS) {
				refuse(im, "more than %d certificates",
				       MAX_CERTS);
				goto out;
			}
			certs[ncerts] = CERT_NewTempCertificate(
				CERT_GetDefaultCertDB(), b->der, NULL, PR_FALSE,
				PR_TRUE);
			if (!certs[ncerts]) {
				refuse(im,
				       "certificate %zu is not a valid X.509 "
				       "certificate (%s)",
				       ncerts + 1, nss_error());
				goto out;
			}
			ncerts++;
		}
	}
	if (!ncerts) {
		refuse(im, "no certificate in the file");
		goto out;
	}
	if (key && im->o->ca) {
		refuse(im, "--ca takes CA certificates, and the file has a "
			   "private key");
		goto out;
	}
	if (key) {
		/* The host certificate comes first; others are its CAs. */
		host = certs[0];
		nick = chosen_nickname(im, host);
		if (!nick || nickname_free_for(im, nick, &host->derCert))
			goto out;
		if (put_host(im, host, key, nick))
			goto out;
	} else if (im->o->ca && im->o->nickname && ncerts == 1) {
		if (nickname_free_for(im, im->o->nickname,
				      &certs[0]->derCert) ||
		    put_cert(im, certs[0], im->o->nickname, "CT,,",
			     "CA certificate"))
			goto out;
		host = certs[0];
	} else if (im->o->nickname && ncerts > 1) {
		refuse(im,
		       "--nickname names one certificate, and the file has "
		       "%zu without a key",
		       ncerts);
		goto out;
	}
	for (size_t i = 0; i < ncerts; i++) {
		char *n;
		int r;

		if (certs[i] == host)
			continue;
		if (!im->o->ca && !key && im->o->nickname) {
			if (nickname_free_for(im, im->o->nickname,
					      &certs[i]->derCert))
				goto out;
			n = PORT_Strdup(im->o->nickname);
		} else {
			n = ca_nickname(certs[i]);
		}
		r = put_cert(im, certs[i], n, im->o->ca ? "CT,," : NULL,
			     im->o->ca ? "CA certificate" :
			     key       ? "CA certificate (no trust)" :
					 "certificate (no trust)");
		if (n)
			PORT_Free(n);
		if (r)
			goto out;
	}
	if (!key && !im->o->ca)
		printf("note: certificates without a key are stored without "
		       "trust; give --ca to trust a CA\n");
	rc = CLI_OK;
out:
	if (nick)
		PORT_Free(nick);
	for (size_t i = 0; i < ncerts; i++)
		CERT_DestroyCertificate(certs[i]);
	pem_free(&p);
	return rc;
}

/* A DER certificate: only with --ca. */
int import_der_ca(const struct imp *im, CERTCertificate *cert)
{
	char *nick = chosen_nickname(im, cert);
	int rc = CLI_FAIL;

	if (nick && !nickname_free_for(im, nick, &cert->derCert))
		rc = put_cert(im, cert, nick, "CT,,", "CA certificate");
	if (nick)
		PORT_Free(nick);
	return rc;
}
