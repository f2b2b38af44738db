// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * initflood DST PORT SRCNET COUNT [RATE] [cookies] [auth]: sends COUNT
 * IKE_SA_INIT requests (IKE aes_gcm256-sha2_256-dh19, a valid P-256 KE:
 * the curve's generator, so each costs the responder a real key
 * exchange) to DST:PORT from the addresses of SRCNET (A.B.C.D/N) in turn,
 * RATE per second (0 or absent: as fast as the socket takes them).
 *
 * The sources are spoofed the clean way: the sender's host routes SRCNET
 * to itself (`ip route add local SRCNET dev lo`, AnyIP), so a socket can
 * send from and receive at any address of it; where DST routes SRCNET
 * back, the answers come in and are counted by kind. With "cookies" the
 * tool answers each COOKIE as an initiator would (a sender that owns its
 * addresses); with "auth" it follows each full answer with an IKE_AUTH
 * request of random SK bytes (garbage at a half-open SA).
 *
 * Prints one line: sent=N answers=N full=N cookie=N refused=N other=N
 * auth=N seconds=S, then exits 0. For the flood scenario and bench.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "ikeforge.h"

#define MSG_MAX 1500
#define N_COOKIE 16390

struct flood {
	int fd;
	struct sockaddr_in dst;
	uint32_t net, size;
	bool cookies, auth;
	unsigned long sent, answers, full, cookie, refused, other, authn;
};

/* P-256's generator: a point on the curve, 32-byte X then Y */
static const uint8_t gen_p256[64] = {
	0x6b, 0x17, 0xd1, 0xf2, 0xe1, 0x2c, 0x42, 0x47, 0xf8, 0xbc, 0xe6,
	0xe5, 0x63, 0xa4, 0x40, 0xf2, 0x77, 0x03, 0x7d, 0x81, 0x2d, 0xeb,
	0x33, 0xa0, 0xf4, 0xa1, 0x39, 0x45, 0xd8, 0x98, 0xc2, 0x96, 0x4f,
	0xe3, 0x42, 0xe2, 0xfe, 0x1a, 0x7f, 0x9b, 0x8e, 0xe7, 0xeb, 0x4a,
	0x7c, 0x0f, 0x9e, 0x16, 0x2b, 0xce, 0x33, 0x57, 0x6b, 0x31, 0x5e,
	0xce, 0xcb, 0xb6, 0x40, 0x68, 0x37, 0xbf, 0x51, 0xf5,
};

/* A transform of type t, id id (last: no more follow), into p: length. */
static size_t transform(uint8_t *p, bool last, uint8_t t, uint16_t id,
			uint16_t keylen)
{
	size_t len = keylen ? 12 : 8;

	memset(p, 0, len);
	p[0] = last ? 0 : 3;
	put16(p + 2, (unsigned)len);
	p[4] = t;
	put16(p + 6, id);
	if (keylen) {
		put16(p + 8, 0x800e); /* Key Length, TV */
		put16(p + 10, keylen);
	}
	return len;
}

/*
 * The request into m: [N(COOKIE)] SA KE Ni, from spi_i. cookie NULL:
 * none. Its length.
 */
static size_t init_req(uint8_t *m, const uint8_t spi_i[8],
		       const uint8_t *cookie, size_t clen)
{
	size_t n = 28, at;

	memset(m, 0, 512);
	memcpy(m, spi_i, 8);
	m[17] = 0x20; /* IKEv2 */
	m[18] = 34; /* IKE_SA_INIT */
	m[19] = 0x08; /* Initiator */
	m[16] = cookie ? 41 : 33;
	if (cookie) {
		m[n] = 33; /* next: SA */
		put16(m + n + 2, (unsigned)(8 + clen));
		put16(m + n + 6, N_COOKIE);
		memcpy(m + n + 8, cookie, clen);
		n += 8 + clen;
	}
	at = n;
	m[n] = 34; /* next: KE */
	n += 4;
	/* one proposal: IKE, 3 transforms */
	size_t prop = n;

	m[n + 4] = 1; /* number */
	m[n + 5] = 1; /* IKE */
	m[n + 7] = 3;
	n += 8;
	n += transform(m + n, false, 1, 20, 256); /* ENCR AES-GCM-16 */
	n += transform(m + n, false, 2, 5, 0); /* PRF HMAC-SHA2-256 */
	n += transform(m + n, true, 4, 19, 0); /* DH 19 */
	put16(m + prop + 2, (unsigned)(n - prop));
	put16(m + at + 2, (unsigned)(n - at));
	/* KE: group 19 */
	m[n] = 40; /* next: Nonce */
	put16(m + n + 2, 8 + 64);
	put16(m + n + 4, 19);
	memcpy(m + n + 8, gen_p256, 64);
	n += 8 + 64;
	/* Nonce: of SPIi, so that the request again with a COOKIE (which
	 * may cover Ni) carries the same */
	m[n] = 0;
	put16(m + n + 2, 4 + 32);
	for (int i = 0; i < 32; i++)
		m[n + 4 + i] = (uint8_t)(spi_i[i % 8] ^ i);
	n += 4 + 32;
	put32(m + 24, (uint32_t)n);
	return n;
}

