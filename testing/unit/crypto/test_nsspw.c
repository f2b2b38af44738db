// SPDX-License-Identifier: GPL-2.0-or-later
/* The nsspassword parser: libreswan's TOKEN:PASSWORD lines. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "crypto/nssdb_pw.h"

#define DB "NSS Certificate DB"
#define FIPS "NSS FIPS 140-2 Certificate DB"

static char path[64];

static const char *file_with(const char *text)
{
	FILE *f;
	int fd;

	strcpy(path, "/tmp/ikb-nsspw-XXXXXX");
	fd = mkstemp(path);
	assert_true(fd >= 0);
	f = fdopen(fd, "w");
	assert_non_null(f);
	fputs(text, f);
	assert_int_equal(fclose(f), 0);
	return path;
}

static int lookup(const char *text, const char *token, char *out, size_t cap,
		  struct crypto_err *err)
{
	int rc = nss_password_lookup(file_with(text), token, out, cap, err);

	unlink(path);
	return rc;
}

static void test_found(void **state)
{
	struct crypto_err err = { 0 };
	char pw[64];

	assert_int_equal(lookup(DB ":secret\n", DB, pw, sizeof(pw), &err), 0);
	assert_string_equal(pw, "secret");
	/* No final newline; a ':' and spaces in the password are kept. */
	assert_int_equal(lookup(DB ": a:b \n", DB, pw, sizeof(pw), &err), 0);
	assert_string_equal(pw, " a:b ");
	assert_int_equal(lookup(DB ":last", DB, pw, sizeof(pw), &err), 0);
	assert_string_equal(pw, "last");
	/* An empty password is a password. */
	assert_int_equal(lookup(DB ":\n", DB, pw, sizeof(pw), &err), 0);
	assert_string_equal(pw, "");
}

static void test_token_choice(void **state)
{
	static const char two[] = FIPS ":fips\n" DB ":plain\n" DB ":second\n";
	struct crypto_err err = { 0 };
	char pw[64];

	assert_int_equal(lookup(two, DB, pw, sizeof(pw), &err), 0);
	assert_string_equal(pw, "plain");
	assert_int_equal(lookup(two, FIPS, pw, sizeof(pw), &err), 0);
	assert_string_equal(pw, "fips");
	/* A token name that is a prefix of another is not that other. */
	assert_int_equal(lookup(two, "NSS", pw, sizeof(pw), &err), -ENOENT);
	assert_string_equal(pw, "");
	assert_non_null(strstr(err.msg, "no line for token 'NSS'"));
}

static void test_crlf_comments(void **state)
{
	static const char dos[] = "# written on Windows\r\n"
				  "\r\n"
				  "\n"
				  "#" DB ":commented\r\n" DB ":dos\r\n";
	struct crypto_err err = { 0 };
	char pw[64];

	assert_int_equal(lookup(dos, DB, pw, sizeof(pw), &err), 0);
	assert_string_equal(pw, "dos");
}

static void test_malformed(void **state)
{
	struct crypto_err err = { 0 };
	char pw[64], want[96];

	/* Line 3 has no ':': an error even though line 2 matched. */
	assert_int_equal(
		lookup("# c\n" DB ":x\nsecret\n", DB, pw, sizeof(pw), &err),
		-EINVAL);
	assert_int_equal(err.code, -EINVAL);
	snprintf(want, sizeof(want), "%s:3:", path);
	if (!strstr(err.msg, want))
		fail_msg("no '%s' in '%s'", want, err.msg);
	/* The error does not show the line's content. */
	assert_null(strstr(err.msg, "secret"));
	assert_string_equal(pw, "");
}

static void test_too_long(void **state)
{
	struct crypto_err err = { 0 };
	char pw[4];

	assert_int_equal(lookup(DB ":abcd\n", DB, pw, sizeof(pw), &err),
			 -ENAMETOOLONG);
	assert_string_equal(pw, "");
	assert_null(strstr(err.msg, "abcd"));
	assert_int_equal(lookup(DB ":abc\n", DB, pw, sizeof(pw), &err), 0);
	assert_string_equal(pw, "abc");
}

static void test_missing(void **state)
{
	struct crypto_err err = { 0 };
	char pw[8] = "junk";

	assert_int_equal(nss_password_lookup("/nonexistent/nsspassword", DB, pw,
					     sizeof(pw), &err),
			 -ENOENT);
	assert_string_equal(pw, "");
	assert_non_null(strstr(err.msg, "/nonexistent/nsspassword"));
	/* A directory is not a password file. */
	assert_true(nss_password_lookup("/", DB, pw, sizeof(pw), &err) < 0);
	assert_int_not_equal(err.code, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_found),
		cmocka_unit_test(test_token_choice),
		cmocka_unit_test(test_crlf_comments),
		cmocka_unit_test(test_malformed),
		cmocka_unit_test(test_too_long),
		cmocka_unit_test(test_missing),
	};

	return cmocka_run_group_tests_name("crypto-nsspw", tests, NULL, NULL);
}
