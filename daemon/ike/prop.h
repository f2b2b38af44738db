/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The proposal an IKE SA or a Child SA keeps once one is chosen. The
 * plugin ABI's struct ikb_proposal has room for 64 transforms (386
 * bytes), as an offer may list many alternatives; a chosen proposal has
 * one transform per type (RFC 7296 §3.3.6), five types today and twelve
 * with RFC 9370's additional key exchanges. Kept at that size it was
 * about 770 bytes of every IKE+Child SA pair; struct ike_prop keeps
 * IKE_PROP_XFORMS and is widened to an ikb_proposal only where a plugin
 * or the wire needs one.
 */
#ifndef IKB_IKE_PROP_H
#define IKB_IKE_PROP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <ikebana/proposals.h>

#define IKE_PROP_XFORMS 16

struct ike_prop {
	uint8_t protocol; /* enum ikb_protocol */
	uint8_t n;
	struct ikb_transform xf[IKE_PROP_XFORMS];
};

/*
 * Keep chosen in p: 0, or -E2BIG when it has more transforms than a
 * chosen proposal can; then p is unchanged and err, unless NULL, says
 * so. A peer cannot cause that (the codec skips a proposal with a
 * transform type other than 1..5, wire_sa_to_proposals), but select()
 * is a plugin's, and the plugin ABI allows it 64.
 */
int ike_prop_keep(struct ike_prop *p, const struct ikb_proposal *chosen,
		  struct ikb_error *err);
/* Whether ike_prop_keep() would keep chosen; err as there. */
bool ike_prop_fits(const struct ikb_proposal *chosen, struct ikb_error *err);
/* p as an ikb_proposal, for a plugin's op or a message. */
void ike_prop_widen(const struct ike_prop *p, struct ikb_proposal *out);
/* p's transform of type, or NULL. */
const struct ikb_transform *ike_prop_xf(const struct ike_prop *p, uint8_t type);
/* "AES_GCM_16_256-PRF_HMAC_SHA2_512-..." for status. */
void ike_prop_render(const struct ike_prop *p, char *buf, size_t len);

/* An offered or chosen ikb_proposal's transform of type, or NULL. */
const struct ikb_transform *prop_xf(const struct ikb_proposal *p, uint8_t type);

#endif
