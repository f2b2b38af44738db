/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A temporary plugin directory of symlinks, so that a test can load real
 * plugins from the build tree beside test modules.
 */
#ifndef IKB_TEST_MIXDIR_H
#define IKB_TEST_MIXDIR_H

/* names: NULL-terminated; each from the build tree, else TEST_MODDIR. */
const char *mixdir_make(const char *const *names);
void mixdir_remove(void);

#endif
