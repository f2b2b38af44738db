// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A plugin from another ABI: only the abi member exists, so a loader that
 * read anything past it would read beyond the symbol (ASan sees that).
 */
#include <stdint.h>

__attribute__((visibility("default"))) const struct {
	uint32_t abi;
} ikb_plugin = { 999 };
