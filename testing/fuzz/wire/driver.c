// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Plain driver for fuzz_wire.c, run as a unit test: every corpus file and
 * built-in seed, then a fixed number of seeded mutations of each. It is
 * deterministic (fixed seed, fixed iteration count), never time-based.
 *
 *   wire-fuzz-driver [--iterations N] [--write-corpus DIR] [CORPUS_DIR...]
 */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wire/wire.h"
#include "samples.h"

#define FUZZ_MAX_INPUT 4096

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
extern unsigned long wire_fuzz_parsed;

static uint64_t rng = 0x9e3779b97f4a7c15ULL;

static uint32_t next_rand(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (uint32_t)(rng >> 32);
}

static void fix_length(uint8_t *b, size_t len)
{
	if (len < 28)
		return;
	b[24] = (uint8_t)(len >> 24);
	b[25] = (uint8_t)(len >> 16);
	b[26] = (uint8_t)(len >> 8);
	b[27] = (uint8_t)len;
}

/* One structural mutation; returns the new length. */
static size_t mutate(uint8_t *b, size_t len, size_t cap)
{
	static const uint8_t interesting[] = { 0,    1,	 2,  3,	   4,
					       7,    8,	 16, 0x7f, 0x80,
					       0xff, 33, 41, 46,   53 };
	size_t pos = len ? next_rand() % len : 0;
	uint16_t v;

	switch (next_rand() % 8) {
	case 0: /* bit flip */
		if (len)
			b[pos] ^= (uint8_t)(1u << (next_rand() % 8));
		break;
	case 1: /* interesting byte */
		if (len)
			b[pos] = interesting[next_rand() % sizeof(interesting)];
		break;
	case 2: /* interesting 16-bit length */
		if (len >= 2 && pos + 1 < len) {
			v = (uint16_t)(next_rand() % 4 ? next_rand() % 64 :
							 next_rand());
			b[pos] = (uint8_t)(v >> 8);
			b[pos + 1] = (uint8_t)v;
		}
		break;
	case 3: /* truncate */
		len = pos;
		break;
	case 4: /* append random bytes */
		while (len < cap && next_rand() % 8)
			b[len++] = (uint8_t)next_rand();
		break;
	case 5: /* duplicate a chunk */
		if (len) {
			size_t n = 1 + next_rand() % 32;

			if (n > len - pos)
				n = len - pos;
			if (len + n <= cap) {
				memmove(b + pos + n, b + pos, len - pos);
				len += n;
			}
		}
		break;
	case 6: /* delete a chunk */
		if (len) {
			size_t n = 1 + next_rand() % 16;

			if (n > len - pos)
				n = len - pos;
			memmove(b + pos, b + pos + n, len - pos - n);
			len -= n;
		}
		break;
	default: /* random byte */
		if (len)
			b[pos] = (uint8_t)next_rand();
		break;
	}
	return len;
}

static unsigned long runs;

static void run(const uint8_t *data, size_t len)
{
	/* an exact-size heap copy, so ASan sees any read past the end */
	uint8_t *copy = malloc(len ? len : 1);

	if (!copy) {
		perror("malloc");
		exit(2);
	}
	memcpy(copy, data, len);
	LLVMFuzzerTestOneInput(copy, len);
	free(copy);
	runs++;
}

static void fuzz_seed(const uint8_t *seed, size_t len, unsigned iterations)
{
	uint8_t b[FUZZ_MAX_INPUT];
	unsigned i, k, depth;
	size_t n;

	run(seed, len);
	for (i = 0; i < iterations; i++) {
		memcpy(b, seed, len);
		n = len;
		depth = 1 + next_rand() % 4;
		for (k = 0; k < depth; k++)
			n = mutate(b, n, sizeof(b));
		/* half the time keep the header length honest, to go deeper */
		if (next_rand() % 2)
			fix_length(b, n);
		run(b, n);
	}
}

static int load_dir(const char *dir, unsigned iterations)
{
	struct dirent *de;
	DIR *d = opendir(dir);
	int files = 0;

	if (!d) {
		perror(dir);
		return -1;
	}
	while ((de = readdir(d))) {
		uint8_t b[FUZZ_MAX_INPUT];
		char path[4096];
		size_t n;
		FILE *f;

		if (de->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
		f = fopen(path, "rb");
		if (!f)
			continue;
		n = fread(b, 1, sizeof(b), f);
		fclose(f);
		fuzz_seed(b, n, iterations);
		files++;
	}
	closedir(d);
	return files;
}

static int write_corpus(const char *dir)
{
	unsigned i;

	for (i = 0; wire_sample_seeds[i]; i++) {
		uint8_t b[FUZZ_MAX_INPUT];
		char path[4096];
		size_t n = wire_hex(b, sizeof(b), wire_sample_seeds[i]);
		FILE *f;

		snprintf(path, sizeof(path), "%s/seed-%u.bin", dir, i);
		f = fopen(path, "wb");
		if (!f || fwrite(b, 1, n, f) != n) {
			perror(path);
			return 1;
		}
		fclose(f);
	}
	return 0;
}

int main(int argc, char **argv)
{
	unsigned iterations = 4000, i;
	int a, files = 0;

	for (a = 1; a < argc; a++) {
		if (!strcmp(argv[a], "--iterations") && a + 1 < argc) {
			iterations = (unsigned)strtoul(argv[++a], NULL, 10);
		} else if (!strcmp(argv[a], "--write-corpus") && a + 1 < argc) {
			return write_corpus(argv[++a]);
		} else {
			int r = load_dir(argv[a], iterations);

			if (r < 0)
				return 1;
			files += r;
		}
	}
	for (i = 0; wire_sample_seeds[i]; i++) {
		uint8_t b[FUZZ_MAX_INPUT];
		size_t n = wire_hex(b, sizeof(b), wire_sample_seeds[i]);

		static struct wire_msg m;
		struct wire_error err;

		/* a seed that does not parse would only fuzz the header */
		if (!n || wire_parse(&m, b, n, NULL, &err)) {
			fprintf(stderr, "seed %u: %s\n", i,
				n ? err.msg : "bad hex");
			return 1;
		}
		fuzz_seed(b, n, iterations);
	}
	printf("%d corpus files, %u seeds, %lu inputs (%lu parsed), no crash\n",
	       files, i, runs, wire_fuzz_parsed);
	return 0;
}
