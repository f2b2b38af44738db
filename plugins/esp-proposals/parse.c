// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * esp= and ike= parsing, libreswan's grammar:
 *
 *   LIST     = PROPOSAL[,PROPOSAL...][!]
 *   esp:  PROPOSAL = ENCR[-INTEG[-KE]]   or  ENCR[-INTEG];KE
 *   ike:  PROPOSAL = ENCR[-PRF[-KE]]     or  ENCR-INTEG-PRF[-KE]
 *                    or the same with ;KE
 *   each slot = ALG[+ALG...]; ENCR may be followed by -BITS (aes-256)
 *
 * Tokens are looked up by name, so strongSwan's spellings (aes128gcm16,
 * prfsha256, ecp256, a trailing '!') work too: a token that can only be a
 * later slot's kind skips the optional slots before it, and a '-' group of
 * the same kind as the one before it adds alternatives to that slot.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "esp_proposals.h"

#define MAX_TOKENS IKB_PROPOSAL_MAX_XFORMS

struct tok {
	const char *s;
	size_t len;
	char before; /* '\0' (first), '-', '+' or ';' */
};

struct ctx {
	enum ikb_protocol proto;
	const char *key; /* "esp" or "ike" */
	const char *text;
	size_t text_len;
	unsigned index, count;
	struct ikb_error *err;
};

/* What the parsed tokens were, for messages that name them. */
struct seen {
	const struct tok *aead, *plain, *integ, *none_integ;
	const struct epr_alg *plain_alg;
	int last_encr; /* xf index of the last ENCR token's transform */
	const struct tok *last_encr_tok;
	bool last_encr_keyed;
};

__attribute__((format(printf, 2, 3))) static int fail(struct ctx *c,
						      const char *fmt, ...)
{
	char msg[sizeof(c->err->msg)], out[2 * sizeof(c->err->msg) + 32];
	size_t n;
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	/* keep room for the message after a long proposal */
	if (c->text_len > 100)
		snprintf(out, sizeof(out), "%s=%.96s...", c->key, c->text);
	else
		snprintf(out, sizeof(out), "%s=%.*s", c->key, (int)c->text_len,
			 c->text);
	n = strlen(out);
	if (c->count > 1)
		n += (size_t)snprintf(out + n, sizeof(out) - n,
				      " (proposal %u)", c->index);
	snprintf(out + n, sizeof(out) - n, ": %s", msg);
	return ikb_error_set(c->err, EINVAL, "%s", out);
}

static const char *article(const char *noun)
{
	return strchr("aeiou", noun[0]) ? "an" : "a";
}

/* The order of the slots; -1 = not allowed for this protocol. */
static int rank(enum ikb_protocol proto, uint8_t type)
{
	static const int ike[] = { [IKB_XF_ENCR] = 0,
				   [IKB_XF_INTEG] = 1,
				   [IKB_XF_PRF] = 2,
				   [IKB_XF_KE] = 3,
				   [IKB_XF_ESN] = -1 };
	static const int esp[] = { [IKB_XF_ENCR] = 0,
				   [IKB_XF_INTEG] = 1,
				   [IKB_XF_PRF] = -1,
				   [IKB_XF_KE] = 2,
				   [IKB_XF_ESN] = 3 };

	if (type < IKB_XF_ENCR || type > IKB_XF_ESN)
		return -1;
	return proto == IKB_PROTO_IKE ? ike[type] : esp[type];
}

static uint8_t type_at(enum ikb_protocol proto, int r)
{
	for (uint8_t t = IKB_XF_ENCR; t <= IKB_XF_ESN; t++) {
		if (rank(proto, t) == r)
			return t;
	}
	return 0;
}

static const struct epr_alg *find(uint8_t type, const struct tok *t)
{
	uint16_t bits;
	bool bad;

	return epr_alg_lookup(type, t->s, t->len, &bits, &bad);
}

