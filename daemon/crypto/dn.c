// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Distinguished names: libreswan's text form to and from DER, and the
 * wildcard match. The text parser is our own rather than NSS's
 * CERT_AsciiToName because that one follows RFC 4514: it reverses the
 * RDNs (libreswan keeps them in wire order), reads SN as surname (to
 * libreswan it is the serial number), treats '+' and ';' as separators
 * and stores a dotted-OID attribute's text value without any DER
 * wrapping. NSS still turns OIDs into DER, assembles and encodes the Name
 * and decodes peer DER (QuickDER, which rejects trailing bytes).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include <cert.h>
#include <secasn1.h>
#include <secitem.h>
#include <secoid.h>

#include "crypto/dn.h"

#define TAG_UTF8 0x0c
#define TAG_PRINTABLE 0x13
#define TAG_IA5 0x16

enum dn_vtype {
	DS, /* DirectoryString: PrintableString if it can be, else UTF-8 */
	IA5, /* ASCII only: e-mail addresses and domain components */
};

struct dn_attr {
	const char *name; /* an OID's first entry is the name we print */
	const char *oid;
	enum dn_vtype vtype;
};

static const struct dn_attr dn_attrs[] = {
	{ "C", "2.5.4.6", DS },
	{ "ST", "2.5.4.8", DS },
	{ "L", "2.5.4.7", DS },
	{ "O", "2.5.4.10", DS },
	{ "OU", "2.5.4.11", DS },
	{ "CN", "2.5.4.3", DS },
	{ "E", "1.2.840.113549.1.9.1", IA5 },
	{ "Email", "1.2.840.113549.1.9.1", IA5 },
	{ "emailAddress", "1.2.840.113549.1.9.1", IA5 },
	{ "DC", "0.9.2342.19200300.100.1.25", IA5 },
	{ "UID", "0.9.2342.19200300.100.1.1", DS },
	{ "SN", "2.5.4.5", DS },
	{ "serialNumber", "2.5.4.5", DS },
	{ "S", "2.5.4.4", DS },
	{ "surname", "2.5.4.4", DS },
	{ "G", "2.5.4.42", DS },
	{ "GN", "2.5.4.42", DS },
	{ "givenName", "2.5.4.42", DS },
	{ "T", "2.5.4.12", DS },
	{ "title", "2.5.4.12", DS },
	{ "STREET", "2.5.4.9", DS },
	{ "D", "2.5.4.13", DS },
	{ "N", "2.5.4.41", DS },
	{ "I", "2.5.4.43", DS },
	{ "dnQualifier", "2.5.4.46", DS },
};

static const struct dn_attr *attr_by_name(const char *name)
{
	for (size_t i = 0; i < sizeof(dn_attrs) / sizeof(dn_attrs[0]); i++)
		if (!strcasecmp(dn_attrs[i].name, name))
			return &dn_attrs[i];
	return NULL;
}

static const struct dn_attr *attr_by_oid(const char *oid)
{
	for (size_t i = 0; i < sizeof(dn_attrs) / sizeof(dn_attrs[0]); i++)
		if (!strcmp(dn_attrs[i].oid, oid))
			return &dn_attrs[i];
	return NULL;
}

/* ---- text to DER ---- */

/* One attribute=value as written, value already unescaped. */
struct dn_ava_text {
	char key[64];
	uint8_t val[DN_MAX];
	size_t len;
	bool hex; /* written as #hex: val is a complete DER value */
};

struct dn_parser {
	const char *text; /* the whole DN, for messages */
	const char *p;
	struct crypto_err *err;
};

static int parse_fail(struct dn_parser *ps, const char *what, const char *where)
{
	return crypto_fail(ps->err, -EINVAL, "DN \"%s\": %s%s%.24s%s", ps->text,
			   what, where ? " at \"" : "", where ? where : "",
			   where ? "\"" : "");
}

/* "what" ends in a space or "=": the attribute completes it */
static int attr_fail(struct dn_parser *ps, const char *what, const char *key)
{
	return crypto_fail(ps->err, -EINVAL, "DN \"%s\": %s%s", ps->text, what,
			   key);
}

