// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * After start-up ikebanad holds exactly CAP_NET_ADMIN and
 * CAP_NET_BIND_SERVICE, and that is enough to reload (re-read the 0600
 * root-owned secrets and reload plugins).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "harness.h"

#define BIT(n) (UINT64_C(1) << (n))
#define CAP_NET_BIND_SERVICE_BIT 10
#define CAP_NET_ADMIN_BIT 12
#define CAP_SETPCAP_BIT 8
#define WANTED (BIT(CAP_NET_ADMIN_BIT) | BIT(CAP_NET_BIND_SERVICE_BIT))

/* One "CapXxx:\t%016llx" line of /proc/PID/status. */
static uint64_t cap_field(pid_t pid, const char *name)
{
	char path[64], *s, *line;
	uint64_t v = UINT64_MAX;
	size_t n = strlen(name);

	snprintf(path, sizeof(path), "/proc/%d/status", (int)pid);
	s = h_slurp(path);
	for (line = s; line && *line; line = strchr(line, '\n')) {
		line += *line == '\n';
		if (!strncmp(line, name, n) && line[n] == ':')
			v = strtoull(line + n + 1, NULL, 16);
	}
	free(s);
	return v;
}

/* Why this machine cannot run the test, or NULL. */
static const char *cannot_test(void)
{
	pid_t self = getpid();

	if (geteuid() != 0)
		return "not root: ikebanad keeps what it was given";
	if ((cap_field(self, "CapBnd") & WANTED) != WANTED)
		return "the test runs without NET_ADMIN/NET_BIND_SERVICE in its "
		       "bounding set";
	if (!(cap_field(self, "CapEff") & BIT(CAP_SETPCAP_BIT)))
		return "the test runs without CAP_SETPCAP: the bounding set "
		       "cannot shrink";
	return NULL;
}

static void test_exact_caps_and_reload(void **state)
{
	const char *why = cannot_test();
	char *dir, *run, *conf, *out, *err;
	struct proc p = { 0 };

	if (why) {
		print_message("SKIP: %s\n", why);
		skip();
	}
	dir = h_tmpdir();
	assert_true(asprintf(&run, "%s/run", dir) > 0);
	conf = h_write_conf(dir, "ikebana.conf",
			    "config setup\n\tplugins=kernel-mem\n"
			    "conn a\n\tleft=192.0.2.1\n\tright=192.0.2.2\n"
			    "\tauthby=secret\n\tauto=add\n");
	free(h_write(dir, "ikebana.secrets", 0600,
		     "192.0.2.1 192.0.2.2 : PSK \"s3cret\"\n"));
	assert_true(h_start_daemon(&p, dir, run, conf));

	assert_int_equal(cap_field(p.pid, "CapEff"), WANTED);
	assert_int_equal(cap_field(p.pid, "CapPrm"), WANTED);
	assert_int_equal(cap_field(p.pid, "CapBnd"), WANTED);
	assert_int_equal(cap_field(p.pid, "CapInh"), 0);
	assert_int_equal(cap_field(p.pid, "CapAmb"), 0);

	/* Nothing more is needed to reload: secrets, plugins, config. */
	free(h_write_conf(dir, "ikebana.conf",
			  "config setup\n\tplugins=kernel-mem\n"
			  "conn a\n\tleft=192.0.2.1\n\tright=192.0.2.2\n"
			  "\tauthby=secret\n\tauto=add\n"
			  "conn b\n\tleft=192.0.2.1\n\tright=192.0.2.3\n"
			  "\tauthby=secret\n\tauto=add\n"));
	free(h_write(dir, "ikebana.secrets", 0600,
		     "192.0.2.1 192.0.2.2 : PSK \"s3cret\"\n"
		     "192.0.2.1 192.0.2.3 : PSK \"other\"\n"));
	if (h_cli(dir, run, &out, &err, "reload", NULL) != 0)
		fail_msg("reload after the capability drop failed: %s", err);
	free(out);
	free(err);
	assert_int_equal(h_cli(dir, run, &out, &err, "status", NULL), 0);
	assert_non_null(strstr(out, "192.0.2.3"));
	free(out);
	free(err);

	h_kill(&p);
	h_rmrf(dir);
	free(dir);
	free(run);
	free(conf);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_exact_caps_and_reload),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
