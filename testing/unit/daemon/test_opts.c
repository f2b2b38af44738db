// SPDX-License-Identifier: GPL-2.0-or-later
/* ikebanad's command line. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "build-config.h"
#include "log/log.h"
#include "service/opts.h"

static enum opts_result parse(struct daemon_opts *o, char *err, size_t len, ...)
{
	char *argv[16] = { "ikebanad" };
	int argc = 1;
	va_list ap;
	FILE *e = fmemopen(err, len, "w");
	FILE *out = fopen("/dev/null", "w");
	enum opts_result r;

	va_start(ap, len);
	while (argc < 15 && (argv[argc] = va_arg(ap, char *)))
		argc++;
	va_end(ap);
	r = opts_parse(o, argc, argv, out, e);
	fclose(e);
	fclose(out);
	return r;
}

static void test_defaults(void **state)
{
	struct daemon_opts o;
	char err[512] = "";

	assert_int_equal(parse(&o, err, sizeof(err), NULL), OPTS_RUN);
	assert_string_equal(o.config, IKB_DEFAULT_CONFIG);
	assert_string_equal(o.rundir, IKB_DEFAULT_RUNDIR);
	assert_string_equal(o.secrets, IKB_SYSCONFDIR "/ikebana.secrets");
	assert_false(o.secrets_given);
	assert_false(o.nofork);
	assert_int_equal(o.log_level, IKB_LOG_INFO);
	/* plutodebug= may set the level */
	assert_false(o.log_level_given);
	assert_string_equal(o.plugindir, "");
}

/* --libreswan-paths, and pluto's name: libreswan's defaults and options */
static void test_libreswan_paths(void **state)
{
	struct daemon_opts o;
	char err[512] = "";
	char *argv[] = { "/usr/libexec/ipsec/pluto", "--nofork", "--stderrlog",
			 "--secretsfile", "/etc/ipsec.d/s.secrets", NULL };
	FILE *e = fmemopen(err, sizeof(err), "w"), *out = fopen("/dev/null", "w");

	assert_int_equal(parse(&o, err, sizeof(err), "--libreswan-paths",
			       NULL),
			 OPTS_RUN);
	assert_true(o.lsw_paths);
	assert_string_equal(o.config, "/etc/ipsec.conf");
	assert_string_equal(o.secrets, "/etc/ipsec.secrets");
	assert_string_equal(o.nssdir, "/var/lib/ipsec/nss");
	assert_string_equal(o.rundir, "/run/pluto");
	assert_string_equal(o.ctlsocket, "/run/pluto/pluto.ctl");
	/* an option given still wins */
	assert_int_equal(parse(&o, err, sizeof(err), "--config", "/x/a.conf",
			       "--libreswan-paths", NULL),
			 OPTS_RUN);
	assert_string_equal(o.config, "/x/a.conf");
	/* run as pluto, with pluto's spellings */
	assert_int_equal(opts_parse(&o, 5, argv, out, e), OPTS_RUN);
	fclose(e);
	fclose(out);
	assert_true(o.lsw_paths);
	assert_true(o.nofork);
	assert_string_equal(o.secrets, "/etc/ipsec.d/s.secrets");
	assert_true(o.secrets_given);
	/* without either: ikebana's own */
	assert_int_equal(parse(&o, err, sizeof(err), NULL), OPTS_RUN);
	assert_false(o.lsw_paths);
	assert_string_equal(o.ctlsocket, "");
}

static void test_all_options(void **state)
{
	struct daemon_opts o;
	char err[512] = "";

	assert_int_equal(parse(&o, err, sizeof(err), "--config",
			       "/etc/x/a.conf", "--rundir", "/run/ns1",
			       "--plugindir", "/p", "--nofork", "--syslog",
			       "--log-level", "notice", NULL),
			 OPTS_RUN);
	assert_string_equal(o.config, "/etc/x/a.conf");
	/* Secrets default to the config's directory. */
	assert_string_equal(o.secrets, "/etc/x/ikebana.secrets");
	assert_string_equal(o.rundir, "/run/ns1");
	assert_string_equal(o.plugindir, "/p");
	assert_true(o.nofork);
	assert_true(o.syslog);
	assert_int_equal(o.log_level, IKB_LOG_NOTICE);
	assert_true(o.log_level_given);
	assert_int_equal(parse(&o, err, sizeof(err), "-d", "-s", "/s", NULL),
			 OPTS_RUN);
	assert_int_equal(o.log_level, IKB_LOG_DEBUG);
	assert_true(o.log_level_given);
	assert_string_equal(o.secrets, "/s");
	assert_true(o.secrets_given);
	/* An explicit secrets file is loaded even if missing (an error). */
	assert_string_equal(opts_secrets(&o), "/s");
}

/* The daemon changes to / when it detaches: paths become absolute. */
static void test_relative_paths(void **state)
{
	struct daemon_opts o;
	char err[512] = "", cwd[4096], want[4200];

	assert_non_null(getcwd(cwd, sizeof(cwd)));
	assert_int_equal(
		parse(&o, err, sizeof(err), "--config", "sub/a.conf", NULL),
		OPTS_RUN);
	snprintf(want, sizeof(want), "%s/sub/a.conf", cwd);
	assert_string_equal(o.config, want);
	snprintf(want, sizeof(want), "%s/sub/ikebana.secrets", cwd);
	assert_string_equal(o.secrets, want);
	/* A default secrets file that does not exist is simply not loaded. */
	assert_null(opts_secrets(&o));
}

static void test_errors(void **state)
{
	struct daemon_opts o;
	char err[2048];

	memset(err, 0, sizeof(err));
	assert_int_equal(
		parse(&o, err, sizeof(err), "--log-level", "loud", NULL),
		OPTS_EXIT_USAGE);
	assert_non_null(strstr(err, "loud"));
	memset(err, 0, sizeof(err));
	assert_int_equal(parse(&o, err, sizeof(err), "--bogus", NULL),
			 OPTS_EXIT_USAGE);
	assert_non_null(strstr(err, "--bogus"));
	memset(err, 0, sizeof(err));
	assert_int_equal(parse(&o, err, sizeof(err), "--config", NULL),
			 OPTS_EXIT_USAGE);
	assert_non_null(strstr(err, "missing argument"));
	memset(err, 0, sizeof(err));
	assert_int_equal(parse(&o, err, sizeof(err), "extra", NULL),
			 OPTS_EXIT_USAGE);
	assert_int_equal(parse(&o, err, sizeof(err), "--version", NULL),
			 OPTS_EXIT_OK);
	assert_int_equal(parse(&o, err, sizeof(err), "--help", NULL),
			 OPTS_EXIT_OK);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_defaults),
		cmocka_unit_test(test_all_options),
		cmocka_unit_test(test_libreswan_paths),
		cmocka_unit_test(test_relative_paths),
		cmocka_unit_test(test_errors),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