static void skip_spaces(struct dn_parser *ps)
{
	while (*ps->p == ' ' || *ps->p == '\t')
		ps->p++;
}

static int parse_key(struct dn_parser *ps, struct dn_ava_text *a)
{
	const char *start = ps->p;
	size_t n;

	while (*ps->p && *ps->p != '=' && *ps->p != ',')
		ps->p++;
	if (*ps->p != '=')
		return parse_fail(ps, "expected attribute=value", start);
	n = (size_t)(ps->p - start);
	while (n && (start[n - 1] == ' ' || start[n - 1] == '\t'))
		n--;
	if (n == 0)
		return parse_fail(ps, "missing attribute name", start);
	if (n >= sizeof(a->key))
		return parse_fail(ps, "attribute name too long", start);
	memcpy(a->key, start, n);
	a->key[n] = '\0';
	ps->p++; /* '=' */
	return 0;
}

static int hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* After '\': either two hex digits (a byte) or one literal character. */
static int parse_escape(struct dn_parser *ps, uint8_t *out)
{
	int hi = hexval(ps->p[0]), lo = hi < 0 ? -1 : hexval(ps->p[1]);

	if (hi >= 0 && lo >= 0) {
		*out = (uint8_t)(hi << 4 | lo);
		ps->p += 2;
		return 0;
	}
	if (!*ps->p)
		return parse_fail(ps, "'\\' at the end", NULL);
	*out = (uint8_t)*ps->p++;
	return 0;
}

static int put_byte(struct dn_parser *ps, struct dn_ava_text *a, uint8_t c)
{
	if (a->len >= sizeof(a->val))
		return parse_fail(ps, "value too long", NULL);
	a->val[a->len++] = c;
	return 0;
}

/* "quoted value": ends at the next unescaped '"'. */
static int parse_quoted(struct dn_parser *ps, struct dn_ava_text *a)
{
	const char *start = ps->p++;
	uint8_t c;
	int rc;

	while (*ps->p != '"') {
		if (!*ps->p)
			return parse_fail(ps, "unterminated quote", start);
		c = (uint8_t)*ps->p++;
		if (c == '\\') {
			rc = parse_escape(ps, &c);
			if (rc)
				return rc;
		}
		rc = put_byte(ps, a, c);
		if (rc)
			return rc;
	}
	ps->p++;
	skip_spaces(ps);
	if (*ps->p && *ps->p != ',')
		return parse_fail(ps, "text after a quoted value", ps->p);
	return 0;
}

/*
 * Unquoted: ends at ',' unless it is doubled (libreswan's escape). Spaces
 * at the end are dropped, escaped ones kept.
 */
static int parse_plain(struct dn_parser *ps, struct dn_ava_text *a)
{
	size_t keep = 0;
	uint8_t c;
	int rc;

	while (*ps->p && (*ps->p != ',' || ps->p[1] == ',')) {
		c = (uint8_t)*ps->p++;
		if (c == '\\') {
			rc = parse_escape(ps, &c);
			if (rc)
				return rc;
			rc = put_byte(ps, a, c);
			keep = a->len;
		} else {
			if (c == ',')
				ps->p++; /* the doubled one */
			rc = put_byte(ps, a, c);
			if (c != ' ' && c != '\t')
				keep = a->len;
		}
		if (rc)
			return rc;
	}
	a->len = keep;
	return 0;
}

/* One whole tag-length-value, as the Name's encoder copies it verbatim. */
static bool der_tlv_ok(const uint8_t *v, size_t n)
{
	size_t len, h = 2;

	if (n < 2 || (v[0] & 0x1f) == 0x1f)
		return false;
	len = v[1];
	if (len == 0x81 && n >= 3) {
		len = v[2];
		h = 3;
	} else if (len == 0x82 && n >= 4) {
		len = (size_t)v[2] << 8 | v[3];
		h = 4;
	} else if (len & 0x80) {
		return false;
	}
	return h + len == n;
}

