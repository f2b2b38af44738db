// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * After IKE_AUTH: the plan's further Child SAs by CREATE_CHILD_SA, PFS,
 * Delete from either side, liveness and a dead peer, and the resent
 * AUTHENTICATION_FAILED.
 */
#include <errno.h>
#include <netinet/in.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>
#include <json-c/json.h>

#include "crypto/crypto.h"
#include "harness.h"
#include "ike/child/child.h"
#include "ike/engine.h"

/* no leftprotoports: left's own selector pairs with every entry */
#define PP4 "\trightprotoports=tcp/80,udp/53,tcp/443,udp/123\n"

static struct net *up(const char *west, const char *east)
{
	struct net *n = net_new(west, east, NULL, NULL, NULL);
	struct ikb_error err = { "" };

	assert_int_equal(ike_engine_up(n->p[WEST].e, "test", &err), 0);
	return n;
}

static bool keys_equal(const struct ikb_sa *a, const struct ikb_sa *b)
{
	return a->spi == b->spi && !strcmp(a->aead.name, b->aead.name) &&
	       !memcmp(a->aead.key, b->aead.key, sizeof(a->aead.key)) &&
	       !memcmp(a->encr.key, b->encr.key, sizeof(a->encr.key)) &&
	       !memcmp(a->integ.key, b->integ.key, sizeof(a->integ.key));
}

/* Every SA of one side has its mirror (same SPI and keys) on the other. */
static void assert_mirrored(struct net *n, unsigned nsa)
{
	struct kdump w, e;

	kernel_dump(n, WEST, &w);
	kernel_dump(n, EAST, &e);
	assert_int_equal(w.nsa, nsa);
	assert_int_equal(e.nsa, nsa);
	for (unsigned i = 0; i < w.nsa; i++) {
		const struct ikb_sa *m = kdump_spi(&e, w.sa[i].spi);

		assert_non_null(m);
		assert_int_not_equal(m->dir, w.sa[i].dir);
		assert_true(keys_equal(&w.sa[i], m));
		assert_int_equal(m->sel.proto, w.sa[i].sel.proto);
	}
}

static bool four_up(struct net *n)
{
	return child_count(n, WEST) == 4 && child_count(n, EAST) == 4;
}

/* leftprotoports with 4 entries: 4 Child SAs, 3 by CREATE_CHILD_SA. */
static void test_protoports(void **state)
{
	struct net *n = up(PP4, NULL);
	struct kdump w;
	unsigned ports = 0;

	assert_true(net_run(n, four_up, 10000));
	assert_mirrored(n, 8);
	kernel_dump(n, WEST, &w);
	assert_int_equal(w.npol, 12);
	for (unsigned i = 0; i < w.nsa; i++)
		if (w.sa[i].dir == IKB_DIR_OUT)
			ports |= 1u << (w.sa[i].sel.dport % 31);
	/* 80, 53, 443, 123: four different selectors */
	assert_int_equal(__builtin_popcount(ports), 4);
	assert_true(log_has("CREATE_CHILD_SA: Child SA of the plan (PFS)"));
	assert_int_equal(ike_sa_count(n, WEST, "established"), 1);
	net_free(n);
}

static bool two_up(struct net *n);

/*
 * Whether who's kernel holds, for each of the ports, one Child SA that
 * protects traffic to that port on east (192.0.2.2, the conn's right):
 * east's port, the other end's any port, tcp.
 */
static void assert_east_ports(struct net *n, int who, const uint16_t *ports,
			      unsigned nports)
{
	struct kdump d;
	unsigned seen = 0;

	kernel_dump(n, who, &d);
	assert_int_equal(d.nsa, 2 * nports);
	for (unsigned i = 0; i < d.nsa; i++) {
		const struct ikb_selector *s = &d.sa[i].sel;
		/* east's side is dst of west's outbound and east's inbound */
		bool east_dst = (who == WEST) == (d.sa[i].dir == IKB_DIR_OUT);
		uint16_t east_port = east_dst ? s->dport : s->sport;
		uint16_t west_port = east_dst ? s->sport : s->dport;

		assert_int_equal(s->proto, IPPROTO_TCP);
		assert_int_equal(west_port, 0);
		for (unsigned j = 0; j < nports; j++)
			if (east_port == ports[j])
				seen |= 1u << j;
	}
	assert_int_equal(seen, (1u << nports) - 1);
}

