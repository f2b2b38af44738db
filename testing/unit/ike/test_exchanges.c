// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * IKE_SA_INIT + IKE_AUTH + the first Child SA between two engines: modes,
 * algorithms, INVALID_KE, a wrong PSK, a Child SA mismatch, narrowing.
 */
#include <errno.h>
#include <netinet/in.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "harness.h"
#include "wire/wire.h"

static struct net *up(const char *west, const char *east)
{
	struct net *n = net_new(west, east, NULL, NULL, NULL);
	struct ikb_error err = { "" };

	assert_int_equal(ike_engine_up(n->p[WEST].e, "test", &err), 0);
	return n;
}

static bool sa_keys_equal(const struct ikb_sa *a, const struct ikb_sa *b)
{
	return a->spi == b->spi && !strcmp(a->aead.name, b->aead.name) &&
	       a->aead.key_bits == b->aead.key_bits &&
	       !memcmp(a->aead.key, b->aead.key, sizeof(a->aead.key)) &&
	       !strcmp(a->encr.name, b->encr.name) &&
	       !memcmp(a->encr.key, b->encr.key, sizeof(a->encr.key)) &&
	       !memcmp(a->integ.key, b->integ.key, sizeof(a->integ.key));
}

/* Both kernels hold mirrored SAs: west's out is east's in, and back. */
static void assert_mirrored(struct net *n, unsigned npol)
{
	struct kdump w, e;
	const struct ikb_sa *wo, *wi, *eo, *ei;

	kernel_dump(n, WEST, &w);
	kernel_dump(n, EAST, &e);
	assert_int_equal(w.nsa, 2);
	assert_int_equal(e.nsa, 2);
	assert_int_equal(w.npol, npol);
	assert_int_equal(e.npol, npol);
	wo = kdump_sa(&w, IKB_DIR_OUT);
	wi = kdump_sa(&w, IKB_DIR_IN);
	eo = kdump_sa(&e, IKB_DIR_OUT);
	ei = kdump_sa(&e, IKB_DIR_IN);
	assert_true(wo && wi && eo && ei);
	assert_true(sa_keys_equal(wo, ei));
	assert_true(sa_keys_equal(eo, wi));
	assert_int_not_equal(wo->spi, wi->spi);
	assert_true(wo->aead.name[0] || wo->encr.name[0]);
}

static void check_up(const char *conn, const char *want_mode, unsigned npol)
{
	struct net *n = up(conn, NULL);
	char buf[128];

	assert_true(net_run(n, both_up, 5000));
	assert_mirrored(n, npol);
	assert_string_equal(status_str(n, WEST, true, "mode", buf, sizeof(buf)),
			    want_mode);
	assert_string_equal(
		status_str(n, EAST, false, "remote_id", buf, sizeof(buf)),
		"@west");
	assert_string_equal(
		status_str(n, WEST, false, "remote_id", buf, sizeof(buf)),
		"@east");
	assert_string_equal(
		status_str(n, EAST, false, "role", buf, sizeof(buf)),
		"responder");
	net_free(n);
}

static void test_tunnel(void **state)
{
	check_up("\tike=aes_gcm256-sha2_256-dh19\n\tesp=aes_gcm128\n", "tunnel",
		 3);
}

static void test_transport(void **state)
{
	check_up("\tike=aes_gcm256-sha2_256-dh19\n\tesp=aes_gcm128\n"
		 "\ttype=transport\n",
		 "transport", 2);
}

static void test_defaults(void **state)
{
	check_up("", "tunnel", 3);
	check_up("\ttype=transport\n", "transport", 2);
}

static void test_algorithms(void **state)
{
	static const char *const confs[] = {
		"\tike=aes_gcm256-sha2_256-modp2048\n",
		"\tike=aes_gcm256-sha2_256-modp3072\n",
		"\tike=aes_gcm256-sha2_256-modp4096\n",
		"\tike=aes_gcm256-sha2_256-dh19\n",
		"\tike=aes_gcm256-sha2_384-dh20\n",
		"\tike=aes_gcm256-sha2_512-dh21\n",
		"\tike=aes_gcm128-sha2_256-dh31\n",
		"\tike=aes256-sha2_256-dh19\n\tesp=aes256-sha2_256\n",
		"\tike=aes128-sha2_512-dh19\n\tesp=aes128-sha2_512\n",
		"\tike=chacha20_poly1305-sha2_256-dh31\n\tesp=chacha20_poly1305\n",
	};

	for (size_t i = 0; i < sizeof(confs) / sizeof(confs[0]); i++) {
		struct net *n = up(confs[i], NULL);

		print_message("%s", confs[i]);
		assert_true(net_run(n, both_up, 10000));
		assert_mirrored(n, 3);
		net_free(n);
	}
}

