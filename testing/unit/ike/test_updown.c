// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * leftupdown= through two engines: a real /bin/sh script, written here,
 * records each verb and its environment; the verbs, their order and the
 * PLUTO_* values are checked as libreswan's scripts would read them. A
 * script that hangs is killed at its time limit, and the loop goes on
 * meanwhile. Every wait is for a condition, with a deadline.
 */
#include <arpa/inet.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <cmocka.h>

#include "harness.h"
#include "updown/internal.h"
#include "updown/updown.h"

static char dir[64]; /* the scripts and what they record */
static int out_fd = 2; /* stderr before the harness captures it */
static struct updown *ud[2];

static const char recorder[] =
	"#!/bin/sh\n"
	"# $1: the file to append this run to; $2: seconds to wait first\n"
	"[ -n \"$2\" ] && sleep \"$2\"\n"
	"{ echo \"verb=$PLUTO_VERB\"; env | sort | sed 's/^/  /'; } >> \"$1\"\n";

static void write_script(const char *name, const char *text)
{
	char path[128];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	assert_non_null(f = fopen(path, "w"));
	fputs(text, f);
	fclose(f);
	assert_int_equal(chmod(path, 0755), 0);
}

static int setup(void **state)
{
	strcpy(dir, "/tmp/ikb-updown-XXXXXX");
	assert_non_null(mkdtemp(dir));
	write_script("rec.sh", recorder);
	return 0;
}

static int teardown(void **state)
{
	char cmd[128];

	for (int i = 0; i < 2; i++) {
		updown_free(ud[i]);
		ud[i] = NULL;
	}
	net_cleanup(state);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	assert_int_equal(system(cmd), 0);
	return 0;
}

static char *slurp(const char *name)
{
	char path[128], *buf;
	FILE *f;
	long n;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "r");
	if (!f)
		return strdup("");
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	rewind(f);
	buf = calloc(1, (size_t)n + 1);
	assert_non_null(buf);
	assert_int_equal(fread(buf, 1, (size_t)n, f), (size_t)n);
	fclose(f);
	return buf;
}

/* The verbs recorded in name, comma-separated. */
static const char *verbs(const char *name, char *out, size_t len)
{
	char *text = slurp(name), *line, *save;

	out[0] = '\0';
	for (line = strtok_r(text, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save))
		if (!strncmp(line, "verb=", 5))
			snprintf(out + strlen(out), len - strlen(out), "%s%s",
				 out[0] ? "," : "", line + 5);
	free(text);
	return out;
}

/* KEY's value in run number `run` (0: the first) of name; NULL: unset. */
static const char *var(const char *name, unsigned run, const char *key,
		       char *out, size_t len)
{
	char *text = slurp(name), *line, *save;
	size_t klen = strlen(key);
	int at = -1;
	const char *got = NULL;

	for (line = strtok_r(text, "\n", &save); line && !got;
	     line = strtok_r(NULL, "\n", &save)) {
		if (!strncmp(line, "verb=", 5))
			at++;
		else if (at == (int)run && !strncmp(line + 2, key, klen) &&
			 line[2 + klen] == '=') {
			snprintf(out, len, "%s", line + 3 + klen);
			got = out;
		}
	}
	free(text);
	return got;
}

static unsigned runs(const char *name)
{
	char buf[512];
	unsigned n = 0;

	verbs(name, buf, sizeof(buf));
	for (const char *p = buf; *buf && p; p = strchr(p + 1, ','))
		n++;
	return n;
}

static const char *want_file;
static unsigned want_runs;

static bool recorded(struct net *n)
{
	return runs(want_file) >= want_runs && !updown_pending(ud[WEST]) &&
	       !updown_pending(ud[EAST]);
}

static void wait_runs(struct net *n, const char *file, unsigned count)
{
	want_file = file;
	want_runs = count;
	assert_true(net_run(n, recorded, 10000));
	assert_int_equal(runs(file), count);
}

