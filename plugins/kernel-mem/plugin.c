// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * kernel-mem: a kernel backend that keeps SAs and policies in memory and
 * refuses what the Linux kernel refuses, so that unit tests, fuzzers and
 * IKE-only load tests exercise the real install path without root.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>

#include "mem.h"

static size_t addr_len(sa_family_t family)
{
	return family == AF_INET ? 4 : family == AF_INET6 ? 16 : 0;
}

bool mem_addr_eq(const struct ikb_addr *a, const struct ikb_addr *b)
{
	return a->family == b->family &&
	       memcmp(a->bytes, b->bytes, addr_len(a->family)) == 0;
}

const char *mem_addr_str(const struct ikb_addr *a, char *buf, size_t len)
{
	if (!inet_ntop(a->family, a->bytes, buf, len))
		snprintf(buf, len, "(family %u)", (unsigned)a->family);
	return buf;
}

static int mem_init(const struct ikb_host *host, void **state)
{
	struct mem_state *st = calloc(1, sizeof(*st));

	if (!st)
		return -ENOMEM;
	st->host = host;
	/* SPIs only need to be hard to guess for a peer, not secret. */
	if (getrandom(&st->rng, sizeof(st->rng), GRND_NONBLOCK) !=
	    sizeof(st->rng))
		st->rng = (uint64_t)time(NULL) ^ (uint64_t)(uintptr_t)st;
	st->rng |= 1;
	mem_pcpu_init(st);
	*state = st;
	return 0;
}

static void mem_fini(void *state)
{
	struct mem_state *st = state;

	if (!st)
		return;
	free(st->sas);
	mem_index_free(st);
	free(st->pols);
	free(st);
}

const struct ikb_kernel_ops mem_kernel_ops = {
	IKB_OPS_SIZE(struct ikb_kernel_ops),
	.spi_alloc = mem_spi_alloc,
	.sa_add = mem_sa_add,
	.sa_update = mem_sa_update,
	.sa_del = mem_sa_del,
	.policy_add = mem_policy_add,
	.policy_del = mem_policy_del,
	.sa_query = mem_sa_query,
	.events_subscribe = mem_events_subscribe,
	.pcpu_max = mem_pcpu_max,
	.dump = mem_dump,
	.child_add = mem_child_add,
	.events_unsubscribe = mem_events_unsubscribe,
	.sa_move = mem_sa_move,
	.policy_update = mem_policy_update,
};

IKB_PLUGIN_EXPORT const struct ikb_plugin ikb_plugin = {
	IKB_PLUGIN_INIT,
	.name = "kernel-mem",
	.summary =
		"in-memory kernel backend for tests: validates SAs and policies as the Linux kernel does, installs nothing",
	.init = mem_init,
	.fini = mem_fini,
	.kernel = &mem_kernel_ops,
};
