// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Our initiator against a peer that holds the keys (duo.h): west
 * initiates, east answers, and every keyed message east sends west is
 * edited by the input (edit.c) and sealed again with east's keys, so that
 * mutated IKE_AUTH, CREATE_CHILD_SA (Child SA and IKE SA rekeys, with and
 * without PFS), INFORMATIONAL and fragmented messages reach west's
 * handlers authentic: its responses to our requests, and east's own
 * requests of the rekeys and checks that west did not start.
 *
 * Input: a configuration octet (bit 0: no PFS), then rounds until it
 * ends: an action octet (duo_act()), then the edits that the datagrams
 * of that round consume as they pass (one op octet and its operands
 * each). The first round is west's initiation.
 */
#include <stdio.h>
#include <stdlib.h>
#include <event2/event.h>

#include "duo.h"
#include "fuzz_nss.h"
#include "ike/engine.h"
#include "log/log.h"

static struct duo duo;

/*
 * A run without edits must establish both IKE SAs with their Child SA:
 * a build that cannot negotiate (a stale esp-proposals.so beside a newer
 * engine, say) would otherwise fuzz the refusal alone, fast and silent.
 */
static void check_baseline(void)
{
	struct fuzz_in none = { NULL, 0 };
	struct ikb_error err = { "" };
	const struct ike_sa *w, *e;
	bool up;

	duo_start(&duo, 0);
	ike_engine_up(duo.e[DUO_WEST], "test", &err);
	duo_pump(&duo, &none, 64);
	w = duo.e[DUO_WEST]->all;
	e = duo.e[DUO_EAST]->all;
	up = w && e && w->state == IKE_SA_ESTABLISHED &&
	     e->state == IKE_SA_ESTABLISHED && w->children && e->children;
	duo_stop(&duo);
	if (up)
		return;
	fprintf(stderr,
		"fuzz-initiator: a run without edits does not establish%s%s: "
		"is every plugin of this build current (ninja the whole build "
		"dir)? IKB_FUZZ_LOG=1 shows why\n",
		err.msg[0] ? ": " : "", err.msg);
	exit(1);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	fuzz_nss_init();
	/* IKB_FUZZ_LOG=1: what the engines did, to check a seed goes deep */
	log_setup(LOG_TO_STDERR,
		  getenv("IKB_FUZZ_LOG") ? IKB_LOG_DEBUG : IKB_LOG_ERR,
		  "fuzz-initiator");
	duo_init(&duo);
	check_baseline();
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fuzz_in in = { data, size };
	struct ikb_error err = { "" };
	unsigned rounds = 0;

	duo_start(&duo, fuzz_u8(&in) & 1);
	ike_engine_up(duo.e[DUO_WEST], "test", &err);
	duo_pump(&duo, &in, 64);
	while (in.left && rounds++ < 16) {
		duo_act(&duo, &in);
		duo_pump(&duo, &in, 64);
	}
	duo_stop(&duo);
	return 0;
}
