// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Per-CPU Child SAs (RFC 9611) on one IKE SA. The first Child SA of the
 * conn's selectors is the fallback: no CPU id, used by every CPU that has
 * no SA of its own. With clones=N, and when both the kernel and the peer
 * can, the initiator then creates the clones by CREATE_CHILD_SA at once,
 * for CPU ids 0..N-1 (fewer if the kernel has fewer possible CPUs); each
 * carries SA_RESOURCE_INFO. The responder gives each one the lowest CPU id
 * of its own not yet taken, and answers TS_MAX_QUEUE past its count.
 * Clones share the fallback's reqid, so that the kernel's one policy finds
 * them all; whichever of them lives longest keeps the policies.
 *
 * Later, the kernel's ACQUIRE for a CPU below the count without a clone
 * (one the peer deleted, or the responder's CPU sending before the plan
 * is done) brings that CPU's clone back. Requests for one CPU that cross
 * are settled as taken_or_asked() says.
 *
 * Where per-CPU SAs cannot be had, the conn gets its one Child SA and one
 * log line saying why.
 */
#include <errno.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ike/child/child.h"
#include "ike/engine.h"
#include "ike/conn/conn.h"
#include "ike/msg/msg.h"
#include "ike/exchange/exchange.h"
#include "ike/child/pcpu.h"
#include "log/log.h"

/*
 * How many clones this host makes for the conn: *want from the plan
 * (entries with a CPU id), *eff what the kernel takes of them. 0 wanted:
 * the conn has no clones=; *eff 0 with why: the kernel has none.
 */
static void pcpu_count(struct ike_sa *sa, const struct conn_view *v,
		       unsigned *want, unsigned *eff, unsigned *kmax,
		       struct ikb_error *why)
{
	const struct conn_plan *plan;
	void *st;
	const struct ikb_kernel_ops *k = engine_kernel(sa->e, &st);

	*want = *eff = *kmax = 0;
	if (conn_plan(v, &plan, why))
		return;
	for (unsigned i = 0; i < plan->n; i++)
		*want += plan->c[i].cpu >= 0;
	why->msg[0] = '\0';
	if (!*want)
		return;
	if (!k || !k->pcpu_max)
		snprintf(why->msg, sizeof(why->msg),
			 "the kernel plugin has no per-CPU SAs");
	else if (k->pcpu_max(st, kmax, why) || !*kmax)
		*kmax = 0;
	*eff = pcpu_clamp(*want, *kmax);
}

/*
 * One line when the kernel has fewer CPU ids than clones= asks for, once
 * the peer agreed: where it did not, its line is the only one. The count
 * is the plan's (multi-sa exports clones= as the per-CPU entries): the
 * core never reads the key.
 */
static void log_clamp(struct ike_sa *sa)
{
	unsigned eff = sa->pcpu_count;

	if (eff < sa->pcpu_want)
		ike_sa_log(
			sa, IKB_LOG_NOTICE,
			"clones=%u: the kernel takes CPU ids 0..%u only: %u per-CPU Child SA%s and the fallback",
			sa->pcpu_want, sa->pcpu_kmax - 1, eff,
			eff == 1 ? "" : "s");
}

static void log_one(struct ike_sa *sa, const char *why)
{
	ike_sa_log(sa, IKB_LOG_NOTICE, "clones=%u: %s, one Child SA",
		   sa->pcpu_want, why);
}

void pcpu_add_notify(struct wire_msg *m, uint8_t buf[4], int32_t cpu)
{
	struct wire_payload *p = msg_add(m, WIRE_PT_NOTIFY);

	pcpu_res_fill(&p->u.notify, buf, cpu);
}

bool pcpu_offer(struct ike_sa *sa, const struct conn_view *v)
{
	struct ikb_error why = { "" };
	unsigned want, kmax;

	sa->pcpu_on = false;
	pcpu_count(sa, v, &want, &sa->pcpu_count, &kmax, &why);
	sa->pcpu_want = want;
	sa->pcpu_kmax = kmax;
	if (want && !sa->pcpu_count)
		log_one(sa, why.msg);
	return sa->pcpu_count > 0;
}

/*
 * A peer's SA_RESOURCE_INFO in m: 1 valid, 0 none, -1 malformed (why
 * names the field). The Resource Identifier goes to the debug log.
 */
