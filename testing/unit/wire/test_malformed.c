// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Malformed input: each case is one datagram and the exact sentence the
 * codec must reject it with, naming the payload and the field.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "wire/wire.h"
#include "samples.h"

struct bad_case {
	const char *name;
	uint8_t np; /* header Next Payload */
	const char *hex; /* the chain after the header */
	const char *want; /* exact error text */
	uint16_t notify; /* INVALID_SYNTAX when 0 and not raw */
	const char *raw; /* whole datagram instead of header + chain */
	int hdr_adj; /* added to the header length field */
	unsigned repeat; /* hex repeated this many times */
	uint8_t flags; /* header flags, WIRE_FLAG_I when 0 */
	struct wire_opts opts;
};

#define HDR "5a3c9e1f007b2241 0000000000000000 "
/* a valid ESP transform list: ENCR AES_GCM_16 256, last ESN */
#define XF_GCM "03 00 000c 01 00 0014 800e0100 "
#define XF_ESN_LAST "00 00 0008 05 00 0000 "
#define NTF "29"

static const struct bad_case cases[] = {
	/* IKE header */
	{ "truncated header", .raw = "5a3c9e1f007b2241 00*19",
	  .want = "IKE header: datagram of 27 bytes is shorter than the IKE header (28)" },
	{ "major version 3", .raw = HDR "00 30 22 08 00000000 0000001c",
	  .want = "IKE header: major version 3 is not 2",
	  .notify = WIRE_N_INVALID_MAJOR_VERSION },
	{ "IKEv1 major version", .raw = HDR "00 10 22 08 00000000 0000001c",
	  .want = "IKE header: major version 1 is not 2" },
	{ "initiator SPI zero",
	  .raw = "0000000000000000 0000000000000000 00 20 22 08 00000000 0000001c",
	  .want = "IKE header: initiator SPI is zero" },
	{ "length beyond datagram", .np = 0, .hex = "", .hdr_adj = 4,
	  .want = "IKE header: length 32 does not match datagram 28" },
	{ "length short of datagram", .np = 43, .hex = "00 00 0008 01020304",
	  .hdr_adj = -4,
	  .want = "IKE header: length 32 does not match datagram 36" },
	/* the payload chain */
	{ "zero payload length", .np = 43, .hex = "00 00 0000 01020304",
	  .want = "Vendor ID payload: length 0 is shorter than the generic header (4)" },
	{ "payload overrunning", .np = 40, .hex = "00 00 0020 5e*16",
	  .want = "Nonce payload: length 32 exceeds remaining 20" },
	{ "truncated generic header", .np = 40, .hex = "00 00",
	  .want = "Nonce payload: 2 bytes left, need 4 for the generic header" },
	{ "next payload past the end", .np = 40, .hex = "22 00 0014 5e*16",
	  .want = "KE payload: announced by the previous Next Payload, but the message ends" },
	{ "trailing bytes", .np = 40, .hex = "00 00 0014 5e*16 0000",
	  .want = "payload chain: 2 bytes after the last payload" },
	{ "next-payload loop", .np = 200, .hex = "c8 00 0004 ", .repeat = 65,
	  .want = "payload type 200: too many payloads (more than 64)" },
	{ "unknown critical payload", .np = 200, .hex = "00 80 0004",
	  .want = "payload type 200: critical payload type 200 not supported",
	  .notify = WIRE_N_UNSUPPORTED_CRITICAL_PAYLOAD },
	{ "SK not last", .np = 46,
	  .hex = "23 00 0008 aabbccdd 00 00 0008 01020304",
	  .want = "SK payload: length 8 leaves 8 bytes after it, but it must be the last payload" },
	/* SA */
	{ "SA without proposals", .np = 33, .hex = "00 00 0004",
	  .want = "SA payload: no proposals" },
	{ "proposal header truncated", .np = 33,
	  .hex = "00 00 000a 00 00 0008 01 03",
	  .want = "SA payload: proposal 1: 6 bytes left, need 8" },
	{ "proposal length below header", .np = 33,
	  .hex = "00 00 000c 00 00 0006 01 03 04 01",
	  .want = "SA payload: proposal 1: length 6 is shorter than the proposal header (8)" },
	{ "proposal length beyond SA", .np = 33,
	  .hex = "00 00 0014 00 00 0030 01 01 00 01 00 00 0008 01 00 000c",
	  .want = "SA payload: proposal 1: length 48 exceeds SA payload remaining 16" },
	{ "proposal last substruc, none follow", .np = 33,
	  .hex = "00 00 0014 02 00 0010 01 01 00 01 00 00 0008 01 00 000c",
	  .want = "SA payload: proposal 1: Last Substruc 2, but 0 bytes follow" },
	{ "proposal last substruc invalid", .np = 33,
	  .hex = "00 00 0014 05 00 0010 01 01 00 01 00 00 0008 01 00 000c",
	  .want = "SA payload: proposal 1: Last Substruc 5 is neither 0 nor 2" },
	{ "proposal number 0", .np = 33,
	  .hex = "00 00 0014 00 00 0010 00 01 00 01 00 00 0008 01 00 000c",
	  .want = "SA payload: proposal 1: number 0" },
	{ "proposal numbers skip", .np = 33,
	  .hex = "00 00 0024 02 00 0010 01 01 00 01 00 00 0008 01 00 000c "
		 "00 00 0010 03 01 00 01 00 00 0008 01 00 000c",
	  .want = "SA payload: proposal 2: number 3 does not follow 1" },
	{ "request not starting at proposal 1", .np = 33,
	  .hex = "00 00 0014 00 00 0010 02 01 00 01 00 00 0008 01 00 000c",
	  .want = "SA payload: proposal 1: number 2, a request starts at 1" },
	{ "response with two proposals", .np = 33, .flags = WIRE_FLAG_R,
	  .hex = "00 00 0024 02 00 0010 04 01 00 01 00 00 0008 01 00 000c "
		 "00 00 0010 05 01 00 01 00 00 0008 01 00 000c",
	  .want = "SA payload: 2 proposals in a response, must be 1" },
	{ "ESP SPI size 8", .np = 33,
	  .hex = "00 00 001c 00 00 0018 01 03 08 01 11*8 00 00 0008 01 00 000c",
	  .want = "SA payload: proposal 1: SPI size 8 invalid for protocol 3" },
	{ "SPI beyond proposal", .np = 33,
	  .hex = "00 00 000c 00 00 0008 01 03 04 01",
	  .want = "SA payload: proposal 1: SPI size 4 exceeds proposal length 8" },
	{ "no transforms", .np = 33,
	  .hex = "00 00 0010 00 00 000c 01 03 04 00 deadbeef",
	  .want = "SA payload: proposal 1: no transforms" },
	{ "too many transforms", .np = 33,
	  .hex = "00 00 0014 00 00 0010 01 01 00 41 00 00 0008 01 00 000c",
	  .want = "SA payload: proposal 1: 65 transforms (max 64)" },
	{ "transform overruns proposal", .np = 33,
	  .hex = "00 00 0040 "
		 "02 00 0014 01 03 04 01 deadbeef " XF_ESN_LAST
		 "00 00 0028 02 03 04 03 deadbeef " XF_GCM
		 "03 00 0008 03 00 000c "
		 "00 00 000c 05 00 0000",
	  .want = "SA payload: proposal 2: transform 3: length 12 exceeds proposal remaining 8" },
	{ "transform length below header", .np = 33,
	  .hex = "00 00 0014 00 00 0010 01 01 00 01 00 00 0006 01 00 000c",
	  .want = "SA payload: proposal 1: transform 1: length 6 is shorter than the transform header (8)" },
	{ "transform last substruc early", .np = 33,
	  .hex = "00 00 001c 00 00 0018 01 01 00 02 "
		 "00 00 0008 01 00 000c 00 00 0008 02 00 0005",
	  .want = "SA payload: proposal 1: transform 1: Last Substruc 0, but Num Transforms is 2" },
	{ "transform last substruc invalid", .np = 33,
	  .hex = "00 00 0014 00 00 0010 01 01 00 01 02 00 0008 01 00 000c",
	  .want = "SA payload: proposal 1: transform 1: Last Substruc 2 is neither 0 nor 3" },
	{ "fewer transforms than announced", .np = 33,
	  .hex = "00 00 001c 00 00 0018 01 01 00 03 "
		 "03 00 0008 01 00 000c 03 00 0008 02 00 0005",
	  .want = "SA payload: proposal 1: transform 3 of 3: 0 bytes left in proposal, need 8" },
	{ "more transforms than announced", .np = 33,
	  .hex = "00 00 001c 00 00 0018 01 01 00 01 "
		 "00 00 0008 01 00 000c 00 00 0008 02 00 0005",
	  .want = "SA payload: proposal 1: 8 bytes after the last of 1 transforms" },
	{ "key length in TLV format", .np = 33,
	  .hex = "00 00 001a 00 00 0016 01 01 00 01 00 00 000e 01 00 000c 000e 0002 0080",
	  .want = "SA payload: proposal 1: transform 1: attribute 1: Key Length in TLV format, must be TV" },
	{ "attribute overruns transform", .np = 33,
	  .hex = "00 00 0018 00 00 0014 01 01 00 01 00 00 000c 01 00 000c 0001 0010",
	  .want = "SA payload: proposal 1: transform 1: attribute 1: length 16 exceeds transform remaining 0" },
	{ "attribute truncated", .np = 33,
	  .hex = "00 00 0016 00 00 0012 01 01 00 01 00 00 000a 01 00 000c 800e",
	  .want = "SA payload: proposal 1: transform 1: attribute 1: 2 bytes left, need 4" },
	{ "key length 0", .np = 33,
	  .hex = "00 00 0018 00 00 0014 01 01 00 01 00 00 000c 01 00 000c 800e0000",
	  .want = "SA payload: proposal 1: transform 1: attribute 1: Key Length 0" },
	{ "duplicate key length", .np = 33,
	  .hex = "00 00 001c 00 00 0018 01 01 00 01 00 00 0010 01 00 000c 800e0080 800e0100",
	  .want = "SA payload: proposal 1: transform 1: attribute 2: duplicate Key Length" },
	/* KE */
	{ "KE too short", .np = 34, .hex = "00 00 0006 0013",
	  .want = "KE payload: body 2 bytes, need 4 for group and reserved" },
	{ "KE group 0", .np = 34, .hex = "00 00 000c 0000 0000 01020304",
	  .want = "KE payload: group 0 is reserved" },
	{ "KE without data", .np = 34, .hex = "00 00 0008 000e 0000",
	  .want = "KE payload: key exchange data is empty" },
	{ "KE data short for group 19", .np = 34,
	  .hex = "00 00 0047 0013 0000 04*63",
	  .want = "KE payload: key exchange data 63 bytes, group 19 needs 64" },
	/* ID */
	{ "ID empty", .np = 35, .hex = "00 00 0008 02 000000",
	  .want = "IDi payload: identification data is empty" },
	{ "ID body short", .np = 36, .hex = "00 00 0006 02 00",
	  .want = "IDr payload: body 2 bytes, need 4 for ID type and reserved" },
	{ "ID type unknown", .np = 35, .hex = "00 00 000c 04 000000 0a000001",
	  .want = "IDi payload: ID type 4 unknown" },
	{ "ID IPv4 length", .np = 36, .hex = "00 00 000d 01 000000 0a00000101",
	  .want = "IDr payload: ID_IPV4_ADDR with 5 bytes of data, needs 4" },
	{ "ID_NULL with data", .np = 35, .hex = "00 00 0009 0d 000000 00",
	  .want = "IDi payload: ID_NULL with 1 bytes of data" },
	/* CERT, CERTREQ, AUTH */
	{ "CERT without data", .np = 37, .hex = "00 00 0005 04",
	  .want = "CERT payload: certificate data is empty" },
	{ "CERTREQ hash list", .np = 38, .hex = "00 00 0018 04 ab*19",
	  .want = "CERTREQ payload: certification authority: 19 bytes is not a multiple of 20 (SHA-1 hashes)" },
	{ "AUTH without data", .np = 39, .hex = "00 00 0008 02 000000",
	  .want = "AUTH payload: authentication data is empty" },
	{ "AUTH signature algorithm overrun", .np = 39,
	  .hex = "00 00 0010 0e 000000 0f 300d0609 2a864886",
	  .want = "AUTH payload: AlgorithmIdentifier length 15 leaves no signature in 8 bytes" },
	/* Nonce */
	{ "nonce too short", .np = 40, .hex = "00 00 0013 5e*15",
	  .want = "Nonce payload: nonce 15 bytes, must be 16 to 256" },
	{ "nonce too long", .np = 40, .hex = "00 00 0105 5e*257",
	  .want = "Nonce payload: nonce 257 bytes, must be 16 to 256" },
	/* Notify */
	{ "notify body short", .np = 41, .hex = "00 00 0007 00 00 40",
	  .want = "Notify payload: body 3 bytes, need 4 for protocol, SPI size and type" },
	{ "notify SPI beyond payload", .np = 41,
	  .hex = "00 00 000a 03 04 4009 c0a8",
	  .want = "Notify payload: SPI size 4 exceeds payload remaining 2" },
	{ "notify SPI size for IKE", .np = 41,
	  .hex = "00 00 000c 01 04 4000 c0a80101",
	  .want = "Notify payload: SPI size 4 inconsistent with protocol 1" },
	{ "notify ESP SPI size 8", .np = 41,
	  .hex = "00 00 0010 03 08 000b 11*8",
	  .want = "Notify payload: SPI size 8 inconsistent with protocol 3" },
	{ "NAT detection hash length", .np = 41,
	  .hex = "00 00 001b 00 00 4004 11*19",
	  .want = "Notify payload: NAT_DETECTION_SOURCE_IP: data 19 bytes, must be 20 (SHA-1)" },
	{ "fragmentation supported with data", .np = 41,
	  .hex = "00 00 0009 00 00 402e 01",
	  .want = "Notify payload: IKEV2_FRAGMENTATION_SUPPORTED: data 1 bytes, must be empty" },
	{ "cookie too long", .np = 41, .hex = "00 00 0049 00 00 4006 c0*65",
	  .want = "Notify payload: COOKIE: data 65 bytes, must be 1 to 64" },
	{ "REKEY_SA without SPI", .np = 41, .hex = "00 00 0008 03 00 4009",
	  .want = "Notify payload: REKEY_SA: SPI size 0, must be 4" },
	/* Delete */
	{ "delete SPI count mismatch", .np = 42,
	  .hex = "00 00 000c 03 04 0002 deadbeef",
	  .want = "Delete payload: SPI size 4 x count 2 = 8 does not match remaining 4" },
	{ "delete IKE with SPI", .np = 42, .hex = "00 00 0010 01 08 0001 11*8",
	  .want = "Delete payload: IKE SA delete with SPI size 8 and count 1, both must be 0" },
	{ "delete ESP count 0", .np = 42, .hex = "00 00 0008 03 04 0000",
	  .want = "Delete payload: SPI count 0" },
	{ "delete unknown protocol", .np = 42,
	  .hex = "00 00 000c 09 04 0001 deadbeef",
	  .want = "Delete payload: protocol 9 unknown" },
	/* TS */
	{ "TS count 0", .np = 44, .hex = "00 00 0008 00 000000",
	  .want = "TSi payload: number of TSs is 0" },
	{ "TS count too large", .np = 45, .hex = "00 00 0008 11 000000",
	  .want = "TSr payload: number of TSs 17 exceeds 16" },
	{ "TS IPv4 length 40", .np = 44,
	  .hex = "00 00 0030 01 000000 07 00 0028 0000 ffff 0a000000 0a0000ff 00*24",
	  .want = "TSi payload: selector 1: length 40, TS_IPV4_ADDR_RANGE needs 16" },
	{ "TS IPv6 length 16", .np = 44,
	  .hex = "00 00 0018 01 000000 08 00 0010 0000 ffff 20010db8 2001ffff",
	  .want = "TSi payload: selector 1: length 16, TS_IPV6_ADDR_RANGE needs 40" },
	{ "TS fewer selectors than count", .np = 44,
	  .hex = "00 00 0018 02 000000 07 00 0010 0000 ffff 0a000000 0a0000ff",
	  .want = "TSi payload: selector 2 of 2: 0 bytes left, need 8" },
	{ "TS selector overruns", .np = 44,
	  .hex = "00 00 0014 01 000000 07 00 0010 0000 ffff 0a000000",
	  .want = "TSi payload: selector 1: length 16 exceeds payload remaining 12" },
	{ "TS type unknown", .np = 44,
	  .hex = "00 00 0018 01 000000 09 00 0010 0000 ffff 0a000000 0a0000ff",
	  .want = "TSi payload: selector 1: TS type 9 unknown" },
	{ "TS bytes after selectors", .np = 44,
	  .hex = "00 00 001c 01 000000 07 00 0010 0000 ffff 0a000000 0a0000ff 00000000",
	  .want = "TSi payload: 4 bytes after 1 selectors" },
	/* SK and SKF */
	{ "SK empty", .np = 46, .hex = "23 00 0004",
	  .want = "SK payload: body is empty" },
	{ "SK without room for IV and ICV", .np = 46, .hex = "23 00 0018 77*20",
	  .opts = { .iv_len = 16, .icv_len = 16 },
	  .want = "SK payload: body 20 bytes, no room for IV 16, ICV 16 and ciphertext" },
	{ "SK ciphertext not whole blocks", .np = 46, .hex = "23 00 0030 77*44",
	  .opts = { .iv_len = 16, .icv_len = 16, .block_len = 16 },
	  .want = "SK payload: ciphertext 12 bytes is not a multiple of the block size 16" },
	{ "SKF fragment number 0", .np = 53,
	  .hex = "23 00 0018 0000 0002 77*16",
	  .want = "SKF payload: Fragment Number 0" },
	{ "SKF fragment number above total", .np = 53,
	  .hex = "00 00 0018 0003 0002 77*16",
	  .want = "SKF payload: Fragment Number 3 exceeds Total Fragments 2" },
	{ "SKF total 0", .np = 53, .hex = "23 00 0018 0001 0000 77*16",
	  .want = "SKF payload: Total Fragments 0" },
	{ "SKF next payload in later fragment", .np = 53,
	  .hex = "23 00 0018 0002 0002 77*16",
	  .want = "SKF payload: Next Payload 35 in fragment 2, must be 0 after the first" },
	{ "SKF header truncated", .np = 53, .hex = "23 00 0007 000100",
	  .want = "SKF payload: body 3 bytes, need 4 for Fragment Number and Total Fragments" },
	/* CP */
	{ "CP type unknown", .np = 47, .hex = "00 00 0008 05 000000",
	  .want = "CP payload: CFG Type 5 unknown" },
	{ "CP IPv4 address length", .np = 47,
	  .hex = "00 00 000f 01 000000 0001 0003 0a0000",
	  .want = "CP payload: attribute 1: type 1 length 3, must be 0 or 4" },
	{ "CP attribute overrun", .np = 47,
	  .hex = "00 00 000e 02 000000 0007 0010 6162",
	  .want = "CP payload: attribute 1: length 16 exceeds payload remaining 2" },
};

