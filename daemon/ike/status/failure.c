// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The failure records: a ring of the last IKE_FAILURES_KEPT per conn name
 * (names, not conns, so that a reload keeps them and an OE instance has
 * its own), in a hash table capped at FAIL_CONNS_MAX names. At the cap the
 * name that failed longest ago gives way: spoofed IKE_SA_INITs can make
 * instance names without end, and the memory must stay bounded (about
 * 5.5 KiB a name, 5.6 MiB in all).
 */
#include <stdlib.h>
#include <string.h>
#include <json-c/json.h>

#include "ike/engine.h"
#include "ike/status/failure.h"
#include "wire/wire.h"

#define FAIL_BUCKETS 256
#define FAIL_CONNS_MAX 1024

_Static_assert(sizeof(((struct ike_failure *)0)->conn) == IKE_CONN_NAME_LEN,
	       "a failure's conn holds any conn name");

struct fail_ring {
	struct fail_ring *next;
	unsigned head, n; /* ring[head] is the newest */
	struct ike_failure ring[IKE_FAILURES_KEPT];
};

struct fail_table {
	unsigned nrings;
	struct fail_ring *b[FAIL_BUCKETS];
};

static const char *const kind_names[IKE_FAIL_KINDS] = {
	[IKE_FAIL_IKE_PROPOSAL] = "ike_proposal",
	[IKE_FAIL_ESP_PROPOSAL] = "esp_proposal",
	[IKE_FAIL_PFS_GROUP] = "pfs_group",
	[IKE_FAIL_TS] = "ts",
	[IKE_FAIL_ID] = "id",
	[IKE_FAIL_AUTH] = "auth",
	[IKE_FAIL_PEER_AUTH] = "peer_auth",
	[IKE_FAIL_CERT] = "cert",
	[IKE_FAIL_NO_ANSWER] = "no_answer",
	[IKE_FAIL_KERNEL] = "kernel",
	[IKE_FAIL_NOTIFY] = "notify",
	[IKE_FAIL_OTHER] = "other",
};

const char *ike_fail_kind_name(enum ike_fail_kind k)
{
	return (unsigned)k < IKE_FAIL_KINDS ? kind_names[k] : "other";
}

static unsigned bucket(const char *name)
{
	unsigned h = 5381;

	while (*name)
		h = h * 33 + (unsigned char)*name++;
	return h % FAIL_BUCKETS;
}

static struct fail_ring *find(const struct fail_table *t, const char *conn)
{
	struct fail_ring *r = t ? t->b[bucket(conn)] : NULL;

	while (r && strcmp(r->ring[r->head].conn, conn))
		r = r->next;
	return r;
}

/* The ring whose newest failure is the oldest, out of its bucket. */
static struct fail_ring *evict(struct fail_table *t)
{
	struct fail_ring **best = NULL;

	for (unsigned i = 0; i < FAIL_BUCKETS; i++)
		for (struct fail_ring **p = &t->b[i]; *p; p = &(*p)->next)
			if (!best || (*p)->ring[(*p)->head].when <
					     (*best)->ring[(*best)->head].when)
				best = p;
	if (best) {
		struct fail_ring *r = *best;

		*best = r->next;
		t->nrings--;
		return r;
	}
	return NULL;
}

static struct fail_ring *ring_for(struct fail_table *t, const char *conn)
{
	struct fail_ring *r = find(t, conn);
	unsigned b = bucket(conn);

	if (r)
		return r;
	r = t->nrings >= FAIL_CONNS_MAX ? evict(t) : NULL;
	if (!r)
		r = malloc(sizeof(*r));
	if (!r)
		return NULL;
	r->head = 0;
	r->n = 0;
	r->next = t->b[b];
	t->b[b] = r;
	t->nrings++;
	return r;
}

void failure_file(struct ike_engine *e, const struct ike_failure *f)
{
	struct fail_ring *r;

	e->stats.failed[(unsigned)f->kind < IKE_FAIL_KINDS ? f->kind :
							   IKE_FAIL_OTHER]++;
	if (!e->fails)
		e->fails = calloc(1, sizeof(*e->fails));
	if (!e->fails || !f->conn[0])
		return;
	r = ring_for(e->fails, f->conn);
	if (!r)
		return;
	if (r->n)
		r->head = (r->head + IKE_FAILURES_KEPT - 1) % IKE_FAILURES_KEPT;
	r->ring[r->head] = *f;
	if (r->n < IKE_FAILURES_KEPT)
		r->n++;
}

void failure_fini(struct ike_engine *e)
{
	struct fail_table *t = e->fails;

	for (unsigned i = 0; t && i < FAIL_BUCKETS; i++)
		while (t->b[i]) {
			struct fail_ring *r = t->b[i];

			t->b[i] = r->next;
			free(r);
		}
	free(t);
	e->fails = NULL;
}

const struct ike_failure *ike_engine_last_failure(const struct ike_engine *e,
						  const char *conn)
{
	const struct fail_ring *r = find(e->fails, conn);

	return r ? &r->ring[r->head] : NULL;
}

static void add_str(struct json_object *o, const char *k, const char *v)
{
	json_object_object_add(o, k,
			       v && v[0] ? json_object_new_string(v) : NULL);
}

static void add_notify(struct json_object *o, const char *k, uint16_t n)
{
	add_str(o, k, n ? wire_notify_name(n) : NULL);
}

static struct json_object *failure_json(const struct ike_failure *f)
{
	struct json_object *o = json_object_new_object();
	char when[32];
	struct tm tm;

	gmtime_r(&f->when, &tm);
	strftime(when, sizeof(when), "%Y-%m-%dT%H:%M:%SZ", &tm);
	add_str(o, "kind", ike_fail_kind_name(f->kind));
	add_str(o, "when", when);
	json_object_object_add(o, "serial",
			       json_object_new_int64((int64_t)f->serial));
	add_str(o, "role", f->initiator ? "initiator" : "responder");
	add_str(o, "exchange",
		f->exchange ? wire_exchange_name(f->exchange) : NULL);
	add_str(o, "remote", f->remote);
	add_str(o, "auth", f->auth);
	add_notify(o, "notify_sent", f->notify_sent);
	add_notify(o, "notify_received", f->notify_received);
	json_object_object_add(o, "retransmits",
			       json_object_new_int((int)f->retransmits));
	add_str(o, "peer", f->peer);
	add_str(o, "local", f->local);
	add_str(o, "closest", f->closest);
	add_str(o, "detail", f->detail);
	return o;
}

struct json_object *ike_engine_failures(const struct ike_engine *e,
					const char *conn)
{
	struct json_object *a = json_object_new_array();
	const struct fail_ring *r = find(e->fails, conn);

	for (unsigned i = 0; r && i < r->n; i++)
		json_object_array_add(
			a,
			failure_json(
				&r->ring[(r->head + i) % IKE_FAILURES_KEPT]));
	return a;
}
