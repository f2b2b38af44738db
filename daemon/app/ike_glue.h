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
/*
 * The NSS database of lc (--nssdir, nssdir=, the default), at the start
 * and at each reload: certificates are looked up again either way.
 */
void ikbd_nssdb_open(const struct ikbd *d, const struct loaded_conf *lc);
/* The IKE sockets (listen=, ikeport=, nat-ikeport=): before the drop. */
int ikbd_net_start(struct ikbd *d);
/*
 * The engine on those sockets; auto=start conns are initiated later
 * (ike_engine_start_auto(), once the loop is about to run).
 */
int ikbd_engine_start(struct ikbd *d);
/*
 * A reload, around the swap of the configuration: the engine's
 * ike_engine_reload_prune() and ike_engine_reload() (see there).
 */
void ikbd_engine_before_reload(struct ikbd *d, const struct loaded_conf *next);
void ikbd_engine_after_reload(struct ikbd *d);
/* Engine (deletes its SAs), helpers, sockets, NSS; safe on a partial start. */
void ikbd_ike_stop(struct ikbd *d);

#endif
