/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The proposals hook: esp= and ike= syntax, SA payload contents, selection. */
#ifndef IKEBANA_PROPOSALS_H
#define IKEBANA_PROPOSALS_H

#include <ikebana/types.h>

struct ikb_section;

/* RFC 7296 §3.3.1 protocol ids and §3.3.2 transform types. */
enum ikb_protocol { IKB_PROTO_IKE = 1, IKB_PROTO_AH = 2, IKB_PROTO_ESP = 3 };
enum ikb_xform_type {
	IKB_XF_ENCR = 1,
	IKB_XF_PRF = 2,
	IKB_XF_INTEG = 3,
	IKB_XF_KE = 4,
	IKB_XF_ESN = 5,
};

struct ikb_transform {
	uint8_t type;	   /* enum ikb_xform_type */
	uint16_t id;	   /* IANA transform id */
	uint16_t key_bits; /* Key Length attribute, 0 = none */
};

#define IKB_PROPOSAL_MAX_XFORMS 64
#define IKB_PROPOSALS_MAX 16

/* One proposal: alternatives of the same type are all listed. */
struct ikb_proposal {
	uint8_t protocol; /* enum ikb_protocol */
	uint8_t n;
	struct ikb_transform xf[IKB_PROPOSAL_MAX_XFORMS];
};

struct ikb_proposal_list {
	unsigned n;
	struct ikb_proposal p[IKB_PROPOSALS_MAX];
};

struct ikb_proposals_ops {
	uint32_t size; /* IKB_OPS_SIZE(struct ikb_proposals_ops) */
	/* Parse an esp= or ike= value; err says what is wrong and why. */
	int (*parse)(void *state, enum ikb_protocol protocol, const char *spec,
		     struct ikb_proposal_list *out, struct ikb_error *err);
	/* The proposals used when the conn sets no esp= or ike=. */
	int (*defaults)(void *state, enum ikb_protocol protocol,
			struct ikb_proposal_list *out);
	/*
	 * Responder: pick one transform of each type from the offered list,
	 * in our order of preference. *chosen_num is the 1-based proposal
	 * number of the peer's proposal that was accepted.
	 */
	int (*select)(void *state, const struct ikb_proposal_list *ours,
		      const struct ikb_proposal_list *offered,
		      struct ikb_proposal *chosen, unsigned *chosen_num,
		      struct ikb_error *err);
	/* Fill sa->aead or sa->encr/integ names and sizes (not the keys). */
	int (*kernel_algs)(void *state, const struct ikb_proposal *chosen,
			   struct ikb_sa *sa, struct ikb_error *err);
	/*
	 * Appended in ABI 6, without a bump. The conn's proposals for `protocol`, from the
	 * keys the plugin owns (esp-proposals: ike=, esp= and its alias
	 * phase2alg=), else the defaults: the core reads none of those keys.
	 * A plugin without it cannot serve this ikebana (each conn says so).
	 */
	int (*conn_proposals)(void *state, const struct ikb_section *conn,
			      enum ikb_protocol protocol,
			      struct ikb_proposal_list *out,
			      struct ikb_error *err);
	/* Append optional ops here; never reorder or remove (ABI 5). */
};

/* The table as ABI 5 defined it: the loader refuses a shorter one. */
#define IKB_PROPOSALS_OPS_MIN IKB_OPS_END(struct ikb_proposals_ops, kernel_algs)

#endif
