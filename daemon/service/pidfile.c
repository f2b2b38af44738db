// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Two daemons starting at once must not both win, and a crashed daemon's
 * file must not block a restart. The winner is decided by an flock() held
 * for the daemon's lifetime (the kernel drops it when the process dies), so
 * there is no window between creating the file and writing the pid. The
 * recorded pid is checked with kill(pid, 0) too, for a live holder that
 * does not lock (e.g. a daemon in another mount of the same directory).
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/file.h>
#include <sys/stat.h>

#include "service/pidfile.h"

pid_t pidfile_read(const char *path)
{
	char buf[32];
	ssize_t n;
	long v;
	char *end;
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);

	if (fd < 0)
		return 0;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return 0;
	buf[n] = '\0';
	errno = 0;
	v = strtol(buf, &end, 10);
	if (errno || end == buf || v <= 0 || v > INT32_MAX ||
	    (*end && *end != '\n'))
		return 0;
	return (pid_t)v;
}

/*
 * /proc/PID/comm guards against a pid recycled by an unrelated process
 * after a crash. If /proc cannot say, trust kill(): refusing to start is
 * the safe mistake.
 */
int pidfile_pid_alive(pid_t pid)
{
	char path[64], comm[32] = "";
	FILE *f;

	if (pid <= 0 || (kill(pid, 0) < 0 && errno != EPERM))
		return 0;
	snprintf(path, sizeof(path), "/proc/%d/comm", (int)pid);
	f = fopen(path, "re");
	if (!f)
		return 1;
	if (!fgets(comm, sizeof(comm), f))
		comm[0] = '\0';
	fclose(f);
	comm[strcspn(comm, "\n")] = '\0';
	return comm[0] == '\0' || strcmp(comm, "ikebanad") == 0;
}

static int make_rundir(const char *rundir)
{
	struct stat st;

	if (mkdir(rundir, 0755) < 0 && errno != EEXIST)
		return -1;
	if (stat(rundir, &st) < 0)
		return -1;
	if (!S_ISDIR(st.st_mode)) {
		errno = ENOTDIR;
		return -1;
	}
	return 0;
}

/* Whether fd is still the file at path (not unlinked by a leaving owner). */
static int still_linked(int fd, const char *path)
{
	struct stat a, b;

	return fstat(fd, &a) == 0 && stat(path, &b) == 0 &&
	       a.st_dev == b.st_dev && a.st_ino == b.st_ino;
}

static int write_pid(int fd)
{
	char buf[32];
	int n = snprintf(buf, sizeof(buf), "%d\n", (int)getpid());

	if (ftruncate(fd, 0) < 0 || pwrite(fd, buf, (size_t)n, 0) != n)
		return -1;
	return 0;
}

/* One attempt: 1 = retry (the file went away under us), 0 = held, -1. */
static int try_lock(struct pidfile *pf, pid_t *other)
{
	int fd =
		open(pf->path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0644);
	pid_t pid;

	if (fd < 0)
		return -1;
	if (flock(fd, LOCK_EX | LOCK_NB) < 0) {
		*other = pidfile_read(pf->path);
		close(fd);
		errno = EEXIST;
		return -1;
	}
	if (!still_linked(fd, pf->path)) {
		close(fd);
		return 1;
	}
	pid = pidfile_read(pf->path);
	if (pid && pid != getpid() && pidfile_pid_alive(pid)) {
		*other = pid;
		close(fd);
		errno = EEXIST;
		return -1;
	}
	/* Empty, or stale from a daemon that died: ours now. */
	if (write_pid(fd) < 0) {
		close(fd);
		return -1;
	}
	pf->fd = fd;
	return 0;
}

int pidfile_acquire(struct pidfile *pf, const char *rundir, pid_t *other)
{
	int r, tries;

	*other = 0;
	pf->fd = -1;
	if (snprintf(pf->path, sizeof(pf->path), "%s/%s", rundir,
		     PIDFILE_NAME) >= (int)sizeof(pf->path)) {
		errno = ENAMETOOLONG;
		return -1;
	}
	if (make_rundir(rundir) < 0)
		return -1;
	for (tries = 0; tries < 5; tries++) {
		r = try_lock(pf, other);
		if (r <= 0)
			return r;
	}
	errno = EAGAIN;
	return -1;
}

void pidfile_release(struct pidfile *pf)
{
	if (pf->fd < 0)
		return;
	/* Unlink while the lock is held, so no newcomer's file is removed. */
	unlink(pf->path);
	close(pf->fd);
	pf->fd = -1;
}
