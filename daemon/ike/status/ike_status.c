// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Status as JSON, what `ikebana status` and the tests read, and the
 * read-only view of an IKE SA that listeners and iterators get.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <json-c/json.h>

#include "crypto/cred.h"
#include "ike/child/child.h"
#include "ike/engine.h"
#include "ike/conn/conn.h"
#include "ike/route/route.h"
#include "ike/msg/msg.h"
#include "ike/path/path.h"
#include "ike/timers.h"
#include "ike/exchange/exchange.h"
#include "ike/status/status_fmt.h"
#include "ike/status/status.h"
#include "util/json.h"

static void put_spi(struct json_object *o, const char *k, const uint8_t s[8])
{
	char buf[17];

	fmt_spi64(buf, s);
	json_put_str(o, k, buf);
}

static void put_spi32(struct json_object *o, const char *k, uint32_t spi)
{
	char buf[9];

	fmt_spi32(buf, spi);
	json_put_str(o, k, buf);
}

static void put_ts(struct json_object *o, const char *k,
		   const struct child_sa *c, bool local)
{
	char buf[FMT_TS_LEN];

	fmt_ts(buf, c, local);
	json_put_str(o, k, buf);
}

/* mark=: "0x7/0xff" */
static void put_mark(struct json_object *o, const char *k, uint32_t mark,
		     uint32_t mask)
{
	char buf[24];

	fmt_mark(buf, mark, mask);
	json_put_str(o, k, buf);
}

/* Seconds until t, on the clock that dated t (wall_s()); nothing when t is 0. */
static void put_in(struct json_object *o, const char *k, time_t t)
{
	if (t)
		json_object_object_add(o, k,
				       json_object_new_int64(t - wall_s()));
}

/* nic-offload as installed, and the device (status_fmt.h) */
static void put_offload(struct json_object *o, const struct child_sa *c)
{
	const struct ikb_sa *sa = status_offload_sa(c);

	json_put_str(o, "offload", status_offload(sa));
	if (status_offload_dev(sa))
		json_put_str(o, "offload_dev", status_offload_dev(sa));
}

static struct json_object *child_status(const struct child_sa *c)
{
	struct json_object *o = json_object_new_object();
	char buf[256];

	json_put_str(o, "state", status_child_state(c));
	put_in(o, "rekey_in_s", c->rekey_at);
	put_in(o, "expire_in_s", c->expire_at);
	json_object_object_add(o, "reqid", json_object_new_int64(c->reqid));
	json_put_str(o, "mode",
		     c->mode == IKB_MODE_TUNNEL ? "tunnel" : "transport");
	put_spi32(o, "spi_in", c->spi_in);
	put_spi32(o, "spi_out", c->spi_out);
	ike_prop_render(&c->prop, buf, sizeof(buf));
	json_put_str(o, "proposal", buf);
	json_put_str(o, "kernel_alg", status_kernel_alg(c));
	put_ts(o, "ts_local", c, true);
	put_ts(o, "ts_remote", c, false);
	json_object_object_add(o, "esn", json_object_new_boolean(c->sa_in.esn));
	json_object_object_add(o, "replay_window",
			       json_object_new_int64(c->sa_in.replay_window));
	json_object_object_add(
		o, "cpu", c->cpu < 0 ? NULL : json_object_new_int64(c->cpu));
	json_put_str(o, "pcrypt", status_pcrypt(c));
	put_offload(o, c);
	/* mark=: as installed; mark is the outbound SA's, mark_in the
	 * inbound one's where it differs; absent when unmarked */
	if (c->sa_out.mark || c->sa_out.mark_mask)
		put_mark(o, "mark", c->sa_out.mark, c->sa_out.mark_mask);
	if (c->sa_in.mark != c->sa_out.mark ||
	    c->sa_in.mark_mask != c->sa_out.mark_mask)
		put_mark(o, "mark_in", c->sa_in.mark, c->sa_in.mark_mask);
	/* ipsec-interface=: the if_id as installed, and its ipsecN */
	if (c->sa_out.if_id) {
		json_object_object_add(o, "if_id",
				       json_object_new_int64(c->sa_out.if_id));
		ipsec_if_name(c->sa_out.if_id, buf);
		json_put_str(o, "interface", buf);
	}
	return o;
}

void ike_sa_get_info(const struct ike_sa *sa, struct ike_sa_info *info)
{
	*info = (struct ike_sa_info){
		.conn = sa->conn,
		.serial = sa->serial,
		.initiator = sa->initiator,
		.established = sa->state == IKE_SA_ESTABLISHED,
		.state = status_sa_state(sa),
		.spi_i = sa->spi_i,
		.spi_r = sa->spi_r,
		.path = &sa->path,
		.local_id = ike_sa_id_text(&sa->local_id),
		.remote_id = ike_sa_id_text(&sa->remote_id),
	};
}

/*
 * How the peer authenticated ("PSK", "RSA-PSS with SHA2-256"; null until
 * it has), and the certificate it did so with: null without one.
 */
