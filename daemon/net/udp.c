// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The IKE sockets: one per port and family, bound to the wildcard (or the
 * listen= address) so that one socket serves every local address. pktinfo
 * tells which address a datagram was sent to; the reply is sent from that
 * address with the same control message, as RFC 7296 2.11 requires.
 */
#include <errno.h>
#include <event2/event.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "log/log.h"
#include "net/net_int.h"

/* Datagrams read per wakeup; the event is level-triggered, so a busy socket
 * is read again after the other events had their turn. */
#define NET_RX_BATCH 64
/* Drop log lines per second, so that a flood cannot flood the journal. */
#define NET_DROP_LOG_RATE 10

#define drop_log(n, ...)                             \
	do {                                         \
		if (log_ratelimit_ok(&(n)->drop_rl)) \
			log_info(__VA_ARGS__);       \
	} while (0)

static void net_free(struct net *n)
{
	for (size_t i = 0; i < n->nsocks; i++) {
		if (n->socks[i].ev)
			event_free(n->socks[i].ev);
		close(n->socks[i].fd);
	}
	ifaddr_free(n->ifa);
	free(n->buf);
	free(n);
}

void net_close(struct net *n)
{
	if (!n)
		return;
	if (n->depth > 0) {
		n->closing = true;
		return;
	}
	net_free(n);
}

/* The address the datagram was sent to, from IP_PKTINFO/IPV6_PKTINFO. */
static bool pktinfo_local(struct msghdr *msg, struct net_dgram *d)
{
	struct cmsghdr *cm;

	for (cm = CMSG_FIRSTHDR(msg); cm; cm = CMSG_NXTHDR(msg, cm)) {
		if (cm->cmsg_level == IPPROTO_IP &&
		    cm->cmsg_type == IP_PKTINFO) {
			struct in_pktinfo pi;

			memcpy(&pi, CMSG_DATA(cm), sizeof(pi));
			d->local.family = AF_INET;
			memcpy(d->local.bytes, &pi.ipi_addr, 4);
			d->ifindex = pi.ipi_ifindex;
			return true;
		}
		if (cm->cmsg_level == IPPROTO_IPV6 &&
		    cm->cmsg_type == IPV6_PKTINFO) {
			struct in6_pktinfo pi;

			memcpy(&pi, CMSG_DATA(cm), sizeof(pi));
			d->local.family = AF_INET6;
			memcpy(d->local.bytes, &pi.ipi6_addr, 16);
			d->ifindex = (int)pi.ipi6_ifindex;
			return true;
		}
	}
	return false;
}

/* NAT-T: strip the marker, or say why the datagram is not IKE. */
static bool natt_unwrap(struct net *n, struct net_dgram *d)
{
	char ra[NET_ADDRSTRLEN];

	switch (natt_classify(d->buf, d->len)) {
	case NATT_IKE:
		d->buf += NATT_MARKER_LEN;
		d->len -= NATT_MARKER_LEN;
		return true;
	case NATT_KEEPALIVE:
		n->st.rx_keepalive++;
		return false;
	case NATT_ESP:
		n->st.rx_esp++;
		drop_log(
			n,
			"dropped ESP from %s on the NAT-T port: the kernel should have taken it (no UDP_ENCAP, or no SA)",
			net_addr_fmt(&d->remote, d->rport, ra, sizeof(ra)));
		return false;
	case NATT_SHORT:
		break;
	}
	n->st.rx_short++;
	drop_log(
		n,
		"dropped a %zu-byte datagram from %s: too short for the non-ESP marker",
		d->len, net_addr_fmt(&d->remote, d->rport, ra, sizeof(ra)));
	return false;
}

