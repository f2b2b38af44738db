// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * XFRM_MSG_ALLOCSPI: the kernel picks an unused SPI in our range and keeps
 * a larval SA under it, which sa_update later fills (UPDSA).
 */
#include <arpa/inet.h>
#include <errno.h>
#include <string.h>
#include <libmnl/libmnl.h>

#include "xfrm.h"

struct nlmsghdr *xfrm_build_allocspi(void *buf, const struct ikb_addr *src,
				     const struct ikb_addr *dst, uint8_t proto,
				     uint32_t kreqid, struct ikb_error *err)
{
	struct nlmsghdr *nlh = xfrm_nl_start(buf, XFRM_MSG_ALLOCSPI, 0);
	struct xfrm_userspi_info *u;

	if (dst->family != AF_INET && dst->family != AF_INET6) {
		ikb_error_set(err, EAFNOSUPPORT,
			      "SPI: destination is not IPv4/6");
		return NULL;
	}
	u = mnl_nlmsg_put_extra_header(nlh, sizeof(*u));
	xfrm_addr_put(&u->info.id.daddr, dst);
	xfrm_addr_put(&u->info.saddr, src);
	u->info.id.proto = proto;
	u->info.family = dst->family;
	u->info.reqid = kreqid;
	u->min = XFRM_SPI_MIN;
	u->max = XFRM_SPI_MAX;
	return nlh;
}

static int spi_reply(const struct nlmsghdr *nlh, void *data)
{
	const struct xfrm_usersa_info *p = mnl_nlmsg_get_payload(nlh);
	uint32_t *spi = data;

	if (nlh->nlmsg_type == XFRM_MSG_NEWSA &&
	    nlh->nlmsg_len >= mnl_nlmsg_size(sizeof(*p)))
		*spi = ntohl(p->id.spi);
	return MNL_CB_OK;
}

int xfrm_spi_alloc(void *state, const struct ikb_addr *src,
		   const struct ikb_addr *dst, uint8_t proto, uint32_t reqid,
		   uint32_t *spi, struct ikb_error *err)
{
	char buf[XFRM_BUF];
	struct nlmsghdr *nlh;
	uint32_t kreqid, got = 0;
	int rc = xfrm_reqid_to_kernel(reqid, &kreqid, err);

	if (rc)
		return rc;
	nlh = xfrm_build_allocspi(buf, src, dst, proto, kreqid, err);
	if (!nlh)
		return -EAFNOSUPPORT;
	rc = xfrm_nl_ask(state, nlh, spi_reply, &got, err);
	if (rc)
		return rc;
	if (got == 0)
		return ikb_error_set(err, EPROTO,
				     "kernel: ALLOCSPI gave no SPI");
	*spi = got;
	return 0;
}
