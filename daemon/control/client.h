/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The blocking side of the control protocol: ikebana and the tests. */
#ifndef IKB_CONTROL_CLIENT_H
#define IKB_CONTROL_CLIENT_H

struct json_object;

/* Connect to RUNDIR/ikebana.ctl; -1 with errno. */
int ctl_connect(const char *rundir);
/* The same for a socket at path (ikebanad --ctlsocket). */
int ctl_connect_path(const char *path);

/*
 * Send req and wait up to timeout_ms for the response. Returns 0, or -1
 * with errno (ETIMEDOUT, ECONNRESET, EPROTO, ...) and *why for EPROTO.
 */
int ctl_call(int fd, struct json_object *req, struct json_object **resp,
	     int timeout_ms, const char **why);

#endif