static void sock_deliver(struct net_sock *s, struct net_dgram *d)
{
	struct net *n = s->net;
	char ra[NET_ADDRSTRLEN];

	if (s->natt && !natt_unwrap(n, d))
		return;
	if (d->len == 0) {
		n->st.rx_short++;
		drop_log(n, "dropped an empty datagram from %s",
			 net_addr_fmt(&d->remote, d->rport, ra, sizeof(ra)));
		return;
	}
	n->st.rx_ike++;
	n->depth++;
	n->cb(n->ctx, d);
	n->depth--;
}

/* Returns false when there is nothing more to read now. */
static bool sock_read_one(struct net_sock *s)
{
	struct net *n = s->net;
	struct sockaddr_storage from;
	union {
		char buf[CMSG_SPACE(sizeof(struct in6_pktinfo))];
		struct cmsghdr align;
	} cbuf;
	struct iovec iov = { .iov_base = n->buf, .iov_len = n->bufsize };
	struct msghdr msg = {
		.msg_name = &from,
		.msg_namelen = sizeof(from),
		.msg_iov = &iov,
		.msg_iovlen = 1,
		.msg_control = cbuf.buf,
		.msg_controllen = sizeof(cbuf.buf),
	};
	struct net_dgram d = { .buf = n->buf,
			       .lport = s->port,
			       .natt = s->natt };
	char ra[NET_ADDRSTRLEN];
	ssize_t len;

	do
		len = recvmsg(s->fd, &msg, MSG_TRUNC);
	while (len < 0 && errno == EINTR);
	if (len < 0) {
		if (errno != EAGAIN && errno != EWOULDBLOCK) {
			n->st.rx_errors++;
			log_warn("recvmsg on UDP port %u: %s", s->port,
				 strerror(errno));
		}
		return false;
	}
	memset(&d.remote, 0, sizeof(d.remote));
	if (!addr_from_sockaddr(&from, &d.remote, &d.rport))
		return true;
	if (msg.msg_flags & MSG_TRUNC) {
		n->st.rx_truncated++;
		drop_log(
			n,
			"dropped a %zd-byte datagram from %s: larger than %zu bytes",
			len, net_addr_fmt(&d.remote, d.rport, ra, sizeof(ra)),
			n->bufsize);
		return true;
	}
	if (!pktinfo_local(&msg, &d)) {
		n->st.rx_errors++;
		drop_log(
			n,
			"dropped a datagram from %s: no local address (pktinfo)",
			net_addr_fmt(&d.remote, d.rport, ra, sizeof(ra)));
		return true;
	}
	d.len = (size_t)len;
	sock_deliver(s, &d);
	return true;
}

static void sock_read(evutil_socket_t fd, short what, void *arg)
{
	struct net_sock *s = arg;
	struct net *n = s->net;

	for (int i = 0; i < NET_RX_BATCH && !n->closing; i++)
		if (!sock_read_one(s))
			break;
	if (n->closing && n->depth == 0)
		net_free(n);
}

struct net_sock *udp_find_sock(struct net *n, sa_family_t family, uint16_t port)
{
	for (size_t i = 0; i < n->nsocks; i++)
		if (n->socks[i].family == family && n->socks[i].port == port)
			return &n->socks[i];
	return NULL;
}

/* The source address for sendmsg(): the same pktinfo we receive. */
static void pktinfo_set(struct msghdr *msg, const struct ikb_addr *local)
{
	struct cmsghdr *cm = CMSG_FIRSTHDR(msg);

	if (local->family == AF_INET) {
		struct in_pktinfo pi;

		memset(&pi, 0, sizeof(pi));
		memcpy(&pi.ipi_spec_dst, local->bytes, 4);
		msg->msg_controllen = CMSG_SPACE(sizeof(pi));
		cm->cmsg_level = IPPROTO_IP;
		cm->cmsg_type = IP_PKTINFO;
		cm->cmsg_len = CMSG_LEN(sizeof(pi));
		memcpy(CMSG_DATA(cm), &pi, sizeof(pi));
	} else {
		struct in6_pktinfo pi;

		memset(&pi, 0, sizeof(pi));
		memcpy(&pi.ipi6_addr, local->bytes, 16);
		msg->msg_controllen = CMSG_SPACE(sizeof(pi));
		cm->cmsg_level = IPPROTO_IPV6;
		cm->cmsg_type = IPV6_PKTINFO;
		cm->cmsg_len = CMSG_LEN(sizeof(pi));
		memcpy(CMSG_DATA(cm), &pi, sizeof(pi));
	}
}

