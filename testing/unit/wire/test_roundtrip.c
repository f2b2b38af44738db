// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Round trips: struct -> emit -> parse -> the same struct, and the parsed
 * message emits the same bytes again. One test per payload type.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "wire/wire.h"
#include "samples.h"

static struct wire_msg in, out;
static struct wbuf wb, wb2;

static const uint8_t bytes[64] = {
	1,  2,	3,  4,	5,  6,	7,  8,	9,  10, 11, 12, 13, 14, 15, 16,
	17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32,
	33, 34, 35, 36, 37, 38, 39, 40, 41, 42, 43, 44, 45, 46, 47, 48,
	49, 50, 51, 52, 53, 54, 55, 56, 57, 58, 59, 60, 61, 62, 63, 64,
};

static int setup(void **state)
{
	wbuf_init(&wb, 65535);
	wbuf_init(&wb2, 65535);
	return 0;
}

static int teardown(void **state)
{
	wbuf_free(&wb);
	wbuf_free(&wb2);
	return 0;
}

static void start_msg(void)
{
	memset(&in, 0, sizeof(in));
	memcpy(in.hdr.spi_i, bytes, 8);
	memcpy(in.hdr.spi_r, bytes + 8, 8);
	in.hdr.exchange = WIRE_EXCH_IKE_AUTH;
	in.hdr.flags = WIRE_FLAG_I;
	in.hdr.msgid = 0x01020304;
}

static struct wire_payload *add(uint8_t type)
{
	struct wire_payload *p = &in.pl[in.n++];

	p->type = type;
	p->known = true;
	return p;
}

/* Emit in, parse into out, emit out: both emissions must be equal. */
static void round_trip(const struct wire_opts *opts)
{
	struct wire_error err;
	unsigned i;

	wbuf_reset(&wb);
	wbuf_reset(&wb2);
	assert_int_equal(wire_emit(&in, &wb, NULL, &err), 0);
	if (wire_parse(&out, wb.data, wb.len, opts, &err))
		fail_msg("parse: %s", err.msg);
	assert_int_equal(out.hdr.length, wb.len);
	assert_memory_equal(out.hdr.spi_i, in.hdr.spi_i, 8);
	assert_memory_equal(out.hdr.spi_r, in.hdr.spi_r, 8);
	assert_int_equal(out.hdr.exchange, in.hdr.exchange);
	assert_int_equal(out.hdr.flags, in.hdr.flags);
	assert_int_equal(out.hdr.msgid, in.hdr.msgid);
	assert_int_equal(out.n, in.n);
	for (i = 0; i < in.n; i++) {
		assert_int_equal(out.pl[i].type, in.pl[i].type);
		assert_int_equal(out.pl[i].critical, in.pl[i].critical);
		assert_int_equal(out.pl[i].known, in.pl[i].known);
	}
	assert_int_equal(wire_emit(&out, &wb2, NULL, &err), 0);
	assert_int_equal(wb2.len, wb.len);
	assert_memory_equal(wb2.data, wb.data, wb.len);
}

