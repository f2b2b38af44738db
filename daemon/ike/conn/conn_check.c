// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * checkconfig's certificate checks (conn_check.h): the engine's own
 * parsing of authby= and leftauth= (conn_auth_parse), its loading of a
 * certificate (cred_load) and check of the key against the methods
 * (conn_auth_check_key), and what the engine leaves to the exchange: is
 * leftid= in leftcert= (cert_id_check, as a peer would check it).
 */
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "config/config.h"
#include "config/diag.h"
#include "crypto/cert_id.h"
#include "crypto/cred.h"
#include "ike/conn/conn.h"
#include "ike/engine.h"
#include "ike/conn/conn_check.h"

struct end_check {
	const char *side; /* "left", "right" */
	const struct ikb_value *cert; /* leftcert=, NULL: none */
	struct conn_end end;
	bool found; /* the certificate is in the database */
	bool key; /* and its private key */
};

static bool ignored(const struct ikb_section *s)
{
	const struct ikb_value *a = cfg_get(s, "auto");

	return a && !strcasecmp(a->value, "ignore");
}

bool conn_check_wants_certs(const struct cfg *cfg)
{
	if (cfg->set.ocsp_trustname)
		return true; /* the OCSP responder's signer */
	for (size_t i = 0; i < cfg->nconns; i++)
		if (!ignored(&cfg->conns[i]) &&
		    (cfg_get(&cfg->conns[i], "leftcert") ||
		     cfg_get(&cfg->conns[i], "rightcert")))
			return true;
	return false;
}

static void load(const struct ikb_section *s, struct end_check *e, bool keys,
		 const char *dir, struct ikb_diag *d)
{
	const struct ikb_value *id = conn_end_key(s, e->side, "id");
	struct crypto_err cerr = { 0 };
	struct cred *c;

	memset(&e->end, 0, sizeof(e->end));
	e->end.id = id ? id->value : NULL;
	conn_auth_parse(s, e->side, &e->end);
	e->cert = conn_end_key(s, e->side, "cert");
	if (!e->cert)
		return;
	if (cred_load(e->cert->value, false, &e->end.auth.cred, &cerr)) {
		diag_report(d, s, e->cert, IKB_SEV_ERROR, "%s", cerr.msg);
		return;
	}
	e->found = true;
	if (!keys || cred_load(e->cert->value, true, &c, &cerr))
		return;
	e->key = true;
	cred_put(c);
	diag_report(d, s, e->cert, IKB_SEV_NOTICE,
		    "its private key is in %s: this host can be %s", dir,
		    e->side);
}

/* The engine's check, at leftauth= or authby= when one is set. */
static void check_key(const struct ikb_section *s, const struct end_check *e,
		      struct ikb_diag *d)
{
	const struct ikb_value *at = conn_end_key(s, e->side, "auth");
	struct ikb_error err = { "" };

	if (!at)
		at = cfg_get(s, "authby");
	if (conn_auth_check_key(&e->end, e->side, &err))
		diag_report(d, s, at ? at : e->cert, IKB_SEV_ERROR, "%s",
			    err.msg);
}

/* leftid= must be in leftcert=; %fromcert and none take its subject. */
static void check_id(const struct ikb_section *s, const struct end_check *e,
		     struct ikb_diag *d)
{
	const struct ikb_value *at = conn_end_key(s, e->side, "id");
	const struct cred_der *der = &e->end.auth.cred->chain[0];
	struct ikb_error err = { "" };
	struct ike_id id;
	char why[512] = "";

	if (!at || e->end.auth.fromcert || !strcmp(at->value, "%any"))
		return;
	if (id_local(&e->end, &id, &err)) {
		diag_report(d, s, at, IKB_SEV_ERROR, "%s", err.msg);
		return;
	}
	if (cert_id_check(der->ptr, der->len, id.type, id.data, id.len, why,
			  sizeof(why)))
		diag_report(d, s, at, IKB_SEV_ERROR, "not in %scert=%s: %s",
			    e->side, e->cert->value,
			    why[0] ? why : "the certificate cannot be read");
}

static void date(time_t t, char *buf, size_t len)
{
	struct tm tm;

	if (!gmtime_r(&t, &tm) ||
	    !strftime(buf, len, "%Y-%m-%dT%H:%M:%SZ", &tm))
		snprintf(buf, len, "?");
}

static void check_dates(const struct ikb_section *s, const struct end_check *e,
			struct ikb_diag *d)
{
	const struct cred *c = e->end.auth.cred;
	time_t now = time(NULL);
	char from[32], to[32];

	if (now >= c->not_before && now <= c->not_after)
		return;
	date(c->not_before, from, sizeof(from));
	date(c->not_after, to, sizeof(to));
	diag_report(d, s, e->cert, IKB_SEV_WARNING,
		    "the certificate is %s: valid from %s to %s",
		    now < c->not_before ? "not yet valid" : "expired", from,
		    to);
}

/* This host is one of the ends: it needs that end's key, or a PSK. */
static void check_local(const struct ikb_section *s, const struct end_check *e,
			const char *dir, struct ikb_diag *d)
{
	const struct ikb_value *at = e[0].cert ? e[0].cert : e[1].cert;

	for (int i = 0; i < 2; i++)
		if (e[i].key ||
		    (e[i].end.auth.methods & (AUTHM_PSK | AUTHM_NULL)) ||
		    (e[i].cert && !e[i].found))
			return; /* a missing one is reported already */
	if (e[0].cert && e[1].cert)
		diag_at(d, IKB_SEV_ERROR, at->file, at->line,
			"conn %s: neither leftcert=%s nor rightcert=%s has its private key in %s: this host could not authenticate",
			s->name, e[0].cert->value, e[1].cert->value, dir);
	else
		diag_at(d, IKB_SEV_ERROR, at->file, at->line,
			"conn %s: %scert=%s does not have its private key in %s, and %scert= is not set: this host could not authenticate",
			s->name, e[0].cert ? "left" : "right", at->value, dir,
			e[0].cert ? "right" : "left");
}

static void check_conn(const struct ikb_section *s, const char *dir, bool keys,
		       struct ikb_diag *d)
{
	struct end_check e[2] = { { .side = "left" }, { .side = "right" } };

	for (int i = 0; i < 2; i++) {
		load(s, &e[i], keys, dir, d);
		if (!e[i].found)
			continue;
		check_key(s, &e[i], d);
		check_id(s, &e[i], d);
		check_dates(s, &e[i], d);
	}
	if (keys && (e[0].cert || e[1].cert))
		check_local(s, e, dir, d);
	for (int i = 0; i < 2; i++)
		conn_auth_free(&e[i].end);
}

/* ocsp-trustname=: the daemon trusts no answer of ocsp-uri= without it. */
static void check_ocsp_signer(const struct cfg *cfg, struct ikb_diag *d)
{
	const struct ikb_value *v = cfg->set.ocsp_trustname;
	struct crypto_err cerr = { 0 };
	struct cred *c = NULL;

	if (!v)
		return;
	if (cred_load(v->value, false, &c, &cerr))
		diag_report(
			d, &cfg->setup, v, IKB_SEV_ERROR,
			"%s: no answer of ocsp-uri= could be trusted (ikebana import --ca FILE adds it)",
			cerr.msg);
	cred_put(c);
}

void conn_check_certs(const struct cfg *cfg, const char *dir, bool keys,
		      struct ikb_diag *d)
{
	check_ocsp_signer(cfg, d);
	for (size_t i = 0; i < cfg->nconns; i++)
		if (!ignored(&cfg->conns[i]))
			check_conn(&cfg->conns[i], dir, keys, d);
}
