// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * ikebana import: PKCS#12 files, decoded and MAC-verified by NSS's
 * SEC_PKCS12Decoder, the password tried as pk12util tries it.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <cert.h>
#include <keyhi.h>
#include <p12.h>
#include <p12plcy.h>
#include <pk11pub.h>
#include <prerror.h>
#include <secerr.h>
#include <secoid.h>
#include <secport.h>

#include "cli/import.h"

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

int import_p12(const struct imp *im, unsigned char *data, size_t len)
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
