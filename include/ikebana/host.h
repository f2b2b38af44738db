/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What the daemon offers a plugin: logging, configuration look-up,
 * diagnostics with file:line, timers and fd watches on the daemon's single
 * event loop. A plugin calls nothing else of the daemon.
 */
#ifndef IKEBANA_HOST_H
#define IKEBANA_HOST_H

#include <ikebana/types.h> /* uint32_t, IKB_OPS_END */

enum ikb_log_level {
	IKB_LOG_ERR,
	IKB_LOG_WARNING,
	IKB_LOG_NOTICE,
	IKB_LOG_INFO,
	IKB_LOG_DEBUG,
};

enum ikb_severity { IKB_SEV_ERROR, IKB_SEV_WARNING, IKB_SEV_NOTICE };

/* One key=value as written, with where it was written. */
struct ikb_value {
	const char *key;
	const char *value;
	const char *file;
	unsigned line;
};

/* A resolved `conn NAME` (%default and also= applied) or `config setup`. */
struct ikb_section;
/* Collects errors and warnings while configuration is checked. */
struct ikb_diag;
struct ikb_timer;
struct ikb_watch;

struct ikb_host {
	/*
	 * IKB_OPS_SIZE(struct ikb_host) as ikebanad was built. A plugin that
	 * calls a member appended after ABI 5 tests IKB_HOST_HAS(h, member)
	 * first: an older ikebanad does not have it.
	 */
	uint32_t size;
	void (*log)(const char *plugin, enum ikb_log_level level,
		    const char *fmt, ...) __attribute__((format(printf, 3, 4)));

	/* NULL when the key is not set in this section. */
	const struct ikb_value *(*get)(const struct ikb_section *s,
				       const char *key);
	/* The conn's name, or "setup" for config setup. */
	const char *(*section_name)(const struct ikb_section *s);

	/*
	 * Report a configuration problem. `at` names the file:line and key;
	 * NULL reports against the section itself.
	 */
	void (*report)(struct ikb_diag *d, const struct ikb_section *s,
		       const struct ikb_value *at, enum ikb_severity sev,
		       const char *fmt, ...)
		__attribute__((format(printf, 5, 6)));

	/* Only inside a running daemon; NULL from checkconfig. */
	struct ikb_timer *(*timer_add)(unsigned ms, void (*cb)(void *arg),
				       void *arg);
	void (*timer_cancel)(struct ikb_timer *t);
	struct ikb_watch *(*fd_watch)(int fd, void (*cb)(int fd, void *arg),
				      void *arg);
	void (*fd_unwatch)(struct ikb_watch *w);
	/*
	 * Appended in ABI 6, without a bump: a yes/no value the way the core reads its
	 * own (yes, true, on, y and their no, any case), so that a plugin
	 * reading a core key such as pfs= means what the core means.
	 */
	bool (*parse_bool)(const char *v, bool *out);
	/* Append optional members here; never reorder or remove (ABI 5). */
};

#define IKB_HOST_HAS(h, member) \
	((h)->size >= IKB_OPS_END(struct ikb_host, member))

#endif
