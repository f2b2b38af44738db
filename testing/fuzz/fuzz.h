/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What every fuzz target defines (libFuzzer's entry points), and the small
 * input splitter several of them share: one fuzz input as a sequence of
 * records, so that a target can take several datagrams or files at once.
 */
#ifndef IKB_FUZZ_H
#define IKB_FUZZ_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerInitialize(int *argc, char ***argv);

/* A reader over the fuzz input; reads past its end give zeros. */
struct fuzz_in {
	const uint8_t *p;
	size_t left;
};

static inline uint8_t fuzz_u8(struct fuzz_in *in)
{
	if (!in->left)
		return 0;
	in->left--;
	return *in->p++;
}

static inline uint16_t fuzz_u16(struct fuzz_in *in)
{
	uint16_t hi = fuzz_u8(in);

	return (uint16_t)(hi << 8 | fuzz_u8(in));
}

/* The next n bytes (fewer at the end); *len says how many. */
static inline const uint8_t *fuzz_bytes(struct fuzz_in *in, size_t n,
					size_t *len)
{
	const uint8_t *p = in->p;

	*len = n < in->left ? n : in->left;
	in->p += *len;
	in->left -= *len;
	return p;
}

/*
 * An argument vector from the input, for a command's parser: argv[0] is
 * argv0, then buf (a NUL-terminated copy of the input, size bytes before
 * the NUL) split at each NUL, at most max - 1 arguments; argv[argc] is
 * NULL, so argv needs max + 1 slots. Returns argc.
 */
static inline int fuzz_argv(char *buf, size_t size, char *argv[], int max,
			    char *argv0)
{
	int argc = 1;

	argv[0] = argv0;
	for (size_t i = 0; i <= size && argc < max; i++) {
		argv[argc++] = buf + i;
		while (buf[i])
			i++;
	}
	argv[argc] = NULL;
	return argc;
}

/* A record: a 16-bit big-endian length, then that many bytes. */
static inline const uint8_t *fuzz_record(struct fuzz_in *in, size_t *len)
{
	return fuzz_bytes(in, fuzz_u16(in), len);
}

#endif
