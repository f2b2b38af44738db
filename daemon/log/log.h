/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Levelled logging to stderr, to the journal (with fields) when stderr is
 * the journal's, or syslog, or to a file (logfile=) in place of them.
 */
#ifndef IKB_LOG_H
#define IKB_LOG_H

#include <stdarg.h>
#include <stdbool.h>
#include <ikebana/host.h>

enum log_target { LOG_TO_STDERR, LOG_TO_SYSLOG };

void log_setup(enum log_target target, enum ikb_log_level max,
	       const char *ident);
void log_set_level(enum ikb_log_level max);
enum ikb_log_level log_get_level(void);
bool log_enabled(enum ikb_log_level level);
void logm(enum ikb_log_level level, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/*
 * What a line is about, for the journal's fields (IKB_CONN, IKB_SERIAL,
 * IKB_PEER; log_journal.c). The text of the line is as it is without.
 */
struct log_ctx {
	const char *conn;
	unsigned long serial; /* 0: none */
	const char *peer; /* an address as text, or NULL */
};
void logm_ctx(enum ikb_log_level level, const struct log_ctx *ctx,
	      const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* Whether lines go where fields are kept: worth making a context. */
bool log_has_fields(void);
void vlogm(enum ikb_log_level level, const char *fmt, va_list ap)
	__attribute__((format(printf, 2, 0)));
/* Parse "err", "warning", "notice", "info", "debug"; -1 if unknown. */
int log_level_parse(const char *name);

/*
 * logfile=: append each line, with a timestamp, to the file at path
 * (created 0600) in place of the target of log_setup(), which stays
 * configured underneath. 0, or -errno with the output unchanged.
 */
int log_file_open(const char *path);
/* Open the same path again (logrotate moved the file): 0 or -errno. */
int log_file_reopen(void);
/* Back to the target of log_setup(). */
void log_file_close(void);
/* The file logged to, or NULL. */
const char *log_file_path(void);

/*
 * A budget of lines per second for messages an attacker can trigger at
 * will (one per dropped datagram), so that a flood cannot flood the journal.
 * The count of what was held back is logged when the next second begins.
 */
struct log_ratelimit {
	unsigned per_sec;
	const char *what; /* "dropped datagrams", for the summary line */
	long long window;
	unsigned count, suppressed;
};

bool log_ratelimit_ok(struct log_ratelimit *rl);

#define log_err(...) logm(IKB_LOG_ERR, __VA_ARGS__)
#define log_warn(...) logm(IKB_LOG_WARNING, __VA_ARGS__)
#define log_notice(...) logm(IKB_LOG_NOTICE, __VA_ARGS__)
#define log_info(...) logm(IKB_LOG_INFO, __VA_ARGS__)
#define log_debug(...) logm(IKB_LOG_DEBUG, __VA_ARGS__)

#endif
