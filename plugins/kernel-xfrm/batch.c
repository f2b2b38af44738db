// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * child_add: a new Child SA in one round trip. UPDSA of the inbound SA,
 * NEWSA of the outbound one and NEWPOLICY of each policy go out in one
 * sendmsg, and only the last asks for an ACK: the kernel handles the
 * messages in order and answers a failure whether asked or not, so the
 * last one's ACK (or error) ends the exchange, and every earlier message
 * without an error stands. One send and one read instead of four of each
 * (with their ACKs) per Child SA and side; in UML a system call costs
 * about 30 us, and these were a third of the daemon's calls per SA.
 *
 * The kernel goes on after a failed message, so a failure leaves some of
 * the Child SA in place: *done says which, for the caller to remove.
 * SAs with a NIC offload go one by one: a refused nic-offload=yes is
 * retried in software (sa.c), which needs the single answer.
 */
#include <errno.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <libmnl/libmnl.h>
#include <linux/netlink.h>

#include "xfrm.h"

#define BATCH_MAX 5 /* two SAs, three policies */

/* The single calls, stopping at the first failure as before. */
static int one_by_one(struct xfrm_state *st, struct ikb_sa *in,
		      struct ikb_sa *out, const struct ikb_policy *pol,
		      unsigned npol, uint32_t *done, struct ikb_error *err)
{
	int rc = xfrm_sa_update(st, in, err);

	*done = 0;
	if (rc)
		return rc;
	*done |= 1;
	if ((rc = xfrm_sa_add(st, out, err)))
		return rc;
	*done |= 2;
	for (unsigned i = 0; i < npol; i++) {
		if ((rc = xfrm_policy_add(st, &pol[i], err)))
			return rc;
		*done |= 4u << i;
	}
	return 0;
}

/* The errors and the final ACK for seq first .. first + n - 1. */
static int read_answers(struct xfrm_state *st, uint32_t first, unsigned n,
			uint32_t *done, struct ikb_error *err)
{
	char buf[XFRM_BUF], text[sizeof(err->msg)];
	bool end = false;
	int rc = 0;

	while (!end) {
		ssize_t got = mnl_socket_recvfrom(st->nl, buf, sizeof(buf));
		const struct nlmsghdr *nlh = (const struct nlmsghdr *)buf;
		int len = (int)got;

		if (got < 0)
			return ikb_error_set(
				err, errno, "netlink receive: %s",
				strerror(errno == EAGAIN ? ETIMEDOUT : errno));
		for (; mnl_nlmsg_ok(nlh, len);
		     nlh = mnl_nlmsg_next(nlh, &len)) {
			uint32_t i = nlh->nlmsg_seq - first;
			int e;

			if (nlh->nlmsg_type != NLMSG_ERROR || i >= n)
				continue;
			e = xfrm_nl_error(nlh, text, sizeof(text));
			if (e) {
				*done &= ~(1u << i);
				if (!rc)
					rc = ikb_error_set(err, -e, "%s", text);
			}
			end = end || i == n - 1;
		}
	}
	return rc;
}

static int send_batch(struct xfrm_state *st, struct nlmsghdr **m, unsigned n,
		      uint32_t *done, struct ikb_error *err)
{
	struct sockaddr_nl kernel = { .nl_family = AF_NETLINK };
	struct iovec iov[BATCH_MAX];
	struct msghdr mh = { .msg_name = &kernel,
			     .msg_namelen = sizeof(kernel),
			     .msg_iov = iov,
			     .msg_iovlen = n };
	uint32_t first = st->seq + 1;

	for (unsigned i = 0; i < n; i++) {
		m[i]->nlmsg_seq = ++st->seq;
		if (i == n - 1)
			m[i]->nlmsg_flags |= NLM_F_ACK;
		iov[i].iov_base = m[i];
		iov[i].iov_len = NLMSG_ALIGN(m[i]->nlmsg_len);
	}
	*done = (1u << n) - 1;
	if (sendmsg(mnl_socket_get_fd(st->nl), &mh, 0) < 0) {
		*done = 0;
		return ikb_error_set(err, errno, "netlink send: %s",
				     strerror(errno));
	}
	/* A failed read leaves *done all set: the caller removes all. */
	return read_answers(st, first, n, done, err);
}

int xfrm_child_add(void *state, struct ikb_sa *in, struct ikb_sa *out,
		   const struct ikb_policy *pol, unsigned npol, uint32_t *done,
		   struct ikb_error *err)
{
	static char buf[BATCH_MAX][XFRM_BUF];
	struct xfrm_state *st = state;
	struct xfrm_sa_opts o = { .no_offload = false };
	struct nlmsghdr *m[BATCH_MAX];
	unsigned n = 2;
	int rc;

	*done = 0;
	if (npol > BATCH_MAX - 2 || in->offload != IKB_OFFLOAD_NO ||
	    out->offload != IKB_OFFLOAD_NO)
		return one_by_one(st, in, out, pol, npol, done, err);
	if ((rc = xfrm_nl_open(st, err)))
		return rc;
	in->offload_fallback = out->offload_fallback = false;
	xfrm_pcrypt_apply(st, in);
	xfrm_pcrypt_apply(st, out);
	m[0] = xfrm_build_sa(buf[0], XFRM_MSG_UPDSA, in, &o, err);
	m[1] = m[0] ? xfrm_build_sa(buf[1], XFRM_MSG_NEWSA, out, &o, err) :
		      NULL;
	for (unsigned i = 0; m[1] && i < npol; i++, n++)
		if (!(m[n] = xfrm_build_policy(buf[n], XFRM_MSG_NEWPOLICY,
					       &pol[i], err)))
			break;
	if (!m[0] || !m[1] || n < 2 + npol)
		rc = -EINVAL;
	else
		rc = send_batch(st, m, n, done, err);
	/* the keys were in these buffers */
	explicit_bzero(buf, sizeof(buf));
	return rc;
}
