// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * config setup's revocation keys (crl-strict=, ocsp-*=) for the crypto
 * layer, whose NSS settings are process-wide: applied when the daemon
 * starts and at each reload, before the conns compile. The values were
 * checked when the configuration loaded (config/values_ocsp.c).
 */
#include <stdio.h>
#include <stdlib.h>
#include <strings.h>

#include "app/daemon.h"
#include "app/revocation_conf.h"
#include "config/config.h"
#include "crypto/revocation.h"
#include "log/log.h"

static void text(char *out, size_t len, const struct ikb_value *v)
{
	snprintf(out, len, "%s", v ? v->value : "");
}

static void read_opts(const struct loaded_conf *lc, struct revocation_opts *o)
{
	const struct cfg_setup *set = &lc->cfg->set;

	revocation_defaults(o);
	o->crl_strict = set->crl_strict;
	o->ocsp = set->ocsp_enable;
	o->ocsp_strict = set->ocsp_strict;
	o->ocsp_post = set->ocsp_post;
	o->ocsp_timeout_s = set->ocsp_timeout_s;
	text(o->ocsp_uri, sizeof(o->ocsp_uri), set->ocsp_uri);
	text(o->ocsp_trustname, sizeof(o->ocsp_trustname), set->ocsp_trustname);
	o->cache_size = set->ocsp_cache_size;
	o->cache_min_s = set->ocsp_cache_min_s;
	o->cache_max_s = set->ocsp_cache_max_s;
}

void ikbd_revocation_apply(const struct loaded_conf *lc)
{
	struct revocation_opts o, was;
	struct crypto_err err = { 0 };

	read_opts(lc, &o);
	revocation_get(&was);
	if (revocation_set(&o, &err))
		log_err("%s", err.msg);
	if (o.ocsp == was.ocsp && o.ocsp_strict == was.ocsp_strict &&
	    o.crl_strict == was.crl_strict)
		return;
	if (!o.ocsp)
		log_info(
			"certificates are checked against the CRLs in the NSS database%s; no OCSP",
			o.crl_strict ?
				", which must have a current one of each issuer (crl-strict=yes)" :
				"");
	else
		log_info(
			"certificates are checked against the CRLs in the NSS database%s and by OCSP (%s, %u s per request%s%s)",
			o.crl_strict ? " (crl-strict=yes)" : "",
			o.ocsp_strict ?
				"strict: no good answer, no SA" :
				"an answer that cannot be had is no refusal",
			o.ocsp_timeout_s, o.ocsp_uri[0] ? ", responder " : "",
			o.ocsp_uri);
}
