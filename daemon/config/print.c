// SPDX-License-Identifier: GPL-2.0-or-later
/* checkconfig output: the resolved sections, each value with its origin. */
#include <json-c/json.h>
#include <stdio.h>
#include <string.h>

#include "config/config.h"

static void print_section(const struct ikb_section *s, FILE *f)
{
	if (s->kind == CFG_SETUP)
		fprintf(f, "config setup\t# %s:%u\n", s->file, s->line);
	else
		fprintf(f, "conn %s\t# %s:%u\n", s->name, s->file, s->line);
	for (size_t i = 0; i < s->n; i++) {
		const struct ikb_value *v = &s->kv[i];
		bool quote = !*v->value || strpbrk(v->value, " \t#");

		fprintf(f, "\t%s=%s%s%s\t# %s:%u\n", v->key, quote ? "\"" : "",
			v->value, quote ? "\"" : "", v->file, v->line);
	}
	fputc('\n', f);
}

void cfg_print(const struct cfg *c, FILE *f)
{
	if (c->setup.file)
		print_section(&c->setup, f);
	for (size_t i = 0; i < c->nconns; i++)
		print_section(&c->conns[i], f);
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

static struct json_object *keys_json(const struct ikb_section *s)
{
	struct json_object *o = json_object_new_object();

	for (size_t i = 0; i < s->n; i++) {
		const struct ikb_value *v = &s->kv[i];

		json_object_object_add(
			o, v->key,
			located_json("value", v->value, v->file, v->line));
	}
	return o;
}

struct json_object *cfg_to_json(const struct cfg *c)
{
	struct json_object *root = json_object_new_object();
	struct json_object *conns = json_object_new_array();

	json_object_object_add(root, "setup", keys_json(&c->setup));
	for (size_t i = 0; i < c->nconns; i++) {
		const struct ikb_section *s = &c->conns[i];
		struct json_object *o =
			located_json("name", s->name, s->file, s->line);

		json_object_object_add(o, "keys", keys_json(s));
		json_object_array_add(conns, o);
	}
	json_object_object_add(root, "conns", conns);
	return root;
}
