// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cert_verify() against a real NSS database: a test PKI made by openssl
 * at test time in a temp dir (no private key is ever committed, as in
 * testing/uml/lib/pki.sh), imported with certutil and crlutil, and opened
 * read-only by nssdb_open() as the daemon opens nssdir=. Each refusal is
 * checked for its words and for NSS's error name: they are what a user
 * reads in the log when a peer is refused. Without openssl, certutil or
 * crlutil (OPENSSL, CERTUTIL, CRLUTIL empty) the test exits 77: skipped.
 */
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <setjmp.h>
#include <spawn.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "crypto/cred.h"
#include "crypto/dn.h"
#include "crypto/nssdb.h"
#include "crypto/revocation.h"
#include "tutil.h"

extern char **environ;

#define O "C=CH, O=ikebana test"
#define ROOT_DN O ", CN=ikebana test root"
#define INTER_DN O ", CN=ikebana test intermediate"
#define REVINTER_DN O ", CN=ikebana test revoked intermediate"
#define STRANGER_DN O ", CN=ikebana test stranger"
#define UNTRUSTED_DN O ", CN=ikebana test untrusted"
#define STALE_DN O ", CN=ikebana test stale"
#define UNSENT_DN O ", CN=ikebana test unsent intermediate"
#define BARE_DN O ", CN=ikebana test bare"
#define LEAF_DN(ou) O ", OU=" ou ", CN=east"

/* refusals are meant to fit 400 octets (cred.h); leave room to see more */
#define WHY_MAX 1024

/*
 * The certificates, made in this order (an issuer before what it signs).
 * Serials are unique across issuers: the look-alike CA has the root's DN,
 * and NSS finds a certificate by issuer name and serial.
 */
enum cert {
	ROOT, /* trusted CT,, with a CRL listing REVOKED and REVINTER */
	INTER, /* by ROOT, not in the database: peers send it */
	UNSENT, /* by ROOT, not in the database, never sent */
	REVINTER, /* by ROOT, revoked in ROOT's CRL, not in the database */
	STALE, /* by ROOT, in the database (",,") with an expired CRL */
	LOOKALIKE, /* ROOT's DN, another key, not in the database */
	STRANGER, /* a CA not in the database */
	UNTRUSTED, /* in the database with trust ",,": no C */
	BARE, /* trusted CT,, without a CRL */
	GOOD, /* the leaves: by ROOT unless said */
	BY_INTER,
	BY_UNSENT,
	BY_REVINTER,
	BY_STALE,
	REVOKED,
	BY_LOOKALIKE,
	BY_STRANGER,
	BY_UNTRUSTED,
	BY_BARE,
	KEYENC, /* keyUsage keyEncipherment only */
	SERVERAUTH, /* extendedKeyUsage serverAuth only */
	CLIENTAUTH, /* extendedKeyUsage clientAuth only */
	CODESIGN, /* extendedKeyUsage codeSigning only */
	IPSECIKE, /* extendedKeyUsage ipsecIKE (RFC 4945) */
	EXPIRED, /* by ROOT, 2020-01-01..2021-01-01, by `openssl ca` */
	NCERTS
};

#define CA(cn) "/C=CH/O=ikebana test/CN=ikebana test " cn
#define LEAF(ou) "/C=CH/O=ikebana test/OU=" ou "/CN=east"

