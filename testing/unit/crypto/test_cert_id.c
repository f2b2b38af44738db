// SPDX-License-Identifier: GPL-2.0-or-later
/* IKE IDs against certificates made at test time by NSS (tcert.c). */
#include <arpa/inet.h>
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "crypto/cert_id.h"
#include "crypto/dn.h"
#include "tcert.h"
#include "tutil.h"

#define WEST_SUBJECT "C=CH, O=Test, CN=west, E=west@subject.example"
#define WEST_ISSUER "C=CH, O=Test, CN=Test CA"
#define WEST_SANS                                                  \
	"DNS:west.example, email:west@san.example, IP:192.0.2.1, " \
	"IP:2001:db8::1"
#define WEST_HAS                                                       \
	"(subject " WEST_SUBJECT "; subjectAltName DNS:west.example, " \
	"email:west@san.example, IP:192.0.2.1, IP:2001:db8::1)"

static struct tcert west;

static int setup(void **state)
{
	struct tbuf san;

	if (nss_setup(state))
		return -1;
	san = tsan(WEST_SANS);
	west = tcert_make(WEST_SUBJECT, WEST_ISSUER, &san);
	return 0;
}

static int check(const struct tcert *c, uint8_t type, const void *id, size_t n,
		 char *why, size_t cap)
{
	return cert_id_check(c->b, c->len, type, id, n, why, cap);
}

static int check_str(uint8_t type, const char *id, char *why)
{
	return check(&west, type, id, strlen(id), why, 512);
}

static int check_ip(int af, const char *text, char *why)
{
	uint8_t a[16];

	assert_int_equal(inet_pton(af, text, a), 1);
	return check(&west,
		     af == AF_INET ? IKEV2_ID_IPV4_ADDR : IKEV2_ID_IPV6_ADDR, a,
		     af == AF_INET ? 4 : 16, why, 512);
}

static int check_dn(const struct tcert *c, const char *text, char *why)
{
	uint8_t der[DN_MAX];
	size_t len = 0;
	struct crypto_err err = { 0 };

	assert_int_equal(dn_from_text(text, der, sizeof(der), &len, &err), 0);
	return check(c, IKEV2_ID_DER_ASN1_DN, der, len, why, 512);
}

static void test_ip(void **state)
{
	char why[512];
	uint8_t three[3] = { 192, 0, 2 };

	assert_int_equal(check_ip(AF_INET, "192.0.2.1", why), 0);
	assert_string_equal(why, "");
	assert_int_equal(check_ip(AF_INET, "192.0.2.2", why), -EPERM);
	assert_string_equal(why,
			    "ID 192.0.2.2 is not in the certificate " WEST_HAS);
	assert_int_equal(check_ip(AF_INET6, "2001:db8::1", why), 0);
	assert_int_equal(check_ip(AF_INET6, "2001:db8::2", why), -EPERM);
	assert_non_null(strstr(why, "ID 2001:db8::2 is not in"));
	/* an IPv4-mapped address is not the IPv4 SAN */
	assert_int_equal(check_ip(AF_INET6, "::ffff:192.0.2.1", why), -EPERM);
	assert_int_equal(check(&west, IKEV2_ID_IPV4_ADDR, three, 3, why, 512),
			 -EINVAL);
	assert_non_null(strstr(why, "has 3 bytes, not an address"));
	assert_int_equal(check(&west, IKEV2_ID_IPV6_ADDR, three, 3, why, 512),
			 -EINVAL);
}

static void test_fqdn(void **state)
{
	char why[512];

	assert_int_equal(check_str(IKEV2_ID_FQDN, "west.example", why), 0);
	assert_int_equal(check_str(IKEV2_ID_FQDN, "WEST.Example", why), 0);
	assert_int_equal(check_str(IKEV2_ID_FQDN, "east", why), -EPERM);
	assert_string_equal(why,
			    "ID @east is not in the certificate " WEST_HAS);
	/* neither a prefix nor the CN will do */
	assert_int_equal(check_str(IKEV2_ID_FQDN, "west.exampl", why), -EPERM);
	assert_int_equal(check_str(IKEV2_ID_FQDN, "west", why), -EPERM);
	/* the e-mail SAN is not a dNSName */
	assert_int_equal(check_str(IKEV2_ID_FQDN, "west@san.example", why),
			 -EPERM);
}

