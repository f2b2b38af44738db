// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * `ikebana import`, `ikebana listcerts` and the certificate checks of
 * `ikebana checkconfig` on a database made in a temp dir. The certificates and keys are made at test time by openssl (none
 * is committed); without openssl (OPENSSL unset) only the checks that
 * need no certificate run, and "certs-openssl" exits 77: skipped.
 */
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <json-c/json.h>

#include "harness.h"

struct t {
	char *dir; /* inputs and outputs */
	char db[300]; /* the database directory */
};

static char *path(const struct t *t, const char *name)
{
	static char buf[8][400];
	static unsigned n;
	char *p = buf[n++ % 8];

	snprintf(p, sizeof(buf[0]), "%s/%s", t->dir, name);
	return p;
}

/* Runs argv (NULL-terminated after the first); the exit code. */
static int run(const struct t *t, char **out, char **err, const char *prog, ...)
{
	char *argv[24] = { (char *)prog };
	size_t n = 1;
	va_list ap;

	va_start(ap, prog);
	while (n < 23 && (argv[n] = va_arg(ap, char *)))
		n++;
	va_end(ap);
	argv[n] = NULL;
	return h_run(t->dir, out, err, argv);
}

/* ikebana ARGS...; out and err are kept until the next call. */
static char *out, *err;

#define IKEBANA(t, ...)                          \
	(free(out), free(err), out = err = NULL, \
	 run(t, &out, &err, h_env("IKEBANA"), __VA_ARGS__, NULL))

static void openssl(const struct t *t, ...)
{
	char *argv[24] = { (char *)getenv("OPENSSL") }, *o, *e;
	size_t n = 1;
	va_list ap;
	int rc;

	va_start(ap, t);
	while (n < 23 && (argv[n] = va_arg(ap, char *)))
		n++;
	va_end(ap);
	argv[n] = NULL;
	rc = h_run(t->dir, &o, &e, argv);
	if (rc != 0)
		fail_msg("openssl %s failed (%d): %s", argv[1], rc, e);
	free(o);
	free(e);
}

static void cat(const struct t *t, const char *to, const char *a, const char *b,
		const char *c)
{
	FILE *f = fopen(path(t, to), "w");
	const char *parts[] = { a, b, c };

	assert_non_null(f);
	for (size_t i = 0; i < 3; i++) {
		char *s;

		if (!parts[i])
			continue;
		s = h_slurp(path(t, parts[i]));
		assert_true(s[0] != '\0');
		fputs(s, f);
		free(s);
	}
	assert_int_equal(fclose(f), 0);
}

static int setup(void **state)
{
	struct t *t = calloc(1, sizeof(*t));

	t->dir = h_tmpdir();
	snprintf(t->db, sizeof(t->db), "%s/nss", t->dir);
	*state = t;
	return 0;
}

static int teardown(void **state)
{
	struct t *t = *state;

	h_rmrf(t->dir);
	free(t->dir);
	free(t);
	free(out);
	free(err);
	out = err = NULL;
	return 0;
}

static void want_err(const char *needle)
{
	if (!strstr(err, needle))
		fail_msg("no '%s' in stderr: %s", needle, err);
}

/* Without a database, and without a certificate: no openssl needed. */
static void test_no_database(void **state)
{
	struct t *t = *state;

	assert_int_equal(IKEBANA(t, "listcerts", "--nssdir", t->db), 1);
	want_err(t->db);
	want_err("ikebana import creates one");
	assert_int_equal(IKEBANA(t, "listcerts", "--nssdir", t->dir), 1);
	want_err("no cert9.db");
	/* Usage errors exit 2. */
	assert_int_equal(IKEBANA(t, "listcerts", "extra"), 2);
	assert_int_equal(IKEBANA(t, "import"), 2);
}