static int tokenize(struct ctx *c, struct tok *t, unsigned *n)
{
	size_t start = 0;
	char before = '\0';
	unsigned semis = 0;

	*n = 0;
	for (size_t i = 0; i <= c->text_len; i++) {
		char ch = i < c->text_len ? c->text[i] : '\0';

		if (ch != '\0' && !strchr("-+;", ch))
			continue;
		if (*n == MAX_TOKENS)
			return fail(c, "too many algorithms (at most %d)",
				    MAX_TOKENS);
		t[*n] = (struct tok){ c->text + start, i - start, before };
		(*n)++;
		if (ch == ';' && ++semis > 1)
			return fail(c, "a second ';': only one ';' may "
				       "introduce the key exchange groups");
		before = ch;
		start = i + 1;
	}
	for (unsigned i = 0; i < *n; i++) {
		if (t[i].len)
			continue;
		if (i + 1 == *n)
			return fail(c,
				    "trailing '%c' with no algorithm after it",
				    t[i].before);
		if (i == 0)
			return fail(c, "empty encryption algorithm before '%c'",
				    t[1].before);
		return fail(c, "empty algorithm between '%c' and '%c'",
			    t[i].before, t[i + 1].before);
	}
	return 0;
}

static bool is_number(const struct tok *t)
{
	for (size_t i = 0; i < t->len; i++) {
		if (t->s[i] < '0' || t->s[i] > '9')
			return false;
	}
	return t->len > 0;
}

static unsigned number(const struct tok *t)
{
	unsigned v = 0;

	for (size_t i = 0; i < t->len && v < 100000; i++)
		v = v * 10 + (unsigned)(t->s[i] - '0');
	return v;
}

/* A token that is some other kind of algorithm, for a better message. */
static uint8_t other_kind(enum ikb_protocol proto, const struct tok *t)
{
	for (uint8_t ty = IKB_XF_ENCR; ty <= IKB_XF_ESN; ty++) {
		if (rank(proto, ty) >= 0 && find(ty, t))
			return ty;
	}
	return 0;
}

static int check_allowed(struct ctx *c, const struct epr_alg *a,
			 const struct tok *t)
{
	bool ike = c->proto == IKB_PROTO_IKE;

	if (a->refused)
		return fail(c, "%.*s is not allowed: %s", (int)t->len, t->s,
			    a->refused);
	if (ike && (a->flags & EPR_NOT_IKE)) {
		if (a->type == IKB_XF_ENCR && a->id == EPR_ENCR_NULL)
			return fail(c, "null encryption is not allowed for "
				       "IKE (RFC 7296: the IKE SA is always "
				       "encrypted)");
		if (a->type == IKB_XF_KE)
			return fail(c,
				    "IKE needs a key exchange group; "
				    "'%.*s' is only for esp=",
				    (int)t->len, t->s);
		return fail(c, "%.*s is only supported for ESP, not IKE",
			    (int)t->len, t->s);
	}
	return 0;
}

static int add_encr(struct ctx *c, struct ikb_proposal *p, const struct tok *t,
		    struct seen *s)
{
	uint16_t bits;
	bool bad;
	const struct epr_alg *a =
		epr_alg_lookup(IKB_XF_ENCR, t->s, t->len, &bits, &bad);
	bool ike = c->proto == IKB_PROTO_IKE;
	int r;

	if (!a) {
		uint8_t k = other_kind(c->proto, t);
		const char *noun = epr_type_noun(k, ike);

		if (k)
			return fail(c,
				    "'%.*s' is %s %s; a proposal starts "
				    "with an encryption algorithm",
				    (int)t->len, t->s, article(noun), noun);
		return fail(c, "unknown encryption algorithm '%.*s'",
			    (int)t->len, t->s);
	}
	if (bad && (a->flags & EPR_KEYLEN))
		return fail(c,
			    "unknown encryption algorithm '%.*s' (%s key "
			    "length must be 128, 192 or 256)",
			    (int)t->len, t->s, a->name);
	if (bad)
		return fail(c,
			    "unknown encryption algorithm '%.*s' (%s has a "
			    "fixed key length)",
			    (int)t->len, t->s, a->name);
	r = check_allowed(c, a, t);
	if (r)
		return r;
	if (a->flags & EPR_AEAD) {
		if (!s->aead)
			s->aead = t;
	} else if (!s->plain) {
		s->plain = t;
		s->plain_alg = a;
	}
	s->last_encr = p->n;
	s->last_encr_tok = t;
	s->last_encr_keyed = bits != 0;
	if (epr_add(p, IKB_XF_ENCR, a->id, bits))
		return fail(c, "too many transforms (at most %d)",
			    IKB_PROPOSAL_MAX_XFORMS);
	return 0;
}