static size_t build(const struct bad_case *bc, uint8_t *buf, size_t cap)
{
	char hdr[128];
	size_t n, chain;
	unsigned i, rep = bc->repeat ? bc->repeat : 1;

	if (bc->raw)
		return wire_hex(buf, cap, bc->raw);
	snprintf(hdr, sizeof(hdr), HDR "%02x 20 22 %02x 00000000 00000000",
		 bc->np, bc->flags ? bc->flags : WIRE_FLAG_I);
	n = wire_hex(buf, cap, hdr);
	assert_int_equal(n, WIRE_HDR_LEN);
	for (i = 0; i < rep; i++) {
		chain = wire_hex(buf + n, cap - n, bc->hex);
		assert_true(chain > 0 || bc->hex[0] == '\0');
		n += chain;
	}
	uint32_t l = (uint32_t)((long)n + bc->hdr_adj);

	buf[24] = (uint8_t)(l >> 24);
	buf[25] = (uint8_t)(l >> 16);
	buf[26] = (uint8_t)(l >> 8);
	buf[27] = (uint8_t)l;
	return n;
}

static void test_malformed_table(void **state)
{
	static struct wire_msg msg;
	uint8_t buf[2048];
	size_t i, failed = 0;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const struct bad_case *bc = &cases[i];
		struct wire_error err;
		size_t len = build(bc, buf, sizeof(buf));
		uint16_t want_notify = bc->notify;
		int r;

		assert_true(len > 0);
		r = wire_parse(&msg, buf, len, &bc->opts, &err);
		if (!bc->notify && !bc->raw &&
		    strncmp(bc->want, "IKE header", 10))
			want_notify = WIRE_N_INVALID_SYNTAX;
		if (r != -EBADMSG || strcmp(err.msg, bc->want) ||
		    err.notify != want_notify) {
			print_error(
				"case '%s': r=%d notify=%u\n  got:  %s\n  want: %s\n",
				bc->name, r, err.notify, err.msg, bc->want);
			failed++;
		}
		assert_true(strncmp(err.msg, err.payload,
				    strlen(err.payload)) == 0);
		assert_true(err.field[0] != '\0');
	}
	assert_int_equal(failed, 0);
	assert_true(sizeof(cases) / sizeof(cases[0]) >= 40);
}