/* #hex: the complete DER of the value, tag and length included. */
static int unhex_value(struct dn_parser *ps, struct dn_ava_text *a)
{
	size_t n = 0;

	if (a->len < 3 || (a->len & 1) == 0)
		return attr_fail(ps, "bad #hex value for ", a->key);
	for (size_t i = 1; i < a->len; i += 2) {
		int hi = hexval((char)a->val[i]),
		    lo = hexval((char)a->val[i + 1]);

		if (hi < 0 || lo < 0)
			return attr_fail(ps, "bad #hex value for ", a->key);
		a->val[n++] = (uint8_t)(hi << 4 | lo);
	}
	a->len = n;
	a->hex = true;
	if (!der_tlv_ok(a->val, a->len))
		return attr_fail(ps, "#hex is not one DER value for ", a->key);
	return 0;
}

static int parse_value(struct dn_parser *ps, struct dn_ava_text *a)
{
	bool hex;
	int rc;

	skip_spaces(ps);
	a->len = 0;
	a->hex = false;
	if (*ps->p == '"')
		return parse_quoted(ps, a);
	hex = *ps->p == '#';
	rc = parse_plain(ps, a);
	if (rc)
		return rc;
	return hex ? unhex_value(ps, a) : 0;
}

static bool is_printable_string(const uint8_t *v, size_t n)
{
	static const char extra[] = " '()+,-./:=?";

	for (size_t i = 0; i < n; i++) {
		uint8_t c = v[i];

		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		      (c >= '0' && c <= '9') || (c && strchr(extra, c))))
			return false;
	}
	return true;
}

static bool is_ascii(const uint8_t *v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (v[i] > 0x7f)
			return false;
	return true;
}

/* tag, DER length, contents, into the arena */
static int wrap_tlv(PLArenaPool *arena, uint8_t tag, const uint8_t *v, size_t n,
		    SECItem *out)
{
	uint8_t hdr[4] = { tag };
	size_t h = 2;

	if (n < 0x80) {
		hdr[1] = (uint8_t)n;
	} else if (n < 0x100) {
		hdr[1] = 0x81;
		hdr[2] = (uint8_t)n;
		h = 3;
	} else {
		hdr[1] = 0x82;
		hdr[2] = (uint8_t)(n >> 8);
		hdr[3] = (uint8_t)n;
		h = 4;
	}
	if (!SECITEM_AllocItem(arena, out, (unsigned)(h + n)))
		return -ENOMEM;
	memcpy(out->data, hdr, h);
	memcpy(out->data + h, v, n);
	return 0;
}

/* The attribute's OID (by name or dotted) and its string type. */
static int ava_type(struct dn_parser *ps, PLArenaPool *arena,
		    const struct dn_ava_text *a, CERTAVA *ava,
		    enum dn_vtype *vtype)
{
	const struct dn_attr *at = attr_by_name(a->key);
	const char *oid = a->key;

	*vtype = DS;
	if (at) {
		oid = at->oid;
		*vtype = at->vtype;
	} else if (!(a->key[0] >= '0' && a->key[0] <= '9') &&
		   strncasecmp(a->key, "OID.", 4)) {
		return attr_fail(ps, "unknown attribute ", a->key);
	}
	if (SEC_StringToOID(arena, &ava->type, oid, 0) != SECSuccess)
		return attr_fail(ps, "bad OID ", a->key);
	return 0;
}

static int ava_value(struct dn_parser *ps, PLArenaPool *arena,
		     const struct dn_ava_text *a, enum dn_vtype vtype,
		     CERTAVA *ava)
{
	uint8_t tag = TAG_UTF8;

	if (a->hex) {
		if (!SECITEM_AllocItem(arena, &ava->value, (unsigned)a->len))
			return -ENOMEM;
		memcpy(ava->value.data, a->val, a->len);
		return 0;
	}
	if (a->len == 0)
		return attr_fail(ps, "empty value for ", a->key);
	/* a NUL lets "west\0.evil" pass for "west" in C string code */
	if (memchr(a->val, 0, a->len))
		return attr_fail(ps, "NUL in the value of ", a->key);
	if (vtype == IA5) {
		if (!is_ascii(a->val, a->len))
			return attr_fail(ps, "non-ASCII value for ", a->key);
		tag = TAG_IA5;
	} else if (is_printable_string(a->val, a->len)) {
		tag = TAG_PRINTABLE;
	}
	return wrap_tlv(arena, tag, a->val, a->len, &ava->value);
}

