/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What the engine tells of itself: the failure records (failure.h, and
 * ike_failure.h the readers' side) and the counters (ike_stats.h); the
 * status its readers get is declared in ike.h. The header of
 * daemon/ike/status/, the one the other folders include. Not for use
 * outside daemon/ike/.
 */
#ifndef IKB_IKE_STATUS_H
#define IKB_IKE_STATUS_H

#include <stdio.h>

#include "ike/status/failure.h"
#include "ike/status/ike_stats.h"

struct ike_sa;

/* host_status.c: sa's hosts for its status entry (none: nothing). */
struct json_object;
void hosts_put_sa(struct json_object *o, const struct ike_sa *sa);
/* The same as the line of `ikebana status` (status_text.c). */
void hosts_text_sa(FILE *f, const struct ike_sa *sa);

#endif
