// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The lines of `ikebana status` on how an IKE SA's peer authenticated,
 * apart so that the engine's tests render its own JSON with them.
 */
#include <stdio.h>
#include <json-c/json.h>

#include "cli/cli.h"

static const char *str(struct json_object *o, const char *key)
{
	struct json_object *v;

	if (!o || !json_object_object_get_ex(o, key, &v) || !v)
		return NULL;
	return json_object_get_string(v);
}

void status_peer_print(FILE *f, struct json_object *sa)
{
	struct json_object *pc = NULL;
	const char *how = str(sa, "peer_auth");

	if (!json_object_object_get_ex(sa, "peer_cert", &pc) ||
	    !json_object_is_type(pc, json_type_object))
		pc = NULL;
	if (!how && !pc)
		return; /* not authenticated yet */
	fprintf(f, "    peer   authenticated by %s\n", how ? how : "-");
	if (pc) {
		const char *s = str(pc, "subject"), *i = str(pc, "issuer");

		fprintf(f, "    peer   cert %s\n", s ? s : "-");
		fprintf(f, "           issued by %s\n", i ? i : "-");
	}
}
