// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The harness's resolver (ike_io resolve): a table of names and their
 * answers, shared by both peers. Answers come from the loop, as the
 * daemon's do from the helper pool; a name may be made to hang, and its
 * lookups then wait until hdns_release().
 */
#include <arpa/inet.h>
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <event2/event.h>

#include "harness.h"

#define HDNS_MAX 16

static struct hname {
	char name[256];
	struct ikb_addr addr;
	int rc;
	char why[64];
	bool hang;
	unsigned lookups;
} names[HDNS_MAX];
static unsigned nnames;

struct hq {
	struct hq *next;
	struct event *ev;
	struct hname *n; /* NULL: no such name (NXDOMAIN) */
	ike_resolved_fn *done;
	void *arg;
};
static struct hq *queue;

static struct hname *find(const char *name, bool add)
{
	for (unsigned i = 0; i < nnames; i++)
		if (!strcmp(names[i].name, name))
			return &names[i];
	if (!add)
		return NULL;
	assert_true(nnames < HDNS_MAX);
	snprintf(names[nnames].name, sizeof(names[0].name), "%s", name);
	return &names[nnames++];
}

void hdns_set(const char *name, const char *addr)
{
	struct hname *n = find(name, true);

	memset(&n->addr, 0, sizeof(n->addr));
	n->rc = 0;
	n->addr.family = strchr(addr, ':') ? AF_INET6 : AF_INET;
	assert_int_equal(inet_pton(n->addr.family, addr, n->addr.bytes), 1);
}

void hdns_fail(const char *name, int rc, const char *why)
{
	struct hname *n = find(name, true);

	n->rc = rc;
	snprintf(n->why, sizeof(n->why), "%s", why);
}

void hdns_hang(const char *name, bool hang)
{
	find(name, true)->hang = hang;
}

unsigned hdns_lookups(const char *name)
{
	struct hname *n = find(name, false);

	return n ? n->lookups : 0;
}

static void unlink_q(struct hq *q)
{
	struct hq **pp = &queue;

	while (*pp && *pp != q)
		pp = &(*pp)->next;
	if (*pp)
		*pp = q->next;
}

static void answer(struct hq *q, bool cancel)
{
	struct ike_host_answer a = { -ENOENT, { 0 }, "NXDOMAIN" };

	if (cancel) {
		a.rc = -ECANCELED;
		a.why = "stopping";
	} else if (q->n) {
		a.rc = q->n->rc;
		a.addr = q->n->addr;
		a.why = q->n->why;
	}
	unlink_q(q);
	event_free(q->ev);
	q->done(q->arg, &a);
	free(q);
}

static void on_answer(evutil_socket_t fd, short what, void *arg)
{
	answer(arg, false);
}

static void schedule(struct hq *q)
{
	struct timeval zero = { 0, 0 };

	evtimer_add(q->ev, &zero);
}

int hdns_resolve(void *ctx, const struct ike_host_query *qy,
		 ike_resolved_fn *done, void *arg)
{
	struct hpeer *me = ctx;
	struct hq *q = calloc(1, sizeof(*q));

	assert_non_null(q);
	q->n = find(qy->kind == IKE_HOST_NAME ? qy->name : "%defaultroute",
		    false);
	q->done = done;
	q->arg = arg;
	q->ev = evtimer_new(me->net->base, on_answer, q);
	assert_non_null(q->ev);
	if (q->n)
		q->n->lookups++;
	q->next = queue;
	queue = q;
	if (!q->n || !q->n->hang)
		schedule(q);
	return 0;
}

void hdns_release(void)
{
	for (struct hq *q = queue; q; q = q->next)
		if (!evtimer_pending(q->ev, NULL))
			schedule(q);
}

void hdns_reset(void)
{
	while (queue)
		answer(queue, true);
	nnames = 0;
	memset(names, 0, sizeof(names));
}
