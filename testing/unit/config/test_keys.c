// SPDX-License-Identifier: GPL-2.0-or-later
/* Key ownership (core, plugin, libreswan-known, unknown) and value checks. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include <sys/stat.h>

#include "helpers.h"

/* A fake plugin set: esp=, ike=, replay-window= in conns, nothing else. */
static bool fake_owner(void *ctx, const char *key, enum ikb_key_scope scope)
{
	static const char *const keys[] = { "esp", "ike",    "replay-window",
					    "esn", "clones", "nic-offload",
					    NULL };
	int *calls = ctx;

	(*calls)++;
	if (scope != IKB_KEY_CONN)
		return false;
	for (size_t i = 0; keys[i]; i++)
		if (!strcmp(keys[i], key))
			return true;
	return false;
}

static void keys_expect(const char *text, const char *want, int rc)
{
	struct ikb_diag d;
	struct cfg *c;
	int calls = 0;

	diag_init(&d);
	cfg_parse_buffer("t.conf", text, strlen(text), &c, &d);
	assert_int_equal(cfg_check_keys(c, fake_owner, &calls, &d), rc);
	char *got = diag_text(&d);

	assert_string_equal(got, want);
	free(got);
	diag_free(&d);
	cfg_free(c);
}

static void test_ownership(void **state)
{
	keys_expect("config setup\n\tnhelpers=1\n\tplugins=esp-proposals\n"
		    "conn a\n\tleft=192.0.2.1\n\tesp=aes_gcm256\n",
		    "", 0);
	/* narrowing=yes asks for what ikebana does: no message */
	keys_expect("conn a\n\tnarrowing=yes\n\tleftupdown=%disabled\n", "", 0);
	/* leftsourceip= and updown= are the core's */
	keys_expect("conn a\n\tleftsourceip=10.0.0.1\n\trightupdown=/bin/true\n",
		    "", 0);
	keys_expect("conn a\n\tbogus=1\n",
		    "t.conf:2: error: conn a: bogus: unknown key\n", -1);
	keys_expect("config setup\n\tbogus=1\n",
		    "t.conf:2: error: config setup: bogus: unknown key\n", -1);
	keys_expect(
		"config setup\n\tprotostack=netkey\n",
		"t.conf:2: warning: config setup: protostack=netkey: ignored by ikebana: ikebana always uses its kernel backend plugin (kernel-xfrm: the XFRM stack, libreswan's netkey)\n",
		0);
	keys_expect(
		"conn a\n\tnhelpers=2\n",
		"t.conf:2: error: conn a: nhelpers: belongs in config setup, not in a conn\n",
		-1);
	keys_expect(
		"config setup\n\tleft=1.2.3.4\n",
		"t.conf:2: error: config setup: left: belongs in a conn, not in config setup\n",
		-1);
	keys_expect(
		"config setup\n\tesp=aes\n",
		"t.conf:2: error: config setup: esp: belongs in a conn, not in config setup\n",
		-1);
	/* written once in %default: reported once, not per conn */
	keys_expect("conn %default\n\tbogus=1\nconn a\nconn b\n",
		    "t.conf:2: error: conn %default: bogus: unknown key\n", -1);
}

static void test_owner_queries(void **state)
{
	assert_true(cfg_core_owns("left", IKB_KEY_CONN));
	assert_false(cfg_core_owns("left", IKB_KEY_SETUP));
	assert_true(cfg_core_owns("salifetime", IKB_KEY_CONN));
	assert_true(cfg_core_owns("fips", IKB_KEY_SETUP));
	assert_false(cfg_core_owns("esp", IKB_KEY_CONN));
	assert_true(cfg_libreswan_knows("esp", IKB_KEY_CONN));
	assert_true(cfg_libreswan_knows("leftcert", IKB_KEY_CONN));
	assert_true(cfg_libreswan_knows("rightsubnets", IKB_KEY_CONN));
	assert_false(cfg_libreswan_knows("leftbogus", IKB_KEY_CONN));
	assert_true(cfg_libreswan_knows("virtual-private", IKB_KEY_SETUP));
	assert_false(cfg_libreswan_knows("plugins", IKB_KEY_SETUP));
	assert_false(cfg_libreswan_knows("left", IKB_KEY_SETUP));
}

#define E(line, conn, kv, msg) \
	"t.conf:" #line ": error: conn " conn ": " kv ": " msg "\n"