/* The runners listen on the engines: they go first. */
static void done(struct net *n)
{
	for (int i = 0; i < 2; i++) {
		updown_free(ud[i]);
		ud[i] = NULL;
	}
	net_free(n);
}

static bool idle(struct net *n)
{
	return !updown_pending(ud[WEST]) && !updown_pending(ud[EAST]);
}

static bool no_sas(struct net *n)
{
	return ike_sa_count(n, WEST, NULL) == 0 &&
	       ike_sa_count(n, EAST, NULL) == 0;
}

/* The kernel backend's counters, as the daemon's glue gives them. */
static int fake_counters(void *ctx, const struct ike_child_info *c,
			 uint64_t *in, uint64_t *out)
{
	*in = c->in ? 11 : 0;
	*out = c->out ? 22 : 0;
	return 0;
}

static bool with_counters; /* the next updown_net() has them */

/* Both peers, each with its runner (timeouts in ms; 0: the defaults). */
static struct net *updown_net(const char *conn, unsigned timeout_ms,
			      unsigned kill_ms)
{
	struct updown_opts o = {
		.timeout_ms = timeout_ms,
		.kill_ms = kill_ms,
		.counters = with_counters ? fake_counters : NULL,
	};
	struct net *n = net_new(conn, NULL, NULL, NULL, NULL);

	for (int i = 0; i < 2; i++)
		assert_non_null(ud[i] = updown_new(n->base, n->p[i].e, &o));
	return n;
}

static char *conn_text(const char *extra, const char *west_args,
		       const char *east_args)
{
	char *t;

	assert_true(asprintf(&t,
			     "\tleftupdown=\"%s/rec.sh %s/%s\"\n"
			     "\trightupdown=\"%s/rec.sh %s/%s\"\n%s",
			     dir, dir, west_args, dir, dir, east_args,
			     extra) > 0);
	return t;
}

static void up_down(struct net *n)
{
	struct ikb_error err = { "" };

	assert_int_equal(ike_engine_up(n->p[WEST].e, "test", &err), 0);
	assert_true(net_run(n, both_up, 5000));
}

static void expect(const char *file, unsigned run, const char *key,
		   const char *want)
{
	char buf[256];
	const char *got = var(file, run, key, buf, sizeof(buf));

	if (want ? got && !strcmp(got, want) : !got)
		return;
	/* the harness holds stderr back: say it where it is seen */
	dprintf(out_fd, "%s run %u: %s is %s%s%s, expected %s%s%s\n", file, run,
		key, got ? "\"" : "", got ? got : "unset", got ? "\"" : "",
		want ? "\"" : "", want ? want : "unset", want ? "\"" : "");
	fail();
}

