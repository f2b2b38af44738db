// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * pcrypt=yes. The XFRM API only takes names from the kernel's algorithm
 * table, so an SA cannot be given "pcrypt(rfc4106(gcm(aes)))" directly.
 * Instead the pcrypt instance is created through the crypto user API
 * (NETLINK_CRYPTO, CRYPTO_MSG_NEWALG with driver "pcrypt(<aead>)", as
 * crconf does): it registers under the same algorithm name with a higher
 * priority, so every SA that then asks for <aead> gets the parallel
 * version. That is kernel-wide: SAs of other conns and other daemons with
 * the same algorithms get it too, until the next reboot.
 *
 * <aead> is the name ESP itself asks the crypto API for, under its IV
 * generator: the SA's AEAD, or for an encryption + integrity SA the
 * authenc (authencesn with ESN) pair that esp4/esp6 build from the two.
 *
 * Where the kernel cannot (no pcrypt template, as in UML, or no crypto
 * user API), the SA is installed all the same, marked pcrypt_fallback,
 * with one warning per daemon.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <libmnl/libmnl.h>
#include <linux/cryptouser.h>
#include <linux/netlink.h>

#include "xfrm.h"

/* include/crypto/algapi.h: not in the uapi headers. */
#define XFRM_CRYPTO_ALG_TYPE_AEAD 0x3
#define XFRM_CRYPTO_ALG_TYPE_MASK 0xf

static int too_long(struct ikb_error *err, const char *what)
{
	return ikb_error_set(err, ENAMETOOLONG,
			     "%s is longer than the crypto API's %d bytes",
			     what, XFRM_CRYPTO_NAME - 1);
}

int xfrm_pcrypt_inner(const struct ikb_sa *sa, char *out, size_t len,
		      struct ikb_error *err)
{
	int n;

	if (sa->aead.name[0])
		n = snprintf(out, len, "%s", sa->aead.name);
	else if (sa->encr.name[0])
		n = snprintf(out, len, "%s(%s,%s)",
			     sa->esn ? "authencesn" : "authenc",
			     sa->integ.name[0] ? sa->integ.name : "digest_null",
			     sa->encr.name);
	else
		return ikb_error_set(err, EINVAL, "the SA has no algorithm");
	return n < 0 || (size_t)n >= len ? too_long(err, "the algorithm name") :
					   0;
}

int xfrm_pcrypt_name(char *out, size_t len, const char *inner,
		     struct ikb_error *err)
{
	int n;

	if (!inner[0])
		return ikb_error_set(err, EINVAL, "no algorithm to wrap");
	/* pcrypt(pcrypt(x)) would parallelise twice for nothing. */
	if (strncmp(inner, "pcrypt(", 7) == 0)
		return ikb_error_set(err, EINVAL, "%s is pcrypt already",
				     inner);
	n = snprintf(out, len, "pcrypt(%s)", inner);
	if (n < 0 || (size_t)n >= len)
		return too_long(err, "pcrypt(<algorithm>)");
	return 0;
}

struct nlmsghdr *xfrm_build_newalg(void *buf, const char *inner,
				   struct ikb_error *err)
{
	struct nlmsghdr *nlh = xfrm_nl_start(buf, CRYPTO_MSG_NEWALG, 0);
	struct crypto_user_alg *u;

	u = mnl_nlmsg_put_extra_header(nlh, sizeof(*u));
	if (xfrm_pcrypt_name(u->cru_driver_name, sizeof(u->cru_driver_name),
			     inner, err))
		return NULL;
	u->cru_type = XFRM_CRYPTO_ALG_TYPE_AEAD;
	u->cru_mask = XFRM_CRYPTO_ALG_TYPE_MASK;
	return nlh;
}

/* One CRYPTO_MSG_NEWALG for pcrypt(inner). */
static int newalg(const char *inner, struct ikb_error *err)
{
	char buf[XFRM_BUF];
	struct nlmsghdr *nlh = xfrm_build_newalg(buf, inner, err);

	if (!nlh)
		return -EINVAL;
	return xfrm_nl_once(NETLINK_CRYPTO, "crypto", nlh, NULL, NULL, err);
}

