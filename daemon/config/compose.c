// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The running configuration when conns were added, replaced or deleted by
 * name (ipsec auto --add, --replace, --delete): the file's, with each
 * edit applied. Nothing is copied but the section headers: the keys stay
 * in the arenas they were parsed into, which the result holds.
 *
 * The checks run on the sections as written (cfg->raw), so that a key
 * inherited by many conns is reported once. An edited conn's written
 * sections are in another file, or on standard input: the result lists
 * its resolved section instead, so that its errors name that conn.
 */
#include <stdlib.h>
#include <string.h>

#include "config/internal.h"

/* The last edit of name, or NULL. */
static const struct cfg_edit *edit_of(const struct cfg_edit *ed, size_t n,
				      const char *name)
{
	for (size_t i = n; i-- > 0;)
		if (!strcmp(ed[i].name, name))
			return &ed[i];
	return NULL;
}

/* Whether ed[i] is the last edit of its name (earlier ones are undone). */
static bool last_edit(const struct cfg_edit *ed, size_t n, size_t i)
{
	return edit_of(ed, n, ed[i].name) == &ed[i];
}

static bool hold(struct cfg *c, struct cfg *src)
{
	struct cfg **v = realloc(c->held, (c->nheld + 1) * sizeof(*v));

	if (!v)
		return false;
	c->held = v;
	c->held[c->nheld++] = cfg_ref(src);
	return true;
}

/* The file's conns, each replaced or left out as its last edit says. */
static void take_file_conns(struct cfg *c, const struct cfg *file,
			    const struct cfg_edit *ed, size_t n)
{
	for (size_t i = 0; i < file->nconns; i++) {
		const struct cfg_edit *e = edit_of(ed, n, file->conns[i].name);

		if (!e)
			c->conns[c->nconns++] = file->conns[i];
		else if (e->src)
			c->conns[c->nconns++] =
				*cfg_conn_find(e->src, e->name);
	}
}

static void take_new_conns(struct cfg *c, const struct cfg *file,
			   const struct cfg_edit *ed, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (ed[i].src && last_edit(ed, n, i) &&
		    !cfg_conn_find(file, ed[i].name))
			c->conns[c->nconns++] =
				*cfg_conn_find(ed[i].src, ed[i].name);
}

/* The file's written sections but those of edited conns, then theirs. */
static void take_raw(struct cfg *c, const struct cfg *file,
		     const struct cfg_edit *ed, size_t n)
{
	for (size_t i = 0; i < file->nraw; i++) {
		const struct ikb_section *s = &file->raw[i];

		if (s->kind == CFG_CONN && edit_of(ed, n, s->name))
			continue;
		c->raw[c->nraw++] = *s;
	}
	for (size_t i = 0; i < n; i++)
		if (ed[i].src && last_edit(ed, n, i))
			c->raw[c->nraw++] = *cfg_conn_find(ed[i].src, ed[i].name);
}

static bool sources_ok(const struct cfg_edit *ed, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (ed[i].src && !cfg_conn_find(ed[i].src, ed[i].name))
			return false;
	return true;
}

int cfg_compose(struct cfg *file, const struct cfg_edit *ed, size_t n,
		struct cfg **out)
{
	struct cfg *c;
	bool ok;

	*out = NULL;
	if (!sources_ok(ed, n) || !(c = calloc(1, sizeof(*c))))
		return -1;
	c->arena = arena_new();
	c->path = file->path;
	c->setup = file->setup;
	c->set = file->set;
	c->conns = arena_alloc(c->arena, (file->nconns + n + 1) *
						 sizeof(*c->conns));
	c->raw = arena_alloc(c->arena,
			     (file->nraw + n + 1) * sizeof(*c->raw));
	take_file_conns(c, file, ed, n);
	take_new_conns(c, file, ed, n);
	take_raw(c, file, ed, n);
	c->conn_index = cfg_index_build(c->arena, c->conns, c->nconns);
	ok = hold(c, file);
	for (size_t i = 0; ok && i < n; i++)
		if (ed[i].src)
			ok = hold(c, ed[i].src);
	if (!ok) {
		cfg_free(c);
		return -1;
	}
	*out = c;
	return 0;
}

static bool has_value(const struct ikb_section *s, const struct ikb_value *v)
{
	const struct ikb_value *w = cfg_get(s, v->key);

	return w && !strcmp(w->value, v->value);
}

bool cfg_conn_same(const struct ikb_section *a, const struct ikb_section *b)
{
	if (!a || !b || a->n != b->n)
		return false;
	for (size_t i = 0; i < a->n; i++)
		if (!has_value(b, &a->kv[i]))
			return false;
	return true;
}
