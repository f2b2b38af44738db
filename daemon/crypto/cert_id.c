// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * IKE ID against certificate: the subjectAltNames and subject NSS decodes
 * from the peer's end-entity certificate, compared as libreswan does.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include <cert.h>
#include <secitem.h>
#include <secoid.h>

#include "crypto/cert_id.h"
#include "crypto/dn.h"

/* An appending snprintf: truncates, never overruns, always terminated. */
struct why {
	char *p;
	size_t cap, len;
};

static void why_add(struct why *w, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void why_add(struct why *w, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (!w->p || w->len + 1 >= w->cap)
		return;
	va_start(ap, fmt);
	n = vsnprintf(w->p + w->len, w->cap - w->len, fmt, ap);
	va_end(ap);
	if (n > 0)
		w->len += (size_t)n < w->cap - w->len ? (size_t)n :
							w->cap - w->len - 1;
}

/* Peer text into a log line: printable ASCII as is, the rest \XX. */
static void why_bytes(struct why *w, const uint8_t *v, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		if (v[i] > 0x20 && v[i] < 0x7f && v[i] != '\\')
			why_add(w, "%c", v[i]);
		else
			why_add(w, "\\%02X", v[i]);
	}
}

static void why_addr(struct why *w, const uint8_t *a, size_t n)
{
	char s[INET6_ADDRSTRLEN];

	if ((n == 4 && inet_ntop(AF_INET, a, s, sizeof(s))) ||
	    (n == 16 && inet_ntop(AF_INET6, a, s, sizeof(s))))
		why_add(w, "%s", s);
	else
		why_add(w, "(%zu-byte address)", n);
}

static void why_dn(struct why *w, const uint8_t *der, size_t len)
{
	char s[DN_MAX];
	int rc = dn_to_text(der, len, s, sizeof(s));

	why_add(w, "%s%s", rc == -EBADMSG ? "(bad DN)" : s,
		rc == -ENOSPC ? "..." : "");
}

/* The ID as libreswan writes it: @fqdn, user@host, an address, a DN. */
static void why_id(struct why *w, uint8_t type, const uint8_t *id, size_t n)
{
	switch (type) {
	case IKEV2_ID_IPV4_ADDR:
	case IKEV2_ID_IPV6_ADDR:
		why_addr(w, id, n);
		break;
	case IKEV2_ID_FQDN:
		why_add(w, "@");
		why_bytes(w, id, n);
		break;
	case IKEV2_ID_RFC822_ADDR:
		why_bytes(w, id, n);
		break;
	case IKEV2_ID_DER_ASN1_DN:
		why_dn(w, id, n);
		break;
	case IKEV2_ID_KEY_ID:
		why_add(w, "@#");
		for (size_t i = 0; i < n && i < 32; i++)
			why_add(w, "%02x", id[i]);
		break;
	default:
		why_add(w, "(ID type %u, %zu bytes)", type, n);
	}
}

/*
 * A temporary certificate: CERT_DecodeDERCertificate is not exported. NSS
 * returns a certificate it already holds when the DER is the same; the
 * comparison makes sure it never hands back another one (say, one with
 * the same issuer and serial).
 */
static CERTCertificate *cert_decode(const uint8_t *der, size_t len)
{
	SECItem item = { siDERCertBuffer, (unsigned char *)der, (unsigned)len };
	CERTCertificate *cert;

	if (!der || len == 0 || len > INT_MAX)
		return NULL;
	cert = CERT_NewTempCertificate(CERT_GetDefaultCertDB(), &item, NULL,
				       PR_FALSE, PR_TRUE);
	if (cert && SECITEM_CompareItem(&cert->derCert, &item) != SECEqual) {
		CERT_DestroyCertificate(cert);
		return NULL;
	}
	return cert;
}

/* subjectAltNames: first is NULL when the certificate has none. */
struct sans {
	PLArenaPool *arena;
	SECItem ext;
	CERTGeneralName *first;
};

static int sans_get(CERTCertificate *cert, struct sans *s)
{
	memset(s, 0, sizeof(*s));
	if (CERT_FindCertExtension(cert, SEC_OID_X509_SUBJECT_ALT_NAME,
				   &s->ext) != SECSuccess)
		return 0;
	s->arena = PORT_NewArena(DER_DEFAULT_CHUNKSIZE);
	if (!s->arena)
		return -ENOMEM;
	s->first = CERT_DecodeAltNameExtension(s->arena, &s->ext);
	return s->first ? 0 : -EBADMSG;
}

static void sans_free(struct sans *s)
{
	if (s->arena)
		PORT_FreeArena(s->arena, PR_FALSE);
	SECITEM_FreeItem(&s->ext, PR_FALSE);
}

static bool same_ci(const uint8_t *a, size_t an, const uint8_t *b, size_t bn)
{
	if (an != bn)
		return false;
	for (size_t i = 0; i < an; i++) {
		uint8_t x = a[i], y = b[i];

		if (x >= 'A' && x <= 'Z')
			x += 32;
		if (y >= 'A' && y <= 'Z')
			y += 32;
		if (x != y)
			return false;
	}
	return true;
}

/* A SAN of that type equal to id: addresses exactly, names ignoring case. */
static bool san_has(const struct sans *s, CERTGeneralNameType type,
		    const uint8_t *id, size_t n)
{
	CERTGeneralName *g = s->first;

	if (!g)
		return false;
	do {
		const SECItem *v = &g->name.other;

		if (g->type == type &&
		    (type == certIPAddress ?
			     v->len == n && !memcmp(v->data, id, n) :
			     same_ci(v->data, v->len, id, n)))
			return true;
		g = CERT_GetNextGeneralName(g);
	} while (g && g != s->first);
	return false;
}

