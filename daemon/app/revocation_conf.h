/* SPDX-License-Identifier: GPL-2.0-or-later */
/* config setup's crl-strict= and ocsp-*= keys, applied to the crypto layer. */
#ifndef IKBD_REVOCATION_CONF_H
#define IKBD_REVOCATION_CONF_H

#include "plugin/conf_load.h"

void ikbd_revocation_apply(const struct loaded_conf *lc);

#endif