static void test_hosts(void **state)
{
	core_expect(
		"conn a\n\tleft=192.0.2.1\n\tright=2001:db8::1\n",
		"t.conf:3: error: conn a: right=2001:db8::1: mixes address families with left=192.0.2.1 (t.conf:2)\n");
	/* resolved by the daemon, never by the config check */
	core_expect("conn a\n\tleft=%defaultroute\n\tright=east.example.com\n",
		    "");
	core_expect(
		"conn a\n\tleft=gw-1.example.com\n\tright=east..example.com\n",
		E(3, "a", "right=east..example.com",
		  "expected an IP address, a DNS name, %any or %defaultroute"));
	core_expect(
		"conn a\n\tleft=-gw.example\n\tright=192.0.2.2\n",
		E(2, "a", "left=-gw.example",
		  "expected an IP address, a DNS name, %any or %defaultroute"));
	core_expect("conn a\n\tleft=gw.example\n\tright=192.0.2.2\n"
		    "\thostaddrfamily=ipv6\n",
		    E(4, "a", "hostaddrfamily=ipv6",
		      "the right= address is of the other family"));
	core_expect("conn a\n\tleft=gw.example\n\tright=%any\n"
		    "\thostaddrfamily=ip7\n",
		    E(4, "a", "hostaddrfamily=ip7", "expected ipv4 or ipv6"));
	core_expect("conn a\n\tleft=%any6\n\tright=2001:db8::2\n", "");
	core_expect(
		"conn a\n\tleft=%any\n\tright=%any\n",
		E(3, "a", "right=%any",
		  "left= is %any too (t.conf:2): at least one end needs an address or name"));
	core_expect("conn a\n\tleft=%opportunistic\n", "");
	core_expect(
		"conn a\n\tleft=%defaultroute\n\tright=%group\n\trightsubnet=10.0.0.0/8\n",
		E(4, "a", "rightsubnet=10.0.0.0/8",
		  "right=%group takes its networks from its policy group file, not from rightsubnet="));
	core_expect(
		"conn a\n\tleft=192.0.2.1\n\tright=%opportunisticgroup\n\tauto=start\n",
		E(4, "a", "auto=start",
		  "an opportunistic conn (right=%opportunisticgroup) has no peer to start: traffic starts it; use auto=ondemand, or auto=add to answer only"));
	core_expect(
		"conn a\n\tleft=%oppo\n\tright=%opportunisticgroup\n",
		E(3, "a", "right=%opportunisticgroup",
		  "left= is %oppo too (t.conf:2): one end is this host, with an address, a name or %defaultroute"));
	core_expect(
		"conn a\n\tleft=%eth0\n",
		E(2, "a", "left=%eth0",
		  "expected an IP address, a DNS name, %any, %any4, %any6 or %defaultroute (interface names like %eth0 are not supported)"));
	core_expect(
		"conn a\n\tleft=1.2.3\n",
		E(2, "a", "left=1.2.3",
		  "expected an IP address, a DNS name, %any or %defaultroute"));
	core_expect(
		"conn a\n\tleft=bad_name\n",
		E(2, "a", "left=bad_name",
		  "expected an IP address, a DNS name, %any or %defaultroute"));
	core_expect(
		"conn a\n\tleftnexthop=%defaultroute\n\trightnexthop=%direct\n",
		"");
	core_expect("conn a\n\tleftnexthop=gw\n",
		    E(2, "a", "leftnexthop=gw",
		      "expected an IP address, %defaultroute or %direct"));
	core_expect(
		"conn a\n\tleftikeport=4500\n\trightikeport=0\n",
		E(3, "a", "rightikeport=0", "expected a port number 1..65535"));
}

static void test_missing_ends(void **state)
{
	core_expect(
		"conn a\n\tleft=192.0.2.1\n\tauto=add\n",
		E(3, "a", "auto=add",
		  "needs left= and right=, but right= is set neither in the conn, its also= conns nor conn %default"));
	/* templates (no auto=, or auto=ignore) may be partial */
	core_expect("conn a\n\tleft=192.0.2.1\nconn b\n\tauto=ignore\n", "");
	core_expect(
		"conn %default\n\tauto=start\nconn b\n\tright=192.0.2.1\n",
		"t.conf:2: error: conn b: auto=start: needs left= and right=, but left= is set neither in the conn, its also= conns nor conn %default\n");
}

