// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Rekeying, make-before-break: by lifetime timer and by the kernel's
 * soft EXPIRE, the IKE SA, both sides at once (§2.8.1), and rekey=no.
 * Between every two loop iterations the kernels are checked: an
 * outbound SA always exists, and the new pair is in before the old goes.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "crypto/keymat.h"
#include "crypto/skeyseed.h"
#include "harness.h"
#include "ike/child/child.h"
#include "ike/engine.h"
#include "ike/ike_sa.h"

static struct net *up(const char *west, const char *east)
{
	struct net *n = net_new(west, east, NULL, NULL, NULL);
	struct ikb_error err = { "" };

	assert_int_equal(ike_engine_up(n->p[WEST].e, "test", &err), 0);
	assert_true(net_run(n, both_up, 5000));
	return n;
}

static bool keys_equal(const struct ikb_sa *a, const struct ikb_sa *b)
{
	return a->spi == b->spi &&
	       !memcmp(a->aead.key, b->aead.key, sizeof(a->aead.key)) &&
	       !memcmp(a->encr.key, b->encr.key, sizeof(a->encr.key)) &&
	       !memcmp(a->integ.key, b->integ.key, sizeof(a->integ.key));
}

/* Exactly one mirrored pair on each side, none of the old SPIs. */
static void assert_one_pair(struct net *n, const uint32_t old[2])
{
	struct kdump w, e;

	kernel_dump(n, WEST, &w);
	kernel_dump(n, EAST, &e);
	assert_int_equal(w.nsa, 2);
	assert_int_equal(e.nsa, 2);
	for (unsigned i = 0; i < 2; i++) {
		const struct ikb_sa *m = kdump_spi(&e, w.sa[i].spi);

		assert_non_null(m);
		assert_true(keys_equal(&w.sa[i], m));
		assert_int_not_equal(w.sa[i].spi, old[0]);
		assert_int_not_equal(w.sa[i].spi, old[1]);
	}
	assert_int_equal(w.npol, 3);
	assert_int_equal(e.npol, 3);
	assert_int_equal(child_count(n, WEST), 1);
	assert_int_equal(child_count(n, EAST), 1);
}

/* What the watch saw between loop iterations. */
static struct watch {
	uint32_t old[2]; /* west's out and in SPIs before the rekey */
	unsigned min_out[2]; /* fewest outbound SAs on a side */
	bool both_pairs[2]; /* old and new inbound at the same time */
	bool old_gone;
	bool (*done)(struct net *);
} wt;

static void watch_start(struct net *n, bool (*done)(struct net *))
{
	struct kdump w;

	kernel_dump(n, WEST, &w);
	memset(&wt, 0, sizeof(wt));
	wt.old[0] = kdump_sa(&w, IKB_DIR_OUT)->spi;
	wt.old[1] = kdump_sa(&w, IKB_DIR_IN)->spi;
	wt.min_out[0] = wt.min_out[1] = 99;
	wt.done = done;
}

static bool watching(struct net *n)
{
	bool old_seen = false;

	for (int who = WEST; who <= EAST; who++) {
		struct kdump d;
		unsigned out, in;

		kernel_dump(n, who, &d);
		out = kdump_count(&d, IKB_DIR_OUT);
		in = kdump_count(&d, IKB_DIR_IN);
		if (out < wt.min_out[who])
			wt.min_out[who] = out;
		if (in >= 2 &&
		    (kdump_spi(&d, wt.old[0]) || kdump_spi(&d, wt.old[1])))
			wt.both_pairs[who] = true;
		if (kdump_spi(&d, wt.old[0]) || kdump_spi(&d, wt.old[1]))
			old_seen = true;
	}
	wt.old_gone = !old_seen;
	return wt.old_gone && wt.done(n);
}

static void assert_watch(void)
{
	assert_true(wt.old_gone);
	assert_int_equal(wt.min_out[WEST], 1);
	assert_int_equal(wt.min_out[EAST], 1);
	assert_true(wt.both_pairs[WEST]);
	assert_true(wt.both_pairs[EAST]);
}

