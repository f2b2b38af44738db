// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * How each end of a conn authenticates, libreswan's way: authby= names
 * the methods of both ends (a list: rsasig,ecdsa), leftauth= and
 * rightauth= one end's, for mixed key types; leftcert= is the end's
 * certificate in the NSS database. Without authby=, a conn with a
 * certificate on either end uses signatures, as libreswan's default
 * (rsasig,ecdsa) does, and one without uses its PSK.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "config/config.h"
#include "crypto/cred.h"
#include "crypto/dn.h"
#include "crypto/sig.h"
#include "ike/conn/conn.h"
#include "ike/engine.h"

#define SHA2_256 SIG_HASH_BIT(SIG_HASH_SHA2_256)
#define SHA2_384 SIG_HASH_BIT(SIG_HASH_SHA2_384)
#define SHA2_512 SIG_HASH_BIT(SIG_HASH_SHA2_512)
#define SHA1 SIG_HASH_BIT(SIG_HASH_SHA1)

/* One word of authby= or leftauth=: the checker refused any other. */
static void word(const char *w, unsigned *methods, unsigned *hashes)
{
	static const struct {
		const char *w;
		unsigned m, h;
	} words[] = {
		{ "secret", AUTHM_PSK, 0 },
		{ "rsasig", AUTHM_RSA, SIG_HASHES_SHA2 | SHA1 },
		{ "rsa", AUTHM_RSA, SIG_HASHES_SHA2 | SHA1 },
		{ "rsa-sha1", AUTHM_RSA, SHA1 },
		{ "rsa-sha2", AUTHM_RSA, SIG_HASHES_SHA2 },
		{ "rsa-sha2_256", AUTHM_RSA, SHA2_256 },
		{ "rsa-sha2_384", AUTHM_RSA, SHA2_384 },
		{ "rsa-sha2_512", AUTHM_RSA, SHA2_512 },
		{ "ecdsa", AUTHM_ECDSA, SIG_HASHES_SHA2 },
		{ "ecdsa-sha2", AUTHM_ECDSA, SIG_HASHES_SHA2 },
		{ "ecdsa-sha2_256", AUTHM_ECDSA, SHA2_256 },
		{ "ecdsa-sha2_384", AUTHM_ECDSA, SHA2_384 },
		{ "ecdsa-sha2_512", AUTHM_ECDSA, SHA2_512 },
		{ "null", AUTHM_NULL, 0 },
	};

	for (size_t i = 0; i < sizeof(words) / sizeof(words[0]); i++)
		if (!strcasecmp(w, words[i].w)) {
			*methods |= words[i].m;
			*hashes |= words[i].h;
		}
}

static void words(const char *v, unsigned *methods, unsigned *hashes)
{
	char buf[256], *save, *t;

	snprintf(buf, sizeof(buf), "%s", v);
	for (t = strtok_r(buf, ", ", &save); t; t = strtok_r(NULL, ", ", &save))
		word(t, methods, hashes);
}

static enum conn_sendcert sendcert(const char *v)
{
	if (!v || !strcasecmp(v, "always") || !strcasecmp(v, "yes"))
		return SENDCERT_ALWAYS;
	if (!strcasecmp(v, "never") || !strcasecmp(v, "no"))
		return SENDCERT_NEVER;
	return SENDCERT_IFASKED;
}

void conn_auth_parse(const struct ikb_section *s, const char *side,
		     struct conn_end *end)
{
	const struct ikb_value *by = cfg_get(s, "authby");
	const char *own = conn_end_value(s, side, "auth");
	struct conn_auth *a = &end->auth;
	unsigned m = 0, h = 0;

	a->cert = conn_end_value(s, side, "cert");
	a->rsasigkey = conn_end_value(s, side, "rsasigkey");
	if (a->rsasigkey && !strcmp(a->rsasigkey, "%cert"))
		a->rsasigkey = NULL; /* the certificate's key: leftcert= */
	a->ckaid = conn_end_value(s, side, "ckaid");
	a->ca = conn_end_value(s, side, "ca");
	a->sendcert = sendcert(conn_end_value(s, side, "sendcert"));
	a->fromcert = end->id ? !strcmp(end->id, "%fromcert") : !!a->cert;
	if (by)
		words(by->value, &m, &h);
	else if (cfg_get(s, "leftcert") || cfg_get(s, "rightcert") ||
		 cfg_get(s, "leftrsasigkey") || cfg_get(s, "rightrsasigkey") ||
		 cfg_get(s, "leftckaid") || a->fromcert)
		words("rsasig,ecdsa", &m, &h);
	else
		m = AUTHM_PSK;
	if (own) {
		unsigned om = 0, oh = 0;

		words(own, &om, &oh);
		m = om;
		/* authby='s hashes narrow leftauth='s, as in libreswan */
		h = by && (h & oh) ? h & oh : oh;
	}
	a->methods = m;
	a->hashes = h;
}