static void test_invalid_ke(void **state)
{
	struct net *n =
		up("\tike=aes_gcm256-sha2_256-dh19,aes_gcm256-sha2_256-dh20\n",
		   "\tike=aes_gcm256-sha2_256-dh20\n");
	char buf[128];

	assert_true(net_run(n, both_up, 5000));
	assert_true(log_has("INVALID_KE_PAYLOAD"));
	assert_non_null(
		strstr(status_str(n, WEST, false, "proposal", buf, sizeof(buf)),
		       "ECP384"));
	assert_mirrored(n, 3);
	net_free(n);
}

static bool all_gone(struct net *n)
{
	return ike_sa_count(n, WEST, NULL) == 0 &&
	       ike_sa_count(n, EAST, NULL) == 0;
}

static void test_wrong_psk(void **state)
{
	/* east keeps its answer for west's retransmits that long */
	struct net *n = net_new("\tretransmit-timeout=300ms\n", NULL, NULL,
				"secret", "other secret");
	struct ikb_error err;
	struct kdump w, e;

	assert_int_equal(ike_engine_up(n->p[WEST].e, "test", &err), 0);
	assert_true(net_run(n, all_gone, 5000));
	assert_true(log_has("AUTHENTICATION_FAILED"));
	kernel_dump(n, WEST, &w);
	kernel_dump(n, EAST, &e);
	assert_int_equal(w.nsa + w.npol + e.nsa + e.npol, 0);
	net_free(n);
}

static bool ike_up(struct net *n)
{
	return ike_sa_count(n, WEST, "established") == 1 &&
	       ike_sa_count(n, EAST, "established") == 1 &&
	       log_has("Child SA refused by the peer");
}

static void test_child_mismatch(void **state)
{
	struct net *n = up("\tesp=aes_gcm128\n", "\tesp=aes256-sha2_256\n");
	struct kdump w, e;

	assert_true(net_run(n, ike_up, 5000));
	assert_true(log_has("NO_PROPOSAL_CHOSEN"));
	assert_int_equal(child_count(n, WEST) + child_count(n, EAST), 0);
	kernel_dump(n, WEST, &w);
	kernel_dump(n, EAST, &e);
	assert_int_equal(w.nsa + w.npol + e.nsa + e.npol, 0);
	net_free(n);
}

static void test_narrowing(void **state)
{
	struct net *n =
		up("\tleftsubnet=10.1.0.0/16\n\trightsubnet=10.2.0.0/16\n",
		   "\tleftsubnet=10.1.1.0/24\n\trightsubnet=10.2.0.0/16\n");
	char buf[128];

	assert_true(net_run(n, both_up, 5000));
	assert_string_equal(
		status_str(n, WEST, true, "ts_local", buf, sizeof(buf)),
		"10.1.1.0/24");
	assert_string_equal(
		status_str(n, WEST, true, "ts_remote", buf, sizeof(buf)),
		"10.2.0.0/16");
	assert_string_equal(
		status_str(n, EAST, true, "ts_remote", buf, sizeof(buf)),
		"10.1.1.0/24");
	assert_mirrored(n, 3);
	net_free(n);
}

static void test_ts_unacceptable(void **state)
{
	struct net *n =
		up("\tleftsubnet=10.1.0.0/16\n\trightsubnet=10.2.0.0/16\n",
		   "\tleftsubnet=10.9.0.0/16\n\trightsubnet=10.2.0.0/16\n");

	assert_true(net_run(n, ike_up, 5000));
	assert_true(log_has("TS_UNACCEPTABLE"));
	assert_int_equal(child_count(n, WEST) + child_count(n, EAST), 0);
	net_free(n);
}

/* esn=yes with a window: both kernels get ESN on both SAs. */
static void test_esn(void **state)
{
	struct net *n = up("\tesn=yes\n\treplay-window=128\n", NULL);
	struct kdump w, e;

	assert_true(net_run(n, both_up, 5000));
	kernel_dump(n, WEST, &w);
	kernel_dump(n, EAST, &e);
	for (unsigned i = 0; i < 2; i++) {
		assert_true(w.sa[i].esn && e.sa[i].esn);
		assert_int_equal(w.sa[i].replay_window, 128);
	}
	net_free(n);
}

static bool west_up(struct net *n)
{
	return child_count(n, WEST) == 1 && child_count(n, EAST) == 1;
}

static bool never(struct net *n)
{
	return false;
}

