/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A host for kernel-xfrm tests: log lines kept, fd watches run by hand. */
#ifndef IKB_TEST_XFRM_HOST_H
#define IKB_TEST_XFRM_HOST_H

#include <ikebana/plugin.h>

extern char test_log[8192];

const struct ikb_host *test_host(void);
/* Run the watched fds' callbacks for up to ms milliseconds. */
void test_host_poll(int ms);

#endif
