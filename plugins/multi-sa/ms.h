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

/* Subnets separated by commas or spaces, in braces or not, one family. */
int ms_parse_net_list(const char *s, struct ms_net_list *out, char *why,
		      size_t len);
bool ms_has_subnets(const struct ms_state *st, const struct ikb_section *conn);
/* One Child SA per pair of a local and a remote subnet. */
int ms_plan_subnets(const struct ms_state *st, const struct ikb_section *conn,
		    struct ikb_child_plan *plan, struct ikb_error *err);

/* PROTO[/PORT]; why says what is wrong. */
int ms_parse_pp(const char *s, struct ms_pp *out, char *why, size_t len);
/* Entries separated by commas or spaces, 1..IKB_CHILD_PLAN_MAX of them. */
int ms_parse_pp_list(const char *s, struct ms_pp_list *out, char *why,
		     size_t len);
/* 1..IKB_CHILD_PLAN_MAX, or yes for the online CPUs. */
int ms_parse_clones(const char *s, unsigned *out);

int ms_check_conn(void *state, const struct ikb_section *conn,
		  struct ikb_diag *d);
int ms_plan(void *state, const struct ikb_section *conn,
	    struct ikb_child_plan *plan, struct ikb_error *err);

#endif