/* auto=start initiates; down deletes the SAs on both sides. */
static void test_auto_and_down(void **state)
{
	struct net *n =
		net_new("\tauto=start\n", "\tauto=add\n", NULL, NULL, NULL);
	struct ikb_error err = { "" };
	struct kdump w;

	ike_engine_start_auto(n->p[EAST].e); /* auto=add: nothing */
	ike_engine_start_auto(n->p[WEST].e);
	assert_true(net_run(n, west_up, 5000));
	assert_int_equal(ike_engine_up(n->p[WEST].e, "test", &err), -EALREADY);
	assert_int_equal(ike_engine_down(n->p[WEST].e, "test", &err), 0);
	assert_true(net_run(n, all_gone, 5000));
	kernel_dump(n, WEST, &w);
	assert_int_equal(w.nsa + w.npol, 0);
	assert_int_equal(ike_engine_down(n->p[WEST].e, "test", &err), -ENOENT);
	assert_int_equal(ike_engine_up(n->p[WEST].e, "nosuch", &err), -ENOENT);
	/* down while the key pair is still being made: the job is dropped */
	assert_int_equal(ike_engine_up(n->p[WEST].e, "test", &err), 0);
	assert_int_equal(ike_engine_down(n->p[WEST].e, "test", &err), 0);
	net_run(n, never, 100);
	assert_int_equal(ike_sa_count(n, WEST, NULL), 0);
	net_free(n);
}

/*
 * The initiator moves to port 4500 after IKE_SA_INIT (strongSwan does so
 * with MOBIKE even without NAT): every answer, and our own later requests,
 * must follow it (RFC 7296 §2.11, §2.23).
 */
static void test_peer_moves_port(void **state)
{
	struct net *n = net_new("\ttype=transport\n", "\ttype=transport\n",
				NULL, NULL, NULL);
	struct ikb_error err = { "" };
	unsigned east_msgs = 0;

	n->float_port = 4500;
	n->float_from = WEST;
	n->float_after = 1; /* IKE_SA_INIT on 500, the rest on 4500 */
	assert_int_equal(ike_engine_up(n->p[WEST].e, "test", &err), 0);
	assert_true(net_run(n, both_up, 5000));
	assert_int_equal(ike_engine_down(n->p[EAST].e, "test", &err), 0);
	assert_true(net_run(n, all_gone, 5000));
	for (unsigned i = 0; i < n->nrec; i++) {
		const struct hdgram *r = &n->rec[i];

		if (r->from != EAST)
			continue;
		/* the IKE_SA_INIT response stays on 500, the rest follow */
		assert_int_equal(r->sport, east_msgs ? 4500 : 500);
		assert_int_equal(r->dport, east_msgs ? 4500 : 500);
		east_msgs++;
	}
	assert_true(east_msgs >= 3); /* INIT, AUTH and the Delete request */
	net_free(n);
}

/* rightikeport= is where the peer listens; we send from our ikeport= */
static void test_remote_ike_port(void **state)
{
	struct net *n = net_new("\trightikeport=4501\n", "", "\tikeport=4501\n",
				NULL, NULL);
	struct ikb_error err = { "" };

	assert_int_equal(ike_engine_up(n->p[WEST].e, "test", &err), 0);
	assert_true(net_run(n, both_up, 5000));
	assert_true(n->nrec > 0);
	assert_int_equal(n->rec[0].from, WEST);
	assert_int_equal(n->rec[0].sport, 500);
	assert_int_equal(n->rec[0].dport, 4501);
	net_free(n);
}

/* IKEV2_FRAGMENTATION_SUPPORTED both ways, and none with fragmentation=no */
static void fragmentation_offer(const char *west, unsigned want)
{
	struct net *n = net_new(west, NULL, NULL, NULL, NULL);
	struct ikb_error err = { "" };
	struct wire_msg m;
	struct wire_error werr;
	unsigned inits = 0, offers = 0;

	assert_int_equal(ike_engine_up(n->p[WEST].e, "test", &err), 0);
	assert_true(net_run(n, both_up, 5000));
	for (unsigned i = 0; i < n->nrec; i++) {
		if (!dgram_is(n->rec[i].buf, n->rec[i].len,
			      WIRE_EXCH_IKE_SA_INIT, n->rec[i].from == EAST))
			continue;
		assert_int_equal(wire_parse(&m, n->rec[i].buf, n->rec[i].len,
					    NULL, &werr),
				 0);
		assert_non_null(
			wire_find_notify(&m, WIRE_N_NAT_DETECTION_SOURCE_IP));
		offers += wire_find_notify(
				  &m, WIRE_N_IKEV2_FRAGMENTATION_SUPPORTED) !=
			  NULL;
		inits++;
	}
	assert_int_equal(inits, 2);
	assert_int_equal(offers, want);
	net_free(n);
}