/* aes-256: a number after '-' is the key length of the token before. */
static int key_group(struct ctx *c, struct ikb_proposal *p, const struct tok *t,
		     struct seen *s)
{
	struct ikb_transform *x = &p->xf[s->last_encr];
	const struct epr_alg *a = s->last_encr < p->n &&
						  x->type == IKB_XF_ENCR ?
					  epr_alg_by_id(IKB_XF_ENCR, x->id) :
					  NULL;
	const struct tok *e = s->last_encr_tok;
	unsigned bits = number(t);

	/* the token before was a repeat, which added no transform */
	if (!a)
		return fail(c,
			    "key length '%.*s' after %.*s, which the proposal "
			    "names already",
			    (int)t->len, t->s, (int)e->len, e->s);
	if (!(a->flags & EPR_KEYLEN))
		return fail(c, "%.*s does not take a key length (got '%.*s')",
			    (int)e->len, e->s, (int)t->len, t->s);
	if (s->last_encr_keyed)
		return fail(c, "key length given twice: '%.*s' and '%.*s'",
			    (int)e->len, e->s, (int)t->len, t->s);
	if (!epr_key_bits_valid(a, bits))
		return fail(c,
			    "invalid key length %.*s for %.*s: must be "
			    "128, 192 or 256",
			    (int)t->len, t->s, (int)e->len, e->s);
	x->key_bits = (uint16_t)bits;
	s->last_encr_keyed = true;
	return 0;
}

/* Which slot a '-' group fills, judged by its first token. */
static int group_kind(struct ctx *c, const struct tok *t, unsigned ntok,
		      unsigned g, int slot, uint8_t *kind)
{
	bool ike = c->proto == IKB_PROTO_IKE;
	const struct tok *t0 = &t[g];

	for (int r = slot + 1; r <= 3; r++) {
		uint8_t ty = type_at(c->proto, r);

		if (!ty || !find(ty, t0))
			continue;
		*kind = ty;
		/* ike=ENCR-X-Y: X is integrity only when Y can be a PRF */
		if (ty == IKB_XF_INTEG && ike && find(IKB_XF_PRF, t0)) {
			unsigned nx = g + 1;

			while (nx < ntok && t[nx].before == '+')
				nx++;
			if (nx >= ntok || t[nx].before != '-' ||
			    !find(IKB_XF_PRF, &t[nx]))
				*kind = IKB_XF_PRF;
		}
		return 0;
	}
	uint8_t cur = type_at(c->proto, slot);

	if (cur && find(cur, t0)) {
		*kind = cur; /* strongSwan: aes128-aes256, sha256-sha1 */
		return 0;
	}
	uint8_t k = other_kind(c->proto, t0);
	const char *cur_noun = epr_type_noun(cur, ike);

	if (k)
		return fail(c, "%s '%.*s' must come before the %s",
			    epr_type_noun(k, ike), (int)t0->len, t0->s,
			    cur_noun);
	uint8_t next = type_at(c->proto, slot + 1);

	if (!next || next == IKB_XF_ESN || slot >= 3)
		return fail(c, "unexpected '%.*s' after the %s", (int)t0->len,
			    t0->s, cur_noun);
	return fail(c, "unknown %s '%.*s'", epr_type_noun(next, ike),
		    (int)t0->len, t0->s);
}

