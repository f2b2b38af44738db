/* SPDX-License-Identifier: GPL-2.0-or-later */
/* esp-proposals unit tests: one group per file, run from main.c. */
#ifndef EPR_TESTS_H
#define EPR_TESTS_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "esp_proposals.h"

int epr_test_parse(void);
int epr_test_select(void);
int epr_test_kernel(void);
int epr_test_check(void);

#endif