static bool one_child_each(struct net *n)
{
	return child_count(n, WEST) == 1 && child_count(n, EAST) == 1 &&
	       log_has("Child SA deleted");
}

#define LONG "\tipsec-lifetime=1h\n\tikelifetime=1h\n"

static void test_rekey_timer(void **state)
{
	struct net *n = up("\tipsec-lifetime=3s\n\trekeymargin=2s\n"
			   "\trekeyfuzz=0%\n",
			   "\tipsec-lifetime=1h\n");

	watch_start(n, one_child_each);
	assert_true(net_run(n, watching, 5000));
	assert_watch();
	assert_true(log_has("rekeying Child SA"));
	/* each change of a Child SA's state is logged */
	assert_true(log_has(": negotiating -> installed"));
	assert_true(log_has(": installed -> replaced"));
	assert_one_pair(n, wt.old);
	net_free(n);
}

static void test_rekey_soft_expire(void **state)
{
	struct net *n = up(LONG, LONG);
	struct kdump w;

	watch_start(n, one_child_each);
	kernel_dump(n, EAST, &w);
	/* the responder rekeys this time */
	kernel_expire(n, EAST, kdump_sa(&w, IKB_DIR_OUT), false);
	assert_true(net_run(n, watching, 5000));
	assert_watch();
	assert_true(log_has("soft EXPIRE"));
	assert_one_pair(n, wt.old);
	net_free(n);
}

/* Both ends start a rekey of the same Child SA at once. */
static void test_simultaneous(void **state)
{
	struct net *n = up(LONG, LONG);
	struct kdump w, e;

	watch_start(n, one_child_each);
	kernel_dump(n, WEST, &w);
	kernel_dump(n, EAST, &e);
	kernel_expire(n, WEST, kdump_sa(&w, IKB_DIR_OUT), false);
	kernel_expire(n, EAST, kdump_sa(&e, IKB_DIR_OUT), false);
	assert_true(net_run(n, watching, 5000));
	assert_true(log_has("simultaneous rekey"));
	assert_true(log_has("has the lowest nonce: deleting it"));
	assert_true(log_has("the peer deletes it"));
	assert_int_equal(wt.min_out[WEST], 1);
	assert_int_equal(wt.min_out[EAST], 1);
	assert_one_pair(n, wt.old);
	net_free(n);
}

static bool ike_rekeyed(struct net *n)
{
	return log_has("IKE SA established by rekeying") &&
	       ike_sa_count(n, WEST, NULL) == 1 &&
	       ike_sa_count(n, EAST, NULL) == 1 &&
	       ike_sa_count(n, WEST, "established") == 1 &&
	       ike_sa_count(n, EAST, "established") == 1;
}

static void test_ike_rekey(void **state)
{
	struct net *n = up("\tikelifetime=2s\n\trekeymargin=1s\n"
			   "\trekeyfuzz=0%\n\tipsec-lifetime=1h\n",
			   LONG);
	char a[32], b[32];
	struct kdump w;

	status_str(n, WEST, false, "spi_i", a, sizeof(a));
	assert_true(net_run(n, ike_rekeyed, 5000));
	assert_string_not_equal(
		status_str(n, WEST, false, "spi_i", b, sizeof(b)), a);
	assert_string_equal(status_str(n, EAST, false, "spi_i", a, sizeof(a)),
			    b);
	assert_int_equal(child_count(n, WEST), 1);
	assert_int_equal(child_count(n, EAST), 1);
	/* the Child SA lives on under the new IKE SA, and rekeys there */
	log_reset();
	watch_start(n, one_child_each);
	kernel_dump(n, WEST, &w);
	kernel_expire(n, WEST, kdump_sa(&w, IKB_DIR_IN), false);
	assert_true(net_run(n, watching, 5000));
	assert_watch();
	assert_one_pair(n, wt.old);
	net_free(n);
}

