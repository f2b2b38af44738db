// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * ikebana import: storing what a file holds on the database's token. A
 * nickname is checked before anything is stored, and a key is stored only
 * once it is shown to sign what its certificate's public key verifies.
 */
#include <stdio.h>
#include <string.h>

#include <cert.h>
#include <pk11pub.h>
#include <secport.h>

#include "cli/import.h"

/* cert's subject CN, in a PORT-allocated string; or NULL. */
char *cn_of(CERTCertificate *cert)
{
	return CERT_GetCommonName(&cert->subject);
}

/*
 * nick must name no certificate but cert (by DER) on the token. 0, or
 * CLI_FAIL after printing why.
 */
int nickname_free_for(const struct imp *im, const char *nick,
		      const SECItem *der)
{
	CERTCertificate *other = PK11_FindCertFromNickname(nick, NULL);
	int rc = 0;

	if (other && !SECITEM_ItemsAreEqual(&other->derCert, der))
		rc = refuse(im,
			    "the nickname '%s' is already used by a "
			    "different certificate (%s); choose another "
			    "with --nickname",
			    nick, other->subjectName);
	if (other)
		CERT_DestroyCertificate(other);
	return rc;
}

/* A nickname for a CA cert: its CN, else "ca", made unique with " #N". */
char *ca_nickname(CERTCertificate *cert)
{
	char *cn = cn_of(cert), buf[256];
	CERTCertificate *other;

	for (int i = 1; i < 100; i++) {
		if (i == 1)
			snprintf(buf, sizeof(buf), "%s", cn ? cn : "ca");
		else
			snprintf(buf, sizeof(buf), "%s #%d", cn ? cn : "ca", i);
		other = PK11_FindCertFromNickname(buf, NULL);
		if (!other)
			break;
		CERT_DestroyCertificate(other);
	}
	if (cn)
		PORT_Free(cn);
	return PORT_Strdup(buf);
}

/* The nickname without NSS's "TOKEN:" prefix, as listcerts shows it. */
const char *nick_of(const struct imp *im, const CERTCertificate *cert)
{
	const char *tok = PK11_GetTokenName(im->db.slot);
	size_t n = strlen(tok);

	if (!cert->nickname)
		return "";
	if (!strncmp(cert->nickname, tok, n) && cert->nickname[n] == ':')
		return cert->nickname + n + 1;
	return cert->nickname;
}

/* The token's copy of der, once imported. */
CERTCertificate *on_token(const struct imp *im, const SECItem *der)
{
	return PK11_FindCertFromDERCertItem(im->db.slot, der, NULL);
}

/*
 * One certificate on the token, with trust ("CT,,") or none. The nickname
 * it ends up with is printed. 0, or CLI_FAIL after printing why.
 */
int put_cert(const struct imp *im, CERTCertificate *cert, const char *nick,
	     const char *trust, const char *what)
{
	CERTCertificate *perm = on_token(im, &cert->derCert);
	CERTCertTrust t;
	bool had = perm != NULL;
	int rc = 0;

	if (!perm) {
		if (PK11_ImportCert(im->db.slot, cert, CK_INVALID_HANDLE, nick,
				    PR_FALSE) != SECSuccess)
			return refuse(im,
				      "cannot store the certificate %s (%s)",
				      cert->subjectName, nss_error());
		perm = on_token(im, &cert->derCert);
		if (!perm)
			return refuse(im, "the certificate %s was not stored",
				      cert->subjectName);
	}
	if (trust && (CERT_DecodeTrustString(&t, trust) != SECSuccess ||
		      CERT_ChangeCertTrust(CERT_GetDefaultCertDB(), perm, &t) !=
			      SECSuccess))
		rc = refuse(im, "cannot set trust %s on %s (%s)", trust,
			    cert->subjectName, nss_error());
	if (!rc && had && !trust)
		printf("already in the database: '%s': %s\n", nick_of(im, perm),
		       perm->subjectName);
	else if (!rc)
		printf("%s %s '%s': %s%s%s\n", had ? "updated" : "imported",
		       what, nick_of(im, perm), perm->subjectName,
		       trust ? ", trust " : "", trust ? trust : "");
	CERT_DestroyCertificate(perm);
	return rc;
}

/* The nickname for the host or CA cert: --nickname, else the CN. */
char *chosen_nickname(const struct imp *im, CERTCertificate *cert)
{
	char *cn;

	if (im->o->nickname)
		return PORT_Strdup(im->o->nickname);
	cn = cn_of(cert);
	if (!cn)
		refuse(im, "%s has no CN to name it after: give --nickname",
		       cert->subjectName);
	return cn;
}
