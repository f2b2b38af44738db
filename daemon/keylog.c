// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Scanning after each event rather than hooking the engine keeps secrets
 * out of the engine's interface: the only reader is this file, and it
 * reads nothing unless the operator asked for private debugging.
 */
#include <arpa/inet.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <event2/event.h>
#include <json-c/json.h>

#include "config/config.h"
#include "daemon.h"
#include "keylog.h"
#include "log.h"
#include "log_conf.h"
#include "plugin/plugin_set.h"

struct keylog_id {
	struct ikb_addr dst;
	uint32_t spi;
};

struct keylog {
	size_t n, cap;
	struct keylog_id *ids;
};

bool keylog_enabled(const struct ikbd *d)
{
	struct plutodebug pd;

	if (d->opts->debug_private)
		return true;
	plutodebug_parse(
		d->conf.cfg ? cfg_get(&d->conf.cfg->setup, "plutodebug") : NULL,
		&pd);
	return pd.private;
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

static bool known(const struct keylog *kl, const struct ikb_sa *sa)
{
	for (size_t i = 0; kl && i < kl->n; i++)
		if (kl->ids[i].spi == sa->spi &&
		    !memcmp(&kl->ids[i].dst, &sa->dst, sizeof(sa->dst)))
			return true;
	return false;
}

static void ids_free(struct keylog *kl)
{
	if (!kl)
		return;
	free(kl->ids);
	free(kl);
}

struct scan {
	const struct keylog *old;
	struct keylog *now;
};

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

static void scan_sa(void *ctx, const struct ikb_sa *sa)
{
	struct scan *sc = ctx;
	struct keylog *kl = sc->now;

	if (!known(sc->old, sa))
		log_sa(sa);
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

void keylog_scan(struct ikbd *d)
{
	void *st;
	const struct ikb_kernel_ops *k;
	struct keylog *now;
	struct scan sc;

	if (!keylog_enabled(d) || !d->conf.plugins)
		return;
	k = plugin_set_kernel(d->conf.plugins, &st);
	if (!k || !k->dump)
		return;
	now = calloc(1, sizeof(*now));
	if (!now)
		return;
	sc.old = d->keylog;
	sc.now = now;
	k->dump(st, scan_sa, NULL, &sc);
	ids_free(d->keylog);
	d->keylog = now;
}

static void on_tick(evutil_socket_t fd, short what, void *arg)
{
	keylog_scan(arg);
}

int keylog_start(struct ikbd *d)
{
	const struct timeval second = { 1, 0 };

	if (!keylog_enabled(d) || d->keylog_timer)
		return 0;
	d->keylog_timer = event_new(d->base, -1, EV_PERSIST, on_tick, d);
	if (!d->keylog_timer || event_add(d->keylog_timer, &second) < 0) {
		log_err("debug-private: cannot start the key log timer");
		return -1;
	}
	return 0;
}

void keylog_free(struct ikbd *d)
{
	if (d->keylog_timer)
		event_free(d->keylog_timer);
	d->keylog_timer = NULL;
	ids_free(d->keylog);
	d->keylog = NULL;
}

static void put(struct json_object *o, const char *k, const char *v)
{
	json_object_object_add(o, k, json_object_new_string(v));
}

static void json_sa(void *ctx, const struct ikb_sa *sa)
{
	struct json_object *o = json_object_new_object();
	const struct ikb_alg *e = enc_alg(sa);
	char buf[2 * IKB_KEY_MAX + 1];

	put(o, "dir", sa->dir == IKB_DIR_OUT ? "out" : "in");
	put(o, "src", addr(&sa->src, buf, sizeof(buf)));
	put(o, "dst", addr(&sa->dst, buf, sizeof(buf)));
	snprintf(buf, sizeof(buf), "%08" PRIx32, sa->spi);
	put(o, "spi", buf);
	json_object_object_add(o, "reqid", json_object_new_int64(sa->reqid));
	put(o, "alg", e->name);
	/* No "key" when the backend keeps none (kernel-xfrm). */
	if (has_key(e)) {
		hex(e->key, key_len(e), buf);
		put(o, "key", buf);
	}
	if (sa->integ.name[0])
		put(o, "integ_alg", sa->integ.name);
	if (sa->integ.name[0] && has_key(&sa->integ)) {
		hex(sa->integ.key, key_len(&sa->integ), buf);
		put(o, "integ_key", buf);
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
