// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Bytes and packets per conn and direction. The kernel counts per SA;
 * a conn has as many Child SAs as its plan (and rekeys) made, so the
 * installed ones are summed per conn name: a series per Child SA would
 * come and go with every rekey. The sum still drops when an SA leaves
 * the kernel (a rekey, a down): rate() takes that as a counter reset.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <ikebana/kernel.h>

#include "control/metrics.h"
#include "control/trafficstatus.h"
#include "ike/ike.h"

struct conn_traffic {
	char conn[IKE_CONN_NAME_LEN];
	uint64_t bytes[2], packets[2]; /* in, out */
};

struct walk {
	const struct ikb_kernel_ops *k;
	void *kstate;
	struct conn_traffic *v;
	size_t n, cap;
	int failed; /* out of memory: nothing is printed */
};

static void add_dir(struct walk *w, const struct ikb_sa *sa,
		    struct conn_traffic *t, int dir)
{
	struct ikb_error err = { "" };
	struct ikb_sa_counters c;

	/* a failed query counts nothing: trafficstatus says why */
	if (!sa || !w->k || traffic_query(w->k, w->kstate, sa, &c, &err))
		return;
	t->bytes[dir] += c.bytes;
	t->packets[dir] += c.packets;
}

static void on_child(void *ctx, const struct ike_child_info *c)
{
	struct walk *w = ctx;
	struct conn_traffic *t;

	if (w->failed)
		return;
	if (w->n == w->cap) {
		size_t cap = w->cap ? w->cap * 2 : 64;
		struct conn_traffic *v = realloc(w->v, cap * sizeof(*v));

		if (!v) {
			w->failed = 1;
			return;
		}
		w->v = v;
		w->cap = cap;
	}
	t = &w->v[w->n++];
	memset(t, 0, sizeof(*t));
	snprintf(t->conn, sizeof(t->conn), "%s", c->conn);
	add_dir(w, c->in, t, 0);
	add_dir(w, c->out, t, 1);
}

static int by_conn(const void *a, const void *b)
{
	return strcmp(((const struct conn_traffic *)a)->conn,
		      ((const struct conn_traffic *)b)->conn);
}

/* Adjacent entries of one conn folded into the first; returns the count. */
static size_t fold(struct conn_traffic *v, size_t n)
{
	size_t out = 0;

	for (size_t i = 0; i < n; i++) {
		if (out && !strcmp(v[out - 1].conn, v[i].conn)) {
			for (int d = 0; d < 2; d++) {
				v[out - 1].bytes[d] += v[i].bytes[d];
				v[out - 1].packets[d] += v[i].packets[d];
			}
			continue;
		}
		v[out++] = v[i];
	}
	return out;
}

static void series(FILE *f, const char *name, const struct conn_traffic *v,
		   size_t n, int packets)
{
	static const char *const dirs[] = { "in", "out" };

	for (size_t i = 0; i < n; i++)
		for (int d = 0; d < 2; d++) {
			fprintf(f, "%s{conn=\"", name);
			om_label(f, v[i].conn);
			fprintf(f, "\",direction=\"%s\"} %llu\n", dirs[d],
				(unsigned long long)(packets ? v[i].packets[d] :
							       v[i].bytes[d]));
		}
}

void metrics_traffic(FILE *f, const struct ike_engine *e,
		     const struct ikb_kernel_ops *k, void *kstate)
{
	struct walk w = { .k = k, .kstate = kstate };
	size_t n = 0;

	if (e)
		ike_engine_foreach_child(e, NULL, on_child, &w);
	if (!w.failed) {
		qsort(w.v, w.n, sizeof(*w.v), by_conn);
		n = fold(w.v, w.n);
	}
	om_family(
		f, "ikebana_child_sa_bytes_total", "counter",
		"Bytes the installed Child SAs of a conn carried, as the kernel counts them.");
	series(f, "ikebana_child_sa_bytes_total", w.v, n, 0);
	om_family(
		f, "ikebana_child_sa_packets_total", "counter",
		"Packets the installed Child SAs of a conn carried, as the kernel counts them.");
	series(f, "ikebana_child_sa_packets_total", w.v, n, 1);
	free(w.v);
}
