// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * NAT-keepalives (RFC 3948 §2.3): while we are behind a NAT, one 0xFF
 * octet goes to the peer's NAT-T port whenever we have sent nothing for
 * keep-alive= seconds (config setup, default 20; nat-keepalive=no per
 * conn sends none). Idle is counted from our last datagram of any kind,
 * so a keepalive follows every quiet interval however busy the path was
 * before it (libreswan 4.10 waits 20 s after any IKE traffic, longer than
 * some NATs keep a mapping).
 */
#include <event2/event.h>

#include "ike/conn/conn.h"
#include "ike/engine.h"
#include "ike/msg/msg.h"
#include "ike/path/nat.h"
#include "ike/timers.h"

static unsigned long long interval_ms(const struct ike_sa *sa)
{
	const struct conn *c = engine_conn(sa->e, sa->conn);

	if (!c || !c->nat_keepalive)
		return 0;
	return sa->e->conns->keepalive_s * 1000ULL;
}

static void arm(struct ike_sa *sa, unsigned long long ms)
{
	struct timeval tv = { (time_t)(ms / 1000),
			      (suseconds_t)(ms % 1000) * 1000 };

	evtimer_add(sa->nat->keepalive, &tv);
}

static void on_keepalive(evutil_socket_t fd, short what, void *arg)
{
	struct ike_sa *sa = arg;
	unsigned long long iv = interval_ms(sa), now = mono_ms();
	unsigned long long idle = now - sa->last_send_ms;

	(void)fd;
	(void)what;
	if (!iv || sa->state == IKE_SA_DELETING)
		return;
	if (idle >= iv) {
		if (!engine_keepalive(sa->e, &sa->path)) {
			sa->nat->keepalives++;
			sa->nat->last_keepalive_ms = now;
		}
		sa->last_send_ms = now; /* a failure is tried again then */
		idle = 0;
	}
	arm(sa, iv - idle);
}

void nat_keepalive_arm(struct ike_sa *sa)
{
	unsigned long long iv = interval_ms(sa);

	if (!sa->nat || !sa->nat->local || !sa->nat->encap || !iv)
		return;
	if (!sa->nat->keepalive && !(sa->nat->keepalive = evtimer_new(
					     sa->e->base, on_keepalive, sa))) {
		ike_sa_log(sa, IKB_LOG_ERR,
			   "NAT-keepalives: out of memory: none are sent");
		return;
	}
	ike_sa_log(sa, IKB_LOG_INFO,
		   "NAT-keepalives to port %u whenever idle for %llu s",
		   sa->path.rport, iv / 1000);
	arm(sa, iv);
}
