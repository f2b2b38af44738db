/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * An IKE SA's path, and the Child SAs that follow it: NAT traversal
 * (nat.h) and MOBIKE (mobike.h). The header of daemon/ike/path/, the one
 * the other folders include. Not for use outside daemon/ike/.
 */
#ifndef IKB_IKE_PATH_H
#define IKB_IKE_PATH_H

#include "ike/path/mobike.h"
#include "ike/path/nat.h"

#endif
