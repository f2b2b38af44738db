// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * This host's certificate from the NSS database, found by its nickname
 * on the database's token (nssdb.c), with its private key and the chain
 * NSS builds for it. The chain is what CERT payloads carry: a libreswan
 * initiator without rightca= sends no CERTREQ, and a responder that only
 * knows the root needs the intermediates.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cert.h>
#include <certdb.h>
#include <keyhi.h>
#include <pk11pub.h>

#include "crypto/cred.h"
#include "crypto/dn.h"
#include "crypto/nssdb.h"

static void texts(CERTCertificate *c, char *subject, size_t slen, char *issuer,
		  size_t ilen)
{
	if (dn_to_text(c->derSubject.data, c->derSubject.len, subject, slen))
		snprintf(subject, slen, "%s", c->subjectName);
	if (dn_to_text(c->derIssuer.data, c->derIssuer.len, issuer, ilen))
		snprintf(issuer, ilen, "%s", c->issuerName);
}

static int find_cert(const char *nickname, CERTCertificate **cert,
		     struct crypto_err *err)
{
	char qualified[256];

	if (!nssdb_slot())
		return crypto_fail(err, -ENOENT, "certificate \"%s\": %s",
				   nickname, nssdb_why_closed());
	snprintf(qualified, sizeof(qualified), "%s:%s", NSSDB_TOKEN, nickname);
	*cert = PK11_FindCertFromNickname(qualified, NULL);
	if (!*cert)
		return crypto_fail(
			err, -ENOENT,
			"no certificate with nickname \"%s\" in the NSS database %s (ikebana listcerts shows them)",
			nickname, nssdb_dir());
	return 0;
}

/*
 * A key on the database's token is read from its sqlite file at each use:
 * some 140 system calls (locks, stats, reads) per signature, which cost
 * milliseconds in a VM. A copy in the internal token's memory signs with
 * none; the database itself stays read-only.
 */
SECKEYPrivateKey *cred_session_key(SECKEYPrivateKey *k)
{
	PK11SlotInfo *internal = k ? PK11_GetInternalSlot() : NULL;
	SECKEYPrivateKey *s =
		internal ? PK11_CopyTokenPrivKeyToSessionPrivKey(internal, k) :
			   NULL;

	if (internal)
		PK11_FreeSlot(internal);
	if (!s)
		return k; /* not extractable: sign on the token */
	SECKEY_DestroyPrivateKey(k);
	return s;
}

static int fill_chain(struct cred *c, struct crypto_err *err)
{
	CERTCertificateList *l =
		CERT_CertChainFromCert(c->cert, certUsageSSLClient, PR_FALSE);

	if (!l || l->len < 1) {
		if (l)
			CERT_DestroyCertificateList(l);
		/* no path to a CA in the database: send the certificate alone */
		c->chain[0] = (struct cred_der){ c->cert->derCert.data,
						 c->cert->derCert.len };
		c->nchain = 1;
		return 0;
	}
	c->chain_list = l;
	for (int i = 0; i < l->len && c->nchain < CRED_CHAIN_MAX; i++)
		c->chain[c->nchain++] =
			(struct cred_der){ l->certs[i].data, l->certs[i].len };
	(void)err;
	return 0;
}

/*
 * The credentials of this load, by nickname: 1,000 conns that name one
 * host certificate load it once, not 2,000 times (each load queries the
 * database: a tenth of a second per conn in a VM). cred_ca_refresh(), at
 * each load, empties it.
 */
#define CACHE_MAX 64
static struct cred *cache[CACHE_MAX];
static unsigned ncache;

static struct cred *cached(const char *nickname, bool key)
{
	for (unsigned i = 0; i < ncache; i++)
		if (!strcmp(cache[i]->nickname, nickname) &&
		    (!key || cache[i]->priv))
			return cred_get(cache[i]);
	return NULL;
}

static void remember(struct cred *c)
{
	if (ncache < CACHE_MAX)
		cache[ncache++] = cred_get(c);
}

void cred_cache_flush(void)
{
	while (ncache)
		cred_put(cache[--ncache]);
}

static int load(const char *nickname, bool key, struct cred **out,
		struct crypto_err *err);

int cred_load(const char *nickname, bool key, struct cred **out,
	      struct crypto_err *err)
{
	int rc;

