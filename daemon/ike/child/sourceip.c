// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * leftsourceip= (sourceip.h), on the event bus: the first Child SA of a
 * conn to a subnet adds the route (and the address, when the host lacks
 * it), the last one to leave removes them. A rekey's successor is up
 * before the old one goes, so the route stays through rekeys. A failure
 * is logged and the Child SA stays: the subnets' traffic is protected,
 * only this host's own traffic does not take the address.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ike/child/sourceip.h"
#include "ike/engine.h"
#include "log/log.h"

struct srcroute_rec {
	struct srcroute_rec *next;
	char conn[IKE_CONN_NAME_LEN];
	struct ike_srcroute r;
	bool addr_added; /* this record put r.src on the device */
};

struct srcroutes {
	struct srcroute_rec *head;
	struct ike_listener *listener;
};

static const char *astr(const struct ikb_addr *a, char *buf, size_t len)
{
	if (!a->family || !inet_ntop(a->family, a->bytes, buf, (socklen_t)len))
		snprintf(buf, len, "?");
	return buf;
}

static struct srcroute_rec **rec_find(struct srcroutes *s, const char *conn,
				      const struct ikb_selector *ts)
{
	struct srcroute_rec **pp = &s->head;

	for (; *pp; pp = &(*pp)->next)
		if (!strcmp((*pp)->conn, conn) &&
		    (*pp)->r.plen == ts->dst_plen &&
		    ike_addr_equal(&(*pp)->r.net, &ts->dst))
			return pp;
	return pp;
}

static bool addr_in_use(const struct srcroutes *s, const struct ikb_addr *a,
			const struct srcroute_rec *but)
{
	for (const struct srcroute_rec *r = s->head; r; r = r->next)
		if (r != but && ike_addr_equal(&r->r.src, a))
			return true;
	return false;
}

static void route_add(struct ike_engine *e, const struct ike_event *ev,
		      const struct ikb_addr *src)
{
	struct srcroutes *s = e->srcroutes;
	const struct ikb_selector *ts = &ev->child->ts;
	struct ikb_error err = { "" };
	struct srcroute_rec *r;
	char a[INET6_ADDRSTRLEN], n[INET6_ADDRSTRLEN];

	if (*rec_find(s, ev->ike->conn, ts))
		return;
	r = calloc(1, sizeof(*r));
	if (!r) {
		log_err("conn %s: leftsourceip=: out of memory", ev->ike->conn);
		return;
	}
	snprintf(r->conn, sizeof(r->conn), "%s", ev->ike->conn);
	r->r = (struct ike_srcroute){ .src = *src,
				      .net = ts->dst,
				      .plen = ts->dst_plen,
				      .peer = ev->ike->path->remote };
	r->addr_added =
		!addr_in_use(s, src, NULL) && !e->io.is_local(e->io.ctx, src);
	if (!e->io.srcroute_add ||
	    e->io.srcroute_add(e->io.ctx, &r->r, r->addr_added, &err)) {
		log_err("conn %s: leftsourceip=%s: %s: this host's own traffic to %s/%u does not take the address",
			ev->ike->conn, astr(src, a, sizeof(a)),
			e->io.srcroute_add ? err.msg : "no routes here",
			astr(&ts->dst, n, sizeof(n)), ts->dst_plen);
		free(r);
		return;
	}
	log_info("conn %s: route %s/%u src %s%s", r->conn,
		 astr(&ts->dst, n, sizeof(n)), ts->dst_plen,
		 astr(src, a, sizeof(a)),
		 r->addr_added ? " (address added)" : "");
	r->next = s->head;
	s->head = r;
}

static void rec_remove(struct ike_engine *e, struct srcroute_rec **pp)
{
	struct srcroute_rec *r = *pp;
	struct ikb_error err = { "" };
	bool del_addr =
		r->addr_added && !addr_in_use(e->srcroutes, &r->r.src, r);
	char n[INET6_ADDRSTRLEN];

	/* another route keeps the address: it is that one's to remove */
	if (r->addr_added && !del_addr)
		for (struct srcroute_rec *o = e->srcroutes->head; o;
		     o = o->next)
			if (o != r && ike_addr_equal(&o->r.src, &r->r.src)) {
				o->addr_added = true;
				o->r.ifindex = r->r.ifindex;
				break;
			}
	*pp = r->next;
	if (e->io.srcroute_del &&
	    e->io.srcroute_del(e->io.ctx, &r->r, del_addr, &err))
		log_warn("conn %s: leftsourceip=: %s", r->conn, err.msg);
	else
		log_info("conn %s: route %s/%u removed", r->conn,
			 astr(&r->r.net, n, sizeof(n)), r->r.plen);
	free(r);
}

struct others {
	const struct ike_child_info *going;
	unsigned n;
};

static void count_other(void *ctx, const struct ike_child_info *c)
{
	struct others *o = ctx;

	if (c->spi_in != o->going->spi_in && c->mode == IKB_MODE_TUNNEL &&
	    c->ts.dst_plen == o->going->ts.dst_plen &&
	    ike_addr_equal(&c->ts.dst, &o->going->ts.dst))
		o->n++;
}

static void child_down(struct ike_engine *e, const struct ike_event *ev)
{
	struct srcroute_rec **pp =
		rec_find(e->srcroutes, ev->ike->conn, &ev->child->ts);
	struct others o = { .going = ev->child };

	if (!*pp)
		return;
	ike_engine_foreach_child(e, ev->ike->conn, count_other, &o);
	if (!o.n)
		rec_remove(e, pp);
}

static void on_event(void *ctx, const struct ike_event *ev)
{
	struct ike_engine *e = ctx;

	if (!ev->child || ev->child->mode != IKB_MODE_TUNNEL)
		return;
	if (ev->kind == IKE_EVENT_CHILD_DOWN) {
		child_down(e, ev);
		return;
	}
	if (ev->kind != IKE_EVENT_CHILD_UP)
		return;
	if (ev->child->sourceip.family)
		route_add(e, ev, &ev->child->sourceip);
}

int sourceip_init(struct ike_engine *e)
{
	e->srcroutes = calloc(1, sizeof(*e->srcroutes));
	if (!e->srcroutes)
		return -ENOMEM;
	e->srcroutes->listener = ike_engine_subscribe(e, on_event, e);
	return e->srcroutes->listener ? 0 : -ENOMEM;
}

void sourceip_fini(struct ike_engine *e)
{
	struct srcroutes *s = e->srcroutes;

	if (!s)
		return;
	while (s->head)
		rec_remove(e, &s->head);
	free(s);
	e->srcroutes = NULL;
}
