// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * IKE identities (ike/conn/id.c): a peer's ID payload as the engine takes it
 * (its text for logs and secrets lookups), a leftid= as the conn compiles
 * it, and whether the one accepts the other. Input: the wire ID type, its
 * length and bytes, a flags octet for the end (bit 0: it has an address,
 * bit 1: it authenticates by NULL), then the leftid= text (none: empty).
 * Oracle: an end accepts its own ID.
 */
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include "crypto/cert_id.h"
#include "fuzz.h"
#include "fuzz_nss.h"
#include "ike/conn/conn.h"
#include "ike/ike_sa.h"
#include "wire/wire.h"

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	fuzz_nss_init(); /* DN IDs are decoded with NSS */
	return 0;
}

static void check(bool ok)
{
	if (!ok)
		abort(); /* the fuzzer reports this input */
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const uint8_t addr[4] = { 192, 0, 2, 1 };
	struct fuzz_in in = { data, size };
	struct wire_typed w = { .type = fuzz_u8(&in) };
	struct conn_end end;
	struct ike_id got, want;
	struct ikb_error err;
	uint8_t flags;
	size_t n;
	char *text;

	w.data = fuzz_bytes(&in, fuzz_u8(&in), &w.len);
	if (!w.len)
		w.data = NULL; /* as the codec leaves an empty ID */
	flags = fuzz_u8(&in);
	memset(&end, 0, sizeof(end));
	if (flags & 1) {
		end.addr.family = AF_INET;
		memcpy(end.addr.bytes, addr, sizeof(addr));
	}
	end.auth.methods = flags & 2 ? AUTHM_NULL : AUTHM_PSK;
	text = malloc(in.left + 1);
	if (!text)
		abort();
	n = in.left;
	memcpy(text, in.p, n);
	text[n] = '\0';
	end.id = n ? text : NULL;

	id_from_wire(&w, &got);
	check(memchr(got.text, '\0', sizeof(got.text)) != NULL);
	(void)id_accepts(&end, &got);
	if (!id_local(&end, &want, &err))
		check(id_accepts(&end, &want));
	free(text);
	return 0;
}
