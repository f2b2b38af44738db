// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The key exchanges of CREATE_CHILD_SA (PFS, IKE SA rekey) run on the
 * helper pool, as IKE_SA_INIT's do (keys.c): a MODP operation costs a
 * few milliseconds, and 1,000 rekeys at once would hold the loop for
 * seconds, retransmits and DPD included. Each exchange handler is split
 * in two around kex_start(); the second half runs on the loop when the
 * job is done, and not at all once the IKE SA is gone.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "crypto/crypto.h"
#include "ike/conn/conn.h"
#include "ike/engine.h"
#include "ike/exchange/exchange.h"

#define KE_RETRIES_MAX 3

bool ke_retry(struct ke_retry *r, const struct wire_notify *n, uint16_t sent,
	      const struct ikb_proposal_list *offered)
{
	uint16_t g;

	if (n->type != WIRE_N_INVALID_KE_PAYLOAD || n->len != 2)
		return false;
	g = (uint16_t)(n->data[0] << 8 | n->data[1]);
	if (g == sent || (offered && !prop_list_has_group(offered, g)) ||
	    r->tries >= KE_RETRIES_MAX)
		return false;
	r->tries++;
	r->group = g;
	return true;
}

bool ke_retry_conn(struct ike_sa *sa, struct ke_retry *r,
		   const struct wire_notify *n, uint16_t sent, bool esp)
{
	const struct conn *conn = engine_conn(sa->e, sa->conn);
	struct ikb_proposal_list *l = calloc(1, sizeof(*l));
	struct ikb_error err = { "" };
	bool again = false;
	uint16_t g;

	if (l && conn &&
	    !(esp ? child_pfs_list(sa, conn, l, &g, &err) :
		    conn_proposals(conn, IKB_PROTO_IKE, l, &err)))
		again = ke_retry(r, n, sent, l);
	free(l);
	return again;
}

int kex_pair(struct ke **ke, uint16_t group, struct ikb_error *err)
{
	struct crypto_err cerr = { 0 };
	int rc;

	ke_free(*ke);
	*ke = NULL;
	rc = ke_generate(ke, group, &cerr);
	if (rc)
		snprintf(err->msg, sizeof(err->msg), "KE group %u: %s", group,
			 cerr.msg);
	return rc;
}

int kex_gir(struct ke *ke, const struct wire_ke *peer, struct secret *gir,
	    struct ikb_error *err)
{
	struct crypto_err cerr = { 0 };
	int rc;

	if (!ke || !peer || peer->group != ke_group(ke)) {
		snprintf(err->msg, sizeof(err->msg),
			 "KE payload: group %u, we use %u",
			 peer ? peer->group : 0, ke ? ke_group(ke) : 0);
		return -EBADMSG;
	}
	rc = ke_derive(ke, CBYTES(peer->data, peer->len), gir, &cerr);
	if (rc)
		snprintf(err->msg, sizeof(err->msg), "KE payload: %s",
			 cerr.msg);
	return rc;
}

struct kex_job {
	kex_then_fn *then;
	void *arg;
	uint16_t group, peer_group;
	uint8_t *peer; /* the peer's public value, a copy */
	size_t peer_len;
	struct kex_result res;
};

/* On a helper thread: nothing of the loop's is touched. */
static void kex_run(void *arg)
{
	struct kex_job *j = arg;
	struct ikb_error err = { "" };
	struct wire_ke peer = { j->peer_group, j->peer, j->peer_len };

	if (!j->res.ke)
		j->res.rc = kex_pair(&j->res.ke, j->group, &err);
	if (!j->res.rc && j->peer)
		j->res.rc = kex_gir(j->res.ke, &peer, &j->res.gir, &err);
	if (j->res.rc)
		snprintf(j->res.why, sizeof(j->res.why), "%s", err.msg);
}

static void kex_free(struct kex_job *j)
{
	ke_free(j->res.ke); /* what then() did not take */
	secret_free(&j->res.gir);
	free(j->peer);
	secret_wipe(j, sizeof(*j));
	free(j);
}

static void kex_done(struct ike_sa *sa, void *arg, int status)
{
	struct kex_job *j = arg;

	if (status && !j->res.rc) {
		j->res.rc = status;
		snprintf(j->res.why, sizeof(j->res.why),
			 "key exchange cancelled");
	}
	j->then(sa, j->arg, &j->res);
	kex_free(j);
}

int kex_start(struct ike_sa *sa, uint16_t group, struct ke *ours,
	      const struct wire_ke *peer, kex_then_fn *then, void *arg,
	      struct ikb_error *err)
{
	struct kex_job *j = calloc(1, sizeof(*j));

	if (j && peer && !(j->peer = malloc(peer->len ? peer->len : 1))) {
		free(j);
		j = NULL;
	}
	if (!j) {
		snprintf(err->msg, sizeof(err->msg), "out of memory");
		return -ENOMEM;
	}
	if (peer) {
		memcpy(j->peer, peer->data, peer->len);
		j->peer_len = peer->len;
		j->peer_group = peer->group;
	}
	j->group = group;
	j->then = then;
	j->arg = arg;
	j->res.ke = ours; /* the job owns our key pair while it runs */
	if (sa_job_start(sa, kex_run, kex_done, j)) {
		j->res.ke = NULL; /* still the caller's */
		kex_free(j);
		snprintf(err->msg, sizeof(err->msg), "out of memory");
		return -ENOMEM;
	}
	return 0;
}
