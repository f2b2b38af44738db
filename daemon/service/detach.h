/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Becoming a daemon without losing start-up errors: the starting process
 * waits until the detached daemon says it is ready (or dies), so that
 * `ikebanad` returns non-zero when start-up fails and config errors reach
 * the terminal before it returns.
 */
#ifndef IKB_DAEMON_DETACH_H
#define IKB_DAEMON_DETACH_H

struct detach {
	int fd; /* write end of the status pipe; -1 when not detaching */
};

/*
 * Double fork and setsid. Returns only in the daemon process (0), or -1
 * with errno if the first fork failed. The original process exits with
 * the daemon's start-up status.
 */
int detach_begin(struct detach *dt);
/*
 * Start-up succeeded: stdio to /dev/null, cwd to /, and release the
 * waiting parent with exit status 0.
 */
int detach_finish(struct detach *dt);
/* Start-up failed: the waiting parent exits with status (1..255). */
void detach_fail(struct detach *dt, int status);

#endif
