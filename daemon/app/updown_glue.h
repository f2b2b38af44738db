/* SPDX-License-Identifier: GPL-2.0-or-later */
/* leftupdown= in the daemon: after ikbd_engine_start(), before its stop. */
#ifndef IKB_DAEMON_UPDOWN_GLUE_H
#define IKB_DAEMON_UPDOWN_GLUE_H

struct ikbd;

int ikbd_updown_start(struct ikbd *d);
/*
 * The daemon stops: down and unroute for each tunnel up, for 10 s at
 * most; what still runs then is killed.
 */
void ikbd_updown_stop(struct ikbd *d);

#endif
