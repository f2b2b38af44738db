// SPDX-License-Identifier: GPL-2.0-or-later
/* Lexer, sections, %default, also=, duplicates: every message verbatim. */
#include <json-c/json.h>
#include <pthread.h>
#include <time.h>

#include "helpers.h"

static void test_basic_sections(void **state)
{
	struct cfg *c = parse_expect("# comment\n"
				     "version 2.0\n"
				     "\n"
				     "config setup\n"
				     "\tuniqueids=yes   # trailing comment\n"
				     "conn west\n"
				     "  left = 192.0.2.1\n"
				     "\tright=\"192.0.2.2\"\n"
				     "\tleftid=\"@we st#1\"\n"
				     "\t# indented comment\n"
				     "\tauto=add\r\n"
				     "\tmark=\n"
				     "conn \"east\"\n"
				     "\tleft=%any\n",
				     "");

	assert_int_equal(c->nconns, 2);
	assert_string_equal(c->setup.name, "setup");
	assert_string_equal(value_of(&c->setup, "uniqueids"), "yes");
	assert_string_equal(c->setup.file, "t.conf");
	assert_int_equal(c->setup.line, 4);
	const struct ikb_section *w = cfg_conn_find(c, "west");

	assert_non_null(w);
	assert_string_equal(w->file, "t.conf");
	assert_int_equal(w->line, 6);
	assert_string_equal(value_of(w, "left"), "192.0.2.1");
	assert_string_equal(value_of(w, "right"), "192.0.2.2");
	assert_string_equal(value_of(w, "leftid"), "@we st#1");
	assert_string_equal(value_of(w, "auto"), "add");
	assert_string_equal(value_of(w, "mark"), "");
	assert_int_equal(cfg_get(w, "right")->line, 8);
	assert_non_null(cfg_conn_find(c, "east"));
	assert_null(cfg_conn_find(c, "north"));
	assert_null(cfg_get(w, "nope"));
	cfg_free(c);
}

static void test_hash_inside_value(void **state)
{
	/* as libreswan: '#' starts a comment only where a token can start */
	struct cfg *c = parse_expect("conn a\n\tleftid=@x#y #c\n", "");

	assert_string_equal(value_of(&c->conns[0], "leftid"), "@x#y");
	cfg_free(c);
}

static void test_lexer_errors(void **state)
{
	parse_check("conn a\n\tleft=\"192.0.2.1\n",
		    "t.conf:2: error: unterminated quote\n");
	parse_check("conn a\n\tleft 192.0.2.1\n",
		    "t.conf:2: error: expected '=' after the key\n");
	parse_check("conn a\n\t=x\n", "t.conf:2: error: expected KEY=VALUE\n");
	parse_check(
		"conn a\n\tleft=a b\n",
		"t.conf:2: error: unexpected text after the value (quote a value that contains blanks)\n");
	parse_check(
		"conn a\n\tle.ft=x\n",
		"t.conf:2: error: le.ft: invalid key: expected letters, digits, '-' or '_'\n");
	parse_check(
		"\tleft=x\n",
		"t.conf:1: error: left=x: outside any section (start one with conn NAME or config setup at column 0)\n");
	parse_check(
		"left=x\n",
		"t.conf:1: error: unexpected \"left=x\" at the start of a line: expected conn, config setup, include or version (indent KEY=VALUE lines)\n");
	parse_check("conn\n",
		    "t.conf:1: error: conn: expected a conn name after conn\n");
	parse_check(
		"conn a b\n",
		"t.conf:1: error: conn a: unexpected text after the conn name\n");
	/* 63 characters are a name; 64 would be cut in SAs and status */
	parse_check("conn " "abcdefghijklmnopqrstuvwxyzabcdefghijklmnopqrstuvwxyzabcdefghijk\n",
		    "");
	parse_check(
		"conn " "abcdefghijklmnopqrstuvwxyzabcdefghijklmnopqrstuvwxyzabcdefghijkl\n",
		"t.conf:1: error: conn abcdefghijklmnopqrstuvwxyzabcdefghijklmn...: the name is longer than 63 characters\n");
	parse_check("config\n",
		    "t.conf:1: error: config: expected \"config setup\"\n");
	parse_check("config set\n",
		    "t.conf:1: error: config: expected \"config setup\"\n");
	parse_check(
		"version 3\n",
		"t.conf:1: error: version: expected \"version 2\" or \"version 2.0\"\n");
	parse_check("version 2\nconn \"a\n",
		    "t.conf:2: error: unterminated quote\n");
	parse_check(
		"include\n",
		"t.conf:1: error: include: expected one file name or pattern\n");
}

