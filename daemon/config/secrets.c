// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * ikebana.secrets in libreswan's ipsec.secrets format:
 *
 *   @west @east : PSK "a secret"
 *   192.0.2.1 %any : PSK 0sc2VjcmV0
 *   : PSK 0x73_65_63      (no selectors: any peer)
 *   include secrets.d/NAME.secrets (a glob pattern)
 *
 * An entry starts at column 0; lines that start with a blank continue it
 * (RSA { ... } blocks). Only PSK entries are used; others are reported.
 */
#include <arpa/inet.h>
#include <ctype.h>
#include <stdarg.h>
#include <nssb64.h>
#include <stdbool.h>
#include <secitem.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>
#include <sys/stat.h>

#include "config/arena.h"
#include "config/incfiles.h"
#include "config/readfile.h"
#include "config/secrets.h"

struct sctx {
	struct secrets *out;
	unsigned flags; /* SECRETS_* */
	size_t cap;
	struct ikb_diag *d;
	struct incfiles inc; /* the files read so far */
	const char *from; /* the include line being expanded */
	unsigned line;
};

struct stok {
	const char *s;
	size_t len;
	bool quoted;
};

#define MAX_TOKS 64

static void load_path(struct sctx *c, const char *path, const char *from,
		      unsigned line);

/* Split an entry into tokens; false on an unterminated quote or brace. */
static bool tokenize(const char *p, const char *end, struct stok *t, size_t *n)
{
	*n = 0;
	while (p < end) {
		if (isspace((unsigned char)*p)) {
			p++;
			continue;
		}
		if (*p == '#') {
			const char *nl = memchr(p, '\n', end - p);

			p = nl ? nl : end;
			continue;
		}
		struct stok k = { .s = p };

		if (*p == '"' || *p == '{') {
			const char *q = memchr(p + 1, *p == '"' ? '"' : '}',
					       end - p - 1);

			if (!q)
				return false;
			k.s = p + 1;
			k.len = q - p - 1;
			k.quoted = *p == '"';
			p = q + 1;
		} else {
			while (p < end && !isspace((unsigned char)*p))
				p++;
			k.len = p - k.s;
		}
		if (*n < MAX_TOKS)
			t[*n] = k;
		(*n)++;
	}
	return true;
}

static bool tok_is(const struct stok *t, const char *s)
{
	return !t->quoted && t->len == strlen(s) &&
	       !strncasecmp(t->s, s, t->len);
}