static void test_sourceip(void **state)
{
	/* in leftsubnet= (one of a list), or the host itself: fine */
	core_expect("conn a\n\tleft=192.0.2.1\n\tleftsubnet=10.1.0.0/24\n"
		    "\tleftsourceip=10.1.0.1\n",
		    "");
	core_expect("conn a\n\tleft=192.0.2.1\n"
		    "\tleftsubnet=10.2.0.0/24,10.1.0.0/24\n"
		    "\trightsourceip=10.9.0.1\n\trightsubnet=10.9.0.0/16\n"
		    "\tleftsourceip=10.1.0.1\n",
		    "");
	core_expect("conn a\n\tleft=192.0.2.1\n\tleftsourceip=192.0.2.1\n", "");
	/* outside the selector: in clear */
	core_expect(
		"conn a\n\tleft=192.0.2.1\n\tleftsubnet=10.1.0.0/24\n"
		"\tleftsourceip=10.2.0.1\n",
		E(4, "a", "leftsourceip=10.2.0.1",
		  "not in leftsubnet=10.1.0.0/24 (t.conf:3): this host's traffic from it would miss the conn's policy and go out in clear"));
	core_expect(
		"conn a\n\tleft=192.0.2.1\n\tleftsourceip=10.2.0.1\n",
		E(3, "a", "leftsourceip=10.2.0.1",
		  "there is no leftsubnet=, so the policy covers left=192.0.2.1 only: traffic from this address would go out in clear; set leftsubnet= to a subnet that holds it"));
	core_expect(
		"conn a\n\tleft=192.0.2.1\n\tleftsubnet=10.1.0.0/24\n"
		"\ttype=transport\n\tleftsourceip=10.1.0.1\n",
		E(5, "a", "leftsourceip=10.1.0.1",
		  "needs type=tunnel (type=transport at t.conf:4): in transport mode the selector is the host's address"));
#define SRC_SYNTAX                                                   \
	"expected an IP address, or an IPv4 and an IPv6 address separated " \
	"by a comma (libreswan 5)"
	core_expect("conn a\n\tleftsourceip=host.example\n",
		    E(2, "a", "leftsourceip=host.example", SRC_SYNTAX));
	/*
	 * libreswan 5: one of each family, for the conns of that family;
	 * the one of the conn's family must be in its subnets
	 */
	core_expect("conn %default\n\tleft=192.0.2.1\n"
		    "\tleftsourceip=\"10.1.0.1, 2001:db8:1::1\"\n"
		    "conn v4\n\tleftsubnet=10.1.0.0/24\n"
		    "conn v6\n\tleft=2001:db8::1\n"
		    "\tleftsubnet=2001:db8:1::/64\n",
		    "");
	core_expect(
		"conn a\n\tleft=2001:db8::1\n"
		"\tleftsubnet=2001:db8:1::/64\n"
		"\tleftsourceip=10.1.0.1,2001:db8:2::1\n",
		E(4, "a", "leftsourceip=10.1.0.1,2001:db8:2::1",
		  "not in leftsubnet=2001:db8:1::/64 (t.conf:3): this host's traffic from it would miss the conn's policy and go out in clear"));
	/* none of the conn's family: as one address outside */
	core_expect(
		"conn a\n\tleft=192.0.2.1\n\tleftsubnet=10.1.0.0/24\n"
		"\tleftsourceip=2001:db8:1::1\n",
		E(4, "a", "leftsourceip=2001:db8:1::1",
		  "not in leftsubnet=10.1.0.0/24 (t.conf:3): this host's traffic from it would miss the conn's policy and go out in clear"));
	core_expect("conn a\n\tleftsourceip=10.1.0.1,10.1.0.2\n",
		    E(2, "a", "leftsourceip=10.1.0.1,10.1.0.2", SRC_SYNTAX));
	core_expect("conn a\n\tleftsourceip=10.1.0.0/24\n",
		    E(2, "a", "leftsourceip=10.1.0.0/24", SRC_SYNTAX));
	core_expect("conn a\n\tleftsourceip=,\n",
		    E(2, "a", "leftsourceip=,", SRC_SYNTAX));

	struct ikb_addr two[2];

	assert_int_equal(cfg_parse_sourceips("2001:db8::1,10.0.0.1", two), 2);
	assert_int_equal(two[0].family, AF_INET);
	assert_int_equal(two[1].family, AF_INET6);
	assert_int_equal(cfg_parse_sourceips("2001:db8::1", two), 1);
	assert_int_equal(two[0].family, 0);
#undef SRC_SYNTAX
}

/* interface-ip= goes on ipsecN: it needs one, and an address. */
static void test_interface_ip(void **state)
{
	core_expect("conn a\n\tipsec-interface=1\n"
		    "\tleftinterface-ip=192.0.2.1/24\n"
		    "\trightinterface-ip=2001:db8::1/64\n",
		    "");
	core_expect("conn a\n\tipsec-interface=yes\n"
		    "\tleftinterface-ip=10.9.0.1\n",
		    "");
	core_expect(
		"conn a\n\tleftinterface-ip=10.9.0.1/24\n",
		E(2, "a", "leftinterface-ip=10.9.0.1/24",
		  "needs ipsec-interface= (unset): the address goes on the conn's XFRM interface ipsecN, and there is none"));
	core_expect(
		"conn a\n\tipsec-interface=no\n\trightinterface-ip=10.9.0.1/24\n",
		E(3, "a", "rightinterface-ip=10.9.0.1/24",
		  "needs ipsec-interface= (no): the address goes on the conn's XFRM interface ipsecN, and there is none"));
	core_expect(
		"conn a\n\tipsec-interface=1\n\tleftinterface-ip=10.9.0.1/33\n",
		E(3, "a", "leftinterface-ip=10.9.0.1/33",
		  "expected an address with its prefix length, as 192.0.2.1/24 or 2001:db8::1/64"));
}

