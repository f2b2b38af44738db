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
/*
 * When enabled and not yet started (at start, or a reload turned it on):
 * log what is installed already, then each Child SA as the engine's bus
 * tells of it, whatever brought it (a datagram, a rekey timer, a helper
 * job's completion). After ikbd_engine_start(). 0 or -1.
 */
int keylog_start(struct ikbd *d);
/*
 * [{dir, src, dst, spi, reqid, alg, key, integ_alg, integ_key}]; key and
 * integ_key only when the backend keeps them (kernel-mem does).
 */
struct json_object *keylog_json(const struct ikbd *d);
void keylog_free(struct ikbd *d);

#endif
