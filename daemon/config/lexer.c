// SPDX-License-Identifier: GPL-2.0-or-later
#include <stdbool.h>
#include <string.h>

#include "config/lexer.h"

static bool is_blank(char c)
{
	return c == ' ' || c == '\t';
}

static const char *skip_blanks(const char *p, const char *end)
{
	while (p < end && is_blank(*p))
		p++;
	return p;
}

/*
 * A quoted or bare token at p. Returns the position after it, or NULL for
 * an unterminated quote.
 */
static const char *token(const char *p, const char *end, struct token *t,
			 const char *stop)
{
	if (*p == '"') {
		const char *q = memchr(p + 1, '"', end - p - 1);

		if (!q)
			return NULL;
		t->s = p + 1;
		t->len = q - p - 1;
		return q + 1;
	}
	const char *q = p;

	while (q < end && !is_blank(*q) && !strchr(stop, *q))
		q++;
	t->s = p;
	t->len = q - p;
	return q;
}

static void lex_error(struct cfg_line *out, const char *msg)
{
	out->kind = LINE_ERROR;
	out->error = msg;
}

/* After the last token: only blanks and a comment may follow. */
static bool at_end(const char *p, const char *end)
{
	p = skip_blanks(p, end);
	return p == end || *p == '#';
}

static void lex_kv(const char *p, const char *end, struct cfg_line *out)
{
	p = token(p, end, &out->key, "=#\"");
	if (!p || out->key.len == 0)
		return lex_error(out, "expected KEY=VALUE");
	p = skip_blanks(p, end);
	if (p == end || *p != '=')
		return lex_error(out, "expected '=' after the key");
	p = skip_blanks(p + 1, end);
	out->kind = LINE_KV;
	if (p == end || *p == '#') {
		/* "key=" sets the empty value, as in libreswan */
		out->value.s = p;
		out->value.len = 0;
		return;
	}
	if (*p == '{') {
		/* libreswan: {a, b} is one value without the braces */
		const char *q = memchr(p, '}', end - p);

		if (!q)
			return lex_error(out, "unterminated {");
		out->value.s = p + 1;
		out->value.len = q - p - 1;
		p = q + 1;
	} else {
		p = token(p, end, &out->value, "\"");
	}
	if (!p)
		return lex_error(out, "unterminated quote");
	if (!at_end(p, end))
		return lex_error(out, "unexpected text after the value "
				      "(quote a value that contains blanks)");
}

static void lex_words(const char *p, const char *end, struct cfg_line *out)
{
	out->kind = LINE_WORDS;
	out->nwords = 0;
	for (;;) {
		struct token t;

		p = skip_blanks(p, end);
		if (p == end || *p == '#')
			return;
		p = token(p, end, &t, "\"");
		if (!p)
			return lex_error(out, "unterminated quote");
		if (out->nwords < LINE_MAX_WORDS)
			out->words[out->nwords] = t;
		out->nwords++;
	}
}

void lex_line(const char *s, size_t len, struct cfg_line *out)
{
	const char *end = s + len;

	memset(out, 0, sizeof(*out));
	if (len && s[len - 1] == '\r')
		end--;
	if (memchr(s, '\0', end - s))
		return lex_error(out, "NUL byte in line");
	const char *p = skip_blanks(s, end);

	if (p == end || *p == '#') {
		out->kind = LINE_BLANK;
		return;
	}
	if (p != s)
		return lex_kv(p, end, out);
	lex_words(p, end, out);
}
