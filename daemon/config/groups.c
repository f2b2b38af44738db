// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libreswan's policy group files (groups.h): IPSECDIR/policies/NAME for
 * each conn NAME whose left= or right= is %group or %opportunisticgroup.
 * One address or CIDR per line, # to the end of a line is a comment. A
 * missing file is an empty group, as libreswan has it (its packages ship
 * the five files with comments only); a line that is not a network is an
 * error with the file's name and the line, and the configuration does not
 * load: a destination dropped from "private" would otherwise go in clear.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>
#include <sys/stat.h>

#include "config/arena.h"
#include "config/config.h"
#include "config/diag.h"
#include "config/groups.h"
#include "config/internal.h"
#include "config/readfile.h"

/* A file of 1,000,000 lines is a mistake, not a policy. */
#define GROUP_LINES_MAX 65536

bool cfg_host_is_group(const char *v)
{
	static const char *const words[] = { "%opportunisticgroup",
					     "%oppogroup", "%group", NULL };

	for (unsigned i = 0; v && words[i]; i++)
		if (!strcasecmp(v, words[i]))
			return true;
	return false;
}

bool cfg_host_is_oppo(const char *v)
{
	return v && (!strcasecmp(v, "%opportunistic") ||
		     !strcasecmp(v, "%oppo") || cfg_host_is_group(v));
}

/*
 * Whose group file: ipsecdir= as libreswan, else ipsec.d beside c. A
 * relative ipsecdir= is from the directory of the file that sets it, as
 * a relative include is: the daemon's working directory is /.
 */
static void policies_dir(const struct cfg *c, char *out, size_t len)
{
	const struct ikb_value *v = c->set.ipsecdir;
	const char *slash = c->path ? strrchr(c->path, '/') : NULL;
	const char *vslash = v && v->file ? strrchr(v->file, '/') : NULL;

	if (v && v->value[0] != '/' && vslash)
		snprintf(out, len, "%.*s/%s/policies", (int)(vslash - v->file),
			 v->file, v->value);
	else if (v)
		snprintf(out, len, "%s/policies", v->value);
	else if (slash)
		snprintf(out, len, "%.*s/ipsec.d/policies",
			 (int)(slash - c->path), c->path);
	else
		snprintf(out, len, "ipsec.d/policies");
}

static bool parse_net(char *t, struct cfg_group_net *n)
{
	char *slash = strchr(t, '/');
	unsigned long plen;
	char *end;

	if (slash)
		*slash = '\0';
	memset(&n->a, 0, sizeof(n->a));
	if (inet_pton(AF_INET, t, n->a.bytes) == 1)
		n->a.family = AF_INET;
	else if (inet_pton(AF_INET6, t, n->a.bytes) == 1)
		n->a.family = AF_INET6;
	else
		return false;
	n->plen = n->a.family == AF_INET ? 32 : 128;
	if (!slash)
		return true;
	plen = strtoul(slash + 1, &end, 10);
	*slash = '/';
	if (*end || end == slash + 1 || plen > n->plen)
		return false;
	n->plen = (uint8_t)plen;
	return true;
}

bool cfg_parse_net(const char *t, struct ikb_addr *a, uint8_t *plen)
{
	struct cfg_group_net n;
	char buf[64];

	if (snprintf(buf, sizeof(buf), "%s", t) >= (int)sizeof(buf) ||
	    !parse_net(buf, &n))
		return false;
	*a = n.a;
	*plen = n.plen;
	return true;
}

/* The line's word, comment and blanks gone; NULL: nothing on it. */
static char *line_word(char *line, char **rest)
{
	char *hash = strchr(line, '#');
	char *t;

	if (hash)
		*hash = '\0';
	t = line + strspn(line, " \t\r\n");
	*rest = t + strcspn(t, " \t\r\n");
	if (!*t)
		return NULL;
	if (**rest)
		*(*rest)++ = '\0';
	*rest += strspn(*rest, " \t\r\n");
	(*rest)[strcspn(*rest, "\r\n")] = '\0';
	return t;
}

