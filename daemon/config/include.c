// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "config/internal.h"

/* The including file's directory anchors a relative include. */
static char *include_path(const char *from, const char *arg)
{
	char *out;
	const char *slash = from ? strrchr(from, '/') : NULL;

	if (arg[0] == '/' || !slash) {
		out = strdup(arg);
	} else if (asprintf(&out, "%.*s/%s", (int)(slash - from), from, arg) <
		   0) {
		out = NULL;
	}
	if (!out)
		abort();
	return out;
}

static bool is_pattern(const char *s)
{
	return strpbrk(s, "*?[{") != NULL;
}

void parse_include(struct parse_ctx *p, const char *file, unsigned line,
		   const char *arg)
{
	char *path = include_path(file, arg);
	glob_t g;
	int r = glob(path, GLOB_BRACE, NULL, &g);

	if (r == GLOB_NOMATCH) {
		/* a pattern like conf.d/NAME.conf may match nothing; a named file must exist */
		if (!is_pattern(arg))
			diag_at(p->d, IKB_SEV_ERROR, file, line,
				"include %s: %s: %s", arg, path,
				strerror(ENOENT));
	} else if (r != 0) {
		diag_at(p->d, IKB_SEV_ERROR, file, line,
			"include %s: cannot expand the pattern", arg);
	} else {
		for (size_t i = 0; i < g.gl_pathc; i++)
			parse_path(p, g.gl_pathv[i], file, line);
	}
	if (r != GLOB_NOMATCH)
		globfree(&g);
	free(path);
}

static void report_cycle(struct parse_ctx *p, unsigned from_depth,
			 const char *path, const char *from, unsigned line)
{
	size_t cap = 256, n = 0;
	char *chain = malloc(cap);

	if (!chain)
		abort();
	chain[0] = '\0';
	for (unsigned i = from_depth; i < p->depth; i++) {
		const char *f = p->stack[i].file;
		size_t need = n + strlen(f) + 8;

		if (need > cap) {
			cap = need * 2;
			chain = realloc(chain, cap);
			if (!chain)
				abort();
		}
		n += sprintf(chain + n, "%s → ", f);
	}
	diag_at(p->d, IKB_SEV_ERROR, from, line, "include cycle: %s%s", chain,
		path);
	free(chain);
}

void parse_path(struct parse_ctx *p, const char *path, const char *from,
		unsigned line)
{
	const char *file = arena_intern(p->a, path);
	struct stat st;

	int e = stat(path, &st) < 0  ? errno :
		S_ISDIR(st.st_mode)  ? EISDIR :
		!S_ISREG(st.st_mode) ? EINVAL :
				       0;

	if (e) {
		diag_at(p->d, IKB_SEV_ERROR, from ? from : file, line,
			"%s%s: %s", from ? "include " : "cannot read ", path,
			strerror(e));
		return;
	}
	for (unsigned i = 0; i < p->depth; i++) {
		if (p->stack[i].dev == st.st_dev &&
		    p->stack[i].ino == st.st_ino) {
			report_cycle(p, i, file, from, line);
			return;
		}
	}
	if (p->depth > CFG_MAX_INCLUDE_DEPTH) {
		diag_at(p->d, IKB_SEV_ERROR, from, line,
			"include %s: includes nest more than %d deep", path,
			CFG_MAX_INCLUDE_DEPTH);
		return;
	}
	size_t len;
	char *buf = read_file(path, &len);

	if (!buf) {
		diag_at(p->d, IKB_SEV_ERROR, from ? from : file, line,
			"%s%s: %s", from ? "include " : "cannot read ", path,
			strerror(errno));
		return;
	}
	p->stack[p->depth++] = (struct include_frame){
		.dev = st.st_dev,
		.ino = st.st_ino,
		.file = file,
	};
	parse_text(p, file, buf, len);
	p->depth--;
	free(buf);
}
