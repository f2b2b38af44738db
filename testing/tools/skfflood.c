// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * skfflood DST PORT SPI_I SPI_R MSGID COUNT: sends COUNT forged IKE
 * fragments (RFC 7383 SKF payloads) of the IKE SA SPI_I/SPI_R (16 hex
 * digits each) to DST:PORT, as a peer's address would (run it in the
 * peer's network namespace). They cycle through what a reassembler must
 * refuse: fragments whose integrity check fails (random ciphertext, every
 * number of a 64-piece set and MSGID..MSGID+15), Fragment Number 0, Total
 * Fragments 0, a number above the total, a total above 64, a later
 * fragment with a Next Payload, and payloads too short for their header.
 * They go in clear, as a forger's would, also where the peer's IPsec
 * policies cover the path (a socket policy exempts the socket). For the
 * frag-flood scenario, which checks what the daemon logs, keeps and
 * answers meanwhile.
 */
#include <arpa/inet.h>
#include <linux/xfrm.h>
#include <netdb.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "ikeforge.h"

#define HDR 28
#define BODY 96 /* IV, ciphertext and ICV, as random as a forger's */

/* Fragment i of the flood into d: its length. */
static size_t forge(uint8_t *d, const uint8_t spi_i[8], const uint8_t spi_r[8],
		    uint32_t msgid, unsigned long i)
{
	unsigned num = (unsigned)(i % 64) + 1, total = 64, next = 0;
	size_t body = BODY;

	switch (i % 8) {
	case 1:
		num = 0;
		break;
	case 2:
		total = 0;
		break;
	case 3:
		num = 9, total = 3;
		break;
	case 4:
		num = 1, total = 65535;
		break;
	case 5:
		num = 2, next = 41; /* Notify in a later fragment */
		break;
	case 6:
		body = 0; /* only 2 of the 4 header octets below */
		break;
	default:
		if (num == 1)
			next = 41;
		msgid += (uint32_t)(i / 64 % 16);
		break;
	}
	memcpy(d, spi_i, 8);
	memcpy(d + 8, spi_r, 8);
	d[16] = 53; /* SKF */
	d[17] = 0x20;
	d[18] = 37; /* INFORMATIONAL */
	d[19] = 0x08; /* from the original initiator, a request */
	put32(d + 20, msgid);
	d[HDR] = (uint8_t)next;
	d[HDR + 1] = 0;
	put16(d + HDR + 4, num);
	put16(d + HDR + 6, total);
	for (size_t k = 0; k < body; k++)
		d[HDR + 8 + k] = (uint8_t)random();
	if (i % 8 == 6) {
		put16(d + HDR + 2, 6);
		put32(d + 24, HDR + 6);
		return HDR + 6;
	}
	put16(d + HDR + 2, (unsigned)(8 + body));
	put32(d + 24, (uint32_t)(HDR + 8 + body));
	return HDR + 8 + body;
}

int main(int argc, char **argv)
{
	struct addrinfo hints = { .ai_socktype = SOCK_DGRAM }, *ai;
	uint8_t spi_i[8], spi_r[8], d[HDR + 8 + BODY];
	unsigned long count, sent = 0;
	uint32_t msgid;
	int fd;

	if (argc != 7 || hex8(argv[3], spi_i) || hex8(argv[4], spi_r)) {
		fprintf(stderr,
			"usage: skfflood DST PORT SPI_I SPI_R MSGID COUNT\n");
		return 2;
	}
	msgid = (uint32_t)strtoul(argv[5], NULL, 0);
	count = strtoul(argv[6], NULL, 0);
	if (getaddrinfo(argv[1], argv[2], &hints, &ai)) {
		fprintf(stderr, "skfflood: cannot resolve %s\n", argv[1]);
		return 1;
	}
	fd = socket(ai->ai_family, SOCK_DGRAM, 0);
	if (fd < 0 || bypass(fd, ai->ai_family) ||
	    connect(fd, ai->ai_addr, ai->ai_addrlen)) {
		perror("skfflood: socket");
		return 1;
	}
	srandom(1);
	for (unsigned long i = 0; i < count; i++) {
		size_t n = forge(d, spi_i, spi_r, msgid, i);

		/* a full socket buffer or an ICMP error: go on */
		if (send(fd, d, n, 0) == (ssize_t)n)
			sent++;
	}
	printf("skfflood: %lu of %lu fragments sent\n", sent, count);
	freeaddrinfo(ai);
	close(fd);
	return sent ? 0 : 1;
}
