// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A conn seen from one side: left/right become local/remote, and the
 * values the engine needs are parsed once. The config checker has already
 * refused bad syntax, so an error here means a value ikebana cannot use
 * yet (a DNS name for left=, say) and is reported, not assumed.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "config/config.h"
#include "config/groups.h"
#include "ike/engine.h"
#include "ike/conn/conn.h"
#include "plugin/conf_load.h"

const struct ikb_value *conn_end_key(const struct ikb_section *s,
				     const char *side, const char *key)
{
	char k[64];

	snprintf(k, sizeof(k), "%s%s", side, key);
	return cfg_get(s, k);
}

const char *conn_end_value(const struct ikb_section *s, const char *side,
			   const char *key)
{
	const struct ikb_value *v = conn_end_key(s, side, key);

	return v ? v->value : NULL;
}

static int parse_addr(const char *t, struct ikb_addr *a)
{
	memset(a, 0, sizeof(*a));
	if (!t || !strncmp(t, "%any", 4))
		return 0; /* AF_UNSPEC: any */
	if (inet_pton(AF_INET, t, a->bytes) == 1)
		return a->family = AF_INET, 0;
	if (inet_pton(AF_INET6, t, a->bytes) == 1)
		return a->family = AF_INET6, 0;
	return -EINVAL;
}

static int parse_subnet(const char *t, struct ikb_addr *a, uint8_t *plen)
{
	char buf[64];
	char *slash;
	unsigned long n;

	snprintf(buf, sizeof(buf), "%s", t);
	slash = strchr(buf, '/');
	if (slash)
		*slash = '\0';
	if (parse_addr(buf, a) || a->family == AF_UNSPEC)
		return -EINVAL;
	*plen = a->family == AF_INET ? 32 : 128;
	if (!slash)
		return 0;
	n = strtoul(slash + 1, NULL, 10);
	if (n > *plen)
		return -EINVAL;
	*plen = (uint8_t)n;
	return 0;
}

static const struct {
	const char *name;
	unsigned num;
} protos[] = { { "icmp", 1 },	 { "tcp", 6 },	  { "udp", 17 },
	       { "gre", 47 },	 { "esp", 50 },	  { "ah", 51 },
	       { "icmpv6", 58 }, { "sctp", 132 }, { "%any", 0 } },
  services[] = { { "ssh", 22 },	   { "domain", 53 },  { "http", 80 },
		 { "https", 443 }, { "isakmp", 500 }, { "%any", 0 } };

static unsigned lookup(const char *t, size_t len, bool ports)
{
	size_t n = ports ? sizeof(services) / sizeof(services[0]) :
			   sizeof(protos) / sizeof(protos[0]);

	for (size_t i = 0; i < n; i++) {
		const char *name = ports ? services[i].name : protos[i].name;

		if (strlen(name) == len && !strncasecmp(name, t, len))
			return ports ? services[i].num : protos[i].num;
	}
	return (unsigned)strtoul(t, NULL, 10);
}

static void parse_protoport(const char *t, struct conn_end *end)
{
	const char *slash;

	if (!t)
		return;
	slash = strchr(t, '/');
	end->proto = (uint8_t)lookup(t, slash ? (size_t)(slash - t) : strlen(t),
				     false);
	if (slash)
		end->port =
			(uint16_t)lookup(slash + 1, strlen(slash + 1), true);
}

/*
 * The family a name or %defaultroute is resolved in: %defaultroute4/6,
 * else hostaddrfamily=, else the other end's address; 0: either.
 */
static int host_family(const struct ikb_section *s, const char *host,
		       const char *other)
{
	const char *f = cfg_get(s, "hostaddrfamily") ?
				cfg_get(s, "hostaddrfamily")->value :
				NULL;
	struct ikb_addr a;

	if (!strcasecmp(host, "%defaultroute4"))
		return AF_INET;
	if (!strcasecmp(host, "%defaultroute6"))
		return AF_INET6;
	if (f)
		return !strcasecmp(f, "ipv6") ? AF_INET6 : AF_INET;
	return other && !parse_addr(other, &a) ? a.family : AF_UNSPEC;
}

/* leftsubnet=A,B,...: into end->nets, the first also into net and plen */
static int parse_nets(const char *v, struct conn_end *end)
{
	char buf[512], *save, *t;

	snprintf(buf, sizeof(buf), "%s", v);
	end->nnets = 0;
	for (t = strtok_r(buf, ", \t", &save); t;
	     t = strtok_r(NULL, ", \t", &save)) {
		struct ts_net *n = &end->nets[end->nnets];

		if (end->nnets == IKB_CONN_NETS_MAX ||
		    parse_subnet(t, &n->a, &n->plen))
			return -EINVAL;
		end->nnets++;
	}
	if (!end->nnets)
		return -EINVAL;
	end->net = end->nets[0].a;
	end->plen = end->nets[0].plen;
	return 0;
}

