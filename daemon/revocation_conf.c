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

#include "config/config.h"
#include "crypto/revocation.h"
#include "daemon.h"
#include "log.h"
#include "revocation_conf.h"

static const char *value(const struct loaded_conf *lc, const char *key)
{
	const struct ikb_value *v = cfg_get(&lc->cfg->setup, key);

	return v ? v->value : NULL;
}

static bool yes(const struct loaded_conf *lc, const char *key)
{
	const char *v = value(lc, key);
	bool b = false;

	return v && cfg_parse_bool(v, &b) && b;
}

static unsigned seconds(const struct loaded_conf *lc, const char *key,
			unsigned dflt)
{
	const char *v = value(lc, key);
	unsigned long long ms;

	return v && cfg_parse_duration_ms(v, &ms) ? (unsigned)(ms / 1000) :
						    dflt;
}

static void read_opts(const struct loaded_conf *lc, struct revocation_opts *o)
{
	const char *v;

	revocation_defaults(o);
	o->crl_strict = yes(lc, "crl-strict");
	o->ocsp = yes(lc, "ocsp-enable");
	o->ocsp_strict = yes(lc, "ocsp-strict");
	v = value(lc, "ocsp-method");
	o->ocsp_post = v && !strcasecmp(v, "post");
	o->ocsp_timeout_s = seconds(lc, "ocsp-timeout", o->ocsp_timeout_s);
	if ((v = value(lc, "ocsp-uri")))
		snprintf(o->ocsp_uri, sizeof(o->ocsp_uri), "%s", v);
	if ((v = value(lc, "ocsp-trustname")))
		snprintf(o->ocsp_trustname, sizeof(o->ocsp_trustname), "%s", v);
	if ((v = value(lc, "ocsp-cache-size")))
		o->cache_size = (unsigned)strtoul(v, NULL, 10);
	o->cache_min_s = seconds(lc, "ocsp-cache-min-age", o->cache_min_s);
	o->cache_max_s = seconds(lc, "ocsp-cache-max-age", o->cache_max_s);
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
