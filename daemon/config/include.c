// SPDX-License-Identifier: GPL-2.0-or-later
/* ikebana.conf's include lines; incfiles.c keeps what one load has read. */
#include <stdlib.h>
#include <unistd.h>
#include <sys/stat.h>

#include "config/internal.h"
#include "config/readfile.h"

static void read_match(void *ctx, const char *path);

struct match_ctx {
	struct parse_ctx *p;
	const char *from;
	unsigned line;
};

void parse_include(struct parse_ctx *p, const char *file, unsigned line,
		   const char *arg)
{
	struct match_ctx m = { .p = p, .from = file, .line = line };

	incfiles_expand(file, line, arg, p->d, read_match, &m);
}

static void read_match(void *ctx, const char *path)
{
	const struct match_ctx *m = ctx;

	parse_path(m->p, path, m->from, m->line);
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

void parse_path(struct parse_ctx *p, const char *path, const char *from,
		unsigned line)
{
	const char *file, *why;
	struct stat st;
	size_t len;
	char *buf;
	int fd;

	if (incfiles_known(&p->inc, path, from, line, p->d))
		return;
	file = arena_intern(p->a, path);
	fd = cfg_open_regular(path, &st, &why);
	if (fd < 0) {
		path_error(p, file, from, line, why);
		return;
	}
	if (!incfiles_enter(&p->inc, &st, file, from, line, p->d)) {
		close(fd);
		return;
	}
	buf = cfg_read_fd(fd, (size_t)st.st_size, &len, &why);
	if (!buf)
		path_error(p, file, from, line, why);
	else
		parse_text(p, file, buf, len);
	incfiles_leave(&p->inc);
	free(buf);
}
