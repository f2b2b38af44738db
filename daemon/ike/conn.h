/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Conns as the engine sees them: one end, the view from this host, the
 * responder's match by address and by ID, and the IDs that follow.
 * Not for use outside daemon/ike/.
 */
#ifndef IKB_IKE_CONN_H
#define IKB_IKE_CONN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <ikebana/plugin.h>

#include "ike/ike.h"

struct ike_engine;
struct ike_path;
struct ike_id;
struct wire_typed;

/* One end of a conn, parsed. */
struct conn_end {
	struct ikb_addr addr; /* AF_UNSPEC: %any */
	const char *id; /* leftid= text, NULL: the address */
	struct ikb_addr net; /* leftsubnet=, else addr */
	uint8_t plen;
	uint8_t proto; /* leftprotoport= */
	uint16_t port;
	uint16_t ike_port; /* leftikeport=, 0: unset */
};

/* A conn seen from this host: which side is local decides everything. */
struct conn_view {
	const struct ikb_section *s;
	struct conn_end local, remote;
	enum ikb_mode mode;
	bool left_is_local;
};

/* conn.c */
int conn_view_init(const struct ikb_section *s, bool left_is_local,
		   struct conn_view *v, struct ikb_error *err);
/* Initiator: which side is ours, by io->is_local. */
int conn_view_local(const struct ike_engine *e, const struct ikb_section *s,
		    struct conn_view *v, struct ikb_error *err);
void conn_timing(const struct ikb_section *s, unsigned *interval_ms,
		 unsigned long long *timeout_ms);
/* ike= or esp= through the proposals hook; defaults when unset. */
int conn_proposals(const struct ike_engine *e, const struct ikb_section *s,
		   enum ikb_protocol proto, struct ikb_proposal_list *out,
		   struct ikb_error *err);
/* conn_match.c: responder. */
const struct ikb_section *conn_match_addr(const struct ike_engine *e,
					  const struct ike_path *p,
					  struct conn_view *v);
/* After IKE_AUTH: the conn whose remote ID accepts peer's; NULL if none. */
const struct ikb_section *conn_match_id(const struct ike_engine *e,
					const struct ike_path *p,
					const struct ike_id *peer,
					const char *current,
					struct conn_view *v);
/* Parses every conn's left= and right= for the two above (set_conf). */
void conn_index_build(struct ike_engine *e);
void conn_index_free(struct ike_engine *e);

/* id.c */
int id_local(const struct conn_end *end, struct ike_id *id,
	     struct ikb_error *err);
void id_from_wire(const struct wire_typed *w, struct ike_id *id);
/* Whether conn end's configured ID (or address) accepts got. */
bool id_accepts(const struct conn_end *end, const struct ike_id *got);

/* psk_lookup.c: config/secrets.h stays out of the crypto files. */
int psk_lookup(const struct ike_engine *e, const char *local_id,
	       const char *remote_id, const uint8_t **key, size_t *len);

#endif
