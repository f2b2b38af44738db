// SPDX-License-Identifier: GPL-2.0-or-later
/* Two in-process engines over a datagram queue; see harness.h. */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>
#include <event2/event.h>
#include <json-c/json.h>

#include "crypto/helpers.h"
#include "crypto/nss_init.h"
#include "harness.h"
#include "ike/engine.h"
#include "ike/msg/msg.h"
#include "log/log.h"

struct hqueue {
	struct hqueue *next;
	int to;
	uint16_t sport, dport;
	uint8_t *buf;
	size_t len;
};

static char log_path[64];
static struct net *live; /* freed by net_cleanup() after a failed test */
static int real_stderr = -1;

/* Sanitizer reports at exit must reach the real stderr. */
static void restore_stderr(void)
{
	log_flush();
	dup2(real_stderr, 2);
}

void harness_global_init(void)
{
	struct crypto_err err;
	int fd;

	unsetenv("IKEBANA_PLUGIN_DIR");
	/* the tests assert one drop line per bad message, however fast */
	log_wire_drop_rate(~0u);
	assert_int_equal(crypto_init(false, &err), 0);
	strcpy(log_path, "/tmp/ikb-ike-log-XXXXXX");
	fd = mkstemp(log_path);
	assert_true(fd >= 0);
	close(fd);
	/* the log goes to a file the tests read; failures copy it back */
	real_stderr = dup(2);
	fd = open(log_path, O_RDWR | O_APPEND | O_TRUNC);
	assert_true(fd >= 0);
	dup2(fd, 2);
	close(fd);
	unlink(log_path);
	atexit(restore_stderr);
	log_setup(LOG_TO_STDERR, IKB_LOG_DEBUG, "ike-test");
}

void log_reset(void)
{
	fflush(stderr);
	assert_int_equal(ftruncate(2, 0), 0);
}

unsigned log_count(const char *needle)
{
	static char buf[1 << 20];
	unsigned k = 0;
	ssize_t n;

	fflush(stderr);
	n = pread(2, buf, sizeof(buf) - 1, 0);
	if (n < 0)
		return 0;
	buf[n] = '\0';
	for (const char *p = buf; (p = strstr(p, needle)); p++)
		k++;
	return k;
}

bool log_has(const char *needle)
{
	return log_count(needle) > 0;
}

void log_flush(void)
{
	char buf[4096];
	ssize_t n;
	off_t off = 0;

	fflush(stderr);
	while ((n = pread(2, buf, sizeof(buf), off)) > 0) {
		if (write(real_stderr, buf, (size_t)n) != n)
			break;
		off += n;
	}
	log_reset();
}

static void write_file(const char *path, mode_t mode, const char *text)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, mode);

	assert_true(fd >= 0);
	assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	close(fd);
}

static void on_deliver(evutil_socket_t fd, short what, void *arg)
{
	struct net *n = arg;
	struct hqueue *q = n->q;

	n->q = NULL; /* what this delivery sends goes in the next round */
	while (q) {
		struct hqueue *next = q->next;
		struct hpeer *to = &n->p[q->to];
		struct ike_path p = { to->addr, n->p[!q->to].addr, q->dport,
				      q->sport };

		if (n->nat && q->to == EAST) {
			p.remote = n->nat_addr;
			p.rport = (uint16_t)(q->sport + n->nat_off);
		} else if (n->nat) {
			p.lport = (uint16_t)(q->dport - n->nat_off);
		}
		if (n->nat && q->to == WEST && p.lport != 500 &&
		    p.lport != 4500)
			n->nat_lost++;
		else
			ike_engine_input(to->e, &p, q->buf, q->len);
		free(q->buf);
		free(q);
		q = next;
	}
}

static void enqueue(struct net *n, int to, uint16_t sport, uint16_t dport,
		    const uint8_t *buf, size_t len)
{
	struct hqueue *q = calloc(1, sizeof(*q)), **tail = &n->q;
	struct timeval zero = { 0, 0 };

	assert_non_null(q);
	q->to = to;
	q->sport = sport;
	q->dport = dport;
	q->buf = malloc(len);
	assert_non_null(q->buf);
	memcpy(q->buf, buf, len);
	q->len = len;
	while (*tail)
		tail = &(*tail)->next;
	*tail = q;
	event_add(n->deliver, &zero);
}

