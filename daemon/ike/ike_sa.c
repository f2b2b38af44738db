// SPDX-License-Identifier: GPL-2.0-or-later
/* The IKE SA table: three hash chains and one list of all SAs. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <event2/event.h>

#include "crypto/crypto.h"
#include "ike/child/child.h"
#include "ike/engine.h"
#include "ike/conn/conn.h"
#include "ike/events.h"
#include "ike/msg/msg.h"
#include "ike/exchange/exchange.h"
#include "ike/path/path.h"
#include "ike/timers.h"
#include "log/log.h"

static unsigned hash_bytes(const uint8_t *p, size_t n)
{
	/* FNV-1a: SPIs are random, conn names are not */
	uint32_t h = 2166136261u;

	for (size_t i = 0; i < n; i++)
		h = (h ^ p[i]) * 16777619u;
	return h % IKE_SA_BUCKETS;
}

static const uint8_t *local_spi(const struct ike_sa *sa)
{
	return sa->initiator ? sa->spi_i : sa->spi_r;
}

static unsigned conn_bucket(const char *name)
{
	return hash_bytes((const uint8_t *)name, strlen(name));
}

static void link_init(struct ike_sa *sa);

static unsigned peer_bucket(const char *rid)
{
	return hash_bytes((const uint8_t *)rid, strlen(rid));
}

/* The by_peer chain of its remote ID, once it has one. */
static void link_peer(struct ike_sa *sa)
{
	unsigned h = peer_bucket(ike_sa_id_text(&sa->remote_id));

	sa->next_peer = sa->e->by_peer[h];
	sa->e->by_peer[h] = sa;
}

int ike_sa_new_spi(struct ike_engine *e, uint8_t spi[8])
{
	struct crypto_err cerr;

	do {
		if (rng_bytes(spi, 8, &cerr))
			return -EIO;
	} while (!memcmp(spi, "\0\0\0\0\0\0\0\0", 8) || ike_sa_find(e, spi));
	return 0;
}

static void on_kick(evutil_socket_t fd, short what, void *arg)
{
	tasks_run(arg);
}

static struct ike_sa *sa_alloc(struct ike_engine *e, const char *conn,
			       const struct ike_path *p, bool initiator,
			       const uint8_t *local)
{
	struct ike_sa *sa = calloc(1, sizeof(*sa));
	unsigned h;

	if (!sa)
		return NULL;
	sa->e = e;
	sa->serial = ++e->serial;
	snprintf(sa->conn, sizeof(sa->conn), "%s", conn);
	sa->initiator = initiator;
	sa->state = initiator ? IKE_SA_OPENING_I : IKE_SA_INIT_R;
	sa->view_side = -1;
	sa->path = *p;
	sa->created = wall_s();
	sa->last_recv_ms = mono_ms();
	sa->kick = evtimer_new(e->base, on_kick, sa);
	if (!sa->kick) {
		free(sa);
		return NULL;
	}
	/* our SPI: random and never zero, unique in the table */
	if (local)
		memcpy(initiator ? sa->spi_i : sa->spi_r, local, 8);
	else if (ike_sa_new_spi(e, initiator ? sa->spi_i : sa->spi_r)) {
		event_free(sa->kick);
		free(sa);
		return NULL;
	}
	h = hash_bytes(local_spi(sa), 8);
	sa->next_local = e->by_local[h];
	e->by_local[h] = sa;
	h = conn_bucket(sa->conn);
	sa->next_conn = e->by_conn[h];
	e->by_conn[h] = sa;
	sa->next_all = e->all;
	e->all = sa;
	return sa;
}

struct ike_sa *ike_sa_new(struct ike_engine *e, const char *conn,
			  const struct ike_path *p, const uint8_t *peer_spi_i)
{
	struct ike_sa *sa = sa_alloc(e, conn, p, peer_spi_i == NULL, NULL);

	if (sa && !(sa->init = calloc(1, sizeof(*sa->init)))) {
		ike_sa_free(sa);
		return NULL;
	}
	if (sa) {
		e->stats.started_responder += peer_spi_i != NULL;
		e->stats.started_initiator += peer_spi_i == NULL;
	}
	if (sa && peer_spi_i) {
		memcpy(sa->spi_i, peer_spi_i, 8);
		link_init(sa);
		halfopen_add(sa);
	}
	return sa;
}

