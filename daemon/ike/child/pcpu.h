/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Per-CPU Child SAs (RFC 9611): the SA_RESOURCE_INFO notify, the
 * responder's choice of CPU id, and how many clones a host makes.
 */
#ifndef IKB_IKE_PCPU_H
#define IKB_IKE_PCPU_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <ikebana/plugin.h>

#include "wire/wire.h"

/* What a received SA_RESOURCE_INFO says. */
struct pcpu_res {
	size_t id_len; /* Resource Identifier, 0: none */
	bool has_cpu; /* a 4-octet id, read as a CPU number */
	uint32_t cpu;
};

/*
 * Validate one SA_RESOURCE_INFO (§4: Protocol ID 0, SPI Size 0, then an
 * optional opaque Resource Identifier). -1 with why naming the field.
 */
int pcpu_res_parse(const struct wire_notify *n, struct pcpu_res *out, char *why,
		   size_t len);
/*
 * Fill n as SA_RESOURCE_INFO; a CPU id >= 0 goes in as a 4-octet
 * Resource Identifier (for the peer's logs only) held in buf until emit.
 */
void pcpu_res_fill(struct wire_notify *n, uint8_t buf[4], int32_t cpu);

/*
 * The responder's choice for one more SA of a selector set whose live
 * Child SAs have the CPU ids taken[0..n-1] (-1: a fallback): the fallback
 * first (-1), then the lowest free id below count. -ENOSPC: all taken,
 * answer TS_MAX_QUEUE.
 */
int pcpu_pick(const int32_t *taken, size_t n, unsigned count, int32_t *cpu);

/* How many clones: what the conn asks for, at most what the kernel takes. */
unsigned pcpu_clamp(unsigned want, unsigned kernel);

#endif
