// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The ipsec command against a real ikebanad (kernel-mem): conns added,
 * replaced and deleted one at a time, a bad conn failing alone, the
 * status lines ovs-monitor-ipsec matches (its regular expressions, in
 * POSIX form: \d is [0-9]), libreswan's version line, usage errors.
 */
#include <regex.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <signal.h>
#include <unistd.h>

#include "control/client.h"
#include "harness.h"

/* ovs-monitor-ipsec (openvswitch/ovs ipsec/ovs-monitor-ipsec.in) */
#define OVS_LOADED "\"(.*)\": [0-9a-f]+.*(===|\\.\\.\\.).*"
#define OVS_ACTIVE_31 "#[0-9]+: \"(.*)\".*"
#define OVS_TOTAL "Total IPsec connections: loaded ([0-9]+), active ([0-9]+)"
#define OVS_VERSION "^Libreswan v?([0-9]+)"

struct fx {
	char *dir, *conf, *more, *sock;
	struct proc d;
};

static const char conf_more[] = "conn %default\n"
				"\tauthby=secret\n"
				"\n"
				"conn beta\n"
				"\tleft=127.0.0.1\n"
				"\tright=192.0.2.3\n"
				"\tleftsubnet=10.0.1.0/24\n"
				"\trightsubnet=10.0.2.0/24\n"
				"\tauto=route\n"
				"\n"
				"conn bad\n"
				"\tleft=127.0.0.1\n"
				"\tright=192.0.2.4\n"
				"\trekeymargin=banana\n"
				"\n"
				"conn gamma-out-1\n"
				"\tleft=127.0.0.1\n"
				"\tright=192.0.2.5\n"
				"\tleftprotoport=udp\n"
				"\trightprotoport=udp/6081\n"
				"\ttype=transport\n"
				"\n"
				"conn prevent_unencrypted_geneve\n"
				"\ttype=drop\n"
				"\tleft=127.0.0.1\n"
				"\tleftprotoport=udp/6081\n"
				"\tmark=1/1\n"
				"\tauto=route\n";

/* The daemon answers at --ctlsocket (the directory made by it). */
static bool answers(void *arg)
{
	struct fx *f = arg;
	int fd = ctl_connect_path(f->sock);

	if (fd < 0)
		return false;
	close(fd);
	return true;
}

static int setup(void **state)
{
	struct fx *f = calloc(1, sizeof(*f));
	char rundir[512];

	f->dir = h_tmpdir();
	f->conf = h_write_conf(f->dir, "ikebana.conf",
			       "config setup\n"
			       "\tplugins=kernel-mem\n"
			       "\n"
			       "conn alpha\n"
			       "\tleft=127.0.0.1\n"
			       "\tright=192.0.2.2\n"
			       "\tleftid=@a\n"
			       "\trightid=@b\n"
			       "\tauthby=secret\n");
	f->more = h_write(f->dir, "more.conf", 0644, conf_more);
	snprintf(rundir, sizeof(rundir), "%s/run", f->dir);
	if (asprintf(&f->sock, "%s/pluto/pluto.ctl", f->dir) < 0)
		return -1;
	char nssdir[512];

	/* no database there yet: test_nss makes one under the daemon */
	snprintf(nssdir, sizeof(nssdir), "%s/nss", f->dir);
	char *argv[] = { (char *)h_env("IKEBANAD"), "--nofork", "--rundir",
			 rundir, "--config", f->conf, "--ctlsocket", f->sock,
			 "--nssdir", nssdir, NULL };

	if (h_spawn(&f->d, f->dir, argv) < 0 ||
	    !h_wait_for(answers, f, H_DEADLINE_MS)) {
		char *err = h_slurp(f->d.err);

		fprintf(stderr, "ikebanad did not come up:\n%s\n", err);
		free(err);
		return -1;
	}
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fx *f = *state;

	if (f->d.pid) { /* test_stop stops it */
		kill(f->d.pid, SIGTERM);
		assert_int_equal(h_wait(&f->d, H_DEADLINE_MS), 0);
	}
	h_rmrf(f->dir);
	free(f->sock);
	free(f->more);
	free(f->conf);
	free(f->dir);
	free(f);
	return 0;
}

