// SPDX-License-Identifier: GPL-2.0-or-later
#include <getopt.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <json-c/json.h>

#include "cli/cli.h"

static const char *str(struct json_object *o, const char *key)
{
	struct json_object *v;

	if (!json_object_object_get_ex(o, key, &v) || !v)
		return NULL;
	return json_object_get_string(v);
}

static long long num(struct json_object *o, const char *key)
{
	struct json_object *v;

	if (!json_object_object_get_ex(o, key, &v))
		return 0;
	return json_object_get_int64(v);
}

static struct json_object *array(struct json_object *o, const char *key)
{
	struct json_object *v;

	if (!json_object_object_get_ex(o, key, &v) ||
	    !json_object_is_type(v, json_type_array))
		return NULL;
	return v;
}

static void print_uptime(long long s)
{
	if (s >= 86400)
		printf("%lldd ", s / 86400);
	if (s >= 3600)
		printf("%lldh ", s / 3600 % 24);
	if (s >= 60)
		printf("%lldm ", s / 60 % 60);
	printf("%llds", s % 60);
}

static void print_daemon(struct json_object *d)
{
	printf("ikebanad %s (pid %lld), up ", str(d, "version"), num(d, "pid"));
	print_uptime(num(d, "uptime"));
	printf(", %lld reload(s)\n", num(d, "reloads"));
	printf("config:  %s\n", str(d, "config"));
	printf("secrets: %s\n", str(d, "secrets") ? str(d, "secrets") : "none");
	printf("rundir:  %s\n", str(d, "rundir"));
}

static void print_plugins(struct json_object *a)
{
	size_t n = a ? json_object_array_length(a) : 0;

	printf("plugins:");
	for (size_t i = 0; i < n; i++)
		printf("%s %s", i ? "," : "",
		       str(json_object_array_get_idx(a, i), "name"));
	printf("%s\n", n ? "" : " none");
}

static int name_width(struct json_object *a, size_t n)
{
	size_t w = 4;
	const char *s;

	for (size_t i = 0; i < n; i++) {
		s = str(json_object_array_get_idx(a, i), "name");
		if (s && strlen(s) > w)
			w = strlen(s);
	}
	return (int)w;
}

static const char *or_unset(const char *s)
{
	return s ? s : "-";
}

static void print_conns(struct json_object *a)
{
	size_t n = a ? json_object_array_length(a) : 0;
	int w = name_width(a, n);

	printf("\nconnections (%zu):\n", n);
	for (size_t i = 0; i < n; i++) {
		struct json_object *c = json_object_array_get_idx(a, i);

		printf("  %-*s  auto=%s left=%s right=%s  (%s:%lld)\n", w,
		       str(c, "name"), or_unset(str(c, "auto")),
		       or_unset(str(c, "left")), or_unset(str(c, "right")),
		       or_unset(str(c, "file")), num(c, "line"));
		status_conn_hosts_print(stdout, c);
	}
}

static bool flag(struct json_object *o, const char *key)
{
	struct json_object *v;

	return json_object_object_get_ex(o, key, &v) &&
	       json_object_get_boolean(v);
}

/* ", rekey in 1h 2m 3s" for members the engine reports (not every does). */
static void print_timers(struct json_object *o)
{
	struct json_object *v;

	if (json_object_object_get_ex(o, "rekey_in_s", &v)) {
		printf(", rekey in ");
		print_uptime(json_object_get_int64(v));
	}
	if (json_object_object_get_ex(o, "expire_in_s", &v)) {
		printf(", expires in ");
		print_uptime(json_object_get_int64(v));
	}
}

/*
 * "CPU 3, pcrypt on, offload crypto on eth0, mark 0x7/0xff, interface
 * ipsec1 (if_id 1)": how the kernel runs it.
 */
