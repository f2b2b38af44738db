// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A whole responder engine (peers.h) over kernel-mem, from arbitrary
 * datagrams: the SA table, the cookie and half-open gates, IKE_SA_INIT's
 * proposal selection and key exchange (helpers run inline: no pool), NAT
 * detection, and the dispatch of later messages to the SA they name, not
 * only the codec. A fresh engine for each input.
 *
 * Input: records, each a flags octet (bit 0: put the SPI of the
 * responder's last message into the Responder's SPI, so that a later
 * message finds the SA the first one made; bit 1: to and from port 4500),
 * then a 16-bit length and the datagram.
 */
#include <stdlib.h>
#include <string.h>
#include <event2/event.h>

#include "fuzz.h"
#include "fuzz_nss.h"
#include "log/log.h"
#include "peers.h"

static struct fuzz_peer east;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	fuzz_nss_init();
	log_setup(LOG_TO_STDERR, IKB_LOG_ERR, "fuzz-engine");
	fuzz_peer_init(&east);
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fuzz_in in = { data, size };

	fuzz_peer_start(&east);
	while (in.left) {
		uint8_t flags = fuzz_u8(&in);
		struct ike_path p = east.path;
		const uint8_t *d;
		uint8_t *buf;
		size_t len;

		d = fuzz_record(&in, &len);
		buf = malloc(len ? len : 1);
		if (!buf)
			abort();
		memcpy(buf, d, len);
		if (flags & 1 && len >= 16)
			memcpy(buf + 8, east.last_spi_r, 8);
		if (flags & 2)
			p.lport = p.rport = 4500;
		ike_engine_input(east.e, &p, buf, len);
		event_base_loop(east.base, EVLOOP_NONBLOCK);
		free(buf);
	}
	fuzz_peer_stop(&east);
	return 0;
}
