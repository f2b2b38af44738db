/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * One line of ipsec.conf syntax. As in libreswan's lexer, a line that
 * starts with a space or tab belongs to the open section and holds
 * KEY=VALUE (blanks around '=' allowed); any other line starts a section
 * or is a directive. '#' starts a comment where a token could start, so
 * an unquoted value keeps a '#' written inside it, as libreswan does.
 */
#ifndef IKB_CONFIG_LEXER_H
#define IKB_CONFIG_LEXER_H

#include <stddef.h>

enum line_kind { LINE_BLANK, LINE_KV, LINE_WORDS, LINE_ERROR };

struct token {
	const char *s;
	size_t len;
};

#define LINE_MAX_WORDS 3

struct cfg_line {
	enum line_kind kind;
	struct token key, value; /* LINE_KV */
	struct token words[LINE_MAX_WORDS]; /* LINE_WORDS */
	size_t nwords; /* more than LINE_MAX_WORDS: clipped */
	const char *error; /* LINE_ERROR: static text */
};

void lex_line(const char *s, size_t len, struct cfg_line *out);

#endif
