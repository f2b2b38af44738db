/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Small json-c shorthands for the daemon's JSON answers (status,
 * trafficstatus, the trap list, the key log), which set many string
 * members one by one.
 */
#ifndef IKB_UTIL_JSON_H
#define IKB_UTIL_JSON_H

#include <json-c/json.h>

/* o[k] = the string v, copied; v must not be NULL. */
static inline void json_put_str(struct json_object *o, const char *k,
				const char *v)
{
	json_object_object_add(o, k, json_object_new_string(v));
}

#endif