static const struct spec {
	const char *name; /* NAME.pem, .key, .der in the temp dir */
	int issuer; /* enum cert, or -1: self-signed */
	const char *subj; /* openssl's -subj */
	const char *ext; /* a section of openssl.cnf */
	unsigned serial;
} specs[NCERTS] = {
	[ROOT] = { "root", -1, CA("root"), "ca_ext", 1 },
	[INTER] = { "inter", ROOT, CA("intermediate"), "ca_ext", 2 },
	[UNSENT] = { "unsent", ROOT, CA("unsent intermediate"), "ca_ext", 3 },
	[REVINTER] = { "revinter", ROOT, CA("revoked intermediate"), "ca_ext",
		       4 },
	[STALE] = { "stale", ROOT, CA("stale"), "ca_ext", 5 },
	[LOOKALIKE] = { "lookalike", -1, CA("root"), "ca_ext", 6 },
	[STRANGER] = { "stranger", -1, CA("stranger"), "ca_ext", 7 },
	[UNTRUSTED] = { "untrusted", -1, CA("untrusted"), "ca_ext", 8 },
	[BARE] = { "bare", -1, CA("bare"), "ca_ext", 9 },
	[GOOD] = { "good", ROOT, LEAF("good"), "leaf_ext", 16 },
	[BY_INTER] = { "by-inter", INTER, LEAF("inter"), "leaf_ext", 17 },
	[BY_UNSENT] = { "by-unsent", UNSENT, LEAF("unsent"), "leaf_ext", 18 },
	[BY_REVINTER] = { "by-revinter", REVINTER, LEAF("revinter"), "leaf_ext",
			  19 },
	[BY_STALE] = { "by-stale", STALE, LEAF("stale"), "leaf_ext", 20 },
	[REVOKED] = { "revoked", ROOT, LEAF("revoked"), "leaf_ext", 21 },
	[BY_LOOKALIKE] = { "by-lookalike", LOOKALIKE, LEAF("lookalike"),
			   "leaf_ext", 22 },
	[BY_STRANGER] = { "by-stranger", STRANGER, LEAF("stranger"), "leaf_ext",
			  23 },
	[BY_UNTRUSTED] = { "by-untrusted", UNTRUSTED, LEAF("untrusted"),
			   "leaf_ext", 24 },
	[BY_BARE] = { "by-bare", BARE, LEAF("bare"), "leaf_ext", 31 },
	[KEYENC] = { "keyenc", ROOT, LEAF("keyenc"), "keyenc_ext", 25 },
	[SERVERAUTH] = { "serverauth", ROOT, LEAF("serverauth"),
			 "serverauth_ext", 26 },
	[CLIENTAUTH] = { "clientauth", ROOT, LEAF("clientauth"),
			 "clientauth_ext", 27 },
	[CODESIGN] = { "codesign", ROOT, LEAF("codesign"), "codesign_ext", 28 },
	[IPSECIKE] = { "ipsecike", ROOT, LEAF("ipsecike"), "ipsecike_ext", 29 },
	/* made by `openssl ca` (serial file): req -x509 of OpenSSL 3.0 has
	 * no -not_before/-not_after and refuses a negative -days */
	[EXPIRED] = { "expired", ROOT, LEAF("expired"), "leaf_ext", 30 },
};

static struct pki {
	char *dir; /* the temp dir: keys, certificates, CRLs, tools.log */
	char db[PATH_MAX];
	struct cred_der der[NCERTS];
	bool stale_crl; /* STALE's expired CRL is in the database */
	bool nss; /* NSS is up */
} pki;

static char *path(const char *name)
{
	static char buf[8][PATH_MAX];
	static unsigned n;
	char *p = buf[n++ % 8];

	snprintf(p, sizeof(buf[0]), "%s/%s", pki.dir, name);
	return p;
}

static char *file(const char *name, const char *suffix)
{
	char f[128];

	snprintf(f, sizeof(f), "%s.%s", name, suffix);
	return path(f);
}

/* Shows what the tools said, for a fixture that could not be made. */
static void show_log(void)
{
	FILE *f = fopen(path("tools.log"), "re");
	char line[512];

	while (f && fgets(line, sizeof(line), f))
		fprintf(stderr, "  %s", line);
	if (f)
		fclose(f);
}

/*
 * Runs the tool whose path is in the environment variable tool with the
 * arguments that follow (NULL-terminated), output to tools.log; 0 when it
 * exits 0.
 */
static int run(const char *tool, ...)
{
	char *argv[32] = { getenv(tool) };
	posix_spawn_file_actions_t fa;
	size_t n = 1;
	FILE *log = fopen(path("tools.log"), "ae");
	va_list ap;
	pid_t pid;
	int st = -1;

	va_start(ap, tool);
	while (n < 31 && (argv[n] = va_arg(ap, char *)))
		n++;
	va_end(ap);
	argv[n] = NULL;
	if (!log)
		return -1;
	fprintf(log, "#");
	for (size_t i = 0; i < n; i++)
		fprintf(log, " %s", argv[i]);
	fprintf(log, "\n");
	fclose(log);
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
	posix_spawn_file_actions_addopen(&fa, 1, path("tools.log"),
					 O_WRONLY | O_APPEND, 0);
	posix_spawn_file_actions_adddup2(&fa, 1, 2);
	if (!posix_spawn(&pid, argv[0], &fa, NULL, argv, environ) &&
	    waitpid(pid, &st, 0) != pid)
		st = -1;
	posix_spawn_file_actions_destroy(&fa);
	if (WIFEXITED(st) && WEXITSTATUS(st) == 0)
		return 0;
	fprintf(stderr, "%s %s failed; the tools said:\n", tool, argv[1]);
	show_log();
	return -1;
}