struct ike_sa *ike_sa_new_rekeyed(struct ike_sa *old, bool initiator,
				  const uint8_t local_spi[8],
				  const uint8_t peer_spi[8])
{
	struct ike_sa *sa =
		sa_alloc(old->e, old->conn, &old->path, initiator, local_spi);

	if (!sa)
		return NULL;
	memcpy(initiator ? sa->spi_r : sa->spi_i, peer_spi, 8);
	if (!initiator)
		link_init(sa);
	ike_sa_set_state(sa, IKE_SA_ESTABLISHED);
	/* it goes on the old one's establishment: an SA that crossed the
	 * old one crossed it (unique.c) */
	sa->est_serial = old->est_serial;
	sa->outcome_sent = true; /* nobody asked for it */
	if (ike_sa_id_copy(&sa->local_id, &old->local_id) ||
	    ike_sa_id_copy(&sa->remote_id, &old->remote_id)) {
		ike_sa_free(sa);
		return NULL;
	}
	if (sa->remote_id.mem)
		link_peer(sa);
	sa->view_side = old->view_side;
	sa->resolved_at = old->resolved_at;
	sa->peer_auth = old->peer_auth;
	sa->peer_cert = peer_cert_get(old->peer_cert);
	nat_inherit(sa, old);
	mobike_inherit(sa, old);
	frag_inherit(sa, old);
	sa->rtx.interval_ms = old->rtx.interval_ms;
	sa->rtx.timeout_ms = old->rtx.timeout_ms;
	sa->plan_next = old->plan_next;
	sa->plan_n = old->plan_n;
	sa->pcpu_count = old->pcpu_count;
	sa->pcpu_want = old->pcpu_want;
	sa->pcpu_kmax = old->pcpu_kmax;
	sa->pcpu_on = old->pcpu_on;
	memcpy(sa->pcpu_acq, old->pcpu_acq, sizeof(sa->pcpu_acq));
	sa->child_ke = old->child_ke;
	return sa;
}

static void on_linger(evutil_socket_t fd, short what, void *arg)
{
	ike_sa_delete(arg, "linger time is over");
}

void ike_sa_linger(struct ike_sa *sa, unsigned long long ms)
{
	struct timeval tv = { (time_t)(ms / 1000),
			      (suseconds_t)(ms % 1000) * 1000 };

	ike_sa_set_state(sa, IKE_SA_DELETING);
	if (!sa->linger)
		sa->linger = evtimer_new(sa->e->base, on_linger, sa);
	if (sa->linger)
		evtimer_add(sa->linger, &tv);
}

/* The responder's index by the peer's SPIi, once it is known. */
static void link_init(struct ike_sa *sa)
{
	unsigned h = hash_bytes(sa->spi_i, 8);

	sa->next_init = sa->e->by_init[h];
	sa->e->by_init[h] = sa;
}

#define UNLINK(head, sa, field)               \
	do {                                  \
		struct ike_sa **pp_ = (head); \
		while (*pp_ && *pp_ != (sa))  \
			pp_ = &(*pp_)->field; \
		if (*pp_)                     \
			*pp_ = (sa)->field;   \
	} while (0)

void ike_sa_set_conn(struct ike_sa *sa, const char *conn)
{
	struct ike_engine *e = sa->e;
	unsigned h = conn_bucket(sa->conn);

	UNLINK(&e->by_conn[h], sa, next_conn);
	snprintf(sa->conn, sizeof(sa->conn), "%s", conn);
	h = conn_bucket(sa->conn);
	sa->next_conn = e->by_conn[h];
	e->by_conn[h] = sa;
}

