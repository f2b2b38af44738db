/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The scheme table shared by sig.c (signing) and sig_verify.c. */
#ifndef IKB_CRYPTO_SIG_PRIV_H
#define IKB_CRYPTO_SIG_PRIV_H

#include <secoidt.h>

#include "crypto/sig.h"

struct sig_def {
	struct sig_scheme_info i;
	SECOidTag sign; /* SEC_SignData's algorithm; PSS: from the algid */
	SECOidTag hash;
	const uint8_t *algid; /* method 14: the DER we send */
	size_t algid_len;
};
extern const struct sig_def sig_defs[SIG_SCHEMES];

struct PLArenaPool;
struct SECAlgorithmIDStr;
uint8_t *sig_flatten(const struct cbytes *iov, size_t niov, size_t *len);
int sig_decode_algid(struct PLArenaPool *arena, const uint8_t *p, size_t len,
		     struct SECAlgorithmIDStr *id);
unsigned sig_ec_raw_len(unsigned bits);

#endif