static void test_fragmentation_offer(void **state)
{
	fragmentation_offer(NULL, 2);
	/* the responder answers only an initiator that offered it */
	fragmentation_offer("\tfragmentation=no\n", 0);
}

/* our own end's port must be the one the daemon listens on */
static void test_local_ike_port(void **state)
{
	struct net *n = net_new("\tleftikeport=4600\n", NULL, NULL, NULL, NULL);
	struct ikb_error err = { "" };

	assert_int_equal(ike_engine_up(n->p[WEST].e, "test", &err), -EINVAL);
	assert_string_equal(
		err.msg,
		"conn test: leftikeport=4600, but the daemon listens on ikeport=500 and nat-ikeport=4500");
	assert_int_equal(ike_sa_count(n, WEST, NULL), 0);
	net_free(n);
}

/* The conn of p's only IKE SA, or "" (none, or several). */
static const char *only_sa_conn(struct net *n, int who)
{
	const struct ike_sa *sa = ike_engine_next_sa(n->p[who].e, NULL);
	struct ike_sa_info info;

	if (!sa || ike_engine_next_sa(n->p[who].e, sa))
		return "";
	ike_sa_get_info(sa, &info);
	return info.conn;
}

/*
 * Two conns between the same hosts and IDs that differ in the protocol
 * port alone (ovs-monitor-ipsec's NAME-in-N and NAME-out-N): the
 * responder takes the one whose selectors the request's TS fit, not the
 * first by address and ID, which would narrow them to neither.
 */
static void ts_switch(const char *initiate, const char *want)
{
	const char *conns = "\tleftprotoport=udp/6081\n\trightprotoport=udp\n"
			    "\ttype=transport\n\n"
			    "conn test-out\n\talso=test\n"
			    "\tleftprotoport=udp\n\trightprotoport=udp/6081\n";
	struct net *n = net_new(conns, conns, NULL, NULL, NULL);
	struct ikb_error err = { "" };

	assert_int_equal(ike_engine_up(n->p[EAST].e, initiate, &err), 0);
	assert_true(net_run(n, both_up, 5000));
	assert_string_equal(only_sa_conn(n, EAST), initiate);
	assert_string_equal(only_sa_conn(n, WEST), want);
	net_free(n);
}

static void test_ts_switch(void **state)
{
	ts_switch("test-out", "test-out");
	ts_switch("test", "test");
}

/*
 * leftikeport= the NAT-T port, as Submariner's conns have it: IKE starts
 * there, to the peer's NAT-T port, and stays (no NAT, no float).
 */
static void test_natt_port_start(void **state)
{
	struct net *n = net_new("\tleftikeport=4500\n\trightikeport=4500\n",
				"\tleftikeport=4500\n\trightikeport=4500\n",
				NULL, NULL, NULL);
	struct ikb_error err = { "" };

	assert_int_equal(ike_engine_up(n->p[WEST].e, "test", &err), 0);
	assert_true(net_run(n, both_up, 5000));
	assert_true(n->nrec > 0);
	for (unsigned i = 0; i < n->nrec; i++) {
		assert_int_equal(n->rec[i].sport, 4500);
		assert_int_equal(n->rec[i].dport, 4500);
	}
	net_free(n);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(test_tunnel, net_cleanup),
		cmocka_unit_test_teardown(test_natt_port_start, net_cleanup),
		cmocka_unit_test_teardown(test_ts_switch, net_cleanup),
		cmocka_unit_test_teardown(test_remote_ike_port, net_cleanup),
		cmocka_unit_test_teardown(test_local_ike_port, net_cleanup),
		cmocka_unit_test_teardown(test_fragmentation_offer,
					  net_cleanup),
		cmocka_unit_test_teardown(test_transport, net_cleanup),
		cmocka_unit_test_teardown(test_defaults, net_cleanup),
		cmocka_unit_test_teardown(test_algorithms, net_cleanup),
		cmocka_unit_test_teardown(test_invalid_ke, net_cleanup),
		cmocka_unit_test_teardown(test_wrong_psk, net_cleanup),
		cmocka_unit_test_teardown(test_child_mismatch, net_cleanup),
		cmocka_unit_test_teardown(test_narrowing, net_cleanup),
		cmocka_unit_test_teardown(test_ts_unacceptable, net_cleanup),
		cmocka_unit_test_teardown(test_esn, net_cleanup),
		cmocka_unit_test_teardown(test_auto_and_down, net_cleanup),
		cmocka_unit_test_teardown(test_peer_moves_port, net_cleanup),
	};

	harness_global_init();
	return cmocka_run_group_tests_name("ike-exchanges", tests, NULL, NULL);
}
