// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Well-formed values that ikebana does not (fully) implement: each gets a
 * warning or an error with file:line, section and key (keys_limits.c), and
 * each value that ikebana honours gets no message.
 */
#include "helpers.h"

#define W(line, conn, kv, msg) \
	"t.conf:" #line ": warning: conn " conn ": " kv ": " msg "\n"
#define E(line, conn, kv, msg) \
	"t.conf:" #line ": error: conn " conn ": " kv ": " msg "\n"

#define SUBNETS                                                                \
	"needs the multi-sa plugin, which plugins= does not load: without it " \
	"the conn would come up host to host and the subnets' traffic would "  \
	"go out in clear; load multi-sa, or write one conn per subnet pair "   \
	"with leftsubnet= and rightsubnet="
#define NEXTHOP                                                             \
	"ikebana installs no routes: the kernel's routing table picks the " \
	"next hop; ignored"
#define IKEPORT                                                          \
	"per-conn IKE ports are not implemented yet: ikebana sends and " \
	"listens on ikeport= "

/* The keys a loaded plugin owns (multi-sa's, when subnets says so). */
static bool owner(void *ctx, const char *key, enum ikb_key_scope scope)
{
	const bool *subnets = ctx;

	return *subnets && scope == IKB_KEY_CONN &&
	       (!strcmp(key, "leftsubnets") || !strcmp(key, "rightsubnets"));
}

static void keys_expect(const char *text, bool subnets, int rc,
			const char *want)
{
	struct ikb_diag d;
	struct cfg *c = NULL;

	diag_init(&d);
	assert_int_equal(cfg_parse_buffer("t.conf", text, strlen(text), &c, &d),
			 0);
	assert_int_equal(cfg_check_keys(c, owner, &subnets, &d), rc);
	char *got = diag_text(&d);

	assert_string_equal(got, want);
	free(got);
	diag_free(&d);
	cfg_free(c);
}

/*
 * leftsubnets= and rightsubnets=: multi-sa's. Without it the conn would
 * come up host to host and the subnets' traffic go out in clear.
 */
static void test_subnets(void **state)
{
	static const char conf[] = "conn a\n\tleftsubnets={10.0.1.0/24 "
				   "10.0.2.0/24}\n\trightsubnets=10.0.3.0/24\n";

	keys_expect(conf, true, 0, "");
	keys_expect(conf, false, -1,
		    E(2, "a", "leftsubnets=10.0.1.0/24 10.0.2.0/24", SUBNETS)
			    E(3, "a", "rightsubnets=10.0.3.0/24", SUBNETS));
	/* written once in %default: said once */
	keys_expect(
		"conn %default\n\tleftsubnets=10.0.1.0/24\nconn a\nconn b\n",
		false, -1,
		E(2, "%default", "leftsubnets=10.0.1.0/24", SUBNETS));
	/* a libreswan key no plugin owns, harmless to ignore: a warning */
	keys_expect(
		"conn a\n\tms-dh-downgrade=yes\n", false, 0,
		W(2, "a", "ms-dh-downgrade=yes",
		  "ignored by ikebana: ikebana never downgrades the key exchange on rekey: it rekeys with the conn's own proposals"));
	/* the way that works without multi-sa */
	core_expect("conn a\n\tleftsubnet=10.0.1.0/24\n"
		    "\trightsubnet=10.0.3.0/24\n",
		    "");
}

static void test_nexthop(void **state)
{
	core_expect("conn a\n\tleftnexthop=%direct\n"
		    "\trightnexthop=%defaultroute\n",
		    "");
	core_expect("conn a\n\tleftnexthop=192.0.2.254\n"
		    "\trightnexthop=2001:db8::1\n",
		    W(2, "a", "leftnexthop=192.0.2.254", NEXTHOP)
			    W(3, "a", "rightnexthop=2001:db8::1", NEXTHOP));
}

