// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * An IKE SA and its Child SAs as the lines of `ikebana status`, written
 * straight from the engine's structs. With 10,000 SAs, building the JSON
 * of each, serialising it, and parsing and printing it again in the
 * client took 350 to 700 ms; this is what the text view needs and no
 * more. The values come from the same formatters as the JSON answer's
 * (status_fmt.h), so the two views cannot disagree.
 */
#include <inttypes.h>
#include <stdio.h>

#include "crypto/cred.h"
#include "ike/child/child.h"
#include "ike/conn/conn.h"
#include "ike/engine.h"
#include "ike/exchange/exchange.h"
#include "ike/msg/msg.h"
#include "ike/path/path.h"
#include "ike/route/route.h"
#include "ike/status/status.h"
#include "ike/status/status_fmt.h"
#include "ike/timers.h"

void status_duration(FILE *f, long long s)
{
	if (s >= 86400)
		fprintf(f, "%lldd ", s / 86400);
	if (s >= 3600)
		fprintf(f, "%lldh ", s / 3600 % 24);
	if (s >= 60)
		fprintf(f, "%lldm ", s / 60 % 60);
	fprintf(f, "%llds", s % 60);
}

/* ", rekey in 1h 2m 3s, expires in ...": the timers that are set */
static void timers(FILE *f, time_t rekey_at, time_t expire_at)
{
	time_t now = wall_s();

	if (rekey_at) {
		fputs(", rekey in ", f);
		status_duration(f, (long long)(rekey_at - now));
	}
	if (expire_at) {
		fputs(", expires in ", f);
		status_duration(f, (long long)(expire_at - now));
	}
}

/*
 * "CPU 3, pcrypt on, offload crypto on eth0, mark 0x7/0xff, interface
 * ipsec1 (if_id 1)": how the kernel runs it.
 */
static void tuning(FILE *f, const struct child_sa *c)
{
	const struct ikb_sa *osa = status_offload_sa(c);
	const char *dev = status_offload_dev(osa);
	bool marked = c->sa_out.mark || c->sa_out.mark_mask;
	char m[24], mi[24], ifname[32];

	if (c->cpu < 0)
		fputs("      CPU none", f);
	else
		fprintf(f, "      CPU %d", c->cpu);
	fprintf(f, ", pcrypt %s, offload %s", status_pcrypt(c),
		status_offload(osa));
	if (dev)
		fprintf(f, " on %s", dev);
	fmt_mark(m, c->sa_out.mark, c->sa_out.mark_mask);
	if (c->sa_in.mark != c->sa_out.mark ||
	    c->sa_in.mark_mask != c->sa_out.mark_mask) {
		fmt_mark(mi, c->sa_in.mark, c->sa_in.mark_mask);
		fprintf(f, ", mark out %s in %s", marked ? m : "-", mi);
	} else if (marked) {
		fprintf(f, ", mark %s", m);
	}
	if (c->sa_out.if_id) {
		ipsec_if_name(c->sa_out.if_id, ifname);
		fprintf(f, ", interface %s (if_id %" PRIu32 ")", ifname,
			c->sa_out.if_id);
	}
	fputc('\n', f);
}

static void child_text(FILE *f, const struct child_sa *c)
{
	char in[9], out[9], prop[256], l[FMT_TS_LEN], r[FMT_TS_LEN];

	fprintf(f, "    child #%lld %s %s", (long long)c->reqid,
		c->mode == IKB_MODE_TUNNEL ? "tunnel" : "transport",
		status_child_state(c));
	timers(f, c->rekey_at, c->expire_at);
	fmt_spi32(in, c->spi_in);
	fmt_spi32(out, c->spi_out);
	ike_prop_render(&c->prop, prop, sizeof(prop));
	fprintf(f, ":\n      spi in %s out %s, %s (%s)\n", in, out, prop,
		status_kernel_alg(c));
	fmt_ts(l, c, true);
	fmt_ts(r, c, false);
	fprintf(f, "      %s === %s, replay window %lld, ESN %s\n", l, r,
		(long long)c->sa_in.replay_window, c->sa_in.esn ? "on" : "off");
	tuning(f, c);
}

