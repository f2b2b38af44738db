// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Identities (RFC 7296 §3.5) from leftid=/rightid=, libreswan's spelling:
 * @fqdn is IKEV2_ID_FQDN, user@fqdn IKEV2_ID_RFC822_ADDR, an address ID_IPV4/6_ADDR,
 * a DN ("C=CH, O=Example, CN=west") IKEV2_ID_DER_ASN1_DN, %fromcert the
 * certificate's subject (also the ID of leftcert= without leftid=), %null
 * ID_NULL (RFC 7619: no identity, as opportunistic encryption sends), and
 * no leftid= means the address, or ID_NULL for an end that authenticates
 * by NULL only (authby=null): an end that proves nothing names nobody.
 * The text form is what secrets selectors and logs use.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "crypto/cert_id.h"
#include "crypto/cred.h"
#include "crypto/dn.h"
#include "ike/engine.h"
#include "ike/conn/conn.h"
#include "ike/msg/msg.h"

static void set_addr(struct ike_id *id, const struct ikb_addr *a)
{
	id->type =
		a->family == AF_INET ? IKEV2_ID_IPV4_ADDR : IKEV2_ID_IPV6_ADDR;
	id->len = a->family == AF_INET ? 4 : 16;
	memcpy(id->data, a->bytes, id->len);
	addr_str(a, id->text, sizeof(id->text));
}

static int set_text(struct ike_id *id, uint8_t type, const char *t,
		    struct ikb_error *err)
{
	size_t n = strlen(t);

	if (n == 0 || n > sizeof(id->data)) {
		snprintf(err->msg, sizeof(err->msg),
			 "ID \"%s\" is empty or longer than 255 octets", t);
		return -EINVAL;
	}
	id->type = type;
	id->len = n;
	memcpy(id->data, t, n);
	snprintf(id->text, sizeof(id->text), "%s%s",
		 type == IKEV2_ID_FQDN ? "@" : "", t);
	return 0;
}

static int set_dn(struct ike_id *id, const uint8_t *der, size_t len,
		  const char *text, struct ikb_error *err)
{
	if (len > sizeof(id->data)) {
		snprintf(
			err->msg, sizeof(err->msg),
			"ID \"%.100s\": its DER is %zu octets, ikebana takes up to %zu",
			text, len, sizeof(id->data));
		return -ENOTSUP;
	}
	id->type = IKEV2_ID_DER_ASN1_DN;
	id->len = len;
	memcpy(id->data, der, len);
	if (dn_to_text(der, len, id->text, sizeof(id->text)))
		snprintf(id->text, sizeof(id->text), "%s", text);
	return 0;
}

static int from_cert(const struct conn_end *end, struct ike_id *id,
		     struct ikb_error *err)
{
	const struct cred *c = end->auth.cred;

	if (!c) {
		snprintf(
			err->msg, sizeof(err->msg),
			"%%fromcert: no certificate (leftcert=) to take the ID from");
		return -EINVAL;
	}
	return set_dn(id, c->subject_der.ptr, c->subject_der.len, c->subject,
		      err);
}

static int from_dn(const char *t, struct ike_id *id, struct ikb_error *err)
{
	uint8_t der[DN_MAX];
	size_t len;
	struct crypto_err cerr = { 0 };

	if (dn_from_text(t, der, sizeof(der), &len, &cerr)) {
		snprintf(err->msg, sizeof(err->msg), "%s", cerr.msg);
		return -EINVAL;
	}
	return set_dn(id, der, len, t, err);
}

static void set_null(struct ike_id *id)
{
	id->type = IKEV2_ID_NULL;
	id->len = 0;
	snprintf(id->text, sizeof(id->text), "%%null");
}

int id_local(const struct conn_end *end, struct ike_id *id,
	     struct ikb_error *err)
{
	const char *t = end->id;
	struct ikb_addr a = { 0 };

