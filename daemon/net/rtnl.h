/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * One short-lived rtnetlink socket and its request/ACK exchange, for the
 * few changes the daemon makes to links, addresses and routes (XFRM
 * interfaces, leftsourceip=): made at a load or a Child SA's start, so a
 * socket kept open would buy nothing.
 */
#ifndef IKB_NET_RTNL_H
#define IKB_NET_RTNL_H

#include <stdint.h>
#include <libmnl/libmnl.h>

struct rtnl {
	struct mnl_socket *nl;
	uint32_t seq;
};

/* 0 or -errno. */
int rtnl_open(struct rtnl *t);
void rtnl_close(struct rtnl *t);
/*
 * Send nlh (its seq set here) with NLM_F_ACK and read until the ACK or
 * the error, cb (may be NULL) for each answer: 0 or -errno.
 */
int rtnl_ask(struct rtnl *t, struct nlmsghdr *nlh, mnl_cb_t cb, void *arg);

#endif
