// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A helper-pool job of one IKE SA: a key exchange (kex.c), a signature
 * or a certificate check (auth_job.c). While any runs, the messages that
 * arrive for the SA wait (hold.c) and are handled in order once the last
 * is done, so that exchanges see the order they would see on the loop.
 * When the SA goes first, the job still runs to its end and then() sees
 * sa NULL: it frees its argument and does nothing else.
 */
#include <errno.h>
#include <stdlib.h>

#include "crypto/helpers.h"
#include "ike/engine.h"
#include "ike/exchange/exchange.h"
#include "ike/msg/msg.h"

struct sa_job {
	struct sa_job *next; /* the SA's jobs */
	struct ike_sa *sa; /* NULL: the SA went */
	sa_job_run_fn *run;
	sa_job_then_fn *then;
	void *arg;
};

static void job_run(void *arg)
{
	struct sa_job *j = arg;

	j->run(j->arg);
}

static void unlink_job(struct sa_job *j)
{
	struct sa_job **pp = j->sa ? &j->sa->jobs : NULL;

	while (pp && *pp && *pp != j)
		pp = &(*pp)->next;
	if (pp && *pp)
		*pp = j->next;
}

static void job_done(void *arg, int status)
{
	struct sa_job *j = arg;

	unlink_job(j);
	if (j->sa)
		hold_resume(j->sa); /* runs after then(), from the loop */
	j->then(j->sa, j->arg, status);
	free(j);
}

int sa_job_start(struct ike_sa *sa, sa_job_run_fn *run, sa_job_then_fn *then,
		 void *arg)
{
	struct sa_job *j = calloc(1, sizeof(*j));

	if (!j)
		return -ENOMEM;
	j->sa = sa;
	j->run = run;
	j->then = then;
	j->arg = arg;
	j->next = sa->jobs;
	sa->jobs = j;
	helpers_run(job_run, job_done, j);
	return 0;
}

void sa_jobs_cancel(struct ike_sa *sa)
{
	for (struct sa_job *j = sa->jobs; j; j = j->next)
		j->sa = NULL;
	sa->jobs = NULL;
}
