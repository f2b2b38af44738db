// SPDX-License-Identifier: GPL-2.0-or-later
/* Set an SA's replay window and ESN flag from the conn, before install. */
#include "rw.h"

static uint32_t conn_window(const struct rw_state *st,
			    const struct ikb_section *conn)
{
	const struct ikb_value *v = st->host->get(conn, "replay-window");
	uint32_t w;

	return v && rw_parse_window(v->value, RW_MAX, &w) == 0 ? w : RW_DEFAULT;
}

static enum rw_esn conn_esn(const struct rw_state *st,
			    const struct ikb_section *conn)
{
	const struct ikb_value *v = st->host->get(conn, "esn");
	enum rw_esn e;

	return v && rw_parse_esn(v->value, &e) == 0 ? e : RW_ESN_UNSET;
}

/*
 * esn=yes/no decide; either/unset keep what negotiation put in sa->esn.
 * A window of 0 turns ESN off: the kernel refuses ESN without a window.
 * An outbound SA checks no replays, so it gets window 0, except with ESN:
 * the ESN bit must match the peer's, and kernels before 6.10 (the test
 * kernel is 6.1) refuse ESN with window 0 even outbound.
 */
int rw_tune(void *state, const struct ikb_section *conn, struct ikb_sa *sa,
	    struct ikb_error *err)
{
	const struct rw_state *st = state;
	uint32_t window = conn_window(st, conn);
	enum rw_esn esn = conn_esn(st, conn);

	if (esn == RW_ESN_YES)
		sa->esn = true;
	else if (esn == RW_ESN_NO)
		sa->esn = false;
	if (window == 0)
		sa->esn = false;
	if (sa->dir == IKB_DIR_OUT && !sa->esn)
		window = 0;
	sa->replay_window = window;
	return 0;
}
