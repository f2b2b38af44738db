// SPDX-License-Identifier: GPL-2.0-or-later
/* Distinguished names: libreswan's text form, DER, wildcard matching. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include <cert.h>
#include <secasn1.h>

#include "crypto/dn.h"
#include "tutil.h"

/*
 * `openssl req -subj /C=CH/O=Example/CN=west` writes this subject (taken
 * from the certificate it made): C is the first RDN on the wire, and O and
 * CN are UTF8Strings (0c).
 */
#define OPENSSL_WEST                                \
	"302e 310b 3009 0603550406 1302 4348"       \
	" 3110 300e 060355040a 0c07 4578616d706c65" \
	" 310d 300b 0603550403 0c04 77657374"
/* The same name as dn_from_text writes it: PrintableStrings (13). */
#define OURS_WEST                                   \
	"302e 310b 3009 0603550406 1302 4348"       \
	" 3110 300e 060355040a 1307 4578616d706c65" \
	" 310d 300b 0603550403 1304 77657374"

static struct tbuf der_of(const char *text)
{
	struct tbuf t = { .len = 0 };
	struct crypto_err err = { 0 };

	if (dn_from_text(text, t.b, sizeof(t.b), &t.len, &err))
		fail_msg("%s", err.msg);
	return t;
}

static void check_text(const struct tbuf *der, const char *want)
{
	char out[DN_MAX];

	assert_int_equal(dn_to_text(der->b, der->len, out, sizeof(out)), 0);
	assert_string_equal(out, want);
}

/* text → DER → text gives the canonical spelling */
static void round_trip(const char *text, const char *canonical)
{
	struct tbuf d = der_of(text), again;

	check_text(&d, canonical);
	again = der_of(canonical);
	assert_int_equal(again.len, d.len);
	assert_memory_equal(again.b, d.b, d.len);
}

static void expect_error(const char *text, int code, const char *part)
{
	uint8_t der[DN_MAX];
	size_t len = 0;
	struct crypto_err err = { 0 };

	assert_int_equal(dn_from_text(text, der, sizeof(der), &len, &err),
			 code);
	if (!strstr(err.msg, part))
		fail_msg("\"%s\": message \"%s\" lacks \"%s\"", text, err.msg,
			 part);
	assert_non_null(strstr(err.msg, "DN \""));
}

static bool match(const char *want, const char *got, unsigned *wc)
{
	struct tbuf w = der_of(want), g = der_of(got);

	return dn_match(w.b, w.len, g.b, g.len, wc);
}

/* Written order is wire order, as libreswan and openssl -subj have it. */
static void test_order(void **state)
{
	struct tbuf want = hex(OURS_WEST), ossl = hex(OPENSSL_WEST);
	struct tbuf d = der_of("C=CH, O=Example, CN=west");
	unsigned wc = 99;

	assert_int_equal(d.len, want.len);
	assert_memory_equal(d.b, want.b, want.len);
	check_text(&ossl, "C=CH, O=Example, CN=west");
	assert_true(dn_match(d.b, d.len, ossl.b, ossl.len, &wc));
	assert_int_equal(wc, 0);
	/* the form without spaces is the same, in its own order */
	d = der_of("CN=west,O=Test,C=CH");
	assert_int_equal(d.b[10], 0x03); /* first RDN's OID 2.5.4.3: CN */
	check_text(&d, "CN=west, O=Test, C=CH");
}

/*
 * Why dn.c does not use CERT_AsciiToName: NSS reads the text as RFC 4514
 * and reverses it, so the same string puts CN first on the wire.
 */
static void test_nss_reverses(void **state)
{
	CERTName *name = CERT_AsciiToName("C=CH, O=Example, CN=west");
	SECItem out = { siBuffer, NULL, 0 };
	struct tbuf ours = der_of("CN=west, O=Example, C=CH");

	assert_non_null(name);
	assert_non_null(SEC_ASN1EncodeItem(name->arena, &out, name,
					   SEC_ASN1_GET(CERT_NameTemplate)));
	assert_int_equal(out.len, ours.len);
	assert_memory_equal(out.data, ours.b, ours.len);
	CERT_DestroyName(name);
}

static void test_round_trips(void **state)
{
	round_trip("C=CH, ST=Zug, L=Baar, O=Example, OU=IPsec, CN=west, "
		   "E=west@example.org",
		   "C=CH, ST=Zug, L=Baar, O=Example, OU=IPsec, CN=west, "
		   "E=west@example.org");
	round_trip("dc=org,dc=example , uid=jdoe,cn=J Doe",
		   "DC=org, DC=example, UID=jdoe, CN=J Doe");
	round_trip("SN=1234, GN=Jo, surname=Doe, title=Dr",
		   "SN=1234, G=Jo, S=Doe, T=Dr");
	round_trip("emailAddress=a@b, Email=c@d", "E=a@b, E=c@d");
	round_trip("serialNumber=77", "SN=77");
	/* an OID we have no name for stays dotted, its value a string */
	round_trip("2.5.4.45=abc, OID.1.3.6.1.4.1.99999.1=x",
		   "2.5.4.45=abc, 1.3.6.1.4.1.99999.1=x");
	/* a dotted OID we know gets its name */
	round_trip("2.5.4.3=west", "CN=west");
	/* a non-string value as #DER, here INTEGER 5 */
	round_trip("2.5.4.45=#020105", "2.5.4.45=#020105");
}

