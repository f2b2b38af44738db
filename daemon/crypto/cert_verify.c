// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A peer's certificate chain, verified by NSS's PKIX path building
 * against the database's trust and its CRLs, then, with ocsp-enable=yes,
 * by OCSP (NSS's own HTTP client asks the responder the certificate
 * names, or ocsp-uri=). NSS stops at the first revocation method that
 * knows an answer, so a CRL that says "good" would keep OCSP from being
 * asked: the CRLs and OCSP are two passes, and a certificate either
 * revokes is refused. A refusal says, in words a user can act on, what
 * is wrong with which certificate, and ends with NSS's own error name:
 * users of both other daemons complain of bare "signature failed".
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cert.h>
#include <certdb.h>
#include <certt.h>
#include <keyhi.h>
#include <ocsp.h>
#include <pk11pub.h>
#include <prerror.h>
#include <secerr.h>

#include "crypto/cred.h"
#include "crypto/dn.h"
#include "crypto/nssdb.h"
#include "crypto/revocation.h"

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
			  const char *issuer, bool ocsp, char *buf, size_t cap)
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
		return ocsp ? "it is revoked: its OCSP responder says so" :
			      "it is revoked: a CRL in the NSS database lists it";
	case SEC_ERROR_INADEQUATE_KEY_USAGE:
		return "its key usage does not allow digital signatures";
	case SEC_ERROR_INADEQUATE_CERT_TYPE:
		return "its extended key usage allows neither IKE (RFC 4945) nor any purpose";
	case SEC_ERROR_CA_CERT_INVALID:
		return "a certificate of its chain signs others but is not a CA";
	case SEC_ERROR_CERT_BAD_ACCESS_LOCATION:
		return "its OCSP responder's address (authorityInfoAccess) is not one NSS can use";
	case SEC_ERROR_OCSP_UNKNOWN_CERT:
		return "its OCSP responder does not know it (status unknown)";
	case SEC_ERROR_OCSP_SERVER_ERROR:
	case SEC_ERROR_OCSP_TRY_SERVER_LATER:
	case SEC_ERROR_OCSP_BAD_HTTP_RESPONSE:
	case SEC_ERROR_OCSP_MALFORMED_RESPONSE:
	case SEC_ERROR_OCSP_UNKNOWN_RESPONSE_STATUS:
	case SEC_ERROR_OCSP_MALFORMED_REQUEST:
	case SEC_ERROR_OCSP_REQUEST_NEEDS_SIG:
		return "its OCSP responder gave no usable answer";
	case SEC_ERROR_OCSP_UNAUTHORIZED_RESPONSE:
	case SEC_ERROR_OCSP_INVALID_SIGNING_CERT:
	case SEC_ERROR_OCSP_UNAUTHORIZED_REQUEST:
		return "the OCSP answer is signed by a certificate not authorized to answer for its CA (ocsp-trustname=?)";
	case SEC_ERROR_OCSP_OLD_RESPONSE:
	case SEC_ERROR_OCSP_FUTURE_RESPONSE:
		return "the OCSP answer is not current (check both clocks)";
	case PR_CONNECT_REFUSED_ERROR:
	case PR_CONNECT_RESET_ERROR:
	case PR_IO_TIMEOUT_ERROR:
	case PR_NETWORK_UNREACHABLE_ERROR:
	case PR_HOST_UNREACHABLE_ERROR:
	case PR_CONNECT_TIMEOUT_ERROR:
	case SEC_ERROR_BAD_HTTP_RESPONSE:
	case PR_DIRECTORY_LOOKUP_ERROR:
		return "its OCSP responder could not be reached (ocsp-timeout=)";
	default:
		return PR_ErrorToString(code, PR_LANGUAGE_I_DEFAULT);
	}
}

/*
 * The revoked certificate of a refusal. NSS's PKIX error log files a
 * revocation under the issuer of the revoked certificate (depth 1 for the
 * end certificate), so the revoked one is what that issuer signed; NULL
 * means the end certificate. Other errors name the end certificate.
 */
static CERTCertificate *revoked_one(const CERTVerifyLogNode *n,
				    const struct chain *ch)
{
	if (!n || !n->cert || n->error != SEC_ERROR_REVOKED_CERTIFICATE ||
	    n->depth <= 1)
		return NULL;
	for (size_t i = 1; i < ch->n; i++)
		if (SECITEM_ItemsAreEqual(&ch->c[i]->derIssuer,
					  &n->cert->derSubject) &&
		    !SECITEM_ItemsAreEqual(&ch->c[i]->derCert,
					   &n->cert->derCert))
			return CERT_DupCertificate(ch->c[i]);
	return NULL;
}

/*
 * NSS's chain (cert_po_certList) leaves out the trust anchor, certt.h
 * notwithstanding: rightca= may name the root, and crl-strict= wants the
 * CRL of the CA that issued the last certificate before it, so the
 * anchor goes at the end (once: a trusted end certificate is both).
 */
