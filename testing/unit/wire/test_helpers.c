// SPDX-License-Identifier: GPL-2.0-or-later
/* Name tables, lookups, the SA conversion, the buffer, emit errors. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "log/log.h"
#include "wire/wire.h"
#include "samples.h"

static void test_names(void **state)
{
	assert_string_equal(wire_payload_name(WIRE_PT_SKF), "SKF");
	assert_string_equal(wire_payload_name(WIRE_PT_VID), "Vendor ID");
	assert_null(wire_payload_name(0));
	assert_null(wire_payload_name(50));
	assert_null(wire_payload_name(255));
	assert_string_equal(wire_exchange_name(34), "IKE_SA_INIT");
	assert_string_equal(wire_exchange_name(43), "IKE_INTERMEDIATE");
	assert_null(wire_exchange_name(33));
	assert_null(wire_exchange_name(200));
	assert_string_equal(wire_notify_name(1),
			    "UNSUPPORTED_CRITICAL_PAYLOAD");
	assert_string_equal(wire_notify_name(16390), "COOKIE");
	assert_string_equal(wire_notify_name(16442), "USE_AGGFRAG");
	assert_null(wire_notify_name(0));
	assert_null(wire_notify_name(8));
	assert_null(wire_notify_name(65535));
	assert_true(wire_notify_is_error(WIRE_N_NO_PROPOSAL_CHOSEN));
	assert_true(wire_notify_is_error(16383));
	assert_false(wire_notify_is_error(16384));
	assert_string_equal(wire_xform_type_name(IKB_XF_INTEG), "INTEG");
	assert_string_equal(wire_xform_type_name(7), "ADDKE2");
	assert_null(wire_xform_type_name(13));
	assert_string_equal(wire_xform_id_name(IKB_XF_ENCR, 28),
			    "CHACHA20_POLY1305");
	assert_string_equal(wire_xform_id_name(IKB_XF_PRF, 4), "AES128_XCBC");
	assert_string_equal(wire_xform_id_name(IKB_XF_INTEG, 14),
			    "HMAC_SHA2_512_256");
	assert_string_equal(wire_xform_id_name(IKB_XF_KE, 14), "MODP2048");
	assert_string_equal(wire_xform_id_name(IKB_XF_ESN, 1), "ESN");
	assert_null(wire_xform_id_name(IKB_XF_ENCR, 10));
	assert_null(wire_xform_id_name(IKB_XF_ENCR, 65535));
	assert_null(wire_xform_id_name(99, 1));
	assert_string_equal(wire_protocol_name(3), "ESP");
	assert_string_equal(wire_id_type_name(2), "ID_FQDN");
	assert_string_equal(wire_auth_method_name(14), "DIGITAL_SIGNATURE");
	assert_int_equal(wire_ke_len(19), 64);
	assert_int_equal(wire_ke_len(14), 256);
	assert_int_equal(wire_ke_len(31), 32);
	assert_int_equal(wire_ke_len(1000), 0);
}

/* Each name in the notify table must be found again (the table is sorted). */
static void test_notify_table_sorted(void **state)
{
	unsigned t, found = 0;

	for (t = 0; t <= 65535; t++)
		if (wire_notify_name((uint16_t)t))
			found++;
	assert_true(found >= 80);
}

static void test_sa_conversion_skips_unusable(void **state)
{
	static const struct wire_transform x_ok[] = {
		{ .type = IKB_XF_ENCR, .id = 12, .key_bits = 128 },
		{ .type = IKB_XF_ENCR, .id = 12, .unknown_attr = true },
		{ .type = IKB_XF_INTEG, .id = 12 },
	};
	static const struct wire_transform x_addke[] = {
		{ .type = IKB_XF_ENCR, .id = 20, .key_bits = 256 },
		{ .type = 6, .id = 31 },
	};
	static const struct wire_transform x_unknown[] = {
		{ .type = 200, .id = 1 },
	};
	struct wire_proposal pr[4] = {
		{ .num = 1,
		  .protocol = IKB_PROTO_ESP,
		  .n_xf = 2,
		  .xf = x_addke },
		{ .num = 2, .protocol = IKB_PROTO_ESP, .n_xf = 3, .xf = x_ok },
		{ .num = 3,
		  .protocol = IKB_PROTO_ESP,
		  .n_xf = 1,
		  .xf = x_unknown,
		  .unknown_type = true },
		{ .num = 4, .protocol = IKB_PROTO_ESP, .n_xf = 1, .xf = x_ok },
	};
	struct wire_sa sa = { .n_prop = 4, .prop = pr };
	struct ikb_proposal_list pl;
	uint8_t nums[IKB_PROPOSALS_MAX];

	assert_int_equal(wire_sa_to_proposals(&sa, &pl, nums), 2);
	/* the transform with an unknown attribute is gone, not the proposal */
	assert_int_equal(pl.p[0].n, 2);
	assert_int_equal(pl.p[0].xf[0].key_bits, 128);
	assert_int_equal(pl.p[0].xf[1].type, IKB_XF_INTEG);
	assert_int_equal(nums[0], 2);
	assert_int_equal(nums[1], 4);
}

