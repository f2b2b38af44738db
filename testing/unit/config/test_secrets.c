// SPDX-License-Identifier: GPL-2.0-or-later
/* ikebana.secrets: entry forms, includes, permissions, best match. */
#include <limits.h>
#include <sys/stat.h>
#include <unistd.h>

#include "helpers.h"
#include "config/secrets.h"

static char dir[PATH_MAX];

static const char *write_file(const char *name, const char *text, mode_t mode)
{
	static char path[PATH_MAX + 64];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
	assert_int_equal(chmod(path, mode), 0);
	return path;
}

/* `want` names the temp dir as @/ */
static struct secrets *load_expect(const char *name, const char *text,
				   const char *want)
{
	const char *path = write_file(name, text, 0600);
	struct secrets *s = NULL;
	struct ikb_diag d;
	char *got, *w = NULL;
	size_t n = 0;
	FILE *f = open_memstream(&w, &n);

	for (const char *p = want; *p; p++) {
		if (p[0] == '@' && p[1] == '/')
			fputs(dir, f);
		else
			fputc(*p, f);
	}
	fclose(f);
	diag_init(&d);
	secrets_load(path, &s, &d);
	got = diag_text(&d);
	assert_string_equal(got, w);
	free(got);
	free(w);
	diag_free(&d);
	return s;
}

static void assert_key(const struct secret_entry *e, const char *want)
{
	assert_non_null(e);
	assert_int_equal(e->keylen, strlen(want));
	assert_memory_equal(e->key, want, e->keylen);
}

static void test_forms(void **state)
{
	struct secrets *s =
		load_expect("a.secrets",
			    "# comment\n"
			    "@west @east : PSK \"west east # not a comment\"\n"
			    "192.0.2.1 192.0.2.2 : PSK 0x73_65_63_72_65_74\n"
			    "192.0.2.1 192.0.2.3 : PSK 0sc2VjcmV0\n"
			    "\n"
			    ": PSK \"default\"   # any peer\n"
			    "@[keyid] %any6 : psk \"x\"\n"
			    "@road\n"
			    "    : PSK \"continued\"\n",
			    "");

	assert_int_equal(s->n, 6);
	assert_key(&s->s[0], "west east # not a comment");
	assert_int_equal(s->s[0].nsel, 2);
	assert_string_equal(s->s[0].selectors[1], "@east");
	assert_int_equal(s->s[0].line, 2);
	assert_key(&s->s[1], "secret");
	assert_key(&s->s[2], "secret");
	assert_key(&s->s[3], "default");
	assert_int_equal(s->s[3].nsel, 0);
	assert_key(&s->s[4], "x");
	assert_string_equal(s->s[4].selectors[1], "%any6");
	assert_key(&s->s[5], "continued");
	assert_int_equal(s->s[5].line, 8);
	secrets_free(s);
}

static void test_errors(void **state)
{
	secrets_free(load_expect(
		"e.secrets",
		"@a @b : PSK \"open\n"
		"@c : PSK \"ok\"\n",
		"@/e.secrets:1: error: unterminated quote or { block\n"));
	secrets_free(load_expect(
		"e2.secrets",
		"@a : PSK\n"
		"@a : PSK bare\n"
		"@a : PSK 0xabc\n"
		"@a : PSK 0s!!!\n"
		"@a : PSK \"\"\n"
		"@a : PSK \"x\" \"y\"\n"
		"@a @b\n"
		"@a : FOO \"x\"\n",
		"@/e2.secrets:1: error: PSK: expected exactly one secret after PSK (quote a secret that contains blanks)\n"
		"@/e2.secrets:2: error: PSK: expected \"quoted text\", 0x hex or 0s base64\n"
		"@/e2.secrets:3: error: PSK 0x...: expected an even number of hex digits\n"
		"@/e2.secrets:4: error: PSK 0s...: expected base64\n"
		"@/e2.secrets:5: error: empty PSK\n"
		"@/e2.secrets:6: error: PSK: expected exactly one secret after PSK (quote a secret that contains blanks)\n"
		"@/e2.secrets:7: error: expected SELECTORS : PSK \"secret\"\n"
		"@/e2.secrets:8: error: unknown secret type \"FOO\": expected PSK\n"));
	secrets_free(load_expect(
		"e3.secrets", "  stray\n@a : PSK \"x\"\n",
		"@/e3.secrets:1: error: indented line outside an entry (an entry starts at column 0)\n"));
}

static void test_other_types(void **state)
{
	struct secrets *s = load_expect(
		"r.secrets",
		": RSA {\n"
		"\t# RSA 2192 bits\n"
		"\tModulus: 0x...\n"
		"\t}\n"
		"@x : XAUTH \"pw\"\n"
		"@y : PPK CKAID \"abc\"\n"
		"@z : ECDSA \"ckaid\"\n"
		"@w : PSK \"kept\"\n",
		"@/r.secrets:1: warning: RSA entry ignored: RSA/ECDSA/XAUTH/PPK entries are not used by ikebana\n"
		"@/r.secrets:5: warning: XAUTH entry ignored: RSA/ECDSA/XAUTH/PPK entries are not used by ikebana\n"
		"@/r.secrets:6: warning: PPK entry ignored: RSA/ECDSA/XAUTH/PPK entries are not used by ikebana\n"
		"@/r.secrets:7: warning: ECDSA entry ignored: RSA/ECDSA/XAUTH/PPK entries are not used by ikebana\n");

	assert_int_equal(s->n, 1);
	assert_int_equal(s->s[0].line, 8);
	secrets_free(s);
}

