// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * trafficstatus as text, written by the daemon from the engine's Child
 * SAs and the kernel's counters: one line per Child SA, libreswan's order
 * (conn, serial) with strongSwan's packets and idle time. With 10,000
 * Child SAs, the JSON the client used to parse and print was 3 MB.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <ikebana/kernel.h>

#include "control/trafficstatus.h"
#include "ike/ike.h"

struct text_walk {
	const struct ikb_kernel_ops *k;
	void *kstate;
	time_t now;
	FILE *f;
};

static const char *or_dash(const char *s)
{
	return s ? s : "-";
}

/* "in 0xc1234567 1234 bytes 10 packets", or why there are no numbers. */
static void print_dir(const struct text_walk *w, const char *dir,
		      const struct ikb_sa *sa, struct ikb_sa_counters *c)
{
	struct ikb_error err = { "" };

	if (!sa) {
		*c = (struct ikb_sa_counters){ 0 };
		fprintf(w->f, "%s not installed", dir);
		return;
	}
	fprintf(w->f, "%s 0x%08" PRIx32 " ", dir, sa->spi);
	if (traffic_query(w->k, w->kstate, sa, c, &err))
		fprintf(w->f, "error: %s",
			err.msg[0] ? err.msg : "the kernel query failed");
	else
		fprintf(w->f, "%" PRIu64 " bytes %" PRIu64 " packets", c->bytes,
			c->packets);
}

/* "1h 2m 3s", the largest unit first, zero units left out. */
static void print_span(FILE *f, int64_t s)
{
	const char *sep = "";

	if (s >= 86400) {
		fprintf(f, "%" PRId64 "d", s / 86400);
		sep = " ";
	}
	if (s % 86400 >= 3600) {
		fprintf(f, "%s%" PRId64 "h", sep, s / 3600 % 24);
		sep = " ";
	}
	if (s % 3600 >= 60) {
		fprintf(f, "%s%" PRId64 "m", sep, s / 60 % 60);
		sep = " ";
	}
	if (s % 60 || !*sep)
		fprintf(f, "%s%" PRId64 "s", sep, s % 60);
}

static void print_child(void *ctx, const struct ike_child_info *c)
{
	struct text_walk *w = ctx;
	struct ikb_sa_counters in, out;
	int64_t idle;

	fprintf(w->f, "\"%s\" #%lu, reqid %" PRIu32 ": ESP %s %s, ",
		or_dash(c->conn), c->ike_serial, c->reqid,
		c->mode == IKB_MODE_TUNNEL ? "tunnel" : "transport",
		or_dash(c->alg));
	print_dir(w, "in", c->in, &in);
	fputs(", ", w->f);
	print_dir(w, "out", c->out, &out);
	if (traffic_idle(w->now, &in, &out, &idle)) {
		fputs(", idle ", w->f);
		print_span(w->f, idle);
	} else {
		fputs(", never used", w->f);
	}
	fprintf(w->f, ", id '%s'\n", or_dash(c->remote_id));
}

char *traffic_text(const struct ike_engine *e, const struct ikb_kernel_ops *k,
		   void *kstate, const char *conn, time_t now, size_t *len)
{
	char *buf = NULL;
	struct text_walk w = { .k = k, .kstate = kstate, .now = now };

	*len = 0;
	w.f = open_memstream(&buf, len);
	if (!w.f)
		return NULL;
	if (e)
		ike_engine_foreach_child(e, conn, print_child, &w);
	if (fclose(w.f)) {
		free(buf);
		return NULL;
	}
	return buf;
}