static CERTCertList *with_anchor(CERTCertList *path, CERTCertificate *anchor)
{
	if (!anchor)
		return path;
	if (!path ||
	    (!CERT_LIST_EMPTY(path) &&
	     SECITEM_ItemsAreEqual(&CERT_LIST_TAIL(path)->cert->derCert,
				   &anchor->derCert)) ||
	    CERT_AddCertToListTail(path, anchor) != SECSuccess)
		CERT_DestroyCertificate(anchor);
	return path;
}

/*
 * One PKIX validation of ch's end certificate: by the CRLs in the
 * database (never fetched), or by OCSP only. A revoked CA certificate of
 * the chain goes to *bad (a new reference).
 */
static SECStatus pkix(const struct chain *ch, bool ocsp, bool post,
		      CERTCertList **path, CERTCertificate **bad)
{
	PRUint64 crl = CERT_REV_M_TEST_USING_THIS_METHOD |
		       CERT_REV_M_FORBID_NETWORK_FETCHING;
	PRUint64 by_ocsp = CERT_REV_M_TEST_USING_THIS_METHOD |
			   (post ? CERT_REV_M_FORCE_POST_METHOD_FOR_OCSP : 0);
	PRUint64 leaf_flags[2] = { ocsp ? 0 : crl, ocsp ? by_ocsp : 0 };
	PRUint64 chain_flags[2] = { ocsp ? 0 : crl, ocsp ? by_ocsp : 0 };
	CERTRevocationMethodIndex pref[1] = {
		ocsp ? cert_revocation_method_ocsp : cert_revocation_method_crl
	};
	CERTRevocationFlags rev = { { 2, leaf_flags, 1, pref, 0 },
				    { 2, chain_flags, 1, pref, 0 } };
	CERTVerifyLog log = { .arena = PORT_NewArena(DER_DEFAULT_CHUNKSIZE) };
	CERTValInParam in[3];
	CERTValOutParam out[4];
	PRErrorCode code;
	SECStatus st;

	in[0].type = cert_pi_revocationFlags;
	in[0].value.pointer.revocation = &rev;
	in[1].type = cert_pi_useAIACertFetch;
	in[1].value.scalar.b = PR_FALSE;
	in[2].type = cert_pi_end;
	out[0].type = cert_po_certList;
	out[0].value.pointer.chain = NULL;
	out[1].type = cert_po_trustAnchor;
	out[1].value.pointer.cert = NULL;
	out[2].type = log.arena ? cert_po_errorLog : cert_po_end;
	out[2].value.pointer.log = &log;
	out[3].type = cert_po_end;
	st = CERT_PKIXVerifyCert(ch->c[0], certificateUsageIPsec, in, out,
				 NULL);
	code = st == SECSuccess ? 0 : PR_GetError();
	*path = with_anchor(out[0].value.pointer.chain,
			    out[1].value.pointer.cert);
	*bad = st == SECSuccess ? NULL : revoked_one(log.head, ch);
	for (CERTVerifyLogNode *n = log.head; n; n = n->next)
		CERT_DestroyCertificate(n->cert);
	if (log.arena)
		PORT_FreeArena(log.arena, PR_FALSE);
	if (st != SECSuccess) /* across the anchor and the log's cleanup */
		PR_SetError(code, 0);
	return st;
}

/* rightca=DN: some CA certificate of the path, anchor included, has it. */
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

/* ocsp-uri=, else the OCSP URI of c's authorityInfoAccess, for messages. */
static void responder_of(CERTCertificate *c, const struct revocation_opts *rv,
			 char *out, size_t cap)
{
	char *loc = rv->ocsp_uri[0] ?
			    NULL :
			    CERT_GetOCSPAuthorityInfoAccessLocation(c);

	snprintf(out, cap, "%s",
		 rv->ocsp_uri[0] ? rv->ocsp_uri :
		 loc		 ? loc :
				   "");
	if (loc)
		PORT_Free(loc);
}

/*
 * The refusal: about the end certificate, or about bad, a CA certificate
 * of its chain. rv non-NULL: the OCSP pass said it, name the responder.
 */
static void refuse(PRErrorCode code, CERTCertificate *bad, struct chain *ch,
		   const char *subject, const char *issuer,
		   const struct revocation_opts *rv, const char *note,
		   char *why, size_t cap)
{
	CERTCertificate *c = bad ? bad : ch->c[0];
	bool ca = bad &&
		  !SECITEM_ItemsAreEqual(&bad->derCert, &ch->c[0]->derCert);
	char buf[240], who[300] = "", cissuer[256], url[REVOCATION_URI_MAX];

	name_of(&c->derIssuer, cissuer, sizeof(cissuer));
	if (ca) {
		char cs[256];

		name_of(&c->derSubject, cs, sizeof(cs));
		snprintf(who, sizeof(who), "its CA certificate \"%s\": ", cs);
	}
	url[0] = '\0';
	if (rv)
		responder_of(c, rv, url, sizeof(url));
	snprintf(why, cap,
		 "certificate \"%s\" issued by \"%s\": %s%s%s (%s%s%s)",
		 subject, issuer, who,
		 reason(code, c, cissuer, rv != NULL, buf, sizeof(buf)), note,
		 url, url[0] ? "; " : "",
		 PR_ErrorToName(code) ? PR_ErrorToName(code) :
					"unknown NSS error");
}

