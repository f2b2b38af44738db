// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * ikebana listcerts: the certificates of an NSS database, read-only and
 * without a daemon. Both outputs come from one JSON array, so that the
 * text shows exactly what --json documents.
 */
#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <json-c/json.h>

#include <cert.h>
#include <certdb.h>
#include <keyhi.h>
#include <pk11pub.h>
#include <prtime.h>
#include <secoid.h>

#include "build-config.h"
#include "cli/cli.h"
#include "crypto/nssdir.h"

static struct json_object *jstr(const char *s)
{
	return s ? json_object_new_string(s) : NULL;
}

/* "2025-01-31T12:00:00Z" */
static struct json_object *jtime(PRTime t)
{
	time_t s = (time_t)(t / PR_USEC_PER_SEC);
	char buf[32];
	struct tm tm;

	if (!gmtime_r(&s, &tm) ||
	    !strftime(buf, sizeof(buf), "%Y-%m-%dT%H:%M:%SZ", &tm))
		return NULL;
	return json_object_new_string(buf);
}

static struct json_object *jhex(const unsigned char *b, size_t n, bool colons)
{
	char *s = malloc(n * 3 + 1), *p = s;
	struct json_object *j;

	if (!s)
		return NULL;
	*p = '\0';
	for (size_t i = 0; i < n; i++)
		p += sprintf(p, colons ? "%s%02X" : "%s%02x",
			     colons && i ? ":" : "", b[i]);
	j = json_object_new_string(s);
	free(s);
	return j;
}

static const char *curve_name(const SECKEYPublicKey *pk)
{
	const SECItem *p = &pk->u.ec.DEREncodedParams;
	SECItem oid;
	SECOidTag tag;

	/* The parameters are the curve's OID, DER-encoded. */
	if (p->len < 2 || p->data[0] != SEC_ASN1_OBJECT_ID ||
	    p->data[1] != p->len - 2)
		return NULL;
	oid = (SECItem){ siBuffer, p->data + 2, p->len - 2 };
	tag = SECOID_FindOIDTag(&oid);
	switch (tag) {
	case SEC_OID_ANSIX962_EC_PRIME256V1:
		return "P-256";
	case SEC_OID_SECG_EC_SECP384R1:
		return "P-384";
	case SEC_OID_SECG_EC_SECP521R1:
		return "P-521";
	case SEC_OID_CURVE25519:
		return "Curve25519";
	default:
		return SECOID_FindOIDTagDescription(tag);
	}
}

static void add_key(struct json_object *o, CERTCertificate *cert)
{
	SECKEYPublicKey *pk = CERT_ExtractPublicKey(cert);
	const char *type = "unknown", *curve = NULL;
	int bits = 0;

	if (pk) {
		switch (SECKEY_GetPublicKeyType(pk)) {
		case rsaKey:
			type = "RSA";
			break;
		case rsaPssKey:
			type = "RSA-PSS";
			break;
		case dsaKey:
			type = "DSA";
			break;
		case ecKey:
			type = "EC";
			curve = curve_name(pk);
			break;
		default:
			break;
		}
		bits = (int)SECKEY_PublicKeyStrengthInBits(pk);
		SECKEY_DestroyPublicKey(pk);
	}
	json_object_object_add(o, "key_type", jstr(type));
	json_object_object_add(o, "key_bits", json_object_new_int(bits));
	json_object_object_add(o, "curve", jstr(curve));
}

static const char *validity(CERTCertificate *cert)
{
	switch (CERT_CheckCertValidTimes(cert, PR_Now(), PR_FALSE)) {
	case secCertTimeValid:
		return "valid";
	case secCertTimeExpired:
		return "expired";
	case secCertTimeNotValidYet:
		return "not yet valid";
	default:
		return "invalid";
	}
}

/* The basicConstraints cA flag. */
static bool is_ca(CERTCertificate *cert)
{
	CERTBasicConstraints bc = { 0 };
	SECItem ext = { 0 };
	bool ca;

	if (CERT_FindCertExtension(cert, SEC_OID_X509_BASIC_CONSTRAINTS,
				   &ext) != SECSuccess)
		return false;
	ca = CERT_DecodeBasicConstraintValue(&bc, &ext) == SECSuccess &&
	     bc.isCA;
	SECITEM_FreeItem(&ext, PR_FALSE);
	return ca;
}

