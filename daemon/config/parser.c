// SPDX-License-Identifier: GPL-2.0-or-later
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "config/internal.h"
#include "config/lexer.h"

void section_add(struct cfg_arena *a, struct ikb_section *s,
		 const struct ikb_value *v)
{
	if (s->n == s->cap) {
		size_t cap = s->cap ? s->cap * 2 : 8;

		s->kv = arena_grow(a, s->kv, s->n * sizeof(*s->kv),
				   cap * sizeof(*s->kv));
		s->cap = cap;
	}
	s->kv[s->n++] = *v;
}

static long section_new(struct parse_ctx *p, enum cfg_kind kind,
			const char *name, const char *file, unsigned line)
{
	if (p->nraw == p->capraw) {
		size_t cap = p->capraw ? p->capraw * 2 : 16;
		struct ikb_section *r = realloc(p->raw, cap * sizeof(*r));
		struct keyset *k = realloc(p->keys, cap * sizeof(*k));

		if (!r || !k)
			abort();
		p->raw = r;
		p->keys = k;
		p->capraw = cap;
	}
	p->keys[p->nraw] = (struct keyset){ 0 };
	struct ikb_section *s = &p->raw[p->nraw];

	memset(s, 0, sizeof(*s));
	s->kind = kind;
	s->name = name;
	s->file = file;
	s->line = line;
	return (long)p->nraw++;
}

static const char *section_label(const struct ikb_section *s, char *buf,
				 size_t len)
{
	if (s->kind == CFG_SETUP)
		snprintf(buf, len, "config setup");
	else
		snprintf(buf, len, "conn %s", s->name);
	return buf;
}

static bool key_chars_ok(const struct token *k)
{
	for (size_t i = 0; i < k->len; i++) {
		unsigned char c = k->s[i];

		if (!isalnum(c) && c != '-' && c != '_')
			return false;
	}
	return true;
}

static void add_kv(struct parse_ctx *p, const char *file, unsigned line,
		   const struct cfg_line *l)
{
	char label[300];
	const char *key = arena_intern_n(p->a, l->key.s, l->key.len);

	if (!key_chars_ok(&l->key)) {
		diag_at(p->d, IKB_SEV_ERROR, file, line,
			"%s: invalid key: expected letters, digits, '-' or '_'",
			key);
		return;
	}
	if (p->cur < 0) {
		diag_at(p->d, IKB_SEV_ERROR, file, line,
			"%s=%.*s: outside any section (start one with conn NAME or config setup at column 0)",
			key, (int)l->value.len, l->value.s);
		return;
	}
	struct ikb_section *s = &p->raw[p->cur];
	struct ikb_value v = {
		.key = key,
		.value = arena_strndup(p->a, l->value.s, l->value.len),
		.file = file,
		.line = line,
	};

	section_label(s, label, sizeof(label));
	/* libreswan: x- keys are comments (lib/libipsecconf/parser.y) */
	if (strncasecmp(key, "x-", 2) == 0) {
		diag_at(p->d, IKB_SEV_WARNING, file, line,
			"%s: %s: x- style comment ignored", label, key);
		return;
	}
	if (strcmp(key, "also") == 0 && s->kind == CFG_CONN &&
	    strcmp(s->name, "%default") == 0) {
		diag_at(p->d, IKB_SEV_ERROR, file, line,
			"%s: also=%s: also= is not valid in conn %%default",
			label, v.value);
		return;
	}
	const char *canon = arena_intern(p->a, cfg_canonical_key(key));
	size_t at = s->n;

	/* also= may be there many times; any other key, by any name, once */
	if (strcmp(key, "also") && !keyset_put(&p->keys[p->cur], canon, &at)) {
		const struct ikb_value *o = &s->kv[at];

		if (o->key == key)
			diag_at(p->d, IKB_SEV_ERROR, file, line,
				"%s: %s=%s: duplicate key: %s= is already set at %s:%u",
				label, key, v.value, key, o->file, o->line);
		else
			diag_at(p->d, IKB_SEV_ERROR, file, line,
				"%s: %s=%s: duplicate key: %s= (another name for %s=) is already set at %s:%u",
				label, key, v.value, o->key, canon, o->file,
				o->line);
		return;
	}
	section_add(p->a, s, &v);
}

static bool tok_is(const struct token *t, const char *s)
{
	return t->len == strlen(s) && memcmp(t->s, s, t->len) == 0;
}

static void open_conn(struct parse_ctx *p, const char *file, unsigned line,
		      const struct cfg_line *l)
{
	if (l->nwords < 2 || l->words[1].len == 0) {
		diag_at(p->d, IKB_SEV_ERROR, file, line,
			"conn: expected a conn name after conn");
		p->cur = -1;
		return;
	}
	const struct token *n = &l->words[1];

	if (l->nwords > 2) {
		diag_at(p->d, IKB_SEV_ERROR, file, line,
			"conn %.*s: unexpected text after the conn name",
			(int)n->len, n->s);
	}
	/* SAs, routes and status hold the name, GROUP#ADDRESS for instances */
	if (n->len > CFG_CONN_NAME_MAX)
		diag_at(p->d, IKB_SEV_ERROR, file, line,
			"conn %.*s...: the name is longer than %d characters",
			40, n->s, CFG_CONN_NAME_MAX);
	const char *name = arena_intern_n(p->a, n->s, n->len);

	p->cur = section_new(p, CFG_CONN, name, file, line);
}

