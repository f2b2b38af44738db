/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Test messages shared by the wire unit tests and the fuzz driver. */
#ifndef IKB_TEST_WIRE_SAMPLES_H
#define IKB_TEST_WIRE_SAMPLES_H

#include <stddef.h>
#include <stdint.h>

/*
 * Hex to bytes. Tokens are separated by spaces: "0a0b0c" pairs, or "ab*20"
 * for 20 bytes of 0xab. Returns the byte count, or 0 if hex is malformed
 * or does not fit.
 */
size_t wire_hex(uint8_t *out, size_t cap, const char *hex);

/* A strongSwan-style IKE_SA_INIT request, built byte by byte (340 bytes). */
extern const char wire_sample_sa_init_hex[];
#define WIRE_SAMPLE_SA_INIT_LEN 340

/* Seeds for the fuzz driver: NULL-terminated list of hex messages. */
extern const char *const wire_sample_seeds[];

#endif
