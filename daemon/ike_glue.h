/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The daemon's side of the IKE engine: NSS and the helper pool, the UDP
 * sockets, and the engine wired between them; what a reload and a stop
 * do to the SAs.
 */
#ifndef IKB_DAEMON_IKE_GLUE_H
#define IKB_DAEMON_IKE_GLUE_H

struct ikbd;
struct loaded_conf;

/* NSS (fips= from config setup), then nhelpers= helper threads. */
int ikbd_crypto_start(struct ikbd *d);
/* The IKE sockets (listen=, ikeport=, nat-ikeport=): before the drop. */
int ikbd_net_start(struct ikbd *d);
/* The engine on those sockets; auto=start conns are initiated later. */
int ikbd_engine_start(struct ikbd *d);
/* ike_engine_start_auto(), once the loop is about to run. */
void ikbd_engine_start_auto(struct ikbd *d);
/*
 * Before a reload swaps the configuration: take down the SAs whose conn
 * next no longer has. After it: point the engine at the new one and
 * bring up the auto=start conns that have no IKE SA yet.
 */
void ikbd_engine_before_reload(struct ikbd *d, const struct loaded_conf *next);
void ikbd_engine_after_reload(struct ikbd *d);
/* Engine (deletes its SAs), helpers, sockets, NSS; safe on a partial start. */
void ikbd_ike_stop(struct ikbd *d);

#endif