static int put(const char *name, const char *text)
{
	FILE *f = fopen(path(name), "we");

	if (!f)
		return -1;
	fputs(text, f);
	return fclose(f) ? -1 : 0;
}

/*
 * openssl's configuration: the extensions of each kind of certificate,
 * and `openssl ca` databases for ROOT (EXPIRED, the CRL) and STALE (its
 * CRL).
 */
static int write_cnf(void)
{
	FILE *f = fopen(path("openssl.cnf"), "we");

	if (!f)
		return -1;
	fprintf(f,
		"[ req ]\n"
		"distinguished_name = req_dn\n"
		"string_mask = utf8only\n"
		"[ req_dn ]\n"
		"[ ca_ext ]\n"
		"basicConstraints = critical, CA:true\n"
		"keyUsage = critical, keyCertSign, cRLSign\n"
		"subjectKeyIdentifier = hash\n"
		"authorityKeyIdentifier = keyid\n"
		"[ leaf_ext ]\n"
		"basicConstraints = CA:false\n"
		"keyUsage = critical, digitalSignature\n"
		"subjectAltName = DNS:east.ikebana.test\n"
		"subjectKeyIdentifier = hash\n"
		"authorityKeyIdentifier = keyid\n"
		"[ keyenc_ext ]\n"
		"basicConstraints = CA:false\n"
		"keyUsage = critical, keyEncipherment\n"
		"subjectAltName = DNS:east.ikebana.test\n"
		"[ serverauth_ext ]\n"
		"basicConstraints = CA:false\n"
		"keyUsage = critical, digitalSignature\n"
		"extendedKeyUsage = serverAuth\n"
		"subjectAltName = DNS:east.ikebana.test\n"
		"[ clientauth_ext ]\n"
		"basicConstraints = CA:false\n"
		"keyUsage = critical, digitalSignature\n"
		"extendedKeyUsage = clientAuth\n"
		"subjectAltName = DNS:east.ikebana.test\n"
		"[ codesign_ext ]\n"
		"basicConstraints = CA:false\n"
		"keyUsage = critical, digitalSignature\n"
		"extendedKeyUsage = codeSigning\n"
		"subjectAltName = DNS:east.ikebana.test\n"
		"[ ipsecike_ext ]\n"
		"basicConstraints = CA:false\n"
		"keyUsage = critical, digitalSignature\n"
		"extendedKeyUsage = 1.3.6.1.5.5.7.3.17\n"
		"subjectAltName = DNS:east.ikebana.test\n"
		"[ crl_ext ]\n"
		"authorityKeyIdentifier = keyid\n"
		"[ ca ]\n"
		"default_ca = root\n"
		"[ root ]\n"
		"database = %s/root.index\n"
		"serial = %s/root.serial\n"
		"crlnumber = %s/root.crlnumber\n"
		"new_certs_dir = %s\n"
		"certificate = %s/root.pem\n"
		"private_key = %s/root.key\n"
		"default_md = sha256\n"
		"default_crl_days = 3650\n"
		"policy = any\n"
		"unique_subject = no\n"
		"preserve = yes\n"
		"copy_extensions = none\n"
		"[ stale ]\n"
		"database = %s/stale.index\n"
		"crlnumber = %s/stale.crlnumber\n"
		"certificate = %s/stale.pem\n"
		"private_key = %s/stale.key\n"
		"default_md = sha256\n"
		"[ any ]\n"
		"countryName = optional\n"
		"organizationName = optional\n"
		"organizationalUnitName = optional\n"
		"commonName = supplied\n",
		pki.dir, pki.dir, pki.dir, pki.dir, pki.dir, pki.dir, pki.dir,
		pki.dir, pki.dir, pki.dir);
	return fclose(f) ? -1 : 0;
}

