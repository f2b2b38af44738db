/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Targets whose input is a set of files that include each other (the
 * configuration, the secrets): one fuzz input holds them all, separated by
 * FUZZ_FILE_SEP lines, and they are written to a private directory as
 * FIRST (the top file), i1.conf, i2.conf, ... so that `include i1.conf`
 * and `include i*.conf` find them.
 */
#ifndef IKB_FUZZ_FILES_H
#define IKB_FUZZ_FILES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define FUZZ_FILE_SEP "\n%%\n"
#define FUZZ_FILES_MAX 4

/*
 * Writes the files (mode 0600) into the directory, made once per process;
 * returns the top file's path, or NULL when the input must be skipped: an
 * include line with a '/' would reach outside the directory and read the
 * host's files, which is slow and not the parser's business.
 */
const char *fuzz_files_write(const uint8_t *data, size_t size,
			     const char *first);

/* text into path (0600), for a target's fixed configuration; aborts on
 * failure: the target cannot run without it. */
void fuzz_write_file(const char *path, const char *text);

#endif
