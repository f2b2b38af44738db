/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * interface-ip=: an address with its prefix on an ipsecN device, through
 * rtnetlink, as `ip addr add A/PLEN dev ipsecN` would.
 */
#ifndef IKB_NET_IFIP_H
#define IKB_NET_IFIP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <ikebana/types.h>

/*
 * Adds a/plen to the device name: 0 with *added true; 0 with *added false
 * when the device had it already (never ours to remove); -errno with err.
 */
int ifip_add(const char *name, const struct ikb_addr *a, uint8_t plen,
	     bool *added, char *err, size_t len);
/* Removes it: 0 (also when it or the device is gone), or -errno with err. */
int ifip_del(const char *name, const struct ikb_addr *a, uint8_t plen,
	     char *err, size_t len);

#endif