/* Parses the next attribute=value and appends it to name as an RDN. */
static int add_rdn(struct dn_parser *ps, CERTName *name, struct dn_ava_text *a)
{
	CERTAVA *ava = PORT_ArenaZNew(name->arena, CERTAVA);
	enum dn_vtype vtype;
	CERTRDN *rdn;
	int rc;

	if (!ava)
		return -ENOMEM;
	rc = parse_key(ps, a);
	if (!rc)
		rc = parse_value(ps, a);
	if (!rc)
		rc = ava_type(ps, name->arena, a, ava, &vtype);
	if (!rc)
		rc = ava_value(ps, name->arena, a, vtype, ava);
	if (rc)
		return rc;
	rdn = CERT_CreateRDN(name->arena, ava, NULL);
	if (!rdn || CERT_AddRDN(name, rdn) != SECSuccess)
		return -ENOMEM;
	return 0;
}

static int parse_name(struct dn_parser *ps, CERTName *name)
{
	struct dn_ava_text *a = PORT_ArenaZNew(name->arena, struct dn_ava_text);
	int rc;

	if (!a)
		return -ENOMEM;
	for (;;) {
		skip_spaces(ps);
		if (!*ps->p)
			return parse_fail(ps, "empty attribute", NULL);
		rc = add_rdn(ps, name, a);
		if (rc)
			return rc;
		if (!*ps->p)
			return 0;
		ps->p++; /* ',' */
	}
}

static int dn_decode(PLArenaPool *arena, const uint8_t *der, size_t len,
		     CERTName *name);

/*
 * A #hex value NSS encodes as given may be DER no Name decodes (#0000, an
 * end-of-contents): such a leftid= would match no peer, so it is refused.
 */
static bool decodes(const SECItem *out)
{
	PLArenaPool *arena = PORT_NewArena(DER_DEFAULT_CHUNKSIZE);
	CERTName n;
	bool ok = arena && !dn_decode(arena, out->data, out->len, &n);

	if (arena)
		PORT_FreeArena(arena, PR_FALSE);
	return ok;
}

int dn_from_text(const char *text, uint8_t *der, size_t cap, size_t *len,
		 struct crypto_err *err)
{
	struct dn_parser ps = { .text = text, .p = text, .err = err };
	CERTName *name = CERT_CreateName(NULL);
	SECItem out = { siBuffer, NULL, 0 };
	int rc;

	if (!name)
		return crypto_fail_nss(err, -ENOMEM, "DN: no memory");
	rc = parse_name(&ps, name);
	if (rc == -ENOMEM)
		crypto_fail(err, rc, "DN \"%s\": no memory", text);
	if (!rc && !SEC_ASN1EncodeItem(name->arena, &out, name,
				       SEC_ASN1_GET(CERT_NameTemplate)))
		rc = crypto_fail_nss(err, -EINVAL, "DN \"%s\": cannot encode",
				     text);
	if (!rc && !decodes(&out))
		rc = crypto_fail(
			err, -EINVAL,
			"DN \"%s\": a #hex value is not DER a name holds",
			text);
	if (!rc && out.len > cap)
		rc = crypto_fail(err, -ENOSPC, "DN \"%s\": %u bytes of DER",
				 text, out.len);
	if (!rc) {
		memcpy(der, out.data, out.len);
		*len = out.len;
	}
	CERT_DestroyName(name);
	return rc;
}

/* ---- DER to text ---- */

