// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The words of `ikebana explain`: for the newest failure of the conn, one
 * "cause:" that says what did not meet, the two sides as the record has
 * them, and one "fix:" that names the key to change, here or on the
 * peer; then the earlier failures, one line each. One function per kind
 * of failure (ike_failure.h); what they print is what the scenarios of
 * issue 20 check, so change both together.
 */
#include <stdio.h>
#include <string.h>
#include <json-c/json.h>

#include "cli/explain.h"

/* One failure record and the conn's keys, as strings ("" when null). */
struct fx {
	FILE *f;
	const char *kind, *role, *exch, *remote, *auth, *peer, *local, *closest,
		*detail, *sent, *received;
	int retransmits;
	char host[64]; /* remote without its port: "the peer" in words */
	struct json_object *keys;
};

static const char *str(struct json_object *o, const char *k)
{
	struct json_object *v;

	return o && json_object_object_get_ex(o, k, &v) && v ?
		       json_object_get_string(v) :
		       "";
}

static bool initiator(const struct fx *x)
{
	return !strcmp(x->role, "initiator");
}

/* both: the two sides too, when the cause did not already say them */
static void sides(const struct fx *x, bool both)
{
	if (both && x->peer[0])
		fprintf(x->f, "  %s %s: %s\n", x->host,
			initiator(x) ? "answered" : "offered", x->peer);
	if (both && x->local[0])
		fprintf(x->f, "  this conn %s: %s\n",
			initiator(x) ? "offered" : "accepts", x->local);
	if (x->closest[0])
		fprintf(x->f, "  closest pair differs in %s\n", x->closest);
}

static void proposal(const struct fx *x, const char *key)
{
	char want[160];

	if (!initiator(x) && x->peer[0]) {
		explain_spelling(x->peer, want, sizeof(want));
		fprintf(x->f,
			"cause: %s offered only %s for %s; this conn accepts %s\n",
			x->host, x->peer, !strcmp(key, "ike") ? "IKE" : "ESP",
			x->local);
		sides(x, false);
		fprintf(x->f,
			"fix: add %s to %s= here, or one of this conn's proposals to %s's %s proposals\n",
			want, key, x->host, key);
		return;
	}
	fprintf(x->f, "cause: %s answered %s to %s: it accepts none of %s\n",
		x->host, x->received[0] ? x->received : "an error", x->exch,
		x->local[0] ? x->local : "this conn's proposals");
	sides(x, false);
	fprintf(x->f,
		"fix: give %s= here and %s's %s proposals one proposal in common (encryption, integrity or PRF, DH group)\n",
		key, x->host, key);
}

static void k_ike(const struct fx *x)
{
	proposal(x, "ike");
}

static void k_esp(const struct fx *x)
{
	if (strstr(x->detail, "mode")) {
		fprintf(x->f, "cause: %s\n", x->detail);
		fprintf(x->f,
			"fix: set type= the same (tunnel or transport) here and on %s\n",
			x->host);
		return;
	}
	proposal(x, "esp");
}

static void k_pfs(const struct fx *x)
{
	if (initiator(x))
		fprintf(x->f,
			"cause: %s refused the Child SA's CREATE_CHILD_SA with %s, having taken the same ESP proposals without a key exchange in IKE_AUTH: it does not do PFS with this conn's DH group\n",
			x->host, x->received[0] ? x->received : "an error");
	else
		fprintf(x->f,
			"cause: the PFS group of the Child SA's CREATE_CHILD_SA: %s offered a key exchange this conn's esp= does not take (or none where it wants one)\n",
			x->host);
	sides(x, true);
	fprintf(x->f,
		"fix: use the same DH group for PFS on both ends (a group at the end of esp= here, e.g. esp=aes_gcm128-dh19, and the same on %s, strongSwan: esp_proposals = aes128gcm16-ecp256), or none on either (pfs=no here)\n",
		x->host);
}

static void k_ts(const struct fx *x)
{
	if (initiator(x))
		fprintf(x->f,
			"cause: %s answered TS_UNACCEPTABLE: it does not allow the traffic selectors this conn asked for\n",
			x->host);
	else
		fprintf(x->f,
			"cause: %s asked for traffic selectors this conn does not allow\n",
			x->host);
	sides(x, true);
	fprintf(x->f,
		"fix: make leftsubnet=/rightsubnet= (and leftprotoport=/rightprotoport=) here the mirror of %s's: its left is its own side, its right this host's\n",
		x->host);
}

