// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * MOBIKE's negotiation (RFC 4555 §3.2) and what the IKE SA keeps of it:
 * both ends say MOBIKE_SUPPORTED in IKE_AUTH, and each may list its
 * other addresses (§3.6). We keep the peer's list for status and tell
 * none of ours: we move only where the routing table sends us, and a
 * list would promise addresses we do not watch.
 */
#include <json-c/json.h>
#include <stdlib.h>
#include <string.h>

#include "ike/conn/conn.h"
#include "ike/engine.h"
#include "ike/msg/msg.h"
#include "ike/path/mobike.h"
#include "ike/timers.h"

bool mobike_wanted(const struct ike_sa *sa)
{
	const struct conn *c = engine_conn(sa->e, sa->conn);

	return c && c->mobike;
}

bool mobike_on(const struct ike_sa *sa)
{
	return sa->mobike != NULL;
}

void mobike_offer(struct wire_msg *m, const struct ike_sa *sa,
		  const struct wire_msg *request)
{
	if (!mobike_wanted(sa))
		return;
	if (request && !wire_find_notify(request, WIRE_N_MOBIKE_SUPPORTED))
		return;
	msg_notify(m, WIRE_N_MOBIKE_SUPPORTED, NULL, 0);
}

void mobike_note(struct ike_sa *sa, const struct wire_msg *m)
{
	if (!mobike_wanted(sa) || !wire_find_notify(m, WIRE_N_MOBIKE_SUPPORTED))
		return;
	if (!sa->mobike && !(sa->mobike = calloc(1, sizeof(*sa->mobike)))) {
		ike_sa_log(sa, IKB_LOG_ERR, "MOBIKE: out of memory: not used");
		return;
	}
	mobike_peer_addrs(sa, m);
	ike_sa_log(sa, IKB_LOG_INFO,
		   "MOBIKE: both ends support it (RFC 4555)%s",
		   sa->initiator ? ": we follow our address changes" :
				   ": we follow the peer's updates");
}

/* A list replaces the last one; NO_ADDITIONAL_ADDRESSES empties it. */
void mobike_peer_addrs(struct ike_sa *sa, const struct wire_msg *m)
{
	const struct wire_payload *p = NULL;
	struct ike_mobike *mb = sa->mobike;
	bool listed = false;

	if (!mb)
		return;
	while ((p = wire_next_notify(m, p))) {
		const struct wire_notify *n = &p->u.notify;
		bool v4 = n->type == WIRE_N_ADDITIONAL_IP4_ADDRESS;

		if (n->type == WIRE_N_NO_ADDITIONAL_ADDRESSES) {
			mb->n_addrs = 0;
			return;
		}
		if (!v4 && n->type != WIRE_N_ADDITIONAL_IP6_ADDRESS)
			continue;
		if (!listed)
			mb->n_addrs = 0;
		listed = true;
		/* the codec checked the length against the family */
		if (mb->n_addrs == MOBIKE_ADDRS_MAX)
			continue;
		mb->addrs[mb->n_addrs] =
			(struct ikb_addr){ .family = v4 ? AF_INET : AF_INET6 };
		memcpy(mb->addrs[mb->n_addrs++].bytes, n->data, n->len);
	}
}

void mobike_free(struct ike_sa *sa)
{
	free(sa->mobike);
	sa->mobike = NULL;
}

void mobike_inherit(struct ike_sa *sa, const struct ike_sa *old)
{
	if (!old->mobike || !(sa->mobike = malloc(sizeof(*sa->mobike))))
		return;
	*sa->mobike = *old->mobike;
}

bool mobike_may_move(const struct ike_sa *sa, const struct ike_path *p)
{
	return mobike_on(sa) && !sa->initiator &&
	       p->remote.family == sa->path.remote.family &&
	       sa->state == IKE_SA_ESTABLISHED;
}

static struct json_object *addr_json(const struct ikb_addr *a)
{
	char buf[64];

	return a->family ?
		       json_object_new_string(addr_str(a, buf, sizeof(buf))) :
		       NULL;
}

struct json_object *mobike_status(const struct ike_sa *sa)
{
	const struct ike_mobike *mb = sa->mobike;
	struct json_object *o, *addrs;

	if (!mb)
		return NULL;
	o = json_object_new_object();
	addrs = json_object_new_array();
	for (unsigned i = 0; i < mb->n_addrs; i++)
		json_object_array_add(addrs, addr_json(&mb->addrs[i]));
	json_object_object_add(o, "peer_additional_addresses", addrs);
	json_object_object_add(o, "updates",
			       json_object_new_int64((int64_t)mb->updates));
	json_object_object_add(
		o, "last_update_s",
		mb->last_update_ms ?
			json_object_new_int64(
				(int64_t)(mono_ms() - mb->last_update_ms) /
				1000) :
			NULL);
	json_object_object_add(o, "previous_local", addr_json(&mb->prev_local));
	json_object_object_add(o, "previous_remote",
			       addr_json(&mb->prev_remote));
	return o;
}
