// SPDX-License-Identifier: GPL-2.0-or-later
/* The whole pipeline on real files: every error carries its file:line. */
#include <fcntl.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "plugin/conf_load.h"

static char dir[64], conf[PATH_MAX], secrets[PATH_MAX];
static struct ikb_diag d;

static int setup(void **state)
{
	unsetenv("IKEBANA_PLUGIN_DIR");
	strcpy(dir, "/tmp/ikb-conf-load-XXXXXX");
	assert_non_null(mkdtemp(dir));
	snprintf(conf, sizeof(conf), "%s/ikebana.conf", dir);
	snprintf(secrets, sizeof(secrets), "%s/ikebana.secrets", dir);
	diag_init(&d);
	return 0;
}

static int teardown(void **state)
{
	unlink(conf);
	unlink(secrets);
	rmdir(dir);
	diag_free(&d);
	return 0;
}

static void write_file(const char *path, mode_t mode, const char *text)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, mode);

	assert_true(fd >= 0);
	assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	assert_int_equal(fchmod(fd, mode), 0);
	close(fd);
}

static int run(const char *text, const char *secrets_path,
	       struct loaded_conf *lc)
{
	struct conf_load_opts o = { .config = conf, .secrets = secrets_path };

	write_file(conf, 0644, text);
	diag_free(&d);
	diag_init(&d);
	return conf_load(&o, lc, &d);
}

/* An error at line of the config file whose text contains want. */
static void error_at(unsigned line, const char *want)
{
	char buf[512];

	for (size_t i = 0; i < d.n; i++)
		if (d.msgs[i].sev == IKB_SEV_ERROR && d.msgs[i].file &&
		    strcmp(d.msgs[i].file, conf) == 0 &&
		    d.msgs[i].line == line && strstr(d.msgs[i].text, want))
			return;
	for (size_t i = 0; i < d.n; i++)
		print_message("diag: %s\n",
			      diag_format(&d, i, buf, sizeof(buf)));
	fail_msg("no error at line %u containing: %s", line, want);
}

static void assert_empty(const struct loaded_conf *lc)
{
	assert_null(lc->cfg);
	assert_null(lc->plugins);
	assert_null(lc->secrets);
}

#define CONN                  \
	"conn west\n"         \
	"\tleft=192.0.2.1\n"  \
	"\tright=192.0.2.2\n" \
	"\tauto=add\n"

static void test_good_default_plugins(void **state)
{
	struct loaded_conf lc;

	assert_int_equal(run("config setup\n\tlogfile=/dev/null\n\n" CONN
			     "\treplay-window=1024\n\tesn=yes\n"
			     "\tclones=2\n\tnic-offload=crypto\n",
			     NULL, &lc),
			 0);
	assert_int_equal(d.errors, 0);
	assert_non_null(lc.cfg);
	assert_int_equal(plugin_set_count(lc.plugins), 4);
	assert_null(lc.secrets);
	conf_unload(&lc);
	assert_empty(&lc);
}

static void test_plugins_key(void **state)
{
	struct loaded_conf lc;

	assert_int_equal(
		run("config setup\n\tplugins=\"kernel-mem replay-window\"\n\n" CONN,
		    NULL, &lc),
		0);
	assert_int_equal(plugin_set_count(lc.plugins), 2);
	assert_non_null(plugin_set_kernel(lc.plugins, NULL));
	conf_unload(&lc);

	assert_int_equal(
		run("config setup\n\tplugins=kernel-mem,nosuch\n\n" CONN, NULL,
		    &lc),
		-1);
	error_at(2, "plugin nosuch: cannot load");
	assert_empty(&lc);
}

static void test_unowned_key(void **state)
{
	struct loaded_conf lc;

	assert_int_equal(run("config setup\n\tplugins=kernel-mem\n\n" CONN
			     "\tfrobnicate=yes\n",
			     NULL, &lc),
			 -1);
	error_at(8, "frobnicate");
	assert_empty(&lc);
}

static void test_plugin_errors_carry_file_line(void **state)
{
	struct loaded_conf lc;

	assert_int_equal(run("config setup\n\n" CONN /* lines 3-6 */
			     "\treplay-window=4096\n" /* 7 */
			     "\tesn=maybe\n" /* 8 */
			     "\tclones=0\n" /* 9 */
			     "\tnic-offload=maybe\n" /* 10 */
			     "\tleftprotoports=tcp/99999\n", /* 11 */
			     NULL, &lc),
			 -1);
	error_at(7,
		 "replay-window=4096: expected an integer 0..2048, got '4096'");
	error_at(8, "esn=maybe: expected yes, no or either, got 'maybe'");
	error_at(9, "clones=0: expected an integer 1..256 or yes");
	error_at(
		10,
		"nic-offload=maybe: expected no, yes, crypto or packet, got 'maybe'");
	error_at(11, "leftprotoports=tcp/99999: expected PROTO/PORT");
	error_at(11, "port 99999 is not 0..65535");
	assert_int_equal(d.errors, 5);
	assert_empty(&lc);
}

static void test_warning_alone_is_fine(void **state)
{
	struct loaded_conf lc;

	assert_int_equal(run("config setup\n\n" CONN "\treplay-window=0\n"
			     "\tesn=yes\n",
			     NULL, &lc),
			 0);
	assert_int_equal(d.errors, 0);
	assert_int_equal(d.warnings, 1);
	assert_int_equal(d.msgs[0].line, 8);
	assert_non_null(strstr(d.msgs[0].text, "ESN is forced off"));
	conf_unload(&lc);
}

static void test_secrets(void **state)
{
	struct loaded_conf lc;

	write_file(secrets, 0600,
		   "@west @east : PSK \"a long enough secret\"\n");
	assert_int_equal(run("config setup\n\n" CONN, secrets, &lc), 0);
	assert_non_null(lc.secrets);
	assert_int_equal(lc.secrets->n, 1);
	conf_unload(&lc);

	write_file(secrets, 0644,
		   "@west @east : PSK \"a long enough secret\"\n");
	assert_int_equal(run("config setup\n\n" CONN, secrets, &lc), -1);
	assert_true(d.errors >= 1);
	assert_empty(&lc);
}

static void test_missing_file(void **state)
{
	struct conf_load_opts o = { .config = "/nonexistent/ikebana.conf" };
	struct loaded_conf lc;

	assert_int_equal(conf_load(&o, &lc, &d), -1);
	assert_true(d.errors >= 1);
	assert_empty(&lc);
}

int main(void)
{
#define T(f) cmocka_unit_test_setup_teardown(f, setup, teardown)
	const struct CMUnitTest tests[] = {
		T(test_good_default_plugins),
		T(test_plugins_key),
		T(test_unowned_key),
		T(test_plugin_errors_carry_file_line),
		T(test_warning_alone_is_fine),
		T(test_secrets),
		T(test_missing_file),
	};

	return cmocka_run_group_tests_name("conf_load", tests, NULL, NULL);
}
