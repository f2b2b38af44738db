// SPDX-License-Identifier: GPL-2.0-or-later
/* PR_SET_DUMPABLE (nodump.h). */
#include <errno.h>
#include <string.h>
#include <sys/prctl.h>

#include "log/log.h"
#include "service/nodump.h"

int nodump_set(void)
{
	if (prctl(PR_SET_DUMPABLE, 0, 0, 0, 0)) {
		log_err("cannot make the daemon undumpable (PR_SET_DUMPABLE): %s",
			strerror(errno));
		return -1;
	}
	return 0;
}
