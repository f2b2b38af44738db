// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * metrics: what the engine, the helper pool and the control socket
 * counted, as text (metrics.h). Every series of a family is written even
 * at 0, so that a dashboard sees a state or reason before it first
 * happens and an alert on "absent" means the daemon is gone.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <json-c/json.h>

#include "app/daemon.h"
#include "control/commands.h"
#include "control/metrics.h"
#include "control/proto.h"
#include "crypto/helpers.h"
#include "ike/ike.h"
#include "ike/status/ike_failure.h"
#include "ike/status/ike_stats.h"
#include "plugin/plugin_set.h"

/* ike_sa_info's state, as status shows it, and its label */
static const struct {
	const char *state, *label;
} states[] = {
	{ "queued", "queued" },
	{ "resolving", "resolving" },
	{ "IKE_SA_INIT sent", "ike_sa_init_sent" },
	{ "half-open", "half_open" },
	{ "IKE_AUTH sent", "ike_auth_sent" },
	{ "established", "established" },
	{ "deleting", "deleting" },
};

#define NSTATES (sizeof(states) / sizeof(states[0]))

static void ike_sas(FILE *f, const struct ike_engine *e)
{
	unsigned long n[NSTATES + 1] = { 0 }; /* the last: any other */
	const struct ike_sa *sa = NULL;
	struct ike_sa_info info;
	size_t i;

	while (e && (sa = ike_engine_next_sa(e, sa))) {
		ike_sa_get_info(sa, &info);
		for (i = 0; i < NSTATES; i++)
			if (!strcmp(info.state, states[i].state))
				break;
		n[i]++;
	}
	om_family(f, "ikebana_ike_sas", "gauge", "IKE SAs by state.");
	for (i = 0; i < NSTATES; i++)
		fprintf(f, "ikebana_ike_sas{state=\"%s\"} %lu\n",
			states[i].label, n[i]);
	fprintf(f, "ikebana_ike_sas{state=\"other\"} %lu\n", n[NSTATES]);
}

static void one(FILE *f, const char *name, const char *type, const char *help,
		unsigned long v)
{
	om_family(f, name, type, help);
	fprintf(f, "%s %lu\n", name, v);
}

static void negotiations(FILE *f, const struct ike_stats *s)
{
	om_family(f, "ikebana_ike_negotiations_started_total", "counter",
		  "IKE SA negotiations started, by this end's role.");
	fprintf(f,
		"ikebana_ike_negotiations_started_total{role=\"initiator\"} %lu\n"
		"ikebana_ike_negotiations_started_total{role=\"responder\"} %lu\n",
		s->started_initiator, s->started_responder);
	one(f, "ikebana_ike_negotiations_established_total", "counter",
	    "IKE SAs that completed IKE_AUTH, either role (rekeys not counted).",
	    s->established);
	om_family(
		f, "ikebana_ike_negotiations_failed_total", "counter",
		"Failed negotiations, either role, by reason (ikebana explain says more).");
	for (int k = 0; k < IKE_FAIL_KINDS; k++)
		fprintf(f,
			"ikebana_ike_negotiations_failed_total{reason=\"%s\"} %lu\n",
			ike_fail_kind_name(k), s->failed[k]);
}

static void engine_counters(FILE *f, const struct ike_stats *s)
{
	one(f, "ikebana_ike_retransmits_total", "counter",
	    "IKE requests sent again for want of an answer.", s->retransmits);
	one(f, "ikebana_ike_cookies_sent_total", "counter",
	    "COOKIE notifies sent to IKE_SA_INIT requests (RFC 7296 2.6).",
	    s->cookies_sent);
	one(f, "ikebana_ike_half_open_sas", "gauge",
	    "Responder IKE SAs waiting for IKE_AUTH.", s->halfopen);
	om_family(f, "ikebana_rekeys_total", "counter",
		  "Rekeys that completed, of IKE SAs and of Child SAs.");
	fprintf(f,
		"ikebana_rekeys_total{sa=\"ike\"} %lu\n"
		"ikebana_rekeys_total{sa=\"child\"} %lu\n",
		s->ike_rekeys, s->child_rekeys);
	one(f, "ikebana_dpd_deaths_total", "counter",
	    "Established IKE SAs deleted because the peer stopped answering.",
	    s->dpd_deaths);
}

