// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * hostile-peer: a responder that holds the keys and lies, for the
 * hostile-responder scenario (issue 39). It runs ikebana's own engine
 * over kernel-mem (no kernel SAs) on UDP 500 and 4500 of one address,
 * answers real initiations and rekeys as a peer would, and edits a share
 * of the keyed messages it sends with the initiator fuzz target's edits
 * (testing/fuzz/initiator/edit.c, drawn by hostile_draw()): an error
 * notify put in front, a payload left out, octets overwritten, the chain
 * cut, fragments; each
 * sealed again with the SA's keys, so that it reaches the initiator's
 * handlers authentic. The edits come from a seeded generator: a run is
 * repeatable from its seed.
 *
 *   hostile-peer -c CONF -s SECRETS -a ADDR [-p PERCENT] [-S SEED]
 *                [-d SECONDS]
 *
 * It stops after SECONDS (default 60) or on SIGTERM and prints one line:
 * "received=N sent=N edited=N dropped=N".
 */
#include <arpa/inet.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <event2/event.h>
#include <netinet/in.h>
#include <sys/socket.h>

#include "config/diag.h"
#include "crypto/nss_init.h"
#include "hostile.h"
#include "ike/engine.h"
#include "ike/ike_sa.h"
#include "ike/msg/msg.h"
#include "log/log.h"
#include "plugin/conf_load.h"
#include "wire/wire.h"

#define EDIT_BYTES 96

static struct hp {
	struct event_base *base;
	struct ike_engine *e;
	struct ikb_addr addr;
	int fd[2]; /* 500, 4500 */
	unsigned percent;
	unsigned long long rng;
	unsigned long received, sent, edited, dropped;
} hp;

/* xorshift64*: repeatable from the seed, no libc state. */
static uint64_t rnd(void)
{
	hp.rng ^= hp.rng >> 12;
	hp.rng ^= hp.rng << 25;
	hp.rng ^= hp.rng >> 27;
	return hp.rng * 2685821657736338717ULL;
}

static int put(const struct ike_path *p, const uint8_t *buf, size_t len)
{
	static const uint8_t marker[4];
	struct sockaddr_in to = { .sin_family = AF_INET,
				  .sin_port = htons(p->rport) };
	struct iovec iov[2] = { { (void *)marker, 4 }, { (void *)buf, len } };
	bool natt = p->lport == 4500;
	struct msghdr mh = { .msg_name = &to,
			     .msg_namelen = sizeof(to),
			     .msg_iov = natt ? iov : iov + 1,
			     .msg_iovlen = natt ? 2 : 1 };

	memcpy(&to.sin_addr, p->remote.bytes, 4);
	hp.sent++;
	return sendmsg(hp.fd[natt], &mh, 0) < 0 ? -errno : 0;
}

static struct ike_sa *sa_of(const uint8_t *buf)
{
	for (struct ike_sa *sa = hp.e->all; sa; sa = sa->next_all)
		if (!memcmp(sa->spi_i, buf, 8) &&
		    !memcmp(sa->spi_r, buf + 8, 8))
			return sa;
	return NULL;
}

/* A keyed message of ours, edited: opened with our own out keys. */
static int edit(struct ike_sa *sa, const struct ike_path *p, const uint8_t *buf,
		size_t len)
{
	struct ike_sa mirror = *sa;
	uint8_t ops[EDIT_BYTES];
	struct fuzz_in in = { ops, hostile_draw(ops, sizeof(ops), rnd()) };
	struct wbuf set;
	size_t off = 0;
	uint16_t l;
	int rc;

	mirror.sk_in = sa->sk_out;
	wbuf_init(&set, 0);
	rc = hostile_edit(&mirror, sa, buf, len, &in, &set);
	if (rc < 0) {
		wbuf_free(&set);
		return put(p, buf, len);
	}
	rc == 1 ? hp.dropped++ : hp.edited++;
	while (!rc && off + sizeof(l) <= set.len) {
		memcpy(&l, set.data + off, sizeof(l));
		off += sizeof(l);
		if (off + l > set.len)
			break;
		put(p, set.data + off, l);
		off += l;
	}
	wbuf_free(&set);
	return 0;
}

static int io_send(void *ctx, const struct ike_path *p, const uint8_t *buf,
		   size_t len)
{
	struct ike_sa *sa = len >= WIRE_HDR_LEN ? sa_of(buf) : NULL;

	if (sa && sa->sk_out && buf[18] != WIRE_EXCH_IKE_SA_INIT &&
	    rnd() % 100 < hp.percent)
		return edit(sa, p, buf, len);
	return put(p, buf, len);
}

