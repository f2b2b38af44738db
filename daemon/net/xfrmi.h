/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * XFRM interfaces (ipsecN of ipsec-interface=) through rtnetlink: create
 * one with its if_id on the device of the conn's local address, as
 * libreswan does, bring it up, look an existing one up, delete it. The
 * messages are built and parsed by functions of their own, so that a
 * test checks them without a kernel.
 */
#ifndef IKB_NET_XFRMI_H
#define IKB_NET_XFRMI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <net/if.h>
#include <ikebana/types.h>

struct nlmsghdr;

/* Room for any message built here (the largest is about 100 octets). */
#define XFRMI_MSG_MAX 256

/*
 * RTM_NEWLINK that creates name, kind "xfrm", IFLA_XFRM_IF_ID if_id and
 * IFLA_XFRM_LINK link (0: none), and fails if name exists (NLM_F_EXCL),
 * so that a device we did not make is never taken for ours. buf holds
 * XFRMI_MSG_MAX octets. The message, with NLM_F_ACK.
 */
struct nlmsghdr *xfrmi_msg_new(void *buf, uint32_t seq, const char *name,
			       uint32_t if_id, uint32_t link);
/* RTM_NEWLINK setting IFF_UP on ifindex. */
struct nlmsghdr *xfrmi_msg_up(void *buf, uint32_t seq, int ifindex);
/* RTM_DELLINK of ifindex. */
struct nlmsghdr *xfrmi_msg_del(void *buf, uint32_t seq, int ifindex);
/* RTM_GETLINK of name. */
struct nlmsghdr *xfrmi_msg_get(void *buf, uint32_t seq, const char *name);

/* What RTM_NEWLINK says of a device. */
struct xfrmi_link {
	int ifindex;
	bool up; /* IFF_UP */
	bool xfrm; /* IFLA_INFO_KIND "xfrm" */
	uint32_t if_id; /* IFLA_XFRM_IF_ID */
	uint32_t link; /* IFLA_XFRM_LINK */
};

/* Parses an RTM_NEWLINK message into out: 0, or -EINVAL. */
int xfrmi_parse_link(const struct nlmsghdr *nlh, struct xfrmi_link *out);

/*
 * Makes name with if_id on the device that holds local (AF_UNSPEC or not
 * found: no link) and brings it up. When name exists already and is an
 * XFRM interface of the same if_id, it is used as it is (brought up) and
 * *created is false: the caller must not delete it. 0, or -errno with err
 * saying why (another kind of device, another if_id, no kernel support).
 * With create false (ipsec-interface-managed=no) nothing is made or
 * brought up: name must be there already, -ENODEV if not.
 */
int xfrmi_create(const char *name, uint32_t if_id, const struct ikb_addr *local,
		 bool create, bool *created, char *err, size_t errlen);
/* Deletes name: 0, or -errno with err. */
int xfrmi_delete(const char *name, char *err, size_t errlen);

#endif