static int add_alg(struct ctx *c, struct ikb_proposal *p, uint8_t kind,
		   const struct tok *t, struct seen *s)
{
	bool ike = c->proto == IKB_PROTO_IKE;
	const struct epr_alg *a = find(kind, t);
	const char *noun = epr_type_noun(kind, ike);
	int r;

	if (!a) {
		if (other_kind(c->proto, t))
			return fail(c,
				    "'+' joins algorithms of one kind: "
				    "'%.*s' is not %s %s",
				    (int)t->len, t->s, article(noun), noun);
		return fail(c, "unknown %s '%.*s'", noun, (int)t->len, t->s);
	}
	r = check_allowed(c, a, t);
	if (r)
		return r;
	if (kind == IKB_XF_INTEG) {
		if (a->id == EPR_NONE && !s->none_integ)
			s->none_integ = t;
		if (a->id != EPR_NONE && !s->integ)
			s->integ = t;
	}
	if (epr_add(p, kind, a->id, 0))
		return fail(c, "too many transforms (at most %d)",
			    IKB_PROPOSAL_MAX_XFORMS);
	return 0;
}

static void drop_type(struct ikb_proposal *p, uint8_t type)
{
	unsigned j = 0;

	for (unsigned i = 0; i < p->n; i++) {
		if (p->xf[i].type != type)
			p->xf[j++] = p->xf[i];
	}
	p->n = (uint8_t)j;
}

/* AEAD and integrity: the combinations libreswan refuses. */
static int check_combination(struct ctx *c, struct ikb_proposal *p,
			     const struct seen *s)
{
	if (s->aead && s->plain)
		return fail(c,
			    "AEAD and non-AEAD encryption algorithms cannot "
			    "be combined in one proposal (%.*s and %.*s); "
			    "separate them with ','",
			    (int)s->aead->len, s->aead->s, (int)s->plain->len,
			    s->plain->s);
	if (s->aead && s->integ)
		return fail(c,
			    "AEAD algorithm %.*s must not have an integrity "
			    "algorithm (%.*s)",
			    (int)s->aead->len, s->aead->s, (int)s->integ->len,
			    s->integ->s);
	if (s->aead) {
		drop_type(p, IKB_XF_INTEG); /* only 'none' was written */
		return 0;
	}
	if (s->none_integ && s->plain_alg->id == EPR_ENCR_NULL)
		return fail(c,
			    "null encryption with integrity '%.*s' protects "
			    "nothing",
			    (int)s->none_integ->len, s->none_integ->s);
	if (s->none_integ)
		return fail(c,
			    "%.*s needs an integrity algorithm; '%.*s' is "
			    "only for AEAD algorithms such as aes_gcm",
			    (int)s->plain->len, s->plain->s,
			    (int)s->none_integ->len, s->none_integ->s);
	return 0;
}

static int parse_one(struct ctx *c, struct ikb_proposal *p)
{
	struct tok t[MAX_TOKENS];
	struct seen s = { 0 };
	unsigned n, g = 0;
	int slot = 0, r;
	bool after_semi = false;

	memset(p, 0, sizeof(*p));
	p->protocol = (uint8_t)c->proto;
	if (c->text_len == 0)
		return fail(c, "proposal %u is empty", c->index);
	r = tokenize(c, t, &n);
	if (r)
		return r;

	for (; g < n && (g == 0 || t[g].before == '+'); g++) {
		r = add_encr(c, p, &t[g], &s);
		if (r)
			return r;
	}
	while (g < n) {
		uint8_t kind = 0;
		unsigned first = g;

		if (after_semi)
			return fail(c,
				    "unexpected '%.*s' after the key "
				    "exchange groups that ';' introduced",
				    (int)t[g].len, t[g].s);
		if (t[g].before == ';') {
			kind = IKB_XF_KE;
			after_semi = true;
			if (!find(IKB_XF_KE, &t[g]))
				return fail(c,
					    "'%.*s' after ';' is not a "
					    "key exchange group",
					    (int)t[g].len, t[g].s);
		} else if (is_number(&t[g]) && slot == 0 &&
			   (g + 1 == n || t[g + 1].before != '+')) {
			r = key_group(c, p, &t[g], &s);
			if (r)
				return r;
			g++;
			continue;
		} else {
			r = group_kind(c, t, n, g, slot, &kind);
			if (r)
				return r;
		}
		for (; g < n && (g == first || t[g].before == '+'); g++) {
			r = add_alg(c, p, kind, &t[g], &s);
			if (r)
				return r;
		}
		slot = rank(c->proto, kind);
	}
	r = check_combination(c, p, &s);
	if (r)
		return r;
	if (epr_complete(c->proto, p))
		return fail(c, "too many transforms (at most %d)",
			    IKB_PROPOSAL_MAX_XFORMS);
	return 0;
}

