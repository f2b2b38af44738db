// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Checks of config setup's OCSP keys (daemon/revocation.c reads them),
 * and of the pair ocsp-uri= and ocsp-trustname=, which mean nothing
 * apart: NSS trusts the default responder's answers only when they are
 * signed by the certificate ocsp-trustname= names.
 */
#include <string.h>
#include <strings.h>

#include "config/diag.h"
#include "config/internal.h"
#include "config/values.h"

bool check_ocsp_timeout(const char *v, char *why, size_t len)
{
	unsigned long long ms;

	if (!cfg_parse_duration_ms(v, &ms))
		FAIL("expected a duration: seconds, or a number with s or m (e.g. 2, 5s)");
	if (ms < 1000 || ms > 120000)
		FAIL("expected 1 to 120 seconds: each OCSP request holds a helper thread that long at most");
	return true;
}

/* NSS's OCSP client speaks HTTP/1.0 only; OCSP answers are signed. */
bool check_ocsp_uri(const char *v, char *why, size_t len)
{
	const char *host = v + strlen("http://");

	if (!strncasecmp(v, "https://", 8))
		FAIL("NSS's OCSP client speaks plain HTTP only (OCSP answers are signed): use an http:// URI");
	if (strncasecmp(v, "http://", 7) || !*host || *host == '/')
		FAIL("expected an http:// URI with a host, e.g. http://ocsp.example.com/");
	return true;
}

bool check_ocsp_method(const char *v, char *why, size_t len)
{
	if (!strcasecmp(v, "get") || !strcasecmp(v, "post"))
		return true;
	FAIL("expected get or post");
}

/* Keys that need another: an error where the result would be weaker. */
void cfg_check_ocsp(const struct ikb_section *s, struct ikb_diag *d)
{
	const struct ikb_value *uri = cfg_get(s, "ocsp-uri");
	const struct ikb_value *name = cfg_get(s, "ocsp-trustname");
	const struct ikb_value *on = cfg_get(s, "ocsp-enable");
	bool yes = false;
	static const char *const needs_on[] = {
		"ocsp-strict",	"ocsp-uri",    "ocsp-trustname",
		"ocsp-timeout", "ocsp-method", NULL
	};

	if (uri && !name)
		diag_report(
			d, s, uri, IKB_SEV_ERROR,
			"needs ocsp-trustname=, the nickname of the certificate that signs the responder's answers: without it none can be trusted");
	if (name && !uri)
		diag_report(d, s, name, IKB_SEV_ERROR,
			    "needs ocsp-uri=, the responder it signs for");
	if (on && cfg_parse_bool(on->value, &yes) && yes)
		return;
	for (size_t i = 0; needs_on[i]; i++) {
		const struct ikb_value *v = cfg_get(s, needs_on[i]);

		if (v)
			diag_report(
				d, s, v, IKB_SEV_WARNING,
				"has no effect without ocsp-enable=yes: certificates are checked against the CRLs in the NSS database only");
	}
}
