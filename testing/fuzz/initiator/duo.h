/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Two engines in one process for the initiator target: west (192.0.2.1)
 * initiates to east (192.0.2.2) with a PSK conn, both over kernel-mem,
 * joined by a queue of datagrams. Every keyed message east sends to west
 * (its responses, and its own requests of a rekey or a liveness check)
 * goes through hostile_edit() first, so that the fuzzer plays a peer
 * that holds the IKE SA's keys. Configurations are loaded once; each
 * input gets two new engines.
 */
#ifndef IKB_FUZZ_DUO_H
#define IKB_FUZZ_DUO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "fuzz.h"
#include "hostile.h"
#include "ike/ike.h"
#include "plugin/conf_load.h"

enum { DUO_WEST, DUO_EAST };
#define DUO_CONFS 2 /* 0: PFS in CREATE_CHILD_SA, 1: none */

struct duo_dgram;
struct duo {
	struct event_base *base;
	struct loaded_conf lc[DUO_CONFS][2];
	struct ike_engine *e[2];
	struct ikb_addr addr[2];
	struct duo_dgram *head, **tail;
	unsigned queued;
	unsigned conf; /* this input's */
};

void duo_init(struct duo *d);
/* Two new engines with configuration conf (of DUO_CONFS). */
void duo_start(struct duo *d, unsigned conf);
/* Delivers what is queued (at most max datagrams), east's keyed ones to
 * west edited by in. */
void duo_pump(struct duo *d, struct fuzz_in *in, unsigned max);
/* One of the things an established pair does, chosen by in. */
void duo_act(struct duo *d, struct fuzz_in *in);
void duo_stop(struct duo *d);

#endif