static int peer_res(struct ike_sa *sa, const struct wire_msg *m, char *why,
		    size_t len)
{
	const struct wire_notify *n =
		wire_find_notify(m, WIRE_N_SA_RESOURCE_INFO);
	struct pcpu_res r;

	if (!n)
		return 0;
	if (pcpu_res_parse(n, &r, why, len))
		return -1;
	if (r.has_cpu)
		ike_sa_log(sa, IKB_LOG_DEBUG,
			   "SA_RESOURCE_INFO: the peer's resource %u", r.cpu);
	else if (r.id_len)
		ike_sa_log(sa, IKB_LOG_DEBUG,
			   "SA_RESOURCE_INFO: a %zu-octet resource identifier",
			   r.id_len);
	return 1;
}

static void log_peer(struct ike_sa *sa, int res, const char *field)
{
	char why[200];

	if (res < 0)
		snprintf(why, sizeof(why),
			 "the peer's SA_RESOURCE_INFO is malformed: %s", field);
	else
		snprintf(why, sizeof(why),
			 "peer did not offer SA_RESOURCE_INFO (RFC 9611)");
	log_one(sa, why);
}

void pcpu_accept(struct ike_sa *sa, const struct wire_msg *resp)
{
	char field[128] = "";
	int res;

	if (!sa->pcpu_count)
		return;
	res = peer_res(sa, resp, field, sizeof(field));
	if (res <= 0) {
		log_peer(sa, res, field);
		sa->pcpu_count = 0;
		return;
	}
	sa->pcpu_on = true;
	sa->plan_n = 1 + sa->pcpu_count;
	log_clamp(sa);
	ike_sa_log(
		sa, IKB_LOG_INFO,
		"RFC 9611: the peer takes per-CPU Child SAs: %u clones follow",
		sa->pcpu_count);
}

bool pcpu_respond(struct ike_sa *sa, const struct conn_view *v,
		  const struct wire_msg *req)
{
	struct ikb_error why = { "" };
	char field[128] = "";
	unsigned want, kmax;
	int res = peer_res(sa, req, field, sizeof(field));

	sa->pcpu_on = false;
	pcpu_count(sa, v, &want, &sa->pcpu_count, &kmax, &why);
	sa->pcpu_want = want;
	sa->pcpu_kmax = kmax;
	if (!want) {
		if (res > 0)
			ike_sa_log(
				sa, IKB_LOG_DEBUG,
				"SA_RESOURCE_INFO: the conn has no clones=, one Child SA");
		return false;
	}
	if (!sa->pcpu_count)
		log_one(sa, why.msg);
	else if (res <= 0)
		log_peer(sa, res, field);
	else
		log_clamp(sa);
	sa->pcpu_on = sa->pcpu_count && res > 0;
	return sa->pcpu_on;
}

bool child_shares_policies(struct ike_sa *sa, const struct child_sa *c)
{
	if (c->trap_pols)
		return true; /* its conn's trap has them */
	for (struct child_sa *o = sa->children; o; o = o->next)
		if (o != c && o->reqid == c->reqid && o->npol)
			return true;
	return false;
}

struct child_sa *pcpu_fallback(struct ike_sa *sa, const struct ikb_selector *ts)
{
	for (struct child_sa *o = sa->children; o; o = o->next)
		if (o->cpu < 0 && o->state != CHILD_FAILED &&
		    o->state != CHILD_REPLACED && ike_sel_equal(&o->ts, ts))
			return o;
	return NULL;
}

/* Not on its way out: neither failed, replaced, redundant nor deleting. */
static bool staying(const struct child_sa *o)
{
	return o->state != CHILD_FAILED && o->state != CHILD_REPLACED &&
	       o->state != CHILD_REDUNDANT && !child_deleting(o);
}

/* The CPU ids of the live Child SAs with c's selectors, c aside. */
static size_t taken_ids(struct ike_sa *sa, const struct child_sa *c,
			int32_t *ids, size_t max)
{
	size_t n = 0;

	for (struct child_sa *o = sa->children; o && n < max; o = o->next)
		if (o != c && staying(o) && ike_sel_equal(&o->ts, &c->ts))
			ids[n++] = o->cpu;
	return n;
}

