// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The kernel's side of the conversation: a second NETLINK_XFRM socket in
 * the multicast groups XFRMNLGRP_ACQUIRE (ACQUIRE: traffic hit a policy
 * with no SA), XFRMNLGRP_EXPIRE (EXPIRE for SAs and POLEXPIRE for
 * policies: the kernel sends both to that one group) and
 * XFRMNLGRP_MAPPING (ESP in UDP from another address or port: a NAT
 * mapped the peer anew). Only events about
 * our own SAs and policies (owner.c) reach the callback.
 *
 * Subscribing is also when this backend takes charge of the kernel state:
 * it removes a predecessor's leftovers first, and fini removes its own.
 * checkconfig and tests, which never subscribe, never touch the kernel.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <libmnl/libmnl.h>

#include "xfrm.h"

static const struct xfrm_user_tmpl *first_tmpl(const struct nlmsghdr *nlh,
					       size_t hdr)
{
	const struct nlattr *a;

	mnl_attr_for_each(a, nlh, hdr) if (
		mnl_attr_get_type(a) == XFRMA_TMPL &&
		mnl_attr_get_payload_len(a) >=
			sizeof(struct
			       xfrm_user_tmpl)) return mnl_attr_get_payload(a);
	return NULL;
}

/* RFC 9611: a policy with XFRM_POLICY_CPU_ACQUIRE names the CPU. */
static int32_t acquire_cpu(const struct nlmsghdr *nlh, size_t hdr)
{
	const struct nlattr *a;
	int32_t cpu = -1;

	mnl_attr_for_each(a, nlh, hdr)
	{
		if (mnl_attr_get_type(a) == XFRMA_SA_PCPU &&
		    mnl_attr_get_payload_len(a) == 4)
			cpu = (int32_t)mnl_attr_get_u32(a);
	}
	return cpu;
}

static int decode_acquire(const struct nlmsghdr *nlh,
			  struct ikb_kernel_event *ev)
{
	const struct xfrm_user_acquire *a = mnl_nlmsg_get_payload(nlh);
	const struct xfrm_user_tmpl *t;

	if (nlh->nlmsg_len < mnl_nlmsg_size(sizeof(*a)))
		return 0;
	t = first_tmpl(nlh, sizeof(*a));
	if (!t || !xfrm_reqid_ours(t->reqid))
		return 0;
	ev->type = IKB_KEV_ACQUIRE;
	xfrm_sel_get(&ev->sel, &a->sel);
	xfrm_addr_get(&ev->dst, &a->id.daddr, t->family);
	ev->proto = a->id.proto;
	ev->reqid = xfrm_reqid_from_kernel(t->reqid);
	ev->cpu = acquire_cpu(nlh, sizeof(*a));
	return 1;
}

static int decode_expire(const struct nlmsghdr *nlh,
			 struct ikb_kernel_event *ev)
{
	const struct xfrm_user_expire *e = mnl_nlmsg_get_payload(nlh);
	const struct xfrm_usersa_info *s = &e->state;

	if (nlh->nlmsg_len < mnl_nlmsg_size(sizeof(*e)) ||
	    !xfrm_reqid_ours(s->reqid))
		return 0;
	ev->type = IKB_KEV_EXPIRE;
	ev->hard = e->hard;
	xfrm_sel_get(&ev->sel, &s->sel);
	xfrm_addr_get(&ev->dst, &s->id.daddr, s->family);
	ev->spi = ntohl(s->id.spi);
	ev->proto = s->id.proto;
	ev->reqid = xfrm_reqid_from_kernel(s->reqid);
	return 1;
}

static int decode_polexpire(const struct nlmsghdr *nlh,
			    struct ikb_kernel_event *ev)
{
	const struct xfrm_user_polexpire *e = mnl_nlmsg_get_payload(nlh);
	const struct xfrm_user_tmpl *t;

	if (nlh->nlmsg_len < mnl_nlmsg_size(sizeof(*e)))
		return 0;
	t = first_tmpl(nlh, sizeof(*e));
	if (!t || !xfrm_reqid_ours(t->reqid))
		return 0;
	ev->type = IKB_KEV_POLEXPIRE;
	ev->hard = e->hard;
	xfrm_sel_get(&ev->sel, &e->pol.sel);
	xfrm_addr_get(&ev->dst, &t->id.daddr, t->family);
	ev->proto = t->id.proto;
	ev->reqid = xfrm_reqid_from_kernel(t->reqid);
	return 1;
}

static int decode_mapping(const struct nlmsghdr *nlh,
			  struct ikb_kernel_event *ev)
{
	const struct xfrm_user_mapping *m = mnl_nlmsg_get_payload(nlh);
	uint16_t family = m->id.family;

