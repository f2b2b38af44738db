/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A responder as the daemon runs one, for the engine target: east
 * (192.0.2.2) with a PSK conn to west (192.0.2.1) and every default
 * plugin but kernel-xfrm, replaced by kernel-mem; its ike_io sends into
 * a capture instead of a socket. The configuration is loaded once; each
 * input gets a new engine, so that one input's SAs never meet the next.
 */
#ifndef IKB_FUZZ_PEERS_H
#define IKB_FUZZ_PEERS_H

#include <stddef.h>
#include <stdint.h>

#include "ike/ike.h"

struct fuzz_peer {
	struct event_base *base;
	struct ike_engine *e;
	struct ike_path path; /* east's view of west's datagrams */
	uint8_t last_spi_r[8]; /* of east's last message: its SPI */
	unsigned sent;
};

void fuzz_peer_init(struct fuzz_peer *p);
void fuzz_peer_start(struct fuzz_peer *p);
void fuzz_peer_stop(struct fuzz_peer *p);

#endif