/*
 * rightprotoports= alone, the same conn on both ends: right is east's
 * side whichever end reads it and whichever initiates, so every Child SA
 * is "any port on west to this port on east", never the port on west.
 */
static void test_protoports_right_only(void **state)
{
	static const uint16_t ports[] = { 5201, 5202 };

	for (int who = WEST; who <= EAST; who++) {
		struct net *n = net_new("\ttype=transport\n"
					"\trightprotoports=tcp/5201,tcp/5202\n",
					NULL, NULL, NULL, NULL);
		struct ikb_error err = { "" };

		assert_int_equal(ike_engine_up(n->p[who].e, "test", &err), 0);
		assert_true(net_run(n, two_up, 10000));
		assert_east_ports(n, WEST, ports, 2);
		assert_east_ports(n, EAST, ports, 2);
		net_free(n);
	}
}

static bool three_up(struct net *n)
{
	return child_count(n, WEST) == 3 && child_count(n, EAST) == 3;
}

/* 0: a port, 1: its protocol alone, 2: any protocol. */
static unsigned rank(const struct ikb_selector *s)
{
	return !s->proto ? 2 : !s->sport && !s->dport ? 1 : 0;
}

/*
 * Entries that overlap, each less specific than the one before, %any
 * last to carry the rest: the responder gives each request the entry
 * that matches it as offered (not an earlier one narrowed), and the more
 * specific policies take precedence (a lower priority value).
 */
static void test_protoports_rest(void **state)
{
	struct net *n = net_new("\ttype=transport\n"
				"\trightprotoports=tcp/5201,tcp,%any\n",
				NULL, NULL, NULL, NULL);
	struct ikb_error err = { "" };
	uint32_t prio[3] = { 0 };
	struct kdump d;

	assert_int_equal(ike_engine_up(n->p[WEST].e, "test", &err), 0);
	assert_true(net_run(n, three_up, 10000));
	for (int who = WEST; who <= EAST; who++) {
		unsigned seen[3] = { 0 };

		kernel_dump(n, who, &d);
		assert_int_equal(d.nsa, 6);
		for (unsigned i = 0; i < d.nsa; i++) {
			const struct ikb_selector *s = &d.sa[i].sel;

			assert_true(rank(s) || s->sport + s->dport == 5201);
			seen[rank(s)]++;
		}
		for (unsigned r = 0; r < 3; r++)
			assert_int_equal(seen[r], 2);
	}
	kernel_dump(n, WEST, &d);
	for (unsigned i = 0; i < d.npol; i++)
		if (d.pol[i].dir == IKB_DIR_OUT)
			prio[rank(&d.pol[i].sel)] = d.pol[i].priority;
	assert_true(prio[0] && prio[0] < prio[1] && prio[1] < prio[2]);
	net_free(n);
}

static bool two_up(struct net *n)
{
	return child_count(n, WEST) == 2 && child_count(n, EAST) == 2;
}

/* The non-PFS KEYMAT of c, to compare with what was installed. */
static void keymat_no_pfs(struct ike_sa *sa, struct child_sa *c,
			  struct child_keys *k)
{
	struct crypto_err err = { 0 };

	assert_int_equal(child_keys_derive(sa->prf_id,
					   secret_view(&sa->keys->sk_d),
					   CBYTES(NULL, 0), child_ni(c),
					   child_nr(c), 20, 0, k, &err),
			 0);
}

/* Whether west's second Child SA has the keys a non-PFS KEYMAT gives. */
static bool second_child_no_pfs_keys(struct net *n)
{
	struct ike_sa *sa = n->p[WEST].e->all;
	struct child_sa *c = sa->children;
	struct child_keys k;
	struct kdump w;
	const struct ikb_sa *out;
	bool same;

	while (c && !c->ni_len)
		c = c->next; /* the IKE_AUTH one has no nonces of its own */
	assert_non_null(c);
	keymat_no_pfs(sa, c, &k);
	kernel_dump(n, WEST, &w);
	out = kdump_spi(&w, c->spi_out);
	assert_non_null(out);
	/* west initiated: its outbound SA takes the "i" keys */
	same = !memcmp(out->aead.key, k.encr_i.ptr, k.encr_i.len);
	child_keys_free(&k);
	return same;
}

