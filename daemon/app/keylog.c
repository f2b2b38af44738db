// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The key log listens on the engine's bus: a Child SA that comes up is
 * looked up in the kernel backend's table, which holds the keys it was
 * given (the engine wiped its own), and its SAs not logged yet are
 * logged. So secrets stay out of the engine's interface: the only reader
 * is this file, and it listens only when the operator asked for private
 * debugging.
 */
#include <arpa/inet.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <json-c/json.h>

#include "app/daemon.h"
#include "app/keylog.h"
#include "app/log_conf.h"
#include "config/config.h"
#include "ike/ike.h"
#include "log/log.h"
#include "plugin/plugin_set.h"
#include "util/json.h"

struct keylog_id {
	struct ikb_addr dst;
	uint32_t spi;
};

/* The SAs logged so far, less those gone (CHILD_DOWN). */
struct keylog {
	struct ike_listener *listener;
	size_t n, cap;
	struct keylog_id *ids;
};

bool keylog_enabled(const struct ikbd *d)
{
	if (d->opts->debug_private)
		return true;
	return d->conf.cfg && d->conf.cfg->set.debug_private;
}

static void hex(const uint8_t *b, size_t n, char *out)
{
	for (size_t i = 0; i < n; i++)
		sprintf(out + 2 * i, "%02x", b[i]);
	out[2 * n] = '\0';
}

static const struct ikb_alg *enc_alg(const struct ikb_sa *sa)
{
	return sa->aead.name[0] ? &sa->aead : &sa->encr;
}

static size_t key_len(const struct ikb_alg *a)
{
	size_t n = a->key_bits / 8u;

	return n < IKB_KEY_MAX ? n : IKB_KEY_MAX;
}

static const char *addr(const struct ikb_addr *a, char *buf, size_t len)
{
	if (!inet_ntop(a->family, a->bytes, buf, (socklen_t)len))
		snprintf(buf, len, "?");
	return buf;
}

/* kernel-xfrm's dump names SAs only (its keys stay in the kernel). */
static bool has_key(const struct ikb_alg *a)
{
	for (size_t i = 0; i < key_len(a); i++)
		if (a->key[i])
			return true;
	return false;
}

static bool same_sa(const struct keylog_id *id, const struct ikb_sa *sa)
{
	return id->spi == sa->spi && id->dst.family == sa->dst.family &&
	       !memcmp(id->dst.bytes, sa->dst.bytes, sizeof(sa->dst.bytes));
}

static bool known(const struct keylog *kl, const struct ikb_sa *sa)
{
	for (size_t i = 0; i < kl->n; i++)
		if (same_sa(&kl->ids[i], sa))
			return true;
	return false;
}

static void forget(struct keylog *kl, const struct ikb_sa *sa)
{
	for (size_t i = 0; sa && i < kl->n; i++)
		if (same_sa(&kl->ids[i], sa))
			kl->ids[i--] = kl->ids[--kl->n];
}

static void remember(struct keylog *kl, const struct ikb_sa *sa)
{
	if (kl->n == kl->cap) {
		size_t cap = kl->cap ? kl->cap * 2 : 8;
		struct keylog_id *n = reallocarray(kl->ids, cap, sizeof(*n));

		if (!n)
			return;
		kl->ids = n;
		kl->cap = cap;
	}
	memset(&kl->ids[kl->n], 0, sizeof(kl->ids[kl->n]));
	kl->ids[kl->n].dst = sa->dst;
	kl->ids[kl->n++].spi = sa->spi;
}

static void log_sa(const struct ikb_sa *sa)
{
	const struct ikb_alg *e = enc_alg(sa);
	char k[2 * IKB_KEY_MAX + 3], s[64], dst[64];

	if (has_key(e)) {
		k[0] = '0';
		k[1] = 'x';
		hex(e->key, key_len(e), k + 2);
	} else {
		snprintf(k, sizeof(k), "(not kept by the kernel backend)");
	}
	log_debug("private: Child SA %s spi 0x%08" PRIx32 " %s -> %s reqid "
		  "%" PRIu32 " %s key %s",
		  sa->dir == IKB_DIR_OUT ? "out" : "in", sa->spi,
		  addr(&sa->src, s, sizeof(s)),
		  addr(&sa->dst, dst, sizeof(dst)), sa->reqid, e->name, k);
	if (!sa->integ.name[0] || !has_key(&sa->integ))
		return;
	hex(sa->integ.key, key_len(&sa->integ), k);
	log_debug("private: Child SA spi 0x%08" PRIx32 " %s key 0x%s", sa->spi,
		  sa->integ.name, k);
}

