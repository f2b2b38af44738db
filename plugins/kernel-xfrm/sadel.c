// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * DELSA and GETSA: an SA is found by destination, SPI, protocol and mark.
 * The ABI's sa_del and sa_query carry no mark, so a marked SA is found by
 * a dump when the unmarked look-up misses (rare: marks are opt-in).
 */
#include <arpa/inet.h>
#include <errno.h>
#include <string.h>
#include <libmnl/libmnl.h>

#include "xfrm.h"

struct nlmsghdr *xfrm_build_said(void *buf, uint16_t type,
				 const struct ikb_addr *dst, uint32_t spi,
				 uint8_t proto, uint32_t mark, uint32_t mask)
{
	struct nlmsghdr *nlh = xfrm_nl_start(buf, type, 0);
	struct xfrm_usersa_id *id =
		mnl_nlmsg_put_extra_header(nlh, sizeof(*id));

	xfrm_addr_put(&id->daddr, dst);
	id->spi = htonl(spi);
	id->family = dst->family;
	id->proto = proto;
	xfrm_mark_put(nlh, mark, mask);
	return nlh;
}

struct mark_find {
	xfrm_address_t daddr;
	uint32_t spi; /* network order */
	uint8_t proto;
	bool found;
	struct xfrm_mark mark;
};

static int mark_cb(const struct nlmsghdr *nlh, void *data)
{
	const struct xfrm_usersa_info *p = mnl_nlmsg_get_payload(nlh);
	struct mark_find *f = data;
	const struct nlattr *a;

	if (nlh->nlmsg_type != XFRM_MSG_NEWSA || p->id.spi != f->spi ||
	    p->id.proto != f->proto ||
	    memcmp(&p->id.daddr, &f->daddr, sizeof(f->daddr)) != 0)
		return MNL_CB_OK;
	mnl_attr_for_each(a, nlh, sizeof(*p))
	{
		if (mnl_attr_get_type(a) == XFRMA_MARK &&
		    mnl_attr_get_payload_len(a) >= sizeof(f->mark)) {
			memcpy(&f->mark, mnl_attr_get_payload(a),
			       sizeof(f->mark));
			f->found = true;
		}
	}
	return MNL_CB_OK;
}

static bool find_mark(struct xfrm_state *st, const struct ikb_addr *dst,
		      uint32_t spi, uint8_t proto, struct xfrm_mark *out)
{
	char buf[XFRM_BUF];
	struct mark_find f = { .spi = htonl(spi), .proto = proto };
	struct ikb_error err;

	xfrm_addr_put(&f.daddr, dst);
	if (xfrm_nl_talk(st, xfrm_nl_start(buf, XFRM_MSG_GETSA, NLM_F_DUMP),
			 mark_cb, &f, &err) ||
	    !f.found)
		return false;
	*out = f.mark;
	return true;
}

/* One request by SA id; retried with the SA's mark if it has one. */
int xfrm_said_talk(struct xfrm_state *st, uint16_t type,
		   const struct ikb_addr *dst, uint32_t spi, uint8_t proto,
		   int (*cb)(const struct nlmsghdr *, void *), void *data,
		   struct ikb_error *err)
{
	char buf[XFRM_BUF], a[64];
	struct xfrm_mark m;
	int rc;

	if (dst->family != AF_INET && dst->family != AF_INET6)
		return ikb_error_set(err, EAFNOSUPPORT,
				     "SA destination is neither IPv4 nor IPv6");
	rc = xfrm_nl_talk(st, xfrm_build_said(buf, type, dst, spi, proto, 0, 0),
			  cb, data, err);
	if (rc != -ESRCH && rc != -ENOENT)
		return rc;
	if (find_mark(st, dst, spi, proto, &m))
		return xfrm_nl_talk(
			st,
			xfrm_build_said(buf, type, dst, spi, proto, m.v, m.m),
			cb, data, err);
	/* ESRCH's own text, "No such process", would mislead. */
	return ikb_error_set(err, -rc,
			     "kernel: no SA dst %s spi 0x%08x proto %u",
			     xfrm_addr_str(dst, a, sizeof(a)), spi, proto);
}

int xfrm_sa_del(void *state, const struct ikb_addr *dst, uint32_t spi,
		uint8_t proto, struct ikb_error *err)
{
	return xfrm_said_talk(state, XFRM_MSG_DELSA, dst, spi, proto, NULL,
			      NULL, err);
}

/*
 * curlft.use_time is stamped once, by the first packet (xfrm_state_check_
 * expire). x->lastused is stamped by every packet in and out (since Linux
 * 6.2) and is sent as XFRMA_LASTUSED only once set; that is the last use.
 */
static uint64_t last_used(const struct nlmsghdr *nlh, size_t hdr,
			  uint64_t first_use)
{
	const struct nlattr *a;

	mnl_attr_for_each(a, nlh, hdr)
	{
		if (mnl_attr_get_type(a) == XFRMA_LASTUSED &&
		    mnl_attr_validate(a, MNL_TYPE_U64) == 0)
			return mnl_attr_get_u64(a);
	}
	return first_use;
}

int xfrm_counters_parse(const struct nlmsghdr *nlh, struct ikb_sa_counters *out)
{
	const struct xfrm_usersa_info *p = mnl_nlmsg_get_payload(nlh);

	if (nlh->nlmsg_type != XFRM_MSG_NEWSA ||
	    nlh->nlmsg_len < mnl_nlmsg_size(sizeof(*p)))
		return -EBADMSG;
	*out = (struct ikb_sa_counters){
		.bytes = p->curlft.bytes,
		.packets = p->curlft.packets,
		.add_time = p->curlft.add_time,
		.use_time = last_used(nlh, sizeof(*p), p->curlft.use_time),
		.replay_fail = p->stats.replay,
		.integrity_fail = p->stats.integrity_failed,
	};
	return 0;
}

static int query_cb(const struct nlmsghdr *nlh, void *data)
{
	xfrm_counters_parse(nlh, data);
	return MNL_CB_OK;
}

int xfrm_sa_query(void *state, const struct ikb_addr *dst, uint32_t spi,
		  uint8_t proto, struct ikb_sa_counters *out,
		  struct ikb_error *err)
{
	memset(out, 0, sizeof(*out));
	return xfrm_said_talk(state, XFRM_MSG_GETSA, dst, spi, proto, query_cb,
			      out, err);
}
