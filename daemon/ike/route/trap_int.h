/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What trap.c (the routes and their policies) and trap_view.c (what is
 * shown of them) share; nothing outside route/.
 */
#ifndef IKB_IKE_ROUTE_TRAP_INT_H
#define IKB_IKE_ROUTE_TRAP_INT_H

#include <stdbool.h>
#include <stdint.h>
#include <ikebana/types.h>

#include "ike/child/ts.h"

struct event;
struct ike_engine;
struct ike_listener;

struct ike_route {
	struct ike_route *next;
	struct ike_engine *e;
	char *conn;
	enum ikb_policy_action kind; /* IPSEC: a trap; PASS, BLOCK: a shunt */
	enum ikb_policy_action out_now; /* the outbound policy's, now */
	enum ikb_mode mode;
	struct ikb_addr local, remote;
	struct ikb_selector sel; /* local to remote */
	/* leftsubnet=A,B: one route per pair, pair 0's holds the set */
	unsigned pair;
	bool has_set;
	struct ts_set set;
	uint32_t reqid;
	struct ikb_policy pol[3];
	unsigned npol;
	struct event *revert; /* the failure shunt's end */
	unsigned long acquires;
	/* a group conn's network (its ACQUIREs make instances), an instance's */
	bool group, inst;
	bool drop; /* an instance's, to go at the revert timer */
};

struct trap_set {
	struct ike_route *head;
	struct ike_listener *listener;
};

/* "trap", "passthrough" or "drop" */
const char *trap_action_name(enum ikb_policy_action a);

#endif
