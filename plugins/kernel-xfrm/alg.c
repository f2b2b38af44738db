// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The SA's algorithms: XFRMA_ALG_AEAD, or XFRMA_ALG_CRYPT with
 * XFRMA_ALG_AUTH_TRUNC. Always the _TRUNC form for integrity, so that the
 * ICV length is ours and not the kernel table's (which still says 96 bits
 * for hmac(sha256), against RFC 4868's 128).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <libmnl/libmnl.h>

#include "xfrm.h"

static int check_key(const struct ikb_alg *a, const char *what,
		     struct ikb_error *err)
{
	if (a->key_bits > IKB_KEY_MAX * 8 || a->key_bits % 8)
		return xfrm_fail(
			err, EINVAL,
			"%s %s: key of %u bits (at most %u, whole bytes)", what,
			a->name, a->key_bits, IKB_KEY_MAX * 8);
	if (memchr(a->name, 0, sizeof(a->name)) == NULL)
		return xfrm_fail(err, EINVAL, "%s name is not terminated",
				 what);
	return 0;
}

/* RFC 4868 and RFC 2404/3566: what an unset truncation means. */
static uint32_t default_trunc(const char *name)
{
	static const struct {
		const char *name;
		uint32_t bits;
	} t[] = {
		{ "hmac(sha256)", 128 }, { "hmac(sha384)", 192 },
		{ "hmac(sha512)", 256 }, { "hmac(sha1)", 96 },
		{ "hmac(md5)", 96 },	 { "xcbc(aes)", 96 },
		{ "cmac(aes)", 96 },
	};

	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++)
		if (strcmp(name, t[i].name) == 0)
			return t[i].bits;
	return 0;
}

static void put_aead(struct nlmsghdr *nlh, const struct ikb_alg *a)
{
	struct {
		struct xfrm_algo_aead h;
		uint8_t key[IKB_KEY_MAX];
	} v;

	memset(&v, 0, sizeof(v));
	memcpy(v.h.alg_name, a->name, sizeof(v.h.alg_name));
	v.h.alg_key_len = a->key_bits;
	v.h.alg_icv_len = a->icv_bits;
	memcpy(v.key, a->key, a->key_bits / 8);
	mnl_attr_put(nlh, XFRMA_ALG_AEAD, sizeof(v.h) + a->key_bits / 8, &v);
	explicit_bzero(&v, sizeof(v));
}

static void put_crypt(struct nlmsghdr *nlh, const struct ikb_alg *a)
{
	struct {
		struct xfrm_algo h;
		uint8_t key[IKB_KEY_MAX];
	} v;

	memset(&v, 0, sizeof(v));
	memcpy(v.h.alg_name, a->name, sizeof(v.h.alg_name));
	v.h.alg_key_len = a->key_bits;
	memcpy(v.key, a->key, a->key_bits / 8);
	mnl_attr_put(nlh, XFRMA_ALG_CRYPT, sizeof(v.h) + a->key_bits / 8, &v);
	explicit_bzero(&v, sizeof(v));
}

static int put_auth(struct nlmsghdr *nlh, const struct ikb_alg *a,
		    struct ikb_error *err)
{
	struct {
		struct xfrm_algo_auth h;
		uint8_t key[IKB_KEY_MAX];
	} v;
	uint32_t trunc = a->icv_bits ? a->icv_bits : default_trunc(a->name);

	if (!trunc)
		return xfrm_fail(
			err, EINVAL,
			"integrity %s: no ICV length given and none known",
			a->name);
	memset(&v, 0, sizeof(v));
	memcpy(v.h.alg_name, a->name, sizeof(v.h.alg_name));
	v.h.alg_key_len = a->key_bits;
	v.h.alg_trunc_len = trunc;
	memcpy(v.key, a->key, a->key_bits / 8);
	mnl_attr_put(nlh, XFRMA_ALG_AUTH_TRUNC, sizeof(v.h) + a->key_bits / 8,
		     &v);
	explicit_bzero(&v, sizeof(v));
	return 0;
}

int xfrm_algs_put(struct nlmsghdr *nlh, const struct ikb_sa *sa,
		  struct ikb_error *err)
{
	bool aead = sa->aead.name[0], encr = sa->encr.name[0];
	int rc;

	if (aead == encr)
		return xfrm_fail(
			err, EINVAL,
			"an SA needs exactly one of an AEAD or an encryption algorithm");
	if (aead && sa->integ.name[0])
		return xfrm_fail(
			err, EINVAL,
			"an AEAD SA (%s) takes no integrity algorithm (%s)",
			sa->aead.name, sa->integ.name);
	if (aead) {
		rc = check_key(&sa->aead, "AEAD", err);
		if (!rc)
			put_aead(nlh, &sa->aead);
		return rc;
	}
	rc = check_key(&sa->encr, "encryption", err);
	if (!rc && sa->integ.name[0])
		rc = check_key(&sa->integ, "integrity", err);
	if (rc)
		return rc;
	put_crypt(nlh, &sa->encr);
	return sa->integ.name[0] ? put_auth(nlh, &sa->integ, err) : 0;
}
