// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The esp-proposals plugin descriptor: owns ike=, esp= (and libreswan's
 * older phase2alg= alias), validates them when the configuration loads, and
 * fills the proposals hook table. pfs= belongs to the core (it decides
 * whether CREATE_CHILD_SA carries a KE); it is only read here.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <ikebana/plugin.h>

#include "esp_proposals.h"

/*
 * The defaults are parsed once per protocol: every conn without ike= or
 * esp= asks for them when it is compiled, and a reload of 10,000 conns
 * would parse the same string 20,000 times.
 */
struct epr_state {
	const struct ikb_host *host;
	struct ikb_proposal_list defaults[2]; /* IKE, ESP */
	bool have_defaults[2];
};

static int epr_init(const struct ikb_host *host, void **state)
{
	struct epr_state *s = calloc(1, sizeof(*s));

	if (!s)
		return -ENOMEM;
	s->host = host;
	*state = s;
	return 0;
}

static void epr_fini(void *state)
{
	free(state);
}

static int check_one(const struct ikb_host *h, const struct ikb_section *conn,
		     struct ikb_diag *d, const char *key,
		     enum ikb_protocol proto, struct ikb_proposal_list *out,
		     const struct ikb_value **at)
{
	struct ikb_error err;

	*at = h->get(conn, key);
	if (!*at || !(*at)->value)
		return 0;
	if (epr_parse(proto, (*at)->value, out, &err) == 0)
		return 0;
	h->report(d, conn, *at, IKB_SEV_ERROR, "%s", err.msg);
	return -1;
}

/*
 * pfs= is the core's key: read with the core's own yes/no parser, so
 * that pfs=off and pfs=false are the no they are to the core.
 */
static bool pfs_off(const struct ikb_host *h, const struct ikb_section *conn)
{
	const struct ikb_value *pfs = h->get(conn, "pfs");
	bool on = true;

	/* The core validates pfs= itself and reports a bad value. */
	if (!pfs || !pfs->value || !IKB_HOST_HAS(h, parse_bool))
		return false;
	return h->parse_bool(pfs->value, &on) && !on;
}

/* libreswan: pfs=no with a group in esp= ignores the group, and warns. */
static int check_pfs(const struct ikb_host *h, const struct ikb_section *conn,
		     struct ikb_diag *d, const struct ikb_value *esp,
		     const struct ikb_proposal_list *l)
{
	if (esp && pfs_off(h, conn) && epr_list_has_ke(l))
		h->report(d, conn, esp, IKB_SEV_WARNING,
			  "%s=%s: the key exchange groups are ignored because "
			  "pfs=%s (as libreswan does); remove them or set "
			  "pfs=yes",
			  esp->key, esp->value, h->get(conn, "pfs")->value);
	return 0;
}

static int epr_check_conn(void *state, const struct ikb_section *conn,
			  struct ikb_diag *d)
{
	const struct ikb_host *h = ((struct epr_state *)state)->host;
	struct ikb_proposal_list ike, esp, p2;
	const struct ikb_value *at_ike, *at_esp, *at_p2;
	int r = 0;

	r |= check_one(h, conn, d, "ike", IKB_PROTO_IKE, &ike, &at_ike);
	r |= check_one(h, conn, d, "esp", IKB_PROTO_ESP, &esp, &at_esp);
	r |= check_one(h, conn, d, "phase2alg", IKB_PROTO_ESP, &p2, &at_p2);
	if (at_esp && at_p2)
		h->report(d, conn, at_p2, IKB_SEV_WARNING,
			  "phase2alg= is an old name for esp=, which is also "
			  "set; esp= wins");
	if (r == 0 && (at_esp || !at_p2))
		r |= check_pfs(h, conn, d, at_esp, &esp);
	else if (r == 0)
		r |= check_pfs(h, conn, d, at_p2, &p2);
	return r ? -1 : 0;
}

