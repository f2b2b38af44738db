// SPDX-License-Identifier: GPL-2.0-or-later
/* Control socket framing: round trip, limits, and hostile input. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <json-c/json.h>

#include "control/proto.h"

static uint8_t *frame(const char *body, size_t n, uint32_t claimed, size_t *len)
{
	uint8_t *b = malloc(CTL_HDR_LEN + n);

	b[0] = (uint8_t)(claimed >> 24);
	b[1] = (uint8_t)(claimed >> 16);
	b[2] = (uint8_t)(claimed >> 8);
	b[3] = (uint8_t)claimed;
	memcpy(b + CTL_HDR_LEN, body, n);
	*len = CTL_HDR_LEN + n;
	return b;
}

static void test_round_trip(void **state)
{
	struct json_object *in = json_object_new_object(), *out, *v;
	size_t len, used = 0;
	const char *why = NULL;
	uint8_t *b;

	json_object_object_add(in, "cmd", json_object_new_string("status"));
	json_object_object_add(in, "n", json_object_new_int(42));
	b = ctl_frame_encode(in, CTL_REQUEST_MAX, &len);
	assert_non_null(b);
	assert_int_equal(len - CTL_HDR_LEN,
			 (size_t)b[0] << 24 | b[1] << 16 | b[2] << 8 | b[3]);
	assert_int_equal(
		ctl_frame_decode(b, len, CTL_REQUEST_MAX, &out, &used, &why),
		CTL_DECODE_OK);
	assert_int_equal(used, len);
	assert_true(json_object_equal(in, out));
	assert_true(json_object_object_get_ex(out, "cmd", &v));
	assert_string_equal(json_object_get_string(v), "status");
	json_object_put(out);
	json_object_put(in);
	free(b);
}

/* Two frames back to back: the first consumes exactly its own bytes. */
static void test_two_frames(void **state)
{
	struct json_object *a = json_object_new_string("a"), *out;
	size_t la, used;
	const char *why;
	uint8_t *fa = ctl_frame_encode(a, 100, &la);
	uint8_t *both = malloc(2 * la);

	memcpy(both, fa, la);
	memcpy(both + la, fa, la);
	assert_int_equal(ctl_frame_decode(both, 2 * la, 100, &out, &used, &why),
			 CTL_DECODE_OK);
	assert_int_equal(used, la);
	json_object_put(out);
	assert_int_equal(
		ctl_frame_decode(both + used, la, 100, &out, &used, &why),
		CTL_DECODE_OK);
	json_object_put(out);
	json_object_put(a);
	free(fa);
	free(both);
}

static void test_truncated(void **state)
{
	const char *body = "{\"cmd\":\"status\"}";
	size_t len, used;
	const char *why;
	struct json_object *out;
	uint8_t *b = frame(body, strlen(body), (uint32_t)strlen(body), &len);

	/* Every proper prefix, header included, asks for more. */
	for (size_t i = 0; i < len; i++) {
		assert_int_equal(ctl_frame_decode(b, i, CTL_REQUEST_MAX, &out,
						  &used, &why),
				 CTL_DECODE_NEED_MORE);
		assert_null(out);
	}
	free(b);
}

static void test_oversize(void **state)
{
	size_t len, used;
	const char *why = NULL;
	struct json_object *out, *big;
	uint8_t *b = frame("", 0, CTL_REQUEST_MAX + 1, &len);
	char *s;

	/* Refused from the header alone, before the body arrives. */
	assert_int_equal(
		ctl_frame_decode(b, len, CTL_REQUEST_MAX, &out, &used, &why),
		CTL_DECODE_TOO_BIG);
	assert_non_null(why);
	free(b);
	b = frame("", 0, 0xffffffffu, &len);
	assert_int_equal(
		ctl_frame_decode(b, len, CTL_RESPONSE_MAX, &out, &used, &why),
		CTL_DECODE_TOO_BIG);
	free(b);
	/* And the encoder will not build one. */
	s = malloc(CTL_REQUEST_MAX + 1);
	memset(s, 'x', CTL_REQUEST_MAX);
	s[CTL_REQUEST_MAX] = '\0';
	big = json_object_new_string(s);
	assert_null(ctl_frame_encode(big, CTL_REQUEST_MAX, &len));
	json_object_put(big);
	free(s);
}