bool epr_list_has_ke(const struct ikb_proposal_list *l)
{
	for (unsigned i = 0; i < l->n; i++) {
		if (epr_has_type(&l->p[i], IKB_XF_KE))
			return true;
	}
	return false;
}

static int check_ke_consistent(struct ctx *c, const struct ikb_proposal_list *l)
{
	unsigned with = 0;

	for (unsigned i = 0; i < l->n; i++)
		with += epr_has_type(&l->p[i], IKB_XF_KE);
	if (with == 0 || with == l->n)
		return 0;
	for (unsigned i = 0; i < l->n; i++) {
		if (!epr_has_type(&l->p[i], IKB_XF_KE)) {
			c->index = i + 1;
			break;
		}
	}
	/* libreswan: "either all or no ESP proposals should specify DH" */
	return fail(c, "has no key exchange group while other proposals "
		       "have one: either all or no esp= proposals name one");
}

static void set_proposal(struct ctx *c, const char *spec, size_t len,
			 unsigned index)
{
	while (len && (*spec == ' ' || *spec == '\t')) {
		spec++;
		len--;
	}
	while (len && (spec[len - 1] == ' ' || spec[len - 1] == '\t'))
		len--;
	c->text = spec;
	c->text_len = len;
	c->index = index;
}

int epr_parse(enum ikb_protocol protocol, const char *spec,
	      struct ikb_proposal_list *out, struct ikb_error *err)
{
	struct ctx c = { .proto = protocol, .err = err };
	size_t len = spec ? strlen(spec) : 0;
	const char *p;
	int r;

	memset(out, 0, sizeof(*out));
	err->msg[0] = '\0';
	if (protocol != IKB_PROTO_ESP && protocol != IKB_PROTO_IKE)
		return ikb_error_set(
			err, EINVAL,
			"protocol %d: only esp= and ike= proposals exist",
			(int)protocol);
	c.key = protocol == IKB_PROTO_IKE ? "ike" : "esp";
	set_proposal(&c, spec ? spec : "", len, 1);
	/* strongSwan's strict flag; ikebana is always strict */
	if (c.text_len && c.text[c.text_len - 1] == '!')
		len = (size_t)(c.text + c.text_len - 1 - spec);
	set_proposal(&c, spec ? spec : "", len, 1);
	if (c.text_len == 0)
		return fail(&c, "empty value; write proposals such as "
				"aes_gcm256 or aes256-sha2_256, or leave "
				"the key out for the defaults");
	c.count = 1;
	for (size_t i = 0; i < len; i++)
		c.count += spec[i] == ',';
	if (c.count > IKB_PROPOSALS_MAX) {
		unsigned n = c.count;

		c.count = 1;
		return fail(&c, "%u proposals: at most %d are allowed", n,
			    IKB_PROPOSALS_MAX);
	}

	p = spec;
	for (unsigned i = 1; i <= c.count; i++) {
		const char *end = memchr(p, ',', (size_t)(spec + len - p));

		if (!end)
			end = spec + len;
		set_proposal(&c, p, (size_t)(end - p), i);
		if (c.text_len == 0) {
			set_proposal(&c, spec, len, i);
			c.count = 1;
			return fail(&c, "proposal %u is empty", i);
		}
		r = parse_one(&c, &out->p[out->n]);
		if (r)
			return r;
		out->n++;
		p = end + 1;
	}
	set_proposal(&c, spec, len, 0);
	if (protocol == IKB_PROTO_ESP) {
		r = check_ke_consistent(&c, out);
		if (r)
			return r;
	}
	return 0;
}