static void test_quoting(void **state)
{
	struct tbuf q = der_of("CN=\"a, b\", O=x");

	check_text(&q, "CN=a\\, b, O=x");
	round_trip("CN=a\\, b, O=x", "CN=a\\, b, O=x");
	/* libreswan's doubled comma */
	round_trip("CN=a,, b, O=x", "CN=a\\, b, O=x");
	round_trip("CN=\\41bc", "CN=Abc");
	round_trip("CN=\"say \\\"hi\\\"\"", "CN=say \\\"hi\\\"");
	round_trip("CN=back\\\\slash", "CN=back\\\\slash");
	/* unquoted spaces around values go, quoted or escaped ones stay */
	round_trip("  CN = west  ,  O = x  ", "CN=west, O=x");
	round_trip("CN=\" west \"", "CN=\\ west\\ ");
	round_trip("CN=\\ west\\ ", "CN=\\ west\\ ");
	round_trip("CN=\\#1", "CN=\\#1");
	/* '+' and ';' are plain characters, as in libreswan */
	round_trip("CN=a+b;c", "CN=a+b;c");
	/* the value is only "*": a wildcard pattern */
	round_trip("C=CH, O=*, CN=west", "C=CH, O=*, CN=west");
}

static void test_escaped_output(void **state)
{
	/* CN as UTF8String "a\x01b", then "Zürich" */
	struct tbuf ctl = hex("300e 310c 300a 0603550403 0c03 610162");
	struct tbuf utf = hex("3012 3110 300e 0603550403 0c07 5ac3bc72696368");
	struct tbuf back;

	check_text(&ctl, "CN=a\\01b");
	check_text(&utf, "CN=Z\\C3\\BCrich");
	/* non-ASCII text becomes a UTF8String, so it reads back the same */
	back = der_of("CN=Z\\C3\\BCrich");
	assert_int_equal(back.len, utf.len);
	assert_memory_equal(back.b, utf.b, utf.len);
	/* a PrintableString holds no '@': E is IA5, CN falls to UTF-8 */
	back = der_of("CN=a@b");
	assert_int_equal(back.b[back.len - 5], 0x0c);
	back = der_of("E=a@b");
	assert_int_equal(back.b[back.len - 5], 0x16);
}

static void test_errors(void **state)
{
	uint8_t der[8];
	size_t len = 0;
	struct crypto_err err = { 0 };

	expect_error("C=CH, XX=1", -EINVAL, "unknown attribute XX");
	expect_error("C=CH, XX=1", -EINVAL, "C=CH, XX=1");
	expect_error("CN", -EINVAL, "expected attribute=value");
	expect_error("CN=west, O", -EINVAL,
		     "expected attribute=value at \"O\"");
	expect_error("=west", -EINVAL, "missing attribute name");
	expect_error("CN=", -EINVAL, "empty value for CN");
	expect_error("CN=a,", -EINVAL, "empty attribute");
	expect_error("", -EINVAL, "empty attribute");
	expect_error("CN=\"abc", -EINVAL, "unterminated quote");
	expect_error("CN=\"abc\" d", -EINVAL, "text after a quoted value");
	expect_error("CN=a\\", -EINVAL, "'\\' at the end");
	expect_error("CN=a\\00b", -EINVAL, "NUL in the value of CN");
	expect_error("E=\\C3\\BC@x", -EINVAL, "non-ASCII value for E");
	expect_error("1.x=a", -EINVAL, "bad OID 1.x");
	expect_error("CN=#123", -EINVAL, "bad #hex value");
	expect_error("CN=#zz00", -EINVAL, "bad #hex value");
	expect_error("CN=#0c0561", -EINVAL, "#hex is not one DER value");
	assert_int_equal(dn_from_text("C=CH, O=Example, CN=west", der,
				      sizeof(der), &len, &err),
			 -ENOSPC);
}

static void test_to_text_space(void **state)
{
	struct tbuf d = hex(OURS_WEST);
	char out[8];

	assert_int_equal(dn_to_text(d.b, d.len, out, sizeof(out)), -ENOSPC);
	assert_string_equal(out, "C=CH, O");
	assert_int_equal(dn_to_text(d.b, d.len, out, 0), -ENOSPC);
}

