/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The values `ikebana status` shows of an IKE SA and its Child SAs, as
 * text: one place for them, whether they go into the JSON answer
 * (ike_status.c) or into the text the daemon renders (status_text.c).
 */
#ifndef IKB_IKE_STATUS_FMT_H
#define IKB_IKE_STATUS_FMT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ike/child/ts.h"

struct child_sa;
struct ike_sa;
struct ikb_sa;

/* 16 hex digits and a NUL: an IKE SPI */
void fmt_spi64(char buf[17], const uint8_t s[8]);
/* "%08" PRIx32: a Child SA's SPI */
void fmt_spi32(char buf[9], uint32_t spi);
/* "10.1.0.0/24,10.2.0.0/24 proto 6 port 22": one side's selectors */
#define FMT_TS_LEN (TS_NETS_MAX * 48 + 32)
void fmt_ts(char buf[FMT_TS_LEN], const struct child_sa *c, bool local);
/* "0x7/0xff" */
void fmt_mark(char buf[24], uint32_t mark, uint32_t mask);

const char *status_sa_state(const struct ike_sa *sa);
const char *status_child_state(const struct child_sa *c);
/* pcrypt as installed: on, fallback (asked, the kernel cannot) or off */
const char *status_pcrypt(const struct child_sa *c);
/* the SA whose offload status shows (the one that fell back, if any) */
const struct ikb_sa *status_offload_sa(const struct child_sa *c);
/* none, crypto, packet, software (yes fell back) or yes */
const char *status_offload(const struct ikb_sa *sa);
/* the device, or NULL when nothing is offloaded */
const char *status_offload_dev(const struct ikb_sa *sa);
/* the algorithm the kernel runs, by its kernel name */
const char *status_kernel_alg(const struct child_sa *c);

#endif
