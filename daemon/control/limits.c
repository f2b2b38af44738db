// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Who may hold a control connection, and for how long (server.h has the
 * policy): 64 clients that connected and said nothing once locked
 * `ikebana status` out for as long as they stayed.
 */
#include <event2/event.h>

#include "control/server_int.h"

/*
 * 128 slots cost a few kB and fds against the usual 1024; 32 per uid let
 * a script run status in parallel, and it takes three uids in group
 * ikebana to fill what root does not keep. 5 s: a local client writes
 * its request (at most 64 KiB) in one go; even a loaded host does that
 * in milliseconds.
 */
#define CTL_MAX_CLIENTS 128
#define CTL_MAX_PER_UID 32
#define CTL_REQUEST_MS 5000

void limits_default(struct ctl_limits *l)
{
	*l = (struct ctl_limits){ .max_clients = CTL_MAX_CLIENTS,
				  .per_uid = CTL_MAX_PER_UID,
				  .request_ms = CTL_REQUEST_MS };
}

void ctl_server_set_limits(struct ctl_server *srv, const struct ctl_limits *l)
{
	srv->limits = *l;
	/* root's reserve must fit, and every uid needs one slot */
	if (!srv->limits.per_uid)
		srv->limits.per_uid = 1;
	if (srv->limits.max_clients < srv->limits.per_uid)
		srv->limits.max_clients = srv->limits.per_uid;
}

/* Someone can connect in a loop: say so, but not once per attempt. */
#define client_log(srv, fmt, ...)                               \
	do {                                                    \
		if (log_ratelimit_ok(&(srv)->rl))               \
			log_warn("control: " fmt, __VA_ARGS__); \
	} while (0)

/* The uid's longest-waiting client that no answer is owed, or NULL. */
static struct ctl_client *oldest_idle(struct ctl_server *srv, uid_t uid,
				      unsigned *count)
{
	struct ctl_client *best = NULL;

	*count = 0;
	for (struct ctl_client *c = srv->clients; c; c = c->next) {
		if (c->uid != uid)
			continue;
		(*count)++;
		if (!c->deferred && (!best || c->since < best->since))
			best = c;
	}
	return best;
}

static unsigned count_nonroot(const struct ctl_server *srv)
{
	unsigned n = 0;

	for (const struct ctl_client *c = srv->clients; c; c = c->next)
		n += c->uid != 0;
	return n;
}

bool limits_admit(struct ctl_server *srv, pid_t pid, uid_t uid)
{
	const struct ctl_limits *l = &srv->limits;
	unsigned mine;
	struct ctl_client *old = oldest_idle(srv, uid, &mine);

	if (mine >= l->per_uid) {
		if (!old) {
			client_log(srv,
				   "refusing a client (pid %d, uid %u): its "
				   "uid has %u connections waiting on answers",
				   (int)pid, (unsigned)uid, mine);
			return false;
		}
		client_log(srv,
			   "closing a client (pid %d, uid %u) for a new one "
			   "(pid %d): at most %u per uid",
			   (int)old->pid, (unsigned)uid, (int)pid, l->per_uid);
		client_free(old);
		return true;
	}
	/* the non-root clients leave per_uid slots to root */
	if (uid != 0 && count_nonroot(srv) >= l->max_clients - l->per_uid) {
		client_log(srv,
			   "refusing a client (pid %d, uid %u): %u clients "
			   "connected",
			   (int)pid, (unsigned)uid, srv->nclients);
		return false;
	}
	return true;
}

static void deadline_cb(evutil_socket_t fd, short what, void *arg)
{
	struct ctl_client *c = arg;

	client_log(c->srv,
		   "closing a client (pid %d, uid %u): no complete request "
		   "within %u ms",
		   (int)c->pid, (unsigned)c->uid, c->srv->limits.request_ms);
	client_free(c);
}

void limits_arm(struct ctl_client *c)
{
	unsigned ms = c->srv->limits.request_ms;
	struct timeval tv = { .tv_sec = ms / 1000,
			      .tv_usec = (ms % 1000) * 1000 };

	if (!c->deadline)
		c->deadline = evtimer_new(c->srv->base, deadline_cb, c);
	if (!c->deadline)
		return; /* out of memory: the per-uid cap still holds */
	c->since = ++c->srv->ticks;
	evtimer_add(c->deadline, &tv);
}

void limits_disarm(struct ctl_client *c)
{
	if (c->deadline)
		evtimer_del(c->deadline);
}