	if (nlh->nlmsg_len < mnl_nlmsg_size(sizeof(*m)) ||
	    !xfrm_reqid_ours(m->reqid) ||
	    (family != AF_INET && family != AF_INET6))
		return 0;
	ev->type = IKB_KEV_MAPPING;
	xfrm_addr_get(&ev->dst, &m->id.daddr, family);
	ev->spi = ntohl(m->id.spi);
	ev->proto = m->id.proto;
	ev->reqid = xfrm_reqid_from_kernel(m->reqid);
	xfrm_addr_get(&ev->new_addr, &m->new_saddr, family);
	ev->new_port = ntohs(m->new_sport);
	return 1;
}

int xfrm_event_decode(const struct nlmsghdr *nlh, struct ikb_kernel_event *ev)
{
	memset(ev, 0, sizeof(*ev));
	ev->cpu = -1;
	switch (nlh->nlmsg_type) {
	case XFRM_MSG_ACQUIRE:
		return decode_acquire(nlh, ev);
	case XFRM_MSG_EXPIRE:
		return decode_expire(nlh, ev);
	case XFRM_MSG_POLEXPIRE:
		return decode_polexpire(nlh, ev);
	case XFRM_MSG_MAPPING:
		return decode_mapping(nlh, ev);
	}
	return 0;
}

static int event_cb(const struct nlmsghdr *nlh, void *data)
{
	struct xfrm_state *st = data;
	struct ikb_kernel_event ev;

	if (xfrm_event_decode(nlh, &ev) && st->cb)
		st->cb(st->cb_ctx, &ev);
	return MNL_CB_OK;
}

static void readable(int fd, void *arg)
{
	struct xfrm_state *st = arg;
	char buf[XFRM_BUF * 4];
	ssize_t n;

	/* Drain: the watch fires once per wake-up, not once per message. */
	while ((n = mnl_socket_recvfrom(st->ev, buf, sizeof(buf))) > 0)
		mnl_cb_run(buf, (size_t)n, 0, 0, event_cb, st);
	if (n < 0 && errno == ENOBUFS)
		st->host->log(
			"kernel-xfrm", IKB_LOG_WARNING,
			"kernel events were lost (socket buffer overrun)");
}

static int open_events(struct xfrm_state *st, struct ikb_error *err)
{
	unsigned groups = (1u << (XFRMNLGRP_ACQUIRE - 1)) |
			  (1u << (XFRMNLGRP_EXPIRE - 1)) |
			  (1u << (XFRMNLGRP_MAPPING - 1));
	int fd, e;

	st->ev = mnl_socket_open(NETLINK_XFRM);
	if (!st->ev)
		return ikb_error_set(err, errno, "netlink xfrm events: %s",
				     strerror(errno));
	if (mnl_socket_bind(st->ev, groups, MNL_SOCKET_AUTOPID) < 0) {
		e = errno;
		xfrm_events_close(st);
		return ikb_error_set(err, e, "netlink xfrm events bind: %s",
				     strerror(e));
	}
	fd = mnl_socket_get_fd(st->ev);
	fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);
	st->watch = st->host->fd_watch ? st->host->fd_watch(fd, readable, st) :
					 NULL;
	if (!st->watch) {
		xfrm_events_close(st);
		return ikb_error_set(err, ENOTSUP,
				     "no event loop to watch kernel events on");
	}
	return 0;
}

int xfrm_events_subscribe(void *state, ikb_kernel_event_cb cb, void *ctx,
			  struct ikb_error *err)
{
	struct xfrm_state *st = state;
	unsigned nsa, npol;
	int rc;

	if (st->cb)
		return ikb_error_set(err, EBUSY,
				     "events already have a subscriber");
	rc = xfrm_flush_own(st, &nsa, &npol, err);
	if (rc)
		return rc;
	if (nsa || npol)
		st->host->log(
			"kernel-xfrm", IKB_LOG_NOTICE,
			"removed %u SAs and %u policies left by an earlier run",
			nsa, npol);
	rc = open_events(st, err);
	if (rc)
		return rc;
	st->cb = cb;
	st->cb_ctx = ctx;
	st->owner = true;
	return 0;
}

/*
 * The socket goes with the subscription; ownership stays (owner), so that
 * fini still removes what this instance installed.
 */
void xfrm_events_unsubscribe(void *state, ikb_kernel_event_cb cb, void *ctx)
{
	struct xfrm_state *st = state;

	if (st->cb == cb && st->cb_ctx == ctx)
		xfrm_events_close(st);
}

void xfrm_events_close(struct xfrm_state *st)
{
	if (st->watch && st->host->fd_unwatch)
		st->host->fd_unwatch(st->watch);
	st->watch = NULL;
	if (st->ev)
		mnl_socket_close(st->ev);
	st->ev = NULL;
	st->cb = NULL;
}