/* ipsec ARGS... with --ctlsocket prepended; the exit code */
static int ipsec(struct fx *f, char **out, char **err, ...)
{
	char *argv[48] = { (char *)h_env("IPSEC"), "--ctlsocket", f->sock };
	size_t n = 3;
	va_list ap;

	va_start(ap, err);
	while (n < 47 && (argv[n] = va_arg(ap, char *)))
		n++;
	va_end(ap);
	argv[n] = NULL;
	return h_run(f->dir, out, err, argv);
}

/* Whether some line of text matches the extended regex re. */
static bool line_matches(const char *text, const char *re, const char *want1)
{
	regex_t rx;
	regmatch_t m[2];
	bool found = false;
	char *copy = strdup(text), *save = NULL;

	assert_int_equal(regcomp(&rx, re, REG_EXTENDED), 0);
	for (char *l = strtok_r(copy, "\n", &save); l && !found;
	     l = strtok_r(NULL, "\n", &save))
		found = !regexec(&rx, l, 2, m, 0) &&
			(!want1 ||
			 ((size_t)(m[1].rm_eo - m[1].rm_so) == strlen(want1) &&
			  !strncmp(l + m[1].rm_so, want1, strlen(want1))));
	regfree(&rx);
	free(copy);
	return found;
}

static void test_add_one_at_a_time(void **state)
{
	struct fx *f = *state;
	char *out, *err;

	assert_int_equal(ipsec(f, &out, &err, "auto", "--config", f->more,
			       "--add", "beta", NULL),
			 0);
	assert_non_null(strstr(out, "\"beta\": added"));
	free(out), free(err);
	/* the same again: nothing changes (its SAs would stay) */
	assert_int_equal(ipsec(f, &out, &err, "auto", "--config", f->more,
			       "--add", "beta", NULL),
			 0);
	assert_non_null(strstr(out, "\"beta\": unchanged"));
	free(out), free(err);
	/* one bad conn fails alone, named with its file and line */
	assert_int_equal(ipsec(f, &out, &err, "add", "--config", f->more,
			       "bad", NULL),
			 1);
	assert_non_null(strstr(err, "more.conf:14: error: conn bad: "
				    "rekeymargin=banana"));
	free(out), free(err);
	/* libreswan 5's form as ovs-monitor-ipsec writes it */
	assert_int_equal(ipsec(f, &out, &err, "--config", f->more, "--add",
			       "gamma-out-1", NULL),
			 0);
	free(out), free(err);
	/* ovs-monitor-ipsec's shunt: no right=, routed at add */
	assert_int_equal(ipsec(f, &out, &err, "auto", "--config", f->more,
			       "--add", "--asynchronous",
			       "prevent_unencrypted_geneve", NULL),
			 0);
	free(out), free(err);
	assert_int_equal(ipsec(f, &out, &err, "status", NULL), 0);
	assert_non_null(strstr(out, "\"prevent_unencrypted_geneve\": "
				    "127.0.0.1:17/6081...%any; prospective "
				    "erouted"));
	assert_true(line_matches(out, OVS_LOADED, "alpha"));
	assert_true(line_matches(out, OVS_LOADED, "beta"));
	assert_true(line_matches(out, OVS_LOADED, "gamma-out-1"));
	assert_false(line_matches(out, OVS_LOADED, "bad"));
	assert_false(line_matches(out, OVS_ACTIVE_31, NULL));
	assert_true(line_matches(out, OVS_TOTAL, "4"));
	free(out), free(err);
}

