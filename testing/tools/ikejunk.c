// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * ikejunk DST PORT SPI_I SPI_R MSGID COUNT: sends COUNT malformed IKE
 * messages at the established IKE SA SPI_I/SPI_R (16 hex digits each) of
 * DST:PORT, as its peer's address would (run it in the peer's namespace,
 * from any port), cycling through what a responder must drop:
 *   0 truncated: 1..27 bytes of the header
 *   1 header length above the datagram's
 *   2 header length below it
 *   3 an SK payload whose ICV fails, at the next request's message ID
 *     (MSGID)
 *   4 the same at MSGID - 1, the last request answered (a replay)
 *   5 the same far outside the window (MSGID + 1000)
 *   6 unknown SPIs
 *   7 oversized: 8,000 bytes of SK at MSGID
 *   8 a response (flag R) to a request never sent
 * To port 4500 each goes behind the non-ESP marker (RFC 3948), and three
 * kinds more come that only the NAT-T port has:
 *   9 1..3 bytes: shorter than the marker
 *  10 ESP (a non-zero SPI) for no SA, which the kernel takes or drops
 *  11 a NAT-keepalive (one 0xff octet), which must stay silent
 * It counts the datagrams that come back (what RFC 7296 allows: a
 * retransmitted response for a replayed request, INVALID_IKE_SPI) and
 * prints "sent=N answers=N" and the answers by kind, then exits 0.
 * Datagrams bypass the host's IPsec policies (CAP_NET_ADMIN), as a
 * forger's would not need to. For the malformed-strongswan scenario.
 */
#include <arpa/inet.h>
#include <linux/xfrm.h>
#include <netdb.h>
#include <poll.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "ikeforge.h"

#define HDR 28
#define KINDS 9
#define KINDS_NATT 12
#define MARKER 4
#define BIG 8000

/* An SK message of the SA at msgid, body bytes of random SK: length. */
static size_t sk(uint8_t *d, const uint8_t spi_i[8], const uint8_t spi_r[8],
		 uint32_t msgid, size_t body, uint8_t flags)
{
	memcpy(d, spi_i, 8);
	memcpy(d + 8, spi_r, 8);
	d[16] = 46; /* SK */
	d[17] = 0x20;
	d[18] = 37; /* INFORMATIONAL */
	d[19] = flags;
	put32(d + 20, msgid);
	d[HDR] = 0; /* next: none, as a liveness check */
	d[HDR + 1] = 0;
	put16(d + HDR + 2, (unsigned)(4 + body));
	for (size_t k = 0; k < body; k++)
		d[HDR + 4 + k] = (uint8_t)random();
	put32(d + 24, (uint32_t)(HDR + 4 + body));
	return HDR + 4 + body;
}

/* Message i of the flood into d: its length; *kind which. */
static size_t forge(uint8_t *d, const uint8_t spi_i[8], const uint8_t spi_r[8],
		    uint32_t msgid, unsigned long i, unsigned kinds,
		    unsigned *kind)
{
	uint8_t rnd_i[8], rnd_r[8];
	size_t n;

	*kind = (unsigned)(i % kinds);
	switch (*kind) {
	case 0:
		sk(d, spi_i, spi_r, msgid, 64, 0x08);
		return 1 + i / KINDS % (HDR - 1);
	case 1:
		n = sk(d, spi_i, spi_r, msgid, 64, 0x08);
		put32(d + 24, (uint32_t)(n + 100));
		return n;
	case 2:
		n = sk(d, spi_i, spi_r, msgid, 64, 0x08);
		put32(d + 24, (uint32_t)(n - 30));
		return n;
	case 3:
		return sk(d, spi_i, spi_r, msgid, 80, 0x08);
	case 4:
		return sk(d, spi_i, spi_r, msgid - 1, 80, 0x08);
	case 5:
		return sk(d, spi_i, spi_r, msgid + 1000, 80, 0x08);
	case 6:
		for (int k = 0; k < 8; k++) {
			rnd_i[k] = (uint8_t)random();
			rnd_r[k] = (uint8_t)random();
		}
		rnd_r[0] |= 1; /* not zero: an established SA's */
		return sk(d, rnd_i, rnd_r, msgid, 80, 0x08);
	case 7:
		return sk(d, spi_i, spi_r, msgid, BIG, 0x08);
	case 8:
		return sk(d, spi_i, spi_r, msgid + 5, 80, 0x08 | 0x20);
	default:
		return 0; /* the NAT-T kinds: natt() */
	}
}

