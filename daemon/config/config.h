/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ikebana.conf: libreswan's ipsec.conf syntax. The parser resolves
 * include, conn %default and also= so that every consumer sees one flat
 * list of keys per conn, each still carrying the file:line it came from.
 */
#ifndef IKB_CONFIG_H
#define IKB_CONFIG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <ikebana/host.h>
#include <ikebana/plugin.h>

#include "config/setup.h"

/* The longest conn name (an instance adds #ADDRESS; ike.h has the room). */
#define CFG_CONN_NAME_MAX 63

/* leftsubnet=A,B,...: the selectors of one Child SA, at most this many */
#define IKB_CONN_NETS_MAX 8

enum cfg_kind { CFG_SETUP, CFG_CONN };

/* A resolved section; plugins see it as the opaque struct ikb_section. */
struct ikb_section {
	const char *name; /* conn name, or "setup" */
	enum cfg_kind kind;
	const char *file; /* where the section header stands */
	unsigned line;
	size_t n, cap;
	struct ikb_value *kv; /* unique keys, in first-written order */
};

struct cfg_arena;
struct cfg_index;

struct cfg {
	const char *path;	   /* the top-level file as given */
	struct ikb_section setup;  /* empty if the file has none */
	struct cfg_setup set; /* setup's core keys, typed (setup.h) */
	size_t nconns;
	struct ikb_section *conns; /* file order; %default not included */
	struct cfg_arena *arena;   /* owns every string above */
	/*
	 * The sections as written (setup, each conn %default and conn, with
	 * their also= keys), in file order: key and value checks run on these
	 * so that a key inherited by 10,000 conns is reported once.
	 */
	size_t nraw;
	struct ikb_section *raw;
	struct cfg_index *conn_index; /* conn name -> conns[i] */
	/* policy group files (groups.h), once conf_load read them */
	size_t ngroups;
	struct cfg_group *groups;
	/*
	 * A composed configuration (compose.c) points into the arenas of the
	 * configurations it was made of: it holds a reference to each.
	 */
	unsigned refs; /* 0: one owner */
	size_t nheld;
	struct cfg **held;
};

/*
 * Parse a file and everything it includes, and resolve %default and also=.
 * Returns 0, or -1 if d gained errors; *out is set either way (so a caller
 * can show a partial result) and must be freed with cfg_free().
 */
int cfg_parse_file(const char *path, struct cfg **out, struct ikb_diag *d);
void cfg_free(struct cfg *c);
/* One more owner: cfg_free() frees the configuration after the last. */
struct cfg *cfg_ref(struct cfg *c);

/*
 * A conn added, replaced or deleted by name while the daemon runs (ipsec
 * auto --add/--replace/--delete): the conn `name` as `src` resolves it,
 * or, with src NULL, no conn of that name.
 */
struct cfg_edit {
	const char *name;
	struct cfg *src;
};

/*
 * The configuration `file` with the edits applied, in order: setup and
 * %default as the file has them; a replaced conn keeps its place, an added
 * one goes last. The result holds references to file and to each src
 * (compose.c). Returns 0, or -1 when src lacks its conn (out is NULL).
 */
int cfg_compose(struct cfg *file, const struct cfg_edit *ed, size_t n,
		struct cfg **out);
/* Whether two resolved conns have the same keys with the same values. */
bool cfg_conn_same(const struct ikb_section *a, const struct ikb_section *b);
/*
 * The same from memory; `name` stands for the file in messages, and
 * include paths are relative to its directory.
 */
int cfg_parse_buffer(const char *name, const char *buf, size_t len,
		     struct cfg **out, struct ikb_diag *d);

const struct ikb_value *cfg_get(const struct ikb_section *s, const char *key);
const struct ikb_section *cfg_conn_find(const struct cfg *c, const char *name);

/* Who owns a key outside the core: the loaded plugins. */
typedef bool (*cfg_owner_fn)(void *ctx, const char *key,
			     enum ikb_key_scope scope);

/*
 * Every key must be owned by the core or a loaded plugin (else an error);
 * a key that libreswan knows but ikebana does not implement gets its
 * verdict (keys_setup.c, keys_conn.c, keys_end.c): an error, a warning
 * with the reason it is harmless, or nothing for a value that asks for
 * what ikebana does anyway.
 */
int cfg_check_keys(const struct cfg *c, cfg_owner_fn plugin_owns, void *ctx,
		   struct ikb_diag *d);
/* Validate the values of the keys the core owns (left=, auto=, ...). */
int cfg_check_core(const struct cfg *c, struct ikb_diag *d);
bool cfg_core_owns(const char *key, enum ikb_key_scope scope);
bool cfg_libreswan_knows(const char *key, enum ikb_key_scope scope);
/* leftupdown= that asks for no script: "", %disabled, no */
bool cfg_updown_off(const char *v);
/* Where updown scripts are looked for and run with: PATH, or a default */
const char *cfg_updown_path(void);

/*
 * Value syntax shared with the daemon: a libreswan duration ("90", "30s",
 * "8h", "1.5d") in milliseconds, and a yes/no spelling. Return false when
 * the text is not one.
 */
bool cfg_parse_duration_ms(const char *s, unsigned long long *ms);
/* The same where a plain number is milliseconds (libreswan's kt_milliseconds). */
bool cfg_parse_duration_ms_plain(const char *s, unsigned long long *ms);
bool cfg_parse_bool(const char *s, bool *out);
/*
 * ipsec-max-bytes= (bytes) and ipsec-max-packets=: 1 to 2^63 with
 * libreswan's binary scales, "KiB" or "Ki" and up.
 */
bool cfg_parse_count(const char *s, bool bytes, uint64_t *out);
/*
 * leftsourceip=: one address, or an IPv4 and an IPv6 one (libreswan 5).
 * out[0] the IPv4 one, out[1] the IPv6 one (family 0: none). The number
 * of addresses, or -1.
 */
int cfg_parse_sourceips(const char *v, struct ikb_addr out[2]);

/*
 * checkconfig output, file:line for each value. Every section once as
 * written, with the number of keys each conn inherits: the size of the
 * file, not conns times what they inherit. CFG_PRINT_EXPAND: every conn
 * with all its resolved values instead (large when many conns share a
 * long %default or also= chain).
 */
#define CFG_PRINT_EXPAND 1u
struct json_object;
struct json_object *cfg_to_json(const struct cfg *c, unsigned flags);
void cfg_print(const struct cfg *c, FILE *f, unsigned flags);
/* One resolved conn with every value it ends up with. */
struct json_object *cfg_conn_to_json(const struct ikb_section *s);
void cfg_print_conn(const struct ikb_section *s, FILE *f);

#endif