static void test_replace_stdin_and_delete(void **state)
{
	struct fx *f = *state;
	char *out, *err, *cmd;
	char *sh[] = { "/bin/sh", "-c", NULL, NULL };

	assert_true(asprintf(&cmd,
			     "printf 'conn delta\\n\\tleft=127.0.0.1\\n"
			     "\\tright=192.0.2.7\\n\\tauthby=secret\\n' | "
			     "%s auto --ctlsocket %s --replace --config - delta",
			     h_env("IPSEC"), f->sock) > 0);
	sh[2] = cmd;
	assert_int_equal(h_run(f->dir, &out, &err, sh), 0);
	assert_non_null(strstr(out, "\"delta\": added"));
	free(out), free(err);
	free(cmd);
	/* the same name, another peer: replaced */
	assert_true(asprintf(&cmd,
			     "printf 'conn delta\\n\\tleft=127.0.0.1\\n"
			     "\\tright=192.0.2.8\\n\\tauthby=secret\\n' | "
			     "%s --ctlsocket %s replace --config - delta",
			     h_env("IPSEC"), f->sock) > 0);
	sh[2] = cmd;
	assert_int_equal(h_run(f->dir, &out, &err, sh), 0);
	assert_non_null(strstr(out, "\"delta\": replaced"));
	free(out), free(err);
	assert_int_equal(ipsec(f, &out, &err, "status", NULL), 0);
	assert_non_null(strstr(out, "\"delta\": 127.0.0.1...192.0.2.8;"));
	free(out), free(err);
	assert_int_equal(ipsec(f, &out, &err, "auto", "--delete", "delta",
			       NULL),
			 0);
	assert_non_null(strstr(out, "\"delta\": deleted"));
	free(out), free(err);
	assert_int_equal(ipsec(f, &out, &err, "auto", "--delete", "delta",
			       NULL),
			 0);
	assert_non_null(strstr(out, "\"delta\": absent"));
	free(out), free(err);
	/* a conn of the daemon's own file goes the same way */
	assert_int_equal(ipsec(f, &out, &err, "delete", "alpha", NULL), 0);
	free(out), free(err);
	assert_int_equal(ipsec(f, &out, &err, "status", NULL), 0);
	assert_false(line_matches(out, OVS_LOADED, "alpha"));
	assert_false(line_matches(out, OVS_LOADED, "delta"));
	free(out), free(err);
	assert_int_equal(ipsec(f, &out, &err, "auto", "--rereadsecrets", NULL),
			 0);
	free(out), free(err);
	free(cmd);
}

/* Submariner's vectors (pkg/cable/libreswan/libreswan.go), DPD aside */
static void test_whack_submariner(void **state)
{
	struct fx *f = *state;
	char *out, *err;

	assert_int_equal(ipsec(f, &out, &err, "whack", "--listen", NULL), 0);
	free(out), free(err);
	assert_int_equal(ipsec(f, &out, &err, "whack", "--psk", "--encrypt",
			       "--encaps=auto", "--name", "cable-v4-0-0",
			       "--ipv4", "--id", "127.0.0.1", "--host",
			       "127.0.0.1", "--client", "10.0.1.0/24", "--to",
			       "--id", "192.0.2.9", "--host", "192.0.2.9",
			       "--client", "10.0.2.0/24", "--dpddelay", "30",
			       NULL),
			 0);
	assert_non_null(strstr(out, "\"cable-v4-0-0\": added"));
	free(out), free(err);
	assert_int_equal(ipsec(f, &out, &err, "whack", "--route", "--name",
			       "cable-v4-0-0", NULL),
			 0);
	free(out), free(err);
	assert_int_equal(ipsec(f, &out, &err, "whack", "--status", NULL), 0);
	assert_non_null(strstr(out, "\"cable-v4-0-0\": 10.0.1.0/24===127.0.0.1"
				    "[127.0.0.1]...192.0.2.9[192.0.2.9]===10.0.2.0/24; "
				    "prospective erouted"));
	free(out), free(err);
	/* a value that would change the conn text is refused */
	assert_int_equal(ipsec(f, &out, &err, "whack", "--psk", "--name", "x",
			       "--host", "127.0.0.1", "--to", "--host",
			       "192.0.2.9\n\tauthby=never", NULL),
			 2);
	assert_non_null(strstr(err, "not taken in a value"));
	free(out), free(err);
	assert_int_equal(ipsec(f, &out, &err, "whack", "--delete", "--name",
			       "cable-v4-0-0", NULL),
			 0);
	assert_non_null(strstr(out, "\"cable-v4-0-0\": deleted"));
	free(out), free(err);
	assert_int_equal(ipsec(f, &out, &err, "whack", "--trafficstatus", NULL),
			 0);
	free(out), free(err);
	assert_int_equal(ipsec(f, &out, &err, "whack", "--initiate", NULL), 2);
	assert_non_null(strstr(err, "needs --name"));
	free(out), free(err);
}