/*
 * What is not a regular file, named by an include: refused at the include
 * line, never read (a FIFO with no writer would block, /dev/zero would
 * never end) and never a hang.
 */
static void test_include_not_a_file(void **state)
{
	char fifo[PATH_MAX + 8];

	snprintf(fifo, sizeof(fifo), "%s/fifo", dir);
	unlink(fifo);
	assert_int_equal(mkfifo(fifo, 0600), 0);
	struct secrets *s = load_expect(
		"nf.secrets",
		"@a : PSK \"a\"\n"
		"include /dev/zero\n"
		"include fifo\n"
		"include /\n"
		"@b : PSK \"b\"\n",
		"@/nf.secrets:2: error: include /dev/zero: is a character device, not a regular file\n"
		"@/nf.secrets:3: error: include @/fifo: is a FIFO, not a regular file\n"
		"@/nf.secrets:4: error: include /: is a directory, not a regular file\n");

	/* nothing else is lost */
	assert_int_equal(s->n, 2);
	secrets_free(s);
	unlink(fifo);
}

static void test_include_and_perms(void **state)
{
	char sub[PATH_MAX + 8];

	snprintf(sub, sizeof(sub), "%s/s.d", dir);
	mkdir(sub, 0700);
	write_file("s.d/1.secrets", "@one : PSK \"1\"\n", 0600);
	write_file("s.d/2.secrets", "@two : PSK \"2\"\n", 0640);
	struct secrets *s = load_expect(
		"main.secrets",
		"include s.d/*.secrets\n"
		"include s.d/none*.secrets\n"
		"include nothere.secrets\n",
		"@/main.secrets:1: error: include @/s.d/2.secrets: mode 0640 is group- or world-accessible; run chmod 600 @/s.d/2.secrets\n"
		"@/main.secrets:3: error: include nothere.secrets: @/nothere.secrets: No such file or directory\n");

	assert_int_equal(s->n, 1);
	assert_string_equal(s->s[0].selectors[0], "@one");
	assert_string_equal(
		s->s[0].file,
		write_file("s.d/1.secrets", "@one : PSK \"1\"\n", 0600));
	secrets_free(s);

	/* the top-level file: refused at 0644, loaded after chmod 600 */
	const char *path = write_file("perm.secrets", ": PSK \"x\"\n", 0644);
	struct ikb_diag d;
	char buf[PATH_MAX * 2 + 200], want[sizeof(buf)];

	diag_init(&d);
	assert_int_equal(secrets_load(path, &s, &d), -1);
	snprintf(
		want, sizeof(want),
		"%s: error: mode 0644 is group- or world-accessible; run chmod 600 %s",
		path, path);
	assert_string_equal(diag_format(&d, 0, buf, sizeof(buf)), want);
	assert_int_equal(s->n, 0);
	secrets_free(s);
	diag_free(&d);
	/* under libreswan's paths: loaded, with a warning naming it */
	diag_init(&d);
	assert_int_equal(secrets_load_ex(path, SECRETS_MODE_WARN, &s, &d), 0);
	assert_int_equal(s->n, 1);
	assert_int_equal(d.errors, 0);
	assert_non_null(strstr(diag_format(&d, 0, buf, sizeof(buf)),
			       "warning: "));
	assert_non_null(strstr(buf, "mode 0644 is group- or world-accessible; "
				    "loaded all the same"));
	assert_non_null(strstr(buf, path));
	secrets_free(s);
	diag_free(&d);
	assert_int_equal(chmod(path, 0600), 0);
	diag_init(&d);
	assert_int_equal(secrets_load(path, &s, &d), 0);
	assert_int_equal(s->n, 1);
	secrets_free(s);
	diag_free(&d);

	/* 0600 but another user's (root makes one: testing/check runs as
	 * root): refused, naming the owner */
	if (geteuid() == 0) {
		assert_int_equal(chown(path, 65534, 0), 0);
		diag_init(&d);
		assert_int_equal(secrets_load(path, &s, &d), -1);
		assert_non_null(strstr(diag_format(&d, 0, buf, sizeof(buf)),
				       "owned by uid 65534, neither root"));
		secrets_free(s);
		diag_free(&d);
		assert_int_equal(chown(path, 0, 0), 0);
	}

	write_file("loop.secrets", "include loop.secrets\n", 0600);
	secrets_free(load_expect(
		"loop.secrets", "include loop.secrets\n",
		"@/loop.secrets:1: error: include cycle: @/loop.secrets → @/loop.secrets\n"));
	/* a file matched twice is read once: one entry, and a warning */
	write_file("once.secrets", "@a @b : PSK \"once\"\n", 0600);
	s = load_expect(
		"twice.secrets", "include once.secrets\ninclude on*.secrets\n",
		"@/twice.secrets:2: warning: include @/once.secrets: already read, as included at @/twice.secrets:1; not read again\n");
	assert_int_equal(s->n, 1);
	secrets_free(s);
	diag_init(&d);
	snprintf(buf, sizeof(buf), "%s/absent.secrets", dir);
	assert_int_equal(secrets_load(buf, &s, &d), -1);
	secrets_free(s);
	diag_free(&d);
}

