// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Refusals on request (ikb_kernel_mem_refuse): the kernel's answers that
 * validation alone never gives, such as an algorithm whose module cannot
 * be loaded, so that tests see what a failed install leaves behind.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "mem.h"

static const char *const op_names[MEM_NOPS] = {
	[MEM_SPI_ALLOC] = "spi_alloc",
	[MEM_SA_ADD] = "sa_add",
	[MEM_SA_UPDATE] = "sa_update",
	[MEM_POLICY_ADD] = "policy_add",
};

int mem_refused(struct mem_state *st, enum mem_op op, struct ikb_error *err)
{
	struct mem_refusal *r = &st->refuse[op];

	if (!r->on)
		return 0;
	if (r->after) {
		r->after--;
		return 0;
	}
	return ikb_error_set(err, r->errnum, "%s", r->msg);
}

MEM_EXPORT int ikb_kernel_mem_refuse(void *state, const char *op,
				     unsigned after, int errnum,
				     const char *msg);

MEM_EXPORT int ikb_kernel_mem_refuse(void *state, const char *op,
				     unsigned after, int errnum,
				     const char *msg)
{
	struct mem_state *st = state;

	for (unsigned i = 0; i < MEM_NOPS; i++) {
		struct mem_refusal *r = &st->refuse[i];

		if (strcmp(op, op_names[i]))
			continue;
		*r = (struct mem_refusal){ .on = msg != NULL,
					   .after = after,
					   .errnum = errnum > 0 ? errnum :
								  EPERM };
		if (msg)
			snprintf(r->msg, sizeof(r->msg), "%s", msg);
		return 0;
	}
	return -EINVAL;
}
