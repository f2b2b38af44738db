/* SPDX-License-Identifier: GPL-2.0-or-later */
/* kernel-xfrm internals. */
#ifndef IKB_KERNEL_XFRM_H
#define IKB_KERNEL_XFRM_H

#include <ikebana/plugin.h>

struct xfrm_state {
	const struct ikb_host *host;
};

int xfrm_parse_offload(const char *s, enum ikb_offload *out);
int xfrm_parse_yn(const char *s, bool *out);

int xfrm_check_conn(void *state, const struct ikb_section *conn,
		    struct ikb_diag *d);
int xfrm_tune(void *state, const struct ikb_section *conn, struct ikb_sa *sa,
	      struct ikb_error *err);

#endif