static void test_no_certificate(void **state)
{
	struct t *t = *state;
	char *f = h_write(t->dir, "notes.txt", 0644, "hello\n");
	char *k = h_write(t->dir, "key.pem", 0600,
			  "-----BEGIN PRIVATE KEY-----\nAAAA\n"
			  "-----END PRIVATE KEY-----\n");

	assert_int_equal(IKEBANA(t, "import", "--nssdir", t->db, f), 1);
	want_err(f);
	want_err("no certificate");
	assert_int_equal(IKEBANA(t, "import", "--nssdir", t->db, k), 1);
	want_err(k);
	want_err("no certificate in the file");
	/* The database was created (and says so), and is empty. */
	assert_int_equal(IKEBANA(t, "listcerts", "--nssdir", t->db, "--json"),
			 0);
	assert_string_equal(out, "[\n]\n");
	free(f);
	free(k);
}

/* "FILE:LINE: error: TEXT" (or warning, note) in stderr. */
static void want_diag(const char *file, unsigned line, const char *sev,
		      const char *text)
{
	char want[1024];

	snprintf(want, sizeof(want), "%s:%u: %s: %s", file, line, sev, text);
	want_err(want);
}

/* checkconfig: a PSK-only file opens no database; a leftcert= needs one. */
static void test_checkconfig_no_database(void **state)
{
	struct t *t = *state;
	char *psk = h_write(t->dir, "psk.conf", 0644,
			    "conn a\n\tleft=192.0.2.1\n\tright=192.0.2.2\n"
			    "\tauthby=secret\n");
	char *cert = h_write(t->dir, "cert.conf", 0644,
			     "conn a\n\tleft=192.0.2.1\n\tright=192.0.2.2\n"
			     "\tleftcert=west\n");

	if (IKEBANA(t, "checkconfig", "--nssdir", t->db, psk))
		fail_msg("a PSK conn needs no database: %s", err);
	assert_int_equal(IKEBANA(t, "checkconfig", "--nssdir", t->db, cert), 1);
	want_diag(cert, 4, "error", "conn a: leftcert=west: ");
	want_err("no NSS database in");
	want_err(t->db);
	free(psk);
	free(cert);
}

/* The certificate of listcerts --json with that nickname; fails if none. */
static struct json_object *find(struct json_object *a, const char *nick)
{
	for (size_t i = 0; i < json_object_array_length(a); i++) {
		struct json_object *c = json_object_array_get_idx(a, i), *v;

		if (json_object_object_get_ex(c, "nickname", &v) &&
		    !strcmp(json_object_get_string(v), nick))
			return c;
	}
	fail_msg("no certificate '%s' in %s", nick,
		 json_object_to_json_string(a));
	return NULL;
}

static void want_field(struct json_object *c, const char *key, const char *val)
{
	struct json_object *v;
	const char *got;

	if (!json_object_object_get_ex(c, key, &v))
		fail_msg("no field %s in %s", key,
			 json_object_to_json_string(c));
	got = v ? json_object_get_string(v) : "null";
	if (strcmp(got, val))
		fail_msg("%s is '%s', not '%s', in %s", key, got, val,
			 json_object_to_json_string(c));
}

/* h_write without keeping the path. */
static void put(const char *dir, const char *name, const char *text)
{
	free(h_write(dir, name, 0600, text));
}

static void make_inputs(const struct t *t)
{
	openssl(t, "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout",
		path(t, "ca.key"), "-out", path(t, "ca.pem"), "-days", "30",
		"-subj", "/O=Test/CN=Test CA", NULL);
	openssl(t, "req", "-newkey", "rsa:2048", "-nodes", "-keyout",
		path(t, "west.key"), "-out", path(t, "west.csr"), "-subj",
		"/O=Test/CN=west", NULL);
	openssl(t, "x509", "-req", "-in", path(t, "west.csr"), "-CA",
		path(t, "ca.pem"), "-CAkey", path(t, "ca.key"),
		"-CAcreateserial", "-out", path(t, "west.pem"), "-days", "30",
		NULL);
	/* A traditional "EC PRIVATE KEY", self-signed. */
	openssl(t, "ecparam", "-name", "prime256v1", "-genkey", "-noout",
		"-out", path(t, "east.key"), NULL);
	openssl(t, "req", "-new", "-x509", "-key", path(t, "east.key"), "-out",
		path(t, "east.pem"), "-days", "10", "-subj", "/CN=east", NULL);
	openssl(t, "pkcs12", "-export", "-in", path(t, "west.pem"), "-inkey",
		path(t, "west.key"), "-name", "road", "-passout", "pass:s3cret",
		"-out", path(t, "road.p12"), NULL);
	put(t->dir, "p12pw", "s3cret\n");
	put(t->dir, "wrongpw", "secret\n");
	cat(t, "west-bundle.pem", "west.pem", "west.key", "ca.pem");
	cat(t, "mismatch.pem", "west.pem", "ca.key", NULL);
	cat(t, "east-both.pem", "east.pem", "east.key", NULL);
}