/* How the peer authenticated, with what certificate: nothing before. */
static void peer_text(FILE *f, const struct ike_sa *sa)
{
	const struct peer_cert *pc = sa->peer_cert;
	const char *how = sa->peer_auth.method;

	if (!how && !pc)
		return;
	fprintf(f, "    peer   authenticated by %s\n", how ? how : "-");
	if (pc)
		fprintf(f, "    peer   cert %s\n           issued by %s\n",
			pc->subject, pc->issuer);
}

static void nat_text(FILE *f, const struct ike_sa *sa)
{
	const struct ike_nat *n = sa->nat;

	if (!n)
		return; /* no NAT found, none forced */
	fprintf(f, "    nat    %s%s, ",
		n->local && n->remote ? "both ends behind a NAT" :
		n->local	      ? "we are behind a NAT" :
		n->remote	      ? "the peer is behind a NAT" :
					"none",
		n->forced ? " (encapsulation=yes)" : "");
	if (n->encap)
		fprintf(f, "ESP in UDP %u -> %u", sa->path.lport,
			sa->path.rport);
	else
		fputs("ESP bare (encapsulation=no)", f);
	fprintf(f, ", %llu keepalive(s) sent", n->keepalives);
	if (n->last_keepalive_ms)
		fprintf(f, " (last %llus ago)",
			(mono_ms() - n->last_keepalive_ms) / 1000);
	fprintf(f, ", %llu move(s) followed\n", n->mappings);
}

static const char *addr_or(const struct ikb_addr *a, char *buf, size_t len)
{
	return a->family ? addr_str(a, buf, len) : "?";
}

static void mobike_text(FILE *f, const struct ike_sa *sa)
{
	const struct ike_mobike *mb = sa->mobike;
	char a[64], b[64];

	if (!mb)
		return; /* not negotiated */
	fprintf(f, "    mobike %llu address update(s)", mb->updates);
	if (mb->last_update_ms)
		fprintf(f, ", last %llus ago from %s - %s",
			(mono_ms() - mb->last_update_ms) / 1000,
			addr_or(&mb->prev_local, a, sizeof(a)),
			addr_or(&mb->prev_remote, b, sizeof(b)));
	fprintf(f, ", peer's additional addresses:%s",
		mb->n_addrs ? "" : " none");
	for (unsigned i = 0; i < mb->n_addrs; i++)
		fprintf(f, " %s", addr_or(&mb->addrs[i], a, sizeof(a)));
	fputc('\n', f);
}

static void frag_text(FILE *f, const struct ike_sa *sa)
{
	const struct ike_frag *fr = sa->frag;

	if (!fr)
		return; /* not negotiated */
	fprintf(f,
		"    frags  sent %lu message(s) in %lu, received %lu in %lu, %lu dropped (RFC 7383)\n",
		fr->msgs_out, fr->frags_out, fr->msgs_in, fr->frags_in,
		fr->dropped);
}

void ike_sa_status_text(const struct ike_sa *sa, FILE *f)
{
	char spi_i[17], spi_r[17], l[64], r[64], prop[256];

	fprintf(f, "  %s #%lu: %s, %s, age ", sa->conn, sa->serial,
		sa->initiator ? "initiator" : "responder", status_sa_state(sa));
	status_duration(f, (long long)(wall_s() - sa->created));
	timers(f, sa->rekey_at, sa->expire_at);
	fprintf(f,
		"\n    local  %s port %u id %s\n    remote %s port %u id %s\n",
		addr_str(&sa->path.local, l, sizeof(l)), sa->path.lport,
		ike_sa_id_text(&sa->local_id),
		addr_str(&sa->path.remote, r, sizeof(r)), sa->path.rport,
		ike_sa_id_text(&sa->remote_id));
	peer_text(f, sa);
	nat_text(f, sa);
	mobike_text(f, sa);
	hosts_text_sa(f, sa);
	frag_text(f, sa);
	fmt_spi64(spi_i, sa->spi_i);
	fmt_spi64(spi_r, sa->spi_r);
	ike_prop_render(&sa->prop, prop, sizeof(prop));
	fprintf(f, "    SPIs i %s r %s, %s\n", spi_i, spi_r, prop);
	for (const struct child_sa *c = sa->children; c; c = c->next)
		child_text(f, c);
}