int udp_sendv(struct net_sock *s, const struct ikb_addr *local,
	      const struct ikb_addr *remote, uint16_t rport,
	      const struct iovec *iov, int iovcnt)
{
	struct sockaddr_storage to;
	union {
		char buf[CMSG_SPACE(sizeof(struct in6_pktinfo))];
		struct cmsghdr align;
	} cbuf;
	struct msghdr msg = {
		.msg_name = &to,
		.msg_iov = (struct iovec *)iov,
		.msg_iovlen = (size_t)iovcnt,
	};
	char ra[NET_ADDRSTRLEN];
	int rc;

	if (remote->family != s->family)
		return -EAFNOSUPPORT;
	msg.msg_namelen = addr_to_sockaddr(remote, rport, &to);
	if (local && local->family != AF_UNSPEC && !addr_is_any(local)) {
		if (local->family != remote->family)
			return -EINVAL;
		memset(&cbuf, 0, sizeof(cbuf));
		msg.msg_control = cbuf.buf;
		msg.msg_controllen = sizeof(cbuf.buf);
		pktinfo_set(&msg, local);
	}
	do
		rc = (int)sendmsg(s->fd, &msg, 0);
	while (rc < 0 && errno == EINTR);
	if (rc < 0) {
		rc = -errno;
		s->net->st.tx_errors++;
		log_debug("sendmsg from UDP port %u to %s: %s", s->port,
			  net_addr_fmt(remote, rport, ra, sizeof(ra)),
			  strerror(-rc));
		return rc;
	}
	s->net->st.tx_ok++;
	return 0;
}

int net_send(struct net *n, const struct ikb_addr *local, uint16_t lport,
	     const struct ikb_addr *remote, uint16_t rport, const uint8_t *buf,
	     size_t len)
{
	static const uint8_t marker[NATT_MARKER_LEN];
	struct net_sock *s = udp_find_sock(n, remote->family, lport);
	struct iovec iov[2];
	int cnt = 0;

	if (!s)
		return remote->family == AF_INET || remote->family == AF_INET6 ?
			       -EADDRNOTAVAIL :
			       -EAFNOSUPPORT;
	if (len == 0 || len + (s->natt ? NATT_MARKER_LEN : 0) > n->bufsize)
		return -EMSGSIZE;
	if (s->natt)
		iov[cnt++] = (struct iovec){ (void *)marker, sizeof(marker) };
	iov[cnt++] = (struct iovec){ (void *)buf, len };
	return udp_sendv(s, local, remote, rport, iov, cnt);
}

static int sock_setup(int fd, sa_family_t family)
{
	int on = 1;

	if (family == AF_INET6) {
		/* One socket per family: the v4 one must be able to bind. */
		if (setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &on, sizeof(on)) <
			    0 ||
		    setsockopt(fd, IPPROTO_IPV6, IPV6_RECVPKTINFO, &on,
			       sizeof(on)) < 0)
			return -errno;
		return 0;
	}
	if (setsockopt(fd, IPPROTO_IP, IP_PKTINFO, &on, sizeof(on)) < 0)
		return -errno;
	return 0;
}

/* Only the socket and bind: the options that follow cannot fail for lack
 * of IPv6, so net_open() can tell "no IPv6" from a real error. */