static void print_tuning(struct json_object *c)
{
	struct json_object *cpu;
	const char *dev = str(c, "offload_dev");

	printf("      CPU ");
	if (json_object_object_get_ex(c, "cpu", &cpu) && cpu)
		printf("%lld", (long long)json_object_get_int64(cpu));
	else
		printf("none");
	printf(", pcrypt %s, offload %s", or_unset(str(c, "pcrypt")),
	       or_unset(str(c, "offload")));
	if (dev)
		printf(" on %s", dev);
	if (str(c, "mark_in"))
		printf(", mark out %s in %s", or_unset(str(c, "mark")),
		       str(c, "mark_in"));
	else if (str(c, "mark"))
		printf(", mark %s", str(c, "mark"));
	if (str(c, "interface"))
		printf(", interface %s (if_id %lld)", str(c, "interface"),
		       num(c, "if_id"));
	printf("\n");
}

static void print_child(struct json_object *c)
{
	printf("    child #%lld %s%s%s", num(c, "reqid"),
	       or_unset(str(c, "mode")), str(c, "state") ? " " : "",
	       str(c, "state") ? str(c, "state") : "");
	print_timers(c);
	printf(":\n      spi in %s out %s, %s (%s)\n",
	       or_unset(str(c, "spi_in")), or_unset(str(c, "spi_out")),
	       or_unset(str(c, "proposal")), or_unset(str(c, "kernel_alg")));
	printf("      %s === %s, replay window %lld, ESN %s\n",
	       or_unset(str(c, "ts_local")), or_unset(str(c, "ts_remote")),
	       num(c, "replay_window"), flag(c, "esn") ? "on" : "off");
	print_tuning(c);
}

static void print_ike_sa(struct json_object *sa)
{
	struct json_object *kids = array(sa, "child_sas");
	size_t n = kids ? json_object_array_length(kids) : 0;

	printf("  %s #%lld: %s, %s, age ", or_unset(str(sa, "conn")),
	       num(sa, "serial"), or_unset(str(sa, "role")),
	       or_unset(str(sa, "state")));
	print_uptime(num(sa, "age_s"));
	print_timers(sa);
	printf("\n    local  %s port %lld id %s\n    remote %s port %lld id %s\n",
	       or_unset(str(sa, "local")), num(sa, "local_port"),
	       or_unset(str(sa, "local_id")), or_unset(str(sa, "remote")),
	       num(sa, "remote_port"), or_unset(str(sa, "remote_id")));
	status_peer_print(stdout, sa);
	status_nat_print(stdout, sa);
	status_mobike_print(stdout, sa);
	status_host_print(stdout, sa);
	status_frag_print(stdout, sa);
	printf("    SPIs i %s r %s, %s\n", or_unset(str(sa, "spi_i")),
	       or_unset(str(sa, "spi_r")), or_unset(str(sa, "proposal")));
	for (size_t i = 0; i < n; i++)
		print_child(json_object_array_get_idx(kids, i));
}

static void print_ike_sas(struct json_object *a)
{
	size_t n = a ? json_object_array_length(a) : 0;

	printf("\nIKE SAs (%zu):%s\n", n, n ? "" : " none");
	for (size_t i = 0; i < n; i++)
		print_ike_sa(json_object_array_get_idx(a, i));
}

/* Traps and shunts: "  conn: trap 10.1.0.0/16 === 10.2.0.0/16, ..." */
static void print_routes(struct json_object *a)
{
	size_t n = a ? json_object_array_length(a) : 0;

	if (!n)
		return;
	printf("\nroutes (%zu):\n", n);
	for (size_t i = 0; i < n; i++) {
		struct json_object *r = json_object_array_get_idx(a, i), *v;

		printf("  %s: %s %s, outbound %s", or_unset(str(r, "conn")),
		       or_unset(str(r, "kind")), or_unset(str(r, "selectors")),
		       or_unset(str(r, "action")));
		if (json_object_object_get_ex(r, "acquires", &v) &&
		    json_object_get_int64(v))
			printf(", %" PRId64 " ACQUIRE(s)",
			       json_object_get_int64(v));
		printf("\n");
	}
}