/* Peer DER into name; the items point into der, which must outlive it. */
static int dn_decode(PLArenaPool *arena, const uint8_t *der, size_t len,
		     CERTName *name)
{
	SECItem item = { siBuffer, (unsigned char *)der, (unsigned)len };

	memset(name, 0, sizeof(*name));
	if (!der || len == 0 || len > 0xffffff)
		return -EBADMSG;
	if (SEC_QuickDERDecodeItem(arena, name, SEC_ASN1_GET(CERT_NameTemplate),
				   &item) != SECSuccess)
		return -EBADMSG;
	for (CERTRDN **r = name->rdns; r && *r; r++)
		if (!(*r)->avas || !(*r)->avas[0])
			return -EBADMSG; /* an RDN has at least one AVA */
	return 0;
}

struct sbuf {
	char *p;
	size_t cap, len;
	bool full;
};

static void sb_putn(struct sbuf *b, const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		if (b->len + 1 >= b->cap) {
			b->full = true;
			return;
		}
		b->p[b->len++] = s[i];
	}
}

static void sb_puts(struct sbuf *b, const char *s)
{
	sb_putn(b, s, strlen(s));
}

static void sb_hex(struct sbuf *b, uint8_t c)
{
	char hx[4];

	snprintf(hx, sizeof(hx), "%02X", c);
	sb_putn(b, hx, 2);
}

/*
 * The dotted form of a DER OID's contents; false if they are not a valid
 * OID (peer input: a truncated arc, a non-minimal 0x80, an arc > 2^56).
 */
static bool oid_dotted(const SECItem *oid, char *out, size_t cap)
{
	uint64_t arc = 0;
	size_t n = 0;
	bool first = true;

	if (oid->len == 0)
		return false;
	for (unsigned i = 0; i < oid->len; i++) {
		uint8_t c = oid->data[i];
		int w;

		if ((arc == 0 && c == 0x80) || arc >> 56)
			return false;
		arc = arc << 7 | (c & 0x7f);
		if (c & 0x80)
			continue;
		if (first)
			w = snprintf(out + n, cap - n, "%u.%llu",
				     arc < 80 ? (unsigned)(arc / 40) : 2,
				     (unsigned long long)(arc < 80 ? arc % 40 :
								     arc - 80));
		else
			w = snprintf(out + n, cap - n, ".%llu",
				     (unsigned long long)arc);
		if (w < 0 || (size_t)w >= cap - n)
			return false;
		n += (size_t)w;
		arc = 0;
		first = false;
	}
	return !(oid->data[oid->len - 1] & 0x80);
}

/* Escapes what would end a value or could fool a log reader. */
static void sb_value(struct sbuf *b, const uint8_t *v, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		uint8_t c = v[i];
		bool edge = (i == 0 && (c == '#' || c == ' ')) ||
			    (i + 1 == n && c == ' ');

		if (c < 0x20 || c >= 0x7f) {
			sb_putn(b, "\\", 1);
			sb_hex(b, c);
			continue;
		}
		if (edge || c == ',' || c == '\\' || c == '"')
			sb_putn(b, "\\", 1);
		sb_putn(b, (const char *)&c, 1);
	}
}

static int sb_ava(struct sbuf *b, const CERTAVA *ava)
{
	char dotted[128];
	const struct dn_attr *at;
	SECItem *text;

	if (!oid_dotted(&ava->type, dotted, sizeof(dotted)))
		return -EBADMSG;
	at = attr_by_oid(dotted);
	sb_puts(b, at ? at->name : dotted);
	sb_putn(b, "=", 1);
	text = CERT_DecodeAVAValue(&ava->value);
	if (text) {
		sb_value(b, text->data, text->len);
		SECITEM_FreeItem(text, PR_TRUE);
		return 0;
	}
	/* not a string: RFC 4514's #hex of the DER, which parses back */
	sb_putn(b, "#", 1);
	for (unsigned i = 0; i < ava->value.len; i++)
		sb_hex(b, ava->value.data[i]);
	return 0;
}

static int sb_name(struct sbuf *b, const CERTName *name)
{
	const char *sep = "";
	int rc;

	for (CERTRDN **r = name->rdns; r && *r; r++) {
		for (CERTAVA **a = (*r)->avas; *a; a++) {
			sb_puts(b, sep);
			rc = sb_ava(b, *a);
			if (rc)
				return rc;
			sep = ", ";
		}
	}
	return 0;
}