/* An unknown transform type on the wire marks its proposal, not the SA. */
static void test_unknown_transform_type_parsed(void **state)
{
	static struct wire_msg msg;
	struct wire_error err;
	struct ikb_proposal_list pl;
	uint8_t nums[IKB_PROPOSALS_MAX];
	uint8_t buf[256];
	size_t n = wire_hex(
		buf, sizeof(buf),
		"5a3c9e1f007b2241 0000000000000000 21 20 22 08 00000000 00000048 "
		"00 00 002c "
		"02 00 0010 01 01 00 01 00 00 0008 f0 00 0001 "
		"00 00 0018 02 01 00 02 03 00 0008 01 00 0014 "
		"00 00 0008 04 00 0013");

	assert_int_equal(n, 0x48);
	if (wire_parse(&msg, buf, n, NULL, &err))
		fail_msg("%s", err.msg);
	assert_true(msg.pl[0].u.sa.prop[0].unknown_type);
	assert_false(msg.pl[0].u.sa.prop[1].unknown_type);
	assert_int_equal(wire_sa_to_proposals(&msg.pl[0].u.sa, &pl, nums), 1);
	assert_int_equal(nums[0], 2);
}

/* An unknown transform attribute marks the transform, keeps its length. */
static void test_unknown_attribute_parsed(void **state)
{
	static struct wire_msg msg;
	struct wire_error err;
	uint8_t buf[256];
	size_t n = wire_hex(
		buf, sizeof(buf),
		"5a3c9e1f007b2241 0000000000000000 21 20 22 08 00000000 00000042 "
		"00 00 0026 "
		"00 00 0022 01 01 00 02 03 00 0012 01 00 000c 0011 0002 abcd 8012 0001 "
		"00 00 0008 02 00 0005");

	assert_int_equal(n, 0x42);
	if (wire_parse(&msg, buf, n, NULL, &err))
		fail_msg("%s", err.msg);
	assert_true(msg.pl[0].u.sa.prop[0].xf[0].unknown_attr);
	assert_false(msg.pl[0].u.sa.prop[0].xf[1].unknown_attr);
	assert_int_equal(msg.pl[0].u.sa.prop[0].xf[1].type, IKB_XF_PRF);
}

static void test_sa_from_proposals(void **state)
{
	static struct wire_sa_store st;
	static struct wire_msg msg;
	struct ikb_proposal_list in = { .n = 2 }, back;
	struct wire_error err;
	struct wire_sa sa;
	struct wbuf wb;
	uint8_t nums[IKB_PROPOSALS_MAX];
	static const uint8_t spi[8] = { 1, 2, 3, 4, 5, 6, 7, 8 };

	in.p[0] = (struct ikb_proposal){ .protocol = IKB_PROTO_IKE,
					 .n = 3,
					 .xf = { { IKB_XF_ENCR, 20, 256 },
						 { IKB_XF_PRF, 7, 0 },
						 { IKB_XF_KE, 19, 0 } } };
	in.p[1] = (struct ikb_proposal){ .protocol = IKB_PROTO_IKE,
					 .n = 2,
					 .xf = { { IKB_XF_ENCR, 28, 0 },
						 { IKB_XF_KE, 31, 0 } } };
	assert_int_equal(wire_sa_from_proposals(&st, &in, 1, spi, 8, &sa), 0);
	assert_int_equal(sa.prop[1].num, 2);
	assert_memory_equal(sa.prop[1].spi, spi, 8);

	memset(&msg, 0, sizeof(msg));
	msg.hdr.spi_i[7] = 1;
	msg.hdr.flags = WIRE_FLAG_I;
	msg.n = 1;
	msg.pl[0].type = WIRE_PT_SA;
	msg.pl[0].known = true;
	msg.pl[0].u.sa = sa;
	wbuf_init(&wb, 0);
	assert_int_equal(wire_emit(&msg, &wb, NULL, &err), 0);
	assert_int_equal(wire_parse(&msg, wb.data, wb.len, NULL, &err), 0);
	assert_int_equal(wire_sa_to_proposals(&msg.pl[0].u.sa, &back, nums), 2);
	assert_memory_equal(&back, &in, sizeof(back));
	wbuf_free(&wb);

	/* a response echoes the accepted number */
	in.n = 1;
	assert_int_equal(wire_sa_from_proposals(&st, &in, 7, NULL, 0, &sa), 0);
	assert_int_equal(sa.prop[0].num, 7);
	assert_int_equal(wire_sa_from_proposals(&st, &in, 0, NULL, 0, &sa),
			 -EINVAL);
	assert_int_equal(wire_sa_from_proposals(&st, &in, 1, NULL, 4, &sa),
			 -EINVAL);
	in.n = 0;
	assert_int_equal(wire_sa_from_proposals(&st, &in, 1, NULL, 0, &sa),
			 -EINVAL);
}

