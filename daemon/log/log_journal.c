// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Under systemd, a line about an IKE SA goes to the journal through its
 * native protocol (libsystemd) rather than as text on stderr, so that it
 * carries fields, IKB_CONN, IKB_SERIAL and IKB_PEER, and
 * `journalctl IKB_CONN=west-east` shows one conn's story. Other lines
 * stay text on the stream (see log.c for why). stderr is the
 * journal when $JOURNAL_STREAM names its device and inode, as systemd
 * documents (systemd.exec(5)); a stderr redirected elsewhere by the
 * caller keeps its text lines.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <unistd.h>
#include <systemd/sd-journal.h>

#include "log/log.h"
#include "log/log_journal.h"

bool log_journal_is_stderr(void)
{
	const char *js = getenv("JOURNAL_STREAM");
	unsigned long long dev, ino;
	struct stat st;

	if (!js || sscanf(js, "%llu:%llu", &dev, &ino) != 2 ||
	    fstat(STDERR_FILENO, &st))
		return false;
	return (unsigned long long)st.st_dev == dev &&
	       (unsigned long long)st.st_ino == ino;
}

size_t log_journal_fields(struct log_journal_line *l, int priority,
			  const char *ident, const char *msg,
			  const struct log_ctx *ctx)
{
	size_t n = 0;

#define FIELD(...)                                                             \
	do {                                                                   \
		int len =                                                      \
			snprintf(l->text[n], sizeof(l->text[n]), __VA_ARGS__); \
		if (len > 0) {                                                 \
			l->iov[n].iov_base = l->text[n];                       \
			l->iov[n].iov_len = (size_t)len < sizeof(l->text[n]) ? \
						    (size_t)len :              \
						    sizeof(l->text[n]) - 1;    \
			n++;                                                   \
		}                                                              \
	} while (0)
	FIELD("MESSAGE=%s", msg);
	FIELD("PRIORITY=%d", priority);
	FIELD("SYSLOG_IDENTIFIER=%s", ident);
	if (ctx && ctx->conn)
		FIELD("IKB_CONN=%s", ctx->conn);
	if (ctx && ctx->serial)
		FIELD("IKB_SERIAL=%lu", ctx->serial);
	if (ctx && ctx->peer && ctx->peer[0])
		FIELD("IKB_PEER=%s", ctx->peer);
#undef FIELD
	return n;
}

int log_journal_send(int priority, const char *ident, const char *msg,
		     const struct log_ctx *ctx)
{
	struct log_journal_line l;
	size_t n = log_journal_fields(&l, priority, ident, msg, ctx);

	return sd_journal_sendv(l.iov, (int)n);
}