static void test_nul_byte(void **state)
{
	static const char text[] = "conn a\n\tleft=1\0x\n\tright=2.2.2.2\n";
	struct ikb_diag d;
	struct cfg *c;

	diag_init(&d);
	assert_int_equal(
		cfg_parse_buffer("t.conf", text, sizeof(text) - 1, &c, &d), -1);
	char *got = diag_text(&d);

	assert_string_equal(got, "t.conf:2: error: NUL byte in line\n");
	assert_string_equal(value_of(&c->conns[0], "right"), "2.2.2.2");
	free(got);
	diag_free(&d);
	cfg_free(c);
}

static void test_lexer_error_text_len(void **state)
{
	/* a body line after an error line still parses */
	struct cfg *c =
		parse_expect("conn a\n\tbad\n\tleft=192.0.2.1\n",
			     "t.conf:2: error: expected '=' after the key\n");

	assert_string_equal(value_of(&c->conns[0], "left"), "192.0.2.1");
	cfg_free(c);
}

static void test_x_comment(void **state)
{
	struct cfg *c = parse_expect(
		"conn a\n\tx-note=hello\n",
		"t.conf:2: warning: conn a: x-note: x- style comment ignored\n");

	assert_int_equal(c->conns[0].n, 0);
	cfg_free(c);
}

static void test_duplicates(void **state)
{
	parse_check(
		"conn a\n\tauto=add\n\tauto=start\n",
		"t.conf:3: error: conn a: auto=start: duplicate key: auto= is already set at t.conf:2\n");
	parse_check(
		"conn a\n\tsalifetime=1h\n\tipsec-lifetime=2h\n",
		"t.conf:3: error: conn a: ipsec-lifetime=2h: duplicate key: salifetime= (another name for ipsec-lifetime=) is already set at t.conf:2\n");
	parse_check(
		"conn a\n\tkeylife=1h\n\tlifetime=2h\n",
		"t.conf:3: error: conn a: lifetime=2h: duplicate key: keylife= (another name for ipsec-lifetime=) is already set at t.conf:2\n");
	/* config setup sections merge, so a key in both is a duplicate */
	parse_check(
		"config setup\n\tnhelpers=1\nconfig setup\n\tnhelpers=2\n",
		"t.conf:4: error: config setup: nhelpers=2: duplicate key: nhelpers= is already set at t.conf:2\n");
	parse_check(
		"conn a\nconn a\n",
		"t.conf:2: error: conn a: defined twice (first at t.conf:1)\n");
	/* also= may repeat */
	parse_check("conn b\nconn c\nconn a\n\talso=b\n\talso=c\n", "");
}

static void test_default_precedence(void **state)
{
	struct cfg *c = parse_expect("conn a\n"
				     "\talso=base\n"
				     "\tleft=192.0.2.1\n"
				     "conn %default\n"
				     "\tleft=10.0.0.1\n"
				     "\tright=10.0.0.2\n"
				     "\tauto=ignore\n"
				     "\tikelifetime=1h\n"
				     "conn base\n"
				     "\tright=192.0.2.2\n"
				     "\tauto=add\n"
				     "conn %default\n"
				     "\tikelifetime=2h\n"
				     "\tsalifetime=3h\n",
				     "");

	assert_int_equal(c->nconns, 2); /* %default is no conn */
	const struct ikb_section *a = cfg_conn_find(c, "a");

	assert_string_equal(value_of(a, "left"), "192.0.2.1"); /* own */
	assert_string_equal(value_of(a, "right"), "192.0.2.2"); /* also */
	assert_string_equal(value_of(a, "auto"), "add"); /* also */
	assert_string_equal(value_of(a, "ikelifetime"),
			    "2h"); /* later %default */
	/* aliases resolve under the canonical name, any spelling finds it */
	assert_string_equal(value_of(a, "ipsec-lifetime"), "3h");
	assert_string_equal(value_of(a, "salifetime"), "3h");
	assert_int_equal(cfg_get(a, "ikelifetime")->line, 13);
	assert_null(cfg_get(a, "also"));
	/* a conn only used through also= is still a conn */
	const struct ikb_section *b = cfg_conn_find(c, "base");

	assert_non_null(b);
	assert_string_equal(value_of(b, "left"), "10.0.0.1");
	/* file order */
	assert_string_equal(c->conns[0].name, "a");
	assert_string_equal(c->conns[1].name, "base");
	cfg_free(c);
}

