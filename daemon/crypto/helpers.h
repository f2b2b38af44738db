/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The helper pool: key exchange, signatures and SKEYSEED run on worker
 * threads so that the event loop never blocks on them. A job owns its
 * argument while it runs; its done callback then runs on the loop thread
 * (from an eventfd the loop watches), where it may touch SA state.
 */
#ifndef IKB_CRYPTO_HELPERS_H
#define IKB_CRYPTO_HELPERS_H

struct event_base;

/* Runs on a helper thread. Must not touch loop-owned state. */
typedef void helper_job_fn(void *arg);
/*
 * Runs on the loop thread. status is 0 after the job ran, or -ECANCELED
 * when helpers_stop() dropped the job before it started; either way the
 * callback owns arg again and must free it.
 */
typedef void helper_done_fn(void *arg, int status);

/* CPUs - 1, at least 1: the nhelpers= default. */
unsigned helpers_default_count(void);

/* n == 0 picks the default. Returns 0 or a negative errno. */
int helpers_start(unsigned n, struct event_base *base);
int helpers_submit(helper_job_fn *job, helper_done_fn *done, void *arg);
/*
 * The CPU lane is helpers_submit()'s: nhelpers= threads for key exchanges
 * and signatures. The slow lane has threads of its own for jobs that wait
 * rather than compute (DNS lookups), so that they never hold up those.
 */
enum helper_lane { HELPER_LANE_CPU, HELPER_LANE_SLOW, HELPER_LANES };
int helpers_submit_lane(enum helper_lane lane, helper_job_fn *job,
			helper_done_fn *done, void *arg);
/*
 * helpers_submit(), or where it cannot (no pool: checkconfig, some tests;
 * no memory for the job) the job and its done callback run here, before
 * this returns: a caller calls it last.
 */
void helpers_run(helper_job_fn *job, helper_done_fn *done, void *arg);
/*
 * Lets running jobs finish, joins the threads, then calls every pending
 * done callback (with -ECANCELED for jobs that never ran). Call from the
 * loop thread, but not from inside a done callback: it frees the event
 * that is running it.
 */
void helpers_stop(void);

/*
 * For the metrics: jobs waiting in each lane, and how long the jobs took
 * from submission to their done callback (queue and run), as a histogram
 * whose bucket i counts the jobs of at most helpers_bucket_s[i] seconds.
 */
#define HELPERS_BUCKETS 8
extern const double helpers_bucket_s[HELPERS_BUCKETS];
struct helpers_stats {
	unsigned long queued[HELPER_LANES];
	unsigned long done[HELPER_LANES]; /* done callbacks run */
	unsigned long le[HELPER_LANES][HELPERS_BUCKETS]; /* cumulative */
	double sum_s[HELPER_LANES];
};
void helpers_get_stats(struct helpers_stats *out);

#endif
