// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The daemon stays uid 0 and keeps only two capabilities:
 * - CAP_NET_ADMIN: XFRM netlink (SAs, policies) requires it;
 * - CAP_NET_BIND_SERVICE: IKE listens on UDP 500 and 4500.
 * It stays uid 0 rather than switching to a service user because a reload
 * re-reads ikebana.secrets, which is root-owned and 0600 (the daemon
 * refuses anything looser): as the file's owner, uid 0 reads it without
 * CAP_DAC_OVERRIDE. The same holds for the root-owned rundir (pid file,
 * control socket removal at exit). Clearing the bounding set means no
 * exec'd program can regain what was dropped, even as root.
 */
#include <unistd.h>
#include <cap-ng.h>
#include <linux/capability.h>

#include "log/log.h"
#include "service/caps.h"

int caps_drop(void)
{
	if (geteuid() != 0) {
		log_notice("not running as root: keeping the capabilities "
			   "we were given");
		return 0;
	}
	capng_clear(CAPNG_SELECT_ALL);
	if (capng_updatev(CAPNG_ADD,
			  CAPNG_EFFECTIVE | CAPNG_PERMITTED |
				  CAPNG_BOUNDING_SET,
			  CAP_NET_ADMIN, CAP_NET_BIND_SERVICE, -1) < 0 ||
	    capng_apply(CAPNG_SELECT_ALL) < 0) {
		log_err("cannot drop capabilities (libcap-ng)");
		return -1;
	}
	log_debug("capabilities: only cap_net_admin and cap_net_bind_service "
		  "remain");
	return 0;
}