/* libreswan also takes an RFC822 ID from the subject's E= */
static bool subject_has_email(CERTCertificate *cert, const uint8_t *id,
			      size_t n)
{
	bool found = false;

	for (CERTRDN **r = cert->subject.rdns; r && *r && !found; r++) {
		for (CERTAVA **a = (*r)->avas; a && *a && !found; a++) {
			SECItem *v;

			if (CERT_GetAVATag(*a) != SEC_OID_PKCS9_EMAIL_ADDRESS)
				continue;
			v = CERT_DecodeAVAValue(&(*a)->value);
			found = v && same_ci(v->data, v->len, id, n);
			SECITEM_FreeItem(v, PR_TRUE);
		}
	}
	return found;
}

/* 0 if found, -EPERM if not, -EINVAL if the ID cannot be one of its type */
static int id_in_cert(CERTCertificate *cert, const struct sans *s, uint8_t type,
		      const uint8_t *id, size_t n)
{
	unsigned wild = 0;

	switch (type) {
	case IKEV2_ID_IPV4_ADDR:
	case IKEV2_ID_IPV6_ADDR:
		if (n != (type == IKEV2_ID_IPV4_ADDR ? 4u : 16u))
			return -EINVAL;
		return san_has(s, certIPAddress, id, n) ? 0 : -EPERM;
	case IKEV2_ID_FQDN:
		return san_has(s, certDNSName, id, n) ? 0 : -EPERM;
	case IKEV2_ID_RFC822_ADDR:
		return san_has(s, certRFC822Name, id, n) ||
				       subject_has_email(cert, id, n) ?
			       0 :
			       -EPERM;
	case IKEV2_ID_DER_ASN1_DN:
		/* the peer's ID is a name, not a pattern: no wildcards */
		return dn_match(id, n, cert->derSubject.data,
				cert->derSubject.len, &wild) &&
				       !wild ?
			       0 :
			       -EPERM;
	default:
		return -EPERM;
	}
}

static void why_sans(struct why *w, const struct sans *s)
{
	CERTGeneralName *g = s->first;
	const char *sep = "";

	if (!g) {
		why_add(w, "no subjectAltName");
		return;
	}
	why_add(w, "subjectAltName ");
	do {
		const SECItem *v = &g->name.other;

		why_add(w, "%s", sep);
		sep = ", ";
		if (g->type == certIPAddress) {
			why_add(w, "IP:");
			why_addr(w, v->data, v->len);
		} else if (g->type == certDNSName || g->type == certURI ||
			   g->type == certRFC822Name) {
			why_add(w, "%s",
				g->type == certDNSName ? "DNS:" :
				g->type == certURI     ? "URI:" :
							 "email:");
			why_bytes(w, v->data, v->len);
		} else {
			why_add(w, "(name type %d)", (int)g->type);
		}
		g = CERT_GetNextGeneralName(g);
	} while (g && g != s->first);
}

static void why_not(struct why *w, CERTCertificate *cert, const struct sans *s,
		    uint8_t type, const uint8_t *id, size_t n, int rc)
{
	why_add(w, "ID ");
	why_id(w, type, id, n);
	if (type == IKEV2_ID_KEY_ID) {
		why_add(w, " is an ID_KEY_ID, which is not matched against "
			   "certificates");
		return;
	}
	if (rc == -EINVAL) {
		why_add(w, " has %zu bytes, not an address", n);
		return;
	}
	why_add(w, " is not in the certificate (subject ");
	why_dn(w, cert->derSubject.data, cert->derSubject.len);
	why_add(w, "; ");
	why_sans(w, s);
	why_add(w, ")");
}

int cert_id_check(const uint8_t *cert_der, size_t cert_len, uint8_t id_type,
		  const uint8_t *id, size_t id_len, char *why, size_t why_len)
{
	struct why w = { .p = why, .cap = why_len };
	CERTCertificate *cert;
	struct sans s;
	int rc;

	if (why && why_len)
		why[0] = '\0';
	cert = cert_decode(cert_der, cert_len);
	if (!cert) {
		why_add(&w, "the certificate cannot be decoded");
		return -EBADMSG;
	}
	rc = sans_get(cert, &s);
	if (rc)
		why_add(&w,
			"the certificate's subjectAltName cannot be decoded");
	else
		rc = id_in_cert(cert, &s, id_type, id, id_len);
	if (rc == -EPERM || rc == -EINVAL)
		why_not(&w, cert, &s, id_type, id, id_len, rc);
	sans_free(&s);
	CERT_DestroyCertificate(cert);
	return rc;
}

static int name_text(const SECItem *der, char *out, size_t cap)
{
	if (!out)
		return 0;
	return dn_to_text(der->data, der->len, out, cap);
}

int cert_subject_text(const uint8_t *cert_der, size_t len, char *subject,
		      size_t scap, char *issuer, size_t icap)
{
	CERTCertificate *cert = cert_decode(cert_der, len);
	int rc, rc2;

	if (subject && scap)
		subject[0] = '\0';
	if (issuer && icap)
		issuer[0] = '\0';
	if (!cert)
		return -EBADMSG;
	rc = name_text(&cert->derSubject, subject, scap);
	rc2 = name_text(&cert->derIssuer, issuer, icap);
	CERT_DestroyCertificate(cert);
	return rc ? rc : rc2;
}
