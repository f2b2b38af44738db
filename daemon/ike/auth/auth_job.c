// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * One IKE_AUTH's authentication work. A PSK's AUTH is a pair of prf
 * calls and runs on the loop; signatures and certificate chains cost
 * milliseconds (RSA-2048 signs in about one, a chain verifies in a few)
 * and run in one helper-pool job that verifies the peer first and signs
 * our AUTH only if the peer passed. The job owns copies of everything it
 * reads: the SA may be gone when it ends.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <keyhi.h>

#include "crypto/cert_id.h"
#include "crypto/cred.h"
#include "crypto/sig.h"
#include "ike/auth/auth.h"
#include "ike/exchange/exchange.h"
#include "ike/status/status.h"

struct auth_job *auth_job_new(void)
{
	return calloc(1, sizeof(struct auth_job));
}

void auth_job_free(struct auth_job *j)
{
	if (!j)
		return;
	cred_put(j->cred);
	cred_put(j->peer_cred);
	peer_cert_put(j->pc);
	auth_octets_free(&j->mine);
	auth_octets_free(&j->theirs);
	free(j->peer_auth);
	free(j->certs);
	free(j->ca);
	msg_in_free(&j->in);
	free(j);
}

static void hash_names(unsigned bits, char *out, size_t cap)
{
	static const char *const names[] = { NULL, "SHA-1", "SHA2-256",
					     "SHA2-384", "SHA2-512" };
	size_t n = 0;

	out[0] = '\0';
	for (unsigned h = 1; h <= SIG_HASH_SHA2_512 && n < cap; h++)
		if (bits & SIG_HASH_BIT(h))
			n += (size_t)snprintf(out + n, cap - n, "%s%s",
					      n ? ", " : "", names[h]);
	if (!out[0])
		snprintf(out, cap, "none");
}

static int sign_prepare(struct auth_job *j, struct ike_sa *sa,
			const struct conn_auth *a, struct ikb_error *err)
{
	unsigned peer = sa->peer_auth.hashes;
	struct ike_id me;
	char ph[64], ah[64];

	if (sig_choose(a->cred->key, a->cred->bits, a->hashes, peer, false,
		       &j->scheme)) {
		hash_names(peer, ph, sizeof(ph));
		hash_names(a->hashes, ah, sizeof(ah));
		snprintf(
			err->msg, sizeof(err->msg),
			peer ? "no signature both ends accept: the peer verifies %s (SIGNATURE_HASH_ALGORITHMS), the conn signs with %s" :
			       "no signature both ends accept: the peer announced no RFC 7427 hashes (%s), and the conn allows no RSA SHA-1 or ECDSA for this curve (%s)",
			ph, ah);
		return -ENOTSUP;
	}
	j->cred = cred_get(a->cred);
	j->method = sig_scheme(j->scheme)->method;
	ike_sa_id_get(&sa->local_id, &me);
	return auth_octets(sa, sa->initiator, &me, &j->mine, err);
}

int auth_job_sign(struct auth_job *j, struct ike_sa *sa,
		  const struct conn_view *v, const char *remote_id,
		  struct ikb_error *err)
{
	const struct conn_auth *a = &v->local.auth;
	const uint8_t *psk = NULL;
	size_t psk_len = 0;
	struct ike_id me;
	bool found;

	if (a->cred && a->methods & AUTHM_SIG)
		return sign_prepare(j, sa, a, err);
	if (!(a->methods & (AUTHM_PSK | AUTHM_NULL))) {
		snprintf(
			err->msg, sizeof(err->msg),
			"this end signs (authby=) but has no certificate (leftcert=)");
		return -EINVAL;
	}
	found = a->methods & AUTHM_PSK &&
		!psk_lookup(sa->e, ike_sa_id_text(&sa->local_id), remote_id,
			    &psk, &psk_len);
	ike_sa_id_get(&sa->local_id, &me);
	/* authby=secret,null: the PSK when the secrets have one */
	if (!found && a->methods & AUTHM_NULL) {
		j->method = AUTH_NULL;
		return auth_null_compute(sa, sa->initiator, &me, j->data,
					 &j->len, err);
	}
	if (!found) {
		snprintf(err->msg, sizeof(err->msg),
			 "no PSK in the secrets for %.100s and %.100s",
			 ike_sa_id_text(&sa->local_id),
			 remote_id ? remote_id : "%any");
		return -ENOENT;
	}
	j->method = AUTH_PSK;
	return auth_psk_compute(sa, sa->initiator, &me, psk, psk_len, j->data,
				&j->len, err);
}

