// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * trafficstatus between two engines: the engine's Child SAs, kernel-mem's
 * counters (traffic injected as the kernel would count it), the JSON the
 * daemon answers and the line it writes for `ikebana trafficstatus`.
 */
#include <errno.h>
#include <netinet/in.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <cmocka.h>
#include <json-c/json.h>

#include "harness.h"
#include "kernel_mem.h"
#include "plugin/plugin_set.h"
#include "control/trafficstatus.h"

#define TRANSPORT                                            \
	"\tike=aes_gcm256-sha2_256-dh19\n\tesp=aes_gcm128\n" \
	"\ttype=transport\n"

struct side {
	const struct ikb_kernel_ops *k;
	void *st;
	ikb_kernel_mem_traffic_fn traffic;
	struct kdump d;
	const struct ikb_sa *in, *out;
};

static struct net *up(const char *conn, bool (*cond)(struct net *))
{
	struct net *n = net_new(conn, NULL, NULL, NULL, NULL);
	struct ikb_error err = { "" };

	assert_int_equal(ike_engine_up(n->p[WEST].e, "test", &err), 0);
	assert_true(net_run(n, cond, 10000));
	return n;
}

static void side_get(struct net *n, int who, struct side *s)
{
	s->k = plugin_set_kernel(n->p[who].lc.plugins, &s->st);
	s->traffic = (ikb_kernel_mem_traffic_fn)plugin_set_symbol(
		n->p[who].lc.plugins, "kernel-mem", IKB_KERNEL_MEM_TRAFFIC);
	assert_non_null(s->k);
	assert_non_null(s->traffic);
	kernel_dump(n, who, &s->d);
	s->in = kdump_sa(&s->d, IKB_DIR_IN);
	s->out = kdump_sa(&s->d, IKB_DIR_OUT);
	assert_true(s->in && s->out);
}

static void count(const struct side *s, const struct ikb_sa *sa, uint64_t bytes,
		  uint64_t packets)
{
	assert_int_equal(
		s->traffic(s->st, &sa->dst, sa->spi, sa->proto, bytes, packets),
		0);
}

/*
 * What the CLI gets: the daemon's answer through JSON text, as the
 * control socket carries it.
 */
static struct json_object *query(struct net *n, const struct side *s,
				 const char *conn, time_t now)
{
	struct json_object *o = traffic_json(n->p[WEST].e, s ? s->k : NULL,
					     s ? s->st : NULL, conn, now);
	struct json_object *r =
		json_tokener_parse(json_object_to_json_string(o));

	json_object_put(o);
	assert_non_null(r);
	return r;
}

static struct json_object *child(struct json_object *r, size_t i)
{
	struct json_object *a;

	assert_true(json_object_object_get_ex(r, "child_sas", &a));
	assert_true(i < json_object_array_length(a));
	return json_object_array_get_idx(a, i);
}

static size_t nchildren(struct json_object *r)
{
	struct json_object *a;

	assert_true(json_object_object_get_ex(r, "child_sas", &a));
	return json_object_array_length(a);
}

static struct json_object *get(struct json_object *o, const char *path)
{
	char key[64];
	const char *dot;
	struct json_object *v = o;

	while (v && (dot = strchr(path, '.'))) {
		snprintf(key, sizeof(key), "%.*s", (int)(dot - path), path);
		if (!json_object_object_get_ex(v, key, &v))
			return NULL;
		path = dot + 1;
	}
	if (!v || !json_object_object_get_ex(v, path, &v))
		return NULL;
	return v;
}

static int64_t num(struct json_object *o, const char *path)
{
	struct json_object *v = get(o, path);

	assert_non_null(v);
	return json_object_get_int64(v);
}

static const char *str(struct json_object *o, const char *path)
{
	struct json_object *v = get(o, path);

	assert_non_null(v);
	return json_object_get_string(v);
}

/* The daemon's text for the same query; the length is the string's. */
static char *text(struct net *n, const struct side *s, time_t now)
{
	size_t len = 0;
	char *buf = traffic_text(n->p[WEST].e, s ? s->k : NULL,
				 s ? s->st : NULL, NULL, now, &len);

	assert_non_null(buf);
	assert_int_equal(strlen(buf), len);
	return buf;
}

static void spi_hex(uint32_t spi, char *buf, size_t len)
{
	snprintf(buf, len, "%08x", spi);
}

