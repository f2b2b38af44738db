// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Control-protocol frames as the server reads them from a client socket:
 * the stream decoded frame after frame, as long as it stays in sync, with
 * the request limit; each decoded object encoded again must decode to an
 * object that prints the same. The bytes are also one JSON body
 * (ctl_json_parse), as a client reads a response.
 */
#include <stdlib.h>
#include <string.h>
#include <json-c/json.h>

#include "control/proto.h"
#include "fuzz.h"

static void check(bool ok)
{
	if (!ok)
		abort(); /* the fuzzer reports this input */
}

static void round_trip(struct json_object *obj)
{
	struct json_object *again = NULL;
	const char *why = NULL;
	size_t len, used;
	uint8_t *frame = ctl_frame_encode(obj, CTL_RESPONSE_MAX, &len);

	if (!frame)
		return; /* larger than the limit: not sent */
	check(ctl_frame_decode(frame, len, CTL_RESPONSE_MAX, &again, &used,
			       &why) == CTL_DECODE_OK);
	check(used == len);
	check(!strcmp(json_object_to_json_string(obj),
		      json_object_to_json_string(again)));
	json_object_put(again);
	free(frame);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const uint8_t *p = data;
	size_t left = size;
	const char *why;

	for (;;) {
		struct json_object *obj = NULL;
		size_t used = 0;
		enum ctl_decode r = ctl_frame_decode(p, left, CTL_REQUEST_MAX,
						     &obj, &used, &why);

		if (r == CTL_DECODE_OK) {
			round_trip(obj);
			json_object_put(obj);
		}
		if (r != CTL_DECODE_OK && r != CTL_DECODE_BAD_JSON)
			break;
		check(used >= CTL_HDR_LEN && used <= left);
		p += used;
		left -= used;
	}
	json_object_put(ctl_json_parse((const char *)data, size, &why));
	return 0;
}
