// SPDX-License-Identifier: GPL-2.0-or-later
/* A strongSwan-style IKE_SA_INIT request, parsed with every field checked. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "wire/wire.h"
#include "samples.h"

static struct wire_msg msg;
static uint8_t buf[512];
static size_t len;

static int setup(void **state)
{
	struct wire_error err;

	len = wire_hex(buf, sizeof(buf), wire_sample_sa_init_hex);
	if (len != WIRE_SAMPLE_SA_INIT_LEN)
		return -1;
	return wire_parse(&msg, buf, len, NULL, &err);
}

static void test_header(void **state)
{
	static const uint8_t spi_i[8] = { 0x5a, 0x3c, 0x9e, 0x1f,
					  0x00, 0x7b, 0x22, 0x41 };
	static const uint8_t zero[8];

	assert_memory_equal(msg.hdr.spi_i, spi_i, 8);
	assert_memory_equal(msg.hdr.spi_r, zero, 8);
	assert_int_equal(msg.hdr.next_payload, WIRE_PT_SA);
	assert_int_equal(msg.hdr.major, 2);
	assert_int_equal(msg.hdr.minor, 0);
	assert_int_equal(msg.hdr.exchange, WIRE_EXCH_IKE_SA_INIT);
	assert_int_equal(msg.hdr.flags, WIRE_FLAG_I);
	assert_int_equal(msg.hdr.msgid, 0);
	assert_int_equal(msg.hdr.length, 340);
	assert_int_equal(msg.n, 8);
}

static void assert_xf(const struct wire_transform *xf, uint8_t type,
		      uint16_t id, uint16_t key_bits)
{
	assert_int_equal(xf->type, type);
	assert_int_equal(xf->id, id);
	assert_int_equal(xf->key_bits, key_bits);
	assert_false(xf->unknown_attr);
}

static void test_sa(void **state)
{
	const struct wire_payload *p = &msg.pl[0];
	const struct wire_proposal *pr;

	assert_int_equal(p->type, WIRE_PT_SA);
	assert_false(p->critical);
	assert_int_equal(p->u.sa.n_prop, 2);
	pr = &p->u.sa.prop[0];
	assert_int_equal(pr->num, 1);
	assert_int_equal(pr->protocol, IKB_PROTO_IKE);
	assert_int_equal(pr->spi_size, 0);
	assert_int_equal(pr->n_xf, 5);
	assert_false(pr->unknown_type);
	assert_xf(&pr->xf[0], IKB_XF_ENCR, 12, 128);
	assert_xf(&pr->xf[1], IKB_XF_ENCR, 12, 256);
	assert_xf(&pr->xf[2], IKB_XF_INTEG, 12, 0);
	assert_xf(&pr->xf[3], IKB_XF_PRF, 5, 0);
	assert_xf(&pr->xf[4], IKB_XF_KE, 19, 0);
	pr = &p->u.sa.prop[1];
	assert_int_equal(pr->num, 2);
	assert_int_equal(pr->protocol, IKB_PROTO_IKE);
	assert_int_equal(pr->n_xf, 4);
	assert_xf(&pr->xf[0], IKB_XF_ENCR, 20, 256);
	assert_xf(&pr->xf[1], IKB_XF_PRF, 7, 0);
	assert_xf(&pr->xf[2], IKB_XF_KE, 19, 0);
	assert_xf(&pr->xf[3], IKB_XF_KE, 31, 0);
	assert_string_equal(wire_xform_id_name(IKB_XF_ENCR, pr->xf[0].id),
			    "AES_GCM_16");
	assert_string_equal(wire_xform_id_name(IKB_XF_KE, pr->xf[3].id),
			    "CURVE25519");
}

static void test_sa_to_proposals(void **state)
{
	struct ikb_proposal_list pl;
	uint8_t nums[IKB_PROPOSALS_MAX];

	assert_int_equal(wire_sa_to_proposals(&msg.pl[0].u.sa, &pl, nums), 2);
	assert_int_equal(pl.p[0].protocol, IKB_PROTO_IKE);
	assert_int_equal(pl.p[0].n, 5);
	assert_int_equal(pl.p[0].xf[1].key_bits, 256);
	assert_int_equal(pl.p[1].n, 4);
	assert_int_equal(nums[0], 1);
	assert_int_equal(nums[1], 2);
}

static void test_ke_nonce(void **state)
{
	const struct wire_payload *ke = wire_find(&msg, WIRE_PT_KE);
	const struct wire_payload *ni = wire_find(&msg, WIRE_PT_NONCE);
	uint8_t x[32];

	assert_ptr_equal(ke, &msg.pl[1]);
	assert_int_equal(ke->u.ke.group, 19);
	assert_int_equal(ke->u.ke.len, 64);
	/* data points into the datagram: lifetime is the buffer's */
	assert_ptr_equal(ke->u.ke.data, buf + 28 + 104 + 8);
	memset(x, 0x04, 32);
	assert_memory_equal(ke->u.ke.data, x, 32);
	memset(x, 0xa5, 32);
	assert_memory_equal(ke->u.ke.data + 32, x, 32);
	assert_ptr_equal(ni, &msg.pl[2]);
	assert_int_equal(ni->u.nonce.len, 32);
	memset(x, 0x5e, 32);
	assert_memory_equal(ni->u.nonce.data, x, 32);
}

