// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * What the Linux kernel (6.1, the test kernel) refuses when an SA or a
 * policy is added, with the reason it gives in its extended ACK.
 */
#include <errno.h>
#include <netinet/in.h>

#include "mem.h"

static int check_alg(const struct ikb_alg *a, const char *what,
		     struct ikb_error *err)
{
	if (a->key_bits > IKB_KEY_MAX * 8)
		return ikb_error_set(
			err, EINVAL,
			"%s key of %u bits exceeds the maximum of %u", what,
			a->key_bits, IKB_KEY_MAX * 8);
	return 0;
}

static int check_algs(const struct ikb_sa *sa, struct ikb_error *err)
{
	bool aead = sa->aead.name[0], encr = sa->encr.name[0];
	int rc;

	if (aead && encr)
		return ikb_error_set(
			err, EINVAL,
			"SA has both an AEAD (%s) and an encryption algorithm (%s)",
			sa->aead.name, sa->encr.name);
	if (!aead && !encr)
		return ikb_error_set(
			err, EINVAL,
			"SA has neither an AEAD nor an encryption algorithm");
	if (aead && sa->integ.name[0])
		return ikb_error_set(
			err, EINVAL,
			"an AEAD SA (%s) takes no integrity algorithm (%s)",
			sa->aead.name, sa->integ.name);
	rc = check_alg(&sa->aead, "AEAD", err);
	if (!rc)
		rc = check_alg(&sa->encr, "encryption", err);
	if (!rc)
		rc = check_alg(&sa->integ, "integrity", err);
	return rc;
}

static int check_replay(const struct ikb_sa *sa, struct ikb_error *err)
{
	if (sa->replay_window > MEM_REPLAY_MAX)
		return ikb_error_set(err, EINVAL,
				     "replay window %u exceeds the kernel's %u",
				     sa->replay_window, MEM_REPLAY_MAX);
	/* Before 6.10 the kernel refuses this in both directions. */
	if (sa->esn && sa->replay_window == 0)
		return ikb_error_set(
			err, EINVAL,
			"ESN needs a replay window: the kernel refuses ESN with replay window 0");
	return 0;
}

static bool family_ok(sa_family_t f)
{
	return f == AF_INET || f == AF_INET6;
}

int mem_sa_validate(const struct ikb_sa *sa, struct ikb_error *err)
{
	int rc;

	if (sa->proto != IPPROTO_ESP)
		return ikb_error_set(err, EPROTONOSUPPORT,
				     "protocol %u: only ESP (50) is supported",
				     sa->proto);
	if (!family_ok(sa->dst.family) || sa->src.family != sa->dst.family)
		return ikb_error_set(
			err, EAFNOSUPPORT,
			"SA addresses must be both IPv4 or both IPv6");
	if (sa->dir != IKB_DIR_IN && sa->dir != IKB_DIR_OUT)
		return ikb_error_set(err, EINVAL,
				     "SA direction %d is neither in nor out",
				     (int)sa->dir);
	if (sa->mode != IKB_MODE_TRANSPORT && sa->mode != IKB_MODE_TUNNEL)
		return ikb_error_set(err, EINVAL, "SA mode %d is unknown",
				     (int)sa->mode);
	rc = check_replay(sa, err);
	return rc ? rc : check_algs(sa, err);
}

static int check_prefix(const struct ikb_addr *a, uint8_t plen,
			const char *side, struct ikb_error *err)
{
	unsigned max = a->family == AF_INET ? 32 : 128;

	if (a->family != AF_UNSPEC && !family_ok(a->family))
		return ikb_error_set(err, EAFNOSUPPORT,
				     "selector %s: address family %u", side,
				     (unsigned)a->family);
	if (plen > max)
		return ikb_error_set(err, EINVAL,
				     "selector %s: prefix /%u exceeds /%u",
				     side, plen, max);
	return 0;
}

int mem_policy_validate(const struct ikb_policy *pol, struct ikb_error *err)
{
	int rc;

	if (pol->dir != IKB_DIR_IN && pol->dir != IKB_DIR_OUT &&
	    pol->dir != IKB_DIR_FWD)
		return ikb_error_set(err, EINVAL,
				     "policy direction %d is unknown",
				     (int)pol->dir);
	if ((unsigned)pol->action > IKB_POLICY_BLOCK)
		return ikb_error_set(err, EINVAL, "policy action %d is unknown",
				     (int)pol->action);
	/* a shunt has no template */
	if (pol->action == IKB_POLICY_IPSEC && pol->proto != IPPROTO_ESP)
		return ikb_error_set(
			err, EPROTONOSUPPORT,
			"policy template protocol %u: only ESP (50) is supported",
			pol->proto);
	rc = check_prefix(&pol->sel.src, pol->sel.src_plen, "source", err);
	return rc ? rc :
		    check_prefix(&pol->sel.dst, pol->sel.dst_plen,
				 "destination", err);
}
