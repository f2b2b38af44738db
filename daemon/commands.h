/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The control commands ikebanad answers: one table, one function each. */
#ifndef IKB_DAEMON_COMMANDS_H
#define IKB_DAEMON_COMMANDS_H

struct json_object;

/* A ctl_handler_fn; ctx is the struct ikbd. */
struct json_object *commands_handle(void *ctx, const char *cmd,
				    struct json_object *req);

#endif