static void test_rfc822(void **state)
{
	char why[512];

	assert_int_equal(
		check_str(IKEV2_ID_RFC822_ADDR, "West@SAN.example", why), 0);
	/* libreswan also takes the subject's E= */
	assert_int_equal(
		check_str(IKEV2_ID_RFC822_ADDR, "west@subject.EXAMPLE", why),
		0);
	assert_int_equal(
		check_str(IKEV2_ID_RFC822_ADDR, "east@san.example", why),
		-EPERM);
	assert_string_equal(why, "ID east@san.example is not in the "
				 "certificate " WEST_HAS);
	assert_int_equal(check_str(IKEV2_ID_RFC822_ADDR, "west.example", why),
			 -EPERM);
}

static void test_dn(void **state)
{
	char why[512];

	assert_int_equal(check_dn(&west, WEST_SUBJECT, why), 0);
	assert_int_equal(check_dn(&west,
				  "c=ch, o=test, cn=WEST, "
				  "E=West@subject.example",
				  why),
			 0);
	/* a peer's ID is a name: its "*" is no wildcard */
	assert_int_equal(check_dn(&west, "C=CH, O=*, CN=west, E=*", why),
			 -EPERM);
	assert_int_equal(check_dn(&west, "C=CH, O=Test, CN=east, E=*", why),
			 -EPERM);
	assert_string_equal(why, "ID C=CH, O=Test, CN=east, E=* is not in the "
				 "certificate " WEST_HAS);
	/* the issuer's name, one RDN short, reversed */
	assert_int_equal(check_dn(&west, WEST_ISSUER, why), -EPERM);
	assert_int_equal(check_dn(&west, "C=CH, O=Test, CN=west", why), -EPERM);
	assert_int_equal(check_dn(&west,
				  "E=west@subject.example, CN=west, "
				  "O=Test, C=CH",
				  why),
			 -EPERM);
	/* a DN ID that is not DER */
	assert_int_equal(check(&west, IKEV2_ID_DER_ASN1_DN, "\x30\x05", 2, why,
			       sizeof(why)),
			 -EPERM);
	assert_non_null(strstr(why, "ID (bad DN) is not in"));
}

static void test_key_id(void **state)
{
	char why[512];

	assert_int_equal(
		check(&west, IKEV2_ID_KEY_ID, "\x01\xab", 2, why, sizeof(why)),
		-EPERM);
	assert_string_equal(why, "ID @#01ab is an ID_KEY_ID, which is not "
				 "matched against certificates");
	assert_int_equal(check(&west, 42, "x", 1, why, sizeof(why)), -EPERM);
	assert_non_null(strstr(why, "ID (ID type 42, 1 bytes) is not in"));
}

static void test_no_san(void **state)
{
	struct tcert c = tcert_make("CN=bare", "CN=bare", NULL);
	char why[512];

	assert_int_equal(check(&c, IKEV2_ID_FQDN, "bare", 4, why, sizeof(why)),
			 -EPERM);
	assert_string_equal(why, "ID @bare is not in the certificate (subject "
				 "CN=bare; no subjectAltName)");
	assert_int_equal(check_dn(&c, "CN=bare", why), 0);
}

/* Peer bytes reach the log escaped; URIs are shown, never matched. */
static void test_why_escapes(void **state)
{
	struct tbuf san = tsan("DNS:a\x01\\b, URI:https://west");
	struct tcert c = tcert_make("CN=x\\01y", "CN=ca", &san);
	char why[512];

	assert_int_equal(check(&c, IKEV2_ID_FQDN, "e\nst", 4, why, sizeof(why)),
			 -EPERM);
	assert_string_equal(why, "ID @e\\0Ast is not in the certificate "
				 "(subject CN=x\\01y; subjectAltName "
				 "DNS:a\\01\\5Cb, URI:https://west)");
	assert_int_equal(
		check(&c, IKEV2_ID_FQDN, "https://west", 12, why, sizeof(why)),
		-EPERM);
}

