// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <malloc.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/eventfd.h>
#include <time.h>
#include <unistd.h>

#include <event2/event.h>

#include "crypto/helpers.h"
#include "log/log.h"
#include "util/fifo.h"

struct job {
	helper_job_fn *run;
	helper_done_fn *done;
	void *arg;
	struct job *next;
	struct timespec submitted; /* CLOCK_MONOTONIC, for the latency */
	enum helper_lane lane;
};

struct queue {
	struct job *head, *tail;
};

/*
 * A lane: a queue and the threads that serve it. Key exchanges and
 * signatures take milliseconds; a DNS lookup may wait seconds for a
 * server that does not answer. Lookups therefore have a lane of their
 * own with SLOW_THREADS threads: however many hang, the key exchanges
 * keep their threads, and a few hanging names do not hold up the rest.
 */
#define SLOW_THREADS 2

struct lane {
	pthread_cond_t wake;
	struct queue todo;
	pthread_t *threads;
	unsigned nthreads;
};

static struct {
	pthread_mutex_t lock;
	struct lane lanes[HELPER_LANES];
	struct queue done;
	bool stopping;
	int efd;
	struct event *ev;
	unsigned long inflight; /* submitted, done callback not yet run */
	struct event *trim; /* malloc_trim() once the pool stays idle */
	struct helpers_stats stats; /* under lock */
} pool = { .lock = PTHREAD_MUTEX_INITIALIZER,
	   .lanes = { { .wake = PTHREAD_COND_INITIALIZER },
		      { .wake = PTHREAD_COND_INITIALIZER } },
	   .efd = -1 };

static struct job *pop(struct queue *q)
{
	struct job *j = q->head;

	if (j)
		fifo_drop_head(q, next);
	return j;
}

static struct job *take_all(struct queue *q)
{
	struct job *j = q->head;

	q->head = q->tail = NULL;
	return j;
}

static void *worker(void *arg)
{
	struct lane *l = arg;
	const uint64_t one = 1;
	struct job *j;

	for (;;) {
		pthread_mutex_lock(&pool.lock);
		while (!pool.stopping && !l->todo.head)
			pthread_cond_wait(&l->wake, &pool.lock);
		j = pool.stopping ? NULL : pop(&l->todo);
		if (j)
			pool.stats.queued[j->lane]--;
		pthread_mutex_unlock(&pool.lock);
		if (!j)
			return NULL;
		j->run(j->arg);
		pthread_mutex_lock(&pool.lock);
		fifo_push(&pool.done, j, next);
		pthread_mutex_unlock(&pool.lock);
		/* Only fails if the counter would overflow: then it is set. */
		if (write(pool.efd, &one, sizeof(one)) < 0 && errno != EAGAIN)
			log_err("helpers: eventfd write: errno %d", errno);
	}
}

const double helpers_bucket_s[HELPERS_BUCKETS] = { 0.001, 0.005, 0.01, 0.05,
						    0.1,   0.5,	  1,	5 };

static double since_s(const struct timespec *t0)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return (double)(now.tv_sec - t0->tv_sec) +
	       (double)(now.tv_nsec - t0->tv_nsec) / 1e9;
}

/* Under lock: a done callback is about to run. */
static void count_done(const struct job *j)
{
	double s = since_s(&j->submitted);
	struct helpers_stats *st = &pool.stats;

	st->done[j->lane]++;
	st->sum_s[j->lane] += s;
	for (int i = 0; i < HELPERS_BUCKETS; i++)
		st->le[j->lane][i] += s <= helpers_bucket_s[i];
}

void helpers_get_stats(struct helpers_stats *out)
{
	pthread_mutex_lock(&pool.lock);
	*out = pool.stats;
	pthread_mutex_unlock(&pool.lock);
}

static void deliver(struct job *j, int status)
{
	while (j) {
		struct job *next = j->next;

		pthread_mutex_lock(&pool.lock);
		pool.inflight--;
		count_done(j);
		pthread_mutex_unlock(&pool.lock);
		j->done(j->arg, status);
		free(j);
		j = next;
	}
}

/*
 * A burst of key exchanges leaves the heap as large as its peak: a
 * thousand key pairs held until their peers answered, NSS's temporary
 * objects, freed in the middle of the heap where glibc keeps them. Once
 * the pool has been idle for TRIM_IDLE_S, give those pages back; RSS then
 * follows the SAs that are left. One walk of the heap per burst.
 */
#define TRIM_IDLE_S 1

static void on_trim(evutil_socket_t fd, short what, void *unused)
{
	bool idle;

	pthread_mutex_lock(&pool.lock);
	idle = pool.inflight == 0;
	pthread_mutex_unlock(&pool.lock);
	if (idle)
		malloc_trim(0);
}

static void trim_when_idle(void)
{
	struct timeval tv = { TRIM_IDLE_S, 0 };
	bool idle;

	pthread_mutex_lock(&pool.lock);
	idle = pool.inflight == 0;
	pthread_mutex_unlock(&pool.lock);
	/* re-arming pushes the trim back: it runs after the last burst */
	if (idle && pool.trim)
		event_add(pool.trim, &tv);
}

