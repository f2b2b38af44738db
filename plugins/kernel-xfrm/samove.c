// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Moving an SA (sa_move): its NAT mapped the peer anew, or MOBIKE moved
 * it. The engine no longer has the keys, so the SA is read back from the
 * kernel (GETSA gives every attribute, keys and replay state included)
 * and sent again with the new endpoints and encapsulation template. Ports
 * alone change in place (UPDSA copies the encapsulation of a valid SA);
 * new addresses change the SA's identity (the destination is part of it,
 * the source is fixed at creation), and so does a new or dropped
 * encapsulation, so the SA is deleted and added again under the same
 * SPI, with its sequence numbers.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <string.h>
#include <linux/udp.h>
#include <libmnl/libmnl.h>

#include "xfrm.h"

struct sa_copy {
	char msg[XFRM_BUF];
	bool got;
};

static int copy_cb(const struct nlmsghdr *nlh, void *data)
{
	struct sa_copy *c = data;
	const struct xfrm_usersa_info *p = mnl_nlmsg_get_payload(nlh);

	if (nlh->nlmsg_type != XFRM_MSG_NEWSA ||
	    nlh->nlmsg_len < mnl_nlmsg_size(sizeof(*p)) ||
	    nlh->nlmsg_len > sizeof(c->msg))
		return MNL_CB_OK;
	memcpy(c->msg, nlh, nlh->nlmsg_len);
	c->got = true;
	return MNL_CB_OK;
}

/*
 * What GETSA gave, as a request of type with the new endpoints. In place
 * (UPDSA) the offload device is left out: the kernel would bind a second
 * device state for the same SA and throw the copy away.
 */
static struct nlmsghdr *rebuild(void *buf, uint16_t type,
				const struct nlmsghdr *old,
				const struct ikb_sa_move *to,
				struct ikb_error *err)
{
	const struct xfrm_usersa_info *op = mnl_nlmsg_get_payload(old);
	struct nlmsghdr *nlh = xfrm_nl_start(buf, type, 0);
	struct xfrm_usersa_info *p =
		mnl_nlmsg_put_extra_header(nlh, sizeof(*p));
	struct xfrm_encap_tmpl e = { .encap_type = UDP_ENCAP_ESPINUDP };
	const struct nlattr *a;

	*p = *op;
	if (to->src.family != p->family || to->dst.family != p->family) {
		ikb_error_set(err, EAFNOSUPPORT,
			      "SA move: cannot change the address family");
		return NULL;
	}
	xfrm_addr_put(&p->saddr, &to->src);
	xfrm_addr_put(&p->id.daddr, &to->dst);
	if (to->sel.src.family != AF_UNSPEC)
		xfrm_sel_put(&p->sel, &to->sel);
	mnl_attr_for_each(a, old, sizeof(*op))
	{
		uint16_t t = mnl_attr_get_type(a);

		if (t == XFRMA_ENCAP || t == XFRMA_LASTUSED ||
		    (t == XFRMA_OFFLOAD_DEV && type == XFRM_MSG_UPDSA))
			continue;
		if (nlh->nlmsg_len + MNL_ALIGN(mnl_attr_get_len(a)) >
		    XFRM_BUF) {
			ikb_error_set(err, EMSGSIZE,
				      "SA move: the SA is too large");
			return NULL;
		}
		mnl_attr_put(nlh, t, mnl_attr_get_payload_len(a),
			     mnl_attr_get_payload(a));
	}
	e.encap_sport = htons(to->encap_sport);
	e.encap_dport = htons(to->encap_dport);
	if (to->encap_sport || to->encap_dport)
		mnl_attr_put(nlh, XFRMA_ENCAP, sizeof(e), &e);
	return nlh;
}

/* UPDSA copies an encapsulation only over one of the same type. */
static bool has_encap(const struct nlmsghdr *nlh)
{
	const struct nlattr *a;

	mnl_attr_for_each(a, nlh, sizeof(struct xfrm_usersa_info))
	{
		if (mnl_attr_get_type(a) == XFRMA_ENCAP)
			return true;
	}
	return false;
}

static bool same_addr(const xfrm_address_t *x, const struct ikb_addr *a)
{
	xfrm_address_t y;

	memset(&y, 0, sizeof(y));
	return !xfrm_addr_put(&y, a) && !memcmp(x, &y, sizeof(y));
}

int xfrm_sa_move(void *state, const struct ikb_addr *dst, uint32_t spi,
		 uint8_t proto, const struct ikb_sa_move *to,
		 struct ikb_error *err)
{
	static struct sa_copy c; /* the loop's thread only; large */
	char buf[XFRM_BUF];
	const struct xfrm_usersa_info *op;
	struct nlmsghdr *nlh;
	bool in_place;
	int rc;

	c.got = false;
	rc = xfrm_said_talk(state, XFRM_MSG_GETSA, dst, spi, proto, copy_cb, &c,
			    err);
	if (!rc && !c.got)
		rc = ikb_error_set(err, ENOENT,
				   "SA move: the kernel sent no SA 0x%08x",
				   spi);
	if (rc)
		return rc;
	op = mnl_nlmsg_get_payload((const struct nlmsghdr *)c.msg);
	in_place = same_addr(&op->saddr, &to->src) &&
		   same_addr(&op->id.daddr, &to->dst) &&
		   has_encap((const struct nlmsghdr *)c.msg) ==
			   (to->encap_sport || to->encap_dport);
	nlh = rebuild(buf, in_place ? XFRM_MSG_UPDSA : XFRM_MSG_NEWSA,
		      (const struct nlmsghdr *)c.msg, to, err);
	if (!nlh)
		rc = -EINVAL;
	else if (!in_place)
		rc = xfrm_said_talk(state, XFRM_MSG_DELSA, dst, spi, proto,
				    NULL, NULL, err);
	if (!rc)
		rc = xfrm_nl_talk(state, nlh, NULL, NULL, err);
	/* both held the keys */
	explicit_bzero(buf, sizeof(buf));
	explicit_bzero(c.msg, sizeof(c.msg));
	return rc;
}
