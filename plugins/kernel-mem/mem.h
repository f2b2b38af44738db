/* SPDX-License-Identifier: GPL-2.0-or-later */
/* kernel-mem internals: the tables that stand in for the kernel's SAD/SPD. */
#ifndef IKB_KERNEL_MEM_INTERNAL_H
#define IKB_KERNEL_MEM_INTERNAL_H

#include <stddef.h>
#include <ikebana/plugin.h>

#include "kernel_mem.h"

#define MEM_EXPORT __attribute__((visibility("default")))
/* XFRMA_REPLAY_ESN_MAX: 128 words of bitmap. */
#define MEM_REPLAY_MAX 4096

struct mem_sa {
	struct ikb_sa sa;
	bool larval; /* from spi_alloc, waiting for sa_update */
	bool soft_sent;
	struct ikb_sa_counters c;
	uint32_t next; /* sa_index.c: the next of its chain, index + 1; 0: none */
};

/* ikb_kernel_mem_refuse(): one per refusable op. */
enum mem_op {
	MEM_SPI_ALLOC,
	MEM_SA_ADD,
	MEM_SA_UPDATE,
	MEM_POLICY_ADD,
	MEM_NOPS
};

struct mem_refusal {
	bool on;
	unsigned after; /* successful calls still allowed */
	int errnum;
	char msg[200];
};

struct mem_state {
	const struct ikb_host *host;
	struct mem_sa *sas;
	size_t nsa, capsa;
	uint32_t *heads; /* sa_index.c: chains of sas by SPI, index + 1 */
	size_t nheads; /* a power of two, 0: none yet */
	struct ikb_policy *pols;
	size_t npol, cappol;
	uint64_t rng;
	ikb_kernel_event_cb cb;
	void *cb_ctx;
	struct mem_refusal refuse[MEM_NOPS];
	unsigned cpus; /* per-CPU SA ids it takes: 0..cpus-1; 0: none */
};

/*
 * Per-CPU SAs as Linux 6.13 takes them: CPU ids below the possible CPUs,
 * IKB_KERNEL_MEM_CPUS of them (default 4; 0 plays a kernel without).
 */
void mem_pcpu_init(struct mem_state *st);
int mem_pcpu_max(void *state, unsigned *n, struct ikb_error *why);
int mem_pcpu_check(const struct mem_state *st, const struct ikb_sa *sa,
		   struct ikb_error *err);

/* 0, or the refusal ikb_kernel_mem_refuse() set up for op. */
int mem_refused(struct mem_state *st, enum mem_op op, struct ikb_error *err);

extern const struct ikb_kernel_ops mem_kernel_ops;

bool mem_addr_eq(const struct ikb_addr *a, const struct ikb_addr *b);
const char *mem_addr_str(const struct ikb_addr *a, char *buf, size_t len);

int mem_sa_validate(const struct ikb_sa *sa, struct ikb_error *err);
int mem_policy_validate(const struct ikb_policy *pol, struct ikb_error *err);

/*
 * sa_index.c: find by (dst, SPI, protocol). An SA of st->sas is linked
 * once its key is set (add: 0, or -1 out of memory, m not findable), and
 * unlinked before its key changes; remove unlinks and fills its place.
 */
struct mem_sa *mem_sa_find(struct mem_state *st, const struct ikb_addr *dst,
			   uint32_t spi, uint8_t proto);
int mem_index_add(struct mem_state *st, struct mem_sa *m);
void mem_index_del(struct mem_state *st, struct mem_sa *m);
void mem_sa_remove(struct mem_state *st, struct mem_sa *m);
void mem_index_free(struct mem_state *st);

int mem_spi_alloc(void *state, const struct ikb_addr *src,
		  const struct ikb_addr *dst, uint8_t proto, uint32_t reqid,
		  uint32_t *spi, struct ikb_error *err);
int mem_sa_add(void *state, struct ikb_sa *sa, struct ikb_error *err);
int mem_sa_update(void *state, struct ikb_sa *sa, struct ikb_error *err);
int mem_sa_move(void *state, const struct ikb_addr *dst, uint32_t spi,
		uint8_t proto, const struct ikb_sa_move *to,
		struct ikb_error *err);
int mem_policy_update(void *state, const struct ikb_policy *pol,
		      struct ikb_error *err);
int mem_sa_del(void *state, const struct ikb_addr *dst, uint32_t spi,
	       uint8_t proto, struct ikb_error *err);
int mem_sa_query(void *state, const struct ikb_addr *dst, uint32_t spi,
		 uint8_t proto, struct ikb_sa_counters *out,
		 struct ikb_error *err);
int mem_policy_add(void *state, const struct ikb_policy *pol,
		   struct ikb_error *err);
int mem_policy_del(void *state, const struct ikb_policy *pol,
		   struct ikb_error *err);
int mem_child_add(void *state, struct ikb_sa *in, struct ikb_sa *out,
		  const struct ikb_policy *pol, unsigned npol, uint32_t *done,
		  struct ikb_error *err);
int mem_events_subscribe(void *state, ikb_kernel_event_cb cb, void *ctx,
			 struct ikb_error *err);
void mem_events_unsubscribe(void *state, ikb_kernel_event_cb cb, void *ctx);
int mem_dump(void *state, void (*sa_cb)(void *ctx, const struct ikb_sa *),
	     void (*pol_cb)(void *ctx, const struct ikb_policy *), void *ctx);

#endif