static void test_sa(void **state)
{
	static const struct wire_transform x1[] = {
		{ .type = IKB_XF_ENCR, .id = 20, .key_bits = 256 },
		{ .type = IKB_XF_PRF, .id = 7 },
		{ .type = IKB_XF_KE, .id = 31 },
	};
	static const struct wire_transform x2[] = {
		{ .type = IKB_XF_ENCR, .id = 12, .key_bits = 128 },
		{ .type = IKB_XF_INTEG, .id = 12 },
		{ .type = IKB_XF_ESN, .id = 0 },
		{ .type = IKB_XF_ESN, .id = 1 },
	};
	struct wire_proposal pr[2] = {
		{ .num = 1,
		  .protocol = IKB_PROTO_IKE,
		  .spi_size = 8,
		  .n_xf = 3,
		  .xf = x1 },
		{ .num = 2,
		  .protocol = IKB_PROTO_ESP,
		  .spi_size = 4,
		  .n_xf = 4,
		  .xf = x2 },
	};
	const struct wire_sa *sa;
	unsigned i, j;

	memcpy(pr[0].spi, bytes, 8);
	memcpy(pr[1].spi, bytes + 8, 4);
	start_msg();
	add(WIRE_PT_SA)->u.sa = (struct wire_sa){ .n_prop = 2, .prop = pr };
	round_trip(NULL);
	sa = &out.pl[0].u.sa;
	assert_int_equal(sa->n_prop, 2);
	for (i = 0; i < 2; i++) {
		assert_int_equal(sa->prop[i].num, pr[i].num);
		assert_int_equal(sa->prop[i].protocol, pr[i].protocol);
		assert_int_equal(sa->prop[i].spi_size, pr[i].spi_size);
		assert_memory_equal(sa->prop[i].spi, pr[i].spi, pr[i].spi_size);
		assert_int_equal(sa->prop[i].n_xf, pr[i].n_xf);
		for (j = 0; j < pr[i].n_xf; j++) {
			assert_int_equal(sa->prop[i].xf[j].type,
					 pr[i].xf[j].type);
			assert_int_equal(sa->prop[i].xf[j].id, pr[i].xf[j].id);
			assert_int_equal(sa->prop[i].xf[j].key_bits,
					 pr[i].xf[j].key_bits);
		}
	}
}

static void test_ke(void **state)
{
	start_msg();
	add(WIRE_PT_KE)->u.ke = (struct wire_ke){ 19, bytes, 64 };
	round_trip(NULL);
	assert_int_equal(out.pl[0].u.ke.group, 19);
	assert_int_equal(out.pl[0].u.ke.len, 64);
	assert_memory_equal(out.pl[0].u.ke.data, bytes, 64);
}

static void test_id(void **state)
{
	start_msg();
	add(WIRE_PT_IDI)->u.id =
		(struct wire_typed){ 2, (const uint8_t *)"west.example", 12 };
	add(WIRE_PT_IDR)->u.id = (struct wire_typed){ 1, bytes, 4 };
	round_trip(NULL);
	assert_int_equal(out.pl[0].u.id.type, 2);
	assert_int_equal(out.pl[0].u.id.len, 12);
	assert_memory_equal(out.pl[0].u.id.data, "west.example", 12);
	assert_int_equal(out.pl[1].u.id.type, 1);
	assert_memory_equal(out.pl[1].u.id.data, bytes, 4);
}

static void test_cert_certreq(void **state)
{
	start_msg();
	add(WIRE_PT_CERT)->u.cert = (struct wire_typed){ 4, bytes, 50 };
	add(WIRE_PT_CERTREQ)->u.certreq = (struct wire_typed){ 4, bytes, 40 };
	round_trip(NULL);
	assert_int_equal(out.pl[0].u.cert.type, 4);
	assert_int_equal(out.pl[0].u.cert.len, 50);
	assert_memory_equal(out.pl[0].u.cert.data, bytes, 50);
	assert_int_equal(out.pl[1].u.certreq.len, 40);
	assert_memory_equal(out.pl[1].u.certreq.data, bytes, 40);
}

static void test_auth(void **state)
{
	start_msg();
	add(WIRE_PT_AUTH)->u.auth = (struct wire_typed){ 2, bytes, 32 };
	round_trip(NULL);
	assert_int_equal(out.pl[0].u.auth.type, 2);
	assert_int_equal(out.pl[0].u.auth.len, 32);
	assert_memory_equal(out.pl[0].u.auth.data, bytes, 32);
}

static void test_nonce(void **state)
{
	start_msg();
	add(WIRE_PT_NONCE)->u.nonce = (struct wire_opaque){ bytes, 16 };
	round_trip(NULL);
	assert_int_equal(out.pl[0].u.nonce.len, 16);
	assert_memory_equal(out.pl[0].u.nonce.data, bytes, 16);
}