static void test_version_and_usage(void **state)
{
	struct fx *f = *state;
	char *out, *err;

	assert_int_equal(ipsec(f, &out, &err, "--version", NULL), 0);
	assert_true(line_matches(out, OVS_VERSION, "4"));
	assert_non_null(strstr(out, "ikebana"));
	free(out), free(err);
	assert_int_equal(ipsec(f, &out, &err, "auto", "--add", NULL), 2);
	assert_non_null(strstr(err, "needs a conn name"));
	free(out), free(err);
	assert_int_equal(ipsec(f, &out, &err, "auto", "--frobnicate", "x",
			       NULL),
			 2);
	assert_non_null(strstr(err, "unknown option '--frobnicate'"));
	free(out), free(err);
	assert_int_equal(ipsec(f, &out, &err, "--up", "a", "--down", "b",
			       NULL),
			 2);
	free(out), free(err);
}

/* Runs argv (NULL-terminated) in f's directory; fails on a non-zero exit. */
static void must_run(struct fx *f, char *const argv[])
{
	char *out, *err;
	int rc = h_run(f->dir, &out, &err, argv);

	if (rc)
		fail_msg("%s failed (%d): %s", argv[0], rc, err);
	free(out), free(err);
}

/*
 * The NSS database, as ovs-monitor-ipsec uses it: made by ipsec checknss
 * while the daemon runs (it started without one), a certificate and its
 * key imported by NSS's own tools (pk12util, as the monitor does), and
 * the next add finds them; before, the conn failed for want of them.
 */