static void test_subnets(void **state)
{
	core_expect(
		"conn a\n\tleftsubnet=10.0.0.0/8\n\trightsubnet=2001:db8::/32\n",
		"t.conf:3: error: conn a: rightsubnet=2001:db8::/32: mixes address families with leftsubnet=10.0.0.0/8 (t.conf:2)\n");
	core_expect(
		"conn a\n\tleftsubnet=10.1.1.1/24\n",
		E(2, "a", "leftsubnet=10.1.1.1/24",
		  "host bits are set after the prefix length; expected a network address"));
	core_expect(
		"conn a\n\tleftsubnet=10.0.0.0/33\n",
		E(2, "a", "leftsubnet=10.0.0.0/33",
		  "expected a subnet ADDRESS/PREFIX, e.g. 192.0.2.0/24 or 2001:db8::/32"));
	core_expect(
		"conn a\n\tleftsubnet=vhost:%priv\n",
		E(2, "a", "leftsubnet=vhost:%priv",
		  "vhost: and vnet: are IKEv1-only; ikebana speaks IKEv2 only"));
	core_expect("conn a\n\tleftsubnet=192.0.2.7\n\trightsubnet=0.0.0.0/0\n",
		    "");
	/*
	 * leftsubnets= and rightsubnets= are the multi-sa plugin's, values
	 * and all (test_multi_sa.c); without it, an error (test_limits.c)
	 */
	core_expect("conn a\n\tleftsubnets={10.0.0.0/8, 192.168.0.0/16}\n", "");
	core_expect("conn a\n\tleftsubnets={10.0.0.0/8\n",
		    "t.conf:2: error: unterminated {\n");
}

static void test_protoport(void **state)
{
	core_expect(
		"conn a\n\tleftprotoport=tcp/22\n\trightprotoport=17/%any\n",
		"");
	core_expect("conn a\n\tleftprotoport=udp\n\trightprotoport=tcp/https\n",
		    "");
	core_expect(
		"conn a\n\tleftprotoport=foo/22\n",
		E(2, "a", "leftprotoport=foo/22",
		  "unknown protocol \"foo\": expected a number 0..255 or one of icmp, tcp, udp, gre, esp, ah, icmpv6, sctp"));
	core_expect(
		"conn a\n\tleftprotoport=tcp/70000\n",
		E(2, "a", "leftprotoport=tcp/70000",
		  "unknown port \"70000\": expected a number 0..65535, %any or a well-known service name (ssh, http, https, domain, ...)"));
	core_expect("conn a\n\tleftprotoport=/22\n",
		    E(2, "a", "leftprotoport=/22",
		      "expected PROTOCOL[/PORT], e.g. tcp/22, udp or 17/%any"));
}

static void test_ids(void **state)
{
	core_expect("conn a\n\tleftid=@west.example\n\trightid=@[keyid]\n", "");
	core_expect(
		"conn a\n\tleftid=\"C=CH, O=Example, CN=west\"\n\trightid=192.0.2.1\n",
		"");
	core_expect("conn a\n\tleftid=%fromcert\n\trightid=%fromcert\n", "");
	core_expect("conn a\n\tleftid=@\n",
		    E(2, "a", "leftid=@", "expected a name after @"));
	core_expect(
		"conn a\n\tleftid=@[x\n",
		E(2, "a", "leftid=@[x", "expected @[KEY-ID] with a closing ]"));
	core_expect(
		"conn a\n\tleftid=\"what ever\"\n",
		E(2, "a", "leftid=what ever",
		  "expected @FQDN, user@domain, @[KEY-ID], an IP address, a DN like \"C=CH, O=Example, CN=west\" or %any"));
	/* libreswan 5: user@domain without a leading @ is ID_RFC822_ADDR */
	core_expect("conn a\n\tleftid=alice@example.com\n", "");
	core_expect("conn a\n\tleftid=\"al ice@example.com\"\n",
		    E(2, "a", "leftid=al ice@example.com",
		      "expected user@domain without white space or control characters before the @"));
	core_expect("conn a\n\tleftid=alice@\n",
		    E(2, "a", "leftid=alice@",
		      "expected user@domain with a domain name after the @"));
}