static void test_import_list(void **state)
{
	struct t *t = *state;
	char db2[320];
	struct json_object *a, *c;

	if (!getenv("OPENSSL") || !*getenv("OPENSSL"))
		skip();
	make_inputs(t);

	if (IKEBANA(t, "import", "--nssdir", t->db, "--ca", path(t, "ca.pem")))
		fail_msg("--ca refused: %s", err);
	assert_non_null(strstr(out, "created an empty NSS database"));
	assert_non_null(strstr(out, "trust CT,,"));
	if (IKEBANA(t, "import", "--nssdir", t->db, path(t, "west-bundle.pem")))
		fail_msg("PEM refused: %s", err);
	if (IKEBANA(t, "import", "--nssdir", t->db, "--nickname", "eastcert",
		    path(t, "east-both.pem")))
		fail_msg("EC PEM refused: %s", err);

	/* The refusals. */
	assert_int_equal(IKEBANA(t, "import", "--nssdir", t->db, "--nickname",
				 "other", path(t, "mismatch.pem")),
			 1);
	want_err("does not match the certificate");
	assert_int_equal(IKEBANA(t, "import", "--nssdir", t->db, "--nickname",
				 "west", path(t, "east-both.pem")),
			 1);
	want_err("'west' is already used by a different certificate");
	assert_int_equal(IKEBANA(t, "import", "--nssdir", t->db,
				 "--password-file", path(t, "wrongpw"),
				 path(t, "road.p12")),
			 1);
	want_err("wrong PKCS#12 password");
	assert_null(strstr(err, "s3cret"));

	assert_int_equal(IKEBANA(t, "listcerts", "--nssdir", t->db, "--json"),
			 0);
	a = json_tokener_parse(out);
	if (!a || !json_object_is_type(a, json_type_array))
		fail_msg("not a JSON array: %s", out);
	/* The failed imports left nothing: three certificates. */
	assert_int_equal(json_object_array_length(a), 3);
	c = find(a, "Test CA");
	want_field(c, "subject", "CN=Test CA,O=Test");
	want_field(c, "trust", "CT,,");
	want_field(c, "private_key", "false");
	want_field(c, "ca", "true");
	c = find(a, "west");
	want_field(c, "subject", "CN=west,O=Test");
	want_field(c, "issuer", "CN=Test CA,O=Test");
	want_field(c, "key_type", "RSA");
	want_field(c, "key_bits", "2048");
	want_field(c, "curve", "null");
	want_field(c, "private_key", "true");
	want_field(c, "trust", "u,u,u");
	want_field(c, "validity", "valid");
	want_field(c, "ca", "false");
	c = find(a, "eastcert");
	want_field(c, "key_type", "EC");
	want_field(c, "curve", "P-256");
	want_field(c, "private_key", "true");
	json_object_put(a);

	/* The text: one block per certificate. */
	assert_int_equal(IKEBANA(t, "listcerts", "--nssdir", t->db), 0);
	assert_non_null(strstr(out, "west\n  subject     CN=west,O=Test\n"));
	assert_non_null(strstr(out, "  key         EC P-256, private key in "
				    "this database\n"));

	/* PKCS#12, into a new database, with its password. */
	snprintf(db2, sizeof(db2), "%s/nss2", t->dir);
	if (IKEBANA(t, "import", "--nssdir", db2, "--password-file",
		    path(t, "p12pw"), path(t, "road.p12")))
		fail_msg("PKCS#12 refused: %s", err);
	assert_int_equal(IKEBANA(t, "listcerts", "--nssdir", db2, "--json"), 0);
	a = json_tokener_parse(out);
	assert_non_null(a);
	c = find(a, "road");
	want_field(c, "subject", "CN=west,O=Test");
	want_field(c, "private_key", "true");
	want_field(c, "trust", "u,u,u");
	json_object_put(a);
}