static int sock_bind(struct net *n, struct net_sock *s, char *err,
		     size_t errlen)
{
	struct ikb_addr a = { .family = s->family };
	struct sockaddr_storage ss;
	socklen_t sl;
	char as[NET_ADDRSTRLEN];
	int rc;

	if (n->listen.family == s->family)
		a = n->listen;
	net_addr_fmt(&a, s->port, as, sizeof(as));
	s->fd = socket(s->family, SOCK_DGRAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (s->fd < 0) {
		rc = -errno;
		snprintf(err, errlen, "cannot open UDP socket for %s: %s", as,
			 strerror(-rc));
		return rc;
	}
	rc = sock_setup(s->fd, s->family);
	if (rc < 0) {
		snprintf(err, errlen, "cannot set pktinfo on UDP %s: %s", as,
			 strerror(-rc));
		return rc;
	}
	sl = addr_to_sockaddr(&a, s->port, &ss);
	if (bind(s->fd, (struct sockaddr *)&ss, sl) < 0) {
		rc = -errno;
		snprintf(err, errlen, "cannot bind UDP %s: %s", as,
			 strerror(-rc));
		return rc;
	}
	return 0;
}

/*
 * Room for a burst: a thousand peers (or one of our reloads) starting at
 * once send a thousand IKE_SA_INITs while the loop is busy, and the
 * default 208 KiB of socket buffer holds about 150 of them; the rest are
 * dropped and cost each SA a retransmit, 0.5 s and more. FORCE (with
 * CAP_NET_ADMIN, as at startup) goes past net.core.rmem_max; without it
 * the kernel caps the size, which is still no worse than the default.
 */
#define NET_SOCKBUF (4 << 20)

static void sock_buffers(int fd)
{
	int sz = NET_SOCKBUF;

	if (setsockopt(fd, SOL_SOCKET, SO_RCVBUFFORCE, &sz, sizeof(sz)) < 0)
		(void)setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &sz, sizeof(sz));
	sz = NET_SOCKBUF / 4;
	if (setsockopt(fd, SOL_SOCKET, SO_SNDBUFFORCE, &sz, sizeof(sz)) < 0)
		(void)setsockopt(fd, SOL_SOCKET, SO_SNDBUF, &sz, sizeof(sz));
}

/* Neither is fatal: a daemon without CAP_NET_ADMIN (tests) still works on
 * hosts without policies, and ESP reaching us is logged and dropped. */
static void sock_options(struct net_sock *s, const struct ikb_addr *bound)
{
	char as[NET_ADDRSTRLEN];
	int rc;

	net_addr_fmt(bound, s->port, as, sizeof(as));
	sock_buffers(s->fd);
	rc = bypass_socket(s->fd, s->family);
	if (rc < 0)
		log_warn(
			"cannot exempt UDP %s from IPsec policies: %s; host policies may catch IKE",
			as, strerror(-rc));
	if (s->natt) {
		rc = natt_enable_encap(s->fd);
		if (rc < 0)
			log_warn(
				"cannot set UDP_ENCAP on UDP %s: %s; the kernel will not decapsulate ESP-in-UDP",
				as, strerror(-rc));
	}
}

static int sock_open(struct net *n, sa_family_t family, uint16_t port,
		     bool natt, char *err, size_t errlen)
{
	struct net_sock *s = &n->socks[n->nsocks];
	struct ikb_addr bound = { .family = family };
	int rc;

	*s = (struct net_sock){
		.net = n, .fd = -1, .family = family, .port = port, .natt = natt
	};
	rc = sock_bind(n, s, err, errlen);
	if (rc < 0) {
		if (s->fd >= 0)
			close(s->fd);
		return rc;
	}
	n->nsocks++;
	if (n->listen.family == family)
		bound = n->listen;
	sock_options(s, &bound);
	s->ev = event_new(n->base, s->fd, EV_READ | EV_PERSIST, sock_read, s);
	if (!s->ev || event_add(s->ev, NULL) < 0) {
		snprintf(err, errlen, "cannot watch UDP port %u", port);
		return -ENOMEM;
	}
	return 0;
}

