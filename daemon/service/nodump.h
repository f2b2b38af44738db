/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Keeping the daemon's memory (its keys) out of core files and /proc. */
#ifndef IKB_DAEMON_NODUMP_H
#define IKB_DAEMON_NODUMP_H

/*
 * PR_SET_DUMPABLE 0, before any secret is read: a crash writes no core
 * whatever the core limit, and a process without CAP_SYS_PTRACE cannot
 * read /proc/PID/mem, environ or attach, even one of our uid. Scripts we
 * execute are dumpable again (execve resets it). 0 or -1 (logged).
 */
int nodump_set(void);

#endif