static void put_peer(struct json_object *o, const struct ike_sa *sa)
{
	const struct peer_cert *pc = sa->peer_cert;
	const char *how = sa->peer_auth.method;
	struct json_object *c = NULL;

	json_object_object_add(o, "peer_auth",
			       how ? json_object_new_string(how) : NULL);
	if (pc) {
		c = json_object_new_object();
		json_put_str(c, "subject", pc->subject);
		json_put_str(c, "issuer", pc->issuer);
	}
	json_object_object_add(o, "peer_cert", c);
}

static struct json_object *u64(unsigned long v)
{
	return json_object_new_int64((int64_t)v);
}

/* RFC 7383: null unless both ends announced it; then what went and came. */
static void put_frag(struct json_object *o, const struct ike_sa *sa)
{
	const struct ike_frag *f = sa->frag;
	struct json_object *c = NULL;

	if (f) {
		c = json_object_new_object();
		json_object_object_add(c, "messages_sent", u64(f->msgs_out));
		json_object_object_add(c, "fragments_sent", u64(f->frags_out));
		json_object_object_add(c, "messages_received", u64(f->msgs_in));
		json_object_object_add(c, "fragments_received",
				       u64(f->frags_in));
		json_object_object_add(c, "fragments_dropped", u64(f->dropped));
	}
	json_object_object_add(o, "fragmentation", c);
}

/* NAT-T: which side is behind a NAT, the ports, keepalives, moves */
static void put_nat(struct json_object *o, const struct ike_sa *sa)
{
	const struct ike_nat *n = sa->nat;
	struct json_object *c = NULL;

	json_object_object_add(o, "nat_local",
			       json_object_new_boolean(n && n->local));
	json_object_object_add(o, "nat_remote",
			       json_object_new_boolean(n && n->remote));
	if (n) {
		c = json_object_new_object();
		json_object_object_add(c, "local_behind",
				       json_object_new_boolean(n->local));
		json_object_object_add(c, "remote_behind",
				       json_object_new_boolean(n->remote));
		json_object_object_add(c, "forced",
				       json_object_new_boolean(n->forced));
		json_object_object_add(c, "encapsulation",
				       json_object_new_boolean(n->encap));
		json_object_object_add(c, "keepalives_sent",
				       u64(n->keepalives));
		json_object_object_add(
			c, "last_keepalive_s",
			n->last_keepalive_ms ?
				u64((mono_ms() - n->last_keepalive_ms) / 1000) :
				NULL);
		json_object_object_add(c, "mappings_followed",
				       u64(n->mappings));
	}
	json_object_object_add(o, "nat", c);
}

struct json_object *ike_sa_status(const struct ike_sa *sa)
{
	struct json_object *o = json_object_new_object();
	struct json_object *kids = json_object_new_array();
	char buf[256];

	json_put_str(o, "conn", sa->conn);
	json_object_object_add(o, "serial",
			       json_object_new_int64((int64_t)sa->serial));
	json_put_str(o, "role", sa->initiator ? "initiator" : "responder");
	json_put_str(o, "state", status_sa_state(sa));
	put_spi(o, "spi_i", sa->spi_i);
	put_spi(o, "spi_r", sa->spi_r);
	json_put_str(o, "local", addr_str(&sa->path.local, buf, sizeof(buf)));
	json_put_str(o, "remote", addr_str(&sa->path.remote, buf, sizeof(buf)));
	json_put_str(o, "local_id", ike_sa_id_text(&sa->local_id));
	json_put_str(o, "remote_id", ike_sa_id_text(&sa->remote_id));
	put_peer(o, sa);
	ike_prop_render(&sa->prop, buf, sizeof(buf));
	json_put_str(o, "proposal", buf);
	json_object_object_add(o, "local_port", u64(sa->path.lport));
	json_object_object_add(o, "remote_port", u64(sa->path.rport));
	put_nat(o, sa);
	json_object_object_add(o, "mobike", mobike_status(sa));
	put_frag(o, sa);
	hosts_put_sa(o, sa);
	json_object_object_add(o, "age_s",
			       json_object_new_int64(wall_s() - sa->created));
	put_in(o, "rekey_in_s", sa->rekey_at);
	put_in(o, "expire_in_s", sa->expire_at);
	for (const struct child_sa *c = sa->children; c; c = c->next)
		json_object_array_add(kids, child_status(c));
	json_object_object_add(o, "child_sas", kids);
	return o;
}

struct json_object *ike_engine_status(const struct ike_engine *e)
{
	struct json_object *o = json_object_new_object();
	struct json_object *sas = json_object_new_array();

	for (const struct ike_sa *sa = e->all; sa; sa = sa->next_all)
		json_object_array_add(sas, ike_sa_status(sa));
	json_object_object_add(o, "ike_sas", sas);
	json_object_object_add(o, "routes", traps_status(e));
	json_object_object_add(o, "interfaces", ipsec_ifs_status(e));
	json_object_object_add(o, "half_open",
			       json_object_new_int64(e->halfopen));
	return o;
}
