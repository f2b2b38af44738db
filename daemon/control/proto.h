/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Control socket framing, shared by ikebanad and the ikebana client: each
 * message is a 4-byte big-endian length followed by that many bytes of one
 * JSON object. Requests are {"cmd":"NAME", ...}; responses are
 * {"ok":true,"data":{...}} or {"ok":false,"error":"...", ...}.
 */
#ifndef IKB_CONTROL_PROTO_H
#define IKB_CONTROL_PROTO_H

#include <stddef.h>
#include <stdint.h>

struct json_object;

#define CTL_SOCKET_NAME "ikebana.ctl"
#define CTL_HDR_LEN 4
/* A request is one small object; a status with many conns can be large. */
#define CTL_REQUEST_MAX (64u * 1024)
#define CTL_RESPONSE_MAX (16u * 1024 * 1024)

enum ctl_decode {
	CTL_DECODE_OK, /* *out holds the object */
	CTL_DECODE_NEED_MORE, /* wait for more bytes */
	CTL_DECODE_BAD_JSON, /* the frame is skipped; the stream is intact */
	CTL_DECODE_TOO_BIG, /* the stream cannot be resynchronised */
};

/* The complete frame for obj, malloc'd; NULL on allocation failure. */
uint8_t *ctl_frame_encode(struct json_object *obj, size_t max, size_t *len);

/*
 * Decode the first frame of buf. On OK and BAD_JSON, *used is the number of
 * bytes the frame took; on BAD_JSON and TOO_BIG, *why says what was wrong.
 */
enum ctl_decode ctl_frame_decode(const uint8_t *buf, size_t len, size_t max,
				 struct json_object **out, size_t *used,
				 const char **why);

/* Parse exactly len bytes as one JSON value; NULL with *why on error. */
struct json_object *ctl_json_parse(const char *s, size_t len, const char **why);

struct json_object *ctl_response_ok(struct json_object *data);
struct json_object *ctl_response_error(const char *fmt, ...)
	__attribute__((format(printf, 1, 2)));

/* "RUNDIR/ikebana.ctl" into buf; -1 (ENAMETOOLONG) if it does not fit. */
int ctl_socket_path(const char *rundir, char *buf, size_t len);

#endif