static void test_unsupported_critical_info(void **state)
{
	static struct wire_msg msg;
	struct wire_error err;
	uint8_t buf[256];
	size_t n = wire_hex(buf, sizeof(buf),
			    HDR "28 20 22 08 00000000 00000034 "
				"c9 00 0014 5e*16 00 80 0004");

	assert_int_equal(n, 52);
	assert_int_equal(wire_parse(&msg, buf, n, NULL, &err), -EBADMSG);
	assert_int_equal(err.notify, WIRE_N_UNSUPPORTED_CRITICAL_PAYLOAD);
	assert_true(err.has_notify_data);
	assert_int_equal(err.notify_data, 201);
	assert_string_equal(err.payload, "payload type 201");
	assert_string_equal(err.field, "critical");
}

static void test_unknown_noncritical_skipped(void **state)
{
	static struct wire_msg msg;
	struct wire_error err;
	uint8_t buf[256];
	size_t n = wire_hex(
		buf, sizeof(buf),
		HDR "28 20 22 08 00000000 0000003d "
		    "c9 00 0014 5e*16 2b 00 0008 cafebabe 00 00 0005 01");

	assert_int_equal(n, 61);
	assert_int_equal(wire_parse(&msg, buf, n, NULL, &err), 0);
	assert_int_equal(msg.n, 3);
	assert_int_equal(msg.pl[1].type, 201);
	assert_false(msg.pl[1].known);
	assert_int_equal(msg.pl[1].u.raw.len, 4);
	assert_memory_equal(msg.pl[1].u.raw.data, "\xca\xfe\xba\xbe", 4);
	/* skipped payloads are not returned by the lookups */
	assert_null(wire_find(&msg, 201));
	assert_non_null(wire_find(&msg, WIRE_PT_VID));
}

