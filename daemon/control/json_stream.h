/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * An array whose elements are made while it is serialised, one at a time:
 * each element is built, written to the output and freed before the next
 * exists. With 10,000 IKE SAs, building the whole status tree first and
 * freeing it after the answer cost the daemon more than writing it did
 * (malloc_consolidate and unlink_chunk led the profile); one element at a
 * time reuses the same freed memory while it is hot.
 *
 * The text is the same as json-c writes for an array of the same elements
 * in JSON_C_TO_STRING_PLAIN, which is what ctl_frame_encode() uses. With
 * other flags the elements are written with those flags but indented as
 * if at the top level: valid JSON, though not json-c's exact layout.
 */
#ifndef IKB_DAEMON_CONTROL_JSON_STREAM_H
#define IKB_DAEMON_CONTROL_JSON_STREAM_H

struct json_object;
struct json_stream;

/* Writes o, an element the walk made, and puts it; o NULL writes null. */
void json_stream_emit(struct json_stream *s, struct json_object *o);

/* Makes the elements in order, passing each to json_stream_emit(). */
typedef void json_stream_walk_fn(void *ctx, struct json_stream *s);

/*
 * A json array (empty to json_object_array_length(): its elements exist
 * only while it is written) whose text is what walk emits, each time it
 * is serialised. ctx must stay valid until then; ctx_free, if not NULL,
 * is called with it when the array is freed.
 */
struct json_object *json_stream_array(json_stream_walk_fn *walk, void *ctx,
				      void (*ctx_free)(void *ctx));

#endif
