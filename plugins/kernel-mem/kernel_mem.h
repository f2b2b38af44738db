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

/*
 * How many larval SAs (spi_alloc without sa_update) there are; dump()
 * leaves them out.
 */
#define IKB_KERNEL_MEM_LARVAL "ikb_kernel_mem_larval"
typedef unsigned (*ikb_kernel_mem_larval_fn)(void *state);

/*
 * Refuse as a kernel would, to test what a backend failure leaves behind:
 * after `after` more successful calls of op ("spi_alloc", "sa_add",
 * "sa_update" or "policy_add"), every call of op fails with -errnum and
 * msg, e.g. ENOSYS and "Requested AEAD algorithm not found", what Linux
 * says for an algorithm whose module it cannot load. msg NULL: op works
 * again. -EINVAL for an unknown op.
 */
#define IKB_KERNEL_MEM_REFUSE "ikb_kernel_mem_refuse"
typedef int (*ikb_kernel_mem_refuse_fn)(void *state, const char *op,
					unsigned after, int errnum,
					const char *msg);

#endif
