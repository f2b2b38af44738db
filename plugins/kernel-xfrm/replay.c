// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The replay state of a new SA. The legacy u8 field in xfrm_usersa_info
 * carries windows up to 32 only (the kernel caps it; 2048 would wrap to 0),
 * so a wider window, and any ESN SA, goes in XFRMA_REPLAY_ESN_VAL with a
 * bitmap of ceil(window / 32) words and the legacy field left at 0, which
 * the kernel insists on when both are present.
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

int xfrm_replay_put(struct nlmsghdr *nlh, struct xfrm_usersa_info *p,
		    const struct ikb_sa *sa, struct ikb_error *err)
{
	struct {
		struct xfrm_replay_state_esn r;
		uint32_t bmp[XFRM_REPLAY_MAX / 32];
	} esn;
	uint32_t w = sa->replay_window;
	int rc = check(sa, err);

	if (rc)
		return rc;
	if (sa->dir == IKB_DIR_OUT)
		w = sa->esn ? 1 : 0;
	p->replay_window = 0;
	if (!sa->esn && w <= XFRM_REPLAY_LEGACY_MAX) {
		p->replay_window = (uint8_t)w;
		return 0;
	}
	memset(&esn, 0, sizeof(esn));
	esn.r.bmp_len = (w + 31) / 32;
	esn.r.replay_window = w;
	if (sa->esn)
		p->flags |= XFRM_STATE_ESN;
	mnl_attr_put(nlh, XFRMA_REPLAY_ESN_VAL,
		     sizeof(esn.r) + esn.r.bmp_len * sizeof(uint32_t), &esn);
	return 0;
}