static void on_completion(evutil_socket_t fd, short what, void *unused)
{
	uint64_t n;
	struct job *j;

	if (read(fd, &n, sizeof(n)) < 0 && errno != EAGAIN)
		log_err("helpers: eventfd read: errno %d", errno);
	pthread_mutex_lock(&pool.lock);
	j = take_all(&pool.done);
	pthread_mutex_unlock(&pool.lock);
	deliver(j, 0);
	trim_when_idle();
}

unsigned helpers_default_count(void)
{
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);

	return cpus > 1 ? (unsigned)(cpus - 1) : 1;
}

static int start_threads(struct lane *l, unsigned n)
{
	l->threads = calloc(n, sizeof(*l->threads));
	if (!l->threads)
		return -ENOMEM;
	for (l->nthreads = 0; l->nthreads < n; l->nthreads++) {
		int rc = pthread_create(&l->threads[l->nthreads], NULL, worker,
					l);

		if (rc) {
			log_err("helpers: cannot start thread %u: errno %d",
				l->nthreads, rc);
			return -rc;
		}
	}
	return 0;
}

int helpers_start(unsigned n, struct event_base *base)
{
	int rc;

	if (pool.ev)
		return -EALREADY;
	if (!base)
		return -EINVAL;
	if (n == 0)
		n = helpers_default_count();
#ifdef M_ARENA_MAX
	/*
	 * A helper's allocations (NSS key objects, job results) are freed by
	 * the loop. In an arena of their own they leave that arena's pages
	 * half used and out of malloc_trim()'s reach: one arena for all
	 * threads kept the initiator of 1,000 SAs 2 MiB smaller. The helpers
	 * spend milliseconds in arithmetic per job: the shared arena's lock
	 * costs them nothing measurable.
	 */
	mallopt(M_ARENA_MAX, 1);
#endif
	pool.stopping = false;
	pool.efd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
	if (pool.efd < 0)
		return -errno;
	pool.ev = event_new(base, pool.efd, EV_READ | EV_PERSIST, on_completion,
			    NULL);
	pool.trim = evtimer_new(base, on_trim, NULL);
	if (!pool.ev || event_add(pool.ev, NULL) < 0 || !pool.trim) {
		helpers_stop();
		return -ENOMEM;
	}
	rc = start_threads(&pool.lanes[HELPER_LANE_CPU], n);
	if (!rc)
		rc = start_threads(&pool.lanes[HELPER_LANE_SLOW], SLOW_THREADS);
	if (rc)
		helpers_stop();
	return rc;
}

int helpers_submit_lane(enum helper_lane lane, helper_job_fn *run,
			helper_done_fn *done, void *arg)
{
	struct job *j;

	if (!run || !done || lane >= HELPER_LANES)
		return -EINVAL;
	j = calloc(1, sizeof(*j));
	if (!j)
		return -ENOMEM;
	*j = (struct job){ .run = run, .done = done, .arg = arg, .lane = lane };
	clock_gettime(CLOCK_MONOTONIC, &j->submitted);
	pthread_mutex_lock(&pool.lock);
	if (pool.stopping || !pool.ev) {
		pthread_mutex_unlock(&pool.lock);
		free(j);
		return -ESHUTDOWN;
	}
	fifo_push(&pool.lanes[lane].todo, j, next);
	pool.stats.queued[lane]++;
	pool.inflight++;
	pthread_cond_signal(&pool.lanes[lane].wake);
	pthread_mutex_unlock(&pool.lock);
	return 0;
}

int helpers_submit(helper_job_fn *run, helper_done_fn *done, void *arg)
{
	return helpers_submit_lane(HELPER_LANE_CPU, run, done, arg);
}

static void join_lane(struct lane *l)
{
	for (unsigned i = 0; i < l->nthreads; i++)
		pthread_join(l->threads[i], NULL);
	free(l->threads);
	l->threads = NULL;
	l->nthreads = 0;
}

void helpers_stop(void)
{
	struct job *ran, *dropped[HELPER_LANES];

	pthread_mutex_lock(&pool.lock);
	pool.stopping = true;
	for (int i = 0; i < HELPER_LANES; i++)
		pthread_cond_broadcast(&pool.lanes[i].wake);
	pthread_mutex_unlock(&pool.lock);
	/* a lookup that hangs holds this up until its resolver times out */
	for (int i = 0; i < HELPER_LANES; i++)
		join_lane(&pool.lanes[i]);
	if (pool.ev)
		event_free(pool.ev);
	pool.ev = NULL;
	if (pool.trim)
		event_free(pool.trim);
	pool.trim = NULL;
	if (pool.efd >= 0)
		close(pool.efd);
	pool.efd = -1;
	pthread_mutex_lock(&pool.lock);
	ran = take_all(&pool.done);
	for (int i = 0; i < HELPER_LANES; i++) {
		dropped[i] = take_all(&pool.lanes[i].todo);
		pool.stats.queued[i] = 0;
	}
	pthread_mutex_unlock(&pool.lock);
	deliver(ran, 0);
	for (int i = 0; i < HELPER_LANES; i++)
		deliver(dropped[i], -ECANCELED);
}

void helpers_run(helper_job_fn *run, helper_done_fn *done, void *arg)
{
	if (helpers_submit(run, done, arg)) {
		run(arg);
		done(arg, 0);
	}
}
