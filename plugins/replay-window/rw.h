/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * replay-window internals: value parsing shared by check, offer and tune,
 * the only code that parses replay-window= and esn=. What they mean leaves
 * the plugin typed: the ESN transforms (child.offer) and ikb_sa's
 * replay_window (child.tune).
 */
#ifndef IKB_REPLAY_WINDOW_H
#define IKB_REPLAY_WINDOW_H

#include <ikebana/plugin.h>

/* libreswan's limit; the kernel's is 4096 (XFRMA_REPLAY_ESN_MAX). */
#define RW_MAX 2048
#define RW_KERNEL_MAX 4096
/* libreswan's IPSEC_SA_DEFAULT_REPLAY_WINDOW. */
#define RW_DEFAULT 128

enum rw_esn { RW_ESN_UNSET, RW_ESN_NO, RW_ESN_YES, RW_ESN_EITHER };

struct rw_state {
	const struct ikb_host *host;
};

/* Decimal digits only, 0..limit. */
int rw_parse_window(const char *s, unsigned long limit, uint32_t *out);
/* yes, no or either, in any case (libreswan's esn= values). */
int rw_parse_esn(const char *s, enum rw_esn *out);

/* The conn's window: replay-window= (checked at load), or RW_DEFAULT. */
uint32_t rw_conn_window(const struct rw_state *st,
			const struct ikb_section *conn);

int rw_check_conn(void *state, const struct ikb_section *conn,
		  struct ikb_diag *d);
int rw_offer(void *state, const struct ikb_section *conn,
	     struct ikb_proposal_list *l, struct ikb_error *err);
int rw_tune(void *state, const struct ikb_section *conn, struct ikb_sa *sa,
	    struct ikb_error *err);

#endif
