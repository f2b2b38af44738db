// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>
#include <sys/wait.h>

#include "service/detach.h"

/*
 * The first child is reaped before the parent waits on the pipe, so that
 * no zombie is left; EOF on the pipe without a status byte means that the
 * daemon died during start-up (its messages are already on stderr).
 */
static void parent_wait(int rfd, pid_t child)
{
	unsigned char st = 1;
	ssize_t n;

	while (waitpid(child, NULL, 0) < 0 && errno == EINTR)
		;
	do
		n = read(rfd, &st, 1);
	while (n < 0 && errno == EINTR);
	_exit(n == 1 ? st : 1);
}

int detach_begin(struct detach *dt)
{
	int p[2];
	pid_t pid;

	dt->fd = -1;
	if (pipe2(p, O_CLOEXEC) < 0)
		return -1;
	pid = fork();
	if (pid < 0) {
		close(p[0]);
		close(p[1]);
		return -1;
	}
	if (pid > 0) {
		close(p[1]);
		parent_wait(p[0], pid);
	}
	close(p[0]);
	/* A new session without a controlling terminal... */
	if (setsid() < 0)
		_exit(1);
	/* ...and not a session leader, so it can never acquire one. */
	pid = fork();
	if (pid < 0)
		_exit(1);
	if (pid > 0)
		_exit(0);
	dt->fd = p[1];
	return 0;
}

int detach_finish(struct detach *dt)
{
	unsigned char ok = 0;
	int fd;

	if (dt->fd < 0)
		return 0;
	if (chdir("/") < 0)
		return -1;
	fd = open("/dev/null", O_RDWR | O_CLOEXEC);
	if (fd < 0)
		return -1;
	dup2(fd, STDIN_FILENO);
	dup2(fd, STDOUT_FILENO);
	dup2(fd, STDERR_FILENO);
	if (fd > STDERR_FILENO)
		close(fd);
	if (write(dt->fd, &ok, 1) != 1)
		return -1;
	close(dt->fd);
	dt->fd = -1;
	return 0;
}

void detach_fail(struct detach *dt, int status)
{
	unsigned char st = (unsigned char)status;

	if (dt->fd < 0)
		return;
	if (write(dt->fd, &st, 1) != 1) {
		/* EOF alone makes the parent exit 1: still a failure */
	}
	close(dt->fd);
	dt->fd = -1;
}
