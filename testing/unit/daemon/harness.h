/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Running the built ikebanad and ikebana from tests. Nothing here sleeps
 * for a fixed time: each wait polls a condition until a deadline.
 */
#ifndef IKB_TEST_HARNESS_H
#define IKB_TEST_HARNESS_H

#include <stdbool.h>
#include <sys/types.h>

#define H_DEADLINE_MS 5000

struct proc {
	pid_t pid; /* 0 once reaped */
	int status; /* exit code, or 128 + signal */
	char out[256], err[256]; /* files holding its stdout and stderr */
};

/* A path from the environment that meson sets (IKEBANAD, IKEBANA). */
const char *h_env(const char *name);
/* A fresh directory under $TMPDIR or /tmp. */
char *h_tmpdir(void);
void h_rmrf(const char *dir);
/* Write dir/name with mode; returns the malloc'd path. */
char *h_write(const char *dir, const char *name, mode_t mode, const char *text);
/*
 * A configuration for a daemon under test, 0644: text must start with
 * "config setup\n", after which H_CONF_LINES lines are added that keep
 * the IKE sockets off 500/4500 (listen=127.0.0.1, free ports), so that
 * tests run in parallel and without root. Line numbers shift by that.
 */
#define H_CONF_LINES 3
char *h_write_conf(const char *dir, const char *name, const char *text);
/* The whole file, NUL-terminated; "" if unreadable. */
char *h_slurp(const char *path);
/*
 * The number after key ("\tikeport=") in the file at path, as
 * h_write_conf() chose it; 0 when the file has no such key.
 */
unsigned h_conf_port(const char *path, const char *key);

/* Set name=value in the environment of the next h_spawn() only. */
void h_setenv_next(const char *name, const char *value);
/* Start argv with stdout/stderr in files under dir. 0 or -1. */
int h_spawn(struct proc *p, const char *dir, char *const argv[]);
/* Wait for exit until the deadline: the exit code, or -1 on timeout. */
int h_wait(struct proc *p, int timeout_ms);
/* SIGKILL and reap, if still running. */
void h_kill(struct proc *p);
/* Run to completion; *out and *err are the captured output (free them). */
int h_run(const char *dir, char **out, char **err, char *const argv[]);

/*
 * ikebanad --nofork --rundir RUNDIR --config CONF, then wait until it
 * answers. On failure its stderr is printed and false returned.
 */
bool h_start_daemon(struct proc *p, const char *dir, const char *rundir,
		    const char *conf);
/* ikebana --rundir RUNDIR ARGS... (NULL-terminated); the exit code. */
int h_cli(const char *dir, const char *rundir, char **out, char **err, ...);

/* Until ikebanad at rundir answers a request (or p dies). */
bool h_wait_ready(const char *rundir, struct proc *p, int timeout_ms);
/* Until the file at path contains needle. */
bool h_wait_contains(const char *path, const char *needle, int timeout_ms);
/* Until cond(arg) is true. */
bool h_wait_for(bool (*cond)(void *arg), void *arg, int timeout_ms);

#endif
