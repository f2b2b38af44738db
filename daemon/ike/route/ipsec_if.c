// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The engine's XFRM interfaces (ipsec-interface=): one entry per if_id
 * that a loaded conn names, counting those conns. The device itself is
 * made and deleted through ike_io (net/xfrmi.c in the daemon, a fake in
 * tests); one we found already there is used and never deleted.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <json-c/json.h>

#include "ike/conn/conn.h"
#include "ike/engine.h"
#include "ike/ike.h"
#include "ike/msg/msg.h"
#include "ike/route/ipsec_if.h"
#include "log/log.h"

/* interface-ip= addresses on one device, over the conns naming it */
#define IPSEC_IF_IPS 8

struct ipsec_if_ip {
	struct ikb_addr a;
	uint8_t plen;
	bool added; /* we put it there: we remove it */
};

struct ipsec_if {
	struct ipsec_if *next;
	uint32_t if_id;
	unsigned conns; /* loaded conns naming it */
	bool created; /* we made the device: we delete it */
	bool live; /* the device is there (made or found) */
	char name[IPSEC_IF_NAME_MAX];
	unsigned nips;
	struct ipsec_if_ip ips[IPSEC_IF_IPS];
};

void ipsec_if_name(uint32_t if_id, char name[IPSEC_IF_NAME_MAX])
{
	snprintf(name, IPSEC_IF_NAME_MAX, "ipsec%" PRIu32,
		 if_id == XFRMI_IF_ID_ZERO ? 0 : if_id);
}

static struct ipsec_if *find(struct ipsec_if *l, uint32_t if_id)
{
	while (l && l->if_id != if_id)
		l = l->next;
	return l;
}

/* The conn's local address, for the device the interface links to. */
static void local_of(const struct ike_engine *e, const struct conn *c,
		     struct ikb_addr *a)
{
	struct conn_view v;
	struct ikb_error err = { "" };

	memset(a, 0, sizeof(*a));
	if (!conn_view_local(e, c, &v, &err))
		*a = v.local.addr;
}

static const char *ip_str(const struct ipsec_if_ip *ip, char *buf,
			  size_t len)
{
	char a[64];

	snprintf(buf, len, "%s/%u", addr_str(&ip->a, a, sizeof(a)), ip->plen);
	return buf;
}

static struct ipsec_if_ip *ip_find(struct ipsec_if *x,
				   const struct ipsec_if_ip *ip)
{
	for (unsigned i = 0; x && i < x->nips; i++)
		if (x->ips[i].plen == ip->plen &&
		    ike_addr_equal(&x->ips[i].a, &ip->a))
			return &x->ips[i];
	return NULL;
}

/* c's local interface-ip=, wanted on x (once, however many conns ask). */
static void ifip_want(struct ipsec_if *x, const struct conn *c,
		      const struct ike_engine *e)
{
	struct conn_view v;
	struct ikb_error err = { "" };
	struct ipsec_if_ip ip = { 0 };
	char buf[80];

	if (conn_view_local(e, c, &v, &err) || !v.local.ifip.family)
		return;
	ip.a = v.local.ifip;
	ip.plen = v.local.ifip_plen;
	if (ip_find(x, &ip))
		return;
	if (x->nips == IPSEC_IF_IPS) {
		log_err("conn %s: interface-ip=%s: %s has %u addresses already, the most ikebana puts on one",
			c->name, ip_str(&ip, buf, sizeof(buf)), x->name,
			IPSEC_IF_IPS);
		return;
	}
	x->ips[x->nips++] = ip;
}

static void ifip_del(struct ike_engine *e, struct ipsec_if *x,
		     const struct ipsec_if_ip *ip)
{
	struct ikb_error err = { "" };
	char buf[80];

	if (!ip->added || !e->io.ifip_del)
		return;
	if (e->io.ifip_del(e->io.ctx, x->name, &ip->a, ip->plen, &err))
		log_warn("ipsec-interface %s: %s", x->name, err.msg);
	else
		log_info("ipsec-interface %s: %s removed", x->name,
			 ip_str(ip, buf, sizeof(buf)));
}

static void ifip_drop_all(struct ike_engine *e, struct ipsec_if *x)
{
	for (unsigned i = 0; i < x->nips; i++)
		ifip_del(e, x, &x->ips[i]);
	x->nips = 0;
}

/*
 * x's addresses put on its device, those of the old entry (a reload)
 * kept; the old one's that no conn wants any more removed.
 */
static void ifip_sync(struct ike_engine *e, struct ipsec_if *x,
		      struct ipsec_if *was)
{
	struct ikb_error err = { "" };
	char buf[80];

