/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Shared by daemon/updown/'s files; nothing outside. */
#ifndef IKB_UPDOWN_INTERNAL_H
#define IKB_UPDOWN_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "updown/updown.h"

/* One invocation: what runs, with what environment, for the log. */
struct updown_job {
	struct updown_job *next;
	char *conn;
	char *verb; /* "up-client" */
	char *cmd; /* leftupdown=, run by /bin/sh -c */
	char **env; /* NULL-terminated */
	size_t nenv, cap;
};

/* The SAs' byte counters, when the kernel backend told them. */
struct updown_bytes {
	bool known;
	uint64_t in, out;
};

/* updown_env.c: job's environment for verb (without its suffix). */
int updown_env_build(struct updown_job *j, const struct ike_event *ev,
		     const char *verb, const struct updown_bytes *b);
/* "-client", "-host", with "-v6" for IPv6 (libreswan's rule). */
const char *updown_suffix(const struct ike_event *ev);
void updown_job_free(struct updown_job *j);

/* updown_run.c: the queues, one per conn, and the processes. */
struct updown_runner;
struct event_base;
struct updown_runner *updown_runner_new(struct event_base *base,
					unsigned timeout_ms, unsigned kill_ms);
/* Takes j: it runs after every job queued before for j->conn. */
void updown_runner_queue(struct updown_runner *r, struct updown_job *j);
unsigned updown_runner_pending(const struct updown_runner *r);
void updown_runner_free(struct updown_runner *r);

#endif
