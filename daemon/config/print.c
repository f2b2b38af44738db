// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * checkconfig output, each value with its origin. By default every section
 * once, as written (config setup, each conn %default, each conn with its
 * also= keys), and for a conn the number of keys it inherits: the output
 * grows with the file. Expanded (CFG_PRINT_EXPAND, or one conn), a conn
 * lists every value it ends up with, wherever it was written: that is
 * conns times what they inherit (issue 19: 13 GB for a 1.9 MB file).
 */
#include <json-c/json.h>
#include <stdio.h>
#include <string.h>

#include "config/config.h"

static void print_header(const struct ikb_section *s, FILE *f)
{
	if (s->kind == CFG_SETUP)
		fprintf(f, "config setup\t# %s:%u\n", s->file, s->line);
	else
		fprintf(f, "conn %s\t# %s:%u\n", s->name, s->file, s->line);
}

static void print_values(const struct ikb_section *s, FILE *f)
{
	for (size_t i = 0; i < s->n; i++) {
		const struct ikb_value *v = &s->kv[i];
		bool quote = !*v->value || strpbrk(v->value, " \t#");

		fprintf(f, "\t%s=%s%s%s\t# %s:%u\n", v->key, quote ? "\"" : "",
			v->value, quote ? "\"" : "", v->file, v->line);
	}
}

void cfg_print_conn(const struct ikb_section *s, FILE *f)
{
	print_header(s, f);
	print_values(s, f);
	fputc('\n', f);
}

/*
 * What a conn inherits: its resolved keys less those written in its own
 * section, which come first (resolve.c) and stand within its lines.
 */
static size_t inherited(const struct ikb_section *s,
			const struct ikb_section *conn)
{
	unsigned last = s->line;
	size_t own = 0;

	for (size_t i = 0; i < s->n; i++)
		if (s->kv[i].line > last)
			last = s->kv[i].line;
	while (own < conn->n && conn->kv[own].file == s->file &&
	       conn->kv[own].line >= s->line && conn->kv[own].line <= last)
		own++;
	return conn->n - own;
}

/*
 * Walks the sections as written beside the resolved conns, which are in
 * the same order (resolve.c: %default and second definitions left out).
 * Each callback gets the written section and its resolved conn, or NULL.
 */
typedef void (*written_fn)(const struct ikb_section *raw,
			   const struct ikb_section *conn, void *ctx);

static void each_written(const struct cfg *c, written_fn fn, void *ctx)
{
	size_t j = 0;

	for (size_t i = 0; i < c->nraw; i++) {
		const struct ikb_section *s = &c->raw[i], *conn = NULL;

		if (s->kind == CFG_SETUP)
			continue;
		if (j < c->nconns && c->conns[j].file == s->file &&
		    c->conns[j].line == s->line &&
		    !strcmp(c->conns[j].name, s->name))
			conn = &c->conns[j++];
		fn(s, conn, ctx);
	}
}

static void print_written(const struct ikb_section *s,
			  const struct ikb_section *conn, void *ctx)
{
	FILE *f = ctx;
	size_t n = conn ? inherited(s, conn) : 0;

	print_header(s, f);
	print_values(s, f);
	if (n)
		fprintf(f, "\t# and %zu inherited (--conn %s lists them)\n", n,
			s->name);
	fputc('\n', f);
}

void cfg_print(const struct cfg *c, FILE *f, unsigned flags)
{
	if (c->setup.file)
		cfg_print_conn(&c->setup, f);
	if (!(flags & CFG_PRINT_EXPAND)) {
		each_written(c, print_written, f);
		return;
	}
	for (size_t i = 0; i < c->nconns; i++)
		cfg_print_conn(&c->conns[i], f);
}

/* { key: text, "file": file, "line": line } */
static struct json_object *located_json(const char *key, const char *text,
					const char *file, unsigned line)
{
	struct json_object *o = json_object_new_object();

	json_object_object_add(o, key, json_object_new_string(text));
	json_object_object_add(o, "file", json_object_new_string(file));
	json_object_object_add(o, "line", json_object_new_int64(line));
	return o;
}

/* The keys but also=, which may be there more than once: an array. */
static struct json_object *keys_json(const struct ikb_section *s,
				     struct json_object **also)
{
	struct json_object *o = json_object_new_object();

	for (size_t i = 0; i < s->n; i++) {
		const struct ikb_value *v = &s->kv[i];
		struct json_object *j =
			located_json("value", v->value, v->file, v->line);

		if (!also || strcmp(v->key, "also")) {
			json_object_object_add(o, v->key, j);
			continue;
		}
		if (!*also)
			*also = json_object_new_array();
		json_object_array_add(*also, j);
	}
	return o;
}

struct json_object *cfg_conn_to_json(const struct ikb_section *s)
{
	struct json_object *o = located_json("name", s->name, s->file, s->line);

	json_object_object_add(o, "keys", keys_json(s, NULL));
	return o;
}

struct written_json {
	struct json_object *defaults, *conns;
};

static void json_written(const struct ikb_section *s,
			 const struct ikb_section *conn, void *ctx)
{
	struct written_json *w = ctx;
	struct json_object *o, *also = NULL;
	size_t n;

	if (!strcmp(s->name, "%default")) {
		o = json_object_new_object();
		json_object_object_add(o, "file",
				       json_object_new_string(s->file));
		json_object_object_add(o, "line",
				       json_object_new_int64(s->line));
		json_object_object_add(o, "keys", keys_json(s, NULL));
		json_object_array_add(w->defaults, o);
		return;
	}
	if (!conn) /* a second definition: an error, already said */
		return;
	o = located_json("name", s->name, s->file, s->line);
	json_object_object_add(o, "keys", keys_json(s, &also));
	if (also)
		json_object_object_add(o, "also", also);
	n = inherited(s, conn);
	if (n)
		json_object_object_add(o, "inherited",
				       json_object_new_int64((int64_t)n));
	json_object_array_add(w->conns, o);
}

struct json_object *cfg_to_json(const struct cfg *c, unsigned flags)
{
	struct json_object *root = json_object_new_object();
	struct written_json w = { .conns = json_object_new_array() };

	json_object_object_add(root, "setup", keys_json(&c->setup, NULL));
	/* what the daemon runs with: every core key, defaults included */
	json_object_object_add(root, "setup_values",
			       cfg_setup_to_json(&c->set));
	if (flags & CFG_PRINT_EXPAND) {
		for (size_t i = 0; i < c->nconns; i++)
			json_object_array_add(w.conns,
					      cfg_conn_to_json(&c->conns[i]));
	} else {
		w.defaults = json_object_new_array();
		each_written(c, json_written, &w);
		if (json_object_array_length(w.defaults))
			json_object_object_add(root, "defaults", w.defaults);
		else
			json_object_put(w.defaults);
	}
	json_object_object_add(root, "conns", w.conns);
	return root;
}