static int hexval(int c)
{
	if (isdigit(c))
		return c - '0';
	c = tolower(c);
	return c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

/* libreswan's ttodata(): 0x hex (with _ between digits allowed) */
static uint8_t *decode_hex(const char *s, size_t len, size_t *out)
{
	uint8_t *k = malloc(len / 2 + 1);
	size_t n = 0;
	int hi = -1;

	if (!k)
		abort();
	for (size_t i = 0; i < len; i++) {
		int v = hexval((unsigned char)s[i]);

		if (s[i] == '_')
			continue;
		if (v < 0)
			goto bad;
		if (hi < 0) {
			hi = v;
		} else {
			k[n++] = (uint8_t)(hi << 4 | v);
			hi = -1;
		}
	}
	if (hi >= 0 || n == 0)
		goto bad;
	*out = n;
	return k;
bad:
	explicit_bzero(k, len / 2 + 1);
	free(k);
	return NULL;
}

static uint8_t *decode_b64(const char *s, size_t len, size_t *out)
{
	SECItem *it = NSSBase64_DecodeBuffer(NULL, NULL, s, (unsigned)len);
	uint8_t *k;

	if (!it)
		return NULL;
	if (it->len == 0 || !(k = malloc(it->len))) {
		SECITEM_ZfreeItem(it, PR_TRUE);
		return NULL;
	}
	memcpy(k, it->data, it->len);
	*out = it->len;
	SECITEM_ZfreeItem(it, PR_TRUE);
	return k;
}

static uint8_t *decode_psk(const struct stok *t, size_t *len, const char **why)
{
	uint8_t *k = NULL;

	if (t->quoted) {
		*why = "empty PSK";
		if (t->len == 0)
			return NULL;
		k = malloc(t->len);
		if (!k)
			abort();
		memcpy(k, t->s, t->len);
		*len = t->len;
		return k;
	}
	if (t->len > 2 &&
	    (!strncmp(t->s, "0x", 2) || !strncmp(t->s, "0X", 2))) {
		*why = "PSK 0x...: expected an even number of hex digits";
		return decode_hex(t->s + 2, t->len - 2, len);
	}
	if (t->len > 2 &&
	    (!strncmp(t->s, "0s", 2) || !strncmp(t->s, "0S", 2))) {
		*why = "PSK 0s...: expected base64";
		return decode_b64(t->s + 2, t->len - 2, len);
	}
	*why = "PSK: expected \"quoted text\", 0x hex or 0s base64";
	return NULL;
}

static void add_secret(struct sctx *c, const char *file, unsigned line,
		       const struct stok *sel, size_t nsel, uint8_t *key,
		       size_t keylen)
{
	struct secrets *s = c->out;

	if (s->n == c->cap) {
		c->cap = c->cap ? c->cap * 2 : 8;
		s->s = realloc(s->s, c->cap * sizeof(*s->s));
		if (!s->s)
			abort();
	}
	struct secret_entry *e = &s->s[s->n++];

	*e = (struct secret_entry){
		.type = SECRET_PSK,
		.nsel = nsel,
		.selectors = arena_alloc(s->arena, (nsel + 1) * sizeof(char *)),
		.key = key,
		.keylen = keylen,
		.file = file,
		.line = line,
	};
	for (size_t i = 0; i < nsel; i++)
		e->selectors[i] = arena_strndup(s->arena, sel[i].s, sel[i].len);
	secret_entry_keys(s->arena, e);
}

static void read_match(void *ctx, const char *path)
{
	struct sctx *c = ctx;

	load_path(c, path, c->from, c->line);
}

static void include(struct sctx *c, const char *file, unsigned line,
		    const struct stok *arg)
{
	char *pat = strndup(arg->s, arg->len);
	const char *from = c->from;
	unsigned from_line = c->line;

	if (!pat)
		abort();
	/* load_path() of a match expands its own includes: keep ours */
	c->from = file;
	c->line = line;
	incfiles_expand(file, line, pat, c->d, read_match, c);
	c->from = from;
	c->line = from_line;
	free(pat);
}

static void entry(struct sctx *c, const char *file, unsigned line,
		  const char *p, const char *end)
{
	struct stok t[MAX_TOKS];
	size_t n, colon;

	if (!tokenize(p, end, t, &n)) {
		diag_at(c->d, IKB_SEV_ERROR, file, line,
			"unterminated quote or { block");
		return;
	}
	if (n == 0)
		return;
	if (n > MAX_TOKS) {
		diag_at(c->d, IKB_SEV_ERROR, file, line,
			"too many selectors (at most %d)", MAX_TOKS - 3);
		return;
	}
	if (tok_is(&t[0], "include")) {
		if (n != 2)
			diag_at(c->d, IKB_SEV_ERROR, file, line,
				"include: expected one file name or pattern");
		else
			include(c, file, line, &t[1]);
		return;
	}
	for (colon = 0; colon < n && !tok_is(&t[colon], ":"); colon++)
		;
	if (colon == n || colon + 1 == n) {
		diag_at(c->d, IKB_SEV_ERROR, file, line,
			"expected SELECTORS : PSK \"secret\"");
		return;
	}
	const struct stok *type = &t[colon + 1];

	if (!tok_is(type, "PSK")) {
		static const char *const others[] = { "RSA",  "ECDSA", "XAUTH",
						      "EAP",  "PPK",   "PIN",
						      "NULL", NULL };
		for (size_t i = 0; others[i]; i++) {
			if (tok_is(type, others[i])) {
				diag_at(c->d, IKB_SEV_WARNING, file, line,
					"%s entry ignored: RSA/ECDSA/XAUTH/PPK entries are not used by ikebana",
					others[i]);
				return;
			}
		}
		diag_at(c->d, IKB_SEV_ERROR, file, line,
			"unknown secret type \"%.*s\": expected PSK",
			(int)type->len, type->s);
		return;
	}
	if (colon + 3 != n) {
		diag_at(c->d, IKB_SEV_ERROR, file, line,
			"PSK: expected exactly one secret after PSK (quote a secret that contains blanks)");
		return;
	}
	const char *why = NULL;
	size_t keylen = 0;
	uint8_t *key = decode_psk(&t[colon + 2], &keylen, &why);

	if (!key) {
		diag_at(c->d, IKB_SEV_ERROR, file, line, "%s", why);
		return;
	}
	add_secret(c, file, line, t, colon, key, keylen);
}

static bool starts_entry(const char *p, const char *end)
{
	return p < end && !isspace((unsigned char)*p) && *p != '#';
}

static void parse(struct sctx *c, const char *file, const char *buf, size_t len)
{
	const char *p = buf, *end = buf + len, *start = NULL;
	unsigned line = 0, start_line = 0;

	while (p < end) {
		const char *nl = memchr(p, '\n', end - p);
		const char *eol = nl ? nl : end;

		line++;
		if (starts_entry(p, eol)) {
			if (start)
				entry(c, file, start_line, start, p);
			start = p;
			start_line = line;
		} else if (!start) {
			const char *q = p;

			while (q < eol && isspace((unsigned char)*q))
				q++;
			if (q < eol && *q != '#')
				diag_at(c->d, IKB_SEV_ERROR, file, line,
					"indented line outside an entry (an entry starts at column 0)");
		}
		p = eol + 1;
	}
	if (start)
		entry(c, file, start_line, start, end);
}

/*
 * A file that cannot be read, at the include line that names it, as
 * "FROM:LINE: include PATH: what"; the top-level file as "PATH: what".
 */
static void path_error(struct sctx *c, const char *path, const char *from,
		       unsigned line, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));

