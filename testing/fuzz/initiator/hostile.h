/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * edit.c: a peer that holds an IKE SA's keys and lies, for the initiator
 * fuzz target (duo.h) and the hostile-peer tool (testing/tools/), one
 * piece of code for both. buf, a datagram sealed with sa_peer's keys, is
 * opened with sa's (sa->sk_in), its payload chain edited as in says,
 * and sealed again with sa_peer's, whole or as fragments, into the
 * datagram set out (dgram_set_*). 1: dropped; 0: out holds it; < 0: it
 * cannot be opened (not SK, or no keys yet) and goes as it was.
 */
#ifndef IKB_FUZZ_HOSTILE_H
#define IKB_FUZZ_HOSTILE_H

#include <stddef.h>
#include <stdint.h>

#include "fuzz.h"

struct ike_sa;
struct wbuf;
int hostile_edit(struct ike_sa *sa, struct ike_sa *sa_peer, const uint8_t *buf,
		 size_t len, struct fuzz_in *in, struct wbuf *out);

/*
 * An edit for hostile_edit() drawn from the random number r, as the
 * fuzzer could write it, weighted towards what reaches the handlers: an
 * error notify in front (40 %), a payload left out (25 %), octets
 * overwritten, a cut, a loss; one in eight in fragments. ops gets it
 * (cap at least 16); its length.
 */
size_t hostile_draw(uint8_t *ops, size_t cap, uint64_t r);

#endif
