/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Internal interface of the esp-proposals plugin: the algorithm table and
 * the functions behind ikb_proposals_ops. Not part of the plugin ABI.
 */
#ifndef EPR_ESP_PROPOSALS_H
#define EPR_ESP_PROPOSALS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <ikebana/proposals.h>

/* IANA transform ids that the code names directly. */
enum {
	EPR_NONE = 0,
	EPR_ENCR_3DES = 3,
	EPR_ENCR_NULL = 11,
	EPR_ENCR_AES_CBC = 12,
	EPR_ENCR_AES_CTR = 13,
	EPR_ENCR_AES_CCM_8 = 14,
	EPR_ENCR_AES_CCM_12 = 15,
	EPR_ENCR_AES_CCM_16 = 16,
	EPR_ENCR_AES_GCM_8 = 18,
	EPR_ENCR_AES_GCM_12 = 19,
	EPR_ENCR_AES_GCM_16 = 20,
	EPR_ENCR_CAMELLIA_CBC = 23,
	EPR_ENCR_CHACHA20_POLY1305 = 28,
	EPR_PRF_HMAC_SHA1 = 2,
	EPR_PRF_AES128_XCBC = 4,
	EPR_PRF_HMAC_SHA2_256 = 5,
	EPR_PRF_HMAC_SHA2_384 = 6,
	EPR_PRF_HMAC_SHA2_512 = 7,
	EPR_INTEG_HMAC_SHA1_96 = 2,
	EPR_INTEG_AES_XCBC_96 = 5,
	EPR_INTEG_HMAC_SHA2_256_128 = 12,
	EPR_INTEG_HMAC_SHA2_384_192 = 13,
	EPR_INTEG_HMAC_SHA2_512_256 = 14,
	EPR_ESN_NO = 0,
	EPR_ESN_YES = 1,
};

/* Flags of one algorithm. */
#define EPR_AEAD 0x01 /* combined mode: no integrity transform */
#define EPR_KEYLEN 0x02 /* takes the Key Length attribute: 128/192/256 */
#define EPR_NOT_IKE 0x04 /* never valid in ike= */
#define EPR_NOT_ESP 0x08 /* never valid in esp= */

struct epr_alg {
	uint8_t type; /* enum ikb_xform_type */
	uint16_t id; /* IANA transform id */
	const char *name; /* canonical config token, for messages */
	const char *fqn; /* rendering without key length: "AES_GCM_16" */
	uint8_t flags;
	uint16_t fixed_key_bits; /* key size when there is no Key Length */
	uint16_t icv_bits; /* AEAD ICV, or integrity truncation */
	uint16_t salt_bits; /* kernel key = key + salt (GCM, CCM, CTR) */
	uint16_t integ_key_bits; /* integrity key size */
	const char *kernel; /* Linux crypto API name; NULL = none */
	const char *refused; /* non-NULL: insecure, this says why */
	const char *const *names; /* aliases, NULL-terminated */
};

/* algs.c */
const struct epr_alg *epr_alg_by_id(uint8_t type, uint16_t id);
/*
 * Look a config token up as a transform of `type`. Handles key lengths
 * written as aes256, aes_256 and aes_gcm_16_256, and strongSwan's
 * aes128gcm16 and aes256ctr. *key_bits is 0 when none was written.
 * Returns NULL if the token names no algorithm of that type; sets
 * *bad_key when the base name was found but the key length is invalid.
 */
const struct epr_alg *epr_alg_lookup(uint8_t type, const char *tok, size_t len,
				     uint16_t *key_bits, bool *bad_key);
bool epr_key_bits_valid(const struct epr_alg *alg, unsigned bits);
/* The integrity transform that uses the same hash as a PRF. */
const struct epr_alg *epr_integ_for_prf(uint16_t prf_id);
const char *epr_type_noun(uint8_t type, bool ike);

/* parse.c */
int epr_parse(enum ikb_protocol protocol, const char *spec,
	      struct ikb_proposal_list *out, struct ikb_error *err);
bool epr_list_has_ke(const struct ikb_proposal_list *l);

/* defaults.c */
int epr_defaults(enum ikb_protocol protocol, struct ikb_proposal_list *out);
/* Fill the defaults for what a parsed proposal left out. */
int epr_complete(enum ikb_protocol protocol, struct ikb_proposal *p);

/* select.c */
int epr_select(const struct ikb_proposal_list *ours,
	       const struct ikb_proposal_list *offered,
	       struct ikb_proposal *chosen, unsigned *chosen_num,
	       struct ikb_error *err);

/* kernel_names.c */
int epr_kernel_algs(const struct ikb_proposal *chosen, struct ikb_sa *sa,
		    struct ikb_error *err);

/* render.c: "AES_CBC_256-HMAC_SHA2_256_128, AES_GCM_16_128" */
size_t epr_render_proposal(const struct ikb_proposal *p, char *buf, size_t len);
size_t epr_render_list(const struct ikb_proposal_list *l, char *buf,
		       size_t len);

/* proposal helpers (defaults.c) */
int epr_add(struct ikb_proposal *p, uint8_t type, uint16_t id,
	    uint16_t key_bits);
bool epr_has_type(const struct ikb_proposal *p, uint8_t type);

#endif
