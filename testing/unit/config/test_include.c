// SPDX-License-Identifier: GPL-2.0-or-later
/* include: globs, relative paths, missing files, cycles, depth. */
#include <limits.h>
#include <sys/stat.h>
#include <unistd.h>

#include "config/incfiles.h"
#include "helpers.h"

static const char *fixtures;

static char *fx(const char *rel)
{
	static char buf[PATH_MAX];

	snprintf(buf, sizeof(buf), "%s/%s", fixtures, rel);
	return buf;
}

static struct cfg *load(const char *rel, const char *want)
{
	char path[PATH_MAX], *w = NULL, *got;
	struct ikb_diag d;
	struct cfg *c = NULL;

	snprintf(path, sizeof(path), "%s", fx(rel));
	diag_init(&d);
	cfg_parse_file(path, &c, &d);
	got = diag_text(&d);
	/* messages name fixture paths: write them as @/ in `want` */
	size_t n = 0;
	FILE *f = open_memstream(&w, &n);

	for (const char *p = want; *p; p++) {
		if (p[0] == '@' && p[1] == '/')
			fprintf(f, "%s", fixtures);
		else
			fputc(*p, f);
	}
	fclose(f);
	assert_string_equal(got, w);
	free(w);
	free(got);
	diag_free(&d);
	return c;
}

static void test_include_tree(void **state)
{
	struct cfg *c = load("inc/main.conf", "");

	assert_int_equal(c->nconns, 4);
	/* file order follows the includes: conf.d sorted, then sub/ */
	assert_string_equal(c->conns[0].name, "from-confd");
	assert_string_equal(c->conns[1].name, "second");
	assert_string_equal(c->conns[2].name, "deeper");
	assert_string_equal(c->conns[3].name, "last");
	const struct ikb_section *s = cfg_conn_find(c, "second");

	assert_string_equal(value_of(s, "ikelifetime"), "2h");
	assert_string_equal(value_of(s, "left"), "192.0.2.1");
	assert_string_equal(cfg_get(s, "left")->file,
			    fx("inc/conf.d/10-a.conf"));
	assert_string_equal(value_of(s, "authby"), "secret");
	assert_string_equal(cfg_get(s, "authby")->file, fx("inc/main.conf"));
	const struct ikb_section *d = cfg_conn_find(c, "deeper");

	assert_string_equal(d->file, fx("inc/sub/more/deeper.conf"));
	assert_int_equal(d->line, 1);
	/* interned: equal file names are one pointer */
	assert_ptr_equal(cfg_get(s, "left")->file, c->conns[0].file);
	assert_string_equal(value_of(cfg_conn_find(c, "last"), "right"),
			    "192.0.2.9");
	cfg_free(c);
}

static void test_include_missing(void **state)
{
	cfg_free(load(
		"missing.conf",
		"@/missing.conf:3: error: include does-not-exist.conf: @/does-not-exist.conf: No such file or directory\n"));
}

static void test_include_cycle(void **state)
{
	cfg_free(load(
		"cycle/a.conf",
		"@/cycle/b.conf:1: error: include cycle: @/cycle/a.conf → @/cycle/b.conf → @/cycle/a.conf\n"));
}

static void test_include_depth(void **state)
{
	cfg_free(load(
		"deep/d0.conf",
		"@/deep/d10.conf:1: error: include @/deep/d11.conf: includes nest more than 10 deep\n"));
}

static void test_top_missing(void **state)
{
	cfg_free(load(
		"nope.conf",
		"@/nope.conf: error: cannot read @/nope.conf: No such file or directory\n"));
}

static void test_include_directory(void **state)
{
	/* an include that names a directory */
	char text[PATH_MAX + 32];
	struct ikb_diag d;
	struct cfg *c;

	snprintf(text, sizeof(text), "include %s\n", fx("inc/conf.d"));
	diag_init(&d);
	cfg_parse_buffer("t.conf", text, strlen(text), &c, &d);
	assert_int_equal(d.errors, 1);
	assert_non_null(strstr(d.msgs[0].text, "is a directory"));
	assert_string_equal(d.msgs[0].file, "t.conf");
	assert_int_equal(d.msgs[0].line, 1);
	diag_free(&d);
	cfg_free(c);
}