static void test_notify(void **state)
{
	struct wire_notify *n;

	start_msg();
	n = &add(WIRE_PT_NOTIFY)->u.notify;
	*n = (struct wire_notify){ .protocol = IKB_PROTO_ESP,
				   .spi_size = 4,
				   .type = WIRE_N_REKEY_SA };
	memcpy(n->spi, "\xc0\xa8\x01\x01", 4);
	n = &add(WIRE_PT_NOTIFY)->u.notify;
	*n = (struct wire_notify){ .type = WIRE_N_COOKIE,
				   .data = bytes,
				   .len = 24 };
	round_trip(NULL);
	assert_int_equal(out.pl[0].u.notify.protocol, IKB_PROTO_ESP);
	assert_int_equal(out.pl[0].u.notify.spi_size, 4);
	assert_int_equal(out.pl[0].u.notify.type, WIRE_N_REKEY_SA);
	assert_memory_equal(out.pl[0].u.notify.spi, "\xc0\xa8\x01\x01", 4);
	assert_int_equal(out.pl[0].u.notify.len, 0);
	assert_int_equal(out.pl[1].u.notify.type, WIRE_N_COOKIE);
	assert_int_equal(out.pl[1].u.notify.len, 24);
	assert_memory_equal(out.pl[1].u.notify.data, bytes, 24);
}

static void test_delete(void **state)
{
	start_msg();
	add(WIRE_PT_DELETE)->u.del =
		(struct wire_delete){ IKB_PROTO_ESP, 4, 3, bytes };
	add(WIRE_PT_DELETE)->u.del =
		(struct wire_delete){ IKB_PROTO_IKE, 0, 0, NULL };
	round_trip(NULL);
	assert_int_equal(out.pl[0].u.del.protocol, IKB_PROTO_ESP);
	assert_int_equal(out.pl[0].u.del.spi_size, 4);
	assert_int_equal(out.pl[0].u.del.n_spi, 3);
	assert_memory_equal(out.pl[0].u.del.spis, bytes, 12);
	assert_int_equal(out.pl[1].u.del.protocol, IKB_PROTO_IKE);
	assert_int_equal(out.pl[1].u.del.n_spi, 0);
}

static void test_vid(void **state)
{
	start_msg();
	add(WIRE_PT_VID)->u.vid = (struct wire_opaque){ bytes, 20 };
	round_trip(NULL);
	assert_int_equal(out.pl[0].u.vid.len, 20);
	assert_memory_equal(out.pl[0].u.vid.data, bytes, 20);
}

static void test_ts(void **state)
{
	struct wire_ts ts[3] = {
		{ .type = WIRE_TS_IPV4_ADDR_RANGE,
		  .ip_proto = 0,
		  .start_port = 0,
		  .end_port = 65535,
		  .start = { 10, 0, 0, 0 },
		  .end = { 10, 0, 0, 255 } },
		{ .type = WIRE_TS_IPV6_ADDR_RANGE,
		  .ip_proto = 6,
		  .start_port = 443,
		  .end_port = 443 },
		{ .type = WIRE_TS_IPV4_ADDR_RANGE,
		  .ip_proto = 17,
		  .start_port = 65535,
		  .end_port = 0 }, /* OPAQUE */
	};
	unsigned i;

	memcpy(ts[1].start, bytes, 16);
	memcpy(ts[1].end, bytes + 16, 16);
	start_msg();
	add(WIRE_PT_TSI)->u.ts = (struct wire_ts_pld){ 3, ts };
	add(WIRE_PT_TSR)->u.ts = (struct wire_ts_pld){ 1, ts + 1 };
	round_trip(NULL);
	assert_int_equal(out.pl[0].u.ts.n, 3);
	for (i = 0; i < 3; i++)
		assert_memory_equal(&out.pl[0].u.ts.ts[i], &ts[i],
				    sizeof(ts[i]));
	assert_int_equal(out.pl[1].u.ts.n, 1);
	assert_memory_equal(&out.pl[1].u.ts.ts[0], &ts[1], sizeof(ts[1]));
}

static void test_cp(void **state)
{
	static const struct wire_cp_attr attr[] = {
		{ .type = 1, .len = 0 },
		{ .type = 1,
		  .len = 4,
		  .value = (const uint8_t *)"\x0a\x00\x00\x07" },
		{ .type = 8, .len = 17, .value = bytes },
		{ .type = 7, .len = 7, .value = (const uint8_t *)"ikebana" },
	};
	unsigned i;

	start_msg();
	add(WIRE_PT_CP)->u.cp = (struct wire_cp){ 2, 4, attr };
	round_trip(NULL);
	assert_int_equal(out.pl[0].u.cp.cfg_type, 2);
	assert_int_equal(out.pl[0].u.cp.n_attr, 4);
	for (i = 0; i < 4; i++) {
		assert_int_equal(out.pl[0].u.cp.attr[i].type, attr[i].type);
		assert_int_equal(out.pl[0].u.cp.attr[i].len, attr[i].len);
		if (attr[i].len)
			assert_memory_equal(out.pl[0].u.cp.attr[i].value,
					    attr[i].value, attr[i].len);
	}
}

