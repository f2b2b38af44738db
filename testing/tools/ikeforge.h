/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What the forging tools (skfflood, ikejunk, initflood) share: big-endian
 * fields, SPIs from hex, and a socket that bypasses the host's IPsec
 * policies, as a forger's datagrams would not be protected.
 */
#ifndef IKB_TOOLS_IKEFORGE_H
#define IKB_TOOLS_IKEFORGE_H

#include <stdint.h>

void put16(uint8_t *p, unsigned v);
void put32(uint8_t *p, uint32_t v);
unsigned get16(const uint8_t *p);
/* 16 hex digits into 8 bytes: 0, or -1 if s is not that. */
int hex8(const char *s, uint8_t out[8]);
/* fd's datagrams, both ways, outside IPsec (CAP_NET_ADMIN): 0 or -1. */
int bypass(int fd, int family);

#endif
