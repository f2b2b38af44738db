// SPDX-License-Identifier: GPL-2.0-or-later
/* Policy group files: where they are, what a line may hold, errors. */
#include <limits.h>
#include <sys/stat.h>
#include <unistd.h>

#include "config/groups.h"
#include "helpers.h"

static char dir[64];

static void put(const char *rel, const char *text)
{
	char p[PATH_MAX];
	FILE *f;

	snprintf(p, sizeof(p), "%s/%s", dir, rel);
	f = fopen(p, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static int setup(void **state)
{
	char p[PATH_MAX];

	(void)state;
	snprintf(dir, sizeof(dir), "/tmp/ikb-groups-XXXXXX");
	assert_non_null(mkdtemp(dir));
	snprintf(p, sizeof(p), "%s/ipsec.d", dir);
	mkdir(p, 0700);
	snprintf(p, sizeof(p), "%s/ipsec.d/policies", dir);
	mkdir(p, 0700);
	snprintf(p, sizeof(p), "%s/other", dir);
	mkdir(p, 0700);
	snprintf(p, sizeof(p), "%s/other/policies", dir);
	mkdir(p, 0700);
	return 0;
}

static int teardown(void **state)
{
	char cmd[PATH_MAX + 16];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	return system(cmd);
}

/* Loads ipsec.conf of dir with its groups; the messages, @ for dir. */
static struct cfg *load(const char *want)
{
	char path[PATH_MAX], *got, *w = NULL;
	size_t n = 0;
	struct ikb_diag d;
	struct cfg *c = NULL;
	FILE *f = open_memstream(&w, &n);

	for (const char *p = want; *p; p++)
		if (*p == '@')
			fputs(dir, f);
		else
			fputc(*p, f);
	fclose(f);
	snprintf(path, sizeof(path), "%s/ipsec.conf", dir);
	diag_init(&d);
	assert_int_equal(cfg_parse_file(path, &c, &d), 0);
	cfg_groups_load(c, &d);
	got = diag_text(&d);
	assert_string_equal(got, w);
	free(got);
	free(w);
	diag_free(&d);
	return c;
}

static const char oe_conf[] =
	"conn private-or-clear\n\tleft=192.0.2.1\n\tright=%opportunisticgroup\n"
	"\tauthby=null\n\tauto=ondemand\n"
	"conn clear\n\tleft=192.0.2.1\n\tright=%group\n\ttype=passthrough\n"
	"\tauthby=never\n\tauto=ondemand\n"
	"conn plain\n\tleft=192.0.2.1\n\tright=192.0.2.2\n";

static void test_groups_read(void **state)
{
	struct cfg *c;
	const struct cfg_group *g;

	(void)state;
	put("ipsec.conf", oe_conf);
	put("ipsec.d/policies/private-or-clear",
	    "# comment only\n\n192.0.2.0/24   # a net\n  198.51.100.7\n"
	    "2001:db8::/32\n");
	c = load("@/ipsec.d/policies/private-or-clear:5: warning: policy group private-or-clear: 2001:db8::/32 is IPv6, and conn private-or-clear is IPv4: no trap covers it and no peer there is accepted; write a conn of the other family for it\n");
	assert_int_equal(c->ngroups, 2);
	g = cfg_group_find(c, "private-or-clear");
	assert_non_null(g);
	assert_int_equal(g->n, 3);
	assert_int_equal(g->nets[0].plen, 24);
	assert_int_equal(g->nets[0].line, 3);
	assert_int_equal(g->nets[1].plen, 32);
	assert_int_equal(g->nets[1].a.bytes[3], 7);
	assert_int_equal(g->nets[2].a.family, AF_INET6);
	/* no file: an empty group, as libreswan */
	g = cfg_group_find(c, "clear");
	assert_non_null(g);
	assert_int_equal(g->n, 0);
	assert_null(cfg_group_find(c, "plain"));
	cfg_free(c);
}

static void test_groups_errors(void **state)
{
	(void)state;
	put("ipsec.conf", oe_conf);
	put("ipsec.d/policies/private-or-clear",
	    "192.0.2.0/24\n192.0.2.1/24\nnot-a-net\n10.0.0.0/8 10.1.0.0/16\n"
	    "10.0.0.0/33\n");
	cfg_free(load(
		"@/ipsec.d/policies/private-or-clear:2: error: policy group private-or-clear: 192.0.2.1/24: host bits are set after the prefix length; expected a network address\n"
		"@/ipsec.d/policies/private-or-clear:3: error: policy group private-or-clear: not-a-net: expected an address or ADDRESS/PREFIX, e.g. 192.0.2.0/24\n"
		"@/ipsec.d/policies/private-or-clear:4: error: policy group private-or-clear: \"10.1.0.0/16\" after 10.0.0.0/8: one network per line\n"
		"@/ipsec.d/policies/private-or-clear:5: error: policy group private-or-clear: 10.0.0.0/33: expected an address or ADDRESS/PREFIX, e.g. 192.0.2.0/24\n"));
}

/* ipsecdir= moves them; a directory where the file should be says so */
static void test_groups_ipsecdir(void **state)
{
	char conf[2048];
	struct cfg *c;

	(void)state;
	snprintf(conf, sizeof(conf), "config setup\n\tipsecdir=%s/other\n%s",
		 dir, oe_conf);
	put("ipsec.conf", conf);
	put("other/policies/clear", "203.0.113.0/24\n");
	c = load("");
	assert_int_equal(cfg_group_find(c, "clear")->n, 1);
	assert_int_equal(cfg_group_find(c, "private-or-clear")->n, 0);
	cfg_free(c);
	snprintf(conf, sizeof(conf), "%s/other/policies/private-or-clear", dir);
	mkdir(conf, 0700);
	cfg_free(load(
		"@/ipsec.conf:5: error: right=%opportunisticgroup: policy group file @/other/policies/private-or-clear: is a directory, not a regular file\n"));
	rmdir(conf);

	/* a FIFO there: refused at once, the load never waits for a writer */
	assert_int_equal(mkfifo(conf, 0600), 0);
	cfg_free(load(
		"@/ipsec.conf:5: error: right=%opportunisticgroup: policy group file @/other/policies/private-or-clear: is a FIFO, not a regular file\n"));
	unlink(conf);

	/* relative: from the directory of the file that sets it */
	snprintf(conf, sizeof(conf), "config setup\n\tipsecdir=other\n%s",
		 oe_conf);
	put("ipsec.conf", conf);
	c = load("");
	assert_int_equal(cfg_group_find(c, "clear")->n, 1);
	cfg_free(c);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_groups_read),
		cmocka_unit_test(test_groups_errors),
		cmocka_unit_test(test_groups_ipsecdir),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
