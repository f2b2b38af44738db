// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A peer's certificate chain, verified by NSS's PKIX path building
 * against the database's trust and CRLs (no network: OCSP needs an HTTP
 * client NSS does not have, and ocsp-enable=yes is refused until one is
 * here). A refusal says, in words a user can act on, what is wrong with
 * which certificate, and ends with NSS's own error name: users of both
 * other daemons complain of bare "signature failed" messages.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cert.h>
#include <certt.h>
#include <keyhi.h>
#include <pk11pub.h>
#include <prerror.h>
#include <secerr.h>

#include "crypto/cred.h"
#include "crypto/dn.h"
#include "crypto/nssdb.h"

struct chain {
	CERTCertificate *c[CRED_CHAIN_MAX];
	size_t n;
};

static void chain_free(struct chain *ch)
{
	for (size_t i = 0; i < ch->n; i++)
		CERT_DestroyCertificate(ch->c[i]);
	ch->n = 0;
}

static int import(const struct cred_der *certs, size_t n, struct chain *ch,
		  char *why, size_t cap)
{
	CERTCertDBHandle *db = CERT_GetDefaultCertDB();

	for (size_t i = 0; i < n && i < CRED_CHAIN_MAX; i++) {
		SECItem der = { siBuffer, (unsigned char *)certs[i].ptr,
				(unsigned)certs[i].len };
		CERTCertificate *c = CERT_NewTempCertificate(db, &der, NULL,
							     PR_FALSE, PR_TRUE);

		if (!c) {
			chain_free(ch);
			snprintf(
				why, cap,
				"CERT payload %zu: not an X.509 certificate NSS can decode (%s)",
				i + 1, PR_ErrorToName(PR_GetError()) ?: "?");
			return -EBADMSG;
		}
		ch->c[ch->n++] = c;
	}
	return 0;
}

static void name_of(const SECItem *der, char *out, size_t cap)
{
	if (dn_to_text(der->data, der->len, out, cap))
		snprintf(out, cap, "(undecodable name)");
}

/* A CA of that name in the database: then the issuer is a look-alike. */
static bool db_has_subject(const SECItem *name)
{
	CERTCertList *l =
		nssdb_slot() ? PK11_ListCertsInSlot(nssdb_slot()) : NULL;
	bool found = false;

	for (CERTCertListNode *i = l ? CERT_LIST_HEAD(l) : NULL;
	     i && !CERT_LIST_END(i, l) && !found; i = CERT_LIST_NEXT(i))
		found = SECITEM_ItemsAreEqual(&i->cert->derSubject, name);
	if (l)
		CERT_DestroyCertList(l);
	return found;
}

static void when(PRTime t, char *out, size_t cap)
{
	time_t s = (time_t)(t / PR_USEC_PER_SEC);
	struct tm tm;

	gmtime_r(&s, &tm);
	strftime(out, cap, "%Y-%m-%d %H:%M:%S UTC", &tm);
}

static const char *expiry(CERTCertificate *c, char *buf, size_t cap)
{
	PRTime nb, na;
	char t[40];

	if (CERT_GetCertTimes(c, &nb, &na) != SECSuccess)
		return "it is outside its validity";
	if (PR_Now() < nb) {
		when(nb, t, sizeof(t));
		snprintf(buf, cap, "it is not valid before %s", t);
	} else {
		when(na, t, sizeof(t));
		snprintf(buf, cap, "it expired on %s", t);
	}
	return buf;
}

static const char *reason(PRErrorCode code, CERTCertificate *c,
			  const char *issuer, char *buf, size_t cap)
{
	bool lookalike = db_has_subject(&c->derIssuer);

	switch (code) {
	case SEC_ERROR_UNKNOWN_ISSUER:
	case SEC_ERROR_BAD_SIGNATURE:
		if (lookalike)
			return "a CA of that name is in the NSS database but did not sign it: a look-alike CA, same name, other key";
		if (code == SEC_ERROR_BAD_SIGNATURE)
			return "the issuer's signature on it does not verify";
		snprintf(
			buf, cap,
			"its issuer \"%.80s\" is not a CA in the NSS database, and no CERT payload carried a chain to one",
			issuer);
		return buf;
	case SEC_ERROR_UNTRUSTED_ISSUER:
		return "its issuer is in the NSS database but not trusted as a CA (certutil trust without C)";
	case SEC_ERROR_UNTRUSTED_CERT:
		return "it is marked untrusted in the NSS database";
	case SEC_ERROR_EXPIRED_CERTIFICATE:
		return expiry(c, buf, cap);
	case SEC_ERROR_EXPIRED_ISSUER_CERTIFICATE:
		return "a CA certificate of its chain has expired";
	case SEC_ERROR_REVOKED_CERTIFICATE:
		return "it is revoked: a CRL in the NSS database lists it";
	case SEC_ERROR_INADEQUATE_KEY_USAGE:
		return "its key usage does not allow digital signatures";
	case SEC_ERROR_INADEQUATE_CERT_TYPE:
		return "its extended key usage allows neither IKE (RFC 4945) nor any purpose";
	case SEC_ERROR_CA_CERT_INVALID:
		return "a certificate of its chain signs others but is not a CA";
	case SEC_ERROR_CERT_BAD_ACCESS_LOCATION:
	case SEC_ERROR_OCSP_SERVER_ERROR:
		return "its revocation status could not be fetched";
	default:
		return PR_ErrorToString(code, PR_LANGUAGE_I_DEFAULT);
	}
}

