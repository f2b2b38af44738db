// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * ikebana import: a PKCS#12 file, a PEM certificate with its private key
 * (and the CA certificates after it), or with --ca a CA certificate, into
 * an NSS database, without a daemon. Nothing here prints key material.
 */
#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cert.h>
#include <prerror.h>
#include <secport.h>

#include "cli/import.h"

#define MAX_FILE (1 << 20)

int refuse(const struct imp *im, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: %s: ", im->c->prog, im->o->file);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return CLI_FAIL;
}

const char *nss_error(void)
{
	const char *name = PORT_ErrorToName(PORT_GetError());

	return name ? name : "unknown NSS error";
}

void wipe_free(void *p, size_t n)
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
