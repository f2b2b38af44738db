// SPDX-License-Identifier: GPL-2.0-or-later
/* The few pieces of the exposition format the metrics write. */
#include <stdio.h>

#include "control/metrics.h"

void om_family(FILE *f, const char *name, const char *type, const char *help)
{
	fprintf(f, "# HELP %s %s\n# TYPE %s %s\n", name, help, name, type);
}

void om_label(FILE *f, const char *v)
{
	for (; *v; v++) {
		if (*v == '\\' || *v == '"')
			fputc('\\', f);
		if (*v == '\n')
			fputs("\\n", f);
		else
			fputc(*v, f);
	}
}