int dn_to_text(const uint8_t *der, size_t len, char *out, size_t cap)
{
	PLArenaPool *arena = PORT_NewArena(DER_DEFAULT_CHUNKSIZE);
	struct sbuf b = { .p = out, .cap = cap };
	CERTName name;
	int rc;

	if (cap)
		out[0] = '\0';
	if (!arena)
		return -ENOMEM;
	rc = dn_decode(arena, der, len, &name);
	if (!rc)
		rc = sb_name(&b, &name);
	if (cap)
		out[rc ? 0 : b.len] = '\0';
	if (!rc && (b.full || cap == 0))
		rc = -ENOSPC;
	PORT_FreeArena(arena, PR_FALSE);
	return rc;
}

/* ---- matching ---- */

static void trim(const uint8_t **v, size_t *n)
{
	while (*n && (*v)[0] == ' ')
		(*v)++, (*n)--;
	while (*n && (*v)[*n - 1] == ' ')
		(*n)--;
}

static uint8_t ascii_lower(uint8_t c)
{
	return c >= 'A' && c <= 'Z' ? (uint8_t)(c + 32) : c;
}

static bool text_equal(const SECItem *a, const SECItem *b)
{
	const uint8_t *x = a->data, *y = b->data;
	size_t xn = a->len, yn = b->len;

	trim(&x, &xn);
	trim(&y, &yn);
	if (xn != yn)
		return false;
	for (size_t i = 0; i < xn; i++)
		if (ascii_lower(x[i]) != ascii_lower(y[i]))
			return false;
	return true;
}

/*
 * Strings compare as text whatever their ASN.1 type, since CAs and NSS
 * pick PrintableString or UTF8String for the same name; other values
 * compare as DER.
 */
static bool ava_match(const CERTAVA *want, const CERTAVA *got,
		      unsigned *wildcards)
{
	SECItem *w, *g;
	bool match;

	if (SECITEM_CompareItem(&want->type, &got->type) != SECEqual)
		return false;
	w = CERT_DecodeAVAValue(&want->value);
	if (w && w->len == 1 && w->data[0] == '*') {
		SECITEM_FreeItem(w, PR_TRUE);
		(*wildcards)++;
		return true;
	}
	g = CERT_DecodeAVAValue(&got->value);
	if (w && g)
		match = text_equal(w, g);
	else if (!w && !g)
		match = SECITEM_CompareItem(&want->value, &got->value) ==
			SECEqual;
	else
		match = false;
	SECITEM_FreeItem(w, PR_TRUE);
	SECITEM_FreeItem(g, PR_TRUE);
	return match;
}

static bool rdn_match(const CERTRDN *want, const CERTRDN *got,
		      unsigned *wildcards)
{
	CERTAVA **w = want->avas, **g = got->avas;

	for (; *w && *g; w++, g++)
		if (!ava_match(*w, *g, wildcards))
			return false;
	return !*w && !*g;
}

static bool name_match(const CERTName *want, const CERTName *got,
		       unsigned *wildcards)
{
	CERTRDN **w = want->rdns, **g = got->rdns;

	if (!w || !g)
		return w == g;
	for (; *w && *g; w++, g++)
		if (!rdn_match(*w, *g, wildcards))
			return false;
	return !*w && !*g;
}

bool dn_match(const uint8_t *want, size_t wlen, const uint8_t *got, size_t glen,
	      unsigned *wildcards)
{
	PLArenaPool *arena = PORT_NewArena(DER_DEFAULT_CHUNKSIZE);
	CERTName w, g;
	unsigned n = 0;
	bool match = false;

	if (!arena)
		return false;
	if (!dn_decode(arena, want, wlen, &w) &&
	    !dn_decode(arena, got, glen, &g))
		match = name_match(&w, &g, &n);
	PORT_FreeArena(arena, PR_FALSE);
	if (wildcards)
		*wildcards = match ? n : 0;
	return match;
}
