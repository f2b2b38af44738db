// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libFuzzer entry point for the IKEv2 wire codec: `testing/fuzz/run wire`
 * builds it with -fsanitize=fuzzer,address,undefined and runs it on
 * corpus/wire/. driver.c runs the same entry point with seeded mutations
 * as an ordinary unit test, and replay.c replays the corpus.
 *
 * Oracles beyond "no crash": whatever parses must emit, the emitted bytes
 * must parse again, and emitting that second parse must give the same
 * bytes (emit/parse are inverse on the codec's own output).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "wire/wire.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
/* inputs that parsed, so the driver can show the oracle was reached */
extern unsigned long wire_fuzz_parsed;
unsigned long wire_fuzz_parsed;

static struct wire_msg m1, m2;

static void check(bool ok)
{
	if (!ok)
		abort(); /* the fuzzer reports this input */
}

static void exercise_payloads(const struct wire_msg *m, const uint8_t *base)
{
	static const struct wire_opts sizes = { .iv_len = 16,
						.icv_len = 16,
						.block_len = 16 };
	struct ikb_proposal_list pl;
	struct wire_sk_parts parts;
	struct wire_error err;
	uint8_t nums[IKB_PROPOSALS_MAX];
	unsigned i;

	for (i = 0; i < m->n; i++) {
		const struct wire_payload *p = &m->pl[i];

		if (p->type == WIRE_PT_SA && p->known)
			check(wire_sa_to_proposals(&p->u.sa, &pl, nums) <=
			      IKB_PROPOSALS_MAX);
		if ((p->type == WIRE_PT_SK || p->type == WIRE_PT_SKF) &&
		    p->known && !wire_sk_split(p, base, &sizes, &parts, &err))
			check(parts.integ_len + parts.icv_len == m->hdr.length);
	}
}

static void emit_parse_emit(const struct wire_msg *m)
{
	struct wire_error err;
	struct wbuf a, b;

	wbuf_init(&a, 0);
	wbuf_init(&b, 0);
	check(wire_emit(m, &a, NULL, &err) == 0);
	check(wire_parse(&m2, a.data, a.len, NULL, &err) == 0);
	check(wire_emit(&m2, &b, NULL, &err) == 0);
	check(a.len == b.len && memcmp(a.data, b.data, a.len) == 0);
	wbuf_free(&a);
	wbuf_free(&b);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct wire_error err;

	if (wire_parse(&m1, data, size, NULL, &err) == 0) {
		wire_fuzz_parsed++;
		exercise_payloads(&m1, data);
		emit_parse_emit(&m1);
	} else {
		check(err.msg[0] != '\0');
	}
	/* the same bytes as an SK plaintext whose first payload is data[0] */
	if (size > 1) {
		m1.n = 0;
		memset(&m1.pool, 0, sizeof(m1.pool));
		if (wire_parse_inner(&m1, data + 1, size - 1, data[0], &err))
			check(err.msg[0] != '\0');
	}
	return 0;
}