/* Host to host: the -host verbs, in libreswan's order, once each way. */
static void test_host(void **state)
{
	char *c = conn_text("", "west.log", "east.log"), buf[512];
	struct net *n;
	struct ikb_error err = { "" };

	with_counters = true;
	n = updown_net(c, 0, 0);
	with_counters = false;
	setenv("IKB_UPDOWN_LEAK", "daemon's own", 1);
	up_down(n);
	wait_runs(n, "west.log", 3);
	wait_runs(n, "east.log", 3);
	assert_string_equal(verbs("west.log", buf, sizeof(buf)),
			    "prepare-host,route-host,up-host");
	assert_string_equal(verbs("east.log", buf, sizeof(buf)),
			    "prepare-host,route-host,up-host");
	for (unsigned r = 0; r < 3; r++) {
		expect("west.log", r, "PLUTO_CONNECTION", "test");
		expect("west.log", r, "PLUTO_VERSION", "2.0");
		expect("west.log", r, "PLUTO_CONNECTION_TYPE", "tunnel");
		expect("west.log", r, "PLUTO_ME", "192.0.2.1");
		expect("west.log", r, "PLUTO_PEER", "192.0.2.2");
		expect("west.log", r, "PLUTO_MY_ID", "@west");
		expect("west.log", r, "PLUTO_PEER_ID", "@east");
		expect("west.log", r, "PLUTO_MY_CLIENT", "192.0.2.1/32");
		expect("west.log", r, "PLUTO_MY_CLIENT_NET", "192.0.2.1");
		expect("west.log", r, "PLUTO_MY_CLIENT_MASK",
		       "255.255.255.255");
		expect("west.log", r, "PLUTO_PEER_CLIENT", "192.0.2.2/32");
		expect("west.log", r, "PLUTO_SA_TYPE", "ESP");
		expect("west.log", r, "PLUTO_STACK", "xfrm");
		expect("west.log", r, "PLUTO_CONN_ADDRFAMILY", "ipv4");
		expect("west.log", r, "PLUTO_CONN_KIND", "CK_PERMANENT");
		expect("west.log", r, "PLUTO_CONN_POLICY",
		       "IKEv2+PSK+ENCRYPT+TUNNEL+PFS+IKE_FRAG_ALLOW+ESN_NO");
		expect("west.log", r, "PLUTO_MY_PORT", "0");
		expect("west.log", r, "PLUTO_PEER_PROTOCOL", "0");
		expect("west.log", r, "XAUTH_FAILED", "0");
		expect("west.log", r, "PLUTO_IS_PEER_CISCO", "0");
		expect("west.log", r, "PLUTO_CFG_CLIENT", "0");
		expect("west.log", r, "PLUTO_NEXT_HOP", "192.0.2.2");
		expect("west.log", r, "PLUTO_INTERFACE", "NULL");
		expect("west.log", r, "PLUTO_INBYTES", "11");
		expect("west.log", r, "PLUTO_OUTBYTES", "22");
		/* a clean environment: nothing of the daemon's own */
		expect("west.log", r, "IKB_UPDOWN_LEAK", NULL);
		expect("west.log", r, "HOME", NULL);
		expect("east.log", r, "PLUTO_ME", "192.0.2.2");
		expect("east.log", r, "PLUTO_MY_ID", "@east");
		expect("east.log", r, "PLUTO_PEER_CLIENT_NET", "192.0.2.1");
	}
	/* one Child SA: one reqid, libreswan's SPI_IN is the outbound SPI */
	char reqid[32], spi[32];
	struct kdump w;

	kernel_dump(n, WEST, &w);
	snprintf(reqid, sizeof(reqid), "%u", kdump_sa(&w, IKB_DIR_OUT)->reqid);
	snprintf(spi, sizeof(spi), "0x%x", kdump_sa(&w, IKB_DIR_OUT)->spi);
	expect("west.log", 2, "PLUTO_SA_REQID", reqid);
	expect("west.log", 2, "SPI_IN", spi);
	snprintf(spi, sizeof(spi), "0x%x", kdump_sa(&w, IKB_DIR_IN)->spi);
	expect("west.log", 2, "SPI_OUT", spi);
	unsetenv("IKB_UPDOWN_LEAK");

	assert_int_equal(ike_engine_down(n->p[WEST].e, "test", &err), 0);
	assert_true(net_run(n, no_sas, 5000));
	wait_runs(n, "west.log", 5);
	wait_runs(n, "east.log", 5);
	assert_string_equal(
		verbs("west.log", buf, sizeof(buf)),
		"prepare-host,route-host,up-host,down-host,unroute-host");
	assert_string_equal(
		verbs("east.log", buf, sizeof(buf)),
		"prepare-host,route-host,up-host,down-host,unroute-host");
	expect("west.log", 3, "PLUTO_INBYTES", "11");
	expect("west.log", 4, "PLUTO_OUTBYTES", "22");
	expect("west.log", 3, "PLUTO_SA_REQID", reqid);
	done(n);
	free(c);
}