static void k_id(const struct fx *x)
{
	const char *want = str(x->keys, "rightid");

	fprintf(x->f, "cause: %s presented the ID %s; this conn expects %s\n",
		x->host, x->peer, x->local[0] ? x->local : "another");
	fprintf(x->f, "fix: set rightid=%s here%s%s%s, or leftid=%s on %s\n",
		x->peer, want[0] ? " (now rightid=" : "", want,
		want[0] ? ")" : "", x->local[0] ? x->local : "...", x->host);
}

static void k_auth(const struct fx *x)
{
	fprintf(x->f, "cause: %s\n", x->detail[0] ? x->detail : x->kind);
	if (strstr(x->detail, "wrong PSK"))
		fprintf(x->f,
			"  with a PSK this is all the protocol can tell: the AUTH payload was made with another secret (or other IDs) than this end's\n"
			"fix: make the PSK for this pair of IDs the same in the secrets file here and on %s\n",
			x->host);
	else if (strstr(x->detail, "no PSK"))
		fprintf(x->f,
			"fix: add a line for the two IDs to the secrets file (ID ID : PSK \"...\"), the same as on %s\n",
			x->host);
	else if (strstr(x->detail, "the conn wants") ||
		 strstr(x->detail, "does not allow"))
		fprintf(x->f,
			"fix: make authby= (or leftauth=/rightauth=) agree here and on %s\n",
			x->host);
	else
		fprintf(x->f,
			"fix: check %s's key and certificate against rightcert=/rightrsasigkey= and rightca= here\n",
			x->host);
}

static void k_peer_auth(const struct fx *x)
{
	const char *lid = str(x->keys, "leftid");

	fprintf(x->f,
		"cause: %s answered AUTHENTICATION_FAILED to IKE_AUTH: it could not verify this end (a PSK that differs, an ID it does not expect, or a certificate it refused); it does not say which\n",
		x->host);
	fprintf(x->f,
		"fix: look in %s's log for the reason; check that its rightid= is this conn's leftid=%s and, with PSKs, that both secrets files hold the same secret\n",
		x->host, lid[0] ? lid : " (the address when unset)");
}

static void k_cert(const struct fx *x)
{
	const char *d = x->detail;

	fprintf(x->f, "cause: the certificate of %s was refused: %s\n", x->host,
		d);
	if (strstr(d, "xpired") || strstr(d, "not yet valid"))
		fprintf(x->f,
			"fix: renew the certificate on %s, or set the clocks right (both ends)\n",
			x->host);
	else if (strstr(d, "evoked"))
		fprintf(x->f,
			"fix: the CA revoked it: issue %s a new certificate\n",
			x->host);
	else if (strstr(d, "look-alike"))
		fprintf(x->f,
			"fix: a CA with the name of one this host trusts signed it, with another key: if the CA was re-keyed, import its new certificate (ikebana import --ca); if not, someone is impersonating it\n");
	else if (strstr(d, "ssuer") || strstr(d, "trust") ||
		 strstr(d, "unknown"))
		fprintf(x->f,
			"fix: import the CA that issued it: ikebana import --ca CA.pem (and rightca= if set)\n");
	else
		fprintf(x->f,
			"fix: check %s's certificate chain, its subjectAltName against rightid=, and rightca= here\n",
			x->host);
}

static void k_no_answer(const struct fx *x)
{
	fprintf(x->f, "cause: no answer from %s to %s after %d retransmits\n",
		x->remote, x->exch[0] ? x->exch : "our request",
		x->retransmits);
	if (!strcmp(x->exch, "IKE_AUTH"))
		fprintf(x->f,
			"fix: IKE_SA_INIT was answered and IKE_AUTH not: the path most likely drops IP fragments (large certificates); set fragmentation=yes on both ends, or find what drops UDP 4500 (a NAT was there if the port is 4500)\n");
	else
		fprintf(x->f,
			"fix: check that an IKE daemon runs on %s and listens on UDP 500 and 4500, that no firewall between drops them, and that right= is its address\n",
			x->host);
}

