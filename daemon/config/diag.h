/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Configuration diagnostics. Every message carries file:line and is printed
 * as "FILE:LINE: error: conn NAME: KEY=VALUE: what was expected". Parsing
 * goes on after an error so that one run shows every problem.
 */
#ifndef IKB_CONFIG_DIAG_H
#define IKB_CONFIG_DIAG_H

#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <ikebana/host.h>

struct diag_msg {
	enum ikb_severity sev;
	char *file; /* NULL when no file applies */
	unsigned line;
	char *text; /* without the "FILE:LINE: error: " prefix */
};

struct ikb_diag {
	size_t n, cap;
	struct diag_msg *msgs;
	unsigned errors, warnings;
};

void diag_init(struct ikb_diag *d);
void diag_free(struct ikb_diag *d);
/* vasprintf() that aborts rather than return NULL, as the rest of diag.c
 * does on no memory: a message is never silently lost, and its callers
 * need no failure path. */
char *diag_vasprintf(const char *fmt, va_list ap)
	__attribute__((format(printf, 1, 0)));
void diag_at(struct ikb_diag *d, enum ikb_severity sev, const char *file,
	     unsigned line, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));
void diag_vat(struct ikb_diag *d, enum ikb_severity sev, const char *file,
	      unsigned line, const char *fmt, va_list ap)
	__attribute__((format(printf, 5, 0)));
/* The host->report implementation: prefixes "conn NAME: KEY=VALUE: ". */
void diag_report(struct ikb_diag *d, const struct ikb_section *s,
		 const struct ikb_value *at, enum ikb_severity sev,
		 const char *fmt, ...) __attribute__((format(printf, 5, 6)));
/* One line per message: "FILE:LINE: error: text". */
void diag_print(const struct ikb_diag *d, FILE *f);
/* The same line for message i, into buf. */
const char *diag_format(const struct ikb_diag *d, size_t i, char *buf,
			size_t len);

#endif
