// SPDX-License-Identifier: GPL-2.0-or-later
/* One fuzz input as several files that include each other; see files.h. */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "files.h"

static char dir[64], top[128];

/*
 * The next "include" from p on, in any case: ikebana.secrets takes its
 * keywords in any case, as libreswan does, so "inclUde /..." includes.
 */
static const char *find_include(const char *p, const char *end)
{
	for (; end - p >= 7; p++)
		if (!strncasecmp(p, "include", 7))
			return p;
	return NULL;
}

/* Whether some line that says include also has a '/' after it. */
static bool escapes(const uint8_t *data, size_t size)
{
	const char *end = (const char *)data + size;
	const char *p = find_include((const char *)data, end);

	while (p) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));

		if (memchr(p, '/', (size_t)((nl ? nl : end) - p)))
			return true;
		p = nl ? find_include(nl, end) : NULL;
	}
	return false;
}

static bool write_file(const char *path, const uint8_t *b, size_t n)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	bool ok = fd >= 0 && write(fd, b, n) == (ssize_t)n;

	if (fd >= 0)
		close(fd);
	return ok;
}

static void cleanup(void)
{
	char path[128];

	for (unsigned i = 1; i <= FUZZ_FILES_MAX; i++) {
		snprintf(path, sizeof(path), "%s/i%u.conf", dir, i);
		unlink(path);
	}
	unlink(top);
	rmdir(dir);
}

const char *fuzz_files_write(const uint8_t *data, size_t size,
			     const char *first)
{
	const size_t seplen = strlen(FUZZ_FILE_SEP);
	char path[128];

	if (escapes(data, size))
		return NULL;
	if (!dir[0]) {
		/* tmpfs where there is one: a disk's truncates cost more
		 * than the parser on each input */
		strcpy(dir, "/dev/shm/ikb-fuzz-XXXXXX");
		if (!mkdtemp(dir)) {
			strcpy(dir, "/tmp/ikb-fuzz-XXXXXX");
			if (!mkdtemp(dir))
				abort();
		}
		atexit(cleanup);
	}
	for (unsigned i = 0; i <= FUZZ_FILES_MAX; i++) {
		const uint8_t *sep =
			i < FUZZ_FILES_MAX ?
				memmem(data, size, FUZZ_FILE_SEP, seplen) :
				NULL;
		size_t n = sep ? (size_t)(sep - data) : size;

		if (i)
			snprintf(path, sizeof(path), "%s/i%u.conf", dir, i);
		else
			snprintf(path, sizeof(path), "%s/%s", dir, first);
		/* a file the input leaves out must not be last input's */
		if (!write_file(path, data, n))
			abort();
		data += sep ? n + seplen : n;
		size -= sep ? n + seplen : n;
		if (!sep) {
			while (++i <= FUZZ_FILES_MAX) {
				snprintf(path, sizeof(path), "%s/i%u.conf", dir,
					 i);
				unlink(path);
			}
		}
	}
	snprintf(top, sizeof(top), "%s/%s", dir, first);
	return top;
}

void fuzz_write_file(const char *path, const char *text)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);

	if (fd < 0 || write(fd, text, strlen(text)) != (ssize_t)strlen(text))
		abort();
	close(fd);
}
