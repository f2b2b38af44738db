// SPDX-License-Identifier: GPL-2.0-or-later
/* The right ABI number on a descriptor of the wrong size. */
#include <stdint.h>
#include <ikebana/plugin.h>

__attribute__((visibility("default"))) const struct {
	uint32_t abi, size;
} ikb_plugin = { IKB_PLUGIN_ABI, 8 };
