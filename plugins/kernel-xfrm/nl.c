// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The request socket: one NETLINK_XFRM socket, every request sent with
 * NLM_F_ACK so that success is as explicit as failure, and the kernel's
 * extended ACK text carried into ikb_error as "kernel: <msg>". The rare
 * requests to other buses (a route, a pcrypt instance) get a socket of
 * their own for the one exchange.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/time.h>
#include <time.h>
#include <libmnl/libmnl.h>
#include <linux/netlink.h>

#include "xfrm.h"

#ifndef SOL_NETLINK
#define SOL_NETLINK 270
#endif

/* A socket on bus with the kernel's reasons turned on and a timeout. */
static int nl_open(int bus, const char *what, struct mnl_socket **out,
		   struct ikb_error *err)
{
	/* A hung kernel answer must not hang the daemon's only loop. */
	struct timeval tv = { .tv_sec = 5 };
	struct mnl_socket *nl = mnl_socket_open(bus);
	int one = 1, e;

	if (!nl)
		return ikb_error_set(err, errno, "netlink %s socket: %s", what,
				     strerror(errno));
	/* Without these the kernel's reason for a refusal is lost. */
	mnl_socket_setsockopt(nl, NETLINK_EXT_ACK, &one, sizeof(one));
	mnl_socket_setsockopt(nl, NETLINK_CAP_ACK, &one, sizeof(one));
	setsockopt(mnl_socket_get_fd(nl), SOL_SOCKET, SO_RCVTIMEO, &tv,
		   sizeof(tv));
	if (mnl_socket_bind(nl, 0, MNL_SOCKET_AUTOPID) < 0) {
		e = errno;
		mnl_socket_close(nl);
		return ikb_error_set(err, e, "netlink %s bind: %s", what,
				     strerror(e));
	}
	*out = nl;
	return 0;
}

int xfrm_nl_open(struct xfrm_state *st, struct ikb_error *err)
{
	int rc;

	if (st->nl)
		return 0;
	rc = nl_open(NETLINK_XFRM, "xfrm", &st->nl, err);
	if (!rc)
		st->seq = (unsigned)time(NULL);
	return rc;
}

void xfrm_nl_close(struct xfrm_state *st)
{
	if (st->nl)
		mnl_socket_close(st->nl);
	st->nl = NULL;
}

struct nlmsghdr *xfrm_nl_start(void *buf, uint16_t type, uint16_t flags)
{
	struct nlmsghdr *nlh;

	memset(buf, 0, XFRM_BUF);
	nlh = mnl_nlmsg_put_header(buf);
	nlh->nlmsg_type = type;
	nlh->nlmsg_flags = NLM_F_REQUEST | flags;
	return nlh;
}

static int ext_ack_attr(const struct nlattr *a, void *data)
{
	const char **msg = data;

	if (mnl_attr_get_type(a) == NLMSGERR_ATTR_MSG &&
	    mnl_attr_validate(a, MNL_TYPE_NUL_STRING) == 0)
		*msg = mnl_attr_get_str(a);
	return MNL_CB_OK;
}

int xfrm_nl_error(const struct nlmsghdr *nlh, char *msg, size_t len)
{
	const struct nlmsgerr *e = mnl_nlmsg_get_payload(nlh);
	const char *text = NULL;
	unsigned off = sizeof(*e);

	if (nlh->nlmsg_len < mnl_nlmsg_size(sizeof(*e))) {
		snprintf(msg, len, "kernel: truncated error message");
		return -EBADMSG;
	}
	if (e->error == 0)
		return 0;
	/* The TLVs follow the request unless NETLINK_CAP_ACK cut it off. */
	if (!(nlh->nlmsg_flags & NLM_F_CAPPED))
		off += e->msg.nlmsg_len - sizeof(struct nlmsghdr);
	if ((nlh->nlmsg_flags & NLM_F_ACK_TLVS) &&
	    mnl_nlmsg_size(off) <= nlh->nlmsg_len)
		mnl_attr_parse(nlh, off, ext_ack_attr, &text);
	if (text && *text) {
		/* The kernel ends most of its messages with a full stop. */
		int n = (int)strlen(text);

		if (text[n - 1] == '.')
			n--;
		snprintf(msg, len, "kernel: %.*s (%s)", n, text,
			 strerror(-e->error));
	} else {
		snprintf(msg, len, "kernel: %s", strerror(-e->error));
	}
	return e->error;
}