/* Counts in each direction, the idle time, and the line. */
static void test_counts(void **state)
{
	struct net *n = up(TRANSPORT, both_up);
	struct side w;
	struct json_object *r, *c;
	char in[16], out[16], want[512], *line;
	int64_t last;

	side_get(n, WEST, &w);
	spi_hex(w.in->spi, in, sizeof(in));
	spi_hex(w.out->spi, out, sizeof(out));
	count(&w, w.out, 2000, 10);
	count(&w, w.in, 1234, 10);
	count(&w, w.out, 345, 2);

	r = query(n, &w, NULL, time(NULL));
	assert_int_equal(nchildren(r), 1);
	c = child(r, 0);
	assert_string_equal(str(c, "conn"), "test");
	assert_int_equal(num(c, "ike_serial"), 1);
	assert_int_equal(num(c, "reqid"), w.in->reqid);
	assert_string_equal(str(c, "remote_id"), "@east");
	assert_string_equal(str(c, "proto"), "ESP");
	assert_string_equal(str(c, "mode"), "transport");
	assert_string_equal(str(c, "alg"), "AES_GCM_16_128");
	assert_string_equal(str(c, "kernel_alg"), "rfc4106(gcm(aes))");
	assert_string_equal(str(c, "spi_in"), in);
	assert_string_equal(str(c, "spi_out"), out);
	assert_int_equal(num(c, "in.bytes"), 1234);
	assert_int_equal(num(c, "in.packets"), 10);
	assert_int_equal(num(c, "out.bytes"), 2345);
	assert_int_equal(num(c, "out.packets"), 12);
	assert_int_equal(num(c, "in.replay_fail"), 0);
	assert_true(num(c, "add_time") > 0 && num(c, "add_time") <= time(NULL));
	assert_true(num(c, "idle_s") >= 0 && num(c, "idle_s") <= 2);
	last = num(c, "in.use_time") > num(c, "out.use_time") ?
		       num(c, "in.use_time") :
		       num(c, "out.use_time");
	json_object_put(r);

	/* The later of the two uses counts: 42 s after it, idle 42s. */
	r = query(n, &w, NULL, (time_t)last + 42);
	c = child(r, 0);
	assert_int_equal(num(c, "idle_s"), 42);
	line = text(n, &w, (time_t)last + 42);
	snprintf(want, sizeof(want),
		 "\"test\" #1, reqid %u: ESP transport AES_GCM_16_128, "
		 "in 0x%s 1234 bytes 10 packets, out 0x%s 2345 bytes 12 "
		 "packets, idle 42s, id '@east'\n",
		 w.in->reqid, in, out);
	assert_string_equal(line, want);
	free(line);
	json_object_put(r);

	line = text(n, &w, (time_t)last + 3723);
	assert_non_null(strstr(line, ", idle 1h 2m 3s, "));
	free(line);
	line = text(n, &w, (time_t)last + 86400 + 60);
	assert_non_null(strstr(line, ", idle 1d 1m, "));
	free(line);
	net_free(n);
}

/* Only one direction used: its time counts; none used: never. */
static void test_never_used(void **state)
{
	struct net *n = up(TRANSPORT, both_up);
	struct side w;
	struct json_object *r, *c;
	char *line;
	time_t now;

	side_get(n, WEST, &w);
	now = time(NULL) + 100;
	r = query(n, &w, NULL, now);
	c = child(r, 0);
	assert_int_equal(num(c, "in.packets"), 0);
	assert_int_equal(num(c, "out.packets"), 0);
	assert_int_equal(num(c, "in.use_time"), 0);
	/* the key is there, and null */
	assert_true(json_object_object_get_ex(c, "idle_s", NULL));
	assert_null(get(c, "idle_s"));
	line = text(n, &w, now);
	assert_non_null(strstr(line, "in 0x"));
	assert_non_null(strstr(line, " 0 bytes 0 packets, out 0x"));
	assert_non_null(strstr(line, " 0 bytes 0 packets, never used, id"));
	free(line);
	json_object_put(r);

	count(&w, w.in, 100, 1);
	r = query(n, &w, NULL, (time_t)0);
	c = child(r, 0);
	/* a clock stepped back: not negative */
	assert_int_equal(num(c, "idle_s"), 0);
	json_object_put(r);
	now = time(NULL) + 7;
	r = query(n, &w, NULL, now);
	c = child(r, 0);
	assert_int_equal(num(c, "out.use_time"), 0);
	assert_int_equal(num(c, "idle_s"), now - num(c, "in.use_time"));
	assert_true(num(c, "idle_s") >= 6 && num(c, "idle_s") <= 7);
	json_object_put(r);
	net_free(n);
}

