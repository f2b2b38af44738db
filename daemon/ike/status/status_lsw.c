// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * `ipsec status` in libreswan's shape (whack --status), for the tools
 * that parse it: ovs-monitor-ipsec counts a conn as loaded by
 *   "NAME": ADDRESS...ADDRESS  (a hex digit first, then === or ...)
 * and as active by
 *   #N: "NAME" ... esp.SPI@ADDRESS
 * and reads "Total IPsec connections: loaded N, active M". Child SAs
 * have no serial of their own here: their lines carry their IKE SA's.
 *
 * Every line starts with libreswan 4's "000 " (whack's reply code), and
 * none is empty: ovs-monitor-ipsec 3.1 stops reading at the first empty
 * line, which libreswan 4 never prints ("000  " stands for one).
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "ike/child/child.h"
#include "ike/conn/conn.h"
#include "ike/engine.h"
#include "ike/msg/msg.h"
#include "ike/route/route.h"
#include "ike/status/status.h"
#include "ike/timers.h"

#define LSW "000 " /* whack's reply code of a status line */

/* "192.0.2.1[@east]" and its protocol/port */
static void lsw_host(FILE *f, const struct conn_end *e)
{
	char a[64];

	fputs(e->addr.family ? addr_str(&e->addr, a, sizeof(a)) : "%any", f);
	if (e->id)
		fprintf(f, "[%s]", e->id);
	if (e->proto)
		fprintf(f, ":%u/%u", e->proto, e->port);
}

/* libreswan's order: LNET===LHOST[LID]...RHOST[RID]===RNET */
static void end_text(FILE *f, const struct conn_end *e, bool local)
{
	char n[64];

	if (e->net_set && local)
		fprintf(f, "%s/%u===", addr_str(&e->net, n, sizeof(n)), e->plen);
	lsw_host(f, e);
	if (e->net_set && !local)
		fprintf(f, "===%s/%u", addr_str(&e->net, n, sizeof(n)), e->plen);
}

/* The first established Child SA of conn, and its IKE SA's serial. */
static const struct child_sa *conn_child(const struct ike_engine *e,
					 const char *conn,
					 unsigned long *serial)
{
	for (const struct ike_sa *sa = e->all; sa; sa = sa->next_all) {
		if (strcmp(sa->conn, conn) || sa->state != IKE_SA_ESTABLISHED)
			continue;
		for (const struct child_sa *c = sa->children; c; c = c->next)
			if (c->sa_in_done && c->sa_out_done) {
				*serial = sa->serial;
				return c;
			}
	}
	return NULL;
}

static bool conn_line(FILE *f, const struct ike_engine *e,
		      const struct conn *c)
{
	struct ikb_error err = { "" };
	struct conn_view v;
	unsigned long serial = 0;
	const struct child_sa *child = conn_child(e, c->name, &serial);

	if (conn_view_local(e, c, &v, &err))
		v = c->view[1]; /* as written: left first */
	fprintf(f, LSW "\"%s\": ", c->name);
	end_text(f, &v.local, true);
	fputs("...", f);
	end_text(f, &v.remote, false);
	if (child)
		fprintf(f, "; erouted; eroute owner: #%lu\n", serial);
	else
		fprintf(f, "; %s; eroute owner: #0\n",
			trap_routed(e, c->name) ? "prospective erouted" :
						  "unrouted");
	return child != NULL;
}

static void sa_lines(FILE *f, const struct ike_sa *sa)
{
	char l[64], r[64];

	addr_str(&sa->path.local, l, sizeof(l));
	addr_str(&sa->path.remote, r, sizeof(r));
	fprintf(f, LSW "#%lu: \"%s\":%u %s (%s IKE SA);",
		(unsigned long)sa->serial,
		sa->conn, sa->path.rport,
		sa->state == IKE_SA_ESTABLISHED ? "STATE_V2_ESTABLISHED_IKE_SA" :
						  "STATE_V2_IKE_SA_NEGOTIATING",
		sa->state == IKE_SA_ESTABLISHED ? "established" : "opening");
	if (sa->rekey_at)
		fprintf(f, " REKEY in %llds;", (long long)(sa->rekey_at - wall_s()));
	fputc('\n', f);
	for (const struct child_sa *c = sa->children; c; c = c->next) {
		if (!c->sa_in_done || !c->sa_out_done)
			continue;
		fprintf(f, LSW "#%lu: \"%s\" esp.%08" PRIx32 "@%s esp.%08" PRIx32
			   "@%s",
			(unsigned long)sa->serial, sa->conn, c->spi_out, r,
			c->spi_in, l);
		if (c->mode == IKB_MODE_TUNNEL)
			fprintf(f, " tun.0@%s tun.0@%s", r, l);
		fputs(" Traffic: ESPmax=2^63B\n", f);
	}
}

void ike_engine_status_lsw(const struct ike_engine *e, FILE *f)
{
	const struct conn_set *set = e ? e->conns : NULL;
	size_t loaded = 0, active = 0, nike = 0, nchild = 0, est = 0;

	for (size_t i = 0; set && i < set->n; i++) {
		if (set->conns[i].ignored || set->conns[i].inst_of)
			continue;
		loaded++;
		active += conn_line(f, e, &set->conns[i]);
	}
	fprintf(f, LSW "Total IPsec connections: loaded %zu, active %zu\n", loaded,
		active);
	for (const struct ike_sa *sa = e ? e->all : NULL; sa; sa = sa->next_all) {
		nike++;
		est += sa->state == IKE_SA_ESTABLISHED;
		for (const struct child_sa *c = sa->children; c; c = c->next)
			nchild += c->sa_in_done && c->sa_out_done;
	}
	fprintf(f, LSW " \n" LSW "IKE SAs: total(%zu), half-open(%zu), open(0), "
		   "authenticated(%zu), anonymous(0)\n",
		nike, nike - est, est);
	fprintf(f, LSW "IPsec SAs: total(%zu), authenticated(%zu), anonymous(0)\n" LSW " \n",
		nchild, nchild);
	for (const struct ike_sa *sa = e ? e->all : NULL; sa; sa = sa->next_all)
		sa_lines(f, sa);
}