static void test_eap_and_unknown(void **state)
{
	struct wire_payload *p;

	start_msg();
	add(WIRE_PT_EAP)->u.raw = (struct wire_opaque){ bytes, 10 };
	p = add(200);
	p->known = false;
	p->u.raw = (struct wire_opaque){ bytes, 5 };
	add(WIRE_PT_NONCE)->u.nonce = (struct wire_opaque){ bytes, 32 };
	in.pl[2].critical = true; /* known: the bit is kept, not acted on */
	round_trip(NULL);
	assert_int_equal(out.pl[0].u.raw.len, 10);
	assert_int_equal(out.pl[1].type, 200);
	assert_memory_equal(out.pl[1].u.raw.data, bytes, 5);
	assert_true(out.pl[2].critical);
}

/* Plaintext inner chain of IKE_AUTH: IDi, AUTH, SA, TSi, TSr. */
static size_t build_inner(struct wbuf *b, uint8_t *first, size_t block)
{
	static const struct wire_transform xf[] = {
		{ .type = IKB_XF_ENCR, .id = 20, .key_bits = 256 },
		{ .type = IKB_XF_ESN, .id = 0 },
	};
	static struct wire_proposal pr = {
		.num = 1,
		.protocol = IKB_PROTO_ESP,
		.spi_size = 4,
		.spi = { 0xde, 0xad, 0xbe, 0xef },
		.n_xf = 2,
		.xf = xf,
	};
	static const struct wire_ts ts = {
		.type = WIRE_TS_IPV4_ADDR_RANGE,
		.end_port = 65535,
		.start = { 192, 168, 1, 0 },
		.end = { 192, 168, 1, 255 },
	};
	struct wire_payload pl[5];
	struct wire_error err;

	memset(pl, 0, sizeof(pl));
	pl[0].type = WIRE_PT_IDI;
	pl[0].u.id = (struct wire_typed){ 2, (const uint8_t *)"west", 4 };
	pl[1].type = WIRE_PT_AUTH;
	pl[1].u.auth = (struct wire_typed){ 2, bytes, 32 };
	pl[2].type = WIRE_PT_SA;
	pl[2].u.sa = (struct wire_sa){ 1, &pr };
	pl[3].type = WIRE_PT_TSI;
	pl[3].u.ts = (struct wire_ts_pld){ 1, &ts };
	pl[4].type = WIRE_PT_TSR;
	pl[4].u.ts = (struct wire_ts_pld){ 1, &ts };
	for (int i = 0; i < 5; i++)
		pl[i].known = true;
	assert_int_equal(wire_emit_chain(pl, 5, b, first, &err), 0);
	assert_int_equal(wire_sk_pad(b, 0, block), 0);
	assert_int_equal(b->len % block, 0);
	return b->len;
}

static void check_inner(const uint8_t *plain, size_t len, uint8_t first)
{
	struct wire_error err;
	unsigned base = out.n;

	if (wire_parse_inner(&out, plain, len, first, &err))
		fail_msg("inner: %s", err.msg);
	assert_int_equal(out.n, base + 5);
	assert_true(out.pl[base].inner);
	assert_int_equal(out.pl[base].type, WIRE_PT_IDI);
	assert_memory_equal(out.pl[base].u.id.data, "west", 4);
	assert_int_equal(out.pl[base + 2].u.sa.prop[0].spi_size, 4);
	assert_int_equal(out.pl[base + 2].u.sa.prop[0].xf[0].key_bits, 256);
	assert_int_equal(out.pl[base + 4].type, WIRE_PT_TSR);
	assert_int_equal(out.pl[base + 4].u.ts.ts[0].start[2], 1);
	assert_ptr_equal(wire_find(&out, WIRE_PT_AUTH), &out.pl[base + 1]);
}

