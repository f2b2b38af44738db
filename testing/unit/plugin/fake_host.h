/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A host for testing one plugin alone: sections built in the test, and
 * reports and log lines recorded for assertions.
 */
#ifndef IKB_TEST_FAKE_HOST_H
#define IKB_TEST_FAKE_HOST_H

#include <stdbool.h>
#include <stdio.h>
#include <ikebana/plugin.h>

#include "config/config.h"

struct fake_msg {
	enum ikb_severity sev;
	char key[64]; /* "" if reported against the section */
	unsigned line;
	char text[512];
};

#define FAKE_MSG_MAX 64
extern struct fake_msg fake_msgs[FAKE_MSG_MAX];
extern unsigned fake_nmsgs;
extern char fake_log[4096]; /* log lines, each ending in '\n' */

const struct ikb_host *fake_host(void);
void fake_reset(void);
/* How many reports of sev contain text. */
unsigned fake_count(enum ikb_severity sev, const char *text);

/* A conn from "key", "value", ... NULL; key i is at test.conf:10+i. */
void fake_conn(struct ikb_section *s, const char *name, const char *const *kv);
void fake_section_free(struct ikb_section *s);

/* dlopen a plugin from this build tree; fails the test if it cannot. */
const struct ikb_plugin *fake_open(const char *name, void **handle);

/* One plugin dlopened and initialised against fake_host() for a group. */
struct fake_plugin {
	void *handle;
	const struct ikb_plugin *p;
	void *st;
};

/*
 * For a cmocka group setup: fake_open() name into fp, run its init and set
 * *state = fp for fake_plugin_close(). Returns init's result.
 */
int fake_plugin_open(void **state, struct fake_plugin *fp, const char *name);
/* The matching cmocka group teardown: fini, then dlclose. */
int fake_plugin_close(void **state);
/* fake_reset(), then check_conn on a conn "c" from kv; returns its result. */
int fake_check_conn(const struct fake_plugin *fp, const char *const *kv);

#endif