/* A P-256 key and a certificate of it, self-signed or by its issuer. */
static int make_cert(const struct spec *s)
{
	char serial[16];
	const struct spec *i = s->issuer >= 0 ? &specs[s->issuer] : NULL;

	snprintf(serial, sizeof(serial), "%u", s->serial);
	/* self-signed (no issuer): the arguments end before -CA */
	return run("OPENSSL", "req", "-x509", "-nodes", "-newkey", "ec",
		   "-pkeyopt", "ec_paramgen_curve:P-256", "-keyout",
		   file(s->name, "key"), "-out", file(s->name, "pem"), "-subj",
		   s->subj, "-set_serial", serial, "-days", "3650",
		   "-extensions", s->ext, i ? "-CA" : NULL,
		   i ? file(i->name, "pem") : NULL, "-CAkey",
		   i ? file(i->name, "key") : NULL, NULL);
}

/* EXPIRED: `openssl ca` takes -startdate/-enddate in the past. */
static int make_expired(void)
{
	const struct spec *s = &specs[EXPIRED];
	char serial[16];

	snprintf(serial, sizeof(serial), "%02X\n", s->serial);
	if (put("root.serial", serial) ||
	    run("OPENSSL", "req", "-new", "-nodes", "-newkey", "ec", "-pkeyopt",
		"ec_paramgen_curve:P-256", "-keyout", file(s->name, "key"),
		"-out", file(s->name, "csr"), "-subj", s->subj, NULL) ||
	    run("OPENSSL", "ca", "-batch", "-name", "root", "-notext", "-in",
		file(s->name, "csr"), "-out", file(s->name, "pem"),
		"-startdate", "200101000000Z", "-enddate", "210101000000Z",
		"-extensions", s->ext, NULL))
		return -1;
	return 0;
}

/*
 * ROOT's CRL revokes REVOKED and REVINTER: their lines in its `openssl
 * ca` database, written by hand (one process each less than ca -revoke).
 * STALE's CRL was current in 2020 only.
 */
static int make_crls(void)
{
	char index[512];

	snprintf(index, sizeof(index),
		 "R\t301231235959Z\t240101000000Z\t%02X\tunknown\t%s\n"
		 "R\t301231235959Z\t240101000000Z\t%02X\tunknown\t%s\n",
		 specs[REVOKED].serial, specs[REVOKED].subj,
		 specs[REVINTER].serial, specs[REVINTER].subj);
	if (put("root.index", index) || put("root.crlnumber", "01\n") ||
	    put("stale.index", "") || put("stale.crlnumber", "01\n"))
		return -1;
	/* ca appends EXPIRED (valid) to root.index: after the revocations */
	if (make_expired())
		return -1;
	if (run("OPENSSL", "ca", "-gencrl", "-name", "root", "-crlexts",
		"crl_ext", "-out", path("root.crl.pem"), NULL) ||
	    run("OPENSSL", "crl", "-in", path("root.crl.pem"), "-outform",
		"DER", "-out", path("root.crl"), NULL))
		return -1;
	if (run("OPENSSL", "ca", "-gencrl", "-name", "stale", "-crlexts",
		"crl_ext", "-crl_lastupdate", "20200101000000Z",
		"-crl_nextupdate", "20210101000000Z", "-out",
		path("stale.crl.pem"), NULL) ||
	    run("OPENSSL", "crl", "-in", path("stale.crl.pem"), "-outform",
		"DER", "-out", path("stale.crl"), NULL))
		return -1;
	return 0;
}

static int load_der(enum cert c)
{
	FILE *f;
	long len;
	uint8_t *b;

	if (run("OPENSSL", "x509", "-in", file(specs[c].name, "pem"),
		"-outform", "DER", "-out", file(specs[c].name, "der"), NULL))
		return -1;
	f = fopen(file(specs[c].name, "der"), "re");
	if (!f || fseek(f, 0, SEEK_END) || (len = ftell(f)) <= 0 ||
	    fseek(f, 0, SEEK_SET) || !(b = malloc((size_t)len)) ||
	    fread(b, 1, (size_t)len, f) != (size_t)len) {
		if (f)
			fclose(f);
		return -1;
	}
	fclose(f);
	pki.der[c] = (struct cred_der){ b, (size_t)len };
	return 0;
}

