// SPDX-License-Identifier: GPL-2.0-or-later
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config/config.h"
#include "config/diag.h"

static const char *const sev_names[] = {
	[IKB_SEV_ERROR] = "error",
	[IKB_SEV_WARNING] = "warning",
	[IKB_SEV_NOTICE] = "note",
};

void diag_init(struct ikb_diag *d)
{
	memset(d, 0, sizeof(*d));
}

void diag_free(struct ikb_diag *d)
{
	for (size_t i = 0; i < d->n; i++) {
		free(d->msgs[i].file);
		free(d->msgs[i].text);
	}
	free(d->msgs);
	memset(d, 0, sizeof(*d));
}

char *diag_vasprintf(const char *fmt, va_list ap)
{
	char *s;

	if (vasprintf(&s, fmt, ap) < 0)
		abort();
	return s;
}

static char *xstrdup(const char *s)
{
	char *p = strdup(s);

	if (!p)
		abort();
	return p;
}

void diag_vat(struct ikb_diag *d, enum ikb_severity sev, const char *file,
	      unsigned line, const char *fmt, va_list ap)
{
	if (d->n == d->cap) {
		size_t cap = d->cap ? d->cap * 2 : 16;
		struct diag_msg *m = realloc(d->msgs, cap * sizeof(*m));

		if (!m)
			abort();
		d->msgs = m;
		d->cap = cap;
	}
	struct diag_msg *m = &d->msgs[d->n++];

	m->sev = sev;
	m->file = file ? xstrdup(file) : NULL;
	m->line = line;
	m->text = diag_vasprintf(fmt, ap);
	if (sev == IKB_SEV_ERROR)
		d->errors++;
	else if (sev == IKB_SEV_WARNING)
		d->warnings++;
}

void diag_at(struct ikb_diag *d, enum ikb_severity sev, const char *file,
	     unsigned line, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	diag_vat(d, sev, file, line, fmt, ap);
	va_end(ap);
}

void diag_report(struct ikb_diag *d, const struct ikb_section *s,
		 const struct ikb_value *at, enum ikb_severity sev,
		 const char *fmt, ...)
{
	char *what;
	va_list ap;

	va_start(ap, fmt);
	what = diag_vasprintf(fmt, ap);
	va_end(ap);

	const char *file = at ? at->file : s ? s->file : NULL;
	unsigned line = at ? at->line : s ? s->line : 0;
	char sect[300] = "";

	if (s && s->kind == CFG_SETUP)
		snprintf(sect, sizeof(sect), "config setup: ");
	else if (s)
		snprintf(sect, sizeof(sect), "conn %s: ", s->name);
	if (at)
		diag_at(d, sev, file, line, "%s%s=%s: %s", sect, at->key,
			at->value, what);
	else
		diag_at(d, sev, file, line, "%s%s", sect, what);
	free(what);
}

const char *diag_format(const struct ikb_diag *d, size_t i, char *buf,
			size_t len)
{
	const struct diag_msg *m = &d->msgs[i];
	const char *sev = sev_names[m->sev];

	if (m->file && m->line)
		snprintf(buf, len, "%s:%u: %s: %s", m->file, m->line, sev,
			 m->text);
	else if (m->file)
		snprintf(buf, len, "%s: %s: %s", m->file, sev, m->text);
	else
		snprintf(buf, len, "%s: %s", sev, m->text);
	return buf;
}

void diag_print(const struct ikb_diag *d, FILE *f)
{
	char buf[2048];

	for (size_t i = 0; i < d->n; i++)
		fprintf(f, "%s\n", diag_format(d, i, buf, sizeof(buf)));
}
