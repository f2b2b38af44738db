/* SPDX-License-Identifier: GPL-2.0-or-later */
/* RFC 3526 MODP primes (big-endian); the generator of all three is 2. */
#ifndef IKB_CRYPTO_MODP_H
#define IKB_CRYPTO_MODP_H

#include <stdint.h>

extern const uint8_t modp2048_prime[256];
extern const uint8_t modp3072_prime[384];
extern const uint8_t modp4096_prime[512];

#endif
