// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The test PKI and database of test_cert_verify.c (cvpki.h): openssl makes
 * the keys, certificates and CRLs, certutil and crlutil the database.
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
#include "cvpki.h"
#include "tutil.h"

extern char **environ;

#define CA(cn) "/C=CH/O=ikebana test/CN=ikebana test " cn
#define LEAF(ou) "/C=CH/O=ikebana test/OU=" ou "/CN=east"

const struct spec specs[NCERTS] = {
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

struct pki pki;

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
int revocation_reset(void **state)
{
	struct revocation_opts rv;
	struct crypto_err err = { 0 };

	revocation_defaults(&rv);
	return revocation_set(&rv, &err) ? -1 : 0;
}

int cvpki_teardown(void **state)
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

int cvpki_setup(void **state)
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
	cvpki_teardown(state);
	return -1;
}
