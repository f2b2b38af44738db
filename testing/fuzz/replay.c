// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The main() libFuzzer would give a target, for the regression replay:
 * each target's LLVMFuzzerTestOneInput, built with the project's compiler
 * (gcc, no libFuzzer), runs every file of the corpus directories given, in
 * name order so that a failure reproduces. Each input is an exact-size heap
 * copy, so that ASan sees a read past its end as libFuzzer would.
 *
 *   fuzz-replay-TARGET DIR|FILE...
 */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "fuzz.h"

/* Optional in a target, as in libFuzzer. */
__attribute__((weak)) int LLVMFuzzerInitialize(int *argc, char ***argv);

static int run_file(const char *path)
{
	FILE *f = fopen(path, "rb");
	uint8_t *buf;
	long n;

	if (!f || fseek(f, 0, SEEK_END) || (n = ftell(f)) < 0 ||
	    fseek(f, 0, SEEK_SET)) {
		perror(path);
		if (f)
			fclose(f);
		return -1;
	}
	buf = malloc(n ? (size_t)n : 1);
	if (!buf || fread(buf, 1, (size_t)n, f) != (size_t)n) {
		perror(path);
		fclose(f);
		free(buf);
		return -1;
	}
	fclose(f);
	LLVMFuzzerTestOneInput(buf, (size_t)n);
	free(buf);
	return 0;
}

static int by_name(const struct dirent **a, const struct dirent **b)
{
	return strcmp((*a)->d_name, (*b)->d_name);
}

/* Every regular file of dir; how many, or -1. */
static int run_dir(const char *dir)
{
	struct dirent **de;
	int n = scandir(dir, &de, NULL, by_name), runs = 0;

	if (n < 0) {
		perror(dir);
		return -1;
	}
	for (int i = 0; i < n; i++) {
		char path[4096];
		struct stat st;

		snprintf(path, sizeof(path), "%s/%s", dir, de[i]->d_name);
		if (de[i]->d_name[0] != '.' && !stat(path, &st) &&
		    S_ISREG(st.st_mode)) {
			if (run_file(path))
				runs = -1;
			else if (runs >= 0)
				runs++;
		}
		free(de[i]);
	}
	free(de);
	return runs;
}

int main(int argc, char **argv)
{
	struct stat st;
	int total = 0;

	if (argc < 2) {
		fprintf(stderr, "usage: %s DIR|FILE...\n", argv[0]);
		return 2;
	}
	if (LLVMFuzzerInitialize)
		LLVMFuzzerInitialize(&argc, &argv);
	for (int a = 1; a < argc; a++) {
		int r = !stat(argv[a], &st) && S_ISDIR(st.st_mode) ?
				run_dir(argv[a]) :
				(run_file(argv[a]) ? -1 : 1);

		if (r < 0)
			return 1;
		total += r;
	}
	if (!total) {
		fprintf(stderr, "%s: no input in the corpus\n", argv[0]);
		return 1;
	}
	printf("%d inputs, no crash\n", total);
	return 0;
}
