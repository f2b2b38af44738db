// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "config/readfile.h"

/* What st is, for "PATH: is a FIFO, not a regular file". */
static const char *not_regular(const struct stat *st)
{
	if (S_ISDIR(st->st_mode))
		return "is a directory, not a regular file";
	if (S_ISCHR(st->st_mode))
		return "is a character device, not a regular file";
	if (S_ISBLK(st->st_mode))
		return "is a block device, not a regular file";
	if (S_ISFIFO(st->st_mode))
		return "is a FIFO, not a regular file";
	if (S_ISSOCK(st->st_mode))
		return "is a socket, not a regular file";
	return "is not a regular file";
}

int cfg_open_regular(const char *path, struct stat *st, const char **why)
{
	/* O_NONBLOCK: opening a FIFO for reading waits for a writer */
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);

	if (fd < 0) {
		*why = strerror(errno);
		return -1;
	}
	if (fstat(fd, st) < 0) {
		*why = strerror(errno);
		close(fd);
		return -1;
	}
	if (!S_ISREG(st->st_mode)) {
		*why = not_regular(st);
		close(fd);
		errno = S_ISDIR(st->st_mode) ? EISDIR : EINVAL;
		return -1;
	}
	return fd;
}

/* Room for one more byte than n, and the NUL. */
static void grow(char **buf, size_t *cap, size_t n)
{
	char *nb;

	if (n + 1 < *cap)
		return;
	nb = realloc(*buf, *cap * 2);
	if (!nb)
		abort();
	*buf = nb;
	*cap *= 2;
}

char *cfg_read_fd(int fd, size_t hint, size_t *len, const char **why)
{
	/*
	 * Sized from st_size, so that a secrets file is read without a
	 * realloc that would leave a copy of its keys behind; but read to
	 * the end, since files in /proc say 0.
	 */
	size_t cap = (hint < CFG_FILE_MAX ? hint : CFG_FILE_MAX) + 2, n = 0;
	char *buf = malloc(cap);
	ssize_t r;

	if (!buf)
		abort();
	for (;;) {
		grow(&buf, &cap, n);
		r = read(fd, buf + n, cap - n - 1);
		if (r == 0) {
			close(fd);
			buf[n] = '\0';
			*len = n;
			return buf;
		}
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			*why = strerror(errno);
			break;
		}
		n += (size_t)r;
		if (n > CFG_FILE_MAX) {
			*why = "is larger than 64 MiB";
			break;
		}
	}
	close(fd);
	explicit_bzero(buf, n);
	free(buf);
	return NULL;
}