	for (unsigned i = 0; i < x->nips; i++) {
		struct ipsec_if_ip *ip = &x->ips[i], *had = ip_find(was, ip);

		if (had) {
			ip->added = had->added;
			had->added = false; /* now x's to remove */
			continue;
		}
		if (!x->live)
			continue; /* no device: said when it failed */
		if (!e->io.ifip_add)
			log_err("ipsec-interface %s: interface-ip=%s: no way to add addresses here",
				x->name, ip_str(ip, buf, sizeof(buf)));
		else if (e->io.ifip_add(e->io.ctx, x->name, &ip->a, ip->plen,
					&ip->added, &err))
			log_err("ipsec-interface %s: interface-ip=%s: %s",
				x->name, ip_str(ip, buf, sizeof(buf)), err.msg);
		else
			log_info("ipsec-interface %s: %s %s", x->name,
				 ip_str(ip, buf, sizeof(buf)),
				 ip->added ? "added" : "there already");
	}
	for (unsigned i = 0; was && i < was->nips; i++)
		ifip_del(e, x, &was->ips[i]);
	if (was)
		was->nips = 0;
}

static void make(struct ike_engine *e, struct ipsec_if *x, const struct conn *c)
{
	struct ikb_error err = { "" };
	struct ikb_addr local;
	int rc;

	if (!e->io.xfrmi_add)
		return;
	local_of(e, c, &local);
	rc = e->io.xfrmi_add(e->io.ctx, x->name, x->if_id, &local,
			     e->conns->if_managed, &x->created, &err);
	if (rc) {
		log_err("conn %s: ipsec-interface %s (if_id %" PRIu32
			"): %s; its SAs carry the if_id, but no traffic is routed to them",
			c->name, x->name, x->if_id, err.msg);
		return;
	}
	x->live = true;
	log_info("conn %s: ipsec-interface %s (if_id %" PRIu32 ") %s", c->name,
		 x->name, x->if_id,
		 x->created ? "created and up" : "found, used as it is");
}

static void drop(struct ike_engine *e, struct ipsec_if *x)
{
	struct ikb_error err = { "" };

	/* a device we keep (not ours) keeps none of our addresses */
	if (!x->created)
		ifip_drop_all(e, x);
	if (x->created && e->io.xfrmi_del) {
		if (e->io.xfrmi_del(e->io.ctx, x->name, &err))
			log_warn("ipsec-interface %s: %s", x->name, err.msg);
		else
			log_info("ipsec-interface %s (if_id %" PRIu32
				 ") deleted: no conn names it",
				 x->name, x->if_id);
	}
	free(x);
}

/* The if_ids of the new conns, counted, each made once. */
static struct ipsec_if *hold_new(struct ike_engine *e, struct ipsec_if *old)
{
	struct ipsec_if *l = NULL;

	for (size_t i = 0; e->conns && i < e->conns->n; i++) {
		const struct conn *c = &e->conns->conns[i];
		struct ipsec_if *x, *was;

		if (!c->if_id || c->ignored)
			continue;
		x = find(l, c->if_id);
		if (x) {
			x->conns++;
			ifip_want(x, c, e);
			continue;
		}
		x = calloc(1, sizeof(*x));
		if (!x) {
			log_err("conn %s: ipsec-interface: out of memory",
				c->name);
			continue;
		}
		x->if_id = c->if_id;
		x->conns = 1;
		ipsec_if_name(x->if_id, x->name);
		was = find(old, c->if_id);
		if (was && was->live) {
			/* kept across the reload: the old entry's device */
			x->created = was->created;
			x->live = was->live;
			was->created = false;
		} else {
			make(e, x, c);
		}
		ifip_want(x, c, e);
		x->next = l;
		l = x;
	}
	for (struct ipsec_if *x = l; x; x = x->next)
		ifip_sync(e, x, find(old, x->if_id));
	return l;
}

void ipsec_ifs_sync(struct ike_engine *e)
{
	struct ipsec_if *old = e->ifs;

	e->ifs = hold_new(e, old);
	while (old) {
		struct ipsec_if *next = old->next;

		drop(e, old);
		old = next;
	}
}

void ipsec_ifs_free(struct ike_engine *e)
{
	while (e->ifs) {
		struct ipsec_if *next = e->ifs->next;

		drop(e, e->ifs);
		e->ifs = next;
	}
}

/* ["192.0.2.1/24", ...]: interface-ip= of the conns naming it */
static struct json_object *ips_status(const struct ipsec_if *x)
{
	struct json_object *a = json_object_new_array();
	char buf[80];

	for (unsigned i = 0; a && i < x->nips; i++)
		json_object_array_add(a, json_object_new_string(ip_str(
						 &x->ips[i], buf, sizeof(buf))));
	return a;
}

struct json_object *ipsec_ifs_status(const struct ike_engine *e)
{
	struct json_object *a = json_object_new_array();

	for (const struct ipsec_if *x = e->ifs; a && x; x = x->next) {
		struct json_object *o = json_object_new_object();

		if (!o)
			break;
		json_object_object_add(o, "name",
				       json_object_new_string(x->name));
		json_object_object_add(o, "if_id",
				       json_object_new_int64(x->if_id));
		json_object_object_add(o, "conns",
				       json_object_new_int64(x->conns));
		json_object_object_add(o, "created",
				       json_object_new_boolean(x->created));
		json_object_object_add(o, "up",
				       json_object_new_boolean(x->live));
		json_object_object_add(o, "addresses", ips_status(x));
		json_object_array_add(a, o);
	}
	return a;
}

struct json_object *ike_engine_interfaces(const struct ike_engine *e)
{
	return ipsec_ifs_status(e);
}