/*
 * RFC 7296 §2.17: the KEYMAT of a CREATE_CHILD_SA gives its initiator's
 * data the first keys, whichever end began the IKE SA. who's only Child
 * SA came from a CREATE_CHILD_SA that who initiated or not: its outbound
 * SA must hold the keys of that role, computed here from SK_d and the
 * exchange's nonces (pfs=no), not from the other engine, which shares
 * any mistake of this one's.
 */
static void assert_keymat_role(struct net *n, int who, bool initiated)
{
	const struct ike_sa *sa = n->p[who].e->all;
	const struct child_sa *c = sa ? sa->children : NULL;
	const struct ikb_sa *in, *out;
	struct child_keys k = { 0 };
	struct crypto_err err = { 0 };
	size_t elen, ilen;
	struct kdump d;

	assert_non_null(c);
	assert_null(c->next);
	assert_true(c->ni_len > 0); /* made by CREATE_CHILD_SA */
	assert_int_equal(c->peer_created, !initiated);
	kernel_dump(n, who, &d);
	in = kdump_spi(&d, c->spi_in);
	out = kdump_spi(&d, c->spi_out);
	assert_non_null(in);
	assert_non_null(out);
	/* AEAD (the harness' default) or cipher and integrity */
	elen = (out->aead.name[0] ? out->aead.key_bits : out->encr.key_bits) /
	       8u;
	ilen = out->aead.name[0] ? 0 : out->integ.key_bits / 8u;
	assert_int_equal(child_keys_derive(sa->prf_id,
					   secret_view(&sa->keys->sk_d),
					   CBYTES(NULL, 0), child_ni(c),
					   child_nr(c), elen, ilen, &k, &err),
			 0);
	if (out->aead.name[0]) {
		assert_memory_equal(out->aead.key,
				    (initiated ? k.encr_i : k.encr_r).ptr,
				    elen);
		assert_memory_equal(in->aead.key,
				    (initiated ? k.encr_r : k.encr_i).ptr,
				    elen);
	} else {
		assert_memory_equal(out->encr.key,
				    (initiated ? k.encr_i : k.encr_r).ptr,
				    elen);
		assert_memory_equal(in->encr.key,
				    (initiated ? k.encr_r : k.encr_i).ptr,
				    elen);
		assert_memory_equal(out->integ.key,
				    (initiated ? k.integ_i : k.integ_r).ptr,
				    ilen);
	}
	child_keys_free(&k);
}

/*
 * East, which answered IKE_SA_INIT, rekeys: west (the IKE SA's initiator)
 * answers the CREATE_CHILD_SA, so west's outbound SA takes the
 * responder's keys. Before the fix the keys followed the IKE SA's roles:
 * two ikebanas agreed, strongSwan did not, and every packet failed its ICV.
 */
static void test_keymat_roles(void **state)
{
	struct net *n = up(LONG "\tpfs=no\n", LONG "\tpfs=no\n");
	struct kdump e;

	watch_start(n, one_child_each);
	kernel_dump(n, EAST, &e);
	kernel_expire(n, EAST, kdump_sa(&e, IKB_DIR_OUT), false);
	assert_true(net_run(n, watching, 5000));
	assert_one_pair(n, wt.old);
	assert_keymat_role(n, WEST, false);
	assert_keymat_role(n, EAST, true);
	/* and west, the IKE SA's initiator, rekeying itself */
	log_reset();
	watch_start(n, one_child_each);
	kernel_dump(n, EAST, &e);
	kernel_expire(n, WEST, kdump_sa(&e, IKB_DIR_IN), false);
	assert_true(net_run(n, watching, 5000));
	assert_keymat_role(n, WEST, true);
	assert_keymat_role(n, EAST, false);
	net_free(n);
}

static bool no_children(struct net *n)
{
	return child_count(n, WEST) == 0 && child_count(n, EAST) == 0;
}