/* A certificate valid in 2000 only, signed by the test CA. */
static void make_expired(const struct t *t)
{
	char cnf[1024];

	/* openssl ca runs elsewhere than t->dir: absolute paths */
	snprintf(cnf, sizeof(cnf),
		 "[ca]\ndefault_ca = c\n[c]\ndatabase = %s/index.txt\n"
		 "new_certs_dir = %s\nserial = %s/serial\n"
		 "default_md = sha256\npolicy = p\n[p]\n"
		 "commonName = supplied\n",
		 t->dir, t->dir, t->dir);
	put(t->dir, "ca.cnf", cnf);
	put(t->dir, "index.txt", "");
	put(t->dir, "serial", "01\n");
	openssl(t, "req", "-newkey", "rsa:2048", "-nodes", "-keyout",
		path(t, "old.key"), "-out", path(t, "old.csr"), "-subj",
		"/CN=old", NULL);
	openssl(t, "ca", "-config", path(t, "ca.cnf"), "-batch", "-notext",
		"-cert", path(t, "ca.pem"), "-keyfile", path(t, "ca.key"),
		"-in", path(t, "old.csr"), "-out", path(t, "old.pem"),
		"-startdate", "20000101000000Z", "-enddate", "20010101000000Z",
		NULL);
	cat(t, "old-both.pem", "old.pem", "old.key", NULL);
}

/* Lines 1-3 of every file below. */
#define CONN_HEAD "\tleft=192.0.2.1\n\tright=192.0.2.2\n"

/*
 * checkconfig against a database with west (RSA, key), eastcert (EC,
 * key), old (expired, key) and a second one with certificates only.
 */
