// SPDX-License-Identifier: GPL-2.0-or-later
#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <cmocka.h>

#include "test_host.h"

struct ikb_watch {
	int fd;
	void (*cb)(int fd, void *arg);
	void *arg;
};

char test_log[8192];
static struct ikb_watch watch = { .fd = -1 };

static void log_fn(const char *plugin, enum ikb_log_level level,
		   const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void log_fn(const char *plugin, enum ikb_log_level level,
		   const char *fmt, ...)
{
	size_t n = strlen(test_log);
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(test_log + n, sizeof(test_log) - n, fmt, ap);
	va_end(ap);
	n = strlen(test_log);
	snprintf(test_log + n, sizeof(test_log) - n, "\n");
}

static struct ikb_watch *fd_watch(int fd, void (*cb)(int fd, void *arg),
				  void *arg)
{
	watch = (struct ikb_watch){ fd, cb, arg };
	return &watch;
}

static void fd_unwatch(struct ikb_watch *w)
{
	w->fd = -1;
}

static const struct ikb_host host = {
	IKB_OPS_SIZE(struct ikb_host),
	.log = log_fn,
	.fd_watch = fd_watch,
	.fd_unwatch = fd_unwatch,
};

const struct ikb_host *test_host(void)
{
	return &host;
}

void test_host_poll(int ms)
{
	struct pollfd p = { .fd = watch.fd, .events = POLLIN };

	if (watch.fd >= 0 && poll(&p, 1, ms) > 0)
		watch.cb(watch.fd, watch.arg);
}

void test_v4(struct ikb_addr *a, const char *s)
{
	a->family = AF_INET;
	assert_int_equal(inet_pton(AF_INET, s, a->bytes), 1);
}

struct ikb_policy test_esp_policy(enum ikb_dir dir, enum ikb_mode mode,
				  uint32_t reqid)
{
	struct ikb_policy p = {
		.dir = dir, .mode = mode, .proto = IPPROTO_ESP, .reqid = reqid
	};

	test_v4(&p.sel.src, "10.1.0.0");
	p.sel.src_plen = 16;
	test_v4(&p.sel.dst, "10.2.0.0");
	p.sel.dst_plen = 24;
	test_v4(&p.tmpl_src, "192.0.2.1");
	test_v4(&p.tmpl_dst, "192.0.2.2");
	return p;
}