/* /dev/zero and a FIFO: refused at the include line, without a hang */
/*
 * A file above 64 MiB (CFG_FILE_MAX) is refused, naming it and the
 * include's line; one of exactly 64 MiB is read. Sparse: no disk used.
 */
static void test_file_cap(void **state)
{
	char dir[] = "/tmp/ikb-cap-XXXXXX", big[PATH_MAX], text[PATH_MAX + 64],
	     *got;
	struct ikb_diag d;
	struct cfg *c = NULL;
	FILE *f;

	assert_non_null(mkdtemp(dir));
	snprintf(big, sizeof(big), "%s/big.conf", dir);
	f = fopen(big, "w");
	assert_non_null(f);
	fputs("# padding follows\n", f);
	fclose(f);
	assert_int_equal(truncate(big, (64 << 20) + 1), 0);
	snprintf(text, sizeof(text), "include %s\n", big);
	diag_init(&d);
	cfg_parse_buffer("t.conf", text, strlen(text), &c, &d);
	got = diag_text(&d);
	print_message("%s", got);
	assert_non_null(strstr(got, "t.conf:1: error: include"));
	assert_non_null(strstr(got, "is larger than 64 MiB"));
	free(got);
	diag_free(&d);
	cfg_free(c);
	/* at the cap exactly it is read (NULs are its own errors, not
	 * the cap's) */
	assert_int_equal(truncate(big, 64 << 20), 0);
	diag_init(&d);
	c = NULL;
	cfg_parse_buffer("t.conf", text, strlen(text), &c, &d);
	got = diag_text(&d);
	assert_null(strstr(got, "larger than 64 MiB"));
	free(got);
	diag_free(&d);
	cfg_free(c);
	unlink(big);
	rmdir(dir);
}

static void test_include_not_a_file(void **state)
{
	char fifo[] = "/tmp/ikb-inc-fifo-XXXXXX", text[256], *got;
	struct ikb_diag d;
	struct cfg *c;
	int fd = mkstemp(fifo);

	assert_true(fd >= 0);
	close(fd);
	unlink(fifo);
	assert_int_equal(mkfifo(fifo, 0600), 0);
	snprintf(text, sizeof(text),
		 "conn a\n\tleft=192.0.2.1\ninclude /dev/zero\ninclude %s\n",
		 fifo);
	diag_init(&d);
	cfg_parse_buffer("t.conf", text, strlen(text), &c, &d);
	got = diag_text(&d);
	char want[512];

	snprintf(want, sizeof(want),
		 "t.conf:3: error: include /dev/zero: is a character device, not a regular file\n"
		 "t.conf:4: error: include %s: is a FIFO, not a regular file\n",
		 fifo);
	assert_string_equal(got, want);
	assert_int_equal(c->nconns, 1);
	free(got);
	diag_free(&d);
	cfg_free(c);
	unlink(fifo);
}