/* The CPU id of the clone our CREATE_CHILD_SA in flight asks for; -2: none. */
static int32_t inflight_cpu(const struct ike_sa *sa)
{
	if (exchange_kind(sa) != OUT_CHILD)
		return -2;
	if (sa->x->child && sa->x->child->cpu >= 0)
		return sa->x->child->cpu; /* one of the plan */
	return sa->x->cpu >= 0 ? sa->x->cpu : -2; /* an ACQUIRE's */
}

/*
 * Both ends may ask for the same CPU's clone at once: the initiator by its
 * plan, the responder on an ACQUIRE. Left alone, each end would give the
 * other's request the id its own request is for, and both would end up
 * with two SAs for one CPU. So the IKE SA's initiator counts its request
 * in flight as taken (the responder's gets another id, or TS_MAX_QUEUE);
 * the responder does not, and moves its own when it lands on a taken id
 * (pcpu_settle).
 */
static size_t taken_or_asked(struct ike_sa *sa, const struct child_sa *c,
			     int32_t *ids, size_t max)
{
	size_t n = taken_ids(sa, c, ids, max);
	int32_t mine = inflight_cpu(sa);

	if (sa->initiator && mine >= 0 && n < max)
		ids[n++] = mine;
	return n;
}

uint16_t pcpu_assign(struct ike_sa *sa, const struct conn_view *v,
		     const struct wire_msg *req, struct child_sa *c,
		     bool *answer)
{
	int32_t ids[IKB_CHILD_PLAN_MAX];
	struct ikb_error why = { "" };
	char field[128] = "";
	unsigned want, kmax, count;
	size_t n;
	int res = peer_res(sa, req, field, sizeof(field));
	struct child_sa *fb;

	*answer = false;
	if (res < 0)
		ike_sa_log(sa, IKB_LOG_WARNING,
			   "SA_RESOURCE_INFO ignored, an ordinary Child SA: %s",
			   field);
	if (res <= 0)
		return 0;
	pcpu_count(sa, v, &want, &count, &kmax, &why);
	n = taken_or_asked(sa, c, ids, IKB_CHILD_PLAN_MAX);
	if (!count && pcpu_pick(ids, n, 0, &c->cpu) == 0)
		return 0; /* the first of its selectors: an ordinary SA */
	if (!count) {
		/* a duplicate would only clash with the first's policies */
		ike_sa_log(
			sa, IKB_LOG_INFO,
			"CREATE_CHILD_SA: TS_MAX_QUEUE: no per-CPU Child SAs here (%s)",
			want ? why.msg : "the conn has no clones=");
		return WIRE_N_TS_MAX_QUEUE;
	}
	*answer = true;
	if (pcpu_pick(ids, n, count, &c->cpu)) {
		ike_sa_log(
			sa, IKB_LOG_INFO,
			"CREATE_CHILD_SA: TS_MAX_QUEUE: the fallback and all %u per-CPU Child SAs are up or asked for",
			count);
		return WIRE_N_TS_MAX_QUEUE;
	}
	fb = c->cpu >= 0 ? pcpu_fallback(sa, &c->ts) : NULL;
	if (fb)
		c->reqid = fb->reqid;
	return 0;
}

bool pcpu_max_queue(struct ike_sa *sa, const struct child_sa *c,
		    uint16_t notify)
{
	unsigned up = 0;

	if (notify != WIRE_N_TS_MAX_QUEUE || c->cpu < 0)
		return false;
	for (struct child_sa *o = sa->children; o; o = o->next)
		up += o->cpu >= 0 && o->state != CHILD_FAILED &&
		      o->state != CHILD_REPLACED;
	ike_sa_log(
		sa, IKB_LOG_NOTICE,
		"CREATE_CHILD_SA: the peer answered TS_MAX_QUEUE: %u per-CPU Child SA%s and the fallback, no more clones",
		up, up == 1 ? "" : "s");
	sa->plan_next = sa->plan_n;
	return true;
}

/* A live Child SA of reqid with CPU id cpu (-1: the fallback). */
static struct child_sa *child_of(struct ike_sa *sa, uint32_t reqid, int32_t cpu)
{
	for (struct child_sa *o = sa->children; o; o = o->next)
		if (o->reqid == reqid && o->cpu == cpu && staying(o))
			return o;
	return NULL;
}

