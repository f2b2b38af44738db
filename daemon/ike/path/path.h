/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * An IKE SA's path, and the Child SAs that follow it: NAT traversal
 * (nat.h) and MOBIKE (mobike.h). The header of daemon/ike/path/, the one
 * the other folders include. Not for use outside daemon/ike/.
 */
#ifndef IKB_IKE_PATH_H
#define IKB_IKE_PATH_H

#include <ikebana/types.h>

#include "ike/path/mobike.h"
#include "ike/path/nat.h"

struct ike_sa;
struct child_sa;

/*
 * child_move.c: c's SAs and policies, installed on the path old, to the
 * IKE SA's path now (a NAT's new mapping, MOBIKE). 0, or -errno with err.
 */
struct ike_path;
int child_sa_move(struct ike_sa *ike, struct child_sa *c,
		  const struct ike_path *old, struct ikb_error *err);
/* Every Child SA of ike so, each failure logged (it stays where it was). */
void child_sa_move_all(struct ike_sa *ike, const struct ike_path *old);

#endif