static void k_kernel(const struct fx *x)
{
	fprintf(x->f, "cause: the kernel refused the Child SA: %s\n",
		x->detail);
	fprintf(x->f,
		"fix: the kernel lacks an algorithm or module of the SA (modprobe esp4/esp6, the crypto module), or a value is out of its range (replay-window, offload, clones); dmesg and `ip xfrm state` say more\n");
}

static void k_notify(const struct fx *x)
{
	fprintf(x->f, "cause: %s answered %s to %s%s%s\n", x->host,
		x->received[0] ? x->received : "an error", x->exch,
		x->detail[0] ? ": " : "", x->detail);
	fprintf(x->f, "fix: look in %s's log for why it refused\n", x->host);
}

static void k_other(const struct fx *x)
{
	fprintf(x->f, "cause: %s\n", x->detail[0] ? x->detail : "unknown");
	fprintf(x->f, "fix: see the daemon's log for this IKE SA\n");
}

static const struct {
	const char *kind;
	void (*fn)(const struct fx *x);
} kinds[] = {
	{ "ike_proposal", k_ike },
	{ "esp_proposal", k_esp },
	{ "pfs_group", k_pfs },
	{ "ts", k_ts },
	{ "id", k_id },
	{ "auth", k_auth },
	{ "peer_auth", k_peer_auth },
	{ "cert", k_cert },
	{ "no_answer", k_no_answer },
	{ "kernel", k_kernel },
	{ "notify", k_notify },
};

static void fx_of(struct fx *x, FILE *f, struct json_object *r,
		  struct json_object *keys)
{
	size_t n;

	*x = (struct fx){ .f = f, .keys = keys };
	x->kind = str(r, "kind");
	x->role = str(r, "role");
	x->exch = str(r, "exchange");
	x->remote = str(r, "remote");
	x->auth = str(r, "auth");
	x->peer = str(r, "peer");
	x->local = str(r, "local");
	x->closest = str(r, "closest");
	x->detail = str(r, "detail");
	x->sent = str(r, "notify_sent");
	x->received = str(r, "notify_received");
	x->retransmits =
		json_object_get_int(json_object_object_get(r, "retransmits"));
	/* "192.0.2.2:500" or "2001:db8::2:500": the port after the last ':' */
	n = strrchr(x->remote, ':') ?
		    (size_t)(strrchr(x->remote, ':') - x->remote) :
		    strlen(x->remote);
	snprintf(x->host, sizeof(x->host), "%.*s", (int)n,
		 n ? x->remote : "the peer");
}

static void newest(FILE *f, struct json_object *r, struct json_object *keys)
{
	struct fx x;
	size_t i;

	fx_of(&x, f, r, keys);
	fprintf(f, "last failure: %s, %s as %s in %s with %s (%s%s)\n",
		str(r, "when"), x.kind, x.role, x.exch[0] ? x.exch : "-",
		x.remote[0] ? x.remote : "-",
		strcmp(str(r, "serial"), "0") ? "IKE SA #" : "no IKE SA yet",
		strcmp(str(r, "serial"), "0") ? str(r, "serial") : "");
	for (i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++)
		if (!strcmp(kinds[i].kind, x.kind))
			break;
	if (i < sizeof(kinds) / sizeof(kinds[0]))
		kinds[i].fn(&x);
	else
		k_other(&x);
}

void explain_print(FILE *f, struct json_object *data)
{
	struct json_object *fails = json_object_object_get(data, "failures");
	size_t n = fails ? json_object_array_length(fails) : 0;
	int up =
		json_object_get_int(json_object_object_get(data, "ike_sas_up"));

	fprintf(f, "conn %s", str(data, "conn"));
	if (str(data, "file")[0])
		fprintf(f, " (%s:%s)", str(data, "file"), str(data, "line"));
	fprintf(f, ": %d IKE SA%s up now\n", up, up == 1 ? "" : "s");
	if (!n) {
		fprintf(f,
			"no failed negotiation recorded since the daemon started\n");
		return;
	}
	newest(f, json_object_array_get_idx(fails, 0),
	       json_object_object_get(data, "keys"));
	if (n > 1)
		fprintf(f, "earlier failures:\n");
	for (size_t i = 1; i < n; i++) {
		struct json_object *r = json_object_array_get_idx(fails, i);

		fprintf(f, "  %s %s as %s in %s: %s\n", str(r, "when"),
			str(r, "kind"), str(r, "role"), str(r, "exchange"),
			str(r, "detail"));
	}
}