/* esp= wins over its old name phase2alg= (check_conn warns of both). */
static const struct ikb_value *esp_value(const struct ikb_host *h,
					 const struct ikb_section *conn)
{
	const struct ikb_value *v = h->get(conn, "esp");

	return v ? v : h->get(conn, "phase2alg");
}

static int op_defaults(void *state, enum ikb_protocol protocol,
		       struct ikb_proposal_list *out);

static int op_conn_proposals(void *state, const struct ikb_section *conn,
			     enum ikb_protocol protocol,
			     struct ikb_proposal_list *out,
			     struct ikb_error *err)
{
	const struct ikb_host *h = ((struct epr_state *)state)->host;
	const struct ikb_value *v = protocol == IKB_PROTO_IKE ?
					    h->get(conn, "ike") :
					    esp_value(h, conn);

	if (v && v->value)
		return epr_parse(protocol, v->value, out, err);
	if (op_defaults(state, protocol, out)) {
		snprintf(err->msg, sizeof(err->msg),
			 "esp-proposals has no default %s proposals",
			 protocol == IKB_PROTO_IKE ? "IKE" : "ESP");
		return -EINVAL;
	}
	return 0;
}

static int op_parse(void *state, enum ikb_protocol protocol, const char *spec,
		    struct ikb_proposal_list *out, struct ikb_error *err)
{
	return epr_parse(protocol, spec, out, err);
}

static int op_defaults(void *state, enum ikb_protocol protocol,
		       struct ikb_proposal_list *out)
{
	struct epr_state *s = state;
	int i = protocol == IKB_PROTO_IKE ? 0 : 1;

	if (!s || (protocol != IKB_PROTO_IKE && protocol != IKB_PROTO_ESP))
		return epr_defaults(protocol, out);
	if (!s->have_defaults[i]) {
		int r = epr_defaults(protocol, &s->defaults[i]);

		if (r)
			return r;
		s->have_defaults[i] = true;
	}
	*out = s->defaults[i];
	return 0;
}

static int op_select(void *state, const struct ikb_proposal_list *ours,
		     const struct ikb_proposal_list *offered,
		     struct ikb_proposal *chosen, unsigned *chosen_num,
		     struct ikb_error *err)
{
	return epr_select(ours, offered, chosen, chosen_num, err);
}

static int op_kernel_algs(void *state, const struct ikb_proposal *chosen,
			  struct ikb_sa *sa, struct ikb_error *err)
{
	return epr_kernel_algs(chosen, sa, err);
}

static const struct ikb_proposals_ops epr_ops = {
	IKB_OPS_SIZE(struct ikb_proposals_ops),
	.parse = op_parse,
	.defaults = op_defaults,
	.select = op_select,
	.kernel_algs = op_kernel_algs,
	.conn_proposals = op_conn_proposals,
};

static const struct ikb_key epr_keys[] = {
	{ "ike", IKB_KEY_CONN,
	  "IKE proposals: ENCR[-PRF][-KE] or ENCR[-PRF];KE, ',' between "
	  "proposals, '+' between alternatives (e.g. aes_gcm256-sha2_256-dh19)" },
	{ "esp", IKB_KEY_CONN,
	  "ESP proposals: ENCR[-INTEG][-KE], ',' between proposals, '+' "
	  "between alternatives (e.g. aes_gcm256 or aes256-sha2_256)" },
	{ "phase2alg", IKB_KEY_CONN, "the same as esp=" },
	{ NULL, 0, NULL },
};

IKB_PLUGIN_EXPORT const struct ikb_plugin ikb_plugin = {
	IKB_PLUGIN_INIT,
	.name = "esp-proposals",
	.summary = "esp= and ike= proposals: syntax, defaults, negotiation, "
		   "kernel algorithm names",
	.keys = epr_keys,
	.init = epr_init,
	.fini = epr_fini,
	.check_conn = epr_check_conn,
	.proposals = &epr_ops,
};