/*
 * Undo the sockets of one family (IPv6 found missing half-way). IPv6 is
 * opened last, so no remaining slot moves and the events' arguments (slot
 * pointers) stay valid.
 */
static void socks_drop_family(struct net *n, sa_family_t family)
{
	size_t j = 0;

	for (size_t i = 0; i < n->nsocks; i++) {
		if (n->socks[i].family != family) {
			n->socks[j++] = n->socks[i];
			continue;
		}
		if (n->socks[i].ev)
			event_free(n->socks[i].ev);
		close(n->socks[i].fd);
	}
	n->nsocks = j;
}

static int open_family(struct net *n, const struct net_opts *o,
		       sa_family_t family, char *err, size_t errlen)
{
	int rc = sock_open(n, family, o->ike_port, false, err, errlen);

	if (rc == 0 && o->natt_port)
		rc = sock_open(n, family, o->natt_port, true, err, errlen);
	if (rc < 0 && family == AF_INET6 && n->listen.family == AF_UNSPEC &&
	    (rc == -EAFNOSUPPORT || rc == -EADDRNOTAVAIL)) {
		log_notice(
			"IPv6 is unavailable (%s): continuing with IPv4 only",
			err);
		socks_drop_family(n, AF_INET6);
		err[0] = '\0';
		rc = 0;
	}
	return rc;
}

static int net_init(struct net *n, const struct net_opts *o, char *err,
		    size_t errlen)
{
	static const sa_family_t fams[] = { AF_INET, AF_INET6 };
	int rc;

	if (o->listen && *o->listen && net_addr_parse(o->listen, &n->listen)) {
		snprintf(err, errlen, "listen=%s is not an IP address",
			 o->listen);
		return -EINVAL;
	}
	if (o->ike_port == 0 || o->ike_port == o->natt_port) {
		snprintf(err, errlen, "invalid IKE ports %u and %u",
			 o->ike_port, o->natt_port);
		return -EINVAL;
	}
	n->bufsize = o->max_dgram ? o->max_dgram : NET_MAX_DGRAM;
	n->buf = malloc(n->bufsize);
	n->ifa = ifaddr_new(n->base);
	if (!n->buf || !n->ifa) {
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	for (size_t i = 0; i < sizeof(fams) / sizeof(fams[0]); i++) {
		if (n->listen.family != AF_UNSPEC &&
		    n->listen.family != fams[i])
			continue;
		rc = open_family(n, o, fams[i], err, errlen);
		if (rc < 0)
			return rc;
	}
	return 0;
}

struct net *net_open(struct event_base *base, const struct net_opts *o,
		     net_recv_fn cb, void *ctx, char *err, size_t errlen)
{
	struct net *n = calloc(1, sizeof(*n));
	int rc;

	if (!n) {
		snprintf(err, errlen, "out of memory");
		errno = ENOMEM;
		return NULL;
	}
	n->base = base;
	n->drop_rl.per_sec = NET_DROP_LOG_RATE;
	n->drop_rl.what = "dropped datagrams";
	n->cb = cb;
	n->ctx = ctx;
	rc = net_init(n, o, err, errlen);
	if (rc < 0) {
		net_free(n);
		errno = -rc;
		return NULL;
	}
	return n;
}

void net_on_change(struct net *n, void (*fn)(void *ctx), void *ctx)
{
	ifaddr_on_change(n->ifa, fn, ctx);
}

bool net_is_local(struct net *n, const struct ikb_addr *a)
{
	return ifaddr_is_local(n->ifa, a);
}

bool net_has_family(const struct net *n, sa_family_t family)
{
	for (size_t i = 0; i < n->nsocks; i++)
		if (n->socks[i].family == family)
			return true;
	return false;
}

void net_get_stats(const struct net *n, struct net_stats *st)
{
	*st = n->st;
}
