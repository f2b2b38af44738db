// SPDX-License-Identifier: GPL-2.0-or-later
#include <arpa/inet.h>
#include <errno.h>
#include <event2/event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "tutil.h"

void rx_cb(void *ctx, const struct net_dgram *d)
{
	struct rx *rx = ctx;

	memcpy(rx->data, d->buf, d->len);
	rx->last = *d;
	rx->last.buf = rx->data;
	rx->count++;
	if (rx->close_in_cb) {
		net_close(rx->self);
		rx->self = NULL;
	}
}

struct net *open_free(struct event_base *base, struct net_opts *o,
		      struct rx *rx)
{
	bool natt = o->natt_port != 0;
	unsigned seed = (unsigned)getpid() * 2654435761u ^ (unsigned)time(NULL);
	char err[256];

	for (int i = 0; i < 200; i++) {
		uint16_t p =
			(uint16_t)(20000 + ((seed + i * 7919u) % 20000) * 2);
		struct net *n;

		o->ike_port = p;
		o->natt_port = natt ? p + 1 : 0;
		n = net_open(base, o, rx_cb, rx, err, sizeof(err));
		if (n) {
			if (rx)
				rx->self = n;
			return n;
		}
		if (errno != EADDRINUSE) {
			fprintf(stderr, "net_open: %s\n", err);
			return NULL;
		}
	}
	return NULL;
}

static void tick(evutil_socket_t fd, short what, void *arg)
{
}

static long ms_since(const struct timespec *t0)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return (now.tv_sec - t0->tv_sec) * 1000 +
	       (now.tv_nsec - t0->tv_nsec) / 1000000;
}

bool run_until(struct event_base *base, const int *count, int want, int ms)
{
	struct timeval tv = { 0, 5000 };
	struct event *t = event_new(base, -1, EV_PERSIST, tick, NULL);
	struct timespec t0;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	event_add(t, &tv);
	while (*count < want && ms_since(&t0) < ms)
		event_base_loop(base, EVLOOP_ONCE);
	event_free(t);
	return *count >= want;
}

struct ikb_addr A(const char *s) {
	struct ikb_addr a;

	if (net_addr_parse(s, &a))
		abort();
	return a;
}

static socklen_t
sa_of(const char *addr, uint16_t port, struct sockaddr_storage *ss)
{
	memset(ss, 0, sizeof(*ss));
	if (strchr(addr, ':')) {
		struct sockaddr_in6 *s6 = (struct sockaddr_in6 *)ss;

		s6->sin6_family = AF_INET6;
		s6->sin6_port = htons(port);
		inet_pton(AF_INET6, addr, &s6->sin6_addr);
		return sizeof(*s6);
	}
	struct sockaddr_in *s4 = (struct sockaddr_in *)ss;

	s4->sin_family = AF_INET;
	s4->sin_port = htons(port);
	inet_pton(AF_INET, addr, &s4->sin_addr);
	return sizeof(*s4);
}

int plain_socket(const char *addr, uint16_t *port)
{
	struct sockaddr_storage ss;
	socklen_t sl = sa_of(addr, 0, &ss);
	int fd = socket(ss.ss_family, SOCK_DGRAM | SOCK_NONBLOCK, 0);

	if (fd < 0 || bind(fd, (struct sockaddr *)&ss, sl) < 0)
		return -1;
	sl = sizeof(ss);
	getsockname(fd, (struct sockaddr *)&ss, &sl);
	*port = ntohs(((struct sockaddr_in *)&ss)->sin_port);
	return fd;
}

int plain_sendto(int fd, const char *addr, uint16_t port, const void *buf,
		 size_t len)
{
	struct sockaddr_storage ss;
	socklen_t sl = sa_of(addr, port, &ss);

	return (int)sendto(fd, buf, len, 0, (struct sockaddr *)&ss, sl);
}

bool have_ipv6(void)
{
	uint16_t port;
	int fd = plain_socket("::1", &port);

	if (fd < 0)
		return false;
	close(fd);
	return true;
}

static int saved_stderr = -1;
static FILE *cap_file;

void cap_begin(void)
{
	fflush(stderr);
	cap_file = tmpfile();
	saved_stderr = dup(STDERR_FILENO);
	dup2(fileno(cap_file), STDERR_FILENO);
}

char *cap_end(void)
{
	static char text[16384];
	size_t n;

	fflush(stderr);
	dup2(saved_stderr, STDERR_FILENO);
	close(saved_stderr);
	rewind(cap_file);
	n = fread(text, 1, sizeof(text) - 1, cap_file);
	text[n] = '\0';
	fclose(cap_file);
	fputs(text, stderr); /* still visible in the test log */
	return text;
}
