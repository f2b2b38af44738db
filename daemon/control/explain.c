// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * explain {"conn": NAME}: what `ikebana explain` turns into a diagnosis:
 * the conn's failure records (newest first), the keys of its
 * configuration a fix would change, as written, with the file and line,
 * and how many IKE SAs it has up. The daemon gives the facts; the words
 * are the command's (daemon/cli/explain_text.c), so that a script can
 * read the same answer as JSON.
 */
#include <string.h>
#include <json-c/json.h>

#include "app/daemon.h"
#include "config/config.h"
#include "control/commands.h"
#include "control/proto.h"
#include "ike/ike.h"
#include "ike/status/ike_failure.h"

/*
 * What a fix names: the core's keys as the conn has them (also= and
 * %default included), null when not set. Not esp= or ike=: the proposals
 * plugin owns those, and the failure record has them compiled.
 */
static const char *const fix_keys[] = {
	"left",		 "right",	   "leftid",  "rightid",
	"leftsubnet",	 "rightsubnet",	   "authby",  "leftauth",
	"rightauth",	 "leftcert",	   "rightca", "type",
	"leftprotoport", "rightprotoport",
};

static struct json_object *keys_of(const struct ikb_section *s)
{
	struct json_object *o = json_object_new_object();

	for (size_t i = 0; i < sizeof(fix_keys) / sizeof(fix_keys[0]); i++) {
		const struct ikb_value *v = cfg_get(s, fix_keys[i]);

		json_object_object_add(
			o, fix_keys[i],
			v && v->value ? json_object_new_string(v->value) :
					NULL);
	}
	return o;
}

static unsigned ike_sas_up(const struct ikbd *d, const char *conn)
{
	const struct ike_sa *sa = NULL;
	struct ike_sa_info i;
	unsigned n = 0;

	while ((sa = ike_engine_next_sa(d->engine, sa))) {
		ike_sa_get_info(sa, &i);
		n += i.established && !strcmp(i.conn, conn);
	}
	return n;
}

struct json_object *cmd_explain(struct ikbd *d, struct json_object *req)
{
	struct json_object *r = NULL, *o;
	const char *conn = req_conn(req, "explain", &r);
	const struct ikb_section *s;

	if (!conn)
		return r;
	s = cfg_conn_find(d->conf.cfg, conn);
	o = json_object_new_object();
	json_object_object_add(o, "conn", json_object_new_string(conn));
	json_object_object_add(o, "file",
			       s && s->file ? json_object_new_string(s->file) :
					      NULL);
	json_object_object_add(o, "line",
			       json_object_new_int(s ? (int)s->line : 0));
	json_object_object_add(o, "keys", s ? keys_of(s) : NULL);
	json_object_object_add(o, "ike_sas_up",
			       json_object_new_int((int)ike_sas_up(d, conn)));
	json_object_object_add(o, "failures",
			       d->engine ?
				       ike_engine_failures(d->engine, conn) :
				       json_object_new_array());
	if (!s &&
	    !json_object_array_length(json_object_object_get(o, "failures"))) {
		json_object_put(o);
		return ctl_response_error(
			"explain: no conn named '%.64s' is loaded, and none of that name failed",
			conn);
	}
	return ctl_response_ok(o);
}
