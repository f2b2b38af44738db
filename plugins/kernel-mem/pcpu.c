// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Per-CPU SAs (RFC 9611) as Linux 6.13 takes them, so that engine tests
 * can play a multi-core kernel, a one-CPU kernel (UML) and a kernel
 * without per-CPU SAs (6.1) in one process.
 */
#include <errno.h>
#include <stdlib.h>

#include "mem.h"

#define MEM_PCPU_DEFAULT 4u

void mem_pcpu_init(struct mem_state *st)
{
	const char *v = getenv("IKB_KERNEL_MEM_CPUS");

	st->cpus = v ? (unsigned)strtoul(v, NULL, 10) : MEM_PCPU_DEFAULT;
}

int mem_pcpu_max(void *state, unsigned *n, struct ikb_error *why)
{
	const struct mem_state *st = state;

	*n = st->cpus;
	if (!st->cpus)
		return ikb_error_set(
			why, EOPNOTSUPP,
			"kernel-mem has no per-CPU SAs (IKB_KERNEL_MEM_CPUS=0)");
	return 0;
}

int mem_pcpu_check(const struct mem_state *st, const struct ikb_sa *sa,
		   struct ikb_error *err)
{
	if (sa->cpu < 0 || (unsigned)sa->cpu < st->cpus)
		return 0;
	/* what Linux answers for XFRMA_SA_PCPU >= num_possible_cpus() */
	return ikb_error_set(err, ERANGE, "pCPU number too big (%d, %u CPUs)",
			     (int)sa->cpu, st->cpus);
}