static bool acq_has(const struct ike_sa *sa, int32_t cpu)
{
	return sa->pcpu_acq[cpu / 64] & (1ull << (cpu % 64));
}

/*
 * The kernel asks for CPU ev->cpu's SA (XFRM_POLICY_CPU_ACQUIRE): its
 * traffic goes out on the fallback meanwhile. It asks again while the CPU
 * keeps sending without one (each larval SA expires, 30 s by default), so
 * a CPU beyond clones= is only noted, at debug level.
 */
void pcpu_acquire(struct ike_engine *e, const struct ikb_kernel_event *ev)
{
	struct child_sa *fb = NULL;
	struct ike_sa *sa;

	for (sa = e->all; sa; sa = sa->next_all) {
		if (sa->state == IKE_SA_ESTABLISHED && sa->pcpu_on &&
		    !sa->rekeyed)
			fb = child_of(sa, ev->reqid, -1);
		if (fb)
			break;
	}
	if (!fb) {
		log_debug(
			"kernel: ACQUIRE for CPU %d, reqid %u: no per-CPU conn",
			(int)ev->cpu, ev->reqid);
		return;
	}
	if ((unsigned)ev->cpu >= sa->pcpu_count ||
	    ev->cpu >= IKB_CHILD_PLAN_MAX) {
		ike_sa_log(
			sa, IKB_LOG_DEBUG,
			"kernel: ACQUIRE for CPU %d: beyond the %u clones, it sends on the fallback",
			(int)ev->cpu, sa->pcpu_count);
		return;
	}
	if (child_of(sa, ev->reqid, ev->cpu) || acq_has(sa, ev->cpu) ||
	    inflight_cpu(sa) == ev->cpu)
		return; /* up, queued or under way */
	ike_sa_log(sa, IKB_LOG_INFO,
		   "kernel: ACQUIRE for CPU %d: negotiating its Child SA",
		   (int)ev->cpu);
	sa->pcpu_acq[ev->cpu / 64] |= 1ull << (ev->cpu % 64);
	tasks_schedule(sa);
}

int pcpu_acquire_start(struct ike_sa *sa)
{
	for (int32_t cpu = 0; cpu < IKB_CHILD_PLAN_MAX; cpu++) {
		if (!acq_has(sa, cpu))
			continue;
		sa->pcpu_acq[cpu / 64] &= ~(1ull << (cpu % 64));
		if (!create_child_start(sa, NULL, cpu))
			return 0;
		/* could not even ask: the next one */
	}
	return -1;
}

int pcpu_acquired_child(struct ike_sa *sa, struct child_sa *c, int32_t cpu,
			struct ikb_error *err)
{
	struct child_sa *fb = NULL;

	for (struct child_sa *o = sa->children; o && !fb; o = o->next)
		if (o->cpu < 0 && o->state != CHILD_FAILED &&
		    o->state != CHILD_REPLACED)
			fb = o;
	if (!fb) {
		snprintf(err->msg, sizeof(err->msg),
			 "no fallback Child SA for CPU %d's clone", (int)cpu);
		return -ENOENT;
	}
	c->ts = fb->ts;
	c->reqid = fb->reqid;
	c->cpu = cpu;
	return 0;
}

int pcpu_settle(struct ike_sa *sa, struct child_sa *c, struct ikb_error *err)
{
	int32_t ids[IKB_CHILD_PLAN_MAX], was = c->cpu;
	size_t n;

	if (c->cpu < 0 || !child_of(sa, c->reqid, c->cpu))
		return 0;
	n = taken_ids(sa, c, ids, IKB_CHILD_PLAN_MAX);
	if (pcpu_pick(ids, n, sa->pcpu_count, &c->cpu) || c->cpu < 0) {
		c->cpu = was;
		snprintf(
			err->msg, sizeof(err->msg),
			"CPU %d got the peer's clone meanwhile, and the fallback and all %u per-CPU Child SAs are up",
			(int)was, sa->pcpu_count);
		return -EEXIST;
	}
	ike_sa_log(
		sa, IKB_LOG_INFO,
		"CREATE_CHILD_SA: CPU %d got the peer's clone meanwhile: this one is CPU %d's",
		(int)was, (int)c->cpu);
	return 0;
}