static int read_line(struct cfg *c, struct cfg_group *g, char *line,
		     unsigned lineno, size_t *cap, struct ikb_diag *d)
{
	char why[160], *rest, *t = line_word(line, &rest);
	struct cfg_group_net n;

	if (!t)
		return 0;
	if (*rest) {
		diag_at(d, IKB_SEV_ERROR, g->file, lineno,
			"policy group %s: \"%s\" after %s: one network per line",
			g->conn, rest, t);
		return -1;
	}
	if (!parse_net(t, &n) || !check_subnet(t, why, sizeof(why))) {
		if (parse_net(t, &n))
			diag_at(d, IKB_SEV_ERROR, g->file, lineno,
				"policy group %s: %s: %s", g->conn, t, why);
		else
			diag_at(d, IKB_SEV_ERROR, g->file, lineno,
				"policy group %s: %s: expected an address or ADDRESS/PREFIX, e.g. 192.0.2.0/24",
				g->conn, t);
		return -1;
	}
	if (g->n == GROUP_LINES_MAX) {
		diag_at(d, IKB_SEV_ERROR, g->file, lineno,
			"policy group %s: more than %u networks", g->conn,
			GROUP_LINES_MAX);
		return -1;
	}
	if (g->n == *cap) {
		size_t more = *cap ? *cap * 2 : 16;

		g->nets = arena_grow(c->arena, g->nets,
				     *cap * sizeof(g->nets[0]),
				     more * sizeof(g->nets[0]));
		*cap = more;
	}
	n.line = lineno;
	g->nets[g->n++] = n;
	return 0;
}