/* IKE_AUTH garbage at the half-open SA spi_i/spi_r: its length. */
static size_t auth_req(uint8_t *m, const uint8_t spi[16])
{
	size_t n = 28 + 4 + 120;

	memset(m, 0, 28);
	memcpy(m, spi, 16);
	m[16] = 46; /* SK */
	m[17] = 0x20;
	m[18] = 35; /* IKE_AUTH */
	m[19] = 0x08;
	put32(m + 20, 1);
	put32(m + 24, (uint32_t)n);
	m[28] = 35; /* IDi inside, as a real one */
	put16(m + 30, 4 + 120);
	for (size_t i = 32; i < n; i++)
		m[i] = (uint8_t)rand();
	return n;
}

static int send_from(struct flood *f, uint32_t src, const uint8_t *m,
		     size_t len)
{
	char cbuf[CMSG_SPACE(sizeof(struct in_pktinfo))] = { 0 };
	struct iovec iov = { .iov_base = (void *)m, .iov_len = len };
	struct msghdr mh = { .msg_name = &f->dst,
			     .msg_namelen = sizeof(f->dst),
			     .msg_iov = &iov,
			     .msg_iovlen = 1,
			     .msg_control = cbuf,
			     .msg_controllen = sizeof(cbuf) };
	struct cmsghdr *c = CMSG_FIRSTHDR(&mh);
	struct in_pktinfo *pi = (struct in_pktinfo *)CMSG_DATA(c);

	c->cmsg_level = IPPROTO_IP;
	c->cmsg_type = IP_PKTINFO;
	c->cmsg_len = CMSG_LEN(sizeof(*pi));
	pi->ipi_spec_dst.s_addr = htonl(src);
	return sendmsg(f->fd, &mh, 0) < 0 ? -errno : 0;
}

/* The first Notify of m of type < 16384 (an error), or 0; *ck COOKIE. */
static unsigned notify_of(const uint8_t *m, size_t len, const uint8_t **ck,
			  size_t *cklen)
{
	unsigned next = m[16], err = 0;
	size_t at = 28;

	while (next && at + 4 <= len) {
		size_t plen = get16(m + at + 2);

		if (plen < 4 || at + plen > len)
			break;
		if (next == 41 && plen >= 8) {
			unsigned type = get16(m + at + 6);

			if (type == N_COOKIE) {
				*ck = m + at + 8;
				*cklen = plen - 8;
			} else if (type < 16384 && !err) {
				err = type;
			}
		}
		next = m[at];
		at += plen;
	}
	return err;
}

static void on_answer(struct flood *f, const uint8_t *m, size_t len,
		      uint32_t to)
{
	const uint8_t *ck = NULL;
	size_t cklen = 0;
	uint8_t out[MSG_MAX];
	unsigned err;

	if (len < 28 || m[18] != 34 || !(m[19] & 0x20))
		return;
	f->answers++;
	err = notify_of(m, len, &ck, &cklen);
	if (ck && cklen <= 64) {
		f->cookie++;
		if (f->cookies &&
		    !send_from(f, to, out, init_req(out, m, ck, cklen)))
			f->sent++;
	} else if (err) {
		f->refused++;
	} else if (m[16] == 33) {
		f->full++;
		if (f->auth && !send_from(f, to, out, auth_req(out, m)))
			f->authn++;
	} else {
		f->other++;
	}
}

static double now_s(void);