static void test_checkconfig_certs(void **state)
{
	struct t *t = *state;
	char db2[320], setup[400], *f;

	if (!getenv("OPENSSL") || !*getenv("OPENSSL"))
		skip();
	make_inputs(t);
	make_expired(t);
	if (IKEBANA(t, "import", "--nssdir", t->db, "--ca",
		    path(t, "ca.pem")) ||
	    IKEBANA(t, "import", "--nssdir", t->db,
		    path(t, "west-bundle.pem")) ||
	    IKEBANA(t, "import", "--nssdir", t->db, "--nickname", "eastcert",
		    path(t, "east-both.pem")) ||
	    IKEBANA(t, "import", "--nssdir", t->db, path(t, "old-both.pem")))
		fail_msg("import refused: %s", err);
	snprintf(db2, sizeof(db2), "%s/nss2", t->dir);
	if (IKEBANA(t, "import", "--nssdir", db2, path(t, "west.pem")) ||
	    IKEBANA(t, "import", "--nssdir", db2, path(t, "east.pem")))
		fail_msg("import refused: %s", err);

	/* Good: %fromcert, then the subject DN written out; nssdir= used. */
	snprintf(setup, sizeof(setup), "config setup\n\tnssdir=%s\n", t->db);
	f = h_write(t->dir, "good.conf", 0644,
		    "conn a\n" CONN_HEAD "\tleftcert=west\n"
		    "\tleftid=%fromcert\n\trightid=@east\n"
		    "\tauthby=rsasig\n"
		    "conn b\n" CONN_HEAD "\tleftcert=west\n"
		    "\tleftid=\"O=Test, CN=west\"\n\trightcert=eastcert\n"
		    "\trightauth=ecdsa\n");
	if (IKEBANA(t, "checkconfig", "--nssdir", t->db, f))
		fail_msg("good file refused: %s", err);
	want_diag(f, 4, "note", "conn a: leftcert=west: its private key is in");
	want_diag(f, 11, "note", "conn b: leftcert=west: its private key");
	want_diag(f, 13, "note", "conn b: rightcert=eastcert: its private key");
	assert_null(strstr(err, "error"));
	assert_null(strstr(err, "warning"));
	assert_non_null(strstr(out, "conn a"));
	free(f);
	{
		char text[600];

		snprintf(text, sizeof(text),
			 "%sconn a\n" CONN_HEAD "\tleftcert=west\n", setup);
		f = h_write(t->dir, "setup.conf", 0644, text);
	}
	if (IKEBANA(t, "checkconfig", f))
		fail_msg("nssdir= not used: %s", err);
	/* --nssdir wins over nssdir=, as in ikebanad */
	assert_int_equal(IKEBANA(t, "checkconfig", "--nssdir", db2, f), 1);
	want_diag(f, 6, "error",
		  "conn a: leftcert=west does not have its "
		  "private key in");
	free(f);

	/* A missing nickname, at its line; the other end is still checked. */
	f = h_write(t->dir, "missing.conf", 0644,
		    "conn a\n" CONN_HEAD "\tleftcert=nosuch\n"
		    "\trightcert=eastcert\n\trightauth=rsasig\n");
	assert_int_equal(IKEBANA(t, "checkconfig", "--nssdir", t->db, f), 1);
	want_diag(f, 4, "error",
		  "conn a: leftcert=nosuch: no certificate with nickname "
		  "\"nosuch\" in the NSS database");
	/* ... and its key is EC, which rightauth=rsasig refuses */
	want_diag(f, 6, "error",
		  "conn a: rightauth=rsasig: rightcert=eastcert holds an EC "
		  "256 key, which the conn's authentication (authby= or "
		  "rightauth=) does not allow");
	free(f);

	/* No private key: neither end's, then the only one's. */
	f = h_write(t->dir, "nokey.conf", 0644,
		    "conn a\n" CONN_HEAD "\tleftcert=west\n"
		    "\trightcert=east\n"
		    "conn b\n" CONN_HEAD "\trightcert=east\n"
		    "conn c\n" CONN_HEAD "\tleftauth=secret\n"
		    "\trightauth=ecdsa\n\trightcert=east\n");
	assert_int_equal(IKEBANA(t, "checkconfig", "--nssdir", db2, f), 1);
	{
		char text[600];

		snprintf(text, sizeof(text),
			 "conn a: neither leftcert=west nor rightcert=east has "
			 "its private key in %s: this host could not "
			 "authenticate",
			 db2);
		want_diag(f, 4, "error", text);
		snprintf(text, sizeof(text),
			 "conn b: rightcert=east does not have its private key "
			 "in %s, and leftcert= is not set: this host could not "
			 "authenticate",
			 db2);
		want_diag(f, 9, "error", text);
	}
	/* conn c: this host may be left, with its PSK */
	assert_null(strstr(err, "conn c"));
	free(f);

	/* leftid= not in leftcert=: the ID and what the certificate has. */
	f = h_write(t->dir, "id.conf", 0644,
		    "conn a\n" CONN_HEAD "\tleftcert=west\n"
		    "\tleftid=@west\n");
	assert_int_equal(IKEBANA(t, "checkconfig", "--nssdir", t->db, f), 1);
	want_diag(f, 5, "error",
		  "conn a: leftid=@west: not in leftcert=west: ID @west is not "
		  "in the certificate (subject O=Test, CN=west");
	free(f);

	/* An EC key where leftauth= asks for RSA. */
	f = h_write(t->dir, "keytype.conf", 0644,
		    "conn a\n" CONN_HEAD "\tleftcert=eastcert\n"
		    "\tleftauth=rsasig\n");
	assert_int_equal(IKEBANA(t, "checkconfig", "--nssdir", t->db, f), 1);
	want_diag(f, 5, "error",
		  "conn a: leftauth=rsasig: leftcert=eastcert holds an EC");
	free(f);

	/* ocsp-trustname=: the responder's signer must be in the database */
	f = h_write(t->dir, "ocsp.conf", 0644,
		    "config setup\n\tocsp-enable=yes\n"
		    "\tocsp-uri=http://192.0.2.9/\n\tocsp-trustname=nosuch\n");
	assert_int_equal(IKEBANA(t, "checkconfig", "--nssdir", t->db, f), 1);
	want_diag(f, 4, "error",
		  "config setup: ocsp-trustname=nosuch: no certificate with "
		  "nickname \"nosuch\" in the NSS database");
	free(f);
	f = h_write(t->dir, "ocsp-good.conf", 0644,
		    "config setup\n\tocsp-enable=yes\n"
		    "\tocsp-uri=http://192.0.2.9/\n\tocsp-trustname=west\n");
	if (IKEBANA(t, "checkconfig", "--nssdir", t->db, f))
		fail_msg("ocsp-trustname=west refused: %s", err);
	free(f);

	/* Expired: a warning with the dates, and no failure. */
	f = h_write(t->dir, "old.conf", 0644,
		    "conn a\n" CONN_HEAD "\tleftcert=old\n");
	if (IKEBANA(t, "checkconfig", "--nssdir", t->db, f))
		fail_msg("an expired certificate is a warning: %s", err);
	want_diag(f, 4, "warning",
		  "conn a: leftcert=old: the certificate is expired: valid "
		  "from 2000-01-01T00:00:00Z to 2001-01-01T00:00:00Z");
	free(f);
}