static void open_setup(struct parse_ctx *p, const char *file, unsigned line,
		       const struct cfg_line *l)
{
	if (l->nwords != 2 || !tok_is(&l->words[1], "setup")) {
		diag_at(p->d, IKB_SEV_ERROR, file, line,
			"config: expected \"config setup\"");
		p->cur = -1;
		return;
	}
	/* Several config setup sections merge, as in libreswan. */
	if (p->setup < 0)
		p->setup = section_new(p, CFG_SETUP, "setup", file, line);
	p->cur = p->setup;
}

static void directive(struct parse_ctx *p, const char *file, unsigned line,
		      const struct cfg_line *l)
{
	const struct token *w = &l->words[0];

	if (tok_is(w, "conn")) {
		open_conn(p, file, line, l);
	} else if (tok_is(w, "config")) {
		open_setup(p, file, line, l);
	} else if (tok_is(w, "include")) {
		p->cur = -1;
		if (l->nwords != 2 || l->words[1].len == 0) {
			diag_at(p->d, IKB_SEV_ERROR, file, line,
				"include: expected one file name or pattern");
			return;
		}
		char *arg = strndup(l->words[1].s, l->words[1].len);

		if (!arg)
			abort();
		parse_include(p, file, line, arg);
		free(arg);
	} else if (tok_is(w, "version")) {
		/* libreswan ships "version 2" and "version 2.0"; ignored */
		if (l->nwords != 2 || (!tok_is(&l->words[1], "2") &&
				       !tok_is(&l->words[1], "2.0")))
			diag_at(p->d, IKB_SEV_ERROR, file, line,
				"version: expected \"version 2\" or \"version 2.0\"");
	} else {
		diag_at(p->d, IKB_SEV_ERROR, file, line,
			"unexpected \"%.*s\" at the start of a line: expected conn, config setup, include or version (indent KEY=VALUE lines)",
			(int)w->len, w->s);
		p->cur = -1;
	}
}

void parse_text(struct parse_ctx *p, const char *file, const char *buf,
		size_t len)
{
	const char *s = buf, *end = buf + len;
	unsigned line = 0;

	p->cur = -1;
	while (s < end) {
		const char *nl = memchr(s, '\n', end - s);
		size_t n = nl ? (size_t)(nl - s) : (size_t)(end - s);
		struct cfg_line l;

		line++;
		lex_line(s, n, &l);
		s += n + 1;
		switch (l.kind) {
		case LINE_BLANK:
			break;
		case LINE_KV:
			add_kv(p, file, line, &l);
			break;
		case LINE_WORDS:
			directive(p, file, line, &l);
			break;
		case LINE_ERROR:
			diag_at(p->d, IKB_SEV_ERROR, file, line, "%s", l.error);
			break;
		}
	}
	p->cur = -1;
}

static void parse_init(struct parse_ctx *p, struct cfg **out,
		       struct ikb_diag *d, const char *path)
{
	struct cfg *c = calloc(1, sizeof(*c));

	if (!c)
		abort();
	memset(p, 0, sizeof(*p));
	c->arena = arena_new();
	c->path = arena_strdup(c->arena, path);
	c->setup.name = "setup";
	c->setup.kind = CFG_SETUP;
	p->cfg = c;
	p->a = c->arena;
	p->d = d;
	p->cur = -1;
	p->setup = -1;
	*out = c;
}

static int parse_finish(struct parse_ctx *p, unsigned errors_before)
{
	struct cfg *c = p->cfg;

	c->nraw = p->nraw;
	c->raw = arena_alloc(p->a, (p->nraw + 1) * sizeof(*c->raw));
	if (p->nraw)
		memcpy(c->raw, p->raw, p->nraw * sizeof(*c->raw));
	if (p->setup >= 0)
		c->setup = c->raw[p->setup];
	cfg_resolve(p);
	cfg_setup_parse(&c->setup, &c->set);
	for (size_t i = 0; i < p->nraw; i++)
		keyset_free(&p->keys[i]);
	free(p->keys);
	p->keys = NULL;
	free(p->raw);
	p->raw = NULL;
	incfiles_free(&p->inc);
	return p->d->errors > errors_before ? -1 : 0;
}

int cfg_parse_file(const char *path, struct cfg **out, struct ikb_diag *d)
{
	struct parse_ctx p;
	unsigned before = d->errors;

	parse_init(&p, out, d, path);
	parse_path(&p, path, NULL, 0);
	return parse_finish(&p, before);
}

int cfg_parse_buffer(const char *name, const char *buf, size_t len,
		     struct cfg **out, struct ikb_diag *d)
{
	struct parse_ctx p;
	unsigned before = d->errors;

	parse_init(&p, out, d, name);
	const char *file = arena_intern(p.a, name);

	incfiles_enter(&p.inc, NULL, file, NULL, 0, d);
	parse_text(&p, file, buf, len);
	return parse_finish(&p, before);
}