/* The datagram to port 4500 into d: the marker, then message i. */
static size_t natt(uint8_t *d, const uint8_t spi_i[8], const uint8_t spi_r[8],
		   uint32_t msgid, unsigned long i, unsigned *kind)
{
	size_t n = forge(d + MARKER, spi_i, spi_r, msgid, i, KINDS_NATT, kind);

	switch (*kind) {
	case 9:
		memset(d, 0, MARKER);
		return 1 + i / KINDS_NATT % (MARKER - 1);
	case 10:
		for (int k = 0; k < 60; k++)
			d[k] = (uint8_t)random();
		d[0] |= 0x80; /* an SPI, not a marker */
		return 60;
	case 11:
		d[0] = 0xff;
		return 1;
	default:
		memset(d, 0, MARKER);
		return MARKER + n;
	}
}

static void drain(int fd, int ms, unsigned long *answers)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };
	uint8_t buf[9000];

	while (poll(&p, 1, ms) > 0) {
		if (recv(fd, buf, sizeof(buf), MSG_DONTWAIT) <= 0)
			break;
		(*answers)++;
	}
}

int main(int argc, char **argv)
{
	struct addrinfo hints = { .ai_socktype = SOCK_DGRAM }, *ai;
	static uint8_t d[MARKER + HDR + 4 + BIG];
	uint8_t spi_i[8], spi_r[8];
	unsigned long count, sent = 0, answers = 0, per[KINDS_NATT] = { 0 };
	uint32_t msgid;
	unsigned kind, kinds;
	bool marker;
	int fd;

	if (argc != 7 || hex8(argv[3], spi_i) || hex8(argv[4], spi_r)) {
		fprintf(stderr,
			"usage: ikejunk DST PORT SPI_I SPI_R MSGID COUNT\n");
		return 2;
	}
	msgid = (uint32_t)strtoul(argv[5], NULL, 0);
	count = strtoul(argv[6], NULL, 0);
	marker = !strcmp(argv[2], "4500");
	kinds = marker ? KINDS_NATT : KINDS;
	if (getaddrinfo(argv[1], argv[2], &hints, &ai)) {
		fprintf(stderr, "ikejunk: cannot resolve %s\n", argv[1]);
		return 1;
	}
	fd = socket(ai->ai_family, SOCK_DGRAM, 0);
	if (fd < 0 || bypass(fd, ai->ai_family) ||
	    connect(fd, ai->ai_addr, ai->ai_addrlen)) {
		perror("ikejunk: socket");
		return 1;
	}
	srandom(1);
	for (unsigned long i = 0; i < count; i++) {
		size_t n = marker ? natt(d, spi_i, spi_r, msgid, i, &kind) :
				    forge(d, spi_i, spi_r, msgid, i, kinds,
					  &kind);

		if (send(fd, d, n, 0) == (ssize_t)n) {
			sent++;
			per[kind]++;
		}
		if (i % 64 == 63)
			drain(fd, 0, &answers);
	}
	drain(fd, 1000, &answers);
	printf("sent=%lu answers=%lu", sent, answers);
	for (unsigned k = 0; k < kinds; k++)
		printf(" kind%u=%lu", k, per[k]);
	printf("\n");
	freeaddrinfo(ai);
	close(fd);
	return sent ? 0 : 1;
}
