/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Two ikebanad on 127.0.0.1, told apart by the ports h_write_conf()
 * chose, with kernel-mem and one PSK conn t between @west and @east
 * (test_text.c, test_metrics.c).
 */
#ifndef IKB_TEST_PAIR_FX_H
#define IKB_TEST_PAIR_FX_H

#include "harness.h"

struct pair_end {
	char *dir, *run, *conf;
	unsigned ike, natt;
	struct proc p;
};

/* Its directory, run dir, ports and ikebana.secrets with psk. */
void pair_end_init(struct pair_end *e, const char *psk);
/* Its ikebana.conf: conn t from @me to @peer at peer_port; setup (config
 * setup lines, may be "") goes before the conn. */
void pair_end_conf(struct pair_end *e, const char *me, const char *peer,
		   unsigned peer_port, const char *setup);
/* Its daemon killed, its directory removed, e zeroed. */
void pair_end_free(struct pair_end *e);

#endif