static void test_sk_inside_sk(void **state)
{
	static struct wire_msg msg;
	struct wire_error err;
	uint8_t plain[64];
	/* inner chain: SK payload, then the Pad Length octet 0 */
	size_t n = wire_hex(plain, sizeof(plain), "00 00 0008 01020304 00");

	msg.n = 0;
	assert_int_equal(wire_parse_inner(&msg, plain, n, WIRE_PT_SK, &err),
			 -EBADMSG);
	assert_string_equal(
		err.msg, "SK payload: not allowed inside an encrypted payload");
}

/* The same chain without padding: what sk_open() hands over. */
static void test_payloads_unpadded(void **state)
{
	static struct wire_msg msg;
	struct wire_error err;
	uint8_t plain[64];
	/* a Nonce of 16 bytes, nothing after it */
	size_t n = wire_hex(plain, sizeof(plain),
			    "00 00 0014 00112233445566778899aabbccddeeff");

	msg.n = 0;
	assert_int_equal(
		wire_parse_payloads(&msg, plain, n, WIRE_PT_NONCE, &err), 0);
	assert_int_equal(msg.n, 1);
	assert_true(msg.pl[0].inner);
	assert_int_equal(msg.pl[0].u.nonce.len, 16);
	/* one byte more is a truncated payload, not padding */
	msg.n = 0;
	assert_int_equal(
		wire_parse_payloads(&msg, plain, n + 1, WIRE_PT_NONCE, &err),
		-EBADMSG);
	msg.n = 0;
	assert_int_equal(wire_parse_payloads(&msg, plain, n, WIRE_PT_SK, &err),
			 -EBADMSG);
}

static void test_bad_pad_length(void **state)
{
	static struct wire_msg msg;
	struct wire_error err;
	uint8_t plain[8] = { 1, 2, 3, 9 };

	msg.n = 0;
	assert_int_equal(wire_parse_inner(&msg, plain, 4, WIRE_PT_NONE, &err),
			 -EBADMSG);
	assert_string_equal(err.msg,
			    "SK payload: Pad Length 9 exceeds plaintext 3");
	assert_int_equal(wire_parse_inner(&msg, plain, 0, WIRE_PT_NONE, &err),
			 -EBADMSG);
	assert_string_equal(err.msg,
			    "SK payload: plaintext is empty, no Pad Length");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_malformed_table),
		cmocka_unit_test(test_unsupported_critical_info),
		cmocka_unit_test(test_unknown_noncritical_skipped),
		cmocka_unit_test(test_sk_inside_sk),
		cmocka_unit_test(test_bad_pad_length),
		cmocka_unit_test(test_payloads_unpadded),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