/* sql:DB with ROOT, UNTRUSTED, BARE, STALE; the CRLs of ROOT and STALE. */
static int make_db(void)
{
	char sql[PATH_MAX + 4];

	snprintf(pki.db, sizeof(pki.db), "%s/nss", pki.dir);
	snprintf(sql, sizeof(sql), "sql:%s", pki.db);
	if (mkdir(pki.db, 0700) ||
	    run("CERTUTIL", "-N", "-d", sql, "--empty-password", NULL) ||
	    run("CERTUTIL", "-A", "-d", sql, "-n", "ikebana test root", "-t",
		"CT,,", "-i", file("root", "der"), NULL) ||
	    run("CERTUTIL", "-A", "-d", sql, "-n", "ikebana test untrusted",
		"-t", ",,", "-i", file("untrusted", "der"), NULL) ||
	    run("CERTUTIL", "-A", "-d", sql, "-n", "ikebana test bare", "-t",
		"CT,,", "-i", file("bare", "der"), NULL) ||
	    run("CERTUTIL", "-A", "-d", sql, "-n", "ikebana test stale", "-t",
		",,", "-i", file("stale", "der"), NULL) ||
	    run("CRLUTIL", "-I", "-d", sql, "-i", path("root.crl"), NULL))
		return -1;
	/* crlutil may refuse an expired CRL: the sub-case is skipped then */
	pki.stale_crl =
		!run("CRLUTIL", "-I", "-d", sql, "-i", path("stale.crl"), NULL);
	return 0;
}

static int rm_one(const char *p, const struct stat *st, int flag,
		  struct FTW *ftw)
{
	remove(p);
	return 0;
}

/* Back to libreswan's defaults (crl-strict=no), as other tests expect. */
static int revocation_reset(void **state)
{
	struct revocation_opts rv;
	struct crypto_err err = { 0 };

	revocation_defaults(&rv);
	return revocation_set(&rv, &err) ? -1 : 0;
}

static int teardown(void **state)
{
	if (pki.nss) {
		revocation_reset(state);
		nss_teardown(state); /* closes the database too */
	}
	for (size_t i = 0; i < NCERTS; i++)
		free((void *)pki.der[i].ptr);
	if (pki.dir) {
		nftw(pki.dir, rm_one, 16, FTW_DEPTH | FTW_PHYS);
		free(pki.dir);
	}
	unsetenv("OPENSSL_CONF");
	memset(&pki, 0, sizeof(pki));
	return 0;
}

static int setup(void **state)
{
	const char *t = getenv("TMPDIR");
	struct crypto_err err = { 0 };

	if (asprintf(&pki.dir, "%s/ikb-cv-XXXXXX", t && *t ? t : "/tmp") < 0 ||
	    !mkdtemp(pki.dir)) {
		free(pki.dir);
		pki.dir = NULL;
		return -1;
	}
	setenv("OPENSSL_CONF", path("openssl.cnf"), 1);
	if (write_cnf())
		goto fail;
	for (size_t i = 0; i < NCERTS; i++)
		if (i != EXPIRED && make_cert(&specs[i]))
			goto fail;
	if (make_crls())
		goto fail;
	for (size_t i = 0; i < NCERTS; i++)
		if (load_der(i))
			goto fail;
	if (make_db() || nss_setup(state))
		goto fail;
	pki.nss = true;
	if (nssdb_open(pki.db, &err)) {
		fprintf(stderr, "nssdb_open %s: %s\n", pki.db, err.msg);
		goto fail;
	}
	return 0;
fail:
	teardown(state);
	return -1;
}

/* cert_verify() of the certificates chain[0..n-1], rightca= ca or NULL. */
static int verify(const enum cert *chain, size_t n, const char *ca,
		  struct peer_cert **pc, char *why)
{
	struct cred_der certs[CRED_CHAIN_MAX];
	struct cert_verify_opts o = { 0 };
	uint8_t dn[DN_MAX];
	struct crypto_err err = { 0 };
	int rc;

	for (size_t i = 0; i < n; i++)
		certs[i] = pki.der[chain[i]];
	if (ca) {
		assert_int_equal(
			dn_from_text(ca, dn, sizeof(dn), &o.ca_len, &err), 0);
		o.ca = dn;
	}
	*pc = NULL;
	why[0] = '\0';
	rc = cert_verify(certs, n, ca ? &o : NULL, pc, why, WHY_MAX);
	print_message("  %s: %d %s\n", specs[chain[0]].name, rc, why);
	return rc;
}

#define CHAIN(...)                          \
	(const enum cert[]){ __VA_ARGS__ }, \
		sizeof((enum cert[]){ __VA_ARGS__ }) / sizeof(enum cert)

