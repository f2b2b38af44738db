// SPDX-License-Identifier: GPL-2.0-or-later
/* Between ikebana's addresses and selectors and the kernel's. */
#include <arpa/inet.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <libmnl/libmnl.h>

#include "xfrm.h"

int xfrm_addr_put(xfrm_address_t *out, const struct ikb_addr *a)
{
	memset(out, 0, sizeof(*out));
	switch (a->family) {
	case AF_INET:
		memcpy(&out->a4, a->bytes, 4);
		return 0;
	case AF_INET6:
		memcpy(out->a6, a->bytes, 16);
		return 0;
	case AF_UNSPEC:
		return 0;
	}
	return -EAFNOSUPPORT;
}

void xfrm_addr_get(struct ikb_addr *out, const xfrm_address_t *a,
		   uint16_t family)
{
	memset(out, 0, sizeof(*out));
	out->family = family;
	if (family == AF_INET)
		memcpy(out->bytes, &a->a4, 4);
	else if (family == AF_INET6)
		memcpy(out->bytes, a->a6, 16);
	else
		out->family = AF_UNSPEC;
}

const char *xfrm_addr_str(const struct ikb_addr *a, char *buf, size_t len)
{
	if (a->family != AF_INET && a->family != AF_INET6)
		snprintf(buf, len, "%s", "any");
	else if (!inet_ntop(a->family, a->bytes, buf, (socklen_t)len))
		snprintf(buf, len, "%s", "?");
	return buf;
}

static uint16_t sel_family(const struct ikb_selector *s)
{
	return s->src.family != AF_UNSPEC ? s->src.family : s->dst.family;
}

void xfrm_sel_put(struct xfrm_selector *out, const struct ikb_selector *s)
{
	memset(out, 0, sizeof(*out));
	out->family = sel_family(s);
	xfrm_addr_put(&out->saddr, &s->src);
	xfrm_addr_put(&out->daddr, &s->dst);
	out->prefixlen_s = s->src_plen;
	out->prefixlen_d = s->dst_plen;
	out->proto = s->proto;
	/* A port of 0 is "any": the mask must then be 0 too. */
	out->sport = htons(s->sport);
	out->sport_mask = s->sport ? 0xffff : 0;
	out->dport = htons(s->dport);
	out->dport_mask = s->dport ? 0xffff : 0;
}

void xfrm_sel_get(struct ikb_selector *out, const struct xfrm_selector *s)
{
	memset(out, 0, sizeof(*out));
	xfrm_addr_get(&out->src, &s->saddr, s->family);
	xfrm_addr_get(&out->dst, &s->daddr, s->family);
	out->src_plen = s->prefixlen_s;
	out->dst_plen = s->prefixlen_d;
	out->proto = s->proto;
	out->sport = ntohs(s->sport);
	out->dport = ntohs(s->dport);
}

void xfrm_mark_put(struct nlmsghdr *nlh, uint32_t mark, uint32_t mask)
{
	/* mark=N alone means exactly N, as in libreswan's mark=. */
	struct xfrm_mark m = { .v = mark, .m = mask ? mask : 0xffffffffu };

	/* No attribute means "unmarked", which is what 0/0 says. */
	if (mark || mask)
		mnl_attr_put(nlh, XFRMA_MARK, sizeof(m), &m);
}

void xfrm_if_id_put(struct nlmsghdr *nlh, uint32_t if_id)
{
	/* 0 is no interface: the attribute's absence says the same */
	if (if_id)
		mnl_attr_put_u32(nlh, XFRMA_IF_ID, if_id);
}
