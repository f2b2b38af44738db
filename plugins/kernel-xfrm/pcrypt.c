// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * pcrypt=yes. The XFRM API only takes names from the kernel's algorithm
 * table, so an SA cannot be given "pcrypt(rfc4106(gcm(aes)))" directly.
 * Instead the pcrypt instance is created through the crypto user API
 * (NETLINK_CRYPTO, CRYPTO_MSG_NEWALG with driver "pcrypt(<aead>)"): it
 * registers under the same algorithm name with a higher priority, so every
 * SA that then asks for <aead> gets the parallel version.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <libmnl/libmnl.h>
#include <linux/cryptouser.h>
#include <linux/netlink.h>

#include "xfrm.h"

/* include/crypto/algapi.h: not in the uapi headers. */
#define XFRM_CRYPTO_ALG_TYPE_AEAD 0x3
#define XFRM_CRYPTO_ALG_TYPE_MASK 0xf

static int newalg(const char *aead)
{
	char buf[XFRM_BUF], rbuf[XFRM_BUF];
	struct mnl_socket *nl = mnl_socket_open(NETLINK_CRYPTO);
	struct crypto_user_alg *u;
	struct nlmsghdr *nlh;
	char msg[256];
	ssize_t n;
	int rc = -EIO;

	if (!nl)
		return -errno;
	if (mnl_socket_bind(nl, 0, MNL_SOCKET_AUTOPID) < 0)
		goto out;
	nlh = xfrm_nl_start(buf, CRYPTO_MSG_NEWALG, NLM_F_ACK);
	u = mnl_nlmsg_put_extra_header(nlh, sizeof(*u));
	snprintf(u->cru_driver_name, sizeof(u->cru_driver_name), "pcrypt(%s)",
		 aead);
	u->cru_type = XFRM_CRYPTO_ALG_TYPE_AEAD;
	u->cru_mask = XFRM_CRYPTO_ALG_TYPE_MASK;
	if (mnl_socket_sendto(nl, nlh, nlh->nlmsg_len) < 0)
		goto out;
	n = mnl_socket_recvfrom(nl, rbuf, sizeof(rbuf));
	if (n >= (ssize_t)sizeof(struct nlmsghdr) &&
	    ((struct nlmsghdr *)rbuf)->nlmsg_type == NLMSG_ERROR)
		rc = xfrm_nl_error((struct nlmsghdr *)rbuf, msg, sizeof(msg));
out:
	mnl_socket_close(nl);
	return rc;
}

bool xfrm_pcrypt_ready(struct xfrm_state *st, const char *aead)
{
	int rc = newalg(aead);

	/* EEXIST: an earlier SA (or an administrator) made it already. */
	if (rc && rc != -EEXIST) {
		st->host->log("kernel-xfrm", IKB_LOG_DEBUG, "pcrypt(%s): %s",
			      aead, strerror(-rc));
		return false;
	}
	return true;
}
