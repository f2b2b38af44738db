// SPDX-License-Identifier: GPL-2.0-or-later
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "build-config.h"
#include "mixdir.h"

static char dir[64];
static char links[16][PATH_MAX];
static unsigned nlinks;

const char *mixdir_make(const char *const *names)
{
	char src[PATH_MAX];

	mixdir_remove();
	strcpy(dir, "/tmp/ikb-plugin-test-XXXXXX");
	assert_non_null(mkdtemp(dir));
	for (; *names; names++) {
		assert_true(nlinks < 16);
		snprintf(src, sizeof(src), "%s/plugins/%s/%s.so",
			 IKB_BUILD_ROOT, *names, *names);
		if (access(src, R_OK) != 0)
			snprintf(src, sizeof(src), "%s/%s.so", TEST_MODDIR,
				 *names);
		assert_int_equal(access(src, R_OK), 0);
		snprintf(links[nlinks], PATH_MAX, "%s/%s.so", dir, *names);
		assert_int_equal(symlink(src, links[nlinks]), 0);
		nlinks++;
	}
	return dir;
}

void mixdir_remove(void)
{
	while (nlinks > 0)
		unlink(links[--nlinks]);
	if (dir[0])
		rmdir(dir);
	dir[0] = '\0';
}