/* crl-strict=yes: a current CRL of each issuer in the path. */
static CERTCertificate *crl_missing(CERTCertList *path, bool *expired)
{
	CERTCertDBHandle *db = CERT_GetDefaultCertDB();

	for (CERTCertListNode *i = path ? CERT_LIST_HEAD(path) : NULL;
	     i && !CERT_LIST_END(i, path); i = CERT_LIST_NEXT(i)) {
		CERTSignedCrl *crl;
		bool ok;

		/* the trust anchor, last, is not revoked by a CRL */
		if (CERT_LIST_END(CERT_LIST_NEXT(i), path))
			break;
		crl = SEC_FindCrlByName(db, &i->cert->derIssuer, SEC_CRL_TYPE);
		ok = crl &&
		     SEC_CheckCrlTimes(&crl->crl, PR_Now()) == secCertTimeValid;
		*expired = crl && !ok;
		if (crl)
			SEC_DestroyCrl(crl);
		if (!ok)
			return i->cert;
	}
	return NULL;
}

static int crl_strict(CERTCertList *path, const char *subject,
		      const char *issuer, char *why, size_t cap)
{
	bool expired = false;
	CERTCertificate *c = crl_missing(path, &expired);
	char ci[256];

	if (!c)
		return 0;
	name_of(&c->derIssuer, ci, sizeof(ci));
	snprintf(
		why, cap,
		"certificate \"%s\" issued by \"%s\": the NSS database has %s CRL of \"%s\", and crl-strict=yes wants one for each certificate of the chain (crlutil -I imports it)",
		subject, issuer,
		expired ? "only an expired (or not yet valid)" : "no", ci);
	return -EPERM;
}

/* ocsp-strict=yes: the end certificate has a good answer (NSS's cache). */
static int ocsp_strict(struct chain *ch, const struct revocation_opts *rv,
		       const char *subject, const char *issuer, char *why,
		       size_t cap)
{
	char url[REVOCATION_URI_MAX];

	responder_of(ch->c[0], rv, url, sizeof(url));
	if (!url[0]) {
		snprintf(
			why, cap,
			"certificate \"%s\" issued by \"%s\": it names no OCSP responder (no OCSP URI in its authorityInfoAccess) and ocsp-uri= is not set, so ocsp-strict=yes refuses it",
			subject, issuer);
		return -EPERM;
	}
	if (CERT_CheckOCSPStatus(CERT_GetDefaultCertDB(), ch->c[0], PR_Now(),
				 NULL) == SECSuccess)
		return 0;
	refuse(PR_GetError(), NULL, ch, subject, issuer, rv,
	       ", and ocsp-strict=yes wants a good answer", why, cap);
	return -EPERM;
}

static int check(struct chain *ch, const struct cert_verify_opts *o,
		 const char *subject, const char *issuer, char *why, size_t cap)
{
	struct revocation_opts rv;
	CERTCertList *path = NULL, *opath = NULL;
	CERTCertificate *bad = NULL;
	char ca[256];
	int rc = -EPERM;

	revocation_get(&rv);
	if (pkix(ch, false, false, &path, &bad) != SECSuccess) {
		refuse(PR_GetError(), bad, ch, subject, issuer, NULL, "", why,
		       cap);
	} else if (o && o->ca && !path_has_ca(path, o)) {
		if (dn_to_text(o->ca, o->ca_len, ca, sizeof(ca)))
			snprintf(ca, sizeof(ca), "(rightca=)");
		snprintf(
			why, cap,
			"certificate \"%s\" issued by \"%s\": its chain does not contain the CA rightca= asks for, \"%s\"",
			subject, issuer, ca);
	} else if (rv.crl_strict &&
		   crl_strict(path, subject, issuer, why, cap)) {
		/* why is set */
	} else if (rv.ocsp &&
		   pkix(ch, true, rv.ocsp_post, &opath, &bad) != SECSuccess) {
		refuse(PR_GetError(), bad, ch, subject, issuer, &rv, "", why,
		       cap);
	} else if (rv.ocsp && rv.ocsp_strict &&
		   ocsp_strict(ch, &rv, subject, issuer, why, cap)) {
		/* why is set */
	} else {
		rc = 0;
	}
	if (bad)
		CERT_DestroyCertificate(bad);
	if (path)
		CERT_DestroyCertList(path);
	if (opath)
		CERT_DestroyCertList(opath);
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
