// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * seqtraffic: steady sequence-numbered UDP, to count what a path loses,
 * duplicates and reorders by number (not by whether pings came back).
 *
 *   seqtraffic send [-r RATE] [-d SECS] [-l LEN] [-s SRC] [-i ID] DST PORT
 *   seqtraffic recv [-t SECS] [-g MS] [-q] [-b ADDR] [-i ID] PORT
 *
 * send: RATE datagrams a second (default 1000) for SECS (10), numbered
 * from 0, each at its own time on the clock (a late wake-up sends what is
 * due at once, so the count stays RATE * SECS); a datagram the kernel
 * refused (no SA yet, ENOBUFS) keeps its number and so counts as lost.
 * Then an end marker with the count, five times 50 ms apart. Prints
 * "sent=N send_errors=N".
 *
 * recv: counts until the end marker plus a grace of MS (default 500) for
 * late datagrams, or for at most SECS (default 3600). Prints one line:
 *   sent=N received=N lost=N gaps=N dup=N reordered=N rxq_drops=N end=yes|no
 * received counts distinct numbers, lost the numbers below sent never
 * received, gaps the runs they make, rxq_drops what the kernel dropped at this socket for a full
 * buffer (the receiver was too slow: loss of the host, not of the path).
 * Without the end marker, sent is the highest number seen + 1. Then, on
 * stderr unless -q, the first lost runs ("lost 120-131"). Exit status: 0
 * when nothing was lost or duplicated and the marker came, 1 otherwise,
 * 2 on a usage or socket error. ID (default 0) tells flows apart: a
 * receiver ignores other IDs.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <getopt.h>
#include <netdb.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "seqcount.h"

#define MAGIC_DATA 0x53455154u /* "SEQT" */
#define MAGIC_END 0x53455145u /* "SEQE" */
#define HDR 16
#define MAX_LEN 9000
#define SHOW_GAPS 10

struct hdr {
	uint32_t magic, id;
	uint64_t n; /* the number, or in the end marker the count */
};

static void put(uint8_t *b, const struct hdr *h)
{
	uint32_t w[4] = { htonl(h->magic), htonl(h->id),
			  htonl((uint32_t)(h->n >> 32)),
			  htonl((uint32_t)h->n) };

	memcpy(b, w, HDR);
}

static int get(const uint8_t *b, size_t len, struct hdr *h)
{
	uint32_t w[4];

	if (len < HDR)
		return -1;
	memcpy(w, b, HDR);
	h->magic = ntohl(w[0]);
	h->id = ntohl(w[1]);
	h->n = (uint64_t)ntohl(w[2]) << 32 | ntohl(w[3]);
	return h->magic == MAGIC_DATA || h->magic == MAGIC_END ? 0 : -1;
}

static int usage(void)
{
	fprintf(stderr,
		"usage: seqtraffic send [-r RATE] [-d SECS] [-l LEN] [-s SRC] [-i ID] DST PORT\n"
		"       seqtraffic recv [-t SECS] [-g MS] [-q] [-b ADDR] [-i ID] PORT\n");
	return 2;
}

static int number(const char *s, unsigned long max, unsigned long *v)
{
	char *end;

	errno = 0;
	*v = strtoul(s, &end, 10);
	if (errno || end == s || *end || *v > max) {
		fprintf(stderr, "seqtraffic: '%s': a number up to %lu\n", s,
			max);
		return -1;
	}
	return 0;
}

/* A numeric address and port; host NULL: any (of family fam). */
static int addr(const char *host, const char *port, int fam,
		struct sockaddr_storage *ss, socklen_t *len)
{
	struct addrinfo hints = { .ai_family = fam,
				  .ai_socktype = SOCK_DGRAM,
				  .ai_flags = AI_NUMERICHOST | AI_NUMERICSERV |
					      AI_PASSIVE },
			*ai;
	int rc = getaddrinfo(host, port, &hints, &ai);

	if (rc) {
		fprintf(stderr, "seqtraffic: %s port %s: %s\n",
			host ? host : "any", port, gai_strerror(rc));
		return -1;
	}
	memcpy(ss, ai->ai_addr, ai->ai_addrlen);
	*len = ai->ai_addrlen;
	freeaddrinfo(ai);
	return 0;
}

static double now_s(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static void sleep_until(double t)
{
	struct timespec ts = { (time_t)t,
			       (long)((t - (double)(time_t)t) * 1e9) };

	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) ==
	       EINTR)
		;
}