bool dgram_is(const uint8_t *buf, size_t len, uint8_t exchange, bool response)
{
	/* IKE header: exchange type at 18, flags at 19 (R = 0x20) */
	return len >= 28 && buf[18] == exchange &&
	       !!(buf[19] & 0x20) == response;
}

void net_inject(struct net *n, int to, const uint8_t *buf, size_t len)
{
	enqueue(n, to, 500, 500, buf, len);
}

static int io_send(void *ctx, const struct ike_path *p, const uint8_t *buf,
		   size_t len)
{
	struct hpeer *me = ctx;
	struct net *n = me->net;
	unsigned copies =
		n->filter ? n->filter(n, me->idx, me->sent, buf, len) : 1;
	uint16_t sport = p->lport, dport = p->rport;

	me->last_dst = p->remote;
	if (n->float_port && me->idx == n->float_from &&
	    me->sent >= n->float_after)
		sport = dport = n->float_port;
	me->sent++;
	if (n->nrec < NET_MAX_RECORD) {
		struct hdgram *r = &n->rec[n->nrec++];

		r->from = me->idx;
		r->to = p->remote;
		r->sport = sport;
		r->dport = dport;
		r->buf = malloc(len);
		memcpy(r->buf, buf, len);
		r->len = len;
	}
	while (copies--)
		enqueue(n, !me->idx, sport, dport, buf, len);
	return 0;
}

static int io_keepalive(void *ctx, const struct ike_path *p)
{
	struct hpeer *me = ctx;

	me->keepalives++;
	return 0;
}

static int io_path_mtu(void *ctx, const struct ike_path *p)
{
	struct hpeer *me = ctx;

	return me->net->path_mtu ? me->net->path_mtu : -ENOTCONN;
}

/* The routing table's source address: the peer's own (net_move()). */
static int io_source_for(void *ctx, const struct ikb_addr *remote,
			 struct ikb_addr *local)
{
	struct hpeer *me = ctx;

	*local = me->addr;
	return 0;
}

static bool io_is_local(void *ctx, const struct ikb_addr *a)
{
	struct hpeer *me = ctx;

	return a->family == me->addr.family &&
	       !memcmp(a->bytes, me->addr.bytes, 4);
}

static const char *west_id(void)
{
	return harness_west_id ? harness_west_id : "@west";
}

