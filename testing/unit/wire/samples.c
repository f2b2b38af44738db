// SPDX-License-Identifier: GPL-2.0-or-later
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "samples.h"

static int nibble(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	c = (char)tolower((unsigned char)c);
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	return -1;
}

size_t wire_hex(uint8_t *out, size_t cap, const char *hex)
{
	size_t n = 0;
	const char *p = hex;

	while (*p) {
		int hi, lo;

		if (*p == ' ' || *p == '\n' || *p == '\t') {
			p++;
			continue;
		}
		hi = nibble(p[0]);
		lo = hi < 0 ? -1 : nibble(p[1]);
		if (lo < 0)
			return 0;
		p += 2;
		if (*p == '*') {
			char *end;
			unsigned long rep = strtoul(p + 1, &end, 10);

			if (end == p + 1 || rep > cap - n)
				return 0;
			memset(out + n, hi << 4 | lo, rep);
			n += rep;
			p = end;
			continue;
		}
		if (n == cap)
			return 0;
		out[n++] = (uint8_t)(hi << 4 | lo);
	}
	return n;
}

/*
 * IKE_SA_INIT request as strongSwan sends it: two IKE proposals, KE group
 * 19, a 32-byte nonce, both NAT detection notifies, fragmentation and
 * signature hash algorithm support, a vendor ID.
 */
const char wire_sample_sa_init_hex[] =
	/* IKE header: SPIi, SPIr 0, next SA, 2.0, IKE_SA_INIT, I, id 0, 340 */
	"5a3c9e1f007b2241 0000000000000000 21 20 22 08 00000000 00000154 "
	/* SA, next KE, length 104 */
	"22 00 0068 "
	/* proposal 1: more follow, length 56, #1 IKE, no SPI, 5 transforms */
	"02 00 0038 01 01 00 05 "
	"03 00 000c 01 00 000c 800e0080 " /* ENCR AES_CBC 128 */
	"03 00 000c 01 00 000c 800e0100 " /* ENCR AES_CBC 256 */
	"03 00 0008 03 00 000c " /* INTEG HMAC_SHA2_256_128 */
	"03 00 0008 02 00 0005 " /* PRF HMAC_SHA2_256 */
	"00 00 0008 04 00 0013 " /* KE ECP256 */
	/* proposal 2: last, length 44, #2 IKE, no SPI, 4 transforms */
	"00 00 002c 02 01 00 04 "
	"03 00 000c 01 00 0014 800e0100 " /* ENCR AES_GCM_16 256 */
	"03 00 0008 02 00 0007 " /* PRF HMAC_SHA2_512 */
	"03 00 0008 04 00 0013 " /* KE ECP256 */
	"00 00 0008 04 00 001f " /* KE CURVE25519 */
	/* KE, next Nonce, length 72, group 19, 64 bytes */
	"28 00 0048 0013 0000 04*32 a5*32 "
	/* Nonce, next N, length 36 */
	"29 00 0024 5e*32 "
	/* N(NAT_DETECTION_SOURCE_IP) */
	"29 00 001c 00 00 4004 11*20 "
	/* N(NAT_DETECTION_DESTINATION_IP) */
	"29 00 001c 00 00 4005 22*20 "
	/* N(IKEV2_FRAGMENTATION_SUPPORTED) */
	"29 00 0008 00 00 402e "
	/* N(SIGNATURE_HASH_ALGORITHMS): SHA2-256, 384, 512, Identity; next V */
	"2b 00 0010 00 00 402f 0002 0003 0004 0005 "
	/* V, last, 16 bytes */
	"00 00 0014 882fe56d6fd20dbc2286519e6c56378e";

/* An IKE_AUTH request around an SK payload with 16-byte IV and ICV. */
static const char seed_sk[] =
	"5a3c9e1f007b2241 c0ffee00c0ffee00 2e 20 23 08 00000001 00000050 "
	"23 00 0034 77*16 00112233445566778899aabbccddeeff 99*16";

/* An SKF fragment 2 of 3. */
static const char seed_skf[] =
	"5a3c9e1f007b2241 c0ffee00c0ffee00 35 20 23 08 00000001 00000044 "
	"00 00 0028 0002 0003 77*16 12*4 99*12";

/* A CREATE_CHILD_SA request: SA (ESP), Nonce, TSi, TSr, N(REKEY_SA). */
static const char seed_child[] =
	"5a3c9e1f007b2241 c0ffee00c0ffee00 29 20 24 08 00000002 000000d0 "
	"21 00 000c 03 04 4009 c0a80101 "
	"28 00 002c 00 00 0028 01 03 04 03 deadbeef "
	"03 00 000c 01 00 0014 800e0100 "
	"03 00 0008 03 00 000c "
	"00 00 0008 05 00 0000 "
	"2c 00 0014 6e*16 "
	"2d 00 0040 02 000000 "
	"07 00 0010 0000 ffff 0a000000 0a0000ff "
	"08 06 0028 0050 0050 20010db8000000000000000000000000 "
	"20010db8ffffffffffffffffffffffff "
	"2a 00 0018 01 000000 07 11 0010 01f4 01f4 c0a80001 c0a800ff "
	"00 00 0010 03 04 0002 11223344 55667788";

/* INFORMATIONAL: Delete(IKE), CP(REQUEST), unknown non-critical 200. */
static const char seed_info[] =
	"5a3c9e1f007b2241 c0ffee00c0ffee00 2a 20 25 00 00000003 00000048 "
	"2f 00 0008 01 00 0000 "
	"c8 00 001c 01 000000 0001 0000 0008 0000 000a 0000 000e 0004 0001 0003 "
	"00 00 0008 abcdef01";

const char *const wire_sample_seeds[] = {
	wire_sample_sa_init_hex, seed_sk, seed_skf, seed_child, seed_info, NULL,
};