struct send_opts {
	unsigned long rate, secs, len, id;
	const char *src, *dst, *port;
};

static int send_main(const struct send_opts *o)
{
	struct sockaddr_storage to, from;
	socklen_t tolen, fromlen;
	uint8_t buf[MAX_LEN] = { 0 };
	uint64_t total = (uint64_t)o->rate * o->secs, n = 0, errs = 0;
	double t0;
	int fd;

	if (addr(o->dst, o->port, AF_UNSPEC, &to, &tolen))
		return 2;
	if (o->src && addr(o->src, "0", to.ss_family, &from, &fromlen))
		return 2;
	fd = socket(to.ss_family, SOCK_DGRAM, 0);
	if (fd < 0 || (o->src && bind(fd, (struct sockaddr *)&from, fromlen))) {
		perror("seqtraffic: socket or bind");
		return 2;
	}
	/* one clock read and one sleep per burst: in UML each is a syscall */
	t0 = now_s();
	while (n < total) {
		double t = now_s();
		uint64_t due = (uint64_t)((t - t0) * (double)o->rate) + 1;

		if (due > total)
			due = total;
		if (n >= due) {
			sleep_until(t0 + (double)n / (double)o->rate);
			continue;
		}
		for (; n < due; n++) {
			put(buf,
			    &(struct hdr){ MAGIC_DATA, (uint32_t)o->id, n });
			if (sendto(fd, buf, o->len, 0, (struct sockaddr *)&to,
				   tolen) < 0)
				errs++;
		}
	}
	put(buf, &(struct hdr){ MAGIC_END, (uint32_t)o->id, total });
	/* five times: one may meet the same trouble as the data */
	for (int i = 0; i < 5; i++) {
		if (i)
			sleep_until(now_s() + 0.05);
		sendto(fd, buf, HDR, 0, (struct sockaddr *)&to, tolen);
	}
	close(fd);
	printf("sent=%llu send_errors=%llu\n", (unsigned long long)total,
	       (unsigned long long)errs);
	return 0;
}

struct recv_opts {
	unsigned long secs, grace_ms, id;
	bool quiet;
	const char *bind, *port;
};

static int recv_socket(const struct recv_opts *o)
{
	struct sockaddr_storage ss;
	socklen_t len;
	int one = 1, buf = 4 << 20, fd;

	if (addr(o->bind, o->port, o->bind ? AF_UNSPEC : AF_INET6, &ss, &len))
		return -1;
	fd = socket(ss.ss_family, SOCK_DGRAM, 0);
	if (fd < 0)
		return -1;
	if (!o->bind && ss.ss_family == AF_INET6) {
		int zero = 0; /* both families on the wildcard */

		setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &zero, sizeof(zero));
	}
	/* root may go past rmem_max; a slow reader must not look like loss */
	if (setsockopt(fd, SOL_SOCKET, SO_RCVBUFFORCE, &buf, sizeof(buf)))
		setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &buf, sizeof(buf));
	setsockopt(fd, SOL_SOCKET, SO_RXQ_OVFL, &one, sizeof(one));
	if (bind(fd, (struct sockaddr *)&ss, len)) {
		close(fd);
		return -1;
	}
	return fd;
}

/* One datagram; *drops gets the socket's drop count when the kernel says. */
static ssize_t recv_one(int fd, uint8_t *buf, uint32_t *drops)
{
	union {
		struct cmsghdr h;
		char b[CMSG_SPACE(sizeof(uint32_t))];
	} cm;
	struct iovec iov = { buf, MAX_LEN };
	struct msghdr mh = { .msg_iov = &iov,
			     .msg_iovlen = 1,
			     .msg_control = &cm,
			     .msg_controllen = sizeof(cm) };
	ssize_t n = recvmsg(fd, &mh, MSG_DONTWAIT);

	for (struct cmsghdr *c = n >= 0 ? CMSG_FIRSTHDR(&mh) : NULL; c;
	     c = CMSG_NXTHDR(&mh, c))
		if (c->cmsg_level == SOL_SOCKET && c->cmsg_type == SO_RXQ_OVFL)
			memcpy(drops, CMSG_DATA(c), sizeof(*drops));
	return n;
}

static void show_gaps(const struct seqcount *s, uint64_t sent)
{
	uint64_t from = 0, lo, hi;
	int k = 0;

	while (seqcount_next_gap(s, sent, &from, &lo, &hi)) {
		if (k++ == SHOW_GAPS) {
			fprintf(stderr, "lost: more runs\n");
			break;
		}
		fprintf(stderr, "lost %llu-%llu\n", (unsigned long long)lo,
			(unsigned long long)hi);
	}
}