static void test_ikeport(void **state)
{
	/* ikeport= itself, 500 by default */
	core_expect("conn a\n\tleft=192.0.2.1\n\tright=192.0.2.2\n"
		    "\tleftikeport=500\n\trightikeport=500\n",
		    "");
	core_expect("config setup\n\tikeport=4501\n"
		    "conn a\n\tleft=192.0.2.1\n\tright=192.0.2.2\n"
		    "\tleftikeport=4501\n\trightikeport=4501\n",
		    "");
	/* another port at one end: where the peer listens (ikebanad(8)) */
	core_expect("conn a\n\tleft=192.0.2.1\n\tright=192.0.2.2\n"
		    "\trightikeport=4501\n",
		    "");
	/* at both ends: whichever is this host's, nothing listens there */
	core_expect(
		"conn a\n\tleft=192.0.2.1\n\tright=192.0.2.2\n"
		"\tleftikeport=4600\n\trightikeport=4601\n",
		E(5, "a", "rightikeport=4601",
		  IKEPORT
		  "(500) and nat-ikeport= (4500); one end is this host's, and leftikeport=4600 (t.conf:4) differs too"));
	core_expect(
		"config setup\n\tikeport=4501\n"
		"conn %default\n\tleftikeport=500\n"
		"conn a\n\tleft=192.0.2.1\n\tright=192.0.2.2\n"
		"\trightikeport=500\n",
		"t.conf:8: error: conn a: rightikeport=500: " IKEPORT
		"(4501) and nat-ikeport= (4500); one end is this host's, and leftikeport=500 (t.conf:4) differs too\n");
	/* the NAT-T port at both ends: IKE starts there (Submariner) */
	core_expect("conn a\n\tleft=192.0.2.1\n\tright=192.0.2.2\n"
		    "\tleftikeport=4500\n\trightikeport=4500\n",
		    "");
	/* the other end is %any, so this end is this host's */
	core_expect("conn a\n\tleft=192.0.2.1\n\tright=%any\n"
		    "\tleftikeport=4600\n",
		    E(4, "a", "leftikeport=4600",
		      IKEPORT
		      "(500) and nat-ikeport= (4500); with right=%any this end is this host's"));
	core_expect("conn a\n\tleft=%any\n\tright=192.0.2.2\n"
		    "\tleftikeport=4600\n",
		    "");
}

/* keyingtries= is implemented (daemon/ike/retry.c): no message */
static void test_keyingtries(void **state)
{
	core_expect("conn a\n\tkeyingtries=1\n", "");
	core_expect("conn a\n\tkeyingtries=%forever\n", "");
	core_expect("conn a\n\tkeyingtries=0\n", "");
	core_expect("conn %default\n\tkeyingtries=3\nconn a\nconn b\n", "");
}

static void test_encapsulation(void **state)
{
	core_expect("conn a\n\tencapsulation=no\n", "");
	core_expect("conn a\n\tencapsulation=auto\n", "");
	core_expect("conn a\n\tencapsulation=yes\n", "");
	core_expect("conn a\n\tencapsulation=true\n", "");
	core_expect("conn a\n\tnat-keepalive=no\n", "");
	core_expect("config setup\n\tkeep-alive=10\n", "");
	core_expect("config setup\n\tkeep-alive=0\n", "");
	core_expect("conn a\n\tnat-keepalive=often\n",
		    E(2, "a", "nat-keepalive=often", "expected yes or no"));
}

/* RFC 7383: every value of libreswan's works; force is IKEv1's word. */
static void test_fragmentation(void **state)
{
	core_expect("conn a\n\tfragmentation=no\n", "");
	core_expect("conn a\n\tfragmentation=never\n", "");
	core_expect("conn a\n\tfragmentation=yes\n", "");
	core_expect("conn a\n\tfragmentation=force\n", "");
	core_expect("conn a\n\tfragmentation=insist\n", "");
	core_expect("config setup\n\tike-fragment-size=1280\n", "");
	core_expect(
		"config setup\n\tike-fragment-size=500\n",
		"t.conf:2: error: config setup: ike-fragment-size=500: expected the size of an IP datagram, 576 to 65535 octets\n");
}

