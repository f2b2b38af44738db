/* SPDX-License-Identifier: GPL-2.0-or-later */
/* ipsec checkconfig (checkconfig.c). */
#ifndef IKB_IPSEC_CHECKCONFIG_H
#define IKB_IPSEC_CHECKCONFIG_H

#include "cli/cli.h"

/* libreswan's configuration file */
#define IPSEC_LSW_CONFIG "/etc/ipsec.conf"

/* config, nssdir NULL: libreswan's. The exit code. */
int ipsec_checkconfig(const struct cli *c, const char *config,
		      const char *nssdir);

#endif