/* The chain is accepted: the peer's certificate names subject, issuer. */
static void accepted(const enum cert *chain, size_t n, const char *ca,
		     const char *subject, const char *issuer)
{
	struct peer_cert *pc;
	char why[WHY_MAX];

	if (verify(chain, n, ca, &pc, why))
		fail_msg("%s refused: %s", specs[chain[0]].name, why);
	assert_non_null(pc);
	assert_string_equal(pc->subject, subject);
	assert_string_equal(pc->issuer, issuer);
	assert_int_equal(pc->der_len, pki.der[chain[0]].len);
	assert_memory_equal(pc->der, pki.der[chain[0]].ptr, pc->der_len);
	/* every key of the test PKI is P-256; not_after is 10 years off */
	assert_non_null(pc->pub);
	assert_int_equal(pc->key, SIG_KEY_EC);
	assert_int_equal(pc->bits, 256);
	assert_true(pc->not_after > time(NULL) + 3000L * 86400);
	peer_cert_put(pc);
}

/*
 * The chain is refused with rc, and why has each of the texts that
 * follow (NULL-terminated).
 */
static void refused(const enum cert *chain, size_t n, const char *ca, int rc,
		    ...)
{
	struct peer_cert *pc;
	char why[WHY_MAX];
	const char *want;
	va_list ap;

	assert_int_equal(verify(chain, n, ca, &pc, why), rc);
	assert_null(pc);
	assert_true(strlen(why) < 400); /* cred.h's promise */
	va_start(ap, rc);
	while ((want = va_arg(ap, const char *)))
		if (!strstr(why, want))
			fail_msg("no '%s' in: %s", want, why);
	va_end(ap);
}

#define ACCEPTED(ca, subject, issuer, ...) \
	accepted(CHAIN(__VA_ARGS__), ca, subject, issuer)
#define REFUSED(chain, ca, ...) refused(chain, ca, -EPERM, __VA_ARGS__, NULL)

/* The prefix of every refusal of a leaf of the test PKI. */
#define OF(ou, issuer) \
	"certificate \"" LEAF_DN(ou) "\" issued by \"" issuer "\": "

static void test_good_by_root(void **state)
{
	ACCEPTED(NULL, LEAF_DN("good"), ROOT_DN, GOOD);
}

/* The intermediate comes in the second CERT payload only. */
static void test_good_by_intermediate(void **state)
{
	ACCEPTED(NULL, LEAF_DN("inter"), INTER_DN, BY_INTER, INTER);
	/*
	 * Without it NSS has no path to the root. (UNSENT, not INTER: once
	 * a chain through INTER passed, libpkix's cache remembers it, and
	 * BY_INTER alone passes too.)
	 */
	REFUSED(CHAIN(BY_UNSENT), NULL,
		OF("unsent", UNSENT_DN) "its issuer \"" UNSENT_DN
					"\" is not a CA in the NSS database, "
					"and no CERT payload carried a chain "
					"to one",
		"(SEC_ERROR_UNKNOWN_ISSUER)");
	/* an intermediate in the database needs not be sent */
	ACCEPTED(NULL, LEAF_DN("stale"), STALE_DN, BY_STALE);
	ACCEPTED(NULL, LEAF_DN("bare"), BARE_DN, BY_BARE);
}

static void test_expired(void **state)
{
	REFUSED(CHAIN(EXPIRED), NULL,
		OF("expired", ROOT_DN) "it expired on 2021-01-01 00:00:00 UTC",
		"(SEC_ERROR_EXPIRED_CERTIFICATE)");
}

static void test_revoked(void **state)
{
	REFUSED(CHAIN(REVOKED), NULL,
		OF("revoked", ROOT_DN) "it is revoked: a CRL in the NSS "
				       "database lists it",
		"(SEC_ERROR_REVOKED_CERTIFICATE)");
}

/* The leaf is fine; its CA certificate is what the root's CRL lists. */
static void test_revoked_intermediate(void **state)
{
	REFUSED(CHAIN(BY_REVINTER, REVINTER), NULL,
		OF("revinter", REVINTER_DN) "its CA certificate \"" REVINTER_DN
					    "\": it is revoked: a CRL in the "
					    "NSS database lists it",
		"(SEC_ERROR_REVOKED_CERTIFICATE)");
}