/* One usage's trust letters, in certutil's order. */
static char *trust_letters(char *p, unsigned f)
{
	if ((f & CERTDB_VALID_CA) &&
	    !(f & (CERTDB_TRUSTED_CA | CERTDB_TRUSTED_CLIENT_CA)))
		*p++ = 'c';
	if ((f & CERTDB_TERMINAL_RECORD) && !(f & CERTDB_TRUSTED))
		*p++ = 'p';
	if (f & CERTDB_TRUSTED_CA)
		*p++ = 'C';
	if (f & CERTDB_TRUSTED_CLIENT_CA)
		*p++ = 'T';
	if (f & CERTDB_TRUSTED)
		*p++ = 'P';
	if (f & CERTDB_USER)
		*p++ = 'u';
	if (f & CERTDB_SEND_WARN)
		*p++ = 'w';
	if (f & CERTDB_INVISIBLE_CA)
		*p++ = 'I';
	if (f & CERTDB_GOVT_APPROVED_CA)
		*p++ = 'G';
	return p;
}

/* "CT,," as certutil -L prints it: SSL, e-mail, object signing. */
static void trust_string(const CERTCertTrust *t, char *buf)
{
	char *p = buf;

	if (t) {
		p = trust_letters(p, t->sslFlags);
		*p++ = ',';
		p = trust_letters(p, t->emailFlags);
		*p++ = ',';
		p = trust_letters(p, t->objectSigningFlags);
	} else {
		*p++ = ',';
		*p++ = ',';
	}
	*p = '\0';
}

static struct json_object *cert_json(const struct nssdir *db,
				     CERTCertificate *cert, bool locked)
{
	struct json_object *o = json_object_new_object();
	unsigned char sha256[32];
	SECKEYPrivateKey *key;
	PRTime nb = 0, na = 0;
	char trust[32];

	json_object_object_add(o, "nickname", jstr(cert->nickname));
	json_object_object_add(o, "subject", jstr(cert->subjectName));
	json_object_object_add(o, "issuer", jstr(cert->issuerName));
	json_object_object_add(
		o, "serial",
		jhex(cert->serialNumber.data, cert->serialNumber.len, false));
	CERT_GetCertTimes(cert, &nb, &na);
	json_object_object_add(o, "not_before", jtime(nb));
	json_object_object_add(o, "not_after", jtime(na));
	json_object_object_add(o, "validity", jstr(validity(cert)));
	add_key(o, cert);
	if (locked) {
		json_object_object_add(o, "private_key", NULL);
	} else {
		key = PK11_FindPrivateKeyFromCert(db->slot, cert, NULL);
		json_object_object_add(o, "private_key",
				       json_object_new_boolean(key != NULL));
		if (key)
			SECKEY_DestroyPrivateKey(key);
	}
	trust_string(cert->trust, trust);
	json_object_object_add(o, "trust", jstr(trust));
	json_object_object_add(o, "ca", json_object_new_boolean(is_ca(cert)));
	if (PK11_HashBuf(SEC_OID_SHA256, sha256, cert->derCert.data,
			 (PRInt32)cert->derCert.len) == SECSuccess)
		json_object_object_add(o, "sha256",
				       jhex(sha256, sizeof(sha256), true));
	else
		json_object_object_add(o, "sha256", NULL);
	return o;
}

static const char *get(struct json_object *o, const char *key)
{
	struct json_object *v;

	if (!json_object_object_get_ex(o, key, &v) || !v)
		return NULL;
	return json_object_get_string(v);
}

static int by_nickname(const void *a, const void *b)
{
	const char *x = get(*(struct json_object *const *)a, "nickname");
	const char *y = get(*(struct json_object *const *)b, "nickname");

	return strcmp(x ? x : "", y ? y : "");
}