#define PCRYPT_TRIES 50
#define PCRYPT_WAIT_NS 10000000L /* 10 ms: 0.5 s at most */

/*
 * NEWALG is sent only where no instance is listed (pcrypt_proc.c says
 * why a second one nests). Its answer is not the verdict: EAGAIN means
 * made but its self-test (run apart, in cryptomgr) not passed yet, and
 * until it has, a new SA would still get the plain AEAD. So the verdict
 * is /proc/crypto's, waited for once per algorithm and daemon.
 */
int xfrm_pcrypt_probe_at(const char *proc,
			 int (*send)(const char *inner, struct ikb_error *err),
			 const char *inner, struct ikb_error *err)
{
	enum xfrm_pcrypt_listing l = xfrm_pcrypt_listed(proc, inner);
	int rc;

	if (l == XFRM_PCRYPT_UNREADABLE)
		return ikb_error_set(err, ENOENT,
				     "cannot read %s to see what pcrypt instances there are",
				     proc);
	if (l == XFRM_PCRYPT_NONE) {
		rc = send(inner, err);
		if (rc && rc != -EAGAIN && rc != -EEXIST)
			return rc;
	}
	for (int i = 0; i < PCRYPT_TRIES; i++) {
		if (xfrm_pcrypt_listed(proc, inner) == XFRM_PCRYPT_READY)
			return 0;
		nanosleep(&(struct timespec){ 0, PCRYPT_WAIT_NS }, NULL);
	}
	return ikb_error_set(err, ETIMEDOUT,
			     "pcrypt(%s) is not in %s with its self-test passed",
			     inner, proc);
}

int xfrm_pcrypt_probe(const char *inner, struct ikb_error *err)
{
	return xfrm_pcrypt_probe_at("/proc/crypto", newalg, inner, err);
}

/* The verdict for inner: asked once, then remembered. */
static int verdict(struct xfrm_state *st, const char *inner,
		   struct ikb_error *err)
{
	struct xfrm_pcrypt_seen *s;
	int rc;

	for (unsigned i = 0; i < st->npcrypt; i++)
		if (strcmp(st->pcrypt[i].inner, inner) == 0)
			return st->pcrypt[i].rc ?
				       ikb_error_set(err, -st->pcrypt[i].rc,
						     "%s", st->pcrypt[i].why) :
				       0;
	rc = (st->pcrypt_probe ? st->pcrypt_probe : xfrm_pcrypt_probe)(inner,
								       err);
	if (st->npcrypt < XFRM_PCRYPT_SEEN) {
		s = &st->pcrypt[st->npcrypt++];
		snprintf(s->inner, sizeof(s->inner), "%s", inner);
		snprintf(s->why, sizeof(s->why), "%s", rc ? err->msg : "");
		s->rc = rc;
	}
	return rc;
}

void xfrm_pcrypt_apply(struct xfrm_state *st, struct ikb_sa *sa)
{
	char inner[XFRM_CRYPTO_NAME];
	struct ikb_error err = { "" };
	int rc;

	sa->pcrypt_fallback = false;
	if (!sa->pcrypt)
		return;
	rc = xfrm_pcrypt_inner(sa, inner, sizeof(inner), &err);
	if (!rc)
		rc = verdict(st, inner, &err);
	if (!rc)
		return;
	sa->pcrypt_fallback = true;
	if (st->pcrypt_warned)
		return;
	st->pcrypt_warned = true;
	st->host->log(
		"kernel-xfrm", IKB_LOG_WARNING,
		"pcrypt=yes: the kernel cannot run %s through pcrypt (%s); SA 0x%08x and later ones run without it, with no further warning",
		rc == -ENAMETOOLONG ? "the SA's algorithm" : inner, err.msg,
		sa->spi);
}