static void test_lookalike(void **state)
{
	REFUSED(CHAIN(BY_LOOKALIKE), NULL,
		OF("lookalike", ROOT_DN) "a CA of that name is in the NSS "
					 "database but did not sign it",
		"(SEC_ERROR_UNKNOWN_ISSUER)");
	/* sent along, it is refused the same (NSS's error is another) */
	REFUSED(CHAIN(BY_LOOKALIKE, LOOKALIKE), NULL,
		"a CA of that name is in the NSS database but did not sign it",
		"(SEC_ERROR_BAD_SIGNATURE)");
}

static void test_unknown_issuer(void **state)
{
	REFUSED(CHAIN(BY_STRANGER), NULL,
		OF("stranger", STRANGER_DN) "its issuer \"" STRANGER_DN
					    "\" is not a CA in the NSS "
					    "database, and no CERT payload "
					    "carried a chain to one",
		"(SEC_ERROR_UNKNOWN_ISSUER)");
}

/* Trust ",,": a CA certificate NSS knows, not one it may anchor a path. */
static void test_untrusted_issuer(void **state)
{
	REFUSED(CHAIN(BY_UNTRUSTED), NULL,
		OF("untrusted", UNTRUSTED_DN) "its issuer is in the NSS "
					      "database but not trusted as a "
					      "CA (certutil trust without C)",
		"(SEC_ERROR_UNTRUSTED_ISSUER)");
}

static void test_key_usage(void **state)
{
	REFUSED(CHAIN(KEYENC), NULL,
		OF("keyenc", ROOT_DN) "its key usage does not allow digital "
				      "signatures",
		"(SEC_ERROR_INADEQUATE_KEY_USAGE)");
}

/*
 * RFC 4945 5.1.3.12 would refuse an extendedKeyUsage with neither
 * ipsecIKE nor anyExtendedKeyUsage; NSS's certificateUsageIPsec takes
 * serverAuth and clientAuth as well (as libreswan does, for CAs that
 * issue TLS certificates), and refuses other purposes.
 */
static void test_extended_key_usage(void **state)
{
	ACCEPTED(NULL, LEAF_DN("ipsecike"), ROOT_DN, IPSECIKE);
	ACCEPTED(NULL, LEAF_DN("serverauth"), ROOT_DN, SERVERAUTH);
	ACCEPTED(NULL, LEAF_DN("clientauth"), ROOT_DN, CLIENTAUTH);
	REFUSED(CHAIN(CODESIGN), NULL,
		OF("codesign", ROOT_DN) "its extended key usage allows neither "
					"IKE (RFC 4945) nor any purpose",
		"(SEC_ERROR_INADEQUATE_CERT_TYPE)");
}

/* rightca=: a CA of the chain NSS built, not just the end's issuer. */
static void test_rightca(void **state)
{
	ACCEPTED(INTER_DN, LEAF_DN("inter"), INTER_DN, BY_INTER, INTER);
	/* the trust anchor is a CA of the chain: rightca=%same of a host
	 * certificate by the root asks for it */
	ACCEPTED(ROOT_DN, LEAF_DN("inter"), INTER_DN, BY_INTER, INTER);
	ACCEPTED(ROOT_DN, LEAF_DN("good"), ROOT_DN, GOOD);
	ACCEPTED(O ", CN=*", LEAF_DN("good"), ROOT_DN, GOOD);
	REFUSED(CHAIN(BY_BARE), ROOT_DN,
		OF("bare", BARE_DN) "its chain does not contain the CA "
				    "rightca= asks for, \"" ROOT_DN "\"");
	REFUSED(CHAIN(GOOD), INTER_DN,
		OF("good", ROOT_DN) "its chain does not contain the CA "
				    "rightca= asks for, \"" INTER_DN "\"");
	/* the end certificate is not its own CA */
	REFUSED(CHAIN(BY_INTER, INTER), LEAF_DN("inter"),
		OF("inter",
		   INTER_DN) "its chain does not contain the CA "
			     "rightca= asks for, \"" LEAF_DN("inter") "\"");
}

/*
 * crl-strict=yes: a current CRL of each CA of the chain. (revocation_set
 * flushes the cache of verified chains; cert_verify() does not use it.)
 */
