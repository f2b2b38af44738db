// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * esp= and ike= proposal strings (the esp-proposals plugin's parser): the
 * text as both, then what the daemon does with a parsed list: render it
 * for status, select against the defaults and against itself (as a
 * responder whose peer offered the same), and the kernel's algorithm names
 * for an ESP choice.
 */
#include <stdlib.h>
#include <string.h>

#include "esp_proposals.h"
#include "fuzz.h"

static void use(enum ikb_protocol proto, const struct ikb_proposal_list *l)
{
	struct ikb_proposal_list defs;
	struct ikb_proposal chosen;
	struct ikb_error err;
	struct ikb_sa sa;
	unsigned num;
	char text[2048];

	epr_render_list(l, text, sizeof(text));
	if (epr_defaults(proto, &defs))
		abort();
	(void)epr_select(&defs, l, &chosen, &num, &err);
	(void)epr_select(l, &defs, &chosen, &num, &err);
	if (!epr_select(l, l, &chosen, &num, &err)) {
		epr_render_proposal(&chosen, text, sizeof(text));
		if (proto == IKB_PROTO_ESP) {
			memset(&sa, 0, sizeof(sa));
			(void)epr_kernel_algs(&chosen, &sa, &err);
		}
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const enum ikb_protocol protos[] = { IKB_PROTO_ESP,
						    IKB_PROTO_IKE };
	struct ikb_proposal_list l;
	struct ikb_error err;
	char *spec = malloc(size + 1);

	if (!spec)
		abort();
	memcpy(spec, data, size);
	spec[size] = '\0';
	for (unsigned i = 0; i < 2; i++) {
		memset(&l, 0, sizeof(l));
		if (!epr_parse(protos[i], spec, &l, &err))
			use(protos[i], &l);
	}
	free(spec);
	return 0;
}
