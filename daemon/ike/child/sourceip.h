/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * leftsourceip= (sourceip.c): while a conn has a tunnel-mode Child SA up,
 * this host's own traffic to the peer's negotiated subnet is routed with
 * that source address, so that it is in the Child SA's local selector.
 * Not for use outside daemon/ike/.
 */
#ifndef IKB_IKE_SOURCEIP_H
#define IKB_IKE_SOURCEIP_H

struct ike_engine;

/* Listen for Child SAs: 0 or -ENOMEM. */
int sourceip_init(struct ike_engine *e);
/* Every route (and address) out of the kernel, at the end. */
void sourceip_fini(struct ike_engine *e);

#endif