static void peer_init(struct net *n, int idx, const char *conn,
		      const char *setup, const char *psk)
{
	struct hpeer *p = &n->p[idx];
	struct conf_load_opts o = { .base = n->base };
	char conf[128], secrets[128], *text;
	struct ikb_diag d;
	struct ike_io io = {
		.send = io_send,
		.is_local = io_is_local,
		.ctx = p,
		.keepalive = io_keepalive,
		.path_mtu = io_path_mtu,
		.source_for = io_source_for,
		.resolve = hdns_resolve,
		.xfrmi_add = hxfrmi_add,
		.ifip_add = hxfrmi_ip_add,
		.ifip_del = hxfrmi_ip_del,
		.xfrmi_del = hxfrmi_del,
		.srcroute_add = hsrc_add,
		.srcroute_del = hsrc_del,
	};

	p->net = n;
	p->idx = idx;
	p->addr.family = AF_INET;
	inet_pton(AF_INET, idx == WEST ? "192.0.2.1" : "192.0.2.2",
		  p->addr.bytes);
	strcpy(p->dir, "/tmp/ikb-ike-XXXXXX");
	assert_non_null(mkdtemp(p->dir));
	snprintf(conf, sizeof(conf), "%s/ikebana.conf", p->dir);
	snprintf(secrets, sizeof(secrets), "%s/ikebana.secrets", p->dir);
	assert_true(
		asprintf(
			&text,
			"config setup\n\tplugins=\"%s\"\n%s\n"
			"conn test\n\tleft=%s\n\tright=%s\n"
			"\tleftid=%s\n\trightid=@east\n\tauthby=secret\n%s",
			harness_plugins ?
				harness_plugins :
				"esp-proposals replay-window multi-sa kernel-mem",
			setup ? setup : "",
			idx == WEST && harness_west_left ? harness_west_left :
			idx == WEST			 ? "192.0.2.1" :
			harness_east_left		 ? harness_east_left :
			n->nat				 ? "%any" :
							   "192.0.2.1",
			idx == WEST && harness_west_right ? harness_west_right :
							    "192.0.2.2",
			west_id(), conn ? conn : "") > 0);
	write_file(conf, 0644, text);
	free(text);
	assert_true(asprintf(&text, "%s @east : PSK \"%s\"\n", west_id(),
			     psk ? psk : "secret") > 0);
	write_file(secrets, 0600, text);
	/* test_wipe looks for the PSK in what is freed; not in ours */
	explicit_bzero(text, strlen(text));
	free(text);
	o.config = conf;
	o.secrets = secrets;
	diag_init(&d);
	if (conf_load(&o, &p->lc, &d)) {
		diag_print(&d, stdout);
		fail_msg("conf_load failed");
	}
	diag_free(&d);
	unlink(conf);
	unlink(secrets);
	rmdir(p->dir);
	p->e = ike_engine_new(n->base, &p->lc, &io);
	assert_non_null(p->e);
}

const char *harness_west_setup;
const char *harness_plugins;
bool harness_nat;
const char *harness_east_left;
const char *harness_west_right;
const char *harness_west_left;
const char *harness_west_id;

struct net *net_new(const char *west_conn, const char *east_conn,
		    const char *east_setup, const char *west_psk,
		    const char *east_psk)
{
	struct net *n = calloc(1, sizeof(*n));

	assert_non_null(n);
	n->base = event_base_new();
	n->deliver = evtimer_new(n->base, on_deliver, n);
	/* key exchanges run on a helper thread, as in the daemon */
	assert_int_equal(helpers_start(1, n->base), 0);
	live = n;
	if (harness_nat) {
		n->nat = true;
		n->nat_addr.family = AF_INET;
		inet_pton(AF_INET, "203.0.113.9", n->nat_addr.bytes);
		n->nat_off = 10000;
		harness_nat = false;
	}
	peer_init(n, WEST, west_conn, harness_west_setup, west_psk);
	peer_init(n, EAST, east_conn ? east_conn : west_conn, east_setup,
		  east_psk);
	log_reset();
	return n;
}

void net_free(struct net *n)
{
	helpers_stop(); /* finishes jobs while their engines still exist */
	live = NULL;
	for (int i = 0; i < 2; i++) {
		ike_engine_free(n->p[i].e);
		conf_unload(&n->p[i].lc);
	}
	hdns_reset(); /* answers what waits: records the engines left */
	while (n->q) {
		struct hqueue *q = n->q;

		n->q = q->next;
		free(q->buf);
		free(q);
	}
	for (unsigned i = 0; i < n->nrec; i++)
		free(n->rec[i].buf);
	event_free(n->deliver);
	event_base_free(n->base);
	free(n);
	log_flush();
}

int net_cleanup(void **state)
{
	if (live)
		net_free(live);
	log_flush();
	return 0;
}

static void on_deadline(evutil_socket_t fd, short what, void *arg)
{
	*(bool *)arg = true;
}

bool net_run(struct net *n, bool (*cond)(struct net *), unsigned ms)
{
	bool expired = false, ok;
	struct timeval tv = { ms / 1000, (ms % 1000) * 1000 };
	struct event *t = evtimer_new(n->base, on_deadline, &expired);

	evtimer_add(t, &tv);
	while (!(ok = cond(n)) && !expired)
		if (event_base_loop(n->base, EVLOOP_ONCE) < 0)
			break;
	event_free(t);
	return ok;
}
