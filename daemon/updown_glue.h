/* SPDX-License-Identifier: GPL-2.0-or-later */
/* leftupdown= in the daemon: after ikbd_engine_start(), before its stop. */
#ifndef IKB_DAEMON_UPDOWN_GLUE_H
#define IKB_DAEMON_UPDOWN_GLUE_H

struct ikbd;

int ikbd_updown_start(struct ikbd *d);
/* Scripts still running are killed: the daemon stops. */
void ikbd_updown_stop(struct ikbd *d);

#endif
