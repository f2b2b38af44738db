/* SPDX-License-Identifier: GPL-2.0-or-later */
/* `ikebana explain`: the daemon's facts about a conn's failures in words. */
#ifndef IKB_CLI_EXPLAIN_H
#define IKB_CLI_EXPLAIN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

struct json_object;

/*
 * explain_alg.c: the first proposal of "A-B-C|D-E" (IANA names, as a
 * failure record has them) as ike=/esp= spell it: "aes128-sha1-modp2048".
 */
void explain_spelling(const char *proposal, char *out, size_t len);
/* explain_text.c: the diagnosis of the explain answer's data. */
void explain_print(FILE *f, struct json_object *data);

#endif