static void test_enums(void **state)
{
	core_expect(
		"conn a\n\tleft=192.0.2.1\n\tright=192.0.2.2\n\tauthby=secret\n\tauto=start\n\ttype=transport\n"
		"\tikev2=insist\n\tkeyexchange=ikev2\n\tpfs=no\n\trekey=yes\n"
		"\tencapsulation=auto\n\tfragmentation=no\n",
		"");
	core_expect("conn a\n\tauthby=rsasig\n", "");
	core_expect("conn a\n\tauthby=rsa-sha2_384,ecdsa-sha2\n", "");
	core_expect(
		"conn a\n\tleftauth=rsasig\n\trightauth=ecdsa\n\tleftcert=west\n"
		"\tleftsendcert=sendifasked\n\trightca=%same\n",
		"");
	core_expect("conn a\n\tauthby=secret,null\n", "");
	core_expect("conn a\n\tauthby=null\n\tleftauth=null\n", "");
	core_expect("conn a\n\ttype=passthrough\n\tauthby=never\n", "");
	core_expect(
		"conn a\n\ttype=shunt\n",
		E(2, "a", "type=shunt",
		  "expected tunnel, transport, passthrough, drop or reject"));
	core_expect(
		"conn a\n\tauthby=psk\n",
		E(2, "a", "authby=psk",
		  "unknown method \"psk\": expected secret, rsasig, ecdsa, null, rsa-sha1, rsa-sha2[_256|_384|_512] or ecdsa-sha2[_256|_384|_512]"));
	core_expect(
		"conn a\n\tauthby=\n",
		E(2, "a", "authby=", "expected secret, rsasig, ecdsa or null"));
	core_expect(
		"conn a\n\tleftauth=eaponly\n",
		E(2, "a", "leftauth=eaponly",
		  "not implemented by ikebana yet: use secret, rsasig, ecdsa or null"));
	core_expect("conn a\n\tleftsendcert=maybe\n",
		    E(2, "a", "leftsendcert=maybe",
		      "expected always, sendifasked or never"));
	core_expect(
		"conn a\n\trightca=example\n",
		E(2, "a", "rightca=example",
		  "expected %same, %any or a DN like \"C=CH, O=Example, CN=Example CA\""));
	core_expect(
		"conn a\n\tauto=begin\n",
		E(2, "a", "auto=begin",
		  "expected one of add, start, ondemand, route, ignore, keep"));
	core_expect("conn a\n\ttype=drop\n", "");
	core_expect(
		"conn a\n\ttype=bus\n",
		E(2, "a", "type=bus",
		  "expected tunnel, transport, passthrough, drop or reject"));
	core_expect("conn a\n\tikev2=no\n",
		    E(2, "a", "ikev2=no", "ikebana speaks IKEv2 only"));
	core_expect("conn a\n\tikev2=never\n",
		    E(2, "a", "ikev2=never", "ikebana speaks IKEv2 only"));
	core_expect("conn a\n\tikev2=maybe\n",
		    E(2, "a", "ikev2=maybe",
		      "expected yes (ikebana speaks IKEv2 only)"));
	core_expect(
		"conn a\n\tikev2=permit\n",
		"t.conf:2: warning: conn a: ikev2=permit: libreswan 5 reads permit as IKEv1; ikebana uses IKEv2\n");
	core_expect(
		"conn a\n\tkeyexchange=ikev1\n",
		E(2, "a", "keyexchange=ikev1", "ikebana speaks IKEv2 only"));
	core_expect("conn a\n\tkeyexchange=ssh\n",
		    E(2, "a", "keyexchange=ssh", "expected ike or ikev2"));
	core_expect("conn a\n\tpfs=maybe\n",
		    E(2, "a", "pfs=maybe", "expected yes or no"));
	core_expect("conn a\n\tpfs=on\n\trekey=n\n\tencapsulation=false\n", "");
	core_expect(
		"conn a\n\tencapsulation=maybe\n",
		E(2, "a", "encapsulation=maybe", "expected yes, no or auto"));
	core_expect(
		"conn a\n\tfragmentation=often\n",
		E(2, "a", "fragmentation=often", "expected yes, no or force"));
}

