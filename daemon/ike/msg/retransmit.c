// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Message-ID window 1 (RFC 7296 §2.1, §2.3). The initiator of an exchange
 * resends its request with exponential back-off (retransmit-interval,
 * doubling) until retransmit-timeout, then gives the SA up. The responder
 * never retransmits on its own: it keeps its last response and resends
 * it when the same request comes again, so a request is never processed
 * twice. Both are datagram sets (dgram_set.c): a fragmented message
 * goes again whole (RFC 7383 §2.6).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <event2/event.h>

#include "ike/engine.h"
#include "ike/status/status.h"
#include "ike/timers.h"
#include "ike/conn/conn.h"
#include "ike/msg/msg.h"
#include "ike/exchange/exchange.h"
#include "ike/route/route.h"
#include "log/log.h"

static void arm(struct ike_sa *sa)
{
	struct timeval tv = { sa->rtx.next_ms / 1000,
			      (sa->rtx.next_ms % 1000) * 1000 };

	evtimer_add(sa->rtx.ev, &tv);
}

/* A negotiation that never heard back: its record (a dead peer is DPD's). */
static void no_answer(struct ike_sa *sa, const char *why)
{
	struct ike_failure f;
	const uint8_t *d = sa->rtx.req;

	/* a datagram set (dgram_set.c): two octets of length, then the
	 * first datagram; its exchange type is octet 18 (RFC 7296 §3.1) */
	failure_from_sa(&f, sa, IKE_FAIL_NO_ANSWER,
			d && sa->rtx.req_len > 2 + 18 ? d[2 + 18] : 0);
	failure_detail(&f, why);
	failure_file(sa->e, &f);
}

/*
 * dpdaction=hold: the dead peer's Child SAs are gone with their policies;
 * a conn that was not routed is now, so that its traffic is held by the
 * trap (and brings new SAs on its first packet) rather than sent in clear.
 */
static void dpd_hold(struct ike_engine *e, const char *conn)
{
	struct ikb_error err = { "" };

	if (trap_routed(e, conn))
		return;
	if (trap_route(e, conn, &err))
		log_warn("conn %s: dpdaction=hold: cannot route it: %s", conn,
			 err.msg);
	else
		log_notice("conn %s: dpdaction=hold: routed; its traffic "
			   "waits for new SAs",
			   conn);
}

static void fire(evutil_socket_t fd, short what, void *arg)
{
	struct ike_sa *sa = arg;
	struct ike_engine *e = sa->e;
	struct ike_rtx *r = &sa->rtx;
	char why[128], conn[sizeof(sa->conn)];
	bool hold;

	r->spent_ms += r->next_ms;
	if (r->spent_ms >= r->timeout_ms) {
		snprintf(why, sizeof(why),
			 "no response to message %u after %llu ms%s",
			 r->req_msgid, r->spent_ms,
			 sa->state == IKE_SA_ESTABLISHED ? ": peer is dead" :
							   "");
		/* a dead peer of an auto=start conn is called again */
		sa->reinit = sa->state == IKE_SA_ESTABLISHED &&
			     conn_auto_start(sa->e, sa->conn);
		/* the peer may be lost because it moved: ask its name again */
		if (sa->state == IKE_SA_ESTABLISHED)
			hosts_refresh(sa->e, sa->conn);
		else
			no_answer(sa, why);
		sa->e->stats.dpd_deaths += sa->state == IKE_SA_ESTABLISHED;
		hold = sa->state == IKE_SA_ESTABLISHED &&
		       conn_dpd_hold(sa->e, sa->conn);
		snprintf(conn, sizeof(conn), "%s", sa->conn);
		ike_sa_delete(sa, why);
		if (hold)
			dpd_hold(e, conn);
		return;
	}
	ike_sa_log(sa, IKB_LOG_INFO, "retransmitting message %u (%llu ms)",
		   r->req_msgid, r->spent_ms);
	r->tries++;
	sa->e->stats.retransmits++;
	opening_done(sa, true); /* a slow peer holds no place */
	dgram_set_send(sa, r->req, r->req_len);
	r->next_ms = r->next_ms * 2;
	if (r->next_ms > r->timeout_ms - r->spent_ms)
		r->next_ms = (unsigned)(r->timeout_ms - r->spent_ms);
	arm(sa);
}

int rtx_request(struct ike_sa *sa, struct wbuf *buf, uint32_t msgid)
{
	struct ike_rtx *r = &sa->rtx;

	if (!r->ev && !(r->ev = evtimer_new(sa->e->base, fire, sa)))
		return -1;
	rtx_done(sa);
	r->req = buf->data;
	r->req_len = buf->len;
	r->req_msgid = msgid;
	buf->data = NULL;
	wbuf_free(buf);
	r->spent_ms = 0;
	r->tries = 0;
	r->next_ms = r->interval_ms;
	dgram_set_send(sa, r->req, r->req_len);
	arm(sa);
	return 0;
}

void rtx_done(struct ike_sa *sa)
{
	if (sa->rtx.ev)
		evtimer_del(sa->rtx.ev);
	free(sa->rtx.req);
	sa->rtx.req = NULL;
	sa->rtx.req_len = 0;
}

int rtx_respond(struct ike_sa *sa, struct wbuf *buf, uint32_t msgid)
{
	struct ike_rtx *r = &sa->rtx;

	free(r->resp);
	r->resp = buf->data;
	r->resp_len = buf->len;
	r->resp_msgid = msgid;
	buf->data = NULL;
	wbuf_free(buf);
	return dgram_set_reply(sa, r->resp, r->resp_len) ? 0 : -EIO;
}

void rtx_replay(struct ike_sa *sa)
{
	if (!sa->rtx.resp)
		return;
	ike_sa_log(sa, IKB_LOG_INFO,
		   "retransmitted request %u: resending our response",
		   sa->rtx.resp_msgid);
	dgram_set_reply(sa, sa->rtx.resp, sa->rtx.resp_len);
}

void rtx_free(struct ike_sa *sa)
{
	rtx_done(sa);
	if (sa->rtx.ev)
		event_free(sa->rtx.ev);
	sa->rtx.ev = NULL;
	free(sa->rtx.resp);
	sa->rtx.resp = NULL;
}
