// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include "config/internal.h"
#include "config/readfile.h"

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

/* An included file that cannot be read: at the include that names it. */
static void path_error(struct parse_ctx *p, const char *path, const char *from,
		       unsigned line, const char *why)
{
	if (from)
		diag_at(p->d, IKB_SEV_ERROR, from, line, "include %s: %s", path,
			why);
	else
		diag_at(p->d, IKB_SEV_ERROR, path, 0, "cannot read %s: %s",
			path, why);
}

/* Whether path may be read where it is included; closes fd if not. */
static bool may_include(struct parse_ctx *p, const struct stat *st, int fd,
			const char *file, const char *from, unsigned line)
{
	for (unsigned i = 0; i < p->depth; i++) {
		if (p->stack[i].dev == st->st_dev &&
		    p->stack[i].ino == st->st_ino) {
			report_cycle(p, i, file, from, line);
			close(fd);
			return false;
		}
	}
	if (p->depth > CFG_MAX_INCLUDE_DEPTH) {
		diag_at(p->d, IKB_SEV_ERROR, from, line,
			"include %s: includes nest more than %d deep", file,
			CFG_MAX_INCLUDE_DEPTH);
		close(fd);
		return false;
	}
	return true;
}

void parse_path(struct parse_ctx *p, const char *path, const char *from,
		unsigned line)
{
	const char *file = arena_intern(p->a, path), *why;
	struct stat st;
	size_t len;
	char *buf;
	int fd = cfg_open_regular(path, &st, &why);

	if (fd < 0) {
		path_error(p, file, from, line, why);
		return;
	}
	if (!may_include(p, &st, fd, file, from, line))
		return;
	buf = cfg_read_fd(fd, (size_t)st.st_size, &len, &why);
	if (!buf) {
		path_error(p, file, from, line, why);
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