/* left= when it is no address: typed, resolved later (host.c) */
static void parse_host(const struct ikb_section *s, const char *side,
		       const char *host, struct conn_end *end)
{
	const char *other =
		conn_end_value(s, strcmp(side, "left") ? "left" : "right", "");

	end->host.kind = !strncasecmp(host, "%defaultroute", 13) ?
				 IKE_HOST_DEFROUTE :
			 cfg_host_is_oppo(host) ? IKE_HOST_GROUP :
						  IKE_HOST_NAME;
	end->host.name = end->host.kind == IKE_HOST_NAME ? host : NULL;
	end->host.family = host_family(s, host, other);
}

static int parse_end(const struct ikb_section *s, const char *side,
		     struct conn_end *end, struct ikb_error *err)
{
	const char *host = conn_end_value(s, side, ""),
		   *net = conn_end_value(s, side, "subnet");

	memset(end, 0, sizeof(*end));
	/* the config checker refused what is neither address nor name */
	if (parse_addr(host, &end->addr))
		parse_host(s, side, host, end);
	end->id = conn_end_value(s, side, "id");
	end->net = end->addr;
	end->plen = end->addr.family == AF_INET ? 32 : 128;
	end->net_set = net != NULL;
	if (net && parse_nets(net, end)) {
		snprintf(err->msg, sizeof(err->msg),
			 "conn %s: %ssubnet=%s: not a subnet", s->name, side,
			 net);
		return -EINVAL;
	}
	end->nets[0].a = end->net;
	end->nets[0].plen = end->plen;
	if (!end->nnets)
		end->nnets = 1;
	parse_protoport(conn_end_value(s, side, "protoport"), end);
	/* checked by the config loader: 1..65535 */
	net = conn_end_value(s, side, "ikeport");
	end->ike_port = net ? (uint16_t)strtoul(net, NULL, 10) : 0;
	net = conn_end_value(s, side, "updown");
	end->updown = net && !cfg_updown_off(net) ? net : NULL;
	/* checked by the config loader: addresses in leftsubnet= */
	net = conn_end_value(s, side, "sourceip");
	if (net && cfg_parse_sourceips(net, end->sourceip) < 0)
		memset(end->sourceip, 0, sizeof(end->sourceip));
	/* checked by the config loader: ADDR[/BITS] */
	net = conn_end_value(s, side, "interface-ip");
	if (net && !cfg_parse_net(net, &end->ifip, &end->ifip_plen))
		memset(&end->ifip, 0, sizeof(end->ifip));
	conn_auth_parse(s, side, end);
	return 0;
}

int conn_view_init(const struct ikb_section *s, bool left_is_local,
		   struct conn_view *v, struct ikb_error *err)
{
	const struct ikb_value *type = cfg_get(s, "type");
	int rc;

	v->s = s;
	v->left_is_local = left_is_local;
	rc = parse_end(s, left_is_local ? "left" : "right", &v->local, err);
	if (!rc)
		rc = parse_end(s, left_is_local ? "right" : "left", &v->remote,
			       err);
	v->mode = type && !strcasecmp(type->value, "transport") ?
			  IKB_MODE_TRANSPORT :
			  IKB_MODE_TUNNEL;
	return rc;
}

void conn_parse_timing(const struct ikb_section *s, unsigned *interval_ms,
		       unsigned long long *timeout_ms)
{
	const struct ikb_value *iv =
		s ? cfg_get(s, "retransmit-interval") : NULL;
	const struct ikb_value *to =
		s ? cfg_get(s, "retransmit-timeout") : NULL;
	unsigned long long x;

	*interval_ms = 500;
	*timeout_ms = 60000;
	/* the load check refused any other value (values_time.c) */
	if (iv && cfg_parse_duration_ms_plain(iv->value, &x) && x > 0 &&
	    x < 60000)
		*interval_ms = (unsigned)x;
	if (to && cfg_parse_duration_ms(to->value, &x) && x > 0)
		*timeout_ms = x;
}

/*
 * The proposals plugin reads the keys it owns (ike=, esp=, phase2alg=)
 * and answers with the lists: the core parses none of them.
 */
int conn_parse_proposals(const struct ike_engine *e,
			 const struct ikb_section *s, enum ikb_protocol proto,
			 struct ikb_proposal_list *out, struct ikb_error *err)
{
	void *st;
	const struct ikb_proposals_ops *ops = engine_proposals(e, &st);

	memset(out, 0, sizeof(*out));
	if (!ops) {
		snprintf(err->msg, sizeof(err->msg),
			 "no plugin provides proposals (load esp-proposals)");
		return -ENOTSUP;
	}
	if (!ops->conn_proposals) {
		snprintf(
			err->msg, sizeof(err->msg),
			"the proposals plugin has no conn_proposals op (built for an older ikebana): rebuild it");
		return -ENOTSUP;
	}
	return ops->conn_proposals(st, s, proto, out, err);
}