static void put(const char *dir, const char *name, const char *text)
{
	char path[PATH_MAX];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

/*
 * A file matched again, by a second line or an overlapping pattern, is
 * read once, with a warning naming where it was first included. Files
 * that each include the next three times were read 3^8 times before.
 */
static void test_include_read_once(void **state)
{
	char dir[] = "/tmp/ikb-once-XXXXXX", top[PATH_MAX], want[3 * PATH_MAX],
	     text[256], *got;
	struct ikb_diag d;
	struct cfg *c = NULL;

	assert_non_null(mkdtemp(dir));
	put(dir, "base.conf", "conn shared\n\tleft=192.0.2.1\n");
	put(dir, "top.conf", "include base.conf\ninclude b*.conf\n");
	snprintf(top, sizeof(top), "%s/top.conf", dir);
	diag_init(&d);
	assert_int_equal(cfg_parse_file(top, &c, &d), 0);
	got = diag_text(&d);
	snprintf(want, sizeof(want),
		 "%s:2: warning: include %s/base.conf: already read, as included at %s:1; not read again\n",
		 top, dir, top);
	assert_string_equal(got, want);
	assert_int_equal(c->nconns, 1);
	free(got);
	diag_free(&d);
	cfg_free(c);

	for (unsigned i = 1; i <= 9; i++) {
		char name[32];

		snprintf(name, sizeof(name), "f%u.conf", i);
		if (i < 9)
			snprintf(text, sizeof(text),
				 "conn c%u\n\tleft=192.0.2.%u\n"
				 "include f%u.conf\ninclude f%u.conf\ninclude f%u.conf\n",
				 i, i, i + 1, i + 1, i + 1);
		else
			snprintf(text, sizeof(text),
				 "conn c9\n\tleft=192.0.2.9\n");
		put(dir, name, text);
	}
	snprintf(top, sizeof(top), "%s/f1.conf", dir);
	diag_init(&d);
	c = NULL;
	assert_int_equal(cfg_parse_file(top, &c, &d), 0);
	assert_int_equal(c->nconns, 9);
	assert_int_equal(d.errors, 0);
	/* f1-f8 each: its second and third include line */
	assert_int_equal(d.warnings, 16);
	diag_free(&d);
	cfg_free(c);
	for (unsigned i = 1; i <= 9; i++) {
		snprintf(top, sizeof(top), "%s/f%u.conf", dir, i);
		unlink(top);
	}
	snprintf(top, sizeof(top), "%s/base.conf", dir);
	unlink(top);
	snprintf(top, sizeof(top), "%s/top.conf", dir);
	unlink(top);
	rmdir(dir);
}

/*
 * incfiles_known() tells a file read before from its path, by stat(2),
 * before parse_path() or the secrets loader opens it again, and reports
 * it as incfiles_enter() does; a file not read yet is left to them.
 */
static void test_include_known(void **state)
{
	char dir[] = "/tmp/ikb-known-XXXXXX", a[PATH_MAX], b[PATH_MAX], *got;
	struct incfiles in = { 0 };
	struct ikb_diag d;
	struct stat st;

	assert_non_null(mkdtemp(dir));
	put(dir, "a.conf", "\n");
	put(dir, "b.conf", "\n");
	snprintf(a, sizeof(a), "%s/a.conf", dir);
	snprintf(b, sizeof(b), "%s/b.conf", dir);
	diag_init(&d);
	/* nothing read yet: nothing known, nothing said */
	assert_false(incfiles_known(&in, a, "top.conf", 1, &d));
	assert_int_equal(stat(a, &st), 0);
	assert_true(incfiles_enter(&in, &st, a, "top.conf", 1, &d));
	/* a.conf while it is read: a cycle */
	assert_true(incfiles_known(&in, a, a, 3, &d));
	assert_int_equal(d.errors, 1);
	incfiles_leave(&in);
	/* read before, and another file not */
	assert_true(incfiles_known(&in, a, "top.conf", 2, &d));
	assert_false(incfiles_known(&in, b, "top.conf", 3, &d));
	assert_false(
		incfiles_known(&in, "/nonexistent/x.conf", "top.conf", 4, &d));
	got = diag_text(&d);
	assert_non_null(strstr(got, "error: include cycle: "));
	assert_non_null(strstr(got, "top.conf:2: warning: include "));
	assert_non_null(strstr(
		got,
		"a.conf: already read, as included at top.conf:1; not read again\n"));
	assert_null(strstr(got, "b.conf"));
	assert_int_equal(d.warnings, 1);
	free(got);
	diag_free(&d);
	incfiles_free(&in);
	unlink(a);
	unlink(b);
	rmdir(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_include_tree),
		cmocka_unit_test(test_include_missing),
		cmocka_unit_test(test_include_cycle),
		cmocka_unit_test(test_include_depth),
		cmocka_unit_test(test_top_missing),
		cmocka_unit_test(test_include_directory),
		cmocka_unit_test(test_include_not_a_file),
		cmocka_unit_test(test_file_cap),
		cmocka_unit_test(test_include_read_once),
		cmocka_unit_test(test_include_known),
	};

	fixtures = getenv("CFG_FIXTURES");
	if (!fixtures) {
		fprintf(stderr, "CFG_FIXTURES is not set\n");
		return 1;
	}
	return cmocka_run_group_tests(tests, NULL, NULL);
}