/* 17 proposals: emit builds it, parse refuses it with the bound named. */
static void test_too_many_proposals(void **state)
{
	static const struct wire_transform xf = { .type = IKB_XF_ENCR,
						  .id = 20 };
	static struct wire_proposal pr[17];
	static struct wire_msg msg;
	struct wire_error err;
	struct wbuf wb;
	unsigned i;

	for (i = 0; i < 17; i++)
		pr[i] = (struct wire_proposal){ .num = (uint8_t)(i + 1),
						.protocol = IKB_PROTO_IKE,
						.n_xf = 1,
						.xf = &xf };
	memset(&msg, 0, sizeof(msg));
	msg.hdr.spi_i[0] = 1;
	msg.n = 1;
	msg.pl[0].type = WIRE_PT_SA;
	msg.pl[0].known = true;
	msg.pl[0].u.sa = (struct wire_sa){ 17, pr };
	wbuf_init(&wb, 0);
	assert_int_equal(wire_emit(&msg, &wb, NULL, &err), 0);
	assert_int_equal(wire_parse(&msg, wb.data, wb.len, NULL, &err),
			 -EBADMSG);
	assert_string_equal(err.msg, "SA payload: more than 16 proposals");
	wbuf_free(&wb);
}

static void test_wbuf(void **state)
{
	struct wbuf b;
	size_t off;

	wbuf_init(&b, 8);
	wbuf_u32(&b, 0x01020304);
	off = wbuf_reserve(&b, 2);
	assert_int_equal(off, 4);
	wbuf_set_u16(&b, off, 0xa1b2);
	wbuf_set_u16(&b, 5, 0xffff); /* would run past the end: ignored */
	assert_memory_equal(b.data, "\x01\x02\x03\x04\xa1\xb2", 6);
	assert_int_equal(b.err, 0);
	wbuf_u32(&b, 0); /* exceeds max 8 */
	assert_int_equal(b.err, -EMSGSIZE);
	assert_int_equal(b.len, 6);
	wbuf_u8(&b, 1); /* sticky */
	assert_int_equal(b.len, 6);
	wbuf_reset(&b);
	assert_int_equal(b.err, 0);
	wbuf_put(&b, NULL, 3);
	assert_int_equal(b.len, 3);
	wbuf_free(&b);

	wbuf_init(&b, 0);
	for (unsigned i = 0; i < 100000; i++)
		wbuf_u8(&b, (uint8_t)i);
	assert_int_equal(b.len, 100000);
	assert_int_equal(b.data[99999], (uint8_t)99999);
	wbuf_free(&b);
}

