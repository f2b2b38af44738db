// SPDX-License-Identifier: GPL-2.0-or-later
/* Two daemons on 127.0.0.1 (pair_fx.h). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "pair_fx.h"

void pair_end_init(struct pair_end *e, const char *psk)
{
	char *ports, *line;

	e->dir = h_tmpdir();
	assert_true(asprintf(&e->run, "%s/run", e->dir) > 0);
	ports = h_write_conf(e->dir, "ports.conf", "config setup\n");
	e->ike = h_conf_port(ports, "\tikeport=");
	e->natt = h_conf_port(ports, "\tnat-ikeport=");
	assert_true(e->ike && e->natt);
	free(ports);
	assert_true(asprintf(&line, "@west @east : PSK \"%s\"\n", psk) > 0);
	free(h_write(e->dir, "ikebana.secrets", 0600, line));
	free(line);
}

void pair_end_conf(struct pair_end *e, const char *me, const char *peer,
		   unsigned peer_port, const char *setup)
{
	char *text;

	assert_true(asprintf(&text,
			     "config setup\n"
			     "\tplugins=\"esp-proposals replay-window "
			     "kernel-mem\"\n"
			     "\tlisten=127.0.0.1\n\tikeport=%u\n"
			     "\tnat-ikeport=%u\n%s"
			     "conn t\n\tleft=127.0.0.1\n\tright=127.0.0.1\n"
			     "\trightikeport=%u\n"
			     "\tleftid=@%s\n\trightid=@%s\n"
			     "\tauthby=secret\n\tauto=add\n",
			     e->ike, e->natt, setup, peer_port, me, peer) > 0);
	e->conf = h_write(e->dir, "ikebana.conf", 0644, text);
	free(text);
}

void pair_end_free(struct pair_end *e)
{
	h_kill(&e->p);
	h_rmrf(e->dir);
	free(e->dir);
	free(e->run);
	free(e->conf);
	memset(e, 0, sizeof(*e));
}