/* The one place an IKE SA's state changes (sa_alloc sets the first). */
void ike_sa_set_state(struct ike_sa *sa, enum ike_sa_state st)
{
	if (st == sa->state)
		return;
	ike_sa_log(sa, IKB_LOG_DEBUG, "%s -> %s", ike_sa_state_name(sa->state),
		   ike_sa_state_name(st));
	halfopen_drop(sa);
	if (st == IKE_SA_ESTABLISHED)
		sa->est_serial = sa->e->serial;
	sa->state = st;
}

static void unlink_peer(struct ike_sa *sa)
{
	if (sa->remote_id.mem)
		UNLINK(&sa->e->by_peer[peer_bucket(
			       ike_sa_id_text(&sa->remote_id))],
		       sa, next_peer);
}

static void unlink_sa(struct ike_sa *sa)
{
	struct ike_engine *e = sa->e;

	UNLINK(&e->by_local[hash_bytes(local_spi(sa), 8)], sa, next_local);
	UNLINK(&e->by_init[hash_bytes(sa->spi_i, 8)], sa, next_init);
	UNLINK(&e->by_conn[conn_bucket(sa->conn)], sa, next_conn);
	unlink_peer(sa);
	UNLINK(&e->all, sa, next_all);
}

int ike_sa_set_remote_id(struct ike_sa *sa, const struct ike_id *id)
{
	struct ike_sa_id n = { 0 };

	if (ike_sa_id_set(&n, id))
		return -ENOMEM;
	unlink_peer(sa);
	ike_sa_id_free(&sa->remote_id);
	sa->remote_id = n;
	link_peer(sa);
	return 0;
}

int ike_sa_set_local_id(struct ike_sa *sa, const struct conn_end *end,
			struct ikb_error *err)
{
	struct ike_id me;
	int rc = id_local(end, &me, err);

	if (!rc && (rc = ike_sa_id_set(&sa->local_id, &me)))
		snprintf(err->msg, sizeof(err->msg), "out of memory");
	return rc;
}

struct ike_sa *ike_sa_first_peer(struct ike_engine *e, const char *rid)
{
	return e->by_peer[peer_bucket(rid)];
}

static void free_bytes(struct ike_bytes *b)
{
	free(b->ptr);
	b->ptr = NULL;
	b->len = 0;
}

static void free_ev(struct event **ev)
{
	if (*ev)
		event_free(*ev);
	*ev = NULL;
}

void ike_init_free(struct ike_sa *sa)
{
	struct ike_init *in = sa->init;

	if (!in)
		return;
	ke_free(in->ke);
	free_bytes(&in->cookie);
	free_bytes(&in->req);
	free_bytes(&in->resp);
	free(in);
	sa->init = NULL;
}

/* Out of every table and queue, its Child SAs out of the kernel. */
static void retire(struct ike_sa *sa)
{
	unlink_sa(sa);
	rtx_free(sa);
	exchange_end(sa); /* with the Child SA it negotiates */
	while (sa->children) {
		struct child_sa *c = sa->children;

		sa->children = c->next;
		child_sa_free(sa, c);
	}
}

/* What it holds, wiped and freed, with sa. */
static void release(struct ike_sa *sa)
{
	keys_cancel(sa);
	sa_jobs_cancel(sa);
	hold_free(sa);
	ike_init_free(sa);
	free_ev(&sa->kick);
	free_ev(&sa->timer);
	free_ev(&sa->dpd);
	free_ev(&sa->linger);
	if (sa->keys) {
		ike_sa_keys_free(sa->keys);
		free(sa->keys);
	}
	sk_ctx_free(sa->sk_in);
	sk_ctx_free(sa->sk_out);
	peer_cert_put(sa->peer_cert);
	frag_free(sa);
	nat_free(sa);
	mobike_free(sa);
	ike_sa_id_free(&sa->local_id);
	ike_sa_id_free(&sa->remote_id);
	secret_wipe(sa->ni.ptr, sa->ni.len);
	secret_wipe(sa->nr.ptr, sa->nr.len);
	free_bytes(&sa->ni);
	free_bytes(&sa->nr);
	free(sa);
}

