// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * IKE fragment reassembly (ike/msg/frag_in.c, RFC 7383). A fragment is only
 * kept once its ICV checks, so random bytes would never get past the
 * decryption: this target holds an IKE SA with a fixed AES-GCM key and
 * seals each record's plaintext as a real peer would, with the fragment
 * number, total and first payload type the record says, then gives the
 * datagram to the codec and frag_collect(), and a reassembled message to
 * the payload parser, as the engine does.
 *
 * Record: flags (bit 0: a response; bit 1: the plaintext is a whole raw
 * datagram, not sealed; bit 2: Message ID 2, else 1), Fragment Number,
 * Total Fragments, Next Payload, then a 16-bit length and the bytes.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "crypto/algs.h"
#include "crypto/sk.h"
#include "fuzz.h"
#include "fuzz_nss.h"
#include "ike/engine.h"
#include "ike/ike_sa.h"
#include "ike/msg/msg.h"
#include "log/log.h"

static struct ike_sa sa;
static struct ike_frag frag;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	static const uint8_t key[20] = "0123456789abcdefsalt";
	struct crypto_err err;

	fuzz_nss_init();
	log_setup(LOG_TO_STDERR, IKB_LOG_ERR, "fuzz-frag");
	if (sk_ctx_new(&sa.sk_in, IKEV2_ENCR_AES_GCM_16, 128, 0,
		       CBYTES(key, sizeof(key)), CBYTES(NULL, 0), &err))
		abort();
	sa.sk_out = sa.sk_in; /* one key both ways: we are the peer */
	sa.iv_len = 8;
	sa.icv_len = 16;
	sa.block_len = 1;
	snprintf(sa.conn, sizeof(sa.conn), "fuzz");
	memset(sa.spi_i, 0x11, 8);
	memset(sa.spi_r, 0x22, 8);
	return 0;
}

static void one(uint8_t flags, uint8_t num, uint8_t total, uint8_t next,
		const uint8_t *pt, size_t len)
{
	const struct wire_opts sizes = { sa.iv_len, sa.icv_len, sa.block_len };
	static struct wire_msg m, inner;
	const struct wire_payload *skf;
	struct wire_error werr;
	struct wire_hdr hdr = { 0 };
	struct wbuf out;
	uint8_t *plain, first;
	size_t plen;

	wbuf_init(&out, 0);
	memcpy(hdr.spi_i, sa.spi_i, 8);
	memcpy(hdr.spi_r, sa.spi_r, 8);
	hdr.exchange = 35; /* IKE_AUTH, where fragments occur */
	hdr.flags = flags & 1 ? WIRE_FLAG_R : WIRE_FLAG_I;
	hdr.msgid = flags & 4 ? 2 : 1;
	if (flags & 2)
		wbuf_put(&out, pt, len);
	else if (msg_seal(&sa, &hdr, next, pt, len, num, total, &out)) {
		wbuf_free(&out);
		return; /* what a peer cannot send either */
	}
	if (!wire_parse(&m, out.data, out.len, &sizes, &werr) &&
	    (skf = wire_find(&m, WIRE_PT_SKF)) &&
	    !frag_collect(&sa, &m, out.data, skf, &plain, &plen, &first)) {
		memset(&inner, 0, sizeof(inner));
		(void)wire_parse_payloads(&inner, plain, plen, first, &werr);
		free(plain);
	}
	(void)frag_not_first(out.data, out.len);
	wbuf_free(&out);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fuzz_in in = { data, size };

	sa.frag = &frag;
	while (in.left) {
		uint8_t flags = fuzz_u8(&in), num = fuzz_u8(&in),
			total = fuzz_u8(&in), next = fuzz_u8(&in);
		size_t len;
		const uint8_t *pt = fuzz_record(&in, &len);

		one(flags, num, total, next, pt, len);
	}
	for (unsigned i = 0; i < 2; i++) {
		frag_in_free(frag.in[i]);
		frag.in[i] = NULL;
	}
	return 0;
}
