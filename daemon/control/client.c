// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <json-c/json.h>

#include "control/client.h"
#include "control/proto.h"

int ctl_connect(const char *rundir)
{
	char path[sizeof(((struct sockaddr_un *)0)->sun_path)];

	if (ctl_socket_path(rundir, path, sizeof(path)) < 0)
		return -1;
	return ctl_connect_path(path);
}

int ctl_connect_path(const char *path)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	int fd, e;

	if (strlen(path) >= sizeof(sa.sun_path)) {
		errno = ENAMETOOLONG;
		return -1;
	}
	memcpy(sa.sun_path, path, strlen(path) + 1);
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -1;
	if (connect(fd, (struct sockaddr *)&sa, sizeof(sa)) < 0) {
		e = errno;
		close(fd);
		errno = e;
		return -1;
	}
	return fd;
}

static long long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* Wait for fd to become ready for events before the deadline. */
static int wait_fd(int fd, short events, long long deadline)
{
	struct pollfd p = { .fd = fd, .events = events };
	long long left;
	int r;

	for (;;) {
		left = deadline - now_ms();
		if (left <= 0) {
			errno = ETIMEDOUT;
			return -1;
		}
		r = poll(&p, 1, (int)left);
		if (r > 0)
			return 0;
		if (r < 0 && errno != EINTR)
			return -1;
	}
}

static int send_all(int fd, const uint8_t *p, size_t n, long long deadline)
{
	ssize_t w;

	while (n) {
		if (wait_fd(fd, POLLOUT, deadline) < 0)
			return -1;
		w = send(fd, p, n, MSG_NOSIGNAL | MSG_DONTWAIT);
		if (w < 0) {
			if (errno == EINTR || errno == EAGAIN)
				continue;
			return -1;
		}
		p += w;
		n -= (size_t)w;
	}
	return 0;
}

static int recv_all(int fd, uint8_t *p, size_t n, long long deadline)
{
	ssize_t r;

	while (n) {
		if (wait_fd(fd, POLLIN, deadline) < 0)
			return -1;
		r = recv(fd, p, n, MSG_DONTWAIT);
		if (r == 0) {
			errno = ECONNRESET;
			return -1;
		}
		if (r < 0) {
			if (errno == EINTR || errno == EAGAIN)
				continue;
			return -1;
		}
		p += r;
		n -= (size_t)r;
	}
	return 0;
}

int ctl_call(int fd, struct json_object *req, struct json_object **resp,
	     int timeout_ms, const char **why)
{
	long long deadline = now_ms() + timeout_ms;
	uint8_t hdr[CTL_HDR_LEN], *body = NULL;
	size_t len, used;
	uint8_t *frame = ctl_frame_encode(req, CTL_REQUEST_MAX, &len);
	int r;

	*resp = NULL;
	if (!frame) {
		errno = ENOMEM;
		return -1;
	}
	r = send_all(fd, frame, len, deadline);
	free(frame);
	if (r < 0 || recv_all(fd, hdr, sizeof(hdr), deadline) < 0)
		return -1;
	len = (size_t)hdr[0] << 24 | (size_t)hdr[1] << 16 |
	      (size_t)hdr[2] << 8 | hdr[3];
	if (len > CTL_RESPONSE_MAX) {
		*why = "response exceeds the maximum frame size";
		errno = EPROTO;
		return -1;
	}
	body = malloc(CTL_HDR_LEN + len);
	if (!body) {
		errno = ENOMEM;
		return -1;
	}
	memcpy(body, hdr, CTL_HDR_LEN);
	if (recv_all(fd, body + CTL_HDR_LEN, len, deadline) < 0) {
		free(body);
		return -1;
	}
	r = ctl_frame_decode(body, CTL_HDR_LEN + len, CTL_RESPONSE_MAX, resp,
			     &used, why);
	free(body);
	if (r != CTL_DECODE_OK) {
		errno = EPROTO;
		return -1;
	}
	return 0;
}
