/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A Child SA: its negotiation inputs and what it installed in the kernel. */
#ifndef IKB_IKE_CHILD_SA_H
#define IKB_IKE_CHILD_SA_H

#include <stdbool.h>
#include <stdint.h>
#include <time.h>
#include <ikebana/plugin.h>

#include "ike/wire.h"

struct ike_sa;

struct child_sa {
	struct child_sa *next;
	uint32_t reqid;
	enum ikb_mode mode;
	struct ikb_selector ts; /* local = src, remote = dst */
	uint32_t spi_in, spi_out; /* host byte order */
	bool spi_allocated; /* spi_in is a larval SA in the kernel */
	struct ikb_proposal prop; /* chosen ESP proposal */
	/* What was installed, keys wiped (for status and removal). */
	bool sa_in_done, sa_out_done;
	struct ikb_sa sa_in, sa_out;
	unsigned npol;
	struct ikb_policy pol[3];
	time_t created;
};

struct child_sa *child_sa_new(struct ike_sa *sa, enum ikb_mode mode);
/* Inbound SPI from the kernel (a larval SA until installed). */
int child_sa_alloc_spi(struct ike_sa *sa, struct child_sa *c,
		       struct ikb_error *err);
/*
 * KEYMAT (no PFS), SAs and policies. On any kernel error everything
 * installed so far is removed again and err holds the kernel's message.
 */
int child_sa_install(struct ike_sa *sa, struct child_sa *c,
		     struct ikb_error *err);
/* Remove from the kernel (whatever was installed) and free. */
void child_sa_free(struct ike_sa *sa, struct child_sa *c);
/* The ESN transforms esn= and replay-window= ask to propose. */
int child_esn_offer(const struct ikb_section *conn,
		    struct ikb_proposal_list *l);

/* child_negotiate.c: the Child SA payloads of IKE_AUTH. */
struct conn_view;
struct ikb_wire_msg;
struct ikb_wire_sa_store;

/* Storage the payloads point into until the message is emitted. */
struct child_out {
	struct ikb_wire_sa_store *store;
	struct ikb_proposal_list l;
	struct ikb_wire_ts ts_i, ts_r;
	uint8_t spi[4];
};

int child_out_init(struct child_out *o);
void child_out_fini(struct child_out *o);
/* Initiator: sa->pending with its SPI, and SA, TSi, TSr into m. */
int child_offer(struct ike_sa *sa, const struct conn_view *v,
		struct ikb_wire_msg *m, struct child_out *o,
		struct ikb_error *err);
/*
 * Responder: negotiate and install; adds the Child payloads or the error
 * notify to resp. The IKE SA stands either way (§1.2, §2.21).
 */
void child_respond(struct ike_sa *sa, const struct conn_view *v,
		   const struct ikb_wire_msg *req, struct ikb_wire_msg *resp,
		   struct child_out *o);
/* Initiator: the response's Child part; installs or logs why not. */
void child_accept(struct ike_sa *sa, const struct ikb_wire_msg *resp);

#endif