static bool equal_ct(const uint8_t *a, const uint8_t *b, size_t n)
{
	uint8_t d = 0;

	for (size_t i = 0; i < n; i++)
		d |= a[i] ^ b[i];
	return d == 0;
}

/* What the conn allows for the peer, in its own words, for refusals. */
static const char *allowed(const struct conn_auth *r)
{
	if (r->methods == AUTHM_NULL)
		return "only NULL authentication (authby=null)";
	if (r->methods == AUTHM_PSK)
		return "a PSK (authby=secret)";
	if (!(r->methods & AUTHM_SIG))
		return "a PSK or NULL authentication (authby=)";
	return r->methods & (AUTHM_PSK | AUTHM_NULL) ?
		       "a signature, a PSK or NULL authentication (authby=)" :
		       "its signature (authby=)";
}

static int check_psk(struct auth_job *j, struct ike_sa *sa,
		     const struct conn_auth *r, const struct ike_id *peer,
		     const struct wire_typed *auth, struct ikb_error *err)
{
	uint8_t want[64];
	size_t len;
	const uint8_t *psk;
	size_t psk_len;

	if (!(r->methods & AUTHM_PSK)) {
		snprintf(
			err->msg, sizeof(err->msg),
			"peer %.100s authenticated with a PSK (AUTH method 2), but the conn wants %s",
			peer->text, allowed(r));
		return -EPERM;
	}
	if (psk_lookup(sa->e, ike_sa_id_text(&sa->local_id), peer->text, &psk,
		       &psk_len)) {
		snprintf(err->msg, sizeof(err->msg),
			 "no PSK in the secrets for %.100s and %.100s",
			 ike_sa_id_text(&sa->local_id), peer->text);
		return -ENOENT;
	}
	if (auth_psk_compute(sa, !sa->initiator, peer, psk, psk_len, want, &len,
			     err))
		return -EPERM;
	if (auth->len != len || !equal_ct(want, auth->data, len)) {
		snprintf(err->msg, sizeof(err->msg),
			 "AUTH payload of %.100s does not verify (wrong PSK?)",
			 peer->text);
		return -EPERM;
	}
	j->peer_how = "PSK";
	return 0;
}

/* RFC 7619: the peer holds this IKE SA's keys, and proves nothing else. */
static int check_null(struct auth_job *j, struct ike_sa *sa,
		      const struct conn_auth *r, const struct ike_id *peer,
		      const struct wire_typed *auth, struct ikb_error *err)
{
	uint8_t want[64];
	size_t len;

	if (!(r->methods & AUTHM_NULL)) {
		snprintf(
			err->msg, sizeof(err->msg),
			"peer %.100s used NULL authentication (AUTH method 13, RFC 7619), which proves no identity, but the conn wants %s",
			peer->text, allowed(r));
		return -EPERM;
	}
	if (auth_null_compute(sa, !sa->initiator, peer, want, &len, err))
		return -EPERM;
	if (auth->len != len || !equal_ct(want, auth->data, len)) {
		snprintf(
			err->msg, sizeof(err->msg),
			"NULL authentication's AUTH payload of %.100s does not verify with this IKE SA's keys (SK_p)",
			peer->text);
		return -EPERM;
	}
	j->peer_how = "NULL";
	return 0;
}

/* The CERT payloads' certificates, copied for the job. */
static int copy_certs(struct auth_job *j, const struct wire_msg *m,
		      struct ikb_error *err)
{
	const struct wire_payload *p = NULL;
	size_t total = 0, off = 0;

	while ((p = wire_next(m, p, WIRE_PT_CERT))) {
		if (p->u.cert.type != 4) {
			snprintf(
				err->msg, sizeof(err->msg),
				"CERT payload: encoding %u, ikebana takes X.509 certificates (4) only",
				p->u.cert.type);
			return -EPERM;
		}
		total += p->u.cert.len;
	}
	if (total && !(j->certs = malloc(total)))
		return -ENOMEM;
	while ((p = wire_next(m, p, WIRE_PT_CERT)) &&
	       j->ncerts < CRED_CHAIN_MAX) {
		memcpy(j->certs + off, p->u.cert.data, p->u.cert.len);
		j->cert[j->ncerts++] =
			(struct cred_der){ j->certs + off, p->u.cert.len };
		off += p->u.cert.len;
	}
	return 0;
}

