// SPDX-License-Identifier: GPL-2.0-or-later
#include <dlfcn.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "build-config.h"
#include "fake_host.h"

struct fake_msg fake_msgs[FAKE_MSG_MAX];
unsigned fake_nmsgs;
char fake_log[4096];

static void fake_log_fn(const char *plugin, enum ikb_log_level level,
			const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static void fake_log_fn(const char *plugin, enum ikb_log_level level,
			const char *fmt, ...)
{
	size_t n = strlen(fake_log);
	va_list ap;

	snprintf(fake_log + n, sizeof(fake_log) - n, "%s: ", plugin);
	n = strlen(fake_log);
	va_start(ap, fmt);
	vsnprintf(fake_log + n, sizeof(fake_log) - n, fmt, ap);
	va_end(ap);
	n = strlen(fake_log);
	snprintf(fake_log + n, sizeof(fake_log) - n, "\n");
}

static const struct ikb_value *fake_get(const struct ikb_section *s,
					const char *key)
{
	for (size_t i = 0; i < s->n; i++)
		if (strcmp(s->kv[i].key, key) == 0)
			return &s->kv[i];
	return NULL;
}

static const char *fake_section_name(const struct ikb_section *s)
{
	return s->name;
}

static void fake_report(struct ikb_diag *d, const struct ikb_section *s,
			const struct ikb_value *at, enum ikb_severity sev,
			const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));
static void fake_report(struct ikb_diag *d, const struct ikb_section *s,
			const struct ikb_value *at, enum ikb_severity sev,
			const char *fmt, ...)
{
	struct fake_msg *m;
	va_list ap;

	assert_true(fake_nmsgs < FAKE_MSG_MAX);
	m = &fake_msgs[fake_nmsgs++];
	m->sev = sev;
	snprintf(m->key, sizeof(m->key), "%s", at ? at->key : "");
	m->line = at ? at->line : s->line;
	va_start(ap, fmt);
	vsnprintf(m->text, sizeof(m->text), fmt, ap);
	va_end(ap);
}

static const struct ikb_host host = {
	IKB_OPS_SIZE(struct ikb_host),
	.log = fake_log_fn,
	.get = fake_get,
	.section_name = fake_section_name,
	.report = fake_report,
};

const struct ikb_host *fake_host(void)
{
	return &host;
}

void fake_reset(void)
{
	fake_nmsgs = 0;
	fake_log[0] = '\0';
}

unsigned fake_count(enum ikb_severity sev, const char *text)
{
	unsigned n = 0;

	for (unsigned i = 0; i < fake_nmsgs; i++)
		if (fake_msgs[i].sev == sev && strstr(fake_msgs[i].text, text))
			n++;
	return n;
}

void fake_conn(struct ikb_section *s, const char *name, const char *const *kv)
{
	size_t n = 0;

	while (kv && kv[2 * n])
		n++;
	*s = (struct ikb_section){ .name = name,
				   .kind = CFG_CONN,
				   .file = "test.conf",
				   .line = 9,
				   .n = n,
				   .cap = n };
	s->kv = calloc(n ? n : 1, sizeof(*s->kv));
	for (size_t i = 0; i < n; i++)
		s->kv[i] = (struct ikb_value){ .key = kv[2 * i],
					       .value = kv[2 * i + 1],
					       .file = "test.conf",
					       .line = (unsigned)(10 + i) };
}

void fake_section_free(struct ikb_section *s)
{
	free(s->kv);
	s->kv = NULL;
}

const struct ikb_plugin *fake_open(const char *name, void **handle)
{
	char path[512];
	const struct ikb_plugin *p;

	snprintf(path, sizeof(path), "%s/plugins/%s/%s.so", IKB_BUILD_ROOT,
		 name, name);
	*handle = dlopen(path, RTLD_NOW | RTLD_LOCAL);
	if (!*handle)
		fail_msg("dlopen %s: %s", path, dlerror());
	p = dlsym(*handle, IKB_PLUGIN_SYMBOL);
	assert_non_null(p);
	assert_int_equal(p->abi, IKB_PLUGIN_ABI);
	return p;
}

int fake_plugin_open(void **state, struct fake_plugin *fp, const char *name)
{
	*state = fp;
	fp->p = fake_open(name, &fp->handle);
	return fp->p->init(fake_host(), &fp->st);
}

int fake_plugin_close(void **state)
{
	struct fake_plugin *fp = *state;

	fp->p->fini(fp->st);
	dlclose(fp->handle);
	return 0;
}

int fake_check_conn(const struct fake_plugin *fp, const char *const *kv)
{
	struct ikb_section s;
	int rc;

	fake_reset();
	fake_conn(&s, "c", kv);
	rc = fp->p->check_conn(fp->st, &s, NULL);
	fake_section_free(&s);
	return rc;
}