/* What the backend's table is searched for: c's SAs, or (NULL) all. */
struct find {
	struct keylog *kl;
	const struct ike_child_info *c;
};

static bool wanted(const struct ike_child_info *c, const struct ikb_sa *sa)
{
	struct keylog_id id = { .spi = sa->spi, .dst = sa->dst };

	return !c || (c->in && same_sa(&id, c->in)) ||
	       (c->out && same_sa(&id, c->out));
}

static void find_sa(void *ctx, const struct ikb_sa *sa)
{
	struct find *f = ctx;

	if (!wanted(f->c, sa) || known(f->kl, sa))
		return;
	log_sa(sa);
	remember(f->kl, sa);
}

/* Log c's SAs (NULL: every SA) not logged yet. */
static void log_new(struct ikbd *d, const struct ike_child_info *c)
{
	void *st;
	const struct ikb_kernel_ops *k;
	struct find f = { d->keylog, c };

	if (!keylog_enabled(d) || !d->conf.plugins)
		return;
	k = plugin_set_kernel(d->conf.plugins, &st);
	if (k && k->dump)
		k->dump(st, find_sa, NULL, &f);
}

static void on_event(void *ctx, const struct ike_event *ev)
{
	struct ikbd *d = ctx;

	if (ev->kind == IKE_EVENT_CHILD_UP) {
		log_new(d, ev->child);
	} else if (ev->kind == IKE_EVENT_CHILD_DOWN) {
		forget(d->keylog, ev->child->in);
		forget(d->keylog, ev->child->out);
	}
}

int keylog_start(struct ikbd *d)
{
	struct keylog *kl;

	if (!keylog_enabled(d) || d->keylog || !d->engine)
		return 0;
	kl = calloc(1, sizeof(*kl));
	if (kl)
		kl->listener = ike_engine_subscribe(d->engine, on_event, d);
	if (!kl || !kl->listener) {
		free(kl);
		log_err("debug-private: cannot listen for new Child SAs");
		return -1;
	}
	d->keylog = kl;
	log_new(d, NULL); /* a reload turned it on: those there already */
	return 0;
}

void keylog_free(struct ikbd *d)
{
	struct keylog *kl = d->keylog;

	if (!kl)
		return;
	if (d->engine)
		ike_engine_unsubscribe(d->engine, kl->listener);
	free(kl->ids);
	free(kl);
	d->keylog = NULL;
}

static void json_sa(void *ctx, const struct ikb_sa *sa)
{
	struct json_object *o = json_object_new_object();
	const struct ikb_alg *e = enc_alg(sa);
	char buf[2 * IKB_KEY_MAX + 1];

	json_put_str(o, "dir", sa->dir == IKB_DIR_OUT ? "out" : "in");
	json_put_str(o, "src", addr(&sa->src, buf, sizeof(buf)));
	json_put_str(o, "dst", addr(&sa->dst, buf, sizeof(buf)));
	snprintf(buf, sizeof(buf), "%08" PRIx32, sa->spi);
	json_put_str(o, "spi", buf);
	json_object_object_add(o, "reqid", json_object_new_int64(sa->reqid));
	json_put_str(o, "alg", e->name);
	/* No "key" when the backend keeps none (kernel-xfrm). */
	if (has_key(e)) {
		hex(e->key, key_len(e), buf);
		json_put_str(o, "key", buf);
	}
	if (sa->integ.name[0])
		json_put_str(o, "integ_alg", sa->integ.name);
	if (sa->integ.name[0] && has_key(&sa->integ)) {
		hex(sa->integ.key, key_len(&sa->integ), buf);
		json_put_str(o, "integ_key", buf);
	}
	json_object_array_add(ctx, o);
}

struct json_object *keylog_json(const struct ikbd *d)
{
	struct json_object *a = json_object_new_array();
	void *st;
	const struct ikb_kernel_ops *k =
		d->conf.plugins ? plugin_set_kernel(d->conf.plugins, &st) :
				  NULL;

	if (k && k->dump)
		k->dump(st, json_sa, NULL, a);
	return a;
}