	if ((*out = cached(nickname, key)))
		return 0;
	rc = load(nickname, key, out, err);
	if (!rc)
		remember(*out);
	return rc;
}

static int load(const char *nickname, bool key, struct cred **out,
		struct crypto_err *err)
{
	struct cred *c = calloc(1, sizeof(*c));
	PRTime nb, na;
	int rc;

	if (!c)
		return crypto_fail(err, -ENOMEM, "out of memory");
	c->refs = 1;
	snprintf(c->nickname, sizeof(c->nickname), "%s", nickname);
	rc = find_cert(nickname, &c->cert, err);
	if (!rc && key) {
		c->priv =
			cred_session_key(PK11_FindKeyByAnyCert(c->cert, NULL));
		if (!c->priv)
			rc = crypto_fail(
				err, -ENOENT,
				"certificate \"%s\" is in the NSS database %s but its private key is not",
				nickname, nssdb_dir());
	}
	if (!rc)
		rc = fill_chain(c, err);
	if (rc) {
		cred_put(c);
		return rc;
	}
	texts(c->cert, c->subject, sizeof(c->subject), c->issuer,
	      sizeof(c->issuer));
	c->subject_der = (struct cred_der){ c->cert->derSubject.data,
					    c->cert->derSubject.len };
	c->issuer_der = (struct cred_der){ c->cert->derIssuer.data,
					   c->cert->derIssuer.len };
	if (c->priv) {
		c->key = sig_priv_type(c->priv, &c->bits);
	} else {
		SECKEYPublicKey *pub = CERT_ExtractPublicKey(c->cert);

		c->key = sig_pub_type(pub, &c->bits);
		SECKEY_DestroyPublicKey(pub);
	}
	if (CERT_GetCertTimes(c->cert, &nb, &na) == SECSuccess) {
		c->not_before = (time_t)(nb / PR_USEC_PER_SEC);
		c->not_after = (time_t)(na / PR_USEC_PER_SEC);
	}
	*out = c;
	return 0;
}

struct cred *cred_get(struct cred *c)
{
	if (c)
		c->refs++;
	return c;
}

void cred_put(struct cred *c)
{
	if (!c || --c->refs)
		return;
	if (c->chain_list)
		CERT_DestroyCertificateList(c->chain_list);
	if (c->priv)
		SECKEY_DestroyPrivateKey(c->priv);
	if (c->pub)
		SECKEY_DestroyPublicKey(c->pub);
	if (c->cert)
		CERT_DestroyCertificate(c->cert);
	free(c);
}

static bool trusted_ca(CERTCertificate *c)
{
	CERTCertTrust t;

	if (CERT_GetCertTrust(c, &t) != SECSuccess)
		return false;
	return (t.sslFlags | t.emailFlags | t.objectSigningFlags) &
	       CERTDB_TRUSTED_CA;
}

/* Computed once per load: every IKE_SA_INIT response carries them. */
static uint8_t ca_hashes[20 * 64];
static size_t ca_hashes_len;

static bool spki_sha1(CERTCertificate *c, uint8_t *out)
{
	SECKEYPublicKey *pk = CERT_ExtractPublicKey(c);
	SECItem *spki = pk ? SECKEY_EncodeDERSubjectPublicKeyInfo(pk) : NULL;
	bool ok = spki && PK11_HashBuf(SEC_OID_SHA1, out, spki->data,
				       (PRInt32)spki->len) == SECSuccess;

	SECITEM_FreeItem(spki, PR_TRUE);
	SECKEY_DestroyPublicKey(pk);
	return ok;
}

void cred_ca_refresh(void)
{
	cred_cache_flush();
	cert_cache_flush(); /* the database's CRLs may be new */
	CERTCertList *l =
		nssdb_slot() ? PK11_ListCertsInSlot(nssdb_slot()) : NULL;
	size_t n = 0;

	for (CERTCertListNode *i = l ? CERT_LIST_HEAD(l) : NULL;
	     i && !CERT_LIST_END(i, l) && n + 20 <= sizeof(ca_hashes);
	     i = CERT_LIST_NEXT(i))
		if (trusted_ca(i->cert) && spki_sha1(i->cert, ca_hashes + n))
			n += 20;
	if (l)
		CERT_DestroyCertList(l);
	ca_hashes_len = n;
}

const uint8_t *cred_ca_hashes(size_t *len)
{
	*len = ca_hashes_len;
	return ca_hashes;
}
