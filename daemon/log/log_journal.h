/* SPDX-License-Identifier: GPL-2.0-or-later */
/* log.c's way to the journal, with the fields of a line's context. */
#ifndef IKB_LOG_JOURNAL_H
#define IKB_LOG_JOURNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/uio.h>

struct log_ctx;

/* stderr is a stream of the journal ($JOURNAL_STREAM is its dev:ino). */
bool log_journal_is_stderr(void);

/* A line's fields, MESSAGE first; the context's only where set. */
struct log_journal_line {
	char text[6][1100];
	struct iovec iov[6];
};
size_t log_journal_fields(struct log_journal_line *l, int priority,
			  const char *ident, const char *msg,
			  const struct log_ctx *ctx);
/* 0 or -errno (the caller then writes the line to stderr). */
int log_journal_send(int priority, const char *ident, const char *msg,
		     const struct log_ctx *ctx);

#endif
