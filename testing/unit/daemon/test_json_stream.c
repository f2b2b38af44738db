// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * json_stream.h: an array written one element at a time must read as the
 * tree it replaces; with JSON_C_TO_STRING_PLAIN (the control protocol's
 * encoding) byte for byte, so that status and trafficstatus answers are
 * what they were when the daemon built the whole tree.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <json-c/json.h>

#include "control/json_stream.h"

/* Element i: nested, with strings json-c escapes, and a null at i == 1. */
static struct json_object *element(int i)
{
	struct json_object *o, *kids;

	if (i == 1)
		return NULL;
	o = json_object_new_object();
	kids = json_object_new_array();
	json_object_object_add(o, "conn", json_object_new_string("c\"1/\n\t"));
	json_object_object_add(o, "serial", json_object_new_int64(i));
	json_object_object_add(o, "peer_cert", NULL);
	json_object_object_add(o, "esn", json_object_new_boolean(i & 1));
	json_object_array_add(kids, json_object_new_string("10.1.0.1/32"));
	json_object_array_add(kids, json_object_new_object());
	json_object_object_add(o, "child_sas", kids);
	return o;
}

struct gen {
	int n;
	int walks;
	bool freed;
};

static void walk(void *ctx, struct json_stream *s)
{
	struct gen *g = ctx;

	g->walks++;
	for (int i = 0; i < g->n; i++)
		json_stream_emit(s, element(i));
}

static void gen_free(void *ctx)
{
	((struct gen *)ctx)->freed = true;
}

static struct json_object *tree(int n)
{
	struct json_object *a = json_object_new_array();

	for (int i = 0; i < n; i++)
		json_object_array_add(a, element(i));
	return a;
}

/* {"x": 1, "sas": ARRAY, "y": []}: where status puts its streams */
static struct json_object *wrap(struct json_object *a)
{
	struct json_object *o = json_object_new_object();

	json_object_object_add(o, "x", json_object_new_int(1));
	json_object_object_add(o, "sas", a);
	json_object_object_add(o, "y", json_object_new_array());
	return o;
}

static void check_n(int n)
{
	struct gen g = { .n = n };
	struct json_object *s = wrap(json_stream_array(walk, &g, gen_free));
	struct json_object *t = wrap(tree(n)), *back;
	static const int flags[] = { JSON_C_TO_STRING_SPACED,
				     JSON_C_TO_STRING_PRETTY,
				     JSON_C_TO_STRING_PRETTY |
					     JSON_C_TO_STRING_NOSLASHESCAPE };

	assert_string_equal(
		json_object_to_json_string_ext(s, JSON_C_TO_STRING_PLAIN),
		json_object_to_json_string_ext(t, JSON_C_TO_STRING_PLAIN));
	/* the elements are made again each time it is written */
	assert_int_equal(g.walks, 1);
	for (size_t i = 0; i < sizeof(flags) / sizeof(flags[0]); i++) {
		back = json_tokener_parse(
			json_object_to_json_string_ext(s, flags[i]));
		assert_non_null(back);
		assert_true(json_object_equal(back, t));
		json_object_put(back);
	}
	assert_int_equal(g.walks, 4);
	assert_false(g.freed);
	json_object_put(s);
	assert_true(g.freed);
	json_object_put(t);
}

static void test_plain_identical(void **state)
{
	(void)state;
	check_n(0);
	check_n(1);
	check_n(2); /* a null element */
	check_n(50);
}

/* Empty to the tree's readers: its elements exist only while written. */
static void test_no_elements_kept(void **state)
{
	struct gen g = { .n = 3 };
	struct json_object *s = json_stream_array(walk, &g, NULL);

	(void)state;
	assert_true(json_object_is_type(s, json_type_array));
	assert_int_equal(json_object_array_length(s), 0);
	json_object_to_json_string(s);
	assert_int_equal(json_object_array_length(s), 0);
	json_object_put(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_plain_identical),
		cmocka_unit_test(test_no_elements_kept),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
