/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The crypto layer's public interface, for daemon code that wants all of
 * it (main.c, the IKE exchanges). Each header can also be used alone.
 * Everything here returns 0 or a negative errno and, given a struct
 * crypto_err, a message that names the offending field or algorithm.
 */
#ifndef IKB_CRYPTO_CRYPTO_H
#define IKB_CRYPTO_CRYPTO_H

#include "crypto/algs.h"
#include "crypto/cred.h"
#include "crypto/err.h"
#include "crypto/hash.h"
#include "crypto/helpers.h"
#include "crypto/ke.h"
#include "crypto/keymat.h"
#include "crypto/nss_init.h"
#include "crypto/prf.h"
#include "crypto/prfplus.h"
#include "crypto/rng.h"
#include "crypto/secret.h"
#include "crypto/sig.h"
#include "crypto/sk.h"
#include "crypto/skeyseed.h"

#endif
