/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Secret material for interop proofs, and only on request: with
 * --debug-private or plutodebug=private (libreswan's flag for logging
 * secrets), each Child SA the kernel backend installed is logged with its
 * SPI and KEYMAT at debug level, and `status --private` shows the same.
 * The keys come from the kernel backend's dump(), which holds what was
 * installed: the engine keeps no copy (it wipes its own after install).
 */
#ifndef IKB_DAEMON_KEYLOG_H
#define IKB_DAEMON_KEYLOG_H

#include <stdbool.h>

struct ikbd;
struct json_object;

bool keylog_enabled(const struct ikbd *d);
/* Log the SAs not logged before; a no-op unless enabled. */
void keylog_scan(struct ikbd *d);
/*
 * Also scan once a second: Child SAs installed from a timer or a helper
 * job's completion (rekeys) come between the events that scan. 0 or -1.
 */
int keylog_start(struct ikbd *d);
/*
 * [{dir, src, dst, spi, reqid, alg, key, integ_alg, integ_key}]; key and
 * integ_key only when the backend keeps them (kernel-mem does).
 */
struct json_object *keylog_json(const struct ikbd *d);
void keylog_free(struct ikbd *d);

#endif