/* Answers, until none is waiting (ms 0) or for ms. */
static void drain(struct flood *f, int ms)
{
	struct pollfd p = { .fd = f->fd, .events = POLLIN };
	uint8_t m[MSG_MAX];
	char cbuf[CMSG_SPACE(sizeof(struct in_pktinfo))];
	double end = now_s() + ms / 1000.0;
	int left = ms;

	while (poll(&p, 1, left) > 0) {
		struct iovec iov = { .iov_base = m, .iov_len = sizeof(m) };
		struct msghdr mh = { .msg_iov = &iov,
				     .msg_iovlen = 1,
				     .msg_control = cbuf,
				     .msg_controllen = sizeof(cbuf) };
		ssize_t n = recvmsg(f->fd, &mh, MSG_DONTWAIT);
		uint32_t to = 0;

		if (n <= 0)
			break;
		for (struct cmsghdr *c = CMSG_FIRSTHDR(&mh); c;
		     c = CMSG_NXTHDR(&mh, c))
			if (c->cmsg_level == IPPROTO_IP &&
			    c->cmsg_type == IP_PKTINFO)
				to = ntohl(((struct in_pktinfo *)CMSG_DATA(c))
						   ->ipi_addr.s_addr);
		on_answer(f, m, (size_t)n, to);
		left = ms ? (int)((end - now_s()) * 1000) : 0;
		if (left < 0)
			break;
	}
}

static double now_s(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static int setup(struct flood *f, const char *dst, const char *port,
		 const char *net)
{
	char buf[64], *slash;
	struct in_addr a;
	int on = 1, plen;

	snprintf(buf, sizeof(buf), "%s", net);
	slash = strchr(buf, '/');
	plen = slash ? atoi(slash + 1) : 32;
	if (slash)
		*slash = '\0';
	if (inet_pton(AF_INET, buf, &a) != 1 || plen < 8 || plen > 32 ||
	    inet_pton(AF_INET, dst, &f->dst.sin_addr) != 1)
		return -1;
	f->size = plen == 32 ? 1 : (1u << (32 - plen)) - 2;
	f->net = ntohl(a.s_addr) &
		 (plen == 32 ? ~0u : ~((1u << (32 - plen)) - 1));
	f->dst.sin_family = AF_INET;
	f->dst.sin_port = htons((uint16_t)atoi(port));
	f->fd = socket(AF_INET, SOCK_DGRAM, 0);
	if (f->fd < 0 ||
	    setsockopt(f->fd, IPPROTO_IP, IP_PKTINFO, &on, sizeof(on)) ||
	    setsockopt(f->fd, IPPROTO_IP, IP_FREEBIND, &on, sizeof(on)))
		return -1;
	return 0;
}

int main(int argc, char **argv)
{
	struct flood f = { .fd = -1 };
	unsigned long count, rate;
	uint8_t m[MSG_MAX], spi[8];
	double t0, next;

	if (argc < 5) {
		fprintf(stderr,
			"usage: initflood DST PORT SRCNET COUNT [RATE] [cookies] [auth]\n");
		return 2;
	}
	int wait_ms = 2000;

	count = strtoul(argv[4], NULL, 10);
	rate = argc > 5 ? strtoul(argv[5], NULL, 10) : 0;
	for (int i = 6; i < argc; i++) {
		f.cookies |= !strcmp(argv[i], "cookies");
		f.auth |= !strcmp(argv[i], "auth");
	}
	if (setup(&f, argv[1], argv[2], argv[3])) {
		perror("initflood: setup");
		return 2;
	}
	srand((unsigned)getpid());
	t0 = next = now_s();
	for (unsigned long i = 0; i < count; i++) {
		uint32_t src =
			f.net + (f.size == 1 ? 0 : 1 + (uint32_t)(i % f.size));

		for (int k = 0; k < 8; k++)
			spi[k] = (uint8_t)rand();
		if (!send_from(&f, src, m, init_req(m, spi, NULL, 0)))
			f.sent++;
		if (rate) {
			next += 1.0 / (double)rate;
			while (now_s() < next)
				drain(&f, 1);
		} else if (i % 64 == 63) {
			drain(&f, 0);
		}
	}
	/* the answers still to come: the responder's key exchanges */
	drain(&f, wait_ms);
	printf("sent=%lu answers=%lu full=%lu cookie=%lu refused=%lu other=%lu auth=%lu seconds=%.2f\n",
	       f.sent, f.answers, f.full, f.cookie, f.refused, f.other, f.authn,
	       now_s() - t0);
	return 0;
}
