/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The child hooks: how one conn becomes Child SAs, and their tuning. */
#ifndef IKEBANA_CHILD_H
#define IKEBANA_CHILD_H

#include <ikebana/host.h>
#include <ikebana/types.h>

/* One Child SA that a conn asks for. */
struct ikb_child_spec {
	struct ikb_selector ts; /* local side = src, remote side = dst */
	int32_t cpu;		/* RFC 9611 CPU id, -1 = none */
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
	/* Adjust one SA's parameters just before it is installed. */
	int (*tune)(void *state, const struct ikb_section *conn,
		    struct ikb_sa *sa, struct ikb_error *err);
	/* Append optional ops here; never reorder or remove (ABI 5). */
};

/* The table as ABI 5 defined it: the loader refuses a shorter one. */
#define IKB_CHILD_OPS_MIN IKB_OPS_END(struct ikb_child_ops, tune)

#endif