/* Every SA and policy of the conn carries mark=, both ends. */
static void assert_marks(struct net *n, int who, uint32_t mark, uint32_t mask)
{
	struct kdump d;

	kernel_dump(n, who, &d);
	assert_int_equal(d.nsa, 2);
	assert_int_equal(d.npol, 3);
	for (unsigned i = 0; i < d.nsa; i++) {
		assert_int_equal(d.sa[i].mark,
				 mark ? mark : 65536 + d.sa[i].reqid);
		assert_int_equal(d.sa[i].mark_mask, mask);
	}
	for (unsigned i = 0; i < d.npol; i++) {
		assert_int_equal(d.pol[i].mark,
				 mark ? mark : 65536 + d.pol[i].reqid);
		assert_int_equal(d.pol[i].mark_mask, mask);
	}
}

static void test_mark(void **state)
{
	struct net *n = net_new("\tmark=0x10/0xff\n", NULL, NULL, NULL, NULL);
	struct ikb_error err = { "" };
	char buf[64];

	assert_int_equal(ike_engine_up(n->p[WEST].e, "test", &err), 0);
	assert_true(net_run(n, both_up, 5000));
	assert_marks(n, WEST, 0x10, 0xff);
	assert_marks(n, EAST, 0x10, 0xff);
	assert_string_equal(status_str(n, WEST, true, "mark", buf, sizeof(buf)),
			    "0x10/0xff");
	net_free(n);
}

/* mark=-1: a mark of the reqid's own, the mask all ones */
static void test_mark_unique(void **state)
{
	struct net *n = net_new("\tmark=-1\n", NULL, NULL, NULL, NULL);
	struct ikb_error err = { "" };

	assert_int_equal(ike_engine_up(n->p[WEST].e, "test", &err), 0);
	assert_true(net_run(n, both_up, 5000));
	assert_marks(n, WEST, 0, 0xffffffffu);
	assert_marks(n, EAST, 0, 0xffffffffu);
	net_free(n);
}

/* mark-in= and mark-out=: each SA its own, the policies their SA's */
static void test_mark_in_out(void **state)
{
	struct net *n =
		net_new("\tmark=3\n\tmark-in=0x5/0xf\n\tmark-out=7\n",
			"\tmark-in=7\n\tmark-out=0x5/0xf\n", NULL, NULL, NULL);
	struct ikb_error err = { "" };
	struct kdump d;
	char buf[64];

	assert_int_equal(ike_engine_up(n->p[WEST].e, "test", &err), 0);
	assert_true(net_run(n, both_up, 5000));
	for (int who = WEST; who <= EAST; who++) {
		uint32_t in = who == WEST ? 5 : 7, out = who == WEST ? 7 : 5;
		uint32_t inm = who == WEST ? 0xf : 0xffffffffu;
		uint32_t outm = who == WEST ? 0xffffffffu : 0xf;

		kernel_dump(n, who, &d);
		assert_int_equal(d.nsa, 2);
		assert_int_equal(d.npol, 3);
		for (unsigned i = 0; i < d.nsa; i++) {
			bool o = d.sa[i].dir == IKB_DIR_OUT;

			assert_int_equal(d.sa[i].mark, o ? out : in);
			assert_int_equal(d.sa[i].mark_mask, o ? outm : inm);
		}
		for (unsigned i = 0; i < d.npol; i++) {
			bool o = d.pol[i].dir == IKB_DIR_OUT;

			assert_int_equal(d.pol[i].mark, o ? out : in);
			assert_int_equal(d.pol[i].mark_mask, o ? outm : inm);
		}
	}
	assert_string_equal(status_str(n, WEST, true, "mark", buf, sizeof(buf)),
			    "0x7/0xffffffff");
	assert_string_equal(
		status_str(n, WEST, true, "mark_in", buf, sizeof(buf)),
		"0x5/0xf");
	net_free(n);
}

static void test_pfs(void **state)
{
	static const char *const conf[2] = {
		"\tesp=aes_gcm128\n\tpfs=yes\n"
		"\trightprotoports=tcp/80,udp/53\n",
		"\tesp=aes_gcm128\n\tpfs=no\n"
		"\trightprotoports=tcp/80,udp/53\n",
	};

	for (int pfs = 1; pfs >= 0; pfs--) {
		struct net *n = up(conf[!pfs], NULL);

		assert_true(net_run(n, two_up, 10000));
		assert_mirrored(n, 4);
		assert_int_equal(second_child_no_pfs_keys(n), !pfs);
		net_free(n);
	}
}

