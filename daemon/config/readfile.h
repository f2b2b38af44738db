/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Opening and reading the files a configuration names (ikebana.conf, the
 * secrets, their includes, policy groups) without being fooled by what
 * is not a file: an include of a directory, /dev/zero or a FIFO once
 * hung the parser or ate memory. Only regular files are read, and only
 * up to CFG_FILE_MAX bytes.
 */
#ifndef IKB_CONFIG_READFILE_H
#define IKB_CONFIG_READFILE_H

#include <stddef.h>
#include <sys/stat.h>

/*
 * 64 MiB: thirty times the largest configuration seen (1.9 MB, about
 * 10,000 conns), small enough that a mistaken include cannot exhaust a
 * small host.
 */
#define CFG_FILE_MAX (64u << 20)

/*
 * Open path for reading, never blocking (a FIFO with no writer), and
 * fstat what was opened. Returns the fd, or -1 with errno and *why: the
 * errno text, or "is a directory" and the like for what is not a regular
 * file (errno EISDIR or EINVAL).
 */
int cfg_open_regular(const char *path, struct stat *st, const char **why);

/*
 * The whole of an fd from cfg_open_regular(), NUL-terminated, malloc'd;
 * hint is its st_size. Closes fd. NULL with *why when it cannot be read
 * or exceeds CFG_FILE_MAX.
 */
char *cfg_read_fd(int fd, size_t hint, size_t *len, const char **why);

#endif