static void test_crl_strict(void **state)
{
	struct revocation_opts rv;
	struct crypto_err err = { 0 };

	revocation_defaults(&rv);
	rv.crl_strict = true;
	assert_int_equal(revocation_set(&rv, &err), 0);
	/* the root has its CRL */
	ACCEPTED(NULL, LEAF_DN("good"), ROOT_DN, GOOD);
	/* a trusted root without one: its leaves are refused */
	REFUSED(CHAIN(BY_BARE), NULL,
		OF("bare", BARE_DN) "the NSS database has no CRL of \"" BARE_DN
				    "\", and crl-strict=yes wants one");
	/* the intermediate has none */
	REFUSED(CHAIN(BY_INTER, INTER), NULL,
		OF("inter",
		   INTER_DN) "the NSS database has no CRL of \"" INTER_DN
			     "\", and crl-strict=yes wants one");
	if (pki.stale_crl)
		REFUSED(CHAIN(BY_STALE), NULL,
			OF("stale", STALE_DN) "the NSS database has only an "
					      "expired (or not yet valid) CRL "
					      "of \"" STALE_DN "\"");
	else
		print_message("  crlutil refused the expired CRL: skipped\n");
	/* without crl-strict=yes a CA needs no CRL */
	assert_int_equal(revocation_reset(state), 0);
	ACCEPTED(NULL, LEAF_DN("inter"), INTER_DN, BY_INTER, INTER);
	ACCEPTED(NULL, LEAF_DN("stale"), STALE_DN, BY_STALE);
	ACCEPTED(NULL, LEAF_DN("bare"), BARE_DN, BY_BARE);
}

static void test_not_der(void **state)
{
	/* DER, but a SEQUENCE of one INTEGER; and no DER at all */
	static const uint8_t seq[] = { 0x30, 0x03, 0x02, 0x01, 0x01 };
	static const uint8_t txt[] = "-----BEGIN CERTIFICATE-----";
	struct cred_der certs[2] = { { seq, sizeof(seq) }, pki.der[INTER] };
	struct peer_cert *pc = NULL;
	char why[WHY_MAX];

	assert_int_equal(cert_verify(certs, 2, NULL, &pc, why, sizeof(why)),
			 -EBADMSG);
	assert_null(pc);
	print_message("  seq: %s\n", why);
	assert_non_null(strstr(why, "CERT payload 1: not an X.509 certificate "
				    "NSS can decode (SEC_ERROR_"));
	certs[0] = (struct cred_der){ txt, sizeof(txt) - 1 };
	assert_int_equal(cert_verify(certs, 2, NULL, &pc, why, sizeof(why)),
			 -EBADMSG);
	print_message("  txt: %s\n", why);
	assert_non_null(strstr(why, "CERT payload 1: not an X.509 certificate "
				    "NSS can decode (SEC_ERROR_"));
	/* a bad intermediate is named by its place */
	certs[0] = pki.der[BY_INTER];
	certs[1] = (struct cred_der){ seq, sizeof(seq) };
	assert_int_equal(cert_verify(certs, 2, NULL, &pc, why, sizeof(why)),
			 -EBADMSG);
	assert_null(pc);
	assert_non_null(strstr(why, "CERT payload 2: not an X.509 certificate "
				    "NSS can decode"));
	assert_int_equal(cert_verify(certs, 0, NULL, &pc, why, sizeof(why)),
			 -EPERM);
	assert_string_equal(why, "the peer sent no certificate");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_good_by_root),
		cmocka_unit_test(test_good_by_intermediate),
		cmocka_unit_test(test_expired),
		cmocka_unit_test(test_revoked),
		cmocka_unit_test(test_revoked_intermediate),
		cmocka_unit_test(test_lookalike),
		cmocka_unit_test(test_unknown_issuer),
		cmocka_unit_test(test_untrusted_issuer),
		cmocka_unit_test(test_key_usage),
		cmocka_unit_test(test_extended_key_usage),
		cmocka_unit_test(test_rightca),
		/* even when it fails, crl-strict=yes ends with it */
		cmocka_unit_test_teardown(test_crl_strict, revocation_reset),
		cmocka_unit_test(test_not_der),
	};
	/* meson passes each tool's path, empty when it found none */
	static const char *const tools[][2] = { { "OPENSSL", "openssl" },
						{ "CERTUTIL", "certutil" },
						{ "CRLUTIL", "crlutil" } };

	for (size_t i = 0; i < 3; i++)
		if (!getenv(tools[i][0]) || !*getenv(tools[i][0])) {
			printf("SKIP: %s was not found at configure time "
			       "(%s is empty)\n",
			       tools[i][1], tools[i][0]);
			return 77;
		}
	return cmocka_run_group_tests_name("crypto-cert-verify", tests, setup,
					   teardown);
}
