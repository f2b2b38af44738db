/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef IKB_DAEMON_CONTROL_STATUS_TEXT_H
#define IKB_DAEMON_CONTROL_STATUS_TEXT_H

#include <stdbool.h>
#include <stddef.h>

struct ikbd;

/*
 * What `ikebana status` prints, malloc'd, *len bytes; with private_keys
 * the Child SA keys too (the caller checked that they may be shown).
 * NULL when out of memory.
 */
char *status_text(const struct ikbd *d, bool private_keys, size_t *len);

#endif