/* Subnets: -client, the nets and masks; transport is told as such. */
static void test_client(void **state)
{
	char *c = conn_text("\tleftsubnet=10.1.0.0/16\n"
			    "\trightsubnet=10.2.3.0/24\n"
			    "\tleftsourceip=10.1.0.1\n",
			    "west.log", "east.log"),
	     buf[512];
	struct net *n = updown_net(c, 0, 0);

	up_down(n);
	wait_runs(n, "west.log", 3);
	wait_runs(n, "east.log", 3);
	assert_string_equal(verbs("west.log", buf, sizeof(buf)),
			    "prepare-client,route-client,up-client");
	expect("west.log", 0, "PLUTO_MY_CLIENT", "10.1.0.0/16");
	expect("west.log", 0, "PLUTO_MY_CLIENT_NET", "10.1.0.0");
	expect("west.log", 0, "PLUTO_MY_CLIENT_MASK", "255.255.0.0");
	expect("west.log", 0, "PLUTO_PEER_CLIENT", "10.2.3.0/24");
	expect("west.log", 0, "PLUTO_PEER_CLIENT_NET", "10.2.3.0");
	expect("west.log", 0, "PLUTO_PEER_CLIENT_MASK", "255.255.255.0");
	expect("west.log", 0, "PLUTO_CLIENT_FAMILY", "ipv4");
	/* no counters callback: none told */
	expect("west.log", 0, "PLUTO_INBYTES", NULL);
	/* leftsourceip= is west's: east (right) has none */
	expect("west.log", 0, "PLUTO_MY_SOURCEIP", "10.1.0.1");
	expect("east.log", 2, "PLUTO_MY_SOURCEIP", NULL);
	expect("east.log", 2, "PLUTO_MY_CLIENT", "10.2.3.0/24");
	expect("east.log", 2, "PLUTO_PEER_CLIENT", "10.1.0.0/16");
	done(n);
	free(c);

	c = conn_text("\ttype=transport\n\tleftprotoport=tcp/22\n\tesn=either\n"
		      "\trightprotoport=tcp\n",
		      "t-west.log", "t-east.log");
	n = updown_net(c, 0, 0);
	up_down(n);
	wait_runs(n, "t-west.log", 3);
	assert_string_equal(verbs("t-west.log", buf, sizeof(buf)),
			    "prepare-host,route-host,up-host");
	expect("t-west.log", 0, "PLUTO_CONNECTION_TYPE", "transport");
	expect("t-west.log", 0, "PLUTO_MY_PROTOCOL", "6");
	expect("t-west.log", 0, "PLUTO_MY_PORT", "22");
	expect("t-west.log", 0, "PLUTO_PEER_PROTOCOL", "6");
	expect("t-west.log", 0, "PLUTO_PEER_PORT", "0");
	expect("t-west.log", 0, "PLUTO_CONN_POLICY",
	       "IKEv2+PSK+ENCRYPT+PFS+IKE_FRAG_ALLOW+ESN_NO+ESN_YES");
	done(n);
	free(c);
}

/* A rekey runs nothing: the tunnel stays up (libreswan 5). */
static bool rekeyed(struct net *n)
{
	return log_has("Child SA deleted") && child_count(n, WEST) == 1 &&
	       child_count(n, EAST) == 1 && idle(n);
}

static void test_rekey(void **state)
{
	char *c = conn_text("\tipsec-lifetime=1h\n", "west.log", "east.log"),
	     buf[512];
	struct net *n = updown_net(c, 0, 0);
	struct kdump w;

	up_down(n);
	wait_runs(n, "west.log", 3);
	wait_runs(n, "east.log", 3);
	log_reset();
	kernel_dump(n, WEST, &w);
	kernel_expire(n, WEST, kdump_sa(&w, IKB_DIR_OUT), false);
	assert_true(net_run(n, rekeyed, 5000));
	assert_string_equal(verbs("west.log", buf, sizeof(buf)),
			    "prepare-host,route-host,up-host");
	assert_string_equal(verbs("east.log", buf, sizeof(buf)),
			    "prepare-host,route-host,up-host");
	done(n);
	free(c);
}

