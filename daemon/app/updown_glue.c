// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The daemon's updown runner (daemon/updown/) on its engine, with the
 * kernel backend's counters for PLUTO_INBYTES and PLUTO_OUTBYTES.
 */
#include <ikebana/plugin.h>

#include "app/daemon.h"
#include "app/updown_glue.h"
#include "log/log.h"
#include "plugin/plugin_set.h"
#include "updown/updown.h"

static int sa_bytes(struct ikbd *d, const struct ikb_sa *sa, uint64_t *out)
{
	struct ikb_error err = { "" };
	struct ikb_sa_counters c = { 0 };
	const struct ikb_kernel_ops *k;
	void *st;

	*out = 0;
	if (!sa)
		return 0;
	k = d->conf.plugins ? plugin_set_kernel(d->conf.plugins, &st) : NULL;
	if (!k || !k->sa_query ||
	    k->sa_query(st, &sa->dst, sa->spi, sa->proto, &c, &err))
		return -1;
	*out = c.bytes;
	return 0;
}

static int counters(void *ctx, const struct ike_child_info *c, uint64_t *in,
		    uint64_t *out)
{
	struct ikbd *d = ctx;

	return sa_bytes(d, c->in, in) || sa_bytes(d, c->out, out) ? -1 : 0;
}

int ikbd_updown_start(struct ikbd *d)
{
	struct updown_opts o = { .counters = counters, .ctx = d };

	d->updown = updown_new(d->base, d->engine, &o);
	return d->updown ? 0 : -1;
}

/* The down verbs' share of TimeoutStopSec= (30 s in ikebana.service). */
#define STOP_WAIT_MS 10000

void ikbd_updown_stop(struct ikbd *d)
{
	updown_stop(d->updown, STOP_WAIT_MS);
	updown_free(d->updown);
	d->updown = NULL;
}
