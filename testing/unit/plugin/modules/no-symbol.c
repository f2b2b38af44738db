// SPDX-License-Identifier: GPL-2.0-or-later
/* A shared object that is no plugin. */
__attribute__((visibility("default"))) int not_a_plugin = 1;
