// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Per-end conn keys (left..., right...): ikebana's verdict on each one
 * libreswan knows, written once without left/right.
 */
#include <stddef.h>

#include "config/internal.h"
#include "config/keys_reasons.h"

const struct cfg_rule cfg_end_rules[] = {
	/* left=, right=: addresses, names, %defaultroute (ike/conn/host.c) */
	{ "", CORE, NULL, "192.0.2.7", NULL },
	{ "addresspool", ERROR, NULL, "10.9.0.1-10.9.0.99",
	  "the IKEv2 Configuration Payload is not implemented by ikebana yet: a client would get no address from the pool and no policy would cover it; give each client its own conn with its address in rightsubnet=" },
	{ "auth", CORE, NULL, "rsasig", NULL },
	{ "autheap", NONE, when_none, "none", NULL },
	{ "autheap", ERROR, NULL, "tls",
	  "EAP is not implemented by ikebana yet: the peer would authenticate with the pre-shared key alone, without EAP; remove the key" },
	{ "ca", CORE, NULL, "%same", NULL },
	{ "cat", NONE, when_off, "no", NULL },
	{ "cat", WARN, NULL, "yes",
	  "only for addresses from addresspool= or modecfgclient=, which are errors" },
	{ "cert", CORE, NULL, "west", NULL },
	{ "ckaid", CORE, NULL, "0123abcd", NULL },
	{ "ecdsakey", ERROR, NULL, "0sAQO...", R_CERT },
	{ "groundhog", WARN, NULL, "yes",
	  "libreswan's test suite only: no effect on what is negotiated" },
	{ "id", CORE, NULL, "@west", NULL },
	{ "ikeport", CORE, NULL, "500", NULL },
	{ "interface-ip", CORE, NULL, "192.0.2.99/24", NULL },
	{ "modecfgclient", NONE, when_off, "no", NULL },
	{ "modecfgclient", ERROR, NULL, "yes", R_MODECFG },
	{ "modecfgserver", NONE, when_off, "no", NULL },
	{ "modecfgserver", ERROR, NULL, "yes", R_MODECFG },
	{ "nexthop", WARN, when_nexthop_addr, "192.0.2.254",
	  "ikebana installs no routes: the kernel's routing table picks the next hop; ignored" },
	{ "nexthop", CORE, NULL, "%direct", NULL },
	{ "protoport", CORE, NULL, "tcp/22", NULL },
	{ "pubkey", ERROR, NULL, "0sAQO...", R_CERT },
	{ "rsasigkey", CORE, NULL, "0sAwEAAcM", NULL },
	{ "rsasigkey2", ERROR, NULL, "0sAQO...", R_CERT },
	{ "sendcert", CORE, NULL, "always", NULL },
	{ "sourceip", CORE, NULL, "10.0.1.1", NULL },
	{ "subnet", CORE, NULL, "10.0.1.0/24", NULL },
	/* plugins/multi-sa: one Child SA per pair of subnets */
	{ "subnets", ERROR, NULL, "10.0.1.0/24",
	  "needs the multi-sa plugin, which plugins= does not load: without it the conn would come up host to host and the subnets' traffic would go out in clear; load multi-sa, or write one conn per subnet pair with leftsubnet= and rightsubnet=" },
	{ "updown", CORE, NULL, "/bin/true", NULL },
	{ "username", WARN, NULL, "alice", R_XAUTH },
	{ "vti", ERROR, NULL, "10.9.9.1/30", R_VTI },
	{ "xauthclient", WARN, NULL, "yes", R_XAUTH },
	{ "xauthserver", WARN, NULL, "yes", R_XAUTH },
	{ "xauthusername", WARN, NULL, "alice", R_XAUTH },
	{ NULL, 0, NULL, NULL, NULL },
};

const size_t cfg_end_nrules =
	sizeof(cfg_end_rules) / sizeof(cfg_end_rules[0]) - 1;
