/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The kernel hook: where SAs and policies are installed. */
#ifndef IKEBANA_KERNEL_H
#define IKEBANA_KERNEL_H

#include <ikebana/types.h>

enum ikb_kernel_event_type {
	IKB_KEV_ACQUIRE, /* traffic hit a policy with no SA */
	IKB_KEV_EXPIRE, /* an SA reached its soft or hard limit */
	IKB_KEV_POLEXPIRE, /* a policy expired */
	/*
	 * Appended in ABI 5: ESP in UDP for an inbound SA (dst, spi, proto)
	 * came from another address or port than the SA's: the peer's NAT
	 * mapped it anew (Linux: XFRM_MSG_MAPPING). new_addr, new_port say
	 * where from.
	 */
	IKB_KEV_MAPPING,
};

struct ikb_kernel_event {
	enum ikb_kernel_event_type type;
	bool hard;
	struct ikb_selector sel;
	struct ikb_addr dst;
	uint32_t spi;
	uint8_t proto;
	uint32_t reqid;
	int32_t cpu;
	/* IKB_KEV_MAPPING only (appended in ABI 5) */
	struct ikb_addr new_addr;
	uint16_t new_port; /* host byte order */
};

typedef void (*ikb_kernel_event_cb)(void *ctx,
				    const struct ikb_kernel_event *ev);

/*
 * Every function returns 0 or a negative errno, and on failure fills err
 * with a message fit for the user (the kernel's extended ACK, if any).
 * sa_add and sa_update may write back into sa what they really installed
 * (the fallback fields of struct ikb_sa, the offload device), so that the
 * caller's copy tells the truth; they never change the SA's identity.
 */
struct ikb_kernel_ops {
	uint32_t size; /* IKB_OPS_SIZE(struct ikb_kernel_ops) */
	int (*spi_alloc)(void *state, const struct ikb_addr *src,
			 const struct ikb_addr *dst, uint8_t proto,
			 uint32_t reqid, uint32_t *spi, struct ikb_error *err);
	int (*sa_add)(void *state, struct ikb_sa *sa, struct ikb_error *err);
	int (*sa_update)(void *state, struct ikb_sa *sa, struct ikb_error *err);
	int (*sa_del)(void *state, const struct ikb_addr *dst, uint32_t spi,
		      uint8_t proto, struct ikb_error *err);
	int (*policy_add)(void *state, const struct ikb_policy *pol,
			  struct ikb_error *err);
	int (*policy_del)(void *state, const struct ikb_policy *pol,
			  struct ikb_error *err);
	int (*sa_query)(void *state, const struct ikb_addr *dst, uint32_t spi,
			uint8_t proto, struct ikb_sa_counters *out,
			struct ikb_error *err);
	/* Deliver ACQUIRE/EXPIRE/POLEXPIRE events to cb on the event loop. */
	int (*events_subscribe)(void *state, ikb_kernel_event_cb cb, void *ctx,
				struct ikb_error *err);
	/*
	 * RFC 9611: how many per-CPU SAs the kernel takes, the CPU ids
	 * 0..*n-1 (Linux: XFRMA_SA_PCPU below num_possible_cpus). *n = 0 with
	 * why filled ("kernel 6.1 has no per-CPU SAs (needs 6.13)") when it
	 * has none. Optional: NULL means none.
	 */
	int (*pcpu_max)(void *state, unsigned *n, struct ikb_error *why);
	/* Walk what this backend installed (status, tests). Optional. */
	int (*dump)(void *state,
		    void (*sa_cb)(void *ctx, const struct ikb_sa *),
		    void (*pol_cb)(void *ctx, const struct ikb_policy *),
		    void *ctx);
	/*
	 * A new Child SA at once (ABI 4): sa_update of in (its SPI came from
	 * spi_alloc), sa_add of out, then policy_add of pol[0..npol-1], in
	 * that order, in one round trip where the backend can. Unlike single
	 * calls, a failure need not stop the rest: *done gets, whatever the
	 * result, bit 0 when in stands, bit 1 for out and bit 2 + i for
	 * pol[i], so that the caller removes exactly what stands; err has the
	 * first failure. At most 3 policies. Optional: NULL means the single
	 * calls.
	 */
	int (*child_add)(void *state, struct ikb_sa *in, struct ikb_sa *out,
			 const struct ikb_policy *pol, unsigned npol,
			 uint32_t *done, struct ikb_error *err);
	/*
	 * Optional, appended in ABI 5: end the subscription that
	 * events_subscribe(state, cb, ctx) made (another cb or ctx: none,
	 * nothing happens); cb is not called again after it returns. The
	 * engine calls it when it lets go of this instance (teardown, or a
	 * reload that switches plugin instances). It ends the delivery only:
	 * what the instance took charge of (kernel-xfrm: its SAs and
	 * policies, flushed at fini) stays its own.
	 */
	void (*events_unsubscribe)(void *state, ikb_kernel_event_cb cb,
				   void *ctx);
	/*
	 * Optional, appended in ABI 5: move the installed SA (dst, spi,
	 * proto) to the addresses and UDP encapsulation ports of to, keeping
	 * its keys, sequence numbers and replay state (NAT mapping changes,
	 * MOBIKE). An SA whose addresses stay gets its ports in place; one
	 * whose addresses change is replaced, so a packet or two in flight
	 * may be lost. NULL: SAs cannot move, and the engine says so.
	 */
	int (*sa_move)(void *state, const struct ikb_addr *dst, uint32_t spi,
		       uint8_t proto, const struct ikb_sa_move *to,
		       struct ikb_error *err);
	/*
	 * Optional, appended in ABI 5: install pol in place of the policy of
	 * the same selector, direction and mark, or add it (Linux:
	 * XFRM_MSG_UPDPOLICY), so that no packet meets no policy meanwhile.
	 */
	int (*policy_update)(void *state, const struct ikb_policy *pol,
			     struct ikb_error *err);
	/* Append optional ops here; never reorder or remove (ABI 5). */
};

/* The table as ABI 5 defined it: the loader refuses a shorter one. */
#define IKB_KERNEL_OPS_MIN IKB_OPS_END(struct ikb_kernel_ops, child_add)

#endif
