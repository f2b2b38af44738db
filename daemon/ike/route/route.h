/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Routes: what a conn puts in the kernel before any SA, as libreswan's
 * `ipsec route`. A trap (auto=route|ondemand) is the conn's policies with
 * their ESP template and no SA: the kernel holds what they select and
 * sends an ACQUIRE, which starts the negotiation. A shunt conn
 * (type=passthrough|drop|reject) is policies without a template that let
 * what they select pass in clear, or drop it. The header of
 * daemon/ike/route/, the one the other folders include; it includes
 * ipsec_if.h. Not for use outside daemon/ike/.
 */
#ifndef IKB_IKE_ROUTE_H
#define IKB_IKE_ROUTE_H

#include <stdbool.h>
#include <stdint.h>
#include <ikebana/kernel.h>

#include "ike/route/ipsec_if.h"

struct ike_engine;
struct ike_sa;
struct child_sa;
struct json_object;

/*
 * After a (re)load: a route for every conn that asks for one, none for
 * those that no longer do; an unchanged route stays as it is, so that a
 * Child SA whose policies it holds never sees a gap.
 */
void traps_sync(struct ike_engine *e);
/* c's host (a name, %defaultroute) has an address: its routes follow. */
void trap_host_known(struct ike_engine *e, const struct conn *c);
/* Every route out of the kernel, at the end. */
void traps_free(struct ike_engine *e);
/* `ikebana route CONN` and `unroute CONN`: 0 or -errno with err. */
int trap_route(struct ike_engine *e, const char *conn, struct ikb_error *err);
int trap_unroute(struct ike_engine *e, const char *conn, struct ikb_error *err);
/* The kernel's ACQUIRE (no CPU id): the trap's conn is negotiated. */
void trap_acquire(struct ike_engine *e, const struct ikb_kernel_event *ev);
/*
 * A Child SA of sa's conn about to be installed: when its selectors are
 * one of the conn's traps, it takes the trap's reqid and true is returned:
 * the trap's policies are its own (it adds none, and leaves them when it
 * goes, so that the trap is back).
 */
bool trap_claim(struct ike_sa *sa, struct child_sa *c);
/* fn for the conn name of every route, in order (conn_inst.c's sweep). */
void trap_each_route(const struct ike_engine *e,
		     void (*fn)(const char *conn, void *arg), void *arg);
/* Whether conn has a route (a trap or a shunt) in the kernel. */
bool trap_routed(const struct ike_engine *e, const char *conn);
/* The routes, for status: [{conn, kind, action, policies, ...}]. */
struct json_object *traps_status(const struct ike_engine *e);

#endif