static void path_error(struct sctx *c, const char *path, const char *from,
		       unsigned line, const char *fmt, ...)
{
	char *what;
	va_list ap;

	va_start(ap, fmt);
	what = diag_vasprintf(fmt, ap);
	va_end(ap);
	if (from)
		diag_at(c->d, IKB_SEV_ERROR, from, line, "include %s: %s", path,
			what);
	else
		diag_at(c->d, IKB_SEV_ERROR, path, 0, "%s", what);
	free(what);
}

/* Whether the opened file may be read here, entering it if so (incfiles.h); closes fd if not. */
static bool may_load(struct sctx *c, const struct stat *st, int fd,
		     const char *path, const char *from, unsigned line)
{
	/* keys are read only from files no one else can read */
	if ((st->st_mode & 077) && !(c->flags & SECRETS_MODE_WARN))
		path_error(c, path, from, line,
			   "mode %04o is group- or world-accessible; run "
			   "chmod 600 %s",
			   (unsigned)(st->st_mode & 07777), path);
	/* nor from one another user could rewrite: its keys would be theirs */
	else if (st->st_uid != 0 && st->st_uid != geteuid())
		path_error(c, path, from, line,
			   "owned by uid %u, neither root nor this process's "
			   "user (uid %u): that user could change its keys; "
			   "run chown root %s",
			   (unsigned)st->st_uid, (unsigned)geteuid(), path);
	else if (incfiles_enter(&c->inc, st, path, from, line, c->d)) {
		if (st->st_mode & 077)
			diag_at(c->d, IKB_SEV_WARNING, from ? from : path,
				from ? line : 0,
				"%s: mode %04o is group- or world-accessible; "
				"loaded all the same under libreswan's paths "
				"(an orchestrator writes it so): run chmod 600 "
				"%s",
				path, (unsigned)(st->st_mode & 07777), path);
		return true;
	}
	close(fd);
	return false;
}

static void load_path(struct sctx *c, const char *path, const char *from,
		      unsigned line)
{
	const char *file, *why;
	struct stat st;
	size_t len = 0;
	char *buf;
	int fd;

	if (incfiles_known(&c->inc, path, from, line, c->d))
		return;
	file = arena_intern(c->out->arena, path);
	fd = cfg_open_regular(path, &st, &why);
	if (fd < 0) {
		path_error(c, file, from, line, "%s", why);
		return;
	}
	if (!may_load(c, &st, fd, file, from, line))
		return;
	buf = cfg_read_fd(fd, (size_t)st.st_size, &len, &why);
	if (buf) {
		parse(c, file, buf, len);
		explicit_bzero(buf, len);
		free(buf);
	} else {
		path_error(c, file, from, line, "%s", why);
	}
	incfiles_leave(&c->inc);
}

int secrets_load(const char *path, struct secrets **out, struct ikb_diag *d)
{
	return secrets_load_ex(path, 0, out, d);
}

int secrets_load_ex(const char *path, unsigned flags, struct secrets **out,
		    struct ikb_diag *d)
{
	struct secrets *s = calloc(1, sizeof(*s));
	unsigned before = d->errors;

	if (!s)
		abort();
	s->arena = arena_new();
	struct sctx c = { .out = s, .flags = flags, .d = d };

	load_path(&c, path, NULL, 0);
	incfiles_free(&c.inc);
	*out = s;
	return d->errors > before ? -1 : 0;
}

void secrets_free(struct secrets *s)
{
	if (!s)
		return;
	for (size_t i = 0; i < s->n; i++) {
		explicit_bzero(s->s[i].key, s->s[i].keylen);
		free(s->s[i].key);
	}
	free(s->s);
	arena_free(s->arena);
	free(s);
}
