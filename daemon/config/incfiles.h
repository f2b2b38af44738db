/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The files one load reads through `include`, for ikebana.conf and
 * ikebana.secrets alike: the chain being read, to refuse a cycle and
 * nesting past libreswan's 10 (lib/libipsecconf/parser.l), and every file
 * read so far, so that a file matched again (by a second include line or by
 * two patterns that overlap) is read once. Without the second, files that
 * include one another a few times over are read exponentially often: five
 * small files made one load read tens of thousands.
 */
#ifndef IKB_CONFIG_INCFILES_H
#define IKB_CONFIG_INCFILES_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/stat.h>
#include <sys/types.h>

#include "config/diag.h"

#define CFG_MAX_INCLUDE_DEPTH 10

struct incfile {
	dev_t dev;
	ino_t ino;
	bool is_file; /* false for text parsed from a buffer */
	const char *file; /* interned by the caller; outlives the load */
	const char *from; /* where it was first included; NULL at the top */
	unsigned line;
};

struct incfiles {
	struct incfile *f;
	size_t n, cap;
	size_t chain[CFG_MAX_INCLUDE_DEPTH + 1]; /* indexes into f */
	unsigned depth;
};

/*
 * Whether file, opened as st (NULL for a buffer), is to be read where
 * from:line includes it (from NULL for the top-level file). A cycle or too
 * deep a nesting is an error; a file read before is a warning, naming
 * where it was first read. On true the file is entered: call
 * incfiles_leave() once it is read.
 */
bool incfiles_enter(struct incfiles *in, const struct stat *st,
		    const char *file, const char *from, unsigned line,
		    struct ikb_diag *d);
void incfiles_leave(struct incfiles *in);

/*
 * Whether path, which from:line includes, is a file this load has read
 * or is reading, told by stat(2) before it is opened, and reported as
 * incfiles_enter() would. Files that include each other many times over
 * are then told apart with one system call instead of an open, an fstat
 * and a close each time. incfiles_enter() still decides on the opened
 * file: a path that is not known here may turn out to be known there.
 */
bool incfiles_known(const struct incfiles *in, const char *path,
		    const char *from, unsigned line, struct ikb_diag *d);
void incfiles_free(struct incfiles *in);

/*
 * `include PATTERN` at from:line: glob(3) PATTERN, relative to from's
 * directory, and call read(ctx, path) for each match in sorted order. A
 * pattern may match nothing; a plain name must exist.
 */
void incfiles_expand(const char *from, unsigned line, const char *pattern,
		     struct ikb_diag *d,
		     void (*read)(void *ctx, const char *path), void *ctx);

#endif
