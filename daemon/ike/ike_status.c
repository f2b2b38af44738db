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
#include "ike/child_sa.h"
#include "ike/engine.h"
#include "ike/host.h"
#include "ike/ipsec_if.h"
#include "ike/frag.h"
#include "ike/mobike.h"
#include "ike/nat.h"
#include "ike/timers.h"
#include "ike/trap.h"
#include "ike/msg.h"
#include "ike/exchange.h"

static void put_str(struct json_object *o, const char *k, const char *v)
{
	json_object_object_add(o, k, json_object_new_string(v));
}

static const char hex_digits[] = "0123456789abcdef";

/*
 * The SPIs in hex without snprintf: with 10,000 SAs, status formatted
 * 40,000 of them, the IKE SPIs with eight conversions each.
 */
static void put_spi(struct json_object *o, const char *k, const uint8_t s[8])
{
	char buf[17];

	for (int i = 0; i < 8; i++) {
		buf[2 * i] = hex_digits[s[i] >> 4];
		buf[2 * i + 1] = hex_digits[s[i] & 0xf];
	}
	buf[16] = '\0';
	put_str(o, k, buf);
}

/* "%08" PRIx32 */
static void put_spi32(struct json_object *o, const char *k, uint32_t spi)
{
	char buf[9];

	for (int i = 0; i < 8; i++)
		buf[i] = hex_digits[spi >> (28 - 4 * i) & 0xf];
	buf[8] = '\0';
	put_str(o, k, buf);
}

static void put_sel(struct json_object *o, const char *k,
		    const struct ikb_addr *a, uint8_t plen, uint8_t proto,
		    uint16_t port)
{
	char addr[64], buf[128];

	snprintf(buf, sizeof(buf), "%s/%u", addr_str(a, addr, sizeof(addr)),
		 plen);
	if (proto)
		snprintf(buf + strlen(buf), sizeof(buf) - strlen(buf),
			 " proto %u port %u", proto, port);
	put_str(o, k, buf);
}

/* A side of several selectors: "10.1.0.0/24,10.2.0.0/24" */
static void put_nets(struct json_object *o, const char *k,
		     const struct ts_net *v, unsigned n,
		     const struct ikb_selector *ts, uint16_t port)
{
	char addr[64], buf[TS_NETS_MAX * 48 + 32] = "";

	for (unsigned i = 0; i < n; i++)
		snprintf(buf + strlen(buf), sizeof(buf) - strlen(buf),
			 "%s%s/%u", i ? "," : "",
			 addr_str(&v[i].a, addr, sizeof(addr)), v[i].plen);
	if (ts->proto)
		snprintf(buf + strlen(buf), sizeof(buf) - strlen(buf),
			 " proto %u port %u", ts->proto, port);
	put_str(o, k, buf);
}

static const char *alg_name(const struct ikb_sa *sa)
{
	return sa->aead.name[0] ? sa->aead.name : sa->encr.name;
}

/* Seconds until t, on the clock that dated t (wall_s()); nothing when t is 0. */
static void put_in(struct json_object *o, const char *k, time_t t)
{
	if (t)
		json_object_object_add(o, k,
				       json_object_new_int64(t - wall_s()));
}

static const char *child_state(const struct child_sa *c)
{
	/* nothing in the kernel; the Delete to the peer is pending */
	if (c->state != CHILD_FAILED && child_deleting(c))
		return "deleting";
	if (c->state == CHILD_INSTALLED || c->state == CHILD_INBOUND_ONLY)
		return child_rekeying(c) ? "rekeying" :
					   child_state_name(c->state);
	return child_state_name(c->state);
}

/* pcrypt as installed: on, fallback (asked, the kernel cannot) or off. */
static const char *pcrypt_state(const struct child_sa *c)
{
	if (c->sa_in.pcrypt_fallback || c->sa_out.pcrypt_fallback)
		return "fallback";
	return c->sa_in.pcrypt || c->sa_out.pcrypt ? "on" : "off";
}

static const char *offload_one(const struct ikb_sa *sa)
{
	if (sa->offload_fallback)
		return "software";
	switch (sa->offload) {
	case IKB_OFFLOAD_CRYPTO:
		return "crypto";
	case IKB_OFFLOAD_PACKET:
		return "packet";
	case IKB_OFFLOAD_YES: /* a backend that does not say what it did */
		return "yes";
	default:
		return "none";
	}
}

/*
 * nic-offload as installed: none, crypto, packet, or software (yes fell
 * back), and the device. Both directions ask for the same; if only one
 * fell back (a device may offload one direction only), that one shows.
 */
