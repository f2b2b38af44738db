/* SPDX-License-Identifier: GPL-2.0-or-later */
/* sig_rate.c: the signature table of ke_rate_bench (NSS initialised). */
#ifndef IKB_TEST_CRYPTO_SIG_RATE_H
#define IKB_TEST_CRYPTO_SIG_RATE_H

int sig_rate_table(double secs);

#endif