static bool all_gone(struct net *n)
{
	return ike_sa_count(n, WEST, NULL) == 0 &&
	       ike_sa_count(n, EAST, NULL) == 0;
}

static void test_down_either(void **state)
{
	for (int who = WEST; who <= EAST; who++) {
		struct net *n = up(PP4, NULL);
		struct ikb_error err = { "" };
		struct kdump w, e;

		assert_true(net_run(n, four_up, 10000));
		assert_int_equal(ike_engine_down(n->p[who].e, "test", &err), 0);
		assert_true(net_run(n, all_gone, 5000));
		kernel_dump(n, WEST, &w);
		kernel_dump(n, EAST, &e);
		assert_int_equal(w.nsa + w.npol + e.nsa + e.npol, 0);
		assert_true(log_has("the peer deleted it"));
		net_free(n);
	}
}

static bool three_left(struct net *n)
{
	return child_count(n, WEST) == 3 && child_count(n, EAST) == 3;
}

/* West's kernel expires one inbound SA: both sides lose that Child SA. */
static void test_delete_child(void **state)
{
	struct net *n = up(PP4, NULL);
	struct kdump w;
	const struct ikb_sa *in;
	uint32_t spi;

	assert_true(net_run(n, four_up, 10000));
	kernel_dump(n, WEST, &w);
	in = kdump_sa(&w, IKB_DIR_IN);
	spi = in->spi;
	kernel_expire(n, WEST, in, true);
	assert_true(net_run(n, three_left, 5000));
	assert_true(log_has("sending Delete for Child SA"));
	assert_mirrored(n, 6);
	kernel_dump(n, WEST, &w);
	assert_null(kdump_spi(&w, spi));
	assert_int_equal(w.npol, 9);
	assert_int_equal(ike_sa_count(n, EAST, "established"), 1);
	net_free(n);
}

static bool alive_seen(struct net *n)
{
	return log_has("peer is alive") &&
	       log_has("answering a liveness check");
}

static void test_liveness(void **state)
{
	struct net *n = up("\tdpddelay=100ms\n", "\tdpddelay=0\n");

	assert_true(net_run(n, both_up, 5000));
	assert_true(net_run(n, alive_seen, 5000));
	assert_true(both_up(n));
	net_free(n);
}

static unsigned drop_all(struct net *n, int from, unsigned seq,
			 const uint8_t *buf, size_t len)
{
	return 0;
}

static bool west_dead_again(struct net *n)
{
	return log_has("peer is dead") &&
	       log_has("auto=start: initiating again") &&
	       ike_sa_count(n, WEST, "established") == 0;
}

/* The peer is gone: local delete, and auto=start initiates again. */
static void test_dpd_dead(void **state)
{
	struct net *n = net_new("\tauto=start\n\tdpddelay=100ms\n"
				"\tretransmit-interval=20\n"
				"\tretransmit-timeout=200ms\n",
				"\tauto=add\n", NULL, NULL, NULL);
	struct kdump w;

	ike_engine_start_auto(n->p[WEST].e);
	assert_true(net_run(n, both_up, 5000));
	n->filter = drop_all;
	assert_true(net_run(n, west_dead_again, 5000));
	kernel_dump(n, WEST, &w);
	assert_int_equal(w.nsa + w.npol, 0);
	assert_int_equal(ike_sa_count(n, WEST, "IKE_SA_INIT sent"), 1);
	net_free(n);
}

static bool west_held(struct net *n)
{
	return log_has("peer is dead") &&
	       log_has("dpdaction=hold: routed") &&
	       ike_sa_count(n, WEST, NULL) == 0;
}

/*
 * dpdaction=hold on a conn that was not routed: once the dead peer's SAs
 * are gone, its trap holds the traffic (policies, no SA) instead of none.
 */
