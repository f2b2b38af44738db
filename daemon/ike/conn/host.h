/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The conns' hosts that are names or %defaultroute (host.c): the last
 * answer for each (conn, side), kept across reloads, written into the
 * compiled conn's views so that matching and initiation read addresses
 * as for any conn; and the lookups in flight. Not for use outside
 * daemon/ike/.
 */
#ifndef IKB_IKE_HOST_H
#define IKB_IKE_HOST_H

#include <stdbool.h>
#include <stdio.h>
#include <time.h>

#include "ike/ike.h"

struct ike_engine;
struct ike_sa;
struct conn;

/* The last answer for one host of one conn, and the lookup in flight. */
struct host_rec {
	struct host_rec *next;
	struct ike_engine *e; /* NULL: the engine went, free on the answer */
	char conn[IKE_CONN_NAME_LEN];
	int side; /* 1: left, 0: right, as conn views */
	enum ike_host_kind kind;
	char name[256];
	int family;
	bool pending; /* a lookup is in flight */
	bool gone; /* its conn went (reload): free once answered */
	struct ikb_addr addr; /* family 0: none yet, or the last failed */
	time_t at; /* wall clock of the last answer; 0: none */
	int rc;
	char why[128];
	unsigned lookups;
};

/* r as left= has it: the name, or "%defaultroute". */
const char *host_text(const struct host_rec *r);
/* Both sides (1: left, 0: right) whose host is a name or %defaultroute. */
bool host_needed(const struct conn *c, int side);
/*
 * After each compile (ike_engine_set_conf): a record per host of the new
 * conns (the kept answers written into them until the new ones come), a
 * lookup for each (at load and at every reload), the records of conns
 * that went or changed their host dropped.
 */
void hosts_sync(struct ike_engine *e);
/* A lookup of r now, unless one is in flight. 0 or -errno (said). */
int host_lookup(struct ike_engine *e, struct host_rec *r);
/* A lookup of every host of conn now, unless one is in flight. */
void hosts_refresh(struct ike_engine *e, const char *conn);
/* That host's record, or NULL. */
struct host_rec *host_find(const struct ike_engine *e, const char *conn,
			   int side);
/* The engine goes: records in flight wait for their answer to free. */
void hosts_free(struct ike_engine *e);

/* resolve.c: the IKE_SA_RESOLVE_I step of an initiation. */
/* sa waits in IKE_SA_RESOLVE_I for fresh answers of its conn's hosts. */
int resolve_start(struct ike_sa *sa, struct ikb_error *err);
/* host.c, when rec's answer came: the SAs waiting on it go on. */
void resolve_answered(struct ike_engine *e, const struct host_rec *rec);

#endif