static void test_also_order_and_chain(void **state)
{
	struct cfg *c = parse_expect("conn x\n\tauto=start\n\ttype=transport\n"
				     "conn y\n\talso=z\n\tauto=add\n"
				     "conn z\n\tpfs=no\n\ttype=tunnel\n"
				     "conn a\n\talso=y\n\talso=x\n",
				     "");
	const struct ikb_section *a = cfg_conn_find(c, "a");

	/* depth first: y, then z through y, then x */
	assert_string_equal(value_of(a, "auto"), "add");
	assert_string_equal(value_of(a, "pfs"), "no");
	assert_string_equal(value_of(a, "type"), "tunnel");
	assert_int_equal(cfg_get(a, "type")->line, 9);
	cfg_free(c);
}

static void test_also_diamond(void **state)
{
	struct cfg *c = parse_expect("conn d\n\tpfs=yes\n"
				     "conn b\n\talso=d\n"
				     "conn c\n\talso=d\n"
				     "conn a\n\talso=b\n\talso=c\n",
				     "");

	assert_string_equal(value_of(cfg_conn_find(c, "a"), "pfs"), "yes");
	cfg_free(c);
}

static void test_also_errors(void **state)
{
	parse_check(
		"conn a\n\talso=nowhere\n",
		"t.conf:2: error: conn a: also=nowhere: no conn named \"nowhere\"\n");
	parse_check(
		"conn a\n\talso=b\nconn b\n\talso=a\n",
		"t.conf:4: error: conn b: also=a: also= cycle: a → b → a\n");
	parse_check("conn a\n\talso=a\n",
		    "t.conf:2: error: conn a: also=a: also= cycle: a → a\n");
	parse_check(
		"conn a\n\talso=b\nconn b\n\talso=c\nconn c\n\talso=b\n",
		"t.conf:6: error: conn c: also=b: also= cycle: b → c → b\n");
	parse_check(
		"conn %default\n\talso=b\nconn b\n",
		"t.conf:2: error: conn %default: also=b: also= is not valid in conn %default\n");
	parse_check(
		"conn a\n\talso=%default\nconn %default\n",
		"t.conf:2: error: conn a: also=%default: no conn named \"%default\"\n");
}

static void test_empty_and_partial(void **state)
{
	struct cfg *c = parse_expect("", "");

	assert_int_equal(c->nconns, 0);
	assert_null(c->setup.file);
	cfg_free(c);
	c = parse_expect("conn a\n\tleft=1.2.3.4", ""); /* no final newline */
	assert_string_equal(value_of(&c->conns[0], "left"), "1.2.3.4");
	cfg_free(c);
}

static void test_print_and_json(void **state)
{
	struct cfg *c =
		parse_expect("config setup\n\tplutodebug=\"all crypt\"\n"
			     "conn a\n\tleft=192.0.2.1\n",
			     "");
	char *out = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&out, &len);

	cfg_print(c, f, 0);
	fclose(f);
	assert_string_equal(out, "config setup\t# t.conf:1\n"
				 "\tplutodebug=\"all crypt\"\t# t.conf:2\n\n"
				 "conn a\t# t.conf:3\n"
				 "\tleft=192.0.2.1\t# t.conf:4\n\n");
	free(out);

	struct json_object *j = cfg_to_json(c, 0);

	/* every core setup key's typed value: test_setup.c checks them */
	json_object_object_del(j, "setup_values");
	const char *js =
		json_object_to_json_string_ext(j, JSON_C_TO_STRING_PLAIN);

	assert_string_equal(
		js,
		"{\"setup\":{\"plutodebug\":{\"value\":\"all crypt\",\"file\":\"t.conf\",\"line\":2}},"
		"\"conns\":[{\"name\":\"a\",\"file\":\"t.conf\",\"line\":3,"
		"\"keys\":{\"left\":{\"value\":\"192.0.2.1\",\"file\":\"t.conf\",\"line\":4}}}]}");
	json_object_put(j);
	cfg_free(c);
}