static void print_text(struct json_object *a, const char *dir)
{
	size_t n = json_object_array_length(a);

	if (!n)
		printf("no certificates in %s\n", dir);
	for (size_t i = 0; i < n; i++) {
		struct json_object *c = json_object_array_get_idx(a, i), *v;
		const char *val = get(c, "validity");
		const char *pk = get(c, "private_key");

		printf("%s%s\n", i ? "\n" : "",
		       get(c, "nickname") ? get(c, "nickname") : "(none)");
		printf("  subject     %s\n", get(c, "subject"));
		printf("  issuer      %s\n", get(c, "issuer"));
		printf("  serial      %s\n", get(c, "serial"));
		printf("  not before  %s%s\n", get(c, "not_before"),
		       !strcmp(val, "not yet valid") ? "  (not yet valid)" :
						       "");
		printf("  not after   %s%s\n", get(c, "not_after"),
		       !strcmp(val, "expired") ? "  (expired)" : "");
		printf("  key         %s", get(c, "key_type"));
		if (get(c, "curve"))
			printf(" %s", get(c, "curve"));
		else if (json_object_object_get_ex(c, "key_bits", &v))
			printf(" %d", json_object_get_int(v));
		printf(", private key %s\n", !pk ? "unknown (database locked)" :
					     !strcmp(pk, "true") ?
						   "in this database" :
						   "not here");
		printf("  trust       %s\n", get(c, "trust"));
		printf("  CA          %s\n",
		       !strcmp(get(c, "ca"), "true") ? "yes" : "no");
		printf("  sha256      %s\n", get(c, "sha256"));
	}
}

static int parse(const struct cli *c, int argc, char **argv, int *json,
		 const char **dir)
{
	static const struct option opts[] = {
		{ "json", no_argument, NULL, 'j' },
		{ "nssdir", required_argument, NULL, 'd' },
		{ 0 },
	};
	int ch;

	optind = 1;
	while ((ch = getopt_long(argc, argv, "jd:", opts, NULL)) != -1) {
		if (ch == 'j')
			*json = 1;
		else if (ch == 'd')
			*dir = optarg;
		else
			goto usage;
	}
	if (optind == argc)
		return 0;
usage:
	fprintf(stderr, "Usage: %s listcerts [--nssdir DIR] [--json]\n",
		c->prog);
	return -1;
}

int listcerts_main(const struct cli *c, int argc, char **argv)
{
	char dflt[PATH_MAX];
	const char *dir = cli_default_nssdir(dflt, sizeof(dflt));
	struct crypto_err err = { 0 };
	struct json_object *a;
	CERTCertListNode *node;
	CERTCertList *list;
	struct nssdir db;
	bool locked;
	int json = 0;

	if (parse(c, argc, argv, &json, &dir) < 0)
		return CLI_USAGE;
	if (nssdir_open(&db, dir, NSSDIR_READ, &err)) {
		fprintf(stderr, "%s: %s\n", c->prog, err.msg);
		return CLI_FAIL;
	}
	/* Without the password the certificates show, the keys do not. */
	if (nssdir_login(&db, &err))
		fprintf(stderr, "%s: warning: %s; private keys not shown\n",
			c->prog, err.msg);
	locked = nssdir_locked(&db);
	a = json_object_new_array();
	list = PK11_ListCertsInSlot(db.slot);
	for (node = list ? CERT_LIST_HEAD(list) : NULL;
	     node && !CERT_LIST_END(node, list); node = CERT_LIST_NEXT(node))
		json_object_array_add(a, cert_json(&db, node->cert, locked));
	if (list)
		CERT_DestroyCertList(list);
	json_object_array_sort(a, by_nickname);
	if (json)
		printf("%s\n",
		       json_object_to_json_string_ext(
			       a, JSON_C_TO_STRING_PRETTY |
					  JSON_C_TO_STRING_NOSLASHESCAPE));
	else
		print_text(a, dir);
	json_object_put(a);
	if (nssdir_close(&db, &err))
		fprintf(stderr, "%s: warning: %s\n", c->prog, err.msg);
	return CLI_OK;
}