/*
 * Slow scripts: up, then down at once. Each verb waits for the one
 * before, so down comes after up, and the exchanges went on meanwhile.
 */
static void test_order(void **state)
{
	char *c = conn_text("", "west.log 0.2", "east.log"), buf[512];
	struct net *n = updown_net(c, 0, 0);
	struct ikb_error err = { "" };

	up_down(n);
	assert_int_equal(ike_engine_down(n->p[WEST].e, "test", &err), 0);
	assert_true(net_run(n, no_sas, 5000));
	/* the loop took the tunnel down while prepare still slept */
	assert_true(updown_pending(ud[WEST]) >= 4);
	wait_runs(n, "west.log", 5);
	assert_string_equal(
		verbs("west.log", buf, sizeof(buf)),
		"prepare-host,route-host,up-host,down-host,unroute-host");
	done(n);
	free(c);
}

/* Whether every pid the hanging script wrote down is gone, reaped. */
static bool hang_gone(struct net *n)
{
	char *text = slurp("hang.pids"), *line, *save;
	bool gone = *text != '\0';

	for (line = strtok_r(text, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		pid_t pid = (pid_t)atoi(line), r;
		int st;

		/* ours to reap once its shell died: we are the subreaper */
		r = waitpid(pid, &st, WNOHANG);
		if (r == 0 || (r == pid && !WIFSIGNALED(st)))
			gone = false;
	}
	free(text);
	return gone;
}

/*
 * A script that outlives its limit: SIGTERM to its process group, then
 * SIGKILL to what is left (it ignores SIGTERM), all logged; meanwhile the
 * loop runs on.
 */
static void test_timeout(void **state)
{
	char *c, *hang;
	struct net *n;

	assert_int_equal(prctl(PR_SET_CHILD_SUBREAPER, 1), 0);
	assert_true(asprintf(&hang,
			     "#!/bin/sh\necho starting\necho oops >&2\n"
			     "trap '' TERM\necho $$ >> %s/hang.pids\n"
			     "sleep 60\n",
			     dir) > 0);
	write_script("hang.sh", hang);
	free(hang);
	assert_true(asprintf(&c, "\tleftupdown=%s/hang.sh\n", dir) > 0);
	n = updown_net(c, 300, 300);
	up_down(n);
	/* while it hangs, the loop runs: the tunnel is up, the verbs wait */
	assert_int_equal(updown_pending(ud[WEST]), 3);
	assert_true(net_run(n, idle, 10000));
	assert_true(net_run(n, hang_gone, 5000));
	assert_true(log_has("updown test: prepare-host: starting"));
	assert_true(log_has("updown test: prepare-host: oops"));
	assert_true(log_has("updown test: prepare-host: still running after "
			    "300 ms: SIGTERM"));
	/* sh -c runs the script as its child, or execs it */
	assert_true(
		log_has("updown test: up-host: SIGKILL to what it left running") ||
		log_has("updown test: up-host: still running 300 ms after "
			"SIGTERM: SIGKILL"));
	done(n);
	free(c);

	/* a failing script: its status is logged, the next verb runs */
	write_script("fail.sh", "#!/bin/sh\n[ \"$PLUTO_VERB\" = route-host ] "
				"&& exit 3\necho \"$PLUTO_VERB\" >> \"$1\"\n");
	assert_true(asprintf(&c, "\tleftupdown=\"%s/fail.sh %s/f.log\"\n", dir,
			     dir) > 0);
	n = updown_net(c, 0, 0);
	log_reset();
	up_down(n);
	assert_true(net_run(n, idle, 10000));
	assert_true(log_has("updown test: route-host: exit status 3"));
	char *text = slurp("f.log");

	assert_string_equal(text, "prepare-host\nup-host\n");
	free(text);
	done(n);
	free(c);
}

/*
 * A script's output reaches the log up to 4096 octets per run (OUT_MAX),
 * then one line says the rest is not logged: 100 lines of 100 octets,
 * of which the first 40 and the start of the 41st are logged.
 */
static void test_output_cap(void **state)
{
	char *c;
	struct net *n;

	write_script("loud.sh",
		     "#!/bin/sh\ni=0\nwhile [ $i -lt 100 ]; do\n"
		     "\tprintf 'line-%03d-%091d\\n' $i 0\n"
		     "\ti=$((i + 1))\ndone\n");
	assert_true(asprintf(&c, "\tleftupdown=%s/loud.sh\n", dir) > 0);
	n = updown_net(c, 0, 0);
	log_reset();
	up_down(n);
	assert_true(net_run(n, idle, 10000));
	assert_true(log_has("updown test: prepare-host: line-000-"));
	assert_true(log_has("updown test: prepare-host: line-039-"));
	assert_true(log_has("updown test: prepare-host: line-040-"));
	assert_false(log_has("line-041-"));
	assert_false(log_has("line-099-"));
	assert_true(log_has("updown test: prepare-host: more output, not logged"));
	/* each run has its own 4096: the next verb logs its first line */
	assert_true(log_has("updown test: up-host: line-000-"));
	done(n);
	free(c);
}

/* The daemon stops: down and unroute for what is up, as libreswan. */
static void test_stop(void **state)
{
	char *c = conn_text("", "west.log", "east.log"), buf[512];
	struct net *n = updown_net(c, 0, 0);

	up_down(n);
	wait_runs(n, "west.log", 3);
	wait_runs(n, "east.log", 3);
	updown_stop(ud[WEST], 10000);
	assert_int_equal(updown_pending(ud[WEST]), 0);
	assert_string_equal(
		verbs("west.log", buf, sizeof(buf)),
		"prepare-host,route-host,up-host,down-host,unroute-host");
	expect("west.log", 3, "PLUTO_PEER", "192.0.2.2");
	expect("west.log", 4, "PLUTO_VERB", "unroute-host");
	expect("west.log", 4, "PLUTO_MY_CLIENT", "192.0.2.1/32");
	/* it hears nothing more: the Delete brings no second down */
	struct ikb_error err = { "" };

	assert_int_equal(ike_engine_down(n->p[EAST].e, "test", &err), 0);
	assert_true(net_run(n, no_sas, 5000));
	wait_runs(n, "east.log", 5);
	assert_int_equal(runs("west.log"), 5);
	done(n);
	free(c);
}

static const char *env_of(const struct updown_job *j, const char *key)
{
	size_t n = strlen(key);

	for (size_t i = 0; i < j->nenv; i++)
		if (!strncmp(j->env[i], key, n) && j->env[i][n] == '=')
			return j->env[i] + n + 1;
	return NULL;
}

static void v6_addr(struct ikb_addr *a, const char *text)
{
	a->family = AF_INET6;
	assert_int_equal(inet_pton(AF_INET6, text, a->bytes), 1);
}

/* IPv6: the -v6 verbs and masks as addresses, libreswan's formats. */
/*
 * A peer's ID is data, never part of a command line: west calls itself by
 * an ID a shell would run if it were pasted into one, and east's script
 * gets it verbatim in PLUTO_PEER_ID, with nothing run (the commands
 * would write into the test's directory).
 */
static void test_hostile_id(void **state)
{
	char *c = conn_text("", "west.log", "east.log"), *id, p[128];
	struct net *n;

	assert_true(asprintf(&id, "@w$(touch${IFS}%s/a)`touch${IFS}%s/b`;x",
			     dir, dir) > 0);
	harness_west_id = id;
	n = updown_net(c, 0, 0);
	harness_west_id = NULL;
	up_down(n);
	wait_runs(n, "east.log", 3);
	for (unsigned r = 0; r < 3; r++)
		expect("east.log", r, "PLUTO_PEER_ID", id);
	snprintf(p, sizeof(p), "%s/a", dir);
	assert_int_equal(access(p, F_OK), -1);
	snprintf(p, sizeof(p), "%s/b", dir);
	assert_int_equal(access(p, F_OK), -1);
	done(n);
	free(id);
	free(c);
}

static void test_env_v6(void **state)
{
	struct ike_path path = { .lport = 500, .rport = 500 };
	struct ike_sa_info ike = { .conn = "six", .path = &path };
	struct ike_child_info c = { .conn = "six",
				    .local_id = "@west",
				    .remote_id = "@east",
				    .reqid = 7,
				    .mode = IKB_MODE_TUNNEL,
				    .spi_in = 0xc0ffee,
				    .spi_out = 0xbeef,
				    .ts = { .src_plen = 64,
					    .dst_plen = 48,
					    .proto = 17,
					    .sport = 53 } };
	struct ike_event ev = { .kind = IKE_EVENT_CHILD_UP,
				.ike = &ike,
				.child = &c };
	struct updown_job j = { 0 };

	v6_addr(&path.local, "2001:db8:1::1");
	v6_addr(&path.remote, "2001:db8:1::2");
	v6_addr(&c.ts.src, "2001:db8:a::");
	v6_addr(&c.ts.dst, "2001:db8:b::");
	assert_string_equal(updown_suffix(&ev), "-client-v6");
	assert_int_equal(updown_env_build(&j, &ev, "up", NULL), 0);
	assert_string_equal(env_of(&j, "PLUTO_VERB"), "up-client-v6");
	assert_string_equal(env_of(&j, "PLUTO_MY_CLIENT"), "2001:db8:a::/64");
	assert_string_equal(env_of(&j, "PLUTO_MY_CLIENT_NET"), "2001:db8:a::");
	assert_string_equal(env_of(&j, "PLUTO_MY_CLIENT_MASK"),
			    "ffff:ffff:ffff:ffff::");
	assert_string_equal(env_of(&j, "PLUTO_PEER_CLIENT_MASK"),
			    "ffff:ffff:ffff::");
	assert_string_equal(env_of(&j, "PLUTO_MY_PROTOCOL"), "17");
	assert_string_equal(env_of(&j, "PLUTO_MY_PORT"), "53");
	assert_string_equal(env_of(&j, "PLUTO_CONN_ADDRFAMILY"), "ipv6");
	assert_string_equal(env_of(&j, "PLUTO_CLIENT_FAMILY"), "ipv6");
	assert_string_equal(env_of(&j, "PLUTO_ME"), "2001:db8:1::1");
	assert_string_equal(env_of(&j, "PLUTO_SA_REQID"), "7");
	assert_string_equal(env_of(&j, "SPI_IN"), "0xbeef");
	assert_string_equal(env_of(&j, "SPI_OUT"), "0xc0ffee");
	assert_null(env_of(&j, "PLUTO_INBYTES"));
	/* no ipsec-interface=: no if_id told */
	assert_null(env_of(&j, "PLUTO_IF_ID_IN"));
	assert_null(j.env[j.nenv]);
	for (size_t i = 0; i < j.nenv; i++)
		free(j.env[i]);
	free(j.env);

	/* ipsec-interface=5: the SAs' if_id */
	struct ikb_sa in = { .if_id = 5 }, out = { .if_id = 5 };

	c.in = &in;
	c.out = &out;
	memset(&j, 0, sizeof(j));
	assert_int_equal(updown_env_build(&j, &ev, "up", NULL), 0);
	assert_string_equal(env_of(&j, "PLUTO_IF_ID_IN"), "5");
	assert_string_equal(env_of(&j, "PLUTO_IF_ID_OUT"), "5");
	for (size_t i = 0; i < j.nenv; i++)
		free(j.env[i]);
	free(j.env);

	/* the host alone: -host-v6 */
	c.ts.src = path.local;
	c.ts.src_plen = 128;
	assert_string_equal(updown_suffix(&ev), "-host-v6");
}

/*
 * What a script inherits, as docs/SECURITY.md says: no descriptor of the
 * daemon's but stdin (/dev/null), stdout and stderr (the log pipe), and
 * nothing secret in its environment: neither the PSK nor a Child SA key.
 */
static const char fd_recorder[] =
	"#!/bin/sh\n"
	"{ echo \"verb=$PLUTO_VERB\"; env | sort | sed 's/^/  /';\n"
	"  ls -l /proc/$$/fd | sed 's/^/  fd /'; } >> \"$1\"\n";

#define UPDOWN_PSK "updown-psk-5e1b-not-for-scripts"

static void test_inherits_nothing(void **state)
{
	char *c, marker[128], h[40], *text;
	struct net *n;
	struct kdump w;
	struct updown_opts o = { 0 };
	unsigned keys = 0;
	int fd;

	write_script("fds.sh", fd_recorder);
	assert_true(asprintf(&c,
			     "\tleftupdown=\"%s/fds.sh %s/west.log\"\n"
			     "\trightupdown=\"%s/fds.sh %s/east.log\"\n"
			     "\tesp=aes256-sha2_256\n",
			     dir, dir, dir, dir) > 0);
	/* an fd without O_CLOEXEC: posix_spawn would pass it on, but for
	 * the runner's closefrom */
	snprintf(marker, sizeof(marker), "%s/open-in-the-daemon", dir);
	fd = open(marker, O_CREAT | O_RDWR, 0600);
	assert_true(fd > 2);
	n = net_new(c, NULL, NULL, UPDOWN_PSK, UPDOWN_PSK);
	for (int i = 0; i < 2; i++)
		assert_non_null(ud[i] = updown_new(n->base, n->p[i].e, &o));
	up_down(n);
	wait_runs(n, "west.log", 3);
	wait_runs(n, "east.log", 3);

	kernel_dump(n, WEST, &w);
	text = slurp("west.log");
	/* the scripts ran and listed their descriptors */
	assert_non_null(strstr(text, "fd "));
	assert_non_null(strstr(text, "/dev/null"));
	if (strstr(text, "open-in-the-daemon"))
		fail_msg("an updown script inherited a descriptor:\n%s", text);
	assert_null(strstr(text, UPDOWN_PSK));
	for (unsigned i = 0; i < w.nsa; i++) {
		const struct ikb_alg *algs[] = { &w.sa[i].encr,
						 &w.sa[i].integ };

		for (size_t k = 0; k < 2; k++) {
			for (size_t b = 0; b < 16; b++)
				sprintf(h + 2 * b, "%02x", algs[k]->key[b]);
			if (strstr(text, h))
				fail_msg("an updown script saw key %s", h);
			keys++;
		}
	}
	assert_int_equal(keys, 4);
	free(text);
	close(fd);
	done(n);
	free(c);
}

/* %disabled and "" run nothing. */
static void test_disabled(void **state)
{
	struct net *n = updown_net("\tleftupdown=%disabled\n"
				   "\trightupdown=\"\"\n",
				   0, 0);

	up_down(n);
	assert_int_equal(updown_pending(ud[WEST]), 0);
	assert_int_equal(updown_pending(ud[EAST]), 0);
	done(n);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_host, setup, teardown),
		cmocka_unit_test_setup_teardown(test_client, setup, teardown),
		cmocka_unit_test_setup_teardown(test_rekey, setup, teardown),
		cmocka_unit_test_setup_teardown(test_output_cap, setup, teardown),
		cmocka_unit_test_setup_teardown(test_order, setup, teardown),
		cmocka_unit_test_setup_teardown(test_timeout, setup, teardown),
		cmocka_unit_test_setup_teardown(test_stop, setup, teardown),
		cmocka_unit_test_setup_teardown(test_hostile_id, setup, teardown),
		cmocka_unit_test(test_env_v6),
		cmocka_unit_test_setup_teardown(test_disabled, setup, teardown),
		cmocka_unit_test_setup_teardown(test_inherits_nothing, setup,
						teardown),
	};

	out_fd = dup(2);
	harness_global_init();
	return cmocka_run_group_tests(tests, NULL, NULL);
}