static void test_times(void **state)
{
	core_expect(
		"conn a\n\tikelifetime=24h\n\tsalifetime=3600\n\trekeymargin=9m\n"
		"\tdpddelay=30\n\tdpdtimeout=2m\n\tretransmit-timeout=60s\n"
		"\tretransmit-interval=500\n\trekeyfuzz=100%\n\tkeyingtries=%forever\n",
		"");
	core_expect("conn a\n\tikelifetime=25h\n",
		    E(2, "a", "ikelifetime=25h",
		      "expected at most 24h (libreswan's maximum)"));
	core_expect("conn a\n\tipsec-lifetime=2d\n",
		    E(2, "a", "ipsec-lifetime=2d",
		      "expected at most 24h (libreswan's maximum)"));
	core_expect("conn a\n\tikelifetime=0\n",
		    E(2, "a", "ikelifetime=0", "expected a lifetime above 0"));
	core_expect(
		"conn a\n\tlifetime=8x\n",
		E(2, "a", "lifetime=8x",
		  "expected a duration: seconds, or a number with s, m, h or d (e.g. 8h)"));
	core_expect(
		"conn a\n\tdpddelay=soon\n",
		E(2, "a", "dpddelay=soon",
		  "expected a duration: seconds, or a number with s, m, h, d or w (e.g. 30s, 8h)"));
	core_expect(
		"conn a\n\tretransmit-interval=fast\n",
		E(2, "a", "retransmit-interval=fast",
		  "expected a duration: milliseconds, or a number with ms, s or m (e.g. 500ms, 2s)"));
	/* what the engine would not take, the check does not either */
	core_expect(
		"conn a\n\tretransmit-interval=60s\n",
		E(2, "a", "retransmit-interval=60s",
		  "expected 1ms up to 59s: the first wait before a retransmission"));
	core_expect(
		"conn a\n\tretransmit-interval=0\n",
		E(2, "a", "retransmit-interval=0",
		  "expected 1ms up to 59s: the first wait before a retransmission"));
	core_expect(
		"conn a\n\tretransmit-timeout=0\n",
		E(2, "a", "retransmit-timeout=0",
		  "expected a duration above 0: how long an exchange is tried"));
	core_expect("conn a\n\trekeyfuzz=lots\n",
		    E(2, "a", "rekeyfuzz=lots",
		      "expected a percentage, e.g. 100%"));
	core_expect("conn a\n\tkeyingtries=-3\n",
		    E(2, "a", "keyingtries=-3",
		      "expected a number of tries (0 or %forever: no limit)"));
	core_expect("conn a\n\tikelifetime=1h\n\trekeymargin=2h\n",
		    E(3, "a", "rekeymargin=2h",
		      "must be shorter than ikelifetime=1h (t.conf:2)"));
	core_expect(
		"conn %default\n\trekeymargin=10m\nconn a\n\tkeylife=5m\n",
		"t.conf:2: error: conn a: rekeymargin=10m: must be shorter than ipsec-lifetime=5m (t.conf:4)\n");
	unsigned long long ms;

	assert_true(cfg_parse_duration_ms("1.5h", &ms));
	assert_int_equal(ms, 5400000);
	assert_true(cfg_parse_duration_ms("2W", &ms));
	assert_int_equal(ms, 14ULL * 86400 * 1000);
	assert_true(cfg_parse_duration_ms("250ms", &ms));
	assert_int_equal(ms, 250);
	assert_false(cfg_parse_duration_ms("", &ms));
	assert_false(cfg_parse_duration_ms("h", &ms));
	bool b;

	core_expect("conn a\n\tipsec-max-bytes=1GiB\n"
		    "\tipsec-max-packets=10Mi\n",
		    "");
	core_expect(
		"conn a\n\tipsec-max-bytes=1GB\n",
		E(2, "a", "ipsec-max-bytes=1GB",
		  "expected a byte count from 1 to 2^63, optionally with KiB, MiB, GiB, TiB, PiB or EiB (e.g. 1GiB); leave the key out for no limit"));
	core_expect(
		"conn a\n\tipsec-max-packets=1KiB\n",
		E(2, "a", "ipsec-max-packets=1KiB",
		  "expected a packet count from 1 to 2^63, optionally with Ki, Mi, Gi, Ti, Pi or Ei (e.g. 10Mi); leave the key out for no limit"));

	assert_true(cfg_parse_bool("Yes", &b) && b);
	assert_true(cfg_parse_bool("off", &b) && !b);
	assert_false(cfg_parse_bool("1", &b));
	uint64_t n;

	assert_true(cfg_parse_count("1GiB", true, &n));
	assert_int_equal(n, 1ULL << 30);
	assert_true(cfg_parse_count("3kib", true, &n));
	assert_int_equal(n, 3072);
	assert_true(cfg_parse_count("8EiB", true, &n)); /* 2^63 */
	assert_int_equal(n, 1ULL << 63);
	assert_false(cfg_parse_count("9EiB", true, &n));
	assert_false(cfg_parse_count("18446744073709551616", true, &n));
	assert_true(cfg_parse_count("2Mi", false, &n));
	assert_int_equal(n, 2ULL << 20);
	assert_false(cfg_parse_count("2MiB", false, &n));
	assert_false(cfg_parse_count("2Mi", true, &n));
	assert_false(cfg_parse_count("0", true, &n));
	assert_false(cfg_parse_count("", false, &n));
	assert_false(cfg_parse_count("-1", false, &n));
	assert_false(cfg_parse_count("1 KiB", true, &n));
}

static void test_mark(void **state)
{
	core_expect("conn a\n\tmark=-1\n", "");
	core_expect("conn a\n\tmark=0x10/0xff\n", "");
	core_expect("conn a\n\tmark=42\n", "");
	core_expect(
		"conn a\n\tmark=0x1ffffffff\n",
		E(2, "a", "mark=0x1ffffffff",
		  "expected VALUE[/MASK], 32-bit numbers in decimal or 0x hex (VALUE -1: a unique mark per SA)"));
	core_expect("conn a\n\tmark-in=5/0xf\n\tmark-out=-1\n", "");
	core_expect("conn a\n\tmark-out=1/x\n",
		    E(2, "a", "mark-out=1/x",
		      "expected a 32-bit MASK in decimal or 0x hex after /"));
	core_expect("conn a\n\tmark=1/x\n",
		    E(2, "a", "mark=1/x",
		      "expected a 32-bit MASK in decimal or 0x hex after /"));
}

/* ipsec-interface=yes|no|N, as libreswan: digits are a number */
static void test_ipsec_interface(void **state)
{
	static const char *const bad[] = { "-1", "4294967295", "ipsec1", "1x",
					   "0x10" };
	char conf[64], want[256];

	core_expect("conn a\n\tipsec-interface=yes\n", "");
	core_expect("conn a\n\tipsec-interface=no\n", "");
	core_expect("conn a\n\tipsec-interface=0\n", "");
	core_expect("conn a\n\tipsec-interface=4294967294\n", "");
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		snprintf(conf, sizeof(conf), "conn a\n\tipsec-interface=%s\n",
			 bad[i]);
		snprintf(
			want, sizeof(want),
			"t.conf:2: error: conn a: ipsec-interface=%s: expected yes, no or an interface number 0..4294967294 (N: the XFRM interface ipsecN)\n",
			bad[i]);
		core_expect(conf, want);
	}
}