static void test_emit_limits(void **state)
{
	static struct wire_msg msg;
	struct wire_error err;
	struct wbuf wb;
	static uint8_t big[70000];

	memset(&msg, 0, sizeof(msg));
	msg.n = 1;
	msg.pl[0].type = WIRE_PT_VID;
	msg.pl[0].known = true;
	msg.pl[0].u.vid = (struct wire_opaque){ big, sizeof(big) };
	wbuf_init(&wb, 0);
	assert_int_equal(wire_emit(&msg, &wb, NULL, &err), -EINVAL);
	assert_string_equal(err.msg,
			    "Vendor ID payload: length 70004 exceeds 65535");

	msg.pl[0].type = WIRE_PT_TSI;
	msg.pl[0].u.ts = (struct wire_ts_pld){ 0, NULL };
	wbuf_reset(&wb);
	assert_int_equal(wire_emit(&msg, &wb, NULL, &err), -EINVAL);
	assert_string_equal(err.msg, "TSi payload: number of TSs is 0");

	msg.n = 2;
	msg.pl[0].type = WIRE_PT_SK;
	msg.pl[0].u.sk = (struct wire_sk){ .body_len = 4 };
	msg.pl[1].type = WIRE_PT_NONCE;
	msg.pl[1].known = true;
	wbuf_reset(&wb);
	assert_int_equal(wire_emit(&msg, &wb, NULL, &err), -EINVAL);
	assert_string_equal(
		err.msg,
		"SK payload: payload 2 of type 40 follows an encrypted payload");

	/* the buffer limit surfaces as an error, not a short message */
	msg.n = 1;
	msg.pl[0].type = WIRE_PT_NONCE;
	msg.pl[0].u.nonce = (struct wire_opaque){ big, 32 };
	wbuf_free(&wb);
	wbuf_init(&wb, 40);
	assert_int_equal(wire_emit(&msg, &wb, NULL, &err), -EMSGSIZE);
	assert_string_equal(err.msg, "emit: message exceeds the buffer limit");
	wbuf_free(&wb);
}

static void test_sk_split_errors(void **state)
{
	struct wire_payload sk = { .type = WIRE_PT_SK };
	struct wire_opts sizes = { .iv_len = 8, .icv_len = 16 };
	struct wire_sk_parts parts;
	struct wire_error err;
	uint8_t msg[64] = { 0 };

	sk.u.sk = (struct wire_sk){
		.body = msg + 32, .body_len = 24, .msg_off = 28, .hdr_len = 4
	};
	assert_int_equal(wire_sk_split(&sk, msg, &sizes, &parts, &err),
			 -EBADMSG);
	assert_string_equal(
		err.msg,
		"SK payload: body 24 bytes, no room for IV 8, ICV 16 and ciphertext");
	sk.u.sk.body_len = 32;
	assert_int_equal(wire_sk_split(&sk, msg, &sizes, &parts, &err), 0);
	assert_int_equal(parts.ct_len, 8);
	assert_int_equal(parts.integ_len, 32 + 8 + 8);
	sk.type = WIRE_PT_NONCE;
	assert_int_equal(wire_sk_split(&sk, msg, &sizes, &parts, &err),
			 -EBADMSG);
}

static void test_sk_pad(void **state)
{
	struct wbuf b;

	wbuf_init(&b, 0);
	wbuf_put(&b, "abcdefghij", 10);
	assert_int_equal(wire_sk_pad(&b, 0, 16), 0);
	assert_int_equal(b.len, 16);
	assert_int_equal(b.data[15], 5);
	wbuf_reset(&b);
	wbuf_put(&b, "abcdefghijklmno", 15);
	assert_int_equal(wire_sk_pad(&b, 0, 16), 0);
	assert_int_equal(b.len, 16);
	assert_int_equal(b.data[15], 0);
	wbuf_free(&b);
}

static void test_find_next_and_log(void **state)
{
	static struct wire_msg msg;
	struct wire_error err;
	uint8_t buf[512];
	size_t n = wire_hex(buf, sizeof(buf), wire_sample_sa_init_hex);
	const struct wire_payload *p;

	assert_int_equal(wire_parse(&msg, buf, n, NULL, &err), 0);
	p = wire_find(&msg, WIRE_PT_NOTIFY);
	assert_ptr_equal(p, &msg.pl[3]);
	p = wire_next(&msg, p, WIRE_PT_NOTIFY);
	assert_ptr_equal(p, &msg.pl[4]);
	assert_null(wire_find(&msg, WIRE_PT_AUTH));
	log_setup(LOG_TO_STDERR, IKB_LOG_DEBUG, "test-wire");
	wire_log(&msg, "received");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_names),
		cmocka_unit_test(test_notify_table_sorted),
		cmocka_unit_test(test_sa_conversion_skips_unusable),
		cmocka_unit_test(test_unknown_transform_type_parsed),
		cmocka_unit_test(test_unknown_attribute_parsed),
		cmocka_unit_test(test_sa_from_proposals),
		cmocka_unit_test(test_too_many_proposals),
		cmocka_unit_test(test_wbuf),
		cmocka_unit_test(test_emit_limits),
		cmocka_unit_test(test_sk_split_errors),
		cmocka_unit_test(test_sk_pad),
		cmocka_unit_test(test_find_next_and_log),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
