/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What the value checks (values*.c) share. */
#ifndef IKB_CONFIG_VALUES_H
#define IKB_CONFIG_VALUES_H

#include <stdbool.h>
#include <stdio.h>

/* Says what was expected in the caller's why and fails the check. */
#define FAIL(...)                                \
	do {                                     \
		snprintf(why, len, __VA_ARGS__); \
		return false;                    \
	} while (0)

/* v is one of names (a NULL-terminated list), ignoring case. */
bool values_one_of(const char *v, const char *const *names);
/* A decimal number 0..max, digits only. */
bool values_number(const char *s, unsigned long max, unsigned long *out);

#endif
