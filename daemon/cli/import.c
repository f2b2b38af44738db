// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * ikebana import: a PKCS#12 file, a PEM certificate with its private key
 * (and the CA certificates after it), or with --ca a CA certificate, into
 * an NSS database, without a daemon. Nothing here prints key material.
 */
#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <cert.h>
#include <certdb.h>
#include <keyhi.h>
#include <nss.h>
#include <nssb64.h>
#include <p12.h>
#include <p12plcy.h>
#include <pk11pub.h>
#include <prerror.h>
#include <secasn1.h>
#include <secerr.h>
#include <secmodt.h>
#include <secoid.h>
#include <secport.h>

#include "build-config.h"
#include "cli/cli.h"
#include "crypto/nssdir.h"

#define MAX_FILE (1 << 20)
#define MAX_CERTS 16

struct import_opts {
	const char *dir, *nickname, *pwfile, *file;
	bool ca;
};

struct imp {
	const struct cli *c;
	const struct import_opts *o;
	struct nssdir db;
};

/* "ikebana: FILE: ..." on stderr; returns CLI_FAIL. */
static int refuse(const struct imp *im, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static int refuse(const struct imp *im, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: %s: ", im->c->prog, im->o->file);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return CLI_FAIL;
}

static const char *nss_error(void)
{
	const char *name = PORT_ErrorToName(PORT_GetError());

	return name ? name : "unknown NSS error";
}

static void wipe_free(void *p, size_t n)
{
	if (p) {
		explicit_bzero(p, n);
		free(p);
	}
}

/* The whole file; NULL after printing why. */
static unsigned char *slurp(const struct cli *c, const char *path, size_t *len)
{
	unsigned char *buf;
	FILE *f = fopen(path, "re");
	size_t n;

	if (!f) {
		fprintf(stderr, "%s: %s: %s\n", c->prog, path, strerror(errno));
		return NULL;
	}
	buf = malloc(MAX_FILE + 1);
	n = buf ? fread(buf, 1, MAX_FILE + 1, f) : 0;
	if (!buf || ferror(f) || n > MAX_FILE) {
		fprintf(stderr, "%s: %s: %s\n", c->prog, path,
			!buf || ferror(f) ? "cannot read" :
					    "larger than 1 MiB");
		wipe_free(buf, MAX_FILE + 1);
		fclose(f);
		return NULL;
	}
	fclose(f);
	buf[n] = '\0';
	*len = n;
	return buf;
}

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

/* cert's subject CN, in a PORT-allocated string; or NULL. */
static char *cn_of(CERTCertificate *cert)
{
	return CERT_GetCommonName(&cert->subject);
}

/*
 * nick must name no certificate but cert (by DER) on the token. 0, or
 * CLI_FAIL after printing why.
 */
static int nickname_free_for(const struct imp *im, const char *nick,
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
static char *ca_nickname(CERTCertificate *cert)
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
static const char *nick_of(const struct imp *im, const CERTCertificate *cert)
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
static CERTCertificate *on_token(const struct imp *im, const SECItem *der)
{
	return PK11_FindCertFromDERCertItem(im->db.slot, der, NULL);
}

/*
 * One certificate on the token, with trust ("CT,,") or none. The nickname
 * it ends up with is printed. 0, or CLI_FAIL after printing why.
 */
static int put_cert(const struct imp *im, CERTCertificate *cert,
		    const char *nick, const char *trust, const char *what)
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

/* The nickname for the host or CA cert: --nickname, else the CN. */
static char *chosen_nickname(const struct imp *im, CERTCertificate *cert)
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

static int import_pem(const struct imp *im, const char *text)
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
static int import_der_ca(const struct imp *im, CERTCertificate *cert)
{
	char *nick = chosen_nickname(im, cert);
	int rc = CLI_FAIL;

	if (nick && !nickname_free_for(im, nick, &cert->derCert))
		rc = put_cert(im, cert, nick, "CT,,", "CA certificate");
	if (nick)
		PORT_Free(nick);
	return rc;
}

/* PKCS#12 ------------------------------------------------------------ */

/* The password as PKCS#12 wants it: UCS-2 big-endian, NUL-terminated. */
static int ucs2_password(const char *utf8, SECItem *out)
{
	size_t n = strlen(utf8), o = 0;
	const unsigned char *s = (const unsigned char *)utf8;

	if (!SECITEM_AllocItem(NULL, out, (unsigned)(2 * n + 2)))
		return -ENOMEM;
	for (size_t i = 0; i < n;) {
		unsigned cp, extra;

		if (s[i] < 0x80) {
			cp = s[i];
			extra = 0;
		} else if ((s[i] & 0xe0) == 0xc0) {
			cp = s[i] & 0x1f;
			extra = 1;
		} else if ((s[i] & 0xf0) == 0xe0) {
			cp = s[i] & 0x0f;
			extra = 2;
		} else {
			goto bad; /* beyond the BMP, or not UTF-8 */
		}
		if (i + extra >= n + (extra ? 0 : 1))
			goto bad;
		for (unsigned k = 1; k <= extra; k++) {
			if ((s[i + k] & 0xc0) != 0x80)
				goto bad;
			cp = cp << 6 | (s[i + k] & 0x3f);
		}
		i += extra + 1;
		out->data[o++] = cp >> 8;
		out->data[o++] = cp & 0xff;
	}
	out->data[o++] = 0;
	out->data[o++] = 0;
	out->len = (unsigned)o;
	return 0;
bad:
	SECITEM_ZfreeItem(out, PR_FALSE);
	return -EILSEQ;
}

/* The first line of --password-file, without its newline. */
static int read_password(const struct imp *im, char *pw, size_t cap)
{
	FILE *f;
	size_t n;

	pw[0] = '\0';
	if (!im->o->pwfile)
		return 0;
	f = fopen(im->o->pwfile, "re");
	if (!f) {
		fprintf(stderr, "%s: %s: %s\n", im->c->prog, im->o->pwfile,
			strerror(errno));
		return -1;
	}
	if (!fgets(pw, (int)cap, f))
		pw[0] = '\0';
	fclose(f);
	n = strcspn(pw, "\r\n");
	if (n == cap - 1) {
		explicit_bzero(pw, cap);
		fprintf(stderr, "%s: %s: password longer than %zu bytes\n",
			im->c->prog, im->o->pwfile, cap - 2);
		return -1;
	}
	pw[n] = '\0';
	return 0;
}

/* Decoded and MAC-verified, or NULL with PORT_GetError() set. */
static SEC_PKCS12DecoderContext *p12_open(const struct imp *im, SECItem *pw,
					  unsigned char *data, size_t len)
{
	SEC_PKCS12DecoderContext *dcx;

	dcx = SEC_PKCS12DecoderStart(pw, im->db.slot, NULL, NULL, NULL, NULL,
				     NULL, NULL);
	if (!dcx)
		return NULL;
	if (SEC_PKCS12DecoderUpdate(dcx, data, (unsigned long)len) !=
		    SECSuccess ||
	    SEC_PKCS12DecoderVerify(dcx) != SECSuccess) {
		PRErrorCode e = PORT_GetError();

		SEC_PKCS12DecoderFinish(dcx);
		PORT_SetError(e);
		return NULL;
	}
	return dcx;
}

/*
 * NSS tries the password as given, then (when empty) as no password at
 * all, then with the other of its two encodings for PBES2, as pk12util.
 */
static SEC_PKCS12DecoderContext *p12_try(const struct imp *im, SECItem *pw,
					 unsigned char *data, size_t len,
					 bool *toggled)
{
	SEC_PKCS12DecoderContext *dcx;
	PRInt32 orig = 0;
	unsigned full = pw->len;

	*toggled = false;
	if ((dcx = p12_open(im, pw, data, len)))
		return dcx;
	if (full == 2) {
		pw->len = 0;
		if ((dcx = p12_open(im, pw, data, len)))
			return dcx;
		pw->len = full;
	}
	if (NSS_OptionGet(__NSS_PKCS12_DECODE_FORCE_UNICODE, &orig) !=
		    SECSuccess ||
	    NSS_OptionSet(__NSS_PKCS12_DECODE_FORCE_UNICODE, !orig) !=
		    SECSuccess)
		return NULL;
	*toggled = true;
	return p12_open(im, pw, data, len);
}

struct p12_names {
	SECItem leaf; /* the DER of the certificate with a key */
	const char *nick; /* its nickname */
	bool collided;
};

static SECItem *nick_item(const char *nick)
{
	size_t n = strlen(nick);
	SECItem *it = SECITEM_AllocItem(NULL, NULL, (unsigned)n + 1);

	if (!it)
		return NULL;
	memcpy(it->data, nick, n + 1);
	it->len = (unsigned)n;
	return it;
}

static SECStatus PR_CALLBACK rename_cb(const CERTCertificate *cert,
				       const SECItem *def, SECItem **newnick,
				       void *arg)
{
	struct p12_names *names = arg;

	*newnick = NULL;
	if (SECITEM_ItemsAreEqual(&cert->derCert, &names->leaf)) {
		*newnick = nick_item(names->nick);
		if (!*newnick)
			return SECFailure;
	}
	return SECSuccess;
}

/* Only called for the certificate with the key, when its name is taken. */
static struct p12_names *collision_names;

static SECItem *PR_CALLBACK collision_cb(SECItem *old, PRBool *cancel,
					 void *arg)
{
	if (!old && collision_names)
		return nick_item(collision_names->nick);
	if (collision_names)
		collision_names->collided = true;
	*cancel = PR_TRUE;
	return NULL;
}

/* A UTF-8 SECItem as a PORT-allocated string. */
static char *strndup_port(const SECItem *it)
{
	char *s = PORT_Alloc(it->len + 1);

	if (s) {
		memcpy(s, it->data, it->len);
		s[it->len] = '\0';
	}
	return s;
}

static int p12_leaf(const struct imp *im, SEC_PKCS12DecoderContext *dcx,
		    struct p12_names *names, char **nick)
{
	const SEC_PKCS12DecoderItem *it;
	CERTCertificate *cert;
	char *fname = NULL;
	size_t ncerts = 0;

	if (SEC_PKCS12DecoderIterateInit(dcx) != SECSuccess)
		return refuse(im, "cannot list the PKCS#12 bags (%s)",
			      nss_error());
	while (SEC_PKCS12DecoderIterateNext(dcx, &it) == SECSuccess) {
		if (it->type != SEC_OID_PKCS12_V1_CERT_BAG_ID || !it->der)
			continue;
		ncerts++;
		if (!it->hasKey || names->leaf.data)
			continue;
		if (SECITEM_CopyItem(NULL, &names->leaf, it->der) != SECSuccess)
			return refuse(im, "out of memory");
		if (it->friendlyName && it->friendlyName->len)
			fname = strndup_port(it->friendlyName);
	}
	if (!ncerts)
		return refuse(im, "no certificate in the PKCS#12 file");
	if (!names->leaf.data)
		return refuse(im, "no certificate with a private key in the "
				  "PKCS#12 file (to import CA certificates, "
				  "use PEM with --ca)");
	if (im->o->nickname) {
		*nick = PORT_Strdup(im->o->nickname);
		if (fname)
			PORT_Free(fname);
	} else if (fname) {
		*nick = fname;
	} else {
		cert = CERT_NewTempCertificate(CERT_GetDefaultCertDB(),
					       &names->leaf, NULL, PR_FALSE,
					       PR_TRUE);
		*nick = cert ? chosen_nickname(im, cert) : NULL;
		if (cert)
			CERT_DestroyCertificate(cert);
		if (!*nick)
			return CLI_FAIL;
	}
	names->nick = *nick;
	return nickname_free_for(im, *nick, &names->leaf);
}

static void p12_enable_ciphers(void)
{
	static const long ciphers[] = {
		PKCS12_RC2_CBC_40,  PKCS12_RC2_CBC_128, PKCS12_RC4_40,
		PKCS12_RC4_128,	    PKCS12_DES_56,	PKCS12_DES_EDE3_168,
		PKCS12_AES_CBC_128, PKCS12_AES_CBC_192, PKCS12_AES_CBC_256,
	};

	for (size_t i = 0; i < sizeof(ciphers) / sizeof(ciphers[0]); i++)
		SEC_PKCS12EnableCipher(ciphers[i], 1);
}

static int import_p12(const struct imp *im, unsigned char *data, size_t len)
{
	struct p12_names names = { 0 };
	SEC_PKCS12DecoderContext *dcx = NULL;
	SECItem upw = { 0 };
	CERTCertificate *perm;
	SECKEYPrivateKey *priv;
	char pw[1024], *nick = NULL;
	bool toggled = false;
	PRInt32 unicode = 0;
	int rc = CLI_FAIL;

	if (im->o->ca)
		return refuse(im, "--ca takes a CA certificate (PEM or DER), "
				  "not a PKCS#12 file");
	if (read_password(im, pw, sizeof(pw)) < 0)
		return CLI_FAIL;
	if (ucs2_password(pw, &upw)) {
		explicit_bzero(pw, sizeof(pw));
		return refuse(im, "the password is not UTF-8 within the BMP");
	}
	explicit_bzero(pw, sizeof(pw));
	p12_enable_ciphers();
	dcx = p12_try(im, &upw, data, len, &toggled);
	if (!dcx) {
		PRErrorCode e = PORT_GetError();

		if (e == SEC_ERROR_BAD_DER)
			refuse(im, "not a PKCS#12 file, nor a certificate (%s)",
			       nss_error());
		else if (e == SEC_ERROR_BAD_PASSWORD ||
			 e == SEC_ERROR_PKCS12_INVALID_MAC)
			refuse(im, "wrong PKCS#12 password%s (%s)",
			       im->o->pwfile ? " in --password-file" :
					       " (none given: use "
					       "--password-file)",
			       nss_error());
		else
			refuse(im, "cannot decode the PKCS#12 file (%s)",
			       nss_error());
		goto out;
	}
	if (p12_leaf(im, dcx, &names, &nick))
		goto out;
	if (SEC_PKCS12DecoderRenameCertNicknames(dcx, rename_cb, &names) !=
	    SECSuccess) {
		refuse(im, "cannot name the certificate '%s' (%s)", nick,
		       nss_error());
		goto out;
	}
	collision_names = &names;
	if (SEC_PKCS12DecoderValidateBags(dcx, collision_cb) != SECSuccess) {
		if (names.collided)
			refuse(im,
			       "the nickname '%s' is already used by a "
			       "different certificate; choose another with "
			       "--nickname",
			       nick);
		else
			refuse(im, "the PKCS#12 bags are not importable (%s)",
			       nss_error());
		goto out;
	}
	if (SEC_PKCS12DecoderImportBags(dcx) != SECSuccess) {
		refuse(im, "cannot store the PKCS#12 content (%s)",
		       nss_error());
		goto out;
	}
	perm = on_token(im, &names.leaf);
	if (!perm) {
		refuse(im, "the certificate was not stored");
		goto out;
	}
	priv = PK11_FindPrivateKeyFromCert(im->db.slot, perm, NULL);
	printf("imported certificate with its key '%s': %s%s\n",
	       nick_of(im, perm), perm->subjectName,
	       priv ? "" : " (but no private key was stored)");
	rc = priv ? CLI_OK : CLI_FAIL;
	if (priv)
		SECKEY_DestroyPrivateKey(priv);
	CERT_DestroyCertificate(perm);
out:
	collision_names = NULL;
	if (toggled && NSS_OptionGet(__NSS_PKCS12_DECODE_FORCE_UNICODE,
				     &unicode) == SECSuccess)
		NSS_OptionSet(__NSS_PKCS12_DECODE_FORCE_UNICODE, !unicode);
	if (dcx)
		SEC_PKCS12DecoderFinish(dcx);
	if (nick)
		PORT_Free(nick);
	SECITEM_FreeItem(&names.leaf, PR_FALSE);
	SECITEM_ZfreeItem(&upw, PR_FALSE);
	return rc;
}

/* -------------------------------------------------------------------- */

static bool has_suffix(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);

	return n >= m && !strcasecmp(s + n - m, suffix);
}

static int import_file(struct imp *im, unsigned char *data, size_t len)
{
	SECItem der = { siBuffer, data, (unsigned)len };
	CERTCertificate *cert;
	int rc;

	if (has_suffix(im->o->file, ".p12") || has_suffix(im->o->file, ".pfx"))
		return import_p12(im, data, len);
	if (strstr((char *)data, "-----BEGIN "))
		return import_pem(im, (char *)data);
	/* Both DER certificates and PKCS#12 files are a SEQUENCE. */
	if (!len || data[0] != 0x30)
		return refuse(im, "no certificate in the file (it is neither "
				  "PEM, DER nor PKCS#12)");
	/* Binary: a DER certificate, else PKCS#12. */
	cert = CERT_NewTempCertificate(CERT_GetDefaultCertDB(), &der, NULL,
				       PR_FALSE, PR_TRUE);
	if (!cert)
		return import_p12(im, data, len);
	if (!im->o->ca)
		rc = refuse(im, "a DER certificate without its key: give --ca "
				"to import it as a trusted CA");
	else
		rc = import_der_ca(im, cert);
	CERT_DestroyCertificate(cert);
	return rc;
}

static int parse(const struct cli *c, int argc, char **argv,
		 struct import_opts *o)
{
	static const struct option opts[] = {
		{ "nssdir", required_argument, NULL, 'd' },
		{ "ca", no_argument, NULL, 'c' },
		{ "nickname", required_argument, NULL, 'n' },
		{ "password-file", required_argument, NULL, 'p' },
		{ 0 },
	};
	int ch;

	optind = 1;
	while ((ch = getopt_long(argc, argv, "d:cn:p:", opts, NULL)) != -1) {
		if (ch == 'd')
			o->dir = optarg;
		else if (ch == 'c')
			o->ca = true;
		else if (ch == 'n')
			o->nickname = optarg;
		else if (ch == 'p')
			o->pwfile = optarg;
		else
			goto usage;
	}
	if (optind != argc - 1 || (o->nickname && !o->nickname[0]))
		goto usage;
	o->file = argv[optind];
	return 0;
usage:
	fprintf(stderr,
		"Usage: %s import [--nssdir DIR] [--ca] [--nickname NICK] "
		"[--password-file F] FILE\n",
		c->prog);
	return -1;
}

int import_main(const struct cli *c, int argc, char **argv)
{
	char dflt[PATH_MAX];
	struct import_opts o = { .dir = cli_default_nssdir(dflt,
							   sizeof(dflt)) };
	struct crypto_err err = { 0 };
	struct imp im = { .c = c, .o = &o };
	unsigned char *data;
	size_t len = 0;
	int rc;

	if (parse(c, argc, argv, &o) < 0)
		return CLI_USAGE;
	data = slurp(c, o.file, &len);
	if (!data)
		return CLI_FAIL;
	if (nssdir_open(&im.db, o.dir, NSSDIR_CREATE, &err)) {
		fprintf(stderr, "%s: %s\n", c->prog, err.msg);
		wipe_free(data, MAX_FILE + 1);
		return CLI_FAIL;
	}
	if (im.db.created)
		printf("created an empty NSS database in %s (no password)\n",
		       o.dir);
	if (nssdir_login(&im.db, &err)) {
		fprintf(stderr, "%s: %s\n", c->prog, err.msg);
		rc = CLI_FAIL;
	} else {
		rc = import_file(&im, data, len);
	}
	wipe_free(data, MAX_FILE + 1);
	if (nssdir_close(&im.db, &err))
		fprintf(stderr, "%s: warning: %s\n", c->prog, err.msg);
	return rc;
}
