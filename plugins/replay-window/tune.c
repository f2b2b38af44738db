// SPDX-License-Identifier: GPL-2.0-or-later
/* Set an SA's replay window from the conn, before install. */
#include <errno.h>

#include "rw.h"

/*
 * sa->esn is what the ESN transform negotiated, and it stays: the kernel's
 * ESN flag must match the peer's, or every packet fails its ICV (strongSwan
 * 5.9.8 installs a non-ESN SA against an ESN peer that way, BASELINES 15).
 * esn= and replay-window=0 act earlier, on what is offered and accepted.
 * ESN negotiated with a window of 0 (an esp= that names esn) is refused
 * here: the kernel refuses ESN without a window, and dropping the flag
 * would break the SA silently.
 * An outbound SA checks no replays, so it gets window 0, except with ESN:
 * kernels before 6.10 (the test kernel is 6.1) refuse ESN with window 0
 * even outbound; the kernel backend picks the least it takes.
 */
int rw_tune(void *state, const struct ikb_section *conn, struct ikb_sa *sa,
	    struct ikb_error *err)
{
	const struct rw_state *st = state;
	uint32_t window = rw_conn_window(st, conn);

	if (window == 0 && sa->esn)
		return ikb_error_set(
			err, EINVAL,
			"ESN was negotiated, but replay-window=0: the kernel refuses ESN without a replay window (is esn in esp=?)");
	if (sa->dir == IKB_DIR_OUT && !sa->esn)
		window = 0;
	sa->replay_window = window;
	return 0;
}