/* rightca=%same: the CA that issued our own certificate. */
static int compile_ca(struct conn_view *v, struct ikb_error *err)
{
	struct conn_auth *r = &v->remote.auth;
	const struct cred *ours = v->local.auth.cred;
	uint8_t der[512];
	size_t len;
	struct crypto_err cerr = { 0 };

	if (!r->ca || !strcmp(r->ca, "%any"))
		return 0;
	if (!strcmp(r->ca, "%same")) {
		if (!ours) {
			snprintf(
				err->msg, sizeof(err->msg),
				"rightca=%%same: this end has no certificate (leftcert=) whose CA it could be");
			return -EINVAL;
		}
		r->ca_der = malloc(ours->issuer_der.len);
		if (!r->ca_der)
			return -ENOMEM;
		memcpy(r->ca_der, ours->issuer_der.ptr, ours->issuer_der.len);
		r->ca_len = ours->issuer_der.len;
		return 0;
	}
	if (dn_from_text(r->ca, der, sizeof(der), &len, &cerr)) {
		snprintf(err->msg, sizeof(err->msg), "rightca=%s: %s", r->ca,
			 cerr.msg);
		return -EINVAL;
	}
	r->ca_der = malloc(len);
	if (!r->ca_der)
		return -ENOMEM;
	memcpy(r->ca_der, der, len);
	r->ca_len = len;
	return 0;
}

/* A raw RSA key: leftrsasigkey= and, for ours, leftckaid=. */
static int load_raw(struct conn_end *end, bool key, const char *side,
		    struct ikb_error *err)
{
	struct conn_auth *a = &end->auth;
	struct crypto_err cerr = { 0 };
	int rc;

	if (a->cert) {
		snprintf(
			err->msg, sizeof(err->msg),
			"%scert= and %srsasigkey=/%sckaid= name two keys: keep one",
			side, side, side);
		return -EINVAL;
	}
	if (!a->rsasigkey && !key)
		return 0; /* the peer's ckaid= is not ours to use */
	rc = cred_load_raw(a->rsasigkey, a->ckaid, key, &a->cred, &cerr);
	if (rc)
		snprintf(err->msg, sizeof(err->msg), "%s%s=: %s", side,
			 a->rsasigkey ? "rsasigkey" : "ckaid", cerr.msg);
	return rc;
}

static int load(struct conn_end *end, bool key, const char *side,
		struct ikb_error *err)
{
	struct crypto_err cerr = { 0 };
	int rc;

	if (end->auth.rsasigkey || (key && end->auth.ckaid))
		return load_raw(end, key, side, err);
	if (!end->auth.cert)
		return 0;
	rc = cred_load(end->auth.cert, key, &end->auth.cred, &cerr);
	if (rc)
		snprintf(err->msg, sizeof(err->msg), "%scert=%s: %s", side,
			 end->auth.cert, cerr.msg);
	return rc;
}

/* What the certificate's key can do against what authby= asks. */
int conn_auth_check_key(const struct conn_end *l, const char *side,
			struct ikb_error *err)
{
	const struct cred *c = l->auth.cred;
	unsigned need = c->key == SIG_KEY_RSA ? AUTHM_RSA : AUTHM_ECDSA;

	if (l->auth.methods & need)
		return 0;
	snprintf(
		err->msg, sizeof(err->msg),
		"%scert=%s holds %s %u key, which the conn's authentication (authby= or %sauth=) does not allow",
		side, c->nickname, c->key == SIG_KEY_RSA ? "an RSA" : "an EC",
		c->bits, side);
	return -EINVAL;
}

int conn_auth_compile(struct conn_view *v, struct ikb_error *err)
{
	const char *ls = v->left_is_local ? "left" : "right";
	const char *rs = v->left_is_local ? "right" : "left";
	struct conn_auth *l = &v->local.auth;
	int rc;

	if (l->methods & AUTHM_SIG && !(l->methods & AUTHM_PSK) && !l->cert &&
	    !l->rsasigkey && !l->ckaid) {
		snprintf(
			err->msg, sizeof(err->msg),
			"this end authenticates with signatures but has no certificate: set %scert= to a nickname in the NSS database",
			ls);
		return -EINVAL;
	}
	rc = load(&v->local, true, ls, err);
	if (!rc && l->cred)
		rc = conn_auth_check_key(&v->local, ls, err);
	if (!rc)
		rc = load(&v->remote, false, rs, err);
	if (!rc)
		rc = compile_ca(v, err);
	return rc;
}

void conn_auth_free(struct conn_end *end)
{
	cred_put(end->auth.cred);
	end->auth.cred = NULL;
	free(end->auth.ca_der);
	end->auth.ca_der = NULL;
}
