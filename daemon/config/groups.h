/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Policy groups of opportunistic encryption, as libreswan's: the networks
 * listed in IPSECDIR/policies/NAME for the conn NAME whose right= (or
 * left=) is %group or %opportunisticgroup. IPSECDIR is ipsecdir= of
 * config setup, else the directory ipsec.d beside the configuration file
 * (/etc/ipsec.d for /etc/ipsec.conf, libreswan's own layout).
 */
#ifndef IKB_CONFIG_GROUPS_H
#define IKB_CONFIG_GROUPS_H

#include <stdbool.h>
#include <stddef.h>
#include <ikebana/types.h>

struct cfg;
struct ikb_diag;

struct cfg_group_net {
	struct ikb_addr a;
	uint8_t plen;
	unsigned line;
};

struct cfg_group {
	const char *conn; /* the conn's name */
	const char *file; /* where its networks were looked for */
	size_t n;
	struct cfg_group_net *nets; /* in file order */
};

/* %group, %opportunisticgroup, %oppogroup. */
bool cfg_host_is_group(const char *v);
/* Those, and %opportunistic, %oppo: a destination from traffic. */
bool cfg_host_is_oppo(const char *v);
/* The group files of c's conns, into c; 0, or -1 with errors in d. */
int cfg_groups_load(struct cfg *c, struct ikb_diag *d);
/* Whether a lies in net/plen (same family). */
bool cfg_prefix_has(const struct ikb_addr *net, uint8_t plen,
		    const struct ikb_addr *a);
/* ADDRESS[/PREFIX] into a and plen (host bits allowed): false if not. */
bool cfg_parse_net(const char *t, struct ikb_addr *a, uint8_t *plen);
/* Whether a lies in one of g's networks. */
bool cfg_group_has(const struct cfg_group *g, const struct ikb_addr *a);
/*
 * An instance's name GROUP#ADDRESS split into group[len] and a; false:
 * not such a name.
 */
bool cfg_inst_name_split(const char *name, char *group, size_t len,
			 struct ikb_addr *a);
/* conn's group, or NULL (no group host, or no file). */
const struct cfg_group *cfg_group_find(const struct cfg *c, const char *conn);

#endif
