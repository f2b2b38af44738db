// SPDX-License-Identifier: GPL-2.0-or-later
/* The IKE SA table: three hash chains and one list of all SAs. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <event2/event.h>

#include "crypto/crypto.h"
#include "ike/child_sa.h"
#include "ike/engine.h"
#include "log.h"

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

struct ike_sa *ike_sa_new(struct ike_engine *e, const char *conn,
			  const struct ike_path *p, const uint8_t *peer_spi_i)
{
	bool initiator = peer_spi_i == NULL;
	struct ike_sa *sa = calloc(1, sizeof(*sa));
	struct crypto_err cerr;
	unsigned h;

	if (!sa)
		return NULL;
	sa->e = e;
	sa->serial = ++e->serial;
	snprintf(sa->conn, sizeof(sa->conn), "%s", conn);
	sa->initiator = initiator;
	sa->state = initiator ? IKE_SA_INIT_I : IKE_SA_INIT_R;
	sa->path = *p;
	sa->created = time(NULL);
	/* our SPI: random and never zero, unique in the table */
	do {
		if (rng_bytes(initiator ? sa->spi_i : sa->spi_r, 8, &cerr)) {
			free(sa);
			return NULL;
		}
	} while (!memcmp(local_spi(sa), "\0\0\0\0\0\0\0\0", 8) ||
		 ike_sa_find(e, local_spi(sa)));
	h = hash_bytes(local_spi(sa), 8);
	sa->next_local = e->by_local[h];
	e->by_local[h] = sa;
	h = conn_bucket(sa->conn);
	sa->next_conn = e->by_conn[h];
	e->by_conn[h] = sa;
	sa->next_all = e->all;
	e->all = sa;
	if (!initiator) {
		memcpy(sa->spi_i, peer_spi_i, 8);
		link_init(sa);
		e->halfopen++;
	}
	return sa;
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

void ike_sa_set_state(struct ike_sa *sa, enum ike_sa_state st)
{
	if (!sa->initiator && sa->state == IKE_SA_INIT_R && st != sa->state)
		sa->e->halfopen--;
	sa->state = st;
}

static void unlink_sa(struct ike_sa *sa)
{
	struct ike_engine *e = sa->e;

	UNLINK(&e->by_local[hash_bytes(local_spi(sa), 8)], sa, next_local);
	UNLINK(&e->by_init[hash_bytes(sa->spi_i, 8)], sa, next_init);
	UNLINK(&e->by_conn[conn_bucket(sa->conn)], sa, next_conn);
	UNLINK(&e->all, sa, next_all);
}

static void free_bytes(struct ike_bytes *b)
{
	free(b->ptr);
	b->ptr = NULL;
	b->len = 0;
}

void ike_sa_delete(struct ike_sa *sa, const char *why)
{
	if (why)
		ike_sa_log(sa, IKB_LOG_NOTICE, "deleting IKE SA (%s): %s",
			   ike_sa_state_name(sa->state), why);
	if (!sa->initiator && sa->state == IKE_SA_INIT_R)
		sa->e->halfopen--;
	unlink_sa(sa);
	rtx_free(sa);
	if (sa->pending)
		child_sa_free(sa, sa->pending);
	while (sa->children) {
		struct child_sa *c = sa->children;

		sa->children = c->next;
		child_sa_free(sa, c);
	}
	keys_cancel(sa);
	ke_free(sa->ke);
	if (sa->keys) {
		ike_sa_keys_free(sa->keys);
		free(sa->keys);
	}
	sk_ctx_free(sa->sk_in);
	sk_ctx_free(sa->sk_out);
	free_bytes(&sa->cookie);
	free_bytes(&sa->init_req);
	free_bytes(&sa->init_resp);
	secret_wipe(sa->ni, sizeof(sa->ni));
	secret_wipe(sa->nr, sizeof(sa->nr));
	free(sa);
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
		ike_sa_delete(e->all, NULL);
}

const char *ike_sa_state_name(enum ike_sa_state st)
{
	switch (st) {
	case IKE_SA_INIT_I:
		return "IKE_SA_INIT sent";
	case IKE_SA_INIT_R:
		return "half-open";
	case IKE_SA_AUTH_I:
		return "IKE_AUTH sent";
	case IKE_SA_ESTABLISHED:
		return "established";
	}
	return "?";
}

void ike_sa_log(const struct ike_sa *sa, int level, const char *fmt, ...)
{
	char line[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	logm(level, "conn %s #%lu: %s", sa->conn, sa->serial, line);
}