static void test_auto(void **state)
{
	core_expect("conn a\n\tleft=192.0.2.1\n\tright=192.0.2.2\n"
		    "\tauto=add\nconn b\n\tleft=192.0.2.1\n"
		    "\tright=192.0.2.3\n\tauto=start\nconn c\n\tauto=ignore\n",
		    "");
	core_expect(
		"conn a\n\tleft=192.0.2.1\n\tright=192.0.2.2\n\tauto=route\n"
		"conn b\n\tleft=192.0.2.1\n\tright=192.0.2.3\n\tauto=ondemand\n"
		"\tnegotiationshunt=passthrough\n\tfailureshunt=drop\n",
		"");
	core_expect(
		"conn a\n\tleft=192.0.2.1\n\tright=%any\n\tauto=route\n",
		E(4, "a", "auto=route",
		  "a trap needs both ends' addresses (its ESP template's endpoints), but right=%any"));
	core_expect("conn a\n\tleft=192.0.2.1\n\tright=%any\n\tauto=route\n"
		    "\ttype=drop\n\tauthby=never\n",
		    "");
	core_expect(
		"conn a\n\tleft=192.0.2.1\n\tright=192.0.2.2\n"
		"\tauthby=never\n",
		E(4, "a", "authby=never",
		  "authenticates nothing: only for type=passthrough, drop or reject"));
	core_expect(
		"conn a\n\tleft=192.0.2.1\n\tright=192.0.2.2\n\tauto=route\n"
		"\tfailureshunt=maybe\n",
		E(5, "a", "failureshunt=maybe",
		  "expected none, passthrough, drop, reject or hold (as drop)"));
	core_expect(
		"conn a\n\tleft=192.0.2.1\n\tright=192.0.2.2\n\tauto=up\n",
		E(4, "a", "auto=up",
		  "not implemented by ikebana yet (the conn would only be added, not initiated): write auto=start"));
	core_expect(
		"conn a\n\tleft=192.0.2.1\n\tright=192.0.2.2\n\tauto=keep\n",
		W(4, "a", "auto=keep",
		  "ikebana reads keep as add: it answers the peer, but does not bring the conn up again when it goes down"));
}

static void test_hosts(void **state)
{
	core_expect("conn a\n\tleft=192.0.2.1\n\tright=%any\n", "");
	core_expect("conn a\n\tleft=2001:db8::1\n\tright=%any6\n", "");
	core_expect("conn a\n\tleft=%defaultroute4\n\tright=gw.example.com\n",
		    "");
}

static void test_setup(void **state)
{
	core_expect("config setup\n\tlogfile=/var/log/ikebana.log\n"
		    "\tplutodebug=\"all private\"\n",
		    "");
	core_expect("config setup\n\tplutostderrlog=/var/log/pluto.log\n"
		    "\tplutodebug=none\n",
		    "");
	core_expect(
		"config setup\n\tlogfile=ikebana.log\n",
		"t.conf:2: error: config setup: logfile=ikebana.log: expected an absolute path (a detached daemon runs in /)\n");
	core_expect(
		"config setup\n\tplutostderrlog=log/pluto.log\n",
		"t.conf:2: error: config setup: plutostderrlog=log/pluto.log: expected an absolute path (a detached daemon runs in /)\n");
}

/* The counts and the return value follow the severities. */
static void test_severities(void **state)
{
	const char *text = "conn a\n\tleft=192.0.2.1\n\tright=192.0.2.2\n"
			   "\tauto=keep\n\trightnexthop=192.0.2.253\n"
			   "\tleftnexthop=192.0.2.254\n";
	struct ikb_diag d;
	struct cfg *c = NULL;

	diag_init(&d);
	assert_int_equal(cfg_parse_buffer("t.conf", text, strlen(text), &c, &d),
			 0);
	assert_int_equal(cfg_check_core(c, &d), 0);
	assert_int_equal(d.errors, 0);
	assert_int_equal(d.warnings, 3);
	cfg_free(c);
	diag_free(&d);

	/* libreswan 5.4: negotiationshunt=drop is its default, hold its alias */
	text = "conn a\n\tleft=192.0.2.1\n\tright=192.0.2.2\n"
	       "\tencapsulation=maybe\n\tnegotiationshunt=drop\n";
	diag_init(&d);
	assert_int_equal(cfg_parse_buffer("t.conf", text, strlen(text), &c, &d),
			 0);
	assert_int_equal(cfg_check_core(c, &d), -1);
	assert_int_equal(d.errors, 1);
	assert_int_equal(d.warnings, 0);
	cfg_free(c);
	diag_free(&d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_subnets),
		cmocka_unit_test(test_nexthop),
		cmocka_unit_test(test_ikeport),
		cmocka_unit_test(test_keyingtries),
		cmocka_unit_test(test_encapsulation),
		cmocka_unit_test(test_fragmentation),
		cmocka_unit_test(test_auto),
		cmocka_unit_test(test_hosts),
		cmocka_unit_test(test_setup),
		cmocka_unit_test(test_severities),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
