// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The replay state of a new SA.
 *
 * An inbound SA with a window gets it in XFRMA_REPLAY_ESN_VAL with a bitmap
 * of ceil(window / 32) words, at every size, and the legacy u8 field of
 * xfrm_usersa_info left at 0 (the kernel refuses both at once). The u8
 * field would do up to 32 without ESN (the kernel caps it there), and
 * strongSwan and libreswan use it up to that size. One layout is simpler
 * to reason about and to test: the window and its bitmap length read back
 * the same way at every size, and the kernel runs one replay code for 32
 * as for 2048 (xfrm_replay_check_bmp and _advance_bmp, the same bitmap
 * walk as its ESN variants) instead of the legacy path for small windows
 * only. The kernel's constraints: window <= 32 * bmp_len (xfrm_init_replay)
 * and bmp_len <= 128 (verify_replay). Where the window lives is local
 * kernel state: the peer cannot tell.
 *
 * Window 0 means no replay protection: no attribute, and the legacy field
 * at 0, as on outbound SAs. Linux 6.1 also takes a zero-length bitmap
 * ("replay_window 0, bitmap-length 0" in `ip xfrm state`) and skips the
 * check either way, but that state buys nothing, and a packet-offload
 * driver that validates the replay state (mlx5 takes 32, 64, 128 or 256)
 * would refuse it on an inbound SA.
 *
 * An outbound SA never checks replay: it gets window 0, except with ESN,
 * where Linux before 6.10 refuses a zero window and 1 is the smallest it
 * takes (strongSwan does the same).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <libmnl/libmnl.h>

#include "xfrm.h"

static int check(const struct ikb_sa *sa, struct ikb_error *err)
{
	if (sa->replay_window > XFRM_REPLAY_MAX)
		return ikb_error_set(err, ERANGE,
				     "replay window %u exceeds the kernel's %u",
				     sa->replay_window, XFRM_REPLAY_MAX);
	if (sa->esn && sa->replay_window == 0)
		return ikb_error_set(
			err, EINVAL,
			"ESN needs a replay window: the kernel refuses ESN with replay window 0");
	return 0;
}

/* The window this SA gets in the kernel, by direction. */
static uint32_t window(const struct ikb_sa *sa)
{
	if (sa->dir == IKB_DIR_OUT)
		return sa->esn ? 1 : 0;
	return sa->replay_window;
}

int xfrm_replay_put(struct nlmsghdr *nlh, struct xfrm_usersa_info *p,
		    const struct ikb_sa *sa, struct ikb_error *err)
{
	struct {
		struct xfrm_replay_state_esn r;
		uint32_t bmp[XFRM_REPLAY_MAX / 32];
	} esn;
	uint32_t w = window(sa);
	int rc = check(sa, err);

	if (rc)
		return rc;
	p->replay_window = 0;
	if (w == 0)
		return 0;
	memset(&esn, 0, sizeof(esn));
	esn.r.bmp_len = (w + 31) / 32;
	esn.r.replay_window = w;
	if (sa->esn)
		p->flags |= XFRM_STATE_ESN;
	mnl_attr_put(nlh, XFRMA_REPLAY_ESN_VAL,
		     sizeof(esn.r) + esn.r.bmp_len * sizeof(uint32_t), &esn);
	return 0;
}
