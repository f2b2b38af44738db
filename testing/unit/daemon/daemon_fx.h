/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * One ikebanad with a kernel-mem configuration in a temporary directory,
 * shared by the tests that drive a real daemon through the client
 * (test_daemon.c, test_ctl_access.c).
 */
#ifndef IKB_TEST_DAEMON_FX_H
#define IKB_TEST_DAEMON_FX_H

#include "harness.h"

struct fx {
	char *dir, *rundir, *conf, *secrets;
	struct proc d[2];
};

#define CONF_HEAD                \
	"config setup\n"         \
	"\tplugins=kernel-mem\n" \
	"\n"
#define CONN(name, right)     \
	"conn " name "\n"     \
	"\tleft=192.0.2.1\n"  \
	"\tright=" right "\n" \
	"\tauthby=secret\n"   \
	"\tauto=add\n"        \
	"\n"

/* conn alpha, 192.0.2.1 to 192.0.2.2 */
extern const char fx_conf_alpha[];
/* cmocka setup and teardown: the directory, ikebana.conf (conn alpha). */
int fx_setup(void **state);
int fx_teardown(void **state);
void start_daemon(struct fx *f, struct proc *p, const char *rundir);
/* SIGTERM must end the daemon with 0 (under the sanitizers: no leak). */
void stop_daemon(struct proc *p);
#define cli(f, rundir, out, err, ...) \
	h_cli((f)->dir, rundir, out, err, __VA_ARGS__)
/* The client exits 1 with needle on stderr (NULL: exits 2, usage). */
void expect_cli_error(struct fx *f, const char *needle, const char *a1,
		      const char *a2, const char *a3);

#endif