static int check_sig_prepare(struct auth_job *j, struct ike_sa *sa,
			     const struct conn_auth *r,
			     const struct ike_id *peer,
			     const struct wire_typed *auth,
			     const struct wire_msg *m, struct ikb_error *err)
{
	int rc;

	if (!(r->methods & AUTHM_SIG)) {
		snprintf(
			err->msg, sizeof(err->msg),
			"peer %.100s signed (AUTH method %u), but the conn wants %s",
			peer->text, auth->type, allowed(r));
		return -EPERM;
	}
	j->peer_auth = malloc(auth->len ? auth->len : 1);
	if (!j->peer_auth)
		return -ENOMEM;
	memcpy(j->peer_auth, auth->data, auth->len);
	j->peer_auth_len = auth->len;
	j->peer_method = auth->type;
	j->peer_id = *peer;
	j->methods = r->methods;
	j->hashes = r->hashes;
	j->peer_cred = cred_get(r->cred);
	if (r->ca_der) {
		if (!(j->ca = malloc(r->ca_len)))
			return -ENOMEM;
		memcpy(j->ca, r->ca_der, r->ca_len);
		j->opts.ca = j->ca;
		j->opts.ca_len = r->ca_len;
	}
	rc = copy_certs(j, m, err);
	if (!rc)
		rc = auth_octets(sa, !sa->initiator, peer, &j->theirs, err);
	j->verify = !rc;
	return rc;
}

int auth_job_check(struct auth_job *j, struct ike_sa *sa,
		   const struct conn_view *v, const struct wire_msg *m,
		   const struct wire_typed *auth, const struct ike_id *peer,
		   struct ikb_error *err)
{
	switch (auth->type) {
	case AUTH_PSK:
		return check_psk(j, sa, &v->remote.auth, peer, auth, err);
	case AUTH_NULL:
		return check_null(j, sa, &v->remote.auth, peer, auth, err);
	case AUTH_RSA_SIG:
	case AUTH_ECDSA_256:
	case AUTH_ECDSA_384:
	case AUTH_ECDSA_521:
	case AUTH_DIGITAL_SIG:
		return check_sig_prepare(j, sa, &v->remote.auth, peer, auth, m,
					 err);
	default:
		snprintf(
			err->msg, sizeof(err->msg),
			"AUTH payload: method %u is not one ikebana implements (2 PSK; 1, 9-11, 14 signatures; 13 NULL)",
			auth->type);
		return -EPERM;
	}
}

/* Helper thread ----------------------------------------------------- */

#define FAIL(...) (snprintf(j->why, sizeof(j->why), __VA_ARGS__), -EPERM)

/* The certificate is rightcert='s, when the conn names one. */
static int pinned(struct auth_job *j)
{
	const struct cred_der *want = &j->peer_cred->chain[0];

	if (j->pc->der_len == want->len &&
	    !memcmp(j->pc->der, want->ptr, want->len))
		return 0;
	return FAIL(
		"certificate \"%.100s\" is not the conn's rightcert=%.60s (\"%.100s\")",
		j->pc->subject, j->peer_cred->nickname, j->peer_cred->subject);
}

static int key_allowed(struct auth_job *j)
{
	unsigned kind = j->pc->key == SIG_KEY_RSA ? AUTHM_RSA :
			j->pc->key == SIG_KEY_EC  ? AUTHM_ECDSA :
						    0;

	if (kind & j->methods)
		return 0;
	return FAIL(
		"certificate \"%.100s\" holds %s key, which the conn does not allow for the peer (authby= or rightauth=)",
		j->pc->subject,
		kind == AUTHM_RSA   ? "an RSA" :
		kind == AUTHM_ECDSA ? "an EC" :
				      "an unsupported");
}

