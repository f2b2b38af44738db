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
#include <pk11pub.h>

#include "crypto/cred.h"
#include "crypto/dn.h"
#include "crypto/nssdb.h"
#include "crypto/revocation.h"
#include "cvpki.h"
#include "tutil.h"

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

/*
 * SECURITY.md: the daemon opens its database read-only (nssdb_open's
 * flags=readOnly), so that nothing a peer sends is ever written to it:
 * the token says so, and importing a certificate into it is refused,
 * with cert9.db left as it was.
 */
static void test_db_read_only(void **state)
{
	PK11SlotInfo *s = nssdb_slot();
	SECItem der = { siBuffer, (unsigned char *)pki.der[GOOD].ptr,
			(unsigned)pki.der[GOOD].len };
	char path[PATH_MAX];
	struct stat before, after;

	assert_non_null(s);
	snprintf(path, sizeof(path), "%s/cert9.db", nssdb_dir());
	assert_int_equal(stat(path, &before), 0);
	assert_true(PK11_IsReadOnly(s));
	assert_int_not_equal(PK11_ImportDERCert(s, &der, CK_INVALID_HANDLE,
						"ikb-written", PR_FALSE),
			     SECSuccess);
	assert_int_equal(stat(path, &after), 0);
	assert_int_equal(after.st_size, before.st_size);
	assert_int_equal(after.st_mtim.tv_sec, before.st_mtim.tv_sec);
	assert_int_equal(after.st_mtim.tv_nsec, before.st_mtim.tv_nsec);
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
		cmocka_unit_test(test_db_read_only),
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
	return cmocka_run_group_tests_name("crypto-cert-verify", tests,
					   cvpki_setup, cvpki_teardown);
}