struct talk {
	int (*cb)(const struct nlmsghdr *nlh, void *data);
	void *data;
	bool one; /* the one reply ends the exchange: no ACK was asked */
	int error;
	char msg[sizeof(((struct ikb_error *)0)->msg)];
};

static int talk_error(const struct nlmsghdr *nlh, void *data)
{
	struct talk *t = data;

	t->error = xfrm_nl_error(nlh, t->msg, sizeof(t->msg));
	/* An ACK (error 0) ends the exchange as much as a failure does. */
	return t->error ? MNL_CB_ERROR : MNL_CB_STOP;
}

static int talk_done(const struct nlmsghdr *nlh, void *data)
{
	return MNL_CB_STOP;
}

static int talk_data(const struct nlmsghdr *nlh, void *data)
{
	struct talk *t = data;
	int rc = t->cb ? t->cb(nlh, t->data) : MNL_CB_OK;

	return rc == MNL_CB_OK && t->one ? MNL_CB_STOP : rc;
}

static int talk_on(struct mnl_socket *nl, unsigned seq, bool ack,
		   struct nlmsghdr *nlh,
		   int (*cb)(const struct nlmsghdr *nlh, void *data),
		   void *data, struct ikb_error *err)
{
	static mnl_cb_t ctl[NLMSG_MIN_TYPE] = {
		[NLMSG_ERROR] = talk_error,
		[NLMSG_DONE] = talk_done,
	};
	char buf[XFRM_BUF * 4];
	struct talk t = { .cb = cb, .data = data, .one = !ack };
	unsigned portid;
	ssize_t n;
	int rc;

	nlh->nlmsg_seq = seq;
	if (ack && !(nlh->nlmsg_flags & NLM_F_DUMP))
		nlh->nlmsg_flags |= NLM_F_ACK;
	portid = mnl_socket_get_portid(nl);
	if (mnl_socket_sendto(nl, nlh, nlh->nlmsg_len) < 0)
		return ikb_error_set(err, errno, "netlink send: %s",
				     strerror(errno));
	do {
		n = mnl_socket_recvfrom(nl, buf, sizeof(buf));
		if (n < 0)
			return ikb_error_set(
				err, errno, "netlink receive: %s",
				strerror(errno == EAGAIN ? ETIMEDOUT : errno));
		rc = mnl_cb_run2(buf, (size_t)n, nlh->nlmsg_seq, portid,
				 talk_data, &t, ctl, NLMSG_MIN_TYPE);
	} while (rc == MNL_CB_OK);
	if (t.error)
		return ikb_error_set(err, -t.error, "%s", t.msg);
	if (rc < 0)
		return ikb_error_set(err, errno ? errno : EPROTO,
				     "netlink reply: %s", strerror(errno));
	return 0;
}

int xfrm_nl_talk(struct xfrm_state *st, struct nlmsghdr *nlh,
		 int (*cb)(const struct nlmsghdr *nlh, void *data), void *data,
		 struct ikb_error *err)
{
	int rc = xfrm_nl_open(st, err);

	return rc ? rc : talk_on(st->nl, ++st->seq, true, nlh, cb, data, err);
}

int xfrm_nl_ask(struct xfrm_state *st, struct nlmsghdr *nlh,
		int (*cb)(const struct nlmsghdr *nlh, void *data), void *data,
		struct ikb_error *err)
{
	int rc = xfrm_nl_open(st, err);

	return rc ? rc : talk_on(st->nl, ++st->seq, false, nlh, cb, data, err);
}

int xfrm_nl_once(int bus, const char *what, struct nlmsghdr *nlh,
		 int (*cb)(const struct nlmsghdr *nlh, void *data), void *data,
		 struct ikb_error *err)
{
	struct mnl_socket *nl;
	int rc = nl_open(bus, what, &nl, err);

	if (rc)
		return rc;
	rc = talk_on(nl, (unsigned)time(NULL), true, nlh, cb, data, err);
	mnl_socket_close(nl);
	return rc;
}