static int read_group(struct cfg *c, struct cfg_group *g, struct ikb_diag *d,
		      const struct ikb_value *at)
{
	char line[512];
	unsigned lineno = 0;
	size_t cap = 0;
	int rc = 0;
	const char *why;
	struct stat st;
	/* never blocks on a FIFO, refuses what is no regular file */
	int fd = cfg_open_regular(g->file, &st, &why);
	FILE *f = fd >= 0 ? fdopen(fd, "r") : NULL;

	if (fd < 0 && errno == ENOENT)
		return 0;
	if (!f) {
		diag_at(d, IKB_SEV_ERROR, at->file, at->line,
			"%s=%s: policy group file %s: %s", at->key, at->value,
			g->file, fd < 0 ? why : strerror(errno));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	while (fgets(line, sizeof(line), f)) {
		lineno++;
		if (!strchr(line, '\n') && !feof(f)) {
			diag_at(d, IKB_SEV_ERROR, g->file, lineno,
				"policy group %s: the line is longer than %zu characters",
				g->conn, sizeof(line) - 2);
			rc = -1;
			break;
		}
		if (read_line(c, g, line, lineno, &cap, d))
			rc = -1;
	}
	if (ferror(f)) {
		diag_at(d, IKB_SEV_ERROR, at->file, at->line,
			"%s=%s: policy group file %s: read error after line %u",
			at->key, at->value, g->file, lineno);
		rc = -1;
	}
	fclose(f);
	return rc;
}

/* The end of s whose host is a group, or NULL. */
static const struct ikb_value *group_end(const struct ikb_section *s)
{
	const struct ikb_value *l = cfg_get(s, "left"), *r = cfg_get(s, "right");

	if (r && cfg_host_is_group(r->value))
		return r;
	return l && cfg_host_is_group(l->value) ? l : NULL;
}

/* The family of s's other end (this host's), 0: not known from text. */
static int local_family(const struct ikb_section *s,
			const struct ikb_value *group)
{
	const struct ikb_value *o =
		cfg_get(s, strcmp(group->key, "right") ? "right" : "left");
	const struct ikb_value *hf = cfg_get(s, "hostaddrfamily");

	if (hf)
		return strcasecmp(hf->value, "ipv6") ? AF_INET : AF_INET6;
	if (!o)
		return 0;
	if (addr_family(o->value))
		return addr_family(o->value);
	if (!strcasecmp(o->value, "%defaultroute6") ||
	    !strcasecmp(o->value, "%any6"))
		return AF_INET6;
	if (!strcasecmp(o->value, "%defaultroute") ||
	    !strcasecmp(o->value, "%defaultroute4") ||
	    !strcasecmp(o->value, "%any4"))
		return AF_INET;
	return 0;
}

/*
 * A network of the other family than the conn's: no trap covers it and
 * no peer there is taken, as in libreswan, but said rather than silent.
 */
static void warn_family(const struct ikb_section *s,
			const struct ikb_value *at, const struct cfg_group *g,
			struct ikb_diag *d)
{
	int fam = local_family(s, at);
	char t[64];

	for (size_t i = 0; fam && i < g->n; i++) {
		if (g->nets[i].a.family == fam)
			continue;
		inet_ntop(g->nets[i].a.family, g->nets[i].a.bytes, t,
			  sizeof(t));
		diag_at(d, IKB_SEV_WARNING, g->file, g->nets[i].line,
			"policy group %s: %s/%u is IPv%d, and conn %s is IPv%d: no trap covers it and no peer there is accepted; write a conn of the other family for it",
			g->conn, t, g->nets[i].plen,
			g->nets[i].a.family == AF_INET6 ? 6 : 4, g->conn,
			fam == AF_INET6 ? 6 : 4);
	}
}

int cfg_groups_load(struct cfg *c, struct ikb_diag *d)
{
	char dir[PATH_MAX - 256], path[PATH_MAX];
	int rc = 0;

	policies_dir(c, dir, sizeof(dir));
	c->ngroups = 0;
	for (size_t i = 0; i < c->nconns; i++)
		c->ngroups += group_end(&c->conns[i]) != NULL;
	c->groups = c->ngroups ? arena_alloc(c->arena, c->ngroups *
							       sizeof(c->groups[0])) :
				 NULL;
	for (size_t i = 0, k = 0; i < c->nconns; i++) {
		const struct ikb_value *at = group_end(&c->conns[i]);
		struct cfg_group *g;

		if (!at)
			continue;
		g = &c->groups[k++];
		memset(g, 0, sizeof(*g));
		g->conn = c->conns[i].name;
		snprintf(path, sizeof(path), "%s/%s", dir, g->conn);
		g->file = arena_strdup(c->arena, path);
		if (read_group(c, g, d, at))
			rc = -1;
		else
			warn_family(&c->conns[i], at, g, d);
	}
	return rc;
}

const struct cfg_group *cfg_group_find(const struct cfg *c, const char *conn)
{
	for (size_t i = 0; c && i < c->ngroups; i++)
		if (!strcmp(c->groups[i].conn, conn))
			return &c->groups[i];
	return NULL;
}

bool cfg_prefix_has(const struct ikb_addr *net, uint8_t plen,
		    const struct ikb_addr *a)
{
	unsigned full = plen / 8, rest = plen % 8;

	if (net->family != a->family)
		return false;
	if (memcmp(net->bytes, a->bytes, full))
		return false;
	return !rest || !((net->bytes[full] ^ a->bytes[full]) &
			  (uint8_t)(0xff << (8 - rest)));
}

bool cfg_group_has(const struct cfg_group *g, const struct ikb_addr *a)
{
	for (size_t i = 0; g && i < g->n; i++)
		if (cfg_prefix_has(&g->nets[i].a, g->nets[i].plen, a))
			return true;
	return false;
}

bool cfg_inst_name_split(const char *name, char *group, size_t len,
			 struct ikb_addr *a)
{
	const char *hash = strrchr(name, '#');

	*a = (struct ikb_addr){ 0 };
	if (!hash || (size_t)(hash - name) >= len)
		return false;
	snprintf(group, len, "%.*s", (int)(hash - name), name);
	if (inet_pton(AF_INET, hash + 1, a->bytes) == 1)
		a->family = AF_INET;
	else if (inet_pton(AF_INET6, hash + 1, a->bytes) == 1)
		a->family = AF_INET6;
	return a->family != 0;
}