	memset(id, 0, sizeof(*id));
	if (end->auth.fromcert)
		return from_cert(end, id, err);
	if ((t && !strcmp(t, "%null")) ||
	    (!t && end->auth.methods == AUTHM_NULL))
		return set_null(id), 0;
	if (!t || !strcmp(t, "%any")) {
		if (!end->addr.family) {
			snprintf(err->msg, sizeof(err->msg),
				 "no ID: set leftid= or an address");
			return -EINVAL;
		}
		set_addr(id, &end->addr);
		return 0;
	}
	if (t[0] == '@' && t[1] != '[' && t[1] != '#' && t[1] != '~')
		return set_text(id, IKEV2_ID_FQDN, t + 1, err);
	if (inet_pton(AF_INET, t, a.bytes) == 1) {
		a.family = AF_INET;
		return set_addr(id, &a), 0;
	}
	if (inet_pton(AF_INET6, t, a.bytes) == 1) {
		a.family = AF_INET6;
		return set_addr(id, &a), 0;
	}
	if (strchr(t, '='))
		return from_dn(t, id, err);
	if (t[0] == '@') {
		snprintf(err->msg, sizeof(err->msg),
			 "ID \"%s\": key IDs are not supported yet", t);
		return -ENOTSUP;
	}
	return set_text(id,
			strchr(t, '@') ? IKEV2_ID_RFC822_ADDR : IKEV2_ID_FQDN,
			t, err);
}

static void text_of(struct ike_id *id)
{
	struct ikb_addr a = { 0 };
	size_t i;

	if ((id->type == IKEV2_ID_IPV4_ADDR && id->len == 4) ||
	    (id->type == IKEV2_ID_IPV6_ADDR && id->len == 16)) {
		a.family = id->type == IKEV2_ID_IPV4_ADDR ? AF_INET : AF_INET6;
		memcpy(a.bytes, id->data, id->len);
		addr_str(&a, id->text, sizeof(id->text));
		return;
	}
	if (id->type == IKEV2_ID_DER_ASN1_DN) {
		if (dn_to_text(id->data, id->len, id->text, sizeof(id->text)))
			snprintf(id->text, sizeof(id->text),
				 "(undecodable DN, %zu octets)", id->len);
		return;
	}
	if (id->type == IKEV2_ID_NULL) {
		snprintf(id->text, sizeof(id->text),
			 id->len ? "(ID_NULL with %zu octets)" : "%%null",
			 id->len);
		return;
	}
	if (id->type != IKEV2_ID_FQDN && id->type != IKEV2_ID_RFC822_ADDR) {
		snprintf(id->text, sizeof(id->text), "(ID type %u, %zu octets)",
			 id->type, id->len);
		return;
	}
	/* a peer's ID goes into logs: printable ASCII only */
	for (i = 0; i < id->len; i++)
		if (id->data[i] < 0x21 || id->data[i] > 0x7e)
			break;
	if (i < id->len) {
		snprintf(id->text, sizeof(id->text), "(unprintable ID)");
		return;
	}
	snprintf(id->text, sizeof(id->text), "%s%.*s",
		 id->type == IKEV2_ID_FQDN ? "@" : "", (int)id->len,
		 (const char *)id->data);
}

void id_from_wire(const struct wire_typed *w, struct ike_id *id)
{
	memset(id, 0, sizeof(*id));
	id->type = w->type;
	id->len = w->len < sizeof(id->data) ? w->len : sizeof(id->data);
	if (id->len) /* ID_NULL has no data, and w->data is NULL */
		memcpy(id->data, w->data, id->len);
	text_of(id);
}

bool id_accepts(const struct conn_end *end, const struct ike_id *got)
{
	struct ike_id want;
	struct ikb_error err;

	if (end->id && !strcmp(end->id, "%any"))
		return true;
	/* the certificate's check (auth_job.c) binds the ID to it */
	if (end->auth.fromcert && !end->auth.cred)
		return true;
	if (!end->id && !end->addr.family)
		return true; /* right=%any without rightid=: anyone */
	/* an ID that NULL authentication cannot prove means nothing */
	if (!end->id && end->auth.methods == AUTHM_NULL)
		return true;
	if (id_local(end, &want, &err))
		return false;
	if (want.type == IKEV2_ID_DER_ASN1_DN &&
	    got->type == IKEV2_ID_DER_ASN1_DN)
		return dn_match(want.data, want.len, got->data, got->len, NULL);
	if (want.type == IKEV2_ID_FQDN && got->type == IKEV2_ID_FQDN)
		return want.len == got->len &&
		       !strncasecmp((const char *)want.data,
				    (const char *)got->data, want.len);
	return want.type == got->type && want.len == got->len &&
	       !memcmp(want.data, got->data, want.len);
}
