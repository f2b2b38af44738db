// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The engine's ike_io resolve: a DNS name through ldns (dns/), or
 * %defaultroute through rtnetlink (net/defroute.c), as a job on the
 * helper pool's slow lane. A lookup may wait seconds for a server that
 * does not answer; there it holds neither the loop (status, other conns)
 * nor the threads that run key exchanges.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app/resolve_glue.h"
#include "crypto/helpers.h"
#include "dns/dns.h"
#include "ike/ike.h"
#include "net/defroute.h"

struct rjob {
	enum ike_host_kind kind;
	char name[256];
	int family;
	ike_resolved_fn *done;
	void *arg;
	struct dns_answer ans;
};

static void defroute(struct rjob *j)
{
	int rc = defroute_addr(j->family, &j->ans.addr);

	j->ans.rc = rc;
	snprintf(
		j->ans.why, sizeof(j->ans.why), "%s",
		rc == -ENETUNREACH ?
			"no default route" :
		rc == -EADDRNOTAVAIL ?
			"no global address on the interface of the default route" :
		rc ? strerror(-rc) :
		     "");
}

static void run(void *arg)
{
	struct rjob *j = arg;

	if (j->kind == IKE_HOST_DEFROUTE)
		defroute(j);
	else
		dns_lookup(j->name, j->family, NULL, &j->ans);
}

static void done(void *arg, int status)
{
	struct rjob *j = arg;
	struct ike_host_answer a = {
		.rc = status ? -ECANCELED : j->ans.rc,
		.addr = j->ans.addr,
		.why = status ? "the daemon stops" : j->ans.why,
	};

	j->done(j->arg, &a);
	free(j);
}

int ikbd_resolve(void *ctx, const struct ike_host_query *q, ike_resolved_fn *cb,
		 void *arg)
{
	struct rjob *j = calloc(1, sizeof(*j));
	int rc;

	if (!j)
		return -ENOMEM;
	j->kind = q->kind;
	snprintf(j->name, sizeof(j->name), "%s", q->name ? q->name : "");
	j->family = q->family;
	j->done = cb;
	j->arg = arg;
	rc = helpers_submit_lane(HELPER_LANE_SLOW, run, done, j);
	if (rc)
		free(j);
	return rc;
}
