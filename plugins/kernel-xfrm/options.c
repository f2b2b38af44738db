// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * nic-offload= and pcrypt=: how the kernel should run an SA's crypto.
 * Checked at load, and copied onto each SA before install; at load, too,
 * pcrypt= against the replay window the SA would get.
 */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "xfrm.h"

/*
 * pcrypt hands one SA's packets to several CPUs and they come back out of
 * order; an inbound window narrower than this drops the late ones as
 * replays. The replay-window plugin's default, 128, is narrower.
 */
#define XFRM_PCRYPT_MIN_WINDOW 256

int xfrm_parse_offload(const char *s, enum ikb_offload *out)
{
	static const struct {
		const char *name;
		enum ikb_offload v;
	} names[] = {
		{ "no", IKB_OFFLOAD_NO },
		{ "yes", IKB_OFFLOAD_YES },
		{ "crypto", IKB_OFFLOAD_CRYPTO },
		{ "packet", IKB_OFFLOAD_PACKET },
	};

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		if (strcasecmp(s, names[i].name) == 0) {
			*out = names[i].v;
			return 0;
		}
	}
	return -1;
}

int xfrm_parse_yn(const char *s, bool *out)
{
	if (strcasecmp(s, "yes") == 0) {
		*out = true;
		return 0;
	}
	if (strcasecmp(s, "no") == 0) {
		*out = false;
		return 0;
	}
	return -1;
}

int xfrm_check_conn(void *state, const struct ikb_section *conn,
		    struct ikb_diag *d)
{
	const struct xfrm_state *st = state;
	const struct ikb_value *o = st->host->get(conn, "nic-offload");
	const struct ikb_value *p = st->host->get(conn, "pcrypt");
	enum ikb_offload off;
	bool yn;
	int rc = 0;

	if (o && xfrm_parse_offload(o->value, &off) < 0) {
		st->host->report(d, conn, o, IKB_SEV_ERROR,
				 "expected no, yes, crypto or packet, got '%s'",
				 o->value);
		rc = -1;
	}
	if (p && xfrm_parse_yn(p->value, &yn) < 0) {
		st->host->report(d, conn, p, IKB_SEV_ERROR,
				 "expected yes or no, got '%s'", p->value);
		rc = -1;
	}
	return rc;
}

/*
 * pcrypt=yes with a window it will overrun: a warning, not an error. The
 * window is the replay-window plugin's, as its tune exported it (0 when
 * that plugin is not loaded: no check, no drops); replay-window= is read
 * here only for the line to report at.
 */
int xfrm_check_sa(void *state, const struct ikb_section *conn,
		  const struct ikb_sa *sa, struct ikb_diag *d)
{
	const struct xfrm_state *st = state;
	const struct ikb_value *w = st->host->get(conn, "replay-window");

	if (!sa->pcrypt || sa->replay_window == 0 ||
	    sa->replay_window >= XFRM_PCRYPT_MIN_WINDOW)
		return 0;
	if (!w)
		st->host->report(
			d, conn, st->host->get(conn, "pcrypt"), IKB_SEV_WARNING,
			"pcrypt reorders packets, and the default replay window of %u drops those that arrive later than that as replays: set replay-window=%u or more",
			sa->replay_window, XFRM_PCRYPT_MIN_WINDOW);
	else
		st->host->report(
			d, conn, w, IKB_SEV_WARNING,
			"pcrypt=yes reorders packets, and a window of %u drops those that arrive later than that as replays: set replay-window=%u or more",
			sa->replay_window, XFRM_PCRYPT_MIN_WINDOW);
	return 0;
}

int xfrm_tune(void *state, const struct ikb_section *conn, struct ikb_sa *sa,
	      struct ikb_error *err)
{
	const struct xfrm_state *st = state;
	const struct ikb_value *o = st->host->get(conn, "nic-offload");
	const struct ikb_value *p = st->host->get(conn, "pcrypt");
	enum ikb_offload off;
	bool yn;

	if (o && xfrm_parse_offload(o->value, &off) == 0)
		sa->offload = off;
	if (p && xfrm_parse_yn(p->value, &yn) == 0)
		sa->pcrypt = yn;
	return 0;
}