/* The AUTH payload, with a copy of the peer's key (what: for messages). */
static int signature(struct auth_job *j, struct SECKEYPublicKeyStr *pub,
		     const char *what)
{
	struct cbytes iov = CBYTES(j->theirs.buf, j->theirs.len);
	struct crypto_err cerr = { 0 };
	const struct sig_scheme_info *i;
	enum sig_scheme used;
	char names[64];
	int rc = pub ? sig_verify(pub, j->peer_method, j->peer_auth,
				  j->peer_auth_len, &iov, 1, &used, &cerr) :
		       -ENOMEM;

	peer_cert_key_free(pub);
	j->fail_kind = IKE_FAIL_AUTH; /* the certificate, if any, passed */
	if (rc)
		return FAIL("peer %.100s, %.120s: %s", j->peer_id.text, what,
			    pub ? cerr.msg : "out of memory");
	i = sig_scheme(used);
	if (!(j->hashes & SIG_HASH_BIT(i->hash))) {
		hash_names(j->hashes, names, sizeof(names));
		return FAIL(
			"peer %.100s signed with %s, a hash the conn does not accept (it takes %s)",
			j->peer_id.text, i->name, names);
	}
	j->peer_how = i->name;
	return 0;
}

/* rightrsasigkey=: the signature is the whole check (the ID is rightid='s). */
static int check_raw(struct auth_job *j)
{
	if (!(j->methods & AUTHM_RSA))
		return FAIL(
			"peer %.100s: rightrsasigkey= is an RSA key, which the conn does not allow for the peer (authby= or rightauth=)",
			j->peer_id.text);
	if (j->peer_method != AUTH_RSA_SIG &&
	    j->peer_method != AUTH_DIGITAL_SIG)
		return FAIL(
			"peer %.100s signed with AUTH method %u, but rightrsasigkey= is an RSA key",
			j->peer_id.text, j->peer_method);
	return signature(j, SECKEY_CopyPublicKey(j->peer_cred->pub),
			 "rightrsasigkey=");
}

static int check_peer(struct auth_job *j)
{
	const struct cred_der *certs = j->cert;
	size_t n = j->ncerts;
	char why[240], what[140];
	bool digest;

	j->fail_kind = IKE_FAIL_CERT; /* until signature() */
	if (j->peer_cred && !j->peer_cred->cert)
		return check_raw(j);
	if (!n && j->peer_cred) {
		certs = j->peer_cred->chain;
		n = 1;
	}
	if (!n)
		return FAIL(
			"peer %.100s sent no certificate (CERT payload), and the conn names none (rightcert=)",
			j->peer_id.text);
	digest = !cert_chain_digest(certs, n, &j->opts, j->digest);
	if (digest)
		j->cached = (j->pc = cert_cache_find(j->digest)) != NULL;
	if (!j->pc &&
	    cert_verify(certs, n, &j->opts, &j->pc, j->why, sizeof(j->why)))
		return -EPERM;
	if (digest && !j->cached) /* NSS passed the chain: keep that */
		cert_cache_add(j->digest, j->pc);
	if (j->peer_cred && pinned(j))
		return -EPERM;
	if (cert_id_check(j->pc->der, j->pc->der_len, j->peer_id.type,
			  j->peer_id.data, j->peer_id.len, why, sizeof(why)))
		return FAIL("certificate \"%.100s\": %s", j->pc->subject, why);
	if (key_allowed(j))
		return -EPERM;
	snprintf(what, sizeof(what), "certificate \"%.100s\"", j->pc->subject);
	return signature(j, peer_cert_key(j->pc), what);
}

static void run(void *arg)
{
	struct auth_job *j = arg;
	struct cbytes iov = CBYTES(j->mine.buf, j->mine.len);
	struct crypto_err cerr = { 0 };

	if (j->verify && (j->rc = check_peer(j)))
		return;
	if (j->cred &&
	    (j->rc = sig_sign(j->cred->priv, j->scheme, &iov, 1, j->data,
			      sizeof(j->data), &j->len, &cerr)))
		snprintf(j->why, sizeof(j->why), "signing with %.60s: %s",
			 j->cred->nickname, cerr.msg);
}

/* Loop ---------------------------------------------------------------- */

static void done(struct ike_sa *sa, void *arg, int status)
{
	struct auth_job *j = arg;

	if (status && !j->rc) {
		j->rc = status;
		snprintf(j->why, sizeof(j->why), "authentication cancelled");
	}
	j->then(sa, j);
}

void auth_job_start(struct ike_sa *sa, struct auth_job *j, auth_then_fn *then)
{
	j->then = then;
	if (!j->verify && !j->cred) {
		then(sa, j);
		return;
	}
	if (sa_job_start(sa, run, done, j)) {
		j->rc = -ENOMEM;
		snprintf(j->why, sizeof(j->why), "out of memory");
		then(sa, j);
	}
}
