/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The engine's side of the event bus (the listeners' side is in ike.h):
 * one call where a thing happens, and the rules of what is told when
 * (at most one IKE_UP per IKE SA, a DOWN only after an UP) live here
 * rather than at the call sites. Not for use outside daemon/ike/.
 */
#ifndef IKB_IKE_EVENTS_H
#define IKB_IKE_EVENTS_H

#include <stdbool.h>
#include <stddef.h>

#include "ike/ike.h"

struct ike_sa;
struct child_sa;

/* IKE_UP; first: its first Child SA or NULL; replaces: the rekeyed SA. */
void events_ike_up(struct ike_sa *sa, const struct child_sa *first,
		   const struct ike_sa *replaces);
/* IKE_DOWN, if sa was told up. */
void events_ike_down(struct ike_sa *sa, const char *why);
/* FAILED (see ike.h); engine_outcome() decides when. */
void events_failed(struct ike_sa *sa, int rc, const char *why, bool ike_up);
/* CHILD_UP: c is established under sa. */
void events_child_up(struct ike_sa *sa, struct child_sa *c);
/* CHILD_UP again, if c was told up and its outbound SA is now in. */
void events_child_out(struct ike_sa *sa, struct child_sa *c);
/* CHILD_DOWN, if c was told up: before it leaves the kernel. */
void events_child_down(struct ike_sa *sa, struct child_sa *c);
/* ike_engine_free(), first: no listener hears the teardown. */
void events_free(struct ike_engine *e);

#endif
