// SPDX-License-Identifier: GPL-2.0-or-later
/* The daemon fixture (daemon_fx.h). */
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "daemon_fx.h"

const char fx_conf_alpha[] = CONF_HEAD CONN("alpha", "192.0.2.2");

int fx_setup(void **state)
{
	struct fx *f = calloc(1, sizeof(*f));

	f->dir = h_tmpdir();
	if (asprintf(&f->rundir, "%s/run", f->dir) < 0)
		return -1;
	f->conf = h_write_conf(f->dir, "ikebana.conf", fx_conf_alpha);
	/* Found by default next to the config; 0600 or it is refused. */
	f->secrets = h_write(f->dir, "ikebana.secrets", 0600,
			     "192.0.2.1 192.0.2.2 : PSK \"not-so-secret\"\n");
	*state = f;
	return 0;
}

int fx_teardown(void **state)
{
	struct fx *f = *state;

	h_kill(&f->d[0]);
	h_kill(&f->d[1]);
	h_rmrf(f->dir);
	free(f->dir);
	free(f->rundir);
	free(f->conf);
	free(f->secrets);
	free(f);
	return 0;
}

void start_daemon(struct fx *f, struct proc *p, const char *rundir)
{
	assert_true(h_start_daemon(p, f->dir, rundir, f->conf));
}

/*
 * SIGTERM must end the daemon with 0; under the sanitizers a leak after
 * reloads or hostile clients turns that into a failure here.
 */
void stop_daemon(struct proc *p)
{
	int rc;
	char *err;

	assert_int_equal(kill(p->pid, SIGTERM), 0);
	rc = h_wait(p, H_DEADLINE_MS);
	if (rc != 0) {
		err = h_slurp(p->err);
		fail_msg("ikebanad exited %d after SIGTERM:\n%s", rc, err);
	}
}

void expect_cli_error(struct fx *f, const char *needle, const char *a1,
		      const char *a2, const char *a3)
{
	char *out, *err;
	int rc = cli(f, f->rundir, &out, &err, a1, a2, a3, NULL);

	if (rc != (needle ? 1 : 2) || (needle && !strstr(err, needle)))
		fail_msg("ikebana %s %s: exit %d, stderr: %s", a1, a2 ? a2 : "",
			 rc, err);
	free(out);
	free(err);
}