static void helpers(FILE *f)
{
	static const char *const lanes[HELPER_LANES] = { "cpu", "slow" };
	struct helpers_stats s;

	helpers_get_stats(&s);
	om_family(
		f, "ikebana_helper_queue_jobs", "gauge",
		"Jobs waiting for a helper thread, by lane (cpu: key exchanges and signatures; slow: DNS).");
	for (int l = 0; l < HELPER_LANES; l++)
		fprintf(f, "ikebana_helper_queue_jobs{lane=\"%s\"} %lu\n",
			lanes[l], s.queued[l]);
	om_family(
		f, "ikebana_helper_job_duration_seconds", "histogram",
		"Time from a helper job's submission to its result on the event loop, by lane.");
	for (int l = 0; l < HELPER_LANES; l++) {
		for (int b = 0; b < HELPERS_BUCKETS; b++)
			fprintf(f,
				"ikebana_helper_job_duration_seconds_bucket{lane=\"%s\",le=\"%g\"} %lu\n",
				lanes[l], helpers_bucket_s[b], s.le[l][b]);
		fprintf(f,
			"ikebana_helper_job_duration_seconds_bucket{lane=\"%s\",le=\"+Inf\"} %lu\n"
			"ikebana_helper_job_duration_seconds_sum{lane=\"%s\"} %.6f\n"
			"ikebana_helper_job_duration_seconds_count{lane=\"%s\"} %lu\n",
			lanes[l], s.done[l], lanes[l], s.sum_s[l], lanes[l],
			s.done[l]);
	}
}

static void control(FILE *f, const struct ikbd *d)
{
	const char *name;

	om_family(
		f, "ikebana_control_requests_total", "counter",
		"Requests on the control socket, by command (unknown: none of them).");
	for (size_t i = 0; (name = commands_name(i)); i++)
		fprintf(f,
			"ikebana_control_requests_total{command=\"%s\"} %lu\n",
			name, d->ctl_requests[i]);
	fprintf(f, "ikebana_control_requests_total{command=\"unknown\"} %lu\n",
		d->ctl_requests[CTL_COMMANDS_MAX]);
}

static void sas(FILE *f, struct ikbd *d)
{
	const struct ikb_kernel_ops *k = NULL;
	void *st = NULL;

	ike_sas(f, d->engine);
	one(f, "ikebana_child_sas", "gauge",
	    "Child SAs with at least one of their SAs in the kernel.",
	    d->engine ? ike_engine_foreach_child(d->engine, NULL, NULL, NULL) :
			0);
	if (d->conf.plugins)
		k = plugin_set_kernel(d->conf.plugins, &st);
	metrics_traffic(f, d->engine, k, st);
}

char *metrics_render(struct ikbd *d, size_t *len)
{
	struct ike_stats s;
	char *buf = NULL;
	FILE *f = open_memstream(&buf, len);

	if (!f)
		return NULL;
	ike_engine_stats(d->engine, &s);
	one(f, "ikebana_start_time_seconds", "gauge",
	    "When the daemon started, in seconds since the epoch.",
	    (unsigned long)d->started_wall);
	sas(f, d);
	negotiations(f, &s);
	engine_counters(f, &s);
	helpers(f);
	control(f, d);
	fputs("# EOF\n", f);
	if (fclose(f)) {
		free(buf);
		return NULL;
	}
	return buf;
}

/* {"text": the metrics}: the client prints it as it is. */
struct json_object *cmd_metrics(struct ikbd *d, struct json_object *req)
{
	size_t len = 0;
	char *text = metrics_render(d, &len);

	return text_response("metrics", text, len);
}
