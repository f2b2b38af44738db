/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * RUNDIR/ikebanad.pid claims a run directory for one daemon: several
 * daemons run side by side (one per network namespace), each with its own.
 */
#ifndef IKB_DAEMON_PIDFILE_H
#define IKB_DAEMON_PIDFILE_H

#include <limits.h>
#include <sys/types.h>

#define PIDFILE_NAME "ikebanad.pid"

struct pidfile {
	char path[PATH_MAX];
	int fd; /* holds the lock; -1 when not held */
};

/*
 * Create RUNDIR (0755) if missing, lock the pid file and write our pid. Returns 0; or -1 with errno: EEXIST when a live daemon
 * holds it (*other is its pid), else the system error.
 */
int pidfile_acquire(struct pidfile *pf, const char *rundir, pid_t *other);
/* Remove the file if we still own it. */
void pidfile_release(struct pidfile *pf);

/* The pid recorded in path; 0 if none or unreadable. */
pid_t pidfile_read(const char *path);
/* Whether pid is a running ikebanad (not a recycled pid). */
int pidfile_pid_alive(pid_t pid);

#endif
