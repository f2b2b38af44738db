// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <string.h>
#include <time.h>
#include <linux/netlink.h>

#include "net/rtnl.h"

int rtnl_open(struct rtnl *t)
{
	memset(t, 0, sizeof(*t));
	t->seq = (uint32_t)time(NULL);
	t->nl = mnl_socket_open(NETLINK_ROUTE);
	if (!t->nl)
		return -errno;
	if (mnl_socket_bind(t->nl, 0, MNL_SOCKET_AUTOPID) < 0) {
		int rc = -errno;

		mnl_socket_close(t->nl);
		t->nl = NULL;
		return rc;
	}
	return 0;
}

void rtnl_close(struct rtnl *t)
{
	if (t->nl)
		mnl_socket_close(t->nl);
	t->nl = NULL;
}

int rtnl_ask(struct rtnl *t, struct nlmsghdr *nlh, mnl_cb_t cb, void *arg)
{
	char buf[MNL_SOCKET_BUFFER_SIZE];
	unsigned portid = mnl_socket_get_portid(t->nl);
	int rc = MNL_CB_OK;
	ssize_t n;

	nlh->nlmsg_seq = ++t->seq;
	nlh->nlmsg_flags |= NLM_F_ACK;
	if (mnl_socket_sendto(t->nl, nlh, nlh->nlmsg_len) < 0)
		return -errno;
	while (rc > MNL_CB_STOP) {
		n = mnl_socket_recvfrom(t->nl, buf, sizeof(buf));
		if (n < 0)
			return -errno;
		rc = mnl_cb_run(buf, (size_t)n, nlh->nlmsg_seq, portid, cb,
				arg);
	}
	return rc < 0 ? -errno : 0;
}