/* crl-strict= and the OCSP keys (daemon/app/revocation_conf.c). */
static void test_revocation(void **state)
{
	core_expect(
		"config setup\n\tcrl-strict=yes\n\tocsp-enable=yes\n"
		"\tocsp-strict=yes\n\tocsp-timeout=5\n\tocsp-method=post\n"
		"\tocsp-uri=http://192.0.2.9:8080/\n\tocsp-trustname=\"ocsp signer\"\n"
		"\tocsp-cache-size=100\n\tocsp-cache-min-age=1m\n"
		"\tocsp-cache-max-age=1d\n",
		"");
	core_expect(
		"config setup\n\tocsp-enable=yes\n\tocsp-uri=https://ocsp.example/\n"
		"\tocsp-trustname=ca\n",
		"t.conf:3: error: config setup: ocsp-uri=https://ocsp.example/: NSS's OCSP client speaks plain HTTP only (OCSP answers are signed): use an http:// URI\n");
	core_expect(
		"config setup\n\tocsp-enable=yes\n\tocsp-uri=http://ocsp.example/\n",
		"t.conf:3: error: config setup: ocsp-uri=http://ocsp.example/: needs ocsp-trustname=, the nickname of the certificate that signs the responder's answers: without it none can be trusted\n");
	core_expect(
		"config setup\n\tocsp-enable=yes\n\tocsp-trustname=ca\n",
		"t.conf:3: error: config setup: ocsp-trustname=ca: needs ocsp-uri=, the responder it signs for\n");
	core_expect(
		"config setup\n\tocsp-enable=yes\n\tocsp-timeout=0\n",
		"t.conf:3: error: config setup: ocsp-timeout=0: expected 1 to 120 seconds: each OCSP request holds a helper thread that long at most\n");
	core_expect(
		"config setup\n\tocsp-enable=yes\n\tocsp-method=put\n",
		"t.conf:3: error: config setup: ocsp-method=put: expected get or post\n");
	core_expect(
		"config setup\n\tocsp-strict=yes\n",
		"t.conf:2: warning: config setup: ocsp-strict=yes: has no effect without ocsp-enable=yes: certificates are checked against the CRLs in the NSS database only\n");
	core_expect("config setup\n\tstrictcrlpolicy=yes\n", "");
	core_expect(
		"config setup\n\tcrl-strict=maybe\n",
		"t.conf:2: error: config setup: crl-strict=maybe: expected yes or no\n");
}

static void test_setup_values(void **state)
{
	core_expect(
		"config setup\n\tplugins=\"esp-proposals, multi-sa\"\n\tnhelpers=-1\n"
		"\tddos-ike-threshold=25000\n\tmax-halfopen-ike=50000\n\tddos-mode=busy\n"
		"\tlisten=192.0.2.1\n\tikeport=500\n\tnat-ikeport=4500\n\tlogfile=/tmp/x\n"
		"\tplutodebug=\"all,crypt\"\n\tuniqueids=yes\n\tfips=no\n",
		"");
	core_expect(
		"config setup\n\tplugins=ESP\n",
		"t.conf:2: error: config setup: plugins=ESP: expected plugin names (lower-case letters, digits, '-') separated by spaces or commas\n");
	core_expect(
		"config setup\n\tplugins=\"\"\n",
		"t.conf:2: error: config setup: plugins=: expected at least one plugin name\n");
	core_expect(
		"config setup\n\tnhelpers=-2\n",
		"t.conf:2: error: config setup: nhelpers=-2: expected a number of helper threads 0..4096, or -1 for one per CPU less one\n");
	core_expect(
		"config setup\n\tddos-ike-threshold=many\n",
		"t.conf:2: error: config setup: ddos-ike-threshold=many: expected a whole number\n");
	core_expect(
		"config setup\n\tddos-mode=panic\n",
		"t.conf:2: error: config setup: ddos-mode=panic: expected one of auto, busy, unlimited\n");
	core_expect(
		"config setup\n\tlisten=eth0\n",
		"t.conf:2: error: config setup: listen=eth0: expected an IP address\n");
	core_expect(
		"config setup\n\tlogfile=\n",
		"t.conf:2: error: config setup: logfile=: expected a value\n");
	core_expect(
		"config setup\n\tfips=maybe\n",
		"t.conf:2: error: config setup: fips=maybe: expected yes or no\n");
	core_expect("conn a\n\talso=\nconn b\n",
		    "t.conf:2: error: conn a: also=: no conn named \"\"\n"
		    "t.conf:2: error: conn a: also=: expected a value\n");
}

