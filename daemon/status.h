/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What `ikebana status` shows, as JSON. */
#ifndef IKB_DAEMON_STATUS_H
#define IKB_DAEMON_STATUS_H

struct ikbd;
struct json_object;

struct json_object *status_json(const struct ikbd *d);

#endif
