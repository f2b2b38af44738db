/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The child hooks: how one conn becomes Child SAs, and their tuning. */
#ifndef IKEBANA_CHILD_H
#define IKEBANA_CHILD_H

#include <ikebana/host.h>
#include <ikebana/proposals.h>
#include <ikebana/types.h>

/* One Child SA that a conn asks for. */
struct ikb_child_spec {
	struct ikb_selector ts; /* local side = src, remote side = dst */
	/*
	 * RFC 9611 CPU id, -1 = none. The entries with an id are how their
	 * plugin exports its key (multi-sa's clones=): the core counts them
	 * as the per-CPU SAs the conn asks for, and reads no key for it.
	 */
	int32_t cpu;
};

#define IKB_CHILD_PLAN_MAX 256

struct ikb_child_plan {
	unsigned n;
	/*
	 * Set by the core: whether this host is the conn's left side. A
	 * plugin that reads left... and right... keys maps them to src
	 * (local) and dst (remote) by it: the same conn is read by both
	 * ends, and on one of them right is local.
	 */
	bool left_is_local;
	struct ikb_child_spec c[IKB_CHILD_PLAN_MAX];
};

struct ikb_child_ops {
	uint32_t size; /* IKB_OPS_SIZE(struct ikb_child_ops) */
	/* One conn → N Child SAs. The core fills plan->c[0] first. */
	int (*plan)(void *state, const struct ikb_section *conn,
		    struct ikb_child_plan *plan, struct ikb_error *err);
	/*
	 * Adjust one SA's parameters just before it is installed. This is
	 * where a key's owner exports what it parsed, typed, in struct
	 * ikb_sa (replay-window= becomes replay_window): the kernel backend
	 * and check_sa read the field, never the key.
	 */
	int (*tune)(void *state, const struct ikb_section *conn,
		    struct ikb_sa *sa, struct ikb_error *err);
	/*
	 * Optional, appended in ABI 5. Adjust the ESP proposals that the
	 * core offers for this conn, and accepts from a peer: l holds what
	 * proposals.parse or .defaults made of esp=, as the plugins before
	 * this one in plugins= order left it. A plugin adds (or drops) the
	 * transforms its own keys decide; replay-window adds the ESN
	 * transforms of esn= and replay-window=. After every offer, the core
	 * gives each proposal that has no ESN transform "no ESN" (RFC 7296
	 * §3.3.3: ESP needs one). A full proposal (IKB_PROPOSAL_MAX_XFORMS):
	 * -E2BIG, with err naming the key and the proposal.
	 */
	int (*offer)(void *state, const struct ikb_section *conn,
		     struct ikb_proposal_list *l, struct ikb_error *err);
	/*
	 * Optional, appended in ABI 5. At load, once every plugin's
	 * check_conn passed: sa is the inbound SA this conn would get, as
	 * every plugin's tune filled it, that is the values the keys' owners
	 * parsed. For checks that span other plugins' keys (kernel-xfrm:
	 * pcrypt= against the replay window), which read the owner's value
	 * here instead of parsing its key; host->get may still give a key's
	 * file:line to report at. Report through host->report; 0 = no errors.
	 */
	int (*check_sa)(void *state, const struct ikb_section *conn,
			const struct ikb_sa *sa, struct ikb_diag *d);
	/* Append optional ops here; never reorder or remove (ABI 5). */
};

/* The table as ABI 5 defined it: the loader refuses a shorter one. */
#define IKB_CHILD_OPS_MIN IKB_OPS_END(struct ikb_child_ops, tune)

#endif