/* leftupdown=: the program must be there and executable (values_updown.c) */
static void test_updown(void **state)
{
	char dir[] = "/tmp/ikb-updown-XXXXXX", exe[64], plain[64], text[512];
	FILE *f;

	assert_non_null(mkdtemp(dir));
	snprintf(exe, sizeof(exe), "%s/up.sh", dir);
	snprintf(plain, sizeof(plain), "%s/plain", dir);
	assert_non_null(f = fopen(exe, "w"));
	fclose(f);
	assert_int_equal(chmod(exe, 0755), 0);
	assert_non_null(f = fopen(plain, "w"));
	fclose(f);
	core_expect("conn a\n\tleftupdown=%disabled\n\trightupdown=\n", "");
	/* as libreswan, a command line: its first word is the program */
	snprintf(text, sizeof(text),
		 "conn a\n\tleftupdown=\"%s --route yes\"\n\trightupdown=sh\n",
		 exe);
	core_expect(text, "");
	core_expect(
		"conn a\n\tleftupdown=/nonexistent/updown\n",
		"t.conf:2: error: conn a: leftupdown=/nonexistent/updown: /nonexistent/updown: no such program; the script would never run: install it, or write %disabled\n");
	core_expect(
		"conn a\n\trightupdown=no-such-updown-program\n",
		"t.conf:2: error: conn a: rightupdown=no-such-updown-program: no-such-updown-program: no such program in PATH; the script would never run: install it, or write %disabled\n");
	snprintf(text, sizeof(text), "conn a\n\tleftupdown=%s\n", plain);
	char want[512];

	snprintf(
		want, sizeof(want),
		"t.conf:2: error: conn a: leftupdown=%s: %s: not an executable file; the script would never run: install it, or write %%disabled\n",
		plain, plain);
	core_expect(text, want);
	/* a conn that takes it from %default is checked, on its own line */
	snprintf(text, sizeof(text),
		 "conn %%default\n\tleftupdown=%s\nconn a\n", dir);
	snprintf(
		want, sizeof(want),
		"t.conf:2: error: conn a: leftupdown=%s: %s: not an executable file; the script would never run: install it, or write %%disabled\n",
		dir, dir);
	core_expect(text, want);
	unlink(exe);
	unlink(plain);
	rmdir(dir);
}

static void test_libreswan_real_world(void **state)
{
	const char *fx = getenv("CFG_FIXTURES");
	char path[PATH_MAX];
	struct ikb_diag d;
	struct cfg *c;
	int calls = 0;

	assert_non_null(fx);
	snprintf(path, sizeof(path), "%s/libreswan-real.conf", fx);
	diag_init(&d);
	assert_int_equal(cfg_parse_file(path, &c, &d), 0);
	assert_int_equal(cfg_check_keys(c, fake_owner, &calls, &d), 0);
	assert_int_equal(cfg_check_core(c, &d), 0);
	assert_int_equal(d.errors, 0);
	/*
	 * virtual-private and protostack, harmless to ignore; left=
	 * %defaultroute is taken (ike/conn/host.c). narrowing=yes is what
	 * ikebana does, fragmentation=yes too.
	 */
	assert_int_equal(d.warnings, 2);
	char *text = diag_text(&d);

	assert_null(strstr(text, "%defaultroute"));
	free(text);
	assert_true(calls > 0);
	const struct ikb_section *s = cfg_conn_find(c, "westnet-eastnet");

	assert_string_equal(value_of(s, "left"), "192.1.2.23");
	assert_string_equal(value_of(s, "ipsec-lifetime"), "1h");
	assert_string_equal(value_of(s, "keyingtries"), "%forever");
	assert_string_equal(value_of(s, "auto"), "add");
	assert_int_equal(c->nconns, 3);
	diag_free(&d);
	cfg_free(c);
}

static void test_diag_report(void **state)
{
	struct cfg *c = parse_expect(
		"config setup\n\tnhelpers=1\nconn a\n\tleft=1.2.3.4\n", "");
	struct ikb_diag d;
	char buf[256];

	diag_init(&d);
	diag_report(&d, &c->conns[0], cfg_get(&c->conns[0], "left"),
		    IKB_SEV_ERROR, "bad %s", "thing");
	diag_report(&d, &c->setup, NULL, IKB_SEV_WARNING, "whole section");
	diag_report(&d, NULL, NULL, IKB_SEV_NOTICE, "no place");
	assert_string_equal(diag_format(&d, 0, buf, sizeof(buf)),
			    "t.conf:4: error: conn a: left=1.2.3.4: bad thing");
	assert_string_equal(diag_format(&d, 1, buf, sizeof(buf)),
			    "t.conf:1: warning: config setup: whole section");
	assert_string_equal(diag_format(&d, 2, buf, sizeof(buf)),
			    "note: no place");
	assert_int_equal(d.errors, 1);
	assert_int_equal(d.warnings, 1);
	diag_free(&d);
	cfg_free(c);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ownership),
		cmocka_unit_test(test_owner_queries),
		cmocka_unit_test(test_hosts),
		cmocka_unit_test(test_missing_ends),
		cmocka_unit_test(test_subnets),
		cmocka_unit_test(test_sourceip),
		cmocka_unit_test(test_protoport),
		cmocka_unit_test(test_ids),
		cmocka_unit_test(test_enums),
		cmocka_unit_test(test_times),
		cmocka_unit_test(test_mark),
		cmocka_unit_test(test_ipsec_interface),
		cmocka_unit_test(test_setup_values),
		cmocka_unit_test(test_revocation),
		cmocka_unit_test(test_updown),
		cmocka_unit_test(test_interface_ip),
		cmocka_unit_test(test_libreswan_real_world),
		cmocka_unit_test(test_diag_report),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