static void expect_bad(const char *body, size_t n)
{
	size_t len, used = 0;
	const char *why = NULL;
	struct json_object *out;
	uint8_t *b = frame(body, n, (uint32_t)n, &len);

	assert_int_equal(
		ctl_frame_decode(b, len, CTL_REQUEST_MAX, &out, &used, &why),
		CTL_DECODE_BAD_JSON);
	assert_null(out);
	assert_non_null(why);
	/* The bad frame is skipped whole: the stream stays in sync. */
	assert_int_equal(used, len);
	free(b);
}

static void test_bad_json(void **state)
{
	expect_bad("{\"cmd\":", 7);
	expect_bad("{cmd: status}", 13);
	expect_bad("{} trailing", 11);
	expect_bad("{}{}", 4);
	expect_bad("", 0);
	expect_bad("{\"a\":\"\0\"}", 9);
	expect_bad("\xff\xfe", 2);
}

/*
 * A body that is a bare number is whole: json-c waits for more digits
 * until told the text ended (the ctl fuzzer's bare-number-body). What
 * ends inside a value stays incomplete.
 */
static void test_bare_number(void **state)
{
	static const char *const whole[] = { "1", "-12", "1e5", " 7 " };
	static const char *const part[] = { "{\"a\":", "[1,", "tru", "\"x" };
	const char *why = NULL;
	struct json_object *o;

	for (size_t i = 0; i < sizeof(whole) / sizeof(whole[0]); i++) {
		o = ctl_json_parse(whole[i], strlen(whole[i]), &why);
		assert_non_null(o);
		assert_true(json_object_is_type(o, json_type_int) ||
			    json_object_is_type(o, json_type_double));
		json_object_put(o);
	}
	for (size_t i = 0; i < sizeof(part) / sizeof(part[0]); i++) {
		assert_null(ctl_json_parse(part[i], strlen(part[i]), &why));
		assert_string_equal(why, "incomplete JSON");
	}
	assert_null(ctl_json_parse("1 2", 3, &why));
}

static void test_responses(void **state)
{
	struct json_object *r = ctl_response_error("no %s", "luck"), *v;

	assert_true(json_object_object_get_ex(r, "ok", &v));
	assert_false(json_object_get_boolean(v));
	assert_true(json_object_object_get_ex(r, "error", &v));
	assert_string_equal(json_object_get_string(v), "no luck");
	json_object_put(r);
	r = ctl_response_ok(NULL);
	assert_true(json_object_object_get_ex(r, "ok", &v));
	assert_true(json_object_get_boolean(v));
	assert_true(json_object_object_get_ex(r, "data", &v));
	assert_true(json_object_is_type(v, json_type_object));
	json_object_put(r);
}

static void test_socket_path(void **state)
{
	char buf[108], longdir[200];

	assert_int_equal(ctl_socket_path("/run/x", buf, sizeof(buf)), 0);
	assert_string_equal(buf, "/run/x/ikebana.ctl");
	memset(longdir, 'd', sizeof(longdir) - 1);
	longdir[sizeof(longdir) - 1] = '\0';
	assert_int_equal(ctl_socket_path(longdir, buf, sizeof(buf)), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_round_trip),
		cmocka_unit_test(test_two_frames),
		cmocka_unit_test(test_truncated),
		cmocka_unit_test(test_oversize),
		cmocka_unit_test(test_bad_json),
		cmocka_unit_test(test_bare_number),
		cmocka_unit_test(test_responses),
		cmocka_unit_test(test_socket_path),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