static void test_notifies(void **state)
{
	static const uint16_t want[] = {
		WIRE_N_NAT_DETECTION_SOURCE_IP,
		WIRE_N_NAT_DETECTION_DESTINATION_IP,
		WIRE_N_IKEV2_FRAGMENTATION_SUPPORTED,
		WIRE_N_SIGNATURE_HASH_ALGORITHMS,
	};
	static const uint8_t sha[] = { 0, 2, 0, 3, 0, 4, 0, 5 };
	const struct wire_payload *p = NULL;
	const struct wire_notify *n;
	uint8_t x[20];
	unsigned i = 0;

	while ((p = wire_next_notify(&msg, p))) {
		assert_true(i < 4);
		assert_int_equal(p->u.notify.type, want[i]);
		assert_int_equal(p->u.notify.protocol, 0);
		assert_int_equal(p->u.notify.spi_size, 0);
		assert_false(wire_notify_is_error(p->u.notify.type));
		i++;
	}
	assert_int_equal(i, 4);
	n = wire_find_notify(&msg, WIRE_N_NAT_DETECTION_SOURCE_IP);
	assert_non_null(n);
	memset(x, 0x11, 20);
	assert_int_equal(n->len, 20);
	assert_memory_equal(n->data, x, 20);
	n = wire_find_notify(&msg, WIRE_N_NAT_DETECTION_DESTINATION_IP);
	memset(x, 0x22, 20);
	assert_memory_equal(n->data, x, 20);
	n = wire_find_notify(&msg, WIRE_N_IKEV2_FRAGMENTATION_SUPPORTED);
	assert_int_equal(n->len, 0);
	assert_null(n->data);
	n = wire_find_notify(&msg, WIRE_N_SIGNATURE_HASH_ALGORITHMS);
	assert_int_equal(n->len, 8);
	assert_memory_equal(n->data, sha, 8);
	assert_null(wire_find_notify(&msg, WIRE_N_COOKIE));
	assert_string_equal(wire_notify_name(n->type),
			    "SIGNATURE_HASH_ALGORITHMS");
}

static void test_vendor_id(void **state)
{
	const struct wire_payload *v = wire_find(&msg, WIRE_PT_VID);

	assert_ptr_equal(v, &msg.pl[7]);
	assert_int_equal(v->u.vid.len, 16);
	assert_memory_equal(
		v->u.vid.data,
		"\x88\x2f\xe5\x6d\x6f\xd2\x0d\xbc\x22\x86\x51\x9e\x6c\x56\x37\x8e",
		16);
}

/* Emitting what was parsed gives the datagram back, byte for byte. */
static void test_reemit_identical(void **state)
{
	struct wire_error err;
	struct wbuf out;

	wbuf_init(&out, 0);
	assert_int_equal(wire_emit(&msg, &out, NULL, &err), 0);
	assert_int_equal(out.len, len);
	assert_memory_equal(out.data, buf, len);
	wbuf_free(&out);
}

/* Every strict prefix of the datagram is rejected, none crashes. */
static void test_every_truncation(void **state)
{
	static struct wire_msg m;
	struct wire_error err;
	size_t cut;

	for (cut = 0; cut < len; cut++) {
		uint8_t copy[512];

		memcpy(copy, buf, cut);
		if (cut >= 28) { /* keep the header length honest */
			copy[26] = (uint8_t)(cut >> 8);
			copy[27] = (uint8_t)cut;
		}
		assert_int_equal(wire_parse(&m, copy, cut, NULL, &err),
				 -EBADMSG);
		assert_true(err.msg[0] != '\0');
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_header),
		cmocka_unit_test(test_sa),
		cmocka_unit_test(test_sa_to_proposals),
		cmocka_unit_test(test_ke_nonce),
		cmocka_unit_test(test_notifies),
		cmocka_unit_test(test_vendor_id),
		cmocka_unit_test(test_reemit_identical),
		cmocka_unit_test(test_every_truncation),
	};

	return cmocka_run_group_tests(tests, setup, NULL);
}