void ike_sa_free(struct ike_sa *sa)
{
	halfopen_drop(sa);
	opening_done(sa, false);
	retire(sa);
	events_ike_down(sa, NULL);
	release(sa);
}

/*
 * The outcome around the teardown: the log line, another attempt of a
 * failed auto=start initiation (keyingtries=), the initiation's waiter
 * and the IKE_DOWN event once the Child SAs are out of the kernel, and
 * what may start in its place.
 */
void ike_sa_delete(struct ike_sa *sa, const char *why)
{
	struct ike_engine *e = sa->e;
	char conn[sizeof(sa->conn)];
	bool reinit = sa->reinit;

	if (!why)
		why = "no reason given";
	snprintf(conn, sizeof(conn), "%s", sa->conn);
	ike_sa_log(sa, IKB_LOG_NOTICE, "deleting IKE SA (%s): %s",
		   ike_sa_phase(sa), why);
	halfopen_drop(sa);
	opening_done(sa, false);
	if (sa->initiator &&
	    (sa->state == IKE_SA_RESOLVE_I || sa->state == IKE_SA_OPENING_I))
		retry_after_failure(sa, why);
	retire(sa);
	engine_outcome(sa, -ECONNABORTED, why, NULL);
	events_ike_down(sa, why);
	release(sa);
	opening_resume(e);
	if (reinit)
		engine_reinit(e, conn);
}

struct ike_sa *ike_sa_find(struct ike_engine *e, const uint8_t spi[8])
{
	struct ike_sa *sa = e->by_local[hash_bytes(spi, 8)];

	while (sa && memcmp(local_spi(sa), spi, 8))
		sa = sa->next_local;
	return sa;
}

struct ike_sa *ike_sa_find_init(struct ike_engine *e, const uint8_t spi_i[8],
				const struct ikb_addr *remote)
{
	struct ike_sa *sa = e->by_init[hash_bytes(spi_i, 8)];

	for (; sa; sa = sa->next_init)
		if (!memcmp(sa->spi_i, spi_i, 8) &&
		    sa->path.remote.family == remote->family &&
		    !memcmp(sa->path.remote.bytes, remote->bytes,
			    remote->family == AF_INET ? 4 : 16))
			return sa;
	return NULL;
}

struct ike_sa *ike_sa_find_conn(struct ike_engine *e, const char *conn,
				struct ike_sa *after)
{
	struct ike_sa *sa =
		after ? after->next_conn : e->by_conn[conn_bucket(conn)];

	while (sa && strcmp(sa->conn, conn))
		sa = sa->next_conn;
	return sa;
}

void ike_sa_free_all(struct ike_engine *e)
{
	while (e->all)
		ike_sa_free(e->all);
}

const char *ike_sa_state_name(enum ike_sa_state st)
{
	switch (st) {
	case IKE_SA_RESOLVE_I:
		return "resolving";
	case IKE_SA_OPENING_I:
		return "opening";
	case IKE_SA_INIT_R:
		return "half-open";
	case IKE_SA_ESTABLISHED:
		return "established";
	case IKE_SA_DELETING:
		return "deleting";
	}
	return "?";
}

const char *ike_sa_phase(const struct ike_sa *sa)
{
	if (sa->state != IKE_SA_OPENING_I)
		return ike_sa_state_name(sa->state);
	return exchange_kind(sa) == OUT_AUTH ? "IKE_AUTH sent" :
					       "IKE_SA_INIT sent";
}

void ike_sa_log(const struct ike_sa *sa, int level, const char *fmt, ...)
{
	char line[512], peer[64] = "";
	struct log_ctx ctx = { sa->conn, sa->serial, peer };
	va_list ap;

	if (!log_enabled(level))
		return;
	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	if (log_has_fields())
		addr_str(&sa->path.remote, peer, sizeof(peer));
	logm_ctx(level, &ctx, "conn %s #%lu: %s", sa->conn, sa->serial, line);
}