/* rekey=no: no rekey; the Child SA goes at its lifetime, the IKE SA stays. */
static void test_rekey_no(void **state)
{
	struct net *n = up("\trekey=no\n\tipsec-lifetime=500ms\n"
			   "\trekeymargin=100ms\n",
			   LONG);
	struct kdump w, e;

	assert_true(net_run(n, no_children, 5000));
	assert_false(log_has("rekeying Child SA"));
	kernel_dump(n, WEST, &w);
	kernel_dump(n, EAST, &e);
	assert_int_equal(w.nsa + w.npol + e.nsa + e.npol, 0);
	assert_int_equal(ike_sa_count(n, WEST, "established"), 1);
	net_free(n);
}

/* The kernel's SA lifetimes and the status' times. */
static void test_lifetimes(void **state)
{
	struct net *n = up("\tipsec-lifetime=1h\n\trekeymargin=10m\n"
			   "\trekeyfuzz=0%\n",
			   LONG);
	struct kdump w;
	char buf[32];

	kernel_dump(n, WEST, &w);
	assert_int_equal(w.sa[0].life.hard_add_secs, 3600);
	assert_int_equal(w.sa[0].life.soft_add_secs, 3000);
	assert_in_range(
		atoi(status_str(n, WEST, true, "rekey_in_s", buf, sizeof(buf))),
		2990, 3000);
	assert_in_range(atoi(status_str(n, WEST, true, "expire_in_s", buf,
					sizeof(buf))),
			3590, 3600);
	assert_true(atoi(status_str(n, WEST, false, "rekey_in_s", buf,
				    sizeof(buf))) > 0);
	net_free(n);
}

/* Every SA of who has the hard limit, and a soft one in lo..hi. */
static void assert_limits(struct net *n, int who, uint64_t lo, uint64_t hi)
{
	struct kdump d;

	kernel_dump(n, who, &d);
	assert_int_equal(d.nsa, 2);
	for (unsigned i = 0; i < d.nsa; i++) {
		const struct ikb_lifetime *l = &d.sa[i].life;

		assert_int_equal(l->hard_bytes, 1 << 20);
		assert_int_equal(l->hard_packets, 1000);
		assert_in_range(l->soft_bytes, lo << 10, hi << 10);
		assert_in_range(l->soft_packets, lo * 1000 / 1024,
				hi * 1000 / 1024);
	}
}

/*
 * ipsec-max-bytes= and -packets= are the kernel's hard limits; the soft
 * ones, which start the rekey, are a quarter of them on the initiator
 * and half on the responder, less up to an eighth; none with rekey=no.
 */
static void test_byte_limits(void **state)
{
	static const char limits[] = LONG "\tipsec-max-bytes=1MiB\n"
					  "\tipsec-max-packets=1000\n";
	struct net *n = up(limits, limits);
	struct kdump d;

	assert_limits(n, WEST, 224, 256);
	assert_limits(n, EAST, 448, 512);
	net_free(n);
	n = up(limits, LONG "\tipsec-max-bytes=1MiB\n\trekey=no\n");
	kernel_dump(n, EAST, &d);
	assert_int_equal(d.sa[0].life.hard_bytes, 1 << 20);
	assert_int_equal(d.sa[0].life.soft_bytes, 0);
	assert_int_equal(d.sa[0].life.hard_packets, 0);
	net_free(n);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(test_rekey_timer, net_cleanup),
		cmocka_unit_test_teardown(test_rekey_soft_expire, net_cleanup),
		cmocka_unit_test_teardown(test_simultaneous, net_cleanup),
		cmocka_unit_test_teardown(test_keymat_roles, net_cleanup),
		cmocka_unit_test_teardown(test_ike_rekey, net_cleanup),
		cmocka_unit_test_teardown(test_rekey_no, net_cleanup),
		cmocka_unit_test_teardown(test_lifetimes, net_cleanup),
		cmocka_unit_test_teardown(test_byte_limits, net_cleanup),
	};

	harness_global_init();
	return cmocka_run_group_tests_name("ike-rekey", tests, NULL, NULL);
}