static SECStatus pkix(CERTCertificate *leaf, CERTCertList **path)
{
	static PRUint64 leaf_flags[2] = {
		CERT_REV_M_TEST_USING_THIS_METHOD |
			CERT_REV_M_FORBID_NETWORK_FETCHING,
		0
	};
	static PRUint64 chain_flags[2] = {
		CERT_REV_M_TEST_USING_THIS_METHOD |
			CERT_REV_M_FORBID_NETWORK_FETCHING,
		0
	};
	CERTRevocationMethodIndex pref[1] = { cert_revocation_method_crl };
	CERTRevocationFlags rev = { { 2, leaf_flags, 1, pref, 0 },
				    { 2, chain_flags, 1, pref, 0 } };
	CERTValInParam in[3];
	CERTValOutParam out[2];
	SECStatus st;

	in[0].type = cert_pi_revocationFlags;
	in[0].value.pointer.revocation = &rev;
	in[1].type = cert_pi_useAIACertFetch;
	in[1].value.scalar.b = PR_FALSE;
	in[2].type = cert_pi_end;
	out[0].type = cert_po_certList;
	out[0].value.pointer.chain = NULL;
	out[1].type = cert_po_end;
	st = CERT_PKIXVerifyCert(leaf, certificateUsageIPsec, in, out, NULL);
	*path = out[0].value.pointer.chain;
	return st;
}

/* rightca=DN: some certificate of the path has that subject. */
static bool path_has_ca(CERTCertList *path, const struct cert_verify_opts *o)
{
	for (CERTCertListNode *i = path ? CERT_LIST_HEAD(path) : NULL;
	     i && !CERT_LIST_END(i, path); i = CERT_LIST_NEXT(i))
		if (i != CERT_LIST_HEAD(path) &&
		    dn_match(o->ca, o->ca_len, i->cert->derSubject.data,
			     i->cert->derSubject.len, NULL))
			return true;
	return false;
}

static int check(struct chain *ch, const struct cert_verify_opts *o,
		 const char *subject, const char *issuer, char *why, size_t cap)
{
	CERTCertList *path = NULL;
	char buf[240], ca[256];
	PRErrorCode code;
	int rc = 0;

	if (pkix(ch->c[0], &path) != SECSuccess) {
		code = PR_GetError();
		snprintf(why, cap,
			 "certificate \"%s\" issued by \"%s\": %s (%s)",
			 subject, issuer,
			 reason(code, ch->c[0], issuer, buf, sizeof(buf)),
			 PR_ErrorToName(code) ? PR_ErrorToName(code) :
						"unknown NSS error");
		rc = -EPERM;
	} else if (o && o->ca && !path_has_ca(path, o)) {
		if (dn_to_text(o->ca, o->ca_len, ca, sizeof(ca)))
			snprintf(ca, sizeof(ca), "(rightca=)");
		snprintf(
			why, cap,
			"certificate \"%s\" issued by \"%s\": its chain does not contain the CA rightca= asks for, \"%s\"",
			subject, issuer, ca);
		rc = -EPERM;
	}
	if (path)
		CERT_DestroyCertList(path);
	return rc;
}

static int make(CERTCertificate *c, const char *subject, const char *issuer,
		struct peer_cert **out, char *why, size_t cap)
{
	struct peer_cert *p = calloc(1, sizeof(*p));

	if (p)
		p->der = malloc(c->derCert.len);
	if (!p || !p->der) {
		free(p);
		snprintf(why, cap, "out of memory");
		return -ENOMEM;
	}
	p->refs = 1;
	memcpy(p->der, c->derCert.data, c->derCert.len);
	p->der_len = c->derCert.len;
	snprintf(p->subject, sizeof(p->subject), "%s", subject);
	snprintf(p->issuer, sizeof(p->issuer), "%s", issuer);
	p->pub = CERT_ExtractPublicKey(c);
	p->key = sig_pub_type(p->pub, &p->bits);
	{
		PRTime nb, na;

		if (CERT_GetCertTimes(c, &nb, &na) == SECSuccess)
			p->not_after = (time_t)(na / PR_USEC_PER_SEC);
	}
	*out = p;
	return 0;
}

int cert_verify(const struct cred_der *certs, size_t n,
		const struct cert_verify_opts *o, struct peer_cert **out,
		char *why, size_t cap)
{
	struct chain ch = { .n = 0 };
	char subject[256], issuer[256];
	int rc;

	if (n == 0) {
		snprintf(why, cap, "the peer sent no certificate");
		return -EPERM;
	}
	rc = import(certs, n, &ch, why, cap);
	if (rc)
		return rc;
	name_of(&ch.c[0]->derSubject, subject, sizeof(subject));
	name_of(&ch.c[0]->derIssuer, issuer, sizeof(issuer));
	rc = check(&ch, o, subject, issuer, why, cap);
	if (!rc)
		rc = make(ch.c[0], subject, issuer, out, why, cap);
	chain_free(&ch);
	return rc;
}

struct peer_cert *peer_cert_get(struct peer_cert *p)
{
	if (p)
		__atomic_add_fetch(&p->refs, 1, __ATOMIC_RELAXED);
	return p;
}

void peer_cert_put(struct peer_cert *p)
{
	if (!p || __atomic_sub_fetch(&p->refs, 1, __ATOMIC_ACQ_REL))
		return;
	if (p->pub)
		SECKEY_DestroyPublicKey(p->pub);
	free(p->der);
	free(p);
}

struct SECKEYPublicKeyStr *peer_cert_key(const struct peer_cert *p)
{
	/* a copy is memory only: no certificate lookup, no token object */
	return p->pub ? SECKEY_CopyPublicKey(p->pub) : NULL;
}

void peer_cert_key_free(struct SECKEYPublicKeyStr *k)
{
	if (k)
		SECKEY_DestroyPublicKey(k);
}