/*
 * How a selector compares with an ID, kind by kind (secrets_match.c
 * parses each once): addresses by value, names without case or trailing
 * dot, @[...] and @#... and anything else as written; 0.0.0.0 and :: are
 * wildcards as selectors, and a name is never an address.
 */
static void test_match_kinds(void **state)
{
	struct secrets *s = load_expect("k.secrets",
					": PSK \"default\"\n"
					"2001:db8::1 @v6 : PSK \"v6\"\n"
					"@#0a0b @hex : PSK \"hex\"\n"
					"@[Key] @raw : PSK \"raw\"\n"
					"@192.0.2.9 @named : PSK \"named\"\n"
					"plain @text : PSK \"text\"\n",
					"");

	assert_key(secrets_find_psk(s, "2001:DB8:0::1", "@v6"), "v6");
	assert_key(secrets_find_psk(s, "@#0a0b", "@HEX"), "hex");
	assert_key(secrets_find_psk(s, "@#0A0B", "@hex"), "default");
	assert_key(secrets_find_psk(s, "@[Key]", "@raw"), "raw");
	assert_key(secrets_find_psk(s, "@[key]", "@raw"), "default");
	assert_key(secrets_find_psk(s, "@192.0.2.9", "@named"), "named");
	assert_key(secrets_find_psk(s, "192.0.2.9", "@named"), "default");
	assert_key(secrets_find_psk(s, "plain", "@text"), "text");
	assert_key(secrets_find_psk(s, "Plain", "@text"), "default");
	assert_key(secrets_find_psk(s, NULL, "@text"), "default");
	secrets_free(s);

	/* 0.0.0.0 is a wildcard (MATCH_ANY), beating the default for all */
	s = load_expect("z.secrets",
			": PSK \"default\"\n"
			"0.0.0.0 @zero : PSK \"zero\"\n",
			"");
	assert_key(secrets_find_psk(s, "@x", "@zero"), "zero");
	assert_key(secrets_find_psk(s, "@x", "@y"), "zero");
	secrets_free(s);
}

static void test_best_match(void **state)
{
	struct secrets *s = load_expect("m.secrets",
					": PSK \"default\"\n"
					"@west : PSK \"west-to-any\"\n"
					"@west @east : PSK \"west-east\"\n"
					"@west @East. : PSK \"dup-ignored\"\n"
					"192.0.2.1 192.0.2.2 : PSK \"by-ip\"\n"
					"@south @other : PSK \"south-other\"\n",
					"");

	assert_key(secrets_find_psk(s, "@west", "@east"), "west-east");
	assert_key(secrets_find_psk(s, "@east", "@west"), "west-east");
	/* FQDNs compare without case or trailing dot; first one wins */
	assert_key(secrets_find_psk(s, "@WEST", "@east."), "west-east");
	assert_key(secrets_find_psk(s, "@west", "@nobody"), "west-to-any");
	assert_key(secrets_find_psk(s, "192.0.2.1", "192.0.2.2"), "by-ip");
	assert_key(secrets_find_psk(s, "@x", "@y"), "default");
	/* only the peer matches a two-selector line: not good enough */
	assert_key(secrets_find_psk(s, "@x", "@south"), "default");
	/* our id as one of two selectors, peer unknown: not good enough */
	assert_key(secrets_find_psk(s, "@south", "@y"), "default");
	secrets_free(s);

	/* libreswan: a %any selector alone is a wildcard match, beating a
	 * selector-less default; %any plus the peer beats that */
	s = load_expect("w.secrets",
			": PSK \"default\"\n"
			"%any @north : PSK \"any-north\"\n"
			"%any : PSK \"any\"\n",
			"");
	assert_key(secrets_find_psk(s, "@x", "@north"), "any-north");
	assert_key(secrets_find_psk(s, "@x", "@y"), "any-north");
	secrets_free(s);

	s = load_expect("n.secrets", "@a @b : PSK \"ab\"\n", "");
	assert_null(secrets_find_psk(s, "@x", "@y"));
	assert_null(secrets_find_psk(NULL, "@x", "@y"));
	secrets_free(s);
}

static int setup(void **state)
{
	snprintf(dir, sizeof(dir), "/tmp/ikb-secrets-XXXXXX");
	return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **state)
{
	char cmd[PATH_MAX + 16];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	return system(cmd);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_forms),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_other_types),
		cmocka_unit_test(test_include_and_perms),
		cmocka_unit_test(test_include_not_a_file),
		cmocka_unit_test(test_best_match),
		cmocka_unit_test(test_match_kinds),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
