/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Dropping every capability the running daemon does not need. */
#ifndef IKB_DAEMON_CAPS_H
#define IKB_DAEMON_CAPS_H

/*
 * Keep exactly CAP_NET_ADMIN and CAP_NET_BIND_SERVICE (effective,
 * permitted, bounding); clear inheritable and ambient. Not root: nothing
 * to drop, a notice is logged. Returns 0 or -1 (logged).
 */
int caps_drop(void);

#endif