/*
 * Inherited values are printed once, where they are written; a conn says
 * how many it inherits. Expanded, each conn has them all.
 */
static void test_print_written(void **state)
{
	struct cfg *c = parse_expect("conn %default\n\tauthby=secret\n"
				     "conn b\n\tleft=192.0.2.1\n"
				     "conn a\n\talso=b\n\tright=192.0.2.2\n",
				     "");
	char *out = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&out, &len);

	cfg_print(c, f, 0);
	fclose(f);
	assert_string_equal(out, "conn %default\t# t.conf:1\n"
				 "\tauthby=secret\t# t.conf:2\n\n"
				 "conn b\t# t.conf:3\n"
				 "\tleft=192.0.2.1\t# t.conf:4\n"
				 "\t# and 1 inherited (--conn b lists them)\n\n"
				 "conn a\t# t.conf:5\n"
				 "\talso=b\t# t.conf:6\n"
				 "\tright=192.0.2.2\t# t.conf:7\n"
				 "\t# and 2 inherited (--conn a lists them)\n\n");
	free(out);
	f = open_memstream(&out, &len);
	cfg_print(c, f, CFG_PRINT_EXPAND);
	fclose(f);
	assert_string_equal(out, "conn b\t# t.conf:3\n"
				 "\tleft=192.0.2.1\t# t.conf:4\n"
				 "\tauthby=secret\t# t.conf:2\n\n"
				 "conn a\t# t.conf:5\n"
				 "\tright=192.0.2.2\t# t.conf:7\n"
				 "\tleft=192.0.2.1\t# t.conf:4\n"
				 "\tauthby=secret\t# t.conf:2\n\n");
	free(out);

	struct json_object *j = cfg_to_json(c, 0);

	/* every core setup key's typed value: test_setup.c checks them */
	json_object_object_del(j, "setup_values");
	const char *js =
		json_object_to_json_string_ext(j, JSON_C_TO_STRING_PLAIN);

	assert_string_equal(
		js,
		"{\"setup\":{},"
		"\"defaults\":[{\"file\":\"t.conf\",\"line\":1,\"keys\":"
		"{\"authby\":{\"value\":\"secret\",\"file\":\"t.conf\",\"line\":2}}}],"
		"\"conns\":[{\"name\":\"b\",\"file\":\"t.conf\",\"line\":3,\"keys\":"
		"{\"left\":{\"value\":\"192.0.2.1\",\"file\":\"t.conf\",\"line\":4}},"
		"\"inherited\":1},"
		"{\"name\":\"a\",\"file\":\"t.conf\",\"line\":5,\"keys\":"
		"{\"right\":{\"value\":\"192.0.2.2\",\"file\":\"t.conf\",\"line\":7}},"
		"\"also\":[{\"value\":\"b\",\"file\":\"t.conf\",\"line\":6}],"
		"\"inherited\":2}]}");
	json_object_put(j);
	cfg_free(c);
}

/*
 * A 50,000-deep also= chain, each conn pulling in the one written after
 * it, resolved on a 512 KiB stack: the resolver once recursed once per
 * link, and 300,000 of them (a 7.9 MB file) overflowed the daemon's 8 MiB.
 */
#define DEEP_CHAIN 50000

struct deep {
	char *text;
	size_t len;
	struct cfg *c;
	unsigned errors;
};

static void *deep_parse(void *arg)
{
	struct deep *t = arg;
	struct ikb_diag d;

	diag_init(&d);
	cfg_parse_buffer("t.conf", t->text, t->len, &t->c, &d);
	t->errors = d.errors;
	diag_free(&d);
	return NULL;
}

