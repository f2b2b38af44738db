// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * One lookup with ldns: a resolver made from resolv.conf for each lookup,
 * so that a changed resolv.conf applies to the next one and no state is
 * shared between the helper threads.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <ldns/ldns.h>

#include "dns/dns.h"

static void say(struct dns_answer *out, int rc, const char *why)
{
	out->rc = rc;
	snprintf(out->why, sizeof(out->why), "%s", why);
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static int new_resolver(const char *resolv_conf, ldns_resolver **res,
			struct dns_answer *out)
{
	ldns_status s = ldns_resolver_new_frm_file(res, resolv_conf);

	if (s != LDNS_STATUS_OK) {
		out->rc = -EIO;
		snprintf(out->why, sizeof(out->why), "cannot read %s: %s",
			 resolv_conf ? resolv_conf : "/etc/resolv.conf",
			 ldns_get_errorstr_by_id(s));
		return -1;
	}
	/* the names are fully qualified: no search list, no domain */
	ldns_resolver_set_defnames(*res, false);
	ldns_resolver_set_dnsrch(*res, false);
	ldns_resolver_set_retry(*res, DNS_TRIES);
	ldns_resolver_set_timeout(*res, (struct timeval){ DNS_TRY_S, 0 });
	return 0;
}

/* The first address of type t in p's answer section; false if none. */
static bool first_addr(const ldns_pkt *p, ldns_rr_type t, struct ikb_addr *a)
{
	ldns_rr_list *rrs = ldns_pkt_rr_list_by_type(p, t, LDNS_SECTION_ANSWER);
	bool found = false;

	if (rrs && ldns_rr_list_rr_count(rrs) > 0) {
		const ldns_rdf *rd = ldns_rr_rdf(ldns_rr_list_rr(rrs, 0), 0);
		size_t len = t == LDNS_RR_TYPE_A ? 4 : 16;

		if (rd && ldns_rdf_size(rd) == len) {
			memset(a, 0, sizeof(*a));
			a->family = t == LDNS_RR_TYPE_A ? AF_INET : AF_INET6;
			memcpy(a->bytes, ldns_rdf_data(rd), len);
			found = true;
		}
	}
	ldns_rr_list_deep_free(rrs);
	return found;
}

/* One query; 1: found, 0: an answer without that record, -1: error. */
static int query(ldns_resolver *res, const ldns_rdf *dname, ldns_rr_type t,
		 struct dns_answer *out)
{
	ldns_pkt *p = NULL;
	double t0 = now_s();
	ldns_status s = ldns_resolver_query_status(&p, res, dname, t,
						   LDNS_RR_CLASS_IN, LDNS_RD);
	int rc = -1;

	if (s != LDNS_STATUS_OK || !p) {
		/* ldns names a server that never answered a network error */
		if (now_s() - t0 >= DNS_TRY_S - 0.1) {
			snprintf(
				out->why, sizeof(out->why),
				"timeout: no answer from the DNS server in %.0f s",
				now_s() - t0);
			out->rc = -ETIMEDOUT;
		} else { /* refused at once: no server, or none reachable */
			say(out, -EHOSTUNREACH, ldns_get_errorstr_by_id(s));
		}
	} else if (ldns_pkt_get_rcode(p) == LDNS_RCODE_NXDOMAIN) {
		say(out, -ENOENT, "NXDOMAIN");
	} else if (ldns_pkt_get_rcode(p) != LDNS_RCODE_NOERROR) {
		ldns_lookup_table *rc_name = ldns_lookup_by_id(
			ldns_rcodes, (int)ldns_pkt_get_rcode(p));

		say(out, -EAGAIN, rc_name ? rc_name->name : "error");
	} else {
		rc = first_addr(p, t, &out->addr) ? 1 : 0;
	}
	ldns_pkt_free(p);
	return rc;
}

static void resolve(ldns_resolver *res, const char *name, int family,
		    struct dns_answer *out)
{
	char fq[260];
	ldns_rdf *dname;
	int rc = 0;

	/* a trailing dot: ldns then never appends a domain */
	snprintf(fq, sizeof(fq), "%s%s", name,
		 name[0] && name[strlen(name) - 1] == '.' ? "" : ".");
	dname = ldns_dname_new_frm_str(fq);
	if (!dname) {
		say(out, -EINVAL, "not a valid DNS name");
		return;
	}
	if (family != AF_INET6)
		rc = query(res, dname, LDNS_RR_TYPE_A, out);
	if (rc == 0 && family != AF_INET)
		rc = query(res, dname, LDNS_RR_TYPE_AAAA, out);
	if (rc == 0)
		say(out, -ENODATA,
		    family == AF_INET  ? "no A record" :
		    family == AF_INET6 ? "no AAAA record" :
					 "no A or AAAA record");
	else if (rc == 1)
		out->rc = 0;
	ldns_rdf_deep_free(dname);
}

void dns_lookup(const char *name, int family, const char *resolv_conf,
		struct dns_answer *out)
{
	ldns_resolver *res = NULL;

	memset(out, 0, sizeof(*out));
	if (new_resolver(resolv_conf, &res, out))
		return;
	resolve(res, name, family, out);
	ldns_resolver_deep_free(res);
}
