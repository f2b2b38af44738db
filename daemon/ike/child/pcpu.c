// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * RFC 9611's pieces that need no IKE SA: the SA_RESOURCE_INFO notify
 * and the responder's CPU ids. The ids are each host's own (§3: they are
 * not negotiated); the peer's Resource Identifier only goes to the log.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "ike/child/pcpu.h"

int pcpu_res_parse(const struct wire_notify *n, struct pcpu_res *out, char *why,
		   size_t len)
{
	uint32_t v;

	memset(out, 0, sizeof(*out));
	if (n->protocol != 0) {
		snprintf(why, len, "Protocol ID %u, must be 0", n->protocol);
		return -1;
	}
	if (n->spi_size != 0) {
		snprintf(why, len, "SPI Size %u, must be 0", n->spi_size);
		return -1;
	}
	out->id_len = n->data ? n->len : 0;
	if (out->id_len == 4) {
		memcpy(&v, n->data, 4);
		out->has_cpu = true;
		out->cpu = ntohl(v);
	}
	return 0;
}

void pcpu_res_fill(struct wire_notify *n, uint8_t buf[4], int32_t cpu)
{
	uint32_t v = htonl((uint32_t)cpu);

	memset(n, 0, sizeof(*n));
	n->type = WIRE_N_SA_RESOURCE_INFO;
	if (cpu < 0)
		return;
	memcpy(buf, &v, 4);
	n->data = buf;
	n->len = 4;
}

static bool taken_has(const int32_t *taken, size_t n, int32_t id)
{
	for (size_t i = 0; i < n; i++)
		if (taken[i] == id)
			return true;
	return false;
}

int pcpu_pick(const int32_t *taken, size_t n, unsigned count, int32_t *cpu)
{
	/* §3: the first SA of a selector set carries what no CPU has */
	if (!taken_has(taken, n, -1)) {
		*cpu = -1;
		return 0;
	}
	for (unsigned id = 0; id < count; id++) {
		if (!taken_has(taken, n, (int32_t)id)) {
			*cpu = (int32_t)id;
			return 0;
		}
	}
	return -ENOSPC;
}

unsigned pcpu_clamp(unsigned want, unsigned kernel)
{
	return want < kernel ? want : kernel;
}