static void test_dpd_hold(void **state)
{
	struct net *n = up("\tauto=add\n\tdpdaction=hold\n\tdpddelay=100ms\n"
			   "\tretransmit-interval=20\n"
			   "\tretransmit-timeout=200ms\n",
			   "\tauto=add\n");
	struct json_object *routes;
	struct kdump w;

	assert_true(net_run(n, both_up, 5000));
	n->filter = drop_all;
	assert_true(net_run(n, west_held, 5000));
	kernel_dump(n, WEST, &w);
	assert_int_equal(w.nsa, 0);
	assert_true(w.npol > 0);
	routes = ike_engine_routes(n->p[WEST].e);
	assert_int_equal(json_object_array_length(routes), 1);
	json_object_put(routes);
	net_free(n);
}

/*
 * The conn routed while its Child SA is up (Submariner routes after its
 * peer may have initiated): the trap takes the Child SA's reqid, so that
 * the policies still lead to its SAs, and holds them once it goes.
 */
static bool west_sa_gone(struct net *n)
{
	return ike_sa_count(n, WEST, NULL) == 0;
}

static void test_route_while_up(void **state)
{
	struct net *n = up("\tauto=add\n", "\tauto=add\n");
	struct ikb_error err = { "" };
	struct kdump w;
	uint32_t reqid;

	assert_true(net_run(n, both_up, 5000));
	kernel_dump(n, WEST, &w);
	assert_non_null(kdump_sa(&w, IKB_DIR_OUT));
	reqid = kdump_sa(&w, IKB_DIR_OUT)->reqid;
	assert_int_equal(ike_engine_route(n->p[WEST].e, "test", &err), 0);
	kernel_dump(n, WEST, &w);
	assert_true(w.npol > 0);
	for (unsigned i = 0; i < w.npol; i++)
		assert_int_equal(w.pol[i].reqid, reqid);
	assert_int_equal(ike_engine_down(n->p[WEST].e, "test", &err), 0);
	assert_true(net_run(n, west_sa_gone, 5000));
	kernel_dump(n, WEST, &w);
	assert_int_equal(w.nsa, 0);
	assert_true(w.npol > 0); /* the trap holds */
	net_free(n);
}

/* East's AUTHENTICATION_FAILED is lost once: its cache answers again. */
/* east's first IKE_AUTH response is lost */
static unsigned drop_east_auth(struct net *n, int from, unsigned seq,
			       const uint8_t *buf, size_t len)
{
	unsigned *dropped = n->filter_ctx;

	if (from != EAST || !dgram_is(buf, len, 35, true) || *dropped)
		return 1;
	(*dropped)++;
	return 0;
}

static bool west_gone(struct net *n)
{
	return ike_sa_count(n, WEST, NULL) == 0;
}

static void test_auth_failed_resent(void **state)
{
	struct net *n = net_new("\tretransmit-interval=20\n", NULL, NULL,
				"secret", "other secret");
	struct ikb_error err = { "" };
	unsigned dropped = 0;

	n->filter = drop_east_auth;
	n->filter_ctx = &dropped;
	assert_int_equal(ike_engine_up(n->p[WEST].e, "test", &err), 0);
	assert_true(net_run(n, west_gone, 5000));
	assert_int_equal(dropped, 1);
	assert_true(log_has("retransmitting message 1"));
	assert_true(log_has("resending our response"));
	assert_true(log_has("peer answered AUTHENTICATION_FAILED"));
	assert_false(log_has("no response to message 1"));
	net_free(n);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(test_protoports, net_cleanup),
		cmocka_unit_test_teardown(test_protoports_right_only,
					  net_cleanup),
		cmocka_unit_test_teardown(test_protoports_rest, net_cleanup),
		cmocka_unit_test_teardown(test_pfs, net_cleanup),
		cmocka_unit_test_teardown(test_mark, net_cleanup),
		cmocka_unit_test_teardown(test_mark_unique, net_cleanup),
		cmocka_unit_test_teardown(test_mark_in_out, net_cleanup),
		cmocka_unit_test_teardown(test_down_either, net_cleanup),
		cmocka_unit_test_teardown(test_delete_child, net_cleanup),
		cmocka_unit_test_teardown(test_liveness, net_cleanup),
		cmocka_unit_test_teardown(test_dpd_dead, net_cleanup),
		cmocka_unit_test_teardown(test_dpd_hold, net_cleanup),
		cmocka_unit_test_teardown(test_route_while_up, net_cleanup),
		cmocka_unit_test_teardown(test_auth_failed_resent, net_cleanup),
	};

	harness_global_init();
	return cmocka_run_group_tests_name("ike-child", tests, NULL, NULL);
}