/* SK outer: crypto is the identity here; the ranges must line up. */
static void test_sk(void **state)
{
	struct wire_opts sizes = { .iv_len = 16,
				   .icv_len = 16,
				   .block_len = 16 };
	struct wire_emit_info info;
	struct wire_sk_parts parts;
	struct wire_error err;
	struct wbuf plain;
	struct wire_payload *sk;
	uint8_t first = 0;

	wbuf_init(&plain, 0);
	build_inner(&plain, &first, 16);
	assert_int_equal(first, WIRE_PT_IDI);
	start_msg();
	sk = add(WIRE_PT_SK);
	sk->u.sk.inner_type = first;
	sk->u.sk.body_len = 16 + plain.len + 16; /* reserved, filled in place */
	wbuf_reset(&wb);
	assert_int_equal(wire_emit(&in, &wb, &info, &err), 0);
	assert_true(info.has_sk);
	assert_int_equal(info.sk_off, 28);
	assert_int_equal(info.sk_body_off, 32);
	memset(wb.data + info.sk_body_off, 0x77, 16);
	memcpy(wb.data + info.sk_body_off + 16, plain.data, plain.len);
	memset(wb.data + info.sk_body_off + 16 + plain.len, 0x99, 16);

	if (wire_parse(&out, wb.data, wb.len, &sizes, &err))
		fail_msg("parse: %s", err.msg);
	assert_int_equal(out.n, 1);
	assert_int_equal(out.pl[0].u.sk.inner_type, WIRE_PT_IDI);
	assert_int_equal(out.pl[0].u.sk.msg_off, 28);
	assert_int_equal(
		wire_sk_split(&out.pl[0], wb.data, &sizes, &parts, &err), 0);
	assert_int_equal(parts.aad_len, 32);
	assert_int_equal(parts.ct_len, plain.len);
	assert_ptr_equal(parts.iv, wb.data + 32);
	assert_ptr_equal(parts.ct, wb.data + 48);
	assert_ptr_equal(parts.icv, wb.data + 48 + plain.len);
	assert_int_equal(parts.integ_len, wb.len - 16);
	check_inner(parts.ct, parts.ct_len, out.pl[0].u.sk.inner_type);

	/* re-emit the parsed outer message: same bytes */
	wbuf_reset(&wb2);
	assert_int_equal(wire_emit(&out, &wb2, NULL, &err), 0);
	assert_int_equal(wb2.len, wb.len);
	assert_memory_equal(wb2.data, wb.data, wb.len);
	wbuf_free(&plain);
}

static void test_skf(void **state)
{
	struct wire_opts sizes = { .iv_len = 8, .icv_len = 16, .block_len = 1 };
	struct wire_sk_parts parts;
	struct wire_error err;
	struct wbuf plain;
	struct wire_payload *skf;
	uint8_t first = 0, body[512];

	wbuf_init(&plain, 0);
	build_inner(&plain, &first, 1);
	assert_true(8 + plain.len + 16 <= sizeof(body));
	memset(body, 0x77, 8);
	memcpy(body + 8, plain.data, plain.len);
	memset(body + 8 + plain.len, 0x99, 16);
	start_msg();
	skf = add(WIRE_PT_SKF);
	skf->u.sk = (struct wire_sk){ .inner_type = first,
				      .frag_num = 1,
				      .frag_total = 4,
				      .body = body,
				      .body_len = 8 + plain.len + 16 };
	round_trip(&sizes);
	assert_int_equal(out.pl[0].u.sk.frag_num, 1);
	assert_int_equal(out.pl[0].u.sk.frag_total, 4);
	assert_int_equal(out.pl[0].u.sk.inner_type, WIRE_PT_IDI);
	assert_int_equal(out.pl[0].u.sk.hdr_len, 8);
	assert_int_equal(
		wire_sk_split(&out.pl[0], wb.data, &sizes, &parts, &err), 0);
	assert_int_equal(parts.aad_len, 28 + 8);
	check_inner(parts.ct, parts.ct_len, out.pl[0].u.sk.inner_type);

	/* a later fragment carries Next Payload 0 */
	start_msg();
	skf = add(WIRE_PT_SKF);
	skf->u.sk = (struct wire_sk){
		.frag_num = 3, .frag_total = 4, .body = body, .body_len = 40
	};
	round_trip(&sizes);
	assert_int_equal(out.pl[0].u.sk.inner_type, 0);
	assert_int_equal(out.pl[0].u.sk.frag_num, 3);
	wbuf_free(&plain);
}