/* Peer bytes: every prefix, trailing junk, bit flips, random noise. */
static void test_bad_der(void **state)
{
	struct tbuf d = der_of("C=CH, O=Example, OU=*, CN=west, E=w@x");
	uint8_t buf[512];
	char out[DN_MAX];
	unsigned seed = 7;

	for (size_t n = 0; n < d.len; n++) {
		assert_int_equal(dn_to_text(d.b, n, out, sizeof(out)),
				 -EBADMSG);
		assert_false(dn_match(d.b, n, d.b, d.len, NULL));
		assert_false(dn_match(d.b, d.len, d.b, n, NULL));
	}
	memcpy(buf, d.b, d.len);
	buf[d.len] = 0;
	assert_int_equal(dn_to_text(buf, d.len + 1, out, sizeof(out)),
			 -EBADMSG);
	assert_int_equal(dn_to_text(NULL, 0, out, sizeof(out)), -EBADMSG);
	/* a bad OID (truncated arc) and an empty RDN */
	d = hex("300b 3109 3007 060255 8413 0161");
	assert_int_equal(dn_to_text(d.b, d.len, out, sizeof(out)), -EBADMSG);
	d = hex("3002 3100");
	assert_int_equal(dn_to_text(d.b, d.len, out, sizeof(out)), -EBADMSG);

	d = der_of("C=CH, O=Example, OU=*, CN=west, E=w@x");
	for (int i = 0; i < 20000; i++) {
		size_t n = d.len;
		int rc;

		memcpy(buf, d.b, d.len);
		if (i & 1) {
			buf[rand_r(&seed) % n] ^=
				(uint8_t)(1 << rand_r(&seed) % 8);
		} else {
			n = (size_t)rand_r(&seed) % sizeof(buf);
			for (size_t k = 0; k < n; k++)
				buf[k] = (uint8_t)rand_r(&seed);
			if (n)
				buf[0] = 0x30;
		}
		rc = dn_to_text(buf, n, out, sizeof(out));
		assert_true(rc == 0 || rc == -EBADMSG);
		assert_true(strlen(out) < sizeof(out));
		dn_match(buf, n, d.b, d.len, NULL);
		dn_match(d.b, d.len, buf, n, NULL);
	}
}

static void test_match(void **state)
{
	unsigned wc = 99;

	/* case and the spaces around a value do not matter */
	assert_true(match("c=ch, o=EXAMPLE, cn=West",
			  "C=CH, O=Example, CN=west", &wc));
	assert_int_equal(wc, 0);
	assert_true(match("CN=\" west \"", "CN=west", NULL));
	/* wildcards, counted */
	assert_true(
		match("C=CH, O=*, CN=west", "C=CH, O=Example, CN=west", &wc));
	assert_int_equal(wc, 1);
	assert_true(match("C=*, O=*, CN=*", "C=CH, O=Example, CN=west", &wc));
	assert_int_equal(wc, 3);
	/* a '*' that is part of a value is not a wildcard */
	assert_false(match("CN=w*", "CN=west", &wc));
	assert_int_equal(wc, 0);
	/* and a '*' in the peer's name wildcards nothing */
	assert_false(match("CN=west", "CN=*", NULL));
}

static void test_no_match(void **state)
{
	const char *got = "C=CH, O=Example, CN=west";
	unsigned wc = 99;

	assert_false(match("C=CH, O=Example, CN=east", got, &wc));
	assert_int_equal(wc, 0);
	/* same RDNs in another order */
	assert_false(match("CN=west, O=Example, C=CH", got, NULL));
	/* fewer or more RDNs, wildcards or not */
	assert_false(match("C=CH, O=Example", got, NULL));
	assert_false(match("C=CH, O=*", got, &wc));
	assert_int_equal(wc, 0);
	assert_false(match("C=CH, O=Example, CN=west, OU=x", got, NULL));
	assert_false(match("C=CH, O=Example, CN=west, OU=*", got, NULL));
	/* another attribute type with the same value */
	assert_false(match("C=CH, OU=Example, CN=west", got, NULL));
	/* a value that is longer, not just different in case */
	assert_false(match("C=CH, O=Example, CN=wes", got, NULL));
	/* a string never equals a non-string */
	assert_false(match("CN=#020105", "CN=05", NULL));
	assert_true(match("2.5.4.45=#020105", "2.5.4.45=#020105", NULL));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_order),
		cmocka_unit_test(test_nss_reverses),
		cmocka_unit_test(test_round_trips),
		cmocka_unit_test(test_quoting),
		cmocka_unit_test(test_escaped_output),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_to_text_space),
		cmocka_unit_test(test_bad_der),
		cmocka_unit_test(test_match),
		cmocka_unit_test(test_no_match),
	};

	return cmocka_run_group_tests_name("crypto-dn", tests, nss_setup,
					   nss_teardown);
}
