/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A host for kernel-xfrm tests: log lines kept, fd watches run by hand. */
#ifndef IKB_TEST_XFRM_HOST_H
#define IKB_TEST_XFRM_HOST_H

#include <ikebana/plugin.h>

extern char test_log[8192];

const struct ikb_host *test_host(void);
/* Run the watched fds' callbacks for up to ms milliseconds. */
void test_host_poll(int ms);

/* a = the IPv4 address s; fails the test if s is not one. */
void test_v4(struct ikb_addr *a, const char *s);
/* An ESP policy for 10.1.0.0/16 -> 10.2.0.0/24, 192.0.2.1 -> 192.0.2.2. */
struct ikb_policy test_esp_policy(enum ikb_dir dir, enum ikb_mode mode,
				  uint32_t reqid);

#endif