static void put_offload(struct json_object *o, const struct child_sa *c)
{
	const struct ikb_sa *sa =
		c->sa_in.offload_fallback ? &c->sa_in : &c->sa_out;

	put_str(o, "offload", offload_one(sa));
	if (sa->offload != IKB_OFFLOAD_NO && sa->offload_dev[0])
		put_str(o, "offload_dev", sa->offload_dev);
}

static struct json_object *child_status(const struct child_sa *c)
{
	struct json_object *o = json_object_new_object();
	char buf[256];

	put_str(o, "state", child_state(c));
	put_in(o, "rekey_in_s", c->rekey_at);
	put_in(o, "expire_in_s", c->expire_at);
	json_object_object_add(o, "reqid", json_object_new_int64(c->reqid));
	put_str(o, "mode", c->mode == IKB_MODE_TUNNEL ? "tunnel" : "transport");
	put_spi32(o, "spi_in", c->spi_in);
	put_spi32(o, "spi_out", c->spi_out);
	prop_render(&c->prop, buf, sizeof(buf));
	put_str(o, "proposal", buf);
	put_str(o, "kernel_alg", alg_name(&c->sa_out));
	if (c->tsx) {
		put_nets(o, "ts_local", c->tsx->l, c->tsx->nl, &c->ts,
			 c->ts.sport);
		put_nets(o, "ts_remote", c->tsx->r, c->tsx->nr, &c->ts,
			 c->ts.dport);
	} else {
		put_sel(o, "ts_local", &c->ts.src, c->ts.src_plen, c->ts.proto,
			c->ts.sport);
		put_sel(o, "ts_remote", &c->ts.dst, c->ts.dst_plen, c->ts.proto,
			c->ts.dport);
	}
	json_object_object_add(o, "esn", json_object_new_boolean(c->sa_in.esn));
	json_object_object_add(o, "replay_window",
			       json_object_new_int64(c->sa_in.replay_window));
	json_object_object_add(
		o, "cpu", c->cpu < 0 ? NULL : json_object_new_int64(c->cpu));
	put_str(o, "pcrypt", pcrypt_state(c));
	put_offload(o, c);
	/* mark=: as installed, "0x7/0xff"; absent when unmarked. mark is
	 * the outbound SA's, mark_in the inbound one's where it differs */
	if (c->sa_out.mark || c->sa_out.mark_mask) {
		snprintf(buf, sizeof(buf), "0x%" PRIx32 "/0x%" PRIx32,
			 c->sa_out.mark, c->sa_out.mark_mask);
		put_str(o, "mark", buf);
	}
	if (c->sa_in.mark != c->sa_out.mark ||
	    c->sa_in.mark_mask != c->sa_out.mark_mask) {
		snprintf(buf, sizeof(buf), "0x%" PRIx32 "/0x%" PRIx32,
			 c->sa_in.mark, c->sa_in.mark_mask);
		put_str(o, "mark_in", buf);
	}
	/* ipsec-interface=: the if_id as installed, and its ipsecN */
	if (c->sa_out.if_id) {
		json_object_object_add(o, "if_id",
				       json_object_new_int64(c->sa_out.if_id));
		ipsec_if_name(c->sa_out.if_id, buf);
		put_str(o, "interface", buf);
	}
	return o;
}

static const char *status_state(const struct ike_sa *sa)
{
	return sa->opening == IKE_OPENING_QUEUED ? "queued" :
						   ike_sa_state_name(sa->state);
}

void ike_sa_get_info(const struct ike_sa *sa, struct ike_sa_info *info)
{
	*info = (struct ike_sa_info){
		.conn = sa->conn,
		.serial = sa->serial,
		.initiator = sa->initiator,
		.established = sa->state == IKE_SA_ESTABLISHED,
		.state = status_state(sa),
		.spi_i = sa->spi_i,
		.spi_r = sa->spi_r,
		.path = &sa->path,
		.local_id = sa->local_id.text,
		.remote_id = sa->remote_id.text,
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
		put_str(c, "subject", pc->subject);
		put_str(c, "issuer", pc->issuer);
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

	put_str(o, "conn", sa->conn);
	json_object_object_add(o, "serial",
			       json_object_new_int64((int64_t)sa->serial));
	put_str(o, "role", sa->initiator ? "initiator" : "responder");
	put_str(o, "state", status_state(sa));
	put_spi(o, "spi_i", sa->spi_i);
	put_spi(o, "spi_r", sa->spi_r);
	put_str(o, "local", addr_str(&sa->path.local, buf, sizeof(buf)));
	put_str(o, "remote", addr_str(&sa->path.remote, buf, sizeof(buf)));
	put_str(o, "local_id", sa->local_id.text);
	put_str(o, "remote_id", sa->remote_id.text);
	put_peer(o, sa);
	prop_render(&sa->prop, buf, sizeof(buf));
	put_str(o, "proposal", buf);
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
