/* SPDX-License-Identifier: GPL-2.0-or-later */
/* ipsec checknss and initnss: the NSS database (initnss.c). */
#ifndef IKB_IPSEC_INITNSS_H
#define IKB_IPSEC_INITNSS_H

#include "ipsec/args.h"

/* libreswan's database, which ikebanad --libreswan-paths opens */
#define IPSEC_LSW_NSSDIR "/var/lib/ipsec/nss"

/* v: IPSEC_CHECKNSS or IPSEC_INITNSS; dir NULL: libreswan's. Exit code. */
int ipsec_nss(enum ipsec_verb v, const char *dir);

#endif