/* A failed query is that direction's error; the rest still reports. */
static void test_kernel_error(void **state)
{
	struct net *n = up(TRANSPORT, both_up);
	struct side w;
	struct ikb_error err = { "" };
	struct json_object *r, *c;
	char in[16], *line;
	time_t now;

	side_get(n, WEST, &w);
	spi_hex(w.in->spi, in, sizeof(in));
	count(&w, w.out, 500, 5);
	/* the SA disappears behind the engine's back */
	assert_int_equal(
		w.k->sa_del(w.st, &w.in->dst, w.in->spi, IPPROTO_ESP, &err), 0);
	now = time(NULL);
	r = query(n, &w, NULL, now);
	c = child(r, 0);
	assert_non_null(strstr(str(c, "in.error"), "no SA dst 192.0.2.1 spi"));
	assert_null(get(c, "in.bytes"));
	assert_int_equal(num(c, "out.packets"), 5);
	assert_non_null(get(c, "idle_s")); /* from the outbound SA */
	line = text(n, &w, now);
	assert_non_null(strstr(line, "in 0x"));
	assert_non_null(strstr(line, in));
	assert_non_null(strstr(line, " error: no SA dst 192.0.2.1 spi 0x"));
	assert_non_null(strstr(line, ", out 0x"));
	assert_non_null(strstr(line, " 500 bytes 5 packets, idle "));
	free(line);
	json_object_put(r);

	/* no kernel backend at all */
	r = query(n, NULL, NULL, time(NULL));
	c = child(r, 0);
	assert_string_equal(str(c, "in.error"), "no kernel plugin is loaded");
	assert_string_equal(str(c, "out.error"), "no kernel plugin is loaded");
	assert_null(get(c, "idle_s"));
	json_object_put(r);
	line = text(n, NULL, now);
	assert_non_null(
		strstr(line, " error: no kernel plugin is loaded, out 0x"));
	assert_non_null(strstr(line, " error: no kernel plugin is loaded, "
				     "never used, id '@east'\n"));
	free(line);
	net_free(n);
}

/* no leftprotoports: left's own selector pairs with every entry */
#define PP4 "\trightprotoports=tcp/80,udp/53,tcp/443,udp/123\n"

static bool four_up(struct net *n)
{
	return child_count(n, WEST) == 4 && child_count(n, EAST) == 4;
}

/* Several Child SAs, each with its own SAs; a conn filter. */
static void test_several(void **state)
{
	struct net *n = up(PP4, four_up);
	struct side w;
	struct json_object *r, *c;
	uint32_t seen = 0;

	side_get(n, WEST, &w);
	for (unsigned i = 0; i < w.d.nsa; i++)
		count(&w, &w.d.sa[i], 100 * (i + 1), i + 1);
	r = query(n, &w, "test", time(NULL));
	assert_int_equal(nchildren(r), 4);
	for (size_t i = 0; i < 4; i++) {
		const struct ikb_sa *in, *out;

		c = child(r, i);
		assert_string_equal(str(c, "mode"), "tunnel");
		in = kdump_spi(&w.d,
			       (uint32_t)strtoul(str(c, "spi_in"), NULL, 16));
		out = kdump_spi(&w.d,
				(uint32_t)strtoul(str(c, "spi_out"), NULL, 16));
		assert_true(in && out && in->dir == IKB_DIR_IN &&
			    out->dir == IKB_DIR_OUT);
		assert_int_equal(in->reqid, num(c, "reqid"));
		assert_int_equal(out->reqid, num(c, "reqid"));
		/* sa[i] got 100 * (i + 1) bytes, i + 1 packets */
		assert_int_equal(num(c, "in.bytes"),
				 100 * num(c, "in.packets"));
		assert_int_equal(num(c, "out.bytes"),
				 100 * num(c, "out.packets"));
		seen |= 1u << num(c, "in.packets");
		seen |= 1u << num(c, "out.packets");
	}
	assert_int_equal(seen, 0x1fe); /* 1..8: every SA exactly once */
	json_object_put(r);

	r = query(n, &w, "other", time(NULL));
	assert_int_equal(nchildren(r), 0);
	json_object_put(r);
	assert_int_equal(
		ike_engine_foreach_child(n->p[WEST].e, "other", NULL, NULL), 0);
	assert_int_equal(
		ike_engine_foreach_child(n->p[WEST].e, NULL, NULL, NULL), 4);
	net_free(n);
}

/* Before IKE_AUTH installs anything there is nothing to show. */
static void test_nothing_yet(void **state)
{
	struct net *n = net_new(TRANSPORT, NULL, NULL, NULL, NULL);
	struct json_object *r = query(n, NULL, NULL, time(NULL));
	char *line = text(n, NULL, time(NULL));

	assert_int_equal(nchildren(r), 0);
	assert_string_equal(line, "");
	free(line);
	json_object_put(r);
	net_free(n);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(test_counts, net_cleanup),
		cmocka_unit_test_teardown(test_never_used, net_cleanup),
		cmocka_unit_test_teardown(test_kernel_error, net_cleanup),
		cmocka_unit_test_teardown(test_several, net_cleanup),
		cmocka_unit_test_teardown(test_nothing_yet, net_cleanup),
	};

	harness_global_init();
	return cmocka_run_group_tests_name("ike-traffic", tests, NULL, NULL);
}