static void test_why_small(void **state)
{
	char why[16];

	memset(why, 'x', sizeof(why));
	assert_int_equal(
		check(&west, IKEV2_ID_FQDN, "east", 4, why, sizeof(why)),
		-EPERM);
	assert_string_equal(why, "ID @east is not");
	assert_int_equal(check(&west, IKEV2_ID_FQDN, "east", 4, NULL, 0),
			 -EPERM);
	assert_int_equal(
		check(&west, IKEV2_ID_FQDN, "west.example", 12, NULL, 0), 0);
}

static void test_subject_text(void **state)
{
	char subject[256], issuer[256], small[8];

	assert_int_equal(cert_subject_text(west.b, west.len, subject,
					   sizeof(subject), issuer,
					   sizeof(issuer)),
			 0);
	assert_string_equal(subject, WEST_SUBJECT);
	assert_string_equal(issuer, WEST_ISSUER);
	assert_int_equal(cert_subject_text(west.b, west.len, NULL, 0, issuer,
					   sizeof(issuer)),
			 0);
	assert_int_equal(cert_subject_text(west.b, west.len, small,
					   sizeof(small), NULL, 0),
			 -ENOSPC);
	assert_string_equal(small, "C=CH, O");
	assert_int_equal(cert_subject_text(west.b, 10, subject, sizeof(subject),
					   issuer, sizeof(issuer)),
			 -EBADMSG);
	assert_string_equal(subject, "");
}

static void test_bad_san(void **state)
{
	/* a SEQUENCE whose dNSName runs past its end */
	struct tbuf san = hex("3004 8205 6162");
	struct tcert c = tcert_make("CN=x", "CN=x", &san);
	char why[512];

	assert_int_equal(check(&c, IKEV2_ID_FQDN, "ab", 2, why, sizeof(why)),
			 -EBADMSG);
	assert_non_null(strstr(why, "subjectAltName cannot be decoded"));
}

/* Peer bytes: prefixes, noise and bit flips never crash the check. */
static void test_bad_cert(void **state)
{
	static uint8_t buf[sizeof(west.b)];
	char why[512];
	unsigned seed = 11;

	for (size_t n = 0; n < west.len; n += 1 + n / 16)
		assert_int_equal(cert_id_check(west.b, n, IKEV2_ID_FQDN,
					       (const uint8_t *)"west.example",
					       12, why, sizeof(why)),
				 -EBADMSG);
	assert_string_equal(why, "the certificate cannot be decoded");
	for (int i = 0; i < 3000; i++) {
		size_t n = west.len;
		int rc;

		memcpy(buf, west.b, west.len);
		if (i % 3)
			buf[rand_r(&seed) % n] ^=
				(uint8_t)(1 << rand_r(&seed) % 8);
		else
			for (size_t k = 4; k < n; k++)
				buf[k] = (uint8_t)rand_r(&seed);
		rc = cert_id_check(buf, n, (uint8_t)(1 + i % 11),
				   (const uint8_t *)"\x30\x00west.example", 14,
				   why, sizeof(why));
		assert_true(rc == 0 || rc == -EPERM || rc == -EBADMSG ||
			    rc == -EINVAL);
		assert_true(strlen(why) < sizeof(why));
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ip),
		cmocka_unit_test(test_fqdn),
		cmocka_unit_test(test_rfc822),
		cmocka_unit_test(test_dn),
		cmocka_unit_test(test_key_id),
		cmocka_unit_test(test_no_san),
		cmocka_unit_test(test_why_escapes),
		cmocka_unit_test(test_why_small),
		cmocka_unit_test(test_subject_text),
		cmocka_unit_test(test_bad_san),
		cmocka_unit_test(test_bad_cert),
	};

	return cmocka_run_group_tests_name("crypto-cert-id", tests, setup,
					   nss_teardown);
}