static uint64_t count_gaps(const struct seqcount *s, uint64_t sent)
{
	uint64_t from = 0, lo, hi, n = 0;

	while (seqcount_next_gap(s, sent, &from, &lo, &hi))
		n++;
	return n;
}

static int recv_main(const struct recv_opts *o)
{
	struct seqcount s;
	uint8_t buf[MAX_LEN];
	uint64_t sent = 0, lost;
	uint32_t drops = 0;
	double stop = now_s() + (double)o->secs;
	bool end = false;
	int fd = recv_socket(o), rc;

	if (fd < 0) {
		perror("seqtraffic: receiving socket");
		return 2;
	}
	seqcount_init(&s);
	for (double t; (t = now_s()) < stop;) {
		struct pollfd p = { fd, POLLIN, 0 };
		struct hdr h;
		ssize_t n;

		if (poll(&p, 1, (int)((stop - t) * 1000) + 1) <= 0)
			continue;
		while ((n = recv_one(fd, buf, &drops)) >= 0) {
			if (get(buf, (size_t)n, &h) || h.id != o->id)
				continue;
			if (h.magic == MAGIC_DATA) {
				if (seqcount_add(&s, h.n) == SEQ_ERR) {
					fprintf(stderr,
						"seqtraffic: number %llu: out of range or memory\n",
						(unsigned long long)h.n);
					return 2;
				}
			} else if (!end) {
				end = true;
				sent = h.n;
				stop = now_s() + (double)o->grace_ms / 1000;
			}
		}
	}
	close(fd);
	if (!end)
		sent = s.next;
	lost = seqcount_lost(&s, sent);
	printf("sent=%llu received=%llu lost=%llu gaps=%llu dup=%llu reordered=%llu rxq_drops=%u end=%s\n",
	       (unsigned long long)sent, (unsigned long long)s.unique,
	       (unsigned long long)lost,
	       (unsigned long long)count_gaps(&s, sent),
	       (unsigned long long)s.dup, (unsigned long long)s.reordered,
	       drops, end ? "yes" : "no");
	fflush(stdout);
	if (!o->quiet)
		show_gaps(&s, sent);
	rc = lost || s.dup || !end ? 1 : 0;
	seqcount_fini(&s);
	return rc;
}

static int send_args(int argc, char **argv)
{
	struct send_opts o = { 1000, 10, 64, 0, NULL, NULL, NULL };
	int ch;

	while ((ch = getopt(argc, argv, "r:d:l:s:i:")) != -1) {
		switch (ch) {
		case 'r':
			if (number(optarg, 1000000, &o.rate) || !o.rate)
				return 2;
			break;
		case 'd':
			if (number(optarg, 86400, &o.secs))
				return 2;
			break;
		case 'l':
			if (number(optarg, MAX_LEN, &o.len) || o.len < HDR)
				return usage();
			break;
		case 's':
			o.src = optarg;
			break;
		case 'i':
			if (number(optarg, UINT32_MAX, &o.id))
				return 2;
			break;
		default:
			return usage();
		}
	}
	if (argc - optind != 2)
		return usage();
	o.dst = argv[optind];
	o.port = argv[optind + 1];
	return send_main(&o);
}

static int recv_args(int argc, char **argv)
{
	struct recv_opts o = { 3600, 500, 0, false, NULL, NULL };
	int ch;

	while ((ch = getopt(argc, argv, "t:g:qb:i:")) != -1) {
		switch (ch) {
		case 't':
			if (number(optarg, 86400, &o.secs))
				return 2;
			break;
		case 'g':
			if (number(optarg, 60000, &o.grace_ms))
				return 2;
			break;
		case 'q':
			o.quiet = true;
			break;
		case 'b':
			o.bind = optarg;
			break;
		case 'i':
			if (number(optarg, UINT32_MAX, &o.id))
				return 2;
			break;
		default:
			return usage();
		}
	}
	if (argc - optind != 1)
		return usage();
	o.port = argv[optind];
	return recv_main(&o);
}

int main(int argc, char **argv)
{
	if (argc < 2)
		return usage();
	if (!strcmp(argv[1], "send"))
		return send_args(argc - 1, argv + 1);
	if (!strcmp(argv[1], "recv"))
		return recv_args(argc - 1, argv + 1);
	return usage();
}
