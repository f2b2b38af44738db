/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The engine's ike_io resolve, on the helper pool (resolve_glue.c). */
#ifndef IKB_DAEMON_RESOLVE_GLUE_H
#define IKB_DAEMON_RESOLVE_GLUE_H

#include "ike/ike.h"

int ikbd_resolve(void *ctx, const struct ike_host_query *q,
		 ike_resolved_fn *done, void *arg);

#endif