/* One message with every payload type at once, chained. */
static void test_all_together(void **state)
{
	static const struct wire_transform xf = { .type = IKB_XF_ENCR,
						  .id = 28 };
	static const struct wire_proposal pr = { .num = 1,
						 .protocol = IKB_PROTO_ESP,
						 .spi_size = 4,
						 .n_xf = 1,
						 .xf = &xf };
	static const struct wire_ts ts = { .type = WIRE_TS_IPV4_ADDR_RANGE };
	static const struct wire_cp_attr ca = { .type = 3 };
	unsigned i;
	size_t off;

	start_msg();
	add(WIRE_PT_SA)->u.sa = (struct wire_sa){ 1, &pr };
	add(WIRE_PT_KE)->u.ke = (struct wire_ke){ 31, bytes, 32 };
	add(WIRE_PT_IDI)->u.id = (struct wire_typed){ 11, bytes, 3 };
	add(WIRE_PT_IDR)->u.id = (struct wire_typed){ 13, NULL, 0 };
	add(WIRE_PT_CERT)->u.cert = (struct wire_typed){ 4, bytes, 1 };
	add(WIRE_PT_CERTREQ)->u.certreq = (struct wire_typed){ 4, NULL, 0 };
	add(WIRE_PT_AUTH)->u.auth = (struct wire_typed){ 14, bytes, 8 };
	add(WIRE_PT_NONCE)->u.nonce = (struct wire_opaque){ bytes, 64 };
	add(WIRE_PT_NOTIFY)->u.notify =
		(struct wire_notify){ .type = WIRE_N_INITIAL_CONTACT };
	add(WIRE_PT_DELETE)->u.del =
		(struct wire_delete){ IKB_PROTO_AH, 4, 1, bytes };
	add(WIRE_PT_VID)->u.vid = (struct wire_opaque){ bytes, 1 };
	add(WIRE_PT_TSI)->u.ts = (struct wire_ts_pld){ 1, &ts };
	add(WIRE_PT_TSR)->u.ts = (struct wire_ts_pld){ 1, &ts };
	add(WIRE_PT_CP)->u.cp = (struct wire_cp){ 1, 1, &ca };
	add(WIRE_PT_EAP)->u.raw = (struct wire_opaque){ bytes, 4 };
	add(WIRE_PT_GSPM)->u.raw = (struct wire_opaque){ NULL, 0 };
	add(WIRE_PT_SK)->u.sk = (struct wire_sk){ .inner_type = WIRE_PT_NONE,
						  .body = bytes,
						  .body_len = 33 };
	round_trip(NULL);
	/* each generic header names the next payload's type */
	for (i = 0, off = WIRE_HDR_LEN; i + 1 < in.n; i++) {
		assert_int_equal(wb.data[off], in.pl[i + 1].type);
		off += (size_t)(wb.data[off + 2] << 8 | wb.data[off + 3]);
	}
	assert_int_equal(out.hdr.next_payload, WIRE_PT_SA);
	assert_ptr_equal(wire_find(&out, WIRE_PT_SK), &out.pl[in.n - 1]);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sa),
		cmocka_unit_test(test_ke),
		cmocka_unit_test(test_id),
		cmocka_unit_test(test_cert_certreq),
		cmocka_unit_test(test_auth),
		cmocka_unit_test(test_nonce),
		cmocka_unit_test(test_notify),
		cmocka_unit_test(test_delete),
		cmocka_unit_test(test_vid),
		cmocka_unit_test(test_ts),
		cmocka_unit_test(test_cp),
		cmocka_unit_test(test_eap_and_unknown),
		cmocka_unit_test(test_sk),
		cmocka_unit_test(test_skf),
		cmocka_unit_test(test_all_together),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