/* A database with a password: read from DIR/nsspassword. */
static void test_password_db(void **state)
{
	struct t *t = *state;
	struct json_object *a;

	if (!getenv("OPENSSL") || !*getenv("OPENSSL"))
		skip();
	make_inputs(t);
	if (IKEBANA(t, "import", "--nssdir", t->db, path(t, "east-both.pem")))
		fail_msg("PEM refused: %s", err);
	/* Give the new database a password, as certutil -W would. */
	put(t->db, "nsspassword", "NSS Certificate DB:\n");
	put(t->dir, "newpw", "dbpass\n");
	if (!getenv("CERTUTIL") || !*getenv("CERTUTIL"))
		return;
	{
		char sqldb[320], *o, *e;
		char *argv[] = { getenv("CERTUTIL"),
				 "-W",
				 "-d",
				 sqldb,
				 "-f",
				 path(t, "nsspassword-empty"),
				 "-@",
				 path(t, "newpw"),
				 NULL };

		snprintf(sqldb, sizeof(sqldb), "sql:%s", t->db);
		put(t->dir, "nsspassword-empty", "\n");
		if (h_run(t->dir, &o, &e, argv))
			fail_msg("certutil -W: %s", e);
		free(o);
		free(e);
	}
	/* Without the right password the keys are not shown... */
	assert_int_equal(IKEBANA(t, "listcerts", "--nssdir", t->db, "--json"),
			 0);
	want_err("private keys not shown");
	a = json_tokener_parse(out);
	want_field(find(a, "east"), "private_key", "null");
	json_object_put(a);
	assert_int_equal(IKEBANA(t, "import", "--nssdir", t->db,
				 path(t, "west-bundle.pem")),
			 1);
	want_err("is wrong");
	/* ...with it, in libreswan's format with CRLF, they are. */
	put(t->db, "nsspassword", "# ikebana\r\nNSS Certificate DB:dbpass\r\n");
	if (IKEBANA(t, "import", "--nssdir", t->db, path(t, "west-bundle.pem")))
		fail_msg("import with nsspassword refused: %s", err);
	assert_int_equal(IKEBANA(t, "listcerts", "--nssdir", t->db, "--json"),
			 0);
	a = json_tokener_parse(out);
	want_field(find(a, "east"), "private_key", "true");
	want_field(find(a, "west"), "private_key", "true");
	json_object_put(a);
}

int main(int argc, char **argv)
{
	const struct CMUnitTest plain[] = {
		cmocka_unit_test_setup_teardown(test_no_database, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_no_certificate, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_checkconfig_no_database,
						setup, teardown),
	};
	const struct CMUnitTest tool[] = {
		cmocka_unit_test_setup_teardown(test_import_list, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_password_db, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_checkconfig_certs, setup,
						teardown),
	};

	if (argc > 1 && !strcmp(argv[1], "openssl")) {
		if (!getenv("OPENSSL") || !*getenv("OPENSSL")) {
			printf("SKIP: openssl was not found at configure "
			       "time\n");
			return 77;
		}
		return cmocka_run_group_tests_name("certs-openssl", tool, NULL,
						   NULL);
	}
	return cmocka_run_group_tests_name("certs", plain, NULL, NULL);
}