static bool io_is_local(void *ctx, const struct ikb_addr *a)
{
	return a->family == AF_INET && !memcmp(a->bytes, hp.addr.bytes, 4);
}

static int io_source_for(void *ctx, const struct ikb_addr *remote,
			 struct ikb_addr *local)
{
	*local = hp.addr;
	return 0;
}

static void on_read(evutil_socket_t fd, short what, void *arg)
{
	bool natt = arg != NULL;
	uint8_t buf[65536];
	struct sockaddr_in from;
	socklen_t fl = sizeof(from);
	ssize_t n = recvfrom(fd, buf, sizeof(buf), 0, (void *)&from, &fl);
	struct ike_path p = { .local = hp.addr,
			      .lport = natt ? 4500 : 500,
			      .rport = ntohs(from.sin_port) };

	if (n <= 0 || fl != sizeof(from))
		return;
	p.remote.family = AF_INET;
	memcpy(p.remote.bytes, &from.sin_addr, 4);
	/* 4500: IKE behind the non-ESP marker, the rest is not ours */
	if (natt && (n < 4 || memcmp(buf, "\0\0\0\0", 4)))
		return;
	hp.received++;
	ike_engine_input(hp.e, &p, natt ? buf + 4 : buf,
			 (size_t)(natt ? n - 4 : n));
}

static int udp(uint16_t port)
{
	struct sockaddr_in sin = { .sin_family = AF_INET,
				   .sin_port = htons(port) };
	int fd = socket(AF_INET, SOCK_DGRAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);

	memcpy(&sin.sin_addr, hp.addr.bytes, 4);
	if (fd < 0 || bind(fd, (void *)&sin, sizeof(sin))) {
		perror("hostile-peer: bind");
		exit(1);
	}
	return fd;
}

static void on_stop(evutil_socket_t fd, short what, void *arg)
{
	event_base_loopbreak(hp.base);
}

static void load(const char *conf, const char *secrets, struct loaded_conf *lc)
{
	struct conf_load_opts o = { .config = conf,
				    .secrets = secrets,
				    .base = hp.base };
	struct ikb_diag d;

	diag_init(&d);
	if (conf_load(&o, lc, &d)) {
		diag_print(&d, stderr);
		exit(1);
	}
	diag_free(&d);
}

int main(int argc, char **argv)
{
	const char *conf = NULL, *secrets = NULL, *addr = NULL;
	struct timeval dur = { 60, 0 };
	struct loaded_conf lc;
	struct ike_io io = { .send = io_send,
			     .is_local = io_is_local,
			     .source_for = io_source_for };
	int c;

	hp.percent = 30;
	hp.rng = 1;
	while ((c = getopt(argc, argv, "c:s:a:p:S:d:")) != -1) {
		switch (c) {
		case 'c':
			conf = optarg;
			break;
		case 's':
			secrets = optarg;
			break;
		case 'a':
			addr = optarg;
			break;
		case 'p':
			hp.percent = (unsigned)atoi(optarg);
			break;
		case 'S':
			hp.rng = strtoull(optarg, NULL, 0) | 1;
			break;
		case 'd':
			dur.tv_sec = atoi(optarg);
			break;
		default:
			goto usage;
		}
	}
	hp.addr.family = AF_INET;
	if (!conf || !secrets || !addr ||
	    inet_pton(AF_INET, addr, hp.addr.bytes) != 1)
		goto usage;
	log_setup(LOG_TO_STDERR, IKB_LOG_NOTICE, "hostile-peer");
	if (crypto_init(false, &(struct crypto_err){ 0 }))
		return 1;
	hp.base = event_base_new();
	load(conf, secrets, &lc);
	if (!(hp.e = ike_engine_new(hp.base, &lc, &io)))
		return 1;
	hp.fd[0] = udp(500);
	hp.fd[1] = udp(4500);
	event_add(event_new(hp.base, hp.fd[0], EV_READ | EV_PERSIST, on_read,
			    NULL),
		  NULL);
	event_add(event_new(hp.base, hp.fd[1], EV_READ | EV_PERSIST, on_read,
			    &hp),
		  NULL);
	event_add(evsignal_new(hp.base, SIGTERM, on_stop, NULL), NULL);
	event_base_once(hp.base, -1, EV_TIMEOUT, on_stop, NULL, &dur);
	event_base_dispatch(hp.base);
	printf("received=%lu sent=%lu edited=%lu dropped=%lu\n", hp.received,
	       hp.sent, hp.edited, hp.dropped);
	return 0;
usage:
	fprintf(stderr, "usage: hostile-peer -c CONF -s SECRETS -a ADDR "
			"[-p PERCENT] [-S SEED] [-d SECONDS]\n");
	return 2;
}