static void test_nss(void **state)
{
	struct fx *f = *state;
	const char *openssl = getenv("OPENSSL");
	char nssdir[512], db[520], *out, *err, *conf;

	snprintf(nssdir, sizeof(nssdir), "%s/nss", f->dir);
	snprintf(db, sizeof(db), "sql:%s", nssdir);
	conf = h_write(f->dir, "cert.conf", 0644,
		       "conn certy\n\tleft=127.0.0.1\n\tright=192.0.2.9\n"
		       "\tleftid=@certy\n\trightid=@peer\n"
		       "\tleftcert=ovs_certkey_certy\n\tleftrsasigkey=%cert\n"
		       "\trightca=%same\n\tauto=route\n");
	/* a responder for any peer waits as it should: no warning */
	char *road = h_write(f->dir, "road.conf", 0644,
			     "conn road\n\tleft=127.0.0.1\n\tright=%any\n"
			     "\tauthby=secret\n");

	assert_int_equal(ipsec(f, &out, &err, "add", "--config", road, "road",
			       NULL),
			 0);
	if (strstr(err, "cannot use"))
		fail_msg("a warning for a conn of %%any: %s", err);
	free(out), free(err), free(road);
	/* in, as libreswan's paths would have it, with why it cannot work */
	assert_int_equal(
		ipsec(f, &out, &err, "add", "--config", conf, "certy", NULL),
		0);
	assert_non_null(strstr(out, "added"));
	if (!strstr(err, "cannot use it yet") ||
	    !strstr(err, "no NSS database"))
		fail_msg("no warning: out %s err %s", out, err);
	free(out), free(err);

	assert_int_equal(
		ipsec(f, &out, &err, "checknss", "--nssdir", nssdir, NULL), 0);
	assert_non_null(strstr(out, "Initializing NSS database"));
	free(out), free(err);
	assert_int_equal(
		ipsec(f, &out, &err, "--checknss", "--nssdir", nssdir, NULL),
		0);
	assert_string_equal(out, ""); /* there: nothing to do */
	free(out), free(err);
	assert_int_equal(
		ipsec(f, &out, &err, "initnss", "--nssdir", nssdir, NULL), 1);
	assert_non_null(strstr(err, "holds an NSS database already"));
	free(out), free(err);
	assert_int_equal(
		ipsec(f, &out, &err, "status", "--nssdir", nssdir, NULL), 2);
	free(out), free(err);

	if (!openssl || !*openssl || access("/usr/bin/pk12util", X_OK))
		skip(); /* the rest needs a certificate */
	must_run(f,
		 (char *[]){ (char *)openssl, "req", "-x509", "-newkey",
			     "rsa:2048", "-nodes", "-keyout", "k.pem", "-out",
			     "c.pem", "-days", "2", "-subj", "/CN=certy",
			     "-addext", "subjectAltName=DNS:certy", NULL });
	must_run(f, (char *[]){ (char *)openssl, "pkcs12", "-export", "-in",
				"c.pem", "-inkey", "k.pem", "-name",
				"ovs_certkey_certy", "-out", "c.p12",
				"-passout", "pass:", NULL });
	must_run(f, (char *[]){ "/usr/bin/pk12util", "-i", "c.p12", "-d", db,
				"-W", "", NULL });
	/* the same conn again: usable now, without a warning */
	assert_int_equal(
		ipsec(f, &out, &err, "add", "--config", conf, "certy", NULL),
		0);
	assert_non_null(strstr(out, "unchanged"));
	if (strstr(err, "cannot use"))
		fail_msg("still unusable: %s", err);
	free(out), free(err);
	free(conf);
}

/*
 * ipsec checkconfig: silent and 0 on a good file, as libreswan's; the
 * bad conn's file, line and key on another, exit 1.
 */
static void test_checkconfig(void **state)
{
	struct fx *f = *state;
	char nssdir[512], *out, *err;

	snprintf(nssdir, sizeof(nssdir), "%s/nss", f->dir);
	assert_int_equal(ipsec(f, &out, &err, "checkconfig", "--config",
			       f->conf, "--nssdir", nssdir, NULL),
			 0);
	assert_string_equal(out, "");
	free(out), free(err);
	assert_int_equal(ipsec(f, &out, &err, "checkconfig", "--config",
			       f->more, NULL),
			 1);
	assert_string_equal(out, "");
	if (!strstr(err, "more.conf:14: error: conn bad: rekeymargin=banana"))
		fail_msg("not the bad conn's line: %s", err);
	free(out), free(err);
}

/* ipsec stop (no systemd here): the daemon exits as on SIGTERM */
static void test_stop(void **state)
{
	struct fx *f = *state;
	char *out, *err;

	if (access("/run/systemd/system", F_OK) == 0)
		skip(); /* it would ask systemctl for ipsec.service */
	assert_int_equal(ipsec(f, &out, &err, "stop", NULL), 0);
	free(out), free(err);
	assert_int_equal(h_wait(&f->d, H_DEADLINE_MS), 0);
	assert_int_equal(f->d.status, 0);
	assert_int_equal(ipsec(f, &out, &err, "setup", "stop", NULL), 0);
	assert_non_null(strstr(out, "not running"));
	free(out), free(err);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_add_one_at_a_time),
		cmocka_unit_test(test_replace_stdin_and_delete),
		cmocka_unit_test(test_whack_submariner),
		cmocka_unit_test(test_version_and_usage),
		cmocka_unit_test(test_nss),
		cmocka_unit_test(test_checkconfig),
		cmocka_unit_test(test_stop),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
