// SPDX-License-Identifier: GPL-2.0-or-later
/* Validate replay-window= and esn= when the configuration loads. */
#include "rw.h"

static int check_window(const struct rw_state *st,
			const struct ikb_section *conn,
			const struct ikb_value *v, uint32_t *window,
			struct ikb_diag *d)
{
	uint32_t kernel_ok;

	if (rw_parse_window(v->value, RW_MAX, window) == 0)
		return 0;
	if (rw_parse_window(v->value, RW_KERNEL_MAX, &kernel_ok) == 0)
		st->host->report(
			d, conn, v, IKB_SEV_ERROR,
			"expected an integer 0..%u, got '%s' (the kernel allows %u, but ikebana caps the window at %u like libreswan)",
			RW_MAX, v->value, RW_KERNEL_MAX, RW_MAX);
	else
		st->host->report(d, conn, v, IKB_SEV_ERROR,
				 "expected an integer 0..%u, got '%s'", RW_MAX,
				 v->value);
	return -1;
}

int rw_check_conn(void *state, const struct ikb_section *conn,
		  struct ikb_diag *d)
{
	const struct rw_state *st = state;
	const struct ikb_value *w = st->host->get(conn, "replay-window");
	const struct ikb_value *e = st->host->get(conn, "esn");
	uint32_t window = RW_DEFAULT;
	enum rw_esn esn = RW_ESN_UNSET;
	int rc = 0;

	if (w && check_window(st, conn, w, &window, d) < 0)
		rc = -1;
	if (e && rw_parse_esn(e->value, &esn) < 0) {
		st->host->report(d, conn, e, IKB_SEV_ERROR,
				 "expected yes, no or either, got '%s'",
				 e->value);
		rc = -1;
	}
	/* RFC 4303 §2.2.1: no anti-replay, no ESN. */
	if (rc == 0 && window == 0 && esn == RW_ESN_YES)
		st->host->report(
			d, conn, e, IKB_SEV_WARNING,
			"ESN is forced off because the kernel refuses ESN without a replay window (replay-window=0)");
	return rc;
}
