// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The database `ikebana listcerts` and `ikebana import` work on without
 * --nssdir: the daemon's, nssdir= of the default configuration when it
 * sets one, else the compiled-in default. A configuration that does not
 * parse says nothing here: checkconfig is for that.
 */
#include <stdio.h>
#include <unistd.h>

#include "build-config.h"
#include "cli/cli.h"
#include "config/config.h"
#include "config/diag.h"

const char *cli_default_nssdir(char *buf, size_t cap)
{
	struct ikb_diag d;
	struct cfg *c = NULL;
	const struct ikb_value *v;

	snprintf(buf, cap, "%s", IKB_DEFAULT_NSSDIR);
	if (access(IKB_DEFAULT_CONFIG, R_OK))
		return buf;
	diag_init(&d);
	if (!cfg_parse_file(IKB_DEFAULT_CONFIG, &c, &d) && c &&
	    (v = c->set.nssdir) && v->value[0] == '/')
		snprintf(buf, cap, "%s", v->value);
	cfg_free(c);
	diag_free(&d);
	return buf;
}
