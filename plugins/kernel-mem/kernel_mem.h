/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * kernel-mem's extra exports, for tests: they stand in for the kernel's
 * side of things. Look them up with dlsym() on the loaded module (or
 * plugin_set_symbol()); state is the plugin's state from init.
 */
#ifndef IKB_KERNEL_MEM_H
#define IKB_KERNEL_MEM_H

#include <ikebana/kernel.h>

/*
 * Deliver ev to the subscriber of events_subscribe, synchronously, as the
 * kernel would on ACQUIRE/EXPIRE/POLEXPIRE. -ENOTCONN without subscriber.
 */
#define IKB_KERNEL_MEM_INJECT "ikb_kernel_mem_inject"
typedef int (*ikb_kernel_mem_inject_fn)(void *state,
					const struct ikb_kernel_event *ev);

/*
 * Count traffic on an installed SA. Crossing a soft limit sends one soft
 * EXPIRE; crossing a hard limit sends a hard EXPIRE and deletes the SA,
 * as the kernel does. -ENOENT if there is no such SA.
 */
#define IKB_KERNEL_MEM_TRAFFIC "ikb_kernel_mem_traffic"
typedef int (*ikb_kernel_mem_traffic_fn)(void *state,
					 const struct ikb_addr *dst,
					 uint32_t spi, uint8_t proto,
					 uint64_t bytes, uint64_t packets);

#endif