static void test_also_deep_chain(void **state)
{
	struct deep t = { 0 };
	FILE *f = open_memstream(&t.text, &t.len);
	pthread_attr_t attr;
	pthread_t th;

	for (int i = 0; i < DEEP_CHAIN - 1; i++)
		fprintf(f, "conn c%d\n\talso=c%d\n", i, i + 1);
	fprintf(f, "conn c%d\n\tleft=192.0.2.1\n", DEEP_CHAIN - 1);
	fclose(f);
	assert_int_equal(pthread_attr_init(&attr), 0);
	assert_int_equal(pthread_attr_setstacksize(&attr, 512 << 10), 0);
	assert_int_equal(pthread_create(&th, &attr, deep_parse, &t), 0);
	assert_int_equal(pthread_join(th, NULL), 0);
	pthread_attr_destroy(&attr);
	assert_int_equal(t.errors, 0);
	assert_int_equal(t.c->nconns, DEEP_CHAIN);
	assert_string_equal(value_of(&t.c->conns[0], "left"), "192.0.2.1");
	cfg_free(t.c);
	free(t.text);
}

/*
 * 20,000 keys in conn %default and 20,000 in a conn, half of them the
 * same: a key already set is found without a walk over the section (the
 * duplicate check compared every new key with every earlier one under all
 * its names, and 100,000 keys took 457 s), and so is what a conn sets
 * itself when %default is applied. The one duplicate is still reported.
 */
#define WIDE_KEYS 20000

static void test_wide_sections(void **state)
{
	char *text = NULL, want[256];
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	struct ikb_diag d;
	struct cfg *c = NULL;

	fprintf(f, "conn %%default\n");
	for (int i = 0; i < WIDE_KEYS; i++)
		fprintf(f, "\tk%d=d\n", i);
	fprintf(f, "conn a\n");
	for (int i = WIDE_KEYS / 2; i < WIDE_KEYS * 3 / 2; i++)
		fprintf(f, "\tk%d=a\n", i);
	fprintf(f, "\tk%d=again\n", WIDE_KEYS);
	fclose(f);

	clock_t t0 = clock();

	diag_init(&d);
	cfg_parse_buffer("t.conf", text, len, &c, &d);
	double s = (double)(clock() - t0) / CLOCKS_PER_SEC;

	if (s > 5)
		fail_msg("%d keys took %.1f s of CPU to parse", 2 * WIDE_KEYS,
			 s);
	assert_int_equal(d.n, 1);
	snprintf(want, sizeof(want),
		 "conn a: k%d=again: duplicate key: k%d= is already set at t.conf:%d",
		 WIDE_KEYS, WIDE_KEYS, WIDE_KEYS + 3 + WIDE_KEYS / 2);
	assert_string_equal(d.msgs[0].text, want);
	assert_int_equal(d.msgs[0].line, 2 * WIDE_KEYS + 3);
	assert_int_equal(c->nconns, 1);
	assert_int_equal(c->conns[0].n, WIDE_KEYS * 3 / 2);
	assert_string_equal(value_of(&c->conns[0], "k0"), "d");
	assert_string_equal(value_of(&c->conns[0], "k10000"), "a");
	diag_free(&d);
	cfg_free(c);
	free(text);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_basic_sections),
		cmocka_unit_test(test_hash_inside_value),
		cmocka_unit_test(test_lexer_errors),
		cmocka_unit_test(test_nul_byte),
		cmocka_unit_test(test_lexer_error_text_len),
		cmocka_unit_test(test_x_comment),
		cmocka_unit_test(test_duplicates),
		cmocka_unit_test(test_default_precedence),
		cmocka_unit_test(test_also_order_and_chain),
		cmocka_unit_test(test_also_diamond),
		cmocka_unit_test(test_also_errors),
		cmocka_unit_test(test_also_deep_chain),
		cmocka_unit_test(test_wide_sections),
		cmocka_unit_test(test_empty_and_partial),
		cmocka_unit_test(test_print_and_json),
		cmocka_unit_test(test_print_written),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
