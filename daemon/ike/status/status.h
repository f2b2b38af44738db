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

#include "ike/status/failure.h"
#include "ike/status/ike_stats.h"

#endif
