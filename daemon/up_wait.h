/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * `ikebana up` waits for what becomes of the IKE SA it started: the
 * engine's outcome answers the control client.
 */
#ifndef IKB_DAEMON_UP_WAIT_H
#define IKB_DAEMON_UP_WAIT_H

struct ikbd;
struct json_object;

/* The longest an up request may wait; the client gives up at 30 s. */
#define UP_WAIT_MAX_S 25

/*
 * After ike_engine_up(d->engine, conn) returned 0: defer the current
 * control request and answer it once conn's IKE SA and first Child SA
 * are up, or failed (with the reason the engine logged), or after secs
 * seconds. 0 when deferred (the handler returns NULL), -1 when it cannot
 * wait (out of memory, not in a handler): answer at once.
 */
int up_wait(struct ikbd *d, const char *conn, unsigned secs);

#endif
