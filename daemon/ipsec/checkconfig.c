// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * ipsec checkconfig (libreswan 5; 4's addconn --checkconfig): the
 * configuration file read and checked as ikebanad would load it, without
 * the daemon. The same check as `ikebana checkconfig` (one piece of code:
 * cli/checkconfig.c), on libreswan's paths; silent when the file is
 * good, as libreswan's, and "FILE:LINE: error: ..." when not.
 */
#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>

#include "cli/cli.h"
#include "ipsec/checkconfig.h"
#include "ipsec/initnss.h"

int ipsec_checkconfig(const struct cli *c, const char *config,
		      const char *nssdir)
{
	char *argv[] = { "checkconfig", "--nssdir",
			 (char *)(nssdir ? nssdir : IPSEC_LSW_NSSDIR),
			 (char *)(config ? config : IPSEC_LSW_CONFIG), NULL };
	int out = dup(STDOUT_FILENO), null = open("/dev/null", O_WRONLY);
	int rc;

	/* the expanded configuration that ikebana checkconfig prints */
	fflush(stdout);
	if (out < 0 || null < 0 || dup2(null, STDOUT_FILENO) < 0) {
		fprintf(stderr, "ipsec checkconfig: cannot open /dev/null\n");
		return CLI_FAIL;
	}
	close(null);
	rc = checkconfig_main(c, 4, argv);
	fflush(stdout);
	dup2(out, STDOUT_FILENO);
	close(out);
	return rc;
}
