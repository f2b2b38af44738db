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
		return ikb_error_set(
			err, EINVAL,
			"%s %s: key of %u bits (at most %u, whole bytes)", what,
			a->name, a->key_bits, IKB_KEY_MAX * 8);
	if (memchr(a->name, 0, sizeof(a->name)) == NULL)
		return ikb_error_set(err, EINVAL, "%s name is not terminated",
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

/*
 * One XFRMA_ALG_* attribute: h is the xfrm_algo* header (name, key length
 * and, but for CRYPT, the ICV or truncation length), followed by the key.
 */
static void put_alg(struct nlmsghdr *nlh, uint16_t type, const void *h,
		    size_t hlen, const struct ikb_alg *a)
{
	uint8_t v[sizeof(struct xfrm_algo_auth) + IKB_KEY_MAX];

	memset(v, 0, sizeof(v));
	memcpy(v, h, hlen);
	memcpy(v + hlen, a->key, a->key_bits / 8);
	mnl_attr_put(nlh, type, hlen + a->key_bits / 8, v);
	explicit_bzero(v, sizeof(v));
}

static void put_aead(struct nlmsghdr *nlh, const struct ikb_alg *a)
{
	struct xfrm_algo_aead h;

	memset(&h, 0, sizeof(h));
	memcpy(h.alg_name, a->name, sizeof(h.alg_name));
	h.alg_key_len = a->key_bits;
	h.alg_icv_len = a->icv_bits;
	put_alg(nlh, XFRMA_ALG_AEAD, &h, sizeof(h), a);
}

static void put_crypt(struct nlmsghdr *nlh, const struct ikb_alg *a)
{
	struct xfrm_algo h;

	memset(&h, 0, sizeof(h));
	memcpy(h.alg_name, a->name, sizeof(h.alg_name));
	h.alg_key_len = a->key_bits;
	put_alg(nlh, XFRMA_ALG_CRYPT, &h, sizeof(h), a);
}

static int put_auth(struct nlmsghdr *nlh, const struct ikb_alg *a,
		    struct ikb_error *err)
{
	struct xfrm_algo_auth h;
	uint32_t trunc = a->icv_bits ? a->icv_bits : default_trunc(a->name);

	if (!trunc)
		return ikb_error_set(
			err, EINVAL,
			"integrity %s: no ICV length given and none known",
			a->name);
	memset(&h, 0, sizeof(h));
	memcpy(h.alg_name, a->name, sizeof(h.alg_name));
	h.alg_key_len = a->key_bits;
	h.alg_trunc_len = trunc;
	put_alg(nlh, XFRMA_ALG_AUTH_TRUNC, &h, sizeof(h), a);
	return 0;
}

int xfrm_algs_put(struct nlmsghdr *nlh, const struct ikb_sa *sa,
		  struct ikb_error *err)
{
	bool aead = sa->aead.name[0], encr = sa->encr.name[0];
	int rc;

	if (aead == encr)
		return ikb_error_set(
			err, EINVAL,
			"an SA needs exactly one of an AEAD or an encryption algorithm");
	if (aead && sa->integ.name[0])
		return ikb_error_set(
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
