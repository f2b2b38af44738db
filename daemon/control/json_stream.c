// SPDX-License-Identifier: GPL-2.0-or-later
#include <stdlib.h>
#include <json-c/json.h>

#include "control/json_stream.h"

struct stream_ctx {
	json_stream_walk_fn *walk;
	void *ctx;
	void (*ctx_free)(void *ctx);
};

struct json_stream {
	struct printbuf *pb;
	int flags;
	size_t n;
	int rc;
};

void json_stream_emit(struct json_stream *s, struct json_object *o)
{
	const char *t = "null";
	size_t len = 4;

	/* the separators json-c's own array writer puts between elements */
	if (s->n++ && printbuf_memappend(s->pb, ",", 1) < 0)
		s->rc = -1;
	if (s->flags & JSON_C_TO_STRING_PRETTY)
		printbuf_memappend(s->pb, "\n", 1);
	else if (s->flags & JSON_C_TO_STRING_SPACED)
		printbuf_memappend(s->pb, " ", 1);
	if (o)
		t = json_object_to_json_string_length(o, s->flags, &len);
	if (!t || printbuf_memappend(s->pb, t, (int)len) < 0)
		s->rc = -1;
	json_object_put(o);
}

static int stream_write(struct json_object *jso, struct printbuf *pb, int level,
			int flags)
{
	struct stream_ctx *c = json_object_get_userdata(jso);
	struct json_stream s = { .pb = pb, .flags = flags };

	printbuf_memappend(pb, "[", 1);
	c->walk(c->ctx, &s);
	if ((flags & JSON_C_TO_STRING_PRETTY) && s.n)
		printbuf_memappend(pb, "\n", 1);
	if ((flags & JSON_C_TO_STRING_SPACED) &&
	    !(flags & JSON_C_TO_STRING_PRETTY))
		printbuf_memappend(pb, " ", 1);
	if (printbuf_memappend(pb, "]", 1) < 0)
		return -1;
	return s.rc;
}

static void stream_free(struct json_object *jso, void *userdata)
{
	struct stream_ctx *c = userdata;

	if (c->ctx_free)
		c->ctx_free(c->ctx);
	free(c);
}

struct json_object *json_stream_array(json_stream_walk_fn *walk, void *ctx,
				      void (*ctx_free)(void *ctx))
{
	struct json_object *a = json_object_new_array();
	struct stream_ctx *c = malloc(sizeof(*c));

	if (!a || !c) {
		json_object_put(a);
		free(c);
		if (ctx_free)
			ctx_free(ctx);
		return NULL;
	}
	*c = (struct stream_ctx){ walk, ctx, ctx_free };
	json_object_set_serializer(a, stream_write, c, stream_free);
	return a;
}
