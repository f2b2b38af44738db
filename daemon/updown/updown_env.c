// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The environment of an updown script, as libreswan's pluto builds it
 * (programs/pluto/updown.c; kernel.c's jam_common_shell_out() in 4.x):
 * the same names, formats and order, so that scripts written for
 * libreswan, its own _updown included, read what they expect. Nothing of
 * the daemon's own environment gets in but PATH.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <ifaddrs.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <net/if.h>

#include "config/config.h"
#include "updown/internal.h"

static int add(struct updown_job *j, const char *name, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int add(struct updown_job *j, const char *name, const char *fmt, ...)
{
	char val[512], *s;
	va_list ap;

	if (j->nenv + 2 > j->cap) {
		size_t cap = j->cap ? 2 * j->cap : 64;
		char **n = reallocarray(j->env, cap, sizeof(*n));

		if (!n)
			return -ENOMEM;
		j->env = n;
		j->cap = cap;
	}
	va_start(ap, fmt);
	vsnprintf(val, sizeof(val), fmt, ap);
	va_end(ap);
	if (asprintf(&s, "%s=%s", name, val) < 0)
		return -ENOMEM;
	j->env[j->nenv++] = s;
	j->env[j->nenv] = NULL;
	return 0;
}

static const char *addr(const struct ikb_addr *a, char *buf, size_t len)
{
	if (!inet_ntop(a->family, a->bytes, buf, (socklen_t)len))
		snprintf(buf, len, "%s",
			 a->family == AF_INET6 ? "::" : "0.0.0.0");
	return buf;
}

/* The prefix's netmask as an address: 255.255.255.0, ffff:ffff::. */
static const char *mask(int family, unsigned plen, char *buf, size_t len)
{
	struct ikb_addr m = { .family = (sa_family_t)family };
	unsigned bits = family == AF_INET ? 32 : 128;

	for (unsigned i = 0; i < plen && i < bits; i++)
		m.bytes[i / 8] |= (uint8_t)(0x80u >> (i % 8));
	return addr(&m, buf, len);
}

/* The name of the interface that has a, as libreswan's iface; "NULL". */
static void ifname(const struct ikb_addr *a, char *buf, size_t len)
{
	struct ifaddrs *all, *i;

	snprintf(buf, len, "NULL");
	if (getifaddrs(&all) < 0)
		return;
	for (i = all; i; i = i->ifa_next) {
		const struct sockaddr *sa = i->ifa_addr;
		const void *b;

		if (!sa || sa->sa_family != a->family)
			continue;
		b = sa->sa_family == AF_INET ?
			    (const void *)&((const struct sockaddr_in *)sa)
				    ->sin_addr :
			    (const void *)&((const struct sockaddr_in6 *)sa)
				    ->sin6_addr;
		if (!memcmp(b, a->bytes, a->family == AF_INET ? 4 : 16)) {
			snprintf(buf, len, "%s", i->ifa_name);
			break;
		}
	}
	freeifaddrs(all);
}

static bool same(const struct ikb_addr *a, const struct ikb_addr *b)
{
	return a->family == b->family &&
	       !memcmp(a->bytes, b->bytes, a->family == AF_INET ? 4 : 16);
}

const char *updown_suffix(const struct ike_event *ev)
{
	const struct ikb_selector *ts = &ev->child->ts;
	const struct ikb_addr *me = &ev->ike->path->local;
	unsigned full = ts->src.family == AF_INET ? 32 : 128;
	/* libreswan: -host when the local selector is just the host */
	bool host = ts->src_plen == full && same(&ts->src, me);

	if (host)
		return me->family == AF_INET6 ? "-host-v6" : "-host";
	return ts->src.family == AF_INET6 ? "-client-v6" : "-client";
}

static const char *ipv(int family)
{
	return family == AF_INET6 ? "ipv6" : "ipv4";
}

/* One end's PLUTO_<WHO>_CLIENT, _NET, _MASK, _PORT and _PROTOCOL. */
static int client(struct updown_job *j, const char *who,
		  const struct ikb_addr *net, uint8_t plen, uint16_t port,
		  uint8_t proto)
{
	char a[64], m[64], k[40];
	int rc = 0;

	snprintf(k, sizeof(k), "PLUTO_%s_CLIENT", who);
	rc |= add(j, k, "%s/%u", addr(net, a, sizeof(a)), plen);
	snprintf(k, sizeof(k), "PLUTO_%s_CLIENT_NET", who);
	rc |= add(j, k, "%s", a);
	snprintf(k, sizeof(k), "PLUTO_%s_CLIENT_MASK", who);
	rc |= add(j, k, "%s", mask(net->family, plen, m, sizeof(m)));
	snprintf(k, sizeof(k), "PLUTO_%s_PORT", who);
	rc |= add(j, k, "%u", port);
	snprintf(k, sizeof(k), "PLUTO_%s_PROTOCOL", who);
	rc |= add(j, k, "%u", proto);
	return rc;
}

/* The peer's end: PLUTO_PEER_CLIENT and the rest. */
static int peer_client(struct updown_job *j, const struct ikb_selector *ts)
{
	return client(j, "PEER", &ts->dst, ts->dst_plen, ts->dport, ts->proto);
}

static int my_client(struct updown_job *j, const struct ikb_selector *ts)
{
	int rc = add(j, "PLUTO_CLIENT_FAMILY", "%s", ipv(ts->src.family));

	return rc |
	       client(j, "MY", &ts->src, ts->src_plen, ts->sport, ts->proto);
}

/* What libreswan sets for features ikebana does not have: fixed. */
static int fixed(struct updown_job *j)
{
	int rc = 0;

	rc |= add(j, "XAUTH_FAILED", "0");
	rc |= add(j, "PLUTO_IS_PEER_CISCO", "0");
	rc |= add(j, "PLUTO_PEER_DNS_INFO", "%s", "");
	rc |= add(j, "PLUTO_PEER_DOMAIN_INFO", "%s", "");
	rc |= add(j, "PLUTO_PEER_BANNER", "%s", "");
	rc |= add(j, "PLUTO_CFG_SERVER", "0");
	rc |= add(j, "PLUTO_CFG_CLIENT", "0");
	rc |= add(j, "PLUTO_NM_CONFIGURED", "0");
	return rc;
}

int updown_env_build(struct updown_job *j, const struct ike_event *ev,
		     const char *verb, const struct updown_bytes *b)
{
	const struct ike_child_info *c = ev->child;
	const struct ike_path *p = ev->ike->path;
	char me[64], peer[64], src[64], dev[IF_NAMESIZE + 8];
	int rc = 0;

	ifname(&p->local, dev, sizeof(dev));
	rc |= add(j, "PATH", "%s", cfg_updown_path());
	rc |= add(j, "PLUTO_VERSION", "2.0");
	rc |= add(j, "PLUTO_VERB", "%s%s", verb, updown_suffix(ev));
	rc |= add(j, "PLUTO_CONNECTION", "%s", c->conn);
	rc |= add(j, "PLUTO_CONNECTION_TYPE", "%s",
		  c->mode == IKB_MODE_TUNNEL ? "tunnel" : "transport");
	rc |= add(j, "PLUTO_VIRT_INTERFACE", "NULL");
	rc |= add(j, "PLUTO_INTERFACE", "%s", dev);
	rc |= add(j, "PLUTO_XFRMI_ROUTE", "%s", "");
	/* ipsec-interface=: the if_id on the SAs (libreswan 5's names) */
	if (c->in && c->in->if_id)
		rc |= add(j, "PLUTO_IF_ID_IN", "%" PRIu32, c->in->if_id);
	if (c->out && c->out->if_id)
		rc |= add(j, "PLUTO_IF_ID_OUT", "%" PRIu32, c->out->if_id);
	/* libreswan's nexthop defaults to the peer (the kernel routes) */
	rc |= add(j, "PLUTO_NEXT_HOP", "%s",
		  addr(&p->remote, peer, sizeof(peer)));
	rc |= add(j, "PLUTO_ME", "%s", addr(&p->local, me, sizeof(me)));
	rc |= add(j, "PLUTO_MY_ID", "%s", c->local_id ? c->local_id : me);
	rc |= my_client(j, &c->ts);
	/* libreswan's _updown adds the address and routes with it too */
	if (c->sourceip.family)
		rc |= add(j, "PLUTO_MY_SOURCEIP", "%s",
			  addr(&c->sourceip, src, sizeof(src)));
	/*
	 * The reqid as ikebana's log and status show it. libreswan tells
	 * its ESP SA's (5.x) or that one less (4.x); the kernel backend may
	 * mark its own in the kernel (kernel-xfrm: XFRM_REQID_BASE | reqid).
	 */
	rc |= add(j, "PLUTO_SA_REQID", "%" PRIu32, c->reqid);
	rc |= add(j, "PLUTO_SA_TYPE", "ESP");
	rc |= add(j, "PLUTO_PEER", "%s", addr(&p->remote, peer, sizeof(peer)));
	rc |= add(j, "PLUTO_PEER_ID", "%s", c->remote_id ? c->remote_id : peer);
	rc |= peer_client(j, &c->ts);
	rc |= add(j, "PLUTO_PEER_CA", "%s", "");
	rc |= add(j, "PLUTO_STACK", "xfrm");
	rc |= add(j, "PLUTO_ADDTIME", "%lld", (long long)c->created);
	rc |= add(j, "PLUTO_CONN_POLICY", "%s", c->policy);
	rc |= add(j, "PLUTO_CONN_KIND", "CK_PERMANENT");
	rc |= add(j, "PLUTO_CONN_ADDRFAMILY", "%s", ipv(p->local.family));
	rc |= fixed(j);
	if (b && b->known) {
		rc |= add(j, "PLUTO_INBYTES", "%" PRIu64, b->in);
		rc |= add(j, "PLUTO_OUTBYTES", "%" PRIu64, b->out);
	}
	rc |= add(j, "VTI_IFACE", "%s", "");
	rc |= add(j, "VTI_ROUTING", "no");
	rc |= add(j, "VTI_SHARED", "no");
	/* libreswan's names, swapped as in its code: SPI_IN is outbound's */
	rc |= add(j, "SPI_IN", "0x%" PRIx32, c->spi_out);
	rc |= add(j, "SPI_OUT", "0x%" PRIx32, c->spi_in);
	return rc ? -ENOMEM : 0;
}

void updown_job_free(struct updown_job *j)
{
	if (!j)
		return;
	for (size_t i = 0; i < j->nenv; i++)
		free(j->env[i]);
	free(j->env);
	free(j->conn);
	free(j->verb);
	free(j->cmd);
	free(j);
}
