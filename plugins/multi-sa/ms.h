/* SPDX-License-Identifier: GPL-2.0-or-later */
/* multi-sa internals. */
#ifndef IKB_MULTI_SA_H
#define IKB_MULTI_SA_H

#include <stddef.h>
#include <ikebana/plugin.h>

struct ms_state {
	const struct ikb_host *host;
};

/* One entry of leftprotoports=: protocol (0 = any) and port (0 = any). */
struct ms_pp {
	uint8_t proto;
	uint16_t port;
};

struct ms_pp_list {
	unsigned n;
	struct ms_pp e[IKB_CHILD_PLAN_MAX];
};

/* One entry of leftsubnets=. */
struct ms_net {
	struct ikb_addr addr;
	uint8_t plen;
};

struct ms_net_list {
	unsigned n;
	struct ms_net e[IKB_CHILD_PLAN_MAX];
};

/*
 * Left's and right's list of one kind, for the one pairing rule
 * (pair.c). n = 0: that side has no list.
 */
struct ms_lists {
	const char *key[2]; /* left's and right's key */
	const void *e[2]; /* their entries */
	unsigned n[2];
	size_t size; /* of one entry */
	/*
	 * Narrow c to a local and a remote entry (NULL: that side has no
	 * list and keeps c's); -1 with why when they cannot be one SA.
	 */
	int (*narrow)(struct ikb_child_spec *c, const void *loc,
		      const void *rem, char *why, size_t len);
};

/*
 * Every left entry with every right entry, each pair narrowing a copy of
 * base, this host's entries in the outer loop. Into plan when not NULL
 * (plan->n set); else only checked. -E2BIG when the pairs exceed
 * IKB_CHILD_PLAN_MAX, -EINVAL for a pair that is no selector; why names
 * the keys and entries.
 */
int ms_pairs(const struct ms_lists *ls, bool left_is_local,
	     const struct ikb_child_spec *base, struct ikb_child_plan *plan,
	     char *why, size_t len);

/* Subnets separated by commas or spaces, in braces or not, one family. */
int ms_parse_net_list(const char *s, struct ms_net_list *out, char *why,
		      size_t len);
bool ms_has_subnets(const struct ms_state *st, const struct ikb_section *conn);
/* Left's and right's subnets lists as ms_pairs takes them. */
void ms_net_lists(struct ms_lists *ls, const struct ms_net_list *l,
		  const struct ms_net_list *r);
/* One Child SA per pair of a local and a remote subnet. */
int ms_plan_subnets(const struct ms_state *st, const struct ikb_section *conn,
		    struct ikb_child_plan *plan, struct ikb_error *err);

/* PROTO[/PORT]; why says what is wrong. */
int ms_parse_pp(const char *s, struct ms_pp *out, char *why, size_t len);
/* Entries separated by commas or spaces, 1..IKB_CHILD_PLAN_MAX of them. */
int ms_parse_pp_list(const char *s, struct ms_pp_list *out, char *why,
		     size_t len);
bool ms_has_protoports(const struct ms_state *st,
		       const struct ikb_section *conn);
/* One Child SA per pair of a left and a right protoports entry. */
int ms_plan_protoports(const struct ms_state *st,
		       const struct ikb_section *conn,
		       struct ikb_child_plan *plan, struct ikb_error *err);
/* Left's and right's protoports lists as ms_pairs takes them. */
void ms_pp_lists(struct ms_lists *ls, const struct ms_pp_list *l,
		 const struct ms_pp_list *r);
/* 1..IKB_CHILD_PLAN_MAX, or yes for the online CPUs. */
int ms_parse_clones(const char *s, unsigned *out);

int ms_check_conn(void *state, const struct ikb_section *conn,
		  struct ikb_diag *d);
int ms_plan(void *state, const struct ikb_section *conn,
	    struct ikb_child_plan *plan, struct ikb_error *err);

#endif
