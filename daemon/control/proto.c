// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <json-c/json.h>

#include "control/proto.h"

uint8_t *ctl_frame_encode(struct json_object *obj, size_t max, size_t *len)
{
	size_t n;
	const char *s = json_object_to_json_string_length(
		obj, JSON_C_TO_STRING_PLAIN, &n);
	uint8_t *buf;

	if (!s || n > max || n > UINT32_MAX)
		return NULL;
	buf = malloc(CTL_HDR_LEN + n);
	if (!buf)
		return NULL;
	buf[0] = (uint8_t)(n >> 24);
	buf[1] = (uint8_t)(n >> 16);
	buf[2] = (uint8_t)(n >> 8);
	buf[3] = (uint8_t)n;
	memcpy(buf + CTL_HDR_LEN, s, n);
	*len = CTL_HDR_LEN + n;
	return buf;
}

struct json_object *ctl_json_parse(const char *s, size_t len, const char **why)
{
	struct json_tokener *tok;
	struct json_object *obj;
	bool ended = false;

	if (len > INT32_MAX) {
		*why = "message too large";
		return NULL;
	}
	if (memchr(s, '\0', len)) {
		*why = "message contains a NUL byte";
		return NULL;
	}
	tok = json_tokener_new();
	if (!tok) {
		*why = strerror(ENOMEM);
		return NULL;
	}
	json_tokener_set_flags(tok, JSON_TOKENER_STRICT);
	obj = json_tokener_parse_ex(tok, s, (int)len);
	/*
	 * A number at the very end might go on ("1" could be "12"): the end
	 * of the text, given as its NUL, says it does not. Anything else
	 * that ended inside a value stays incomplete.
	 */
	if (!obj && json_tokener_get_error(tok) == json_tokener_continue) {
		obj = json_tokener_parse_ex(tok, "", 1);
		ended = true;
	}
	if (json_tokener_get_error(tok) != json_tokener_success) {
		/* the text ended inside a value */
		*why = ended || json_tokener_get_error(tok) ==
					       json_tokener_continue ?
			       "incomplete JSON" :
			       json_tokener_error_desc(
				       json_tokener_get_error(tok));
		json_object_put(obj);
		obj = NULL;
	} else if (!ended && json_tokener_get_parse_end(tok) != len) {
		*why = "trailing bytes after the JSON value";
		json_object_put(obj);
		obj = NULL;
	}
	json_tokener_free(tok);
	return obj;
}

enum ctl_decode ctl_frame_decode(const uint8_t *buf, size_t len, size_t max,
				 struct json_object **out, size_t *used,
				 const char **why)
{
	size_t n;

	*out = NULL;
	if (len < CTL_HDR_LEN)
		return CTL_DECODE_NEED_MORE;
	n = (size_t)buf[0] << 24 | (size_t)buf[1] << 16 | (size_t)buf[2] << 8 |
	    buf[3];
	if (n > max) {
		*why = "frame exceeds the maximum size";
		return CTL_DECODE_TOO_BIG;
	}
	if (len - CTL_HDR_LEN < n)
		return CTL_DECODE_NEED_MORE;
	*used = CTL_HDR_LEN + n;
	if (n == 0) {
		*why = "empty frame";
		return CTL_DECODE_BAD_JSON;
	}
	*out = ctl_json_parse((const char *)buf + CTL_HDR_LEN, n, why);
	return *out ? CTL_DECODE_OK : CTL_DECODE_BAD_JSON;
}

struct json_object *ctl_response_ok(struct json_object *data)
{
	struct json_object *r = json_object_new_object();

	json_object_object_add(r, "ok", json_object_new_boolean(1));
	json_object_object_add(r, "data",
			       data ? data : json_object_new_object());
	return r;
}

struct json_object *ctl_response_error(const char *fmt, ...)
{
	struct json_object *r = json_object_new_object();
	char buf[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	json_object_object_add(r, "ok", json_object_new_boolean(0));
	json_object_object_add(r, "error", json_object_new_string(buf));
	return r;
}

int ctl_socket_path(const char *rundir, char *buf, size_t len)
{
	int n = snprintf(buf, len, "%s/%s", rundir, CTL_SOCKET_NAME);

	if (n < 0 || (size_t)n >= len) {
		errno = ENAMETOOLONG;
		return -1;
	}
	return 0;
}
