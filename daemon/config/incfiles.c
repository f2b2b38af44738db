// SPDX-License-Identifier: GPL-2.0-or-later
/* The files one load reads through include; see incfiles.h. */
#include <errno.h>
#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config/incfiles.h"

static bool same(const struct incfile *f, const struct stat *st)
{
	return f->is_file && f->dev == st->st_dev && f->ino == st->st_ino;
}

/* "A → B → A": the chain from the file that is included again. */
static void report_cycle(const struct incfiles *in, unsigned from_depth,
			 const char *file, const char *from, unsigned line,
			 struct ikb_diag *d)
{
	char *chain = NULL;
	size_t n = 0;
	FILE *f = open_memstream(&chain, &n);

	if (!f)
		abort();
	for (unsigned i = from_depth; i < in->depth; i++)
		fprintf(f, "%s → ", in->f[in->chain[i]].file);
	if (fclose(f))
		abort();
	diag_at(d, IKB_SEV_ERROR, from, line, "include cycle: %s%s", chain,
		file);
	free(chain);
}

static const struct incfile *read_before(const struct incfiles *in,
					 const struct stat *st)
{
	for (size_t i = 0; i < in->n; i++)
		if (same(&in->f[i], st))
			return &in->f[i];
	return NULL;
}

/* Whether st is in the chain being read (an error) or was read (a warning). */
static bool seen(const struct incfiles *in, const struct stat *st,
		 const char *file, const char *from, unsigned line,
		 struct ikb_diag *d)
{
	const struct incfile *prev;

	for (unsigned i = 0; i < in->depth; i++) {
		if (same(&in->f[in->chain[i]], st)) {
			report_cycle(in, i, file, from, line, d);
			return true;
		}
	}
	prev = read_before(in, st);
	if (prev && prev->from) {
		diag_at(d, IKB_SEV_WARNING, from, line,
			"include %s: already read, as included at %s:%u; not read again",
			file, prev->from, prev->line);
		return true;
	}
	if (prev) {
		diag_at(d, IKB_SEV_WARNING, from, line,
			"include %s: already read; not read again", file);
		return true;
	}
	return false;
}

static bool may_enter(const struct incfiles *in, const struct stat *st,
		      const char *file, const char *from, unsigned line,
		      struct ikb_diag *d)
{
	if (seen(in, st, file, from, line, d))
		return false;
	if (in->depth > CFG_MAX_INCLUDE_DEPTH) {
		diag_at(d, IKB_SEV_ERROR, from, line,
			"include %s: includes nest more than %d deep", file,
			CFG_MAX_INCLUDE_DEPTH);
		return false;
	}
	return true;
}

bool incfiles_known(const struct incfiles *in, const char *path,
		    const char *from, unsigned line, struct ikb_diag *d)
{
	struct stat st;

	return from && in->n && !stat(path, &st) && S_ISREG(st.st_mode) &&
	       seen(in, &st, path, from, line, d);
}

bool incfiles_enter(struct incfiles *in, const struct stat *st,
		    const char *file, const char *from, unsigned line,
		    struct ikb_diag *d)
{
	if (st && !may_enter(in, st, file, from, line, d))
		return false;
	if (in->n == in->cap) {
		in->cap = in->cap ? in->cap * 2 : 8;
		in->f = realloc(in->f, in->cap * sizeof(*in->f));
		if (!in->f)
			abort();
	}
	in->f[in->n] = (struct incfile){
		.dev = st ? st->st_dev : 0,
		.ino = st ? st->st_ino : 0,
		.is_file = st != NULL,
		.file = file,
		.from = from,
		.line = line,
	};
	in->chain[in->depth++] = in->n++;
	return true;
}

void incfiles_leave(struct incfiles *in)
{
	in->depth--;
}

void incfiles_free(struct incfiles *in)
{
	free(in->f);
	*in = (struct incfiles){ 0 };
}

/* The including file's directory anchors a relative pattern. */
static char *anchored(const char *from, const char *pattern)
{
	const char *slash = from ? strrchr(from, '/') : NULL;
	int dirlen = slash ? (int)(slash - from) : 0;
	char *out;

	if (pattern[0] == '/' || !slash)
		out = strdup(pattern);
	else if (asprintf(&out, "%.*s/%s", dirlen, from, pattern) < 0)
		out = NULL;
	if (!out)
		abort();
	return out;
}

void incfiles_expand(const char *from, unsigned line, const char *pattern,
		     struct ikb_diag *d,
		     void (*read)(void *ctx, const char *path), void *ctx)
{
	char *path = anchored(from, pattern);
	glob_t g;
	int r = glob(path, GLOB_BRACE, NULL, &g);

	if (r == GLOB_NOMATCH) {
		/* conf.d/NAME.conf may match nothing; a named file must exist */
		if (!strpbrk(pattern, "*?[{"))
			diag_at(d, IKB_SEV_ERROR, from, line,
				"include %s: %s: %s", pattern, path,
				strerror(ENOENT));
	} else if (r != 0) {
		diag_at(d, IKB_SEV_ERROR, from, line,
			"include %s: cannot expand the pattern", pattern);
	} else {
		for (size_t i = 0; i < g.gl_pathc; i++)
			read(ctx, g.gl_pathv[i]);
	}
	if (r != GLOB_NOMATCH)
		globfree(&g);
	free(path);
}