/*
 * ipsec-interface=: "  ipsec1 if_id 1, 2 conn(s), created by ikebanad",
 * then ", interface-ip 10.9.0.1/24 ..." when conns put addresses on it.
 */
static void print_interfaces(struct json_object *a)
{
	size_t n = a ? json_object_array_length(a) : 0;

	if (!n)
		return;
	printf("\ninterfaces (%zu):\n", n);
	for (size_t i = 0; i < n; i++) {
		struct json_object *x = json_object_array_get_idx(a, i), *v;
		bool up = json_object_object_get_ex(x, "up", &v) &&
			  json_object_get_boolean(v);
		bool made = json_object_object_get_ex(x, "created", &v) &&
			    json_object_get_boolean(v);

		struct json_object *ips = NULL;

		printf("  %s if_id %lld, %lld conn(s), %s",
		       or_unset(str(x, "name")), num(x, "if_id"),
		       num(x, "conns"),
		       !up  ? "not there (see the log)" :
		       made ? "created by ikebanad" :
			      "found, not ours");
		/* interface-ip= */
		json_object_object_get_ex(x, "addresses", &ips);
		for (size_t j = 0; j < (ips ? json_object_array_length(ips) : 0);
		     j++)
			printf("%s%s", j ? " " : ", interface-ip ",
			       json_object_get_string(
				       json_object_array_get_idx(ips, j)));
		printf("\n");
	}
}

static void print_keys(struct json_object *a)
{
	size_t n = a ? json_object_array_length(a) : 0;

	if (!a)
		return;
	printf("\nChild SA keys (debug-private) (%zu):\n", n);
	for (size_t i = 0; i < n; i++) {
		struct json_object *k = json_object_array_get_idx(a, i);

		printf("  %-3s spi %s %s -> %s %s", or_unset(str(k, "dir")),
		       or_unset(str(k, "spi")), or_unset(str(k, "src")),
		       or_unset(str(k, "dst")), or_unset(str(k, "alg")));
		if (str(k, "key"))
			printf(" 0x%s", str(k, "key"));
		else
			printf(" (key only in the kernel: ip xfrm state)");
		if (str(k, "integ_key"))
			printf(" %s 0x%s", or_unset(str(k, "integ_alg")),
			       str(k, "integ_key"));
		printf("\n");
	}
}

static void print_human(struct json_object *data)
{
	struct json_object *d;

	if (json_object_object_get_ex(data, "daemon", &d))
		print_daemon(d);
	print_plugins(array(data, "plugins"));
	print_conns(array(data, "conns"));
	print_ike_sas(array(data, "ike_sas"));
	print_routes(array(data, "routes"));
	print_interfaces(array(data, "interfaces"));
	print_keys(array(data, "private_keys"));
}

int status_main(const struct cli *c, int argc, char **argv)
{
	static const struct option opts[] = {
		{ "json", no_argument, NULL, 'j' },
		{ "private", no_argument, NULL, 'p' },
		{ 0 }
	};
	struct json_object *req = json_object_new_object();
	int json = 0, o;

	optind = 1;
	while ((o = getopt_long(argc, argv, "jp", opts, NULL)) != -1) {
		if (o == 'j') {
			json = 1;
		} else if (o == 'p') {
			json_object_object_add(req, "private",
					       json_object_new_boolean(1));
		} else {
			json_object_put(req);
			return CLI_USAGE;
		}
	}
	if (optind < argc) {
		fprintf(stderr, "%s status: unexpected argument '%s'\n",
			c->prog, argv[optind]);
		json_object_put(req);
		return CLI_USAGE;
	}
	/* print_human() needs less than --json shows (control/status.c) */
	if (!json)
		json_object_object_add(req, "brief", json_object_new_boolean(1));
	return cli_call_show(c, "status", req, json, print_human);
}
