// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * pcrypt= and nic-offload= at install, with the kernel's answers played by
 * the test: the algorithm name wrapped as pcrypt(<aead>), the crypto user
 * API request, one warning (or notice) per run however many SAs fall back,
 * what each SA records, and the route look-up that picks the device.
 * The real pcrypt request is never sent: crypto instances are not per
 * network namespace, and the test must not change the host's kernel.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include <string.h>
#include <cmocka.h>
#include <libmnl/libmnl.h>
#include <linux/cryptouser.h>
#include <linux/rtnetlink.h>

#include "netns.h"
#include "test_host.h"
#include "xfrm.h"

static char buf[XFRM_BUF];

static struct ikb_sa gcm_sa(uint32_t spi)
{
	struct ikb_sa sa = { .spi = spi,
			     .proto = IPPROTO_ESP,
			     .dir = IKB_DIR_OUT,
			     .cpu = -1,
			     .pcrypt = true };

	test_v4(&sa.src, "192.0.2.1");
	test_v4(&sa.dst, "192.0.2.2");
	strcpy(sa.aead.name, "rfc4106(gcm(aes))");
	return sa;
}

static unsigned count(const char *hay, const char *needle)
{
	unsigned n = 0;

	for (const char *p = hay; (p = strstr(p, needle)); p++)
		n++;
	return n;
}

static const char *inner_of(const struct ikb_sa *sa)
{
	static char out[XFRM_CRYPTO_NAME];
	struct ikb_error err = { "" };

	if (xfrm_pcrypt_inner(sa, out, sizeof(out), &err))
		fail_msg("inner: %s", err.msg);
	return out;
}

/* The name ESP asks for, which pcrypt(...) must wrap. */
static void test_inner_names(void **state)
{
	struct ikb_sa sa = gcm_sa(1);
	struct ikb_error err = { "" };
	char small[8];

	assert_string_equal(inner_of(&sa), "rfc4106(gcm(aes))");
	strcpy(sa.aead.name, "rfc7539esp(chacha20,poly1305)");
	assert_string_equal(inner_of(&sa), "rfc7539esp(chacha20,poly1305)");

	/* Encryption + integrity: the kernel's authenc pair. */
	memset(&sa.aead, 0, sizeof(sa.aead));
	strcpy(sa.encr.name, "cbc(aes)");
	strcpy(sa.integ.name, "hmac(sha256)");
	assert_string_equal(inner_of(&sa), "authenc(hmac(sha256),cbc(aes))");
	sa.esn = true;
	assert_string_equal(inner_of(&sa), "authencesn(hmac(sha256),cbc(aes))");
	sa.esn = false;
	sa.integ.name[0] = '\0';
	assert_string_equal(inner_of(&sa), "authenc(digest_null,cbc(aes))");

	assert_int_equal(xfrm_pcrypt_inner(&sa, small, sizeof(small), &err),
			 -ENAMETOOLONG);
	sa.encr.name[0] = '\0';
	assert_int_equal(xfrm_pcrypt_inner(&sa, small, sizeof(small), &err),
			 -EINVAL);
}

static void test_wrap(void **state)
{
	char out[XFRM_CRYPTO_NAME], longname[XFRM_CRYPTO_NAME];
	struct ikb_error err = { "" };

	assert_int_equal(
		xfrm_pcrypt_name(out, sizeof(out), "rfc4106(gcm(aes))", &err),
		0);
	assert_string_equal(out, "pcrypt(rfc4106(gcm(aes)))");
	assert_int_equal(xfrm_pcrypt_name(out, sizeof(out),
					  "authencesn(hmac(sha256),cbc(aes))",
					  &err),
			 0);
	assert_string_equal(out, "pcrypt(authencesn(hmac(sha256),cbc(aes)))");

	/* Nothing to wrap, wrapped already, or too long for the API. */
	assert_int_equal(xfrm_pcrypt_name(out, sizeof(out), "", &err), -EINVAL);
	assert_int_equal(xfrm_pcrypt_name(out, sizeof(out),
					  "pcrypt(rfc4106(gcm(aes)))", &err),
			 -EINVAL);
	assert_non_null(strstr(err.msg, "pcrypt already"));
	memset(longname, 'a', sizeof(longname) - 8);
	longname[sizeof(longname) - 8] = '\0'; /* 56 + "pcrypt()" = 64 */
	assert_int_equal(xfrm_pcrypt_name(out, sizeof(out), longname, &err),
			 -ENAMETOOLONG);
	assert_non_null(strstr(err.msg, "63 bytes"));
	longname[sizeof(longname) - 9] = '\0'; /* 55 + 8 = 63 fits */
	assert_int_equal(xfrm_pcrypt_name(out, sizeof(out), longname, &err), 0);
}

static void test_newalg_message(void **state)
{
	struct ikb_error err = { "" };
	struct nlmsghdr *nlh =
		xfrm_build_newalg(buf, "rfc4106(gcm(aes))", &err);
	const struct crypto_user_alg *u;

	assert_non_null(nlh);
	assert_int_equal(nlh->nlmsg_type, CRYPTO_MSG_NEWALG);
	assert_true(nlh->nlmsg_flags & NLM_F_REQUEST);
	assert_int_equal(nlh->nlmsg_len, mnl_nlmsg_size(sizeof(*u)));
	u = mnl_nlmsg_get_payload(nlh);
	assert_string_equal(u->cru_driver_name, "pcrypt(rfc4106(gcm(aes)))");
	assert_string_equal(u->cru_name, "");
	assert_int_equal(u->cru_type, 0x3); /* CRYPTO_ALG_TYPE_AEAD */
	assert_int_equal(u->cru_mask, 0xf); /* CRYPTO_ALG_TYPE_MASK */
	assert_null(xfrm_build_newalg(buf, "", &err));
}

static unsigned probes;
static const char *probe_ok; /* the one inner name the "kernel" has */

static int fake_probe(const char *inner, struct ikb_error *err)
{
	probes++;
	if (probe_ok && strcmp(inner, probe_ok) == 0)
		return 0;
	return ikb_error_set(err, ENOENT, "kernel: No such file or directory");
}

static struct xfrm_state fake_state(void)
{
	struct xfrm_state st = { .host = test_host(),
				 .pcrypt_probe = fake_probe };

	probes = 0;
	probe_ok = NULL;
	test_log[0] = '\0';
	return st;
}

/* No template: every SA falls back, one warning, one question. */
static void test_pcrypt_fallback_once(void **state)
{
	struct xfrm_state st = fake_state();
	struct ikb_sa sa;

	for (uint32_t spi = 0x100; spi < 0x105; spi++) {
		sa = gcm_sa(spi);
		xfrm_pcrypt_apply(&st, &sa);
		assert_true(sa.pcrypt);
		assert_true(sa.pcrypt_fallback);
	}
	assert_int_equal(probes, 1);
	assert_int_equal(count(test_log, "pcrypt=yes"), 1);
	assert_non_null(strstr(
		test_log,
		"pcrypt=yes: the kernel cannot run rfc4106(gcm(aes)) through pcrypt (kernel: No such file or directory); SA 0x00000100"));

	/* Another algorithm is asked once too, but warned about no more. */
	sa = gcm_sa(0x200);
	memset(&sa.aead, 0, sizeof(sa.aead));
	strcpy(sa.encr.name, "cbc(aes)");
	strcpy(sa.integ.name, "hmac(sha1)");
	xfrm_pcrypt_apply(&st, &sa);
	xfrm_pcrypt_apply(&st, &sa);
	assert_true(sa.pcrypt_fallback);
	assert_int_equal(probes, 2);
	assert_int_equal(count(test_log, "pcrypt=yes"), 1);

	/* pcrypt=no asks nothing and clears a stale mark. */
	sa = gcm_sa(0x300);
	sa.pcrypt = false;
	sa.pcrypt_fallback = true;
	xfrm_pcrypt_apply(&st, &sa);
	assert_false(sa.pcrypt_fallback);
	assert_int_equal(probes, 2);
}

static void test_pcrypt_available(void **state)
{
	struct xfrm_state st = fake_state();
	struct ikb_sa sa = gcm_sa(0x100);

	probe_ok = "rfc4106(gcm(aes))";
	xfrm_pcrypt_apply(&st, &sa);
	sa = gcm_sa(0x101);
	xfrm_pcrypt_apply(&st, &sa);
	assert_true(sa.pcrypt);
	assert_false(sa.pcrypt_fallback);
	assert_int_equal(probes, 1);
	assert_string_equal(test_log, "");
}

static int route_rc;
static unsigned routes;

static int fake_route(const struct ikb_sa *sa, char *dev, size_t len,
		      struct ikb_error *err)
{
	routes++;
	if (route_rc)
		return ikb_error_set(err, -route_rc,
				     "route to 192.0.2.2: no output device");
	snprintf(dev, len, "eth7");
	return 0;
}

/* /proc/crypto as the SMP UML 7.2 kernel wrote it, in two parts */
#define PROC_PLAIN                                                   \
	"name         : rfc4106(gcm(aes))\n"                             \
	"driver       : rfc4106(gcm_base(ctr(aes-lib),ghash-lib))\n"     \
	"module       : kernel\n"                                        \
	"priority     : 100\n"                                           \
	"selftest     : passed\n"                                        \
	"type         : aead\n"                                          \
	"\n"                                                             \
	"name         : gcm(aes)\n"                                      \
	"driver       : gcm_base(ctr(aes-lib),ghash-lib)\n"              \
	"selftest     : passed\n\n"
#define PROC_PCRYPT(test)                                               \
	"name         : rfc4106(gcm(aes))\n"                                \
	"driver       : pcrypt(rfc4106(gcm_base(ctr(aes-lib),ghash-lib)))\n" \
	"module       : pcrypt\n"                                           \
	"priority     : 200\n"                                              \
	"selftest     : " test "\n"                                         \
	"type         : aead\n\n"

static char proc_path[64];
static unsigned newalgs;
static const char *after_newalg; /* what proc says once newalg ran */

static void proc_write(const char *text)
{
	FILE *f = fopen(proc_path, "w");

	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static int fake_newalg(const char *inner, struct ikb_error *err)
{
	newalgs++;
	if (!after_newalg)
		return ikb_error_set(err, ENOENT, "no pcrypt template");
	proc_write(after_newalg);
	return -EAGAIN; /* made, its self-test still running */
}

static int probe(const char *proc_text, const char *after)
{
	struct ikb_error err = { "" };
	int fd;

	strcpy(proc_path, "/tmp/ikb-proc-crypto-XXXXXX");
	fd = mkstemp(proc_path);
	assert_true(fd >= 0);
	close(fd);
	proc_write(proc_text);
	newalgs = 0;
	after_newalg = after;
	fd = xfrm_pcrypt_probe_at(proc_path, fake_newalg, "rfc4106(gcm(aes))",
				  &err);
	unlink(proc_path);
	return fd;
}

/*
 * NEWALG goes out only when /proc/crypto lists no pcrypt instance of the
 * AEAD: a second one would wrap the first (pcrypt(pcrypt(...)), one
 * level per daemon start, until the names overflow and every SA of that
 * AEAD fails). Its EAGAIN is no verdict: the listing with the self-test
 * passed is.
 */
static void test_pcrypt_probe_once(void **state)
{
	/* none yet: one NEWALG, then listed and tested */
	assert_int_equal(probe(PROC_PLAIN, PROC_PLAIN PROC_PCRYPT("passed")), 0);
	assert_int_equal(newalgs, 1);
	/* there already (an earlier run, the peer's daemon on this kernel) */
	assert_int_equal(probe(PROC_PLAIN PROC_PCRYPT("passed"), NULL), 0);
	assert_int_equal(newalgs, 0);
	/* a kernel without self-tests says unknown: usable */
	assert_int_equal(probe(PROC_PCRYPT("unknown") PROC_PLAIN, NULL), 0);
	assert_int_equal(newalgs, 0);
	/* listed, its test never passes: no second NEWALG, a timeout */
	assert_int_equal(probe(PROC_PLAIN PROC_PCRYPT("failed"), NULL),
			 -ETIMEDOUT);
	assert_int_equal(newalgs, 0);
	/* no template: the kernel's error, at once */
	assert_int_equal(probe(PROC_PLAIN, NULL), -ENOENT);
	assert_int_equal(newalgs, 1);
	/* no /proc/crypto to read: said so, nothing sent */
	assert_int_equal(
		xfrm_pcrypt_listed("/nonexistent/proc-crypto", "x"),
		XFRM_PCRYPT_UNREADABLE);
}

static void test_offload_device(void **state)
{
	struct xfrm_state st = fake_state();
	struct xfrm_sa_opts o = { 0 };
	struct ikb_error err = { "" };
	struct ikb_sa sa = gcm_sa(0x100);

	st.route_dev = fake_route;
	route_rc = 0;
	routes = 0;

	/* no: no look-up. */
	assert_int_equal(xfrm_offload_prepare(&st, &sa, &o, &err), 0);
	assert_int_equal(routes, 0);
	assert_string_equal(sa.offload_dev, "");

	/* The route's device, unless one is given. */
	sa.offload = IKB_OFFLOAD_CRYPTO;
	assert_int_equal(xfrm_offload_prepare(&st, &sa, &o, &err), 0);
	assert_string_equal(sa.offload_dev, "eth7");
	assert_true(xfrm_offload_wanted(&sa, &o));
	strcpy(sa.offload_dev, "eth0");
	assert_int_equal(xfrm_offload_prepare(&st, &sa, &o, &err), 0);
	assert_string_equal(sa.offload_dev, "eth0");
	assert_int_equal(routes, 1);

	/* No route: crypto and packet fail, saying why. */
	route_rc = -ENODEV;
	sa.offload_dev[0] = '\0';
	assert_int_equal(xfrm_offload_prepare(&st, &sa, &o, &err), -ENODEV);
	assert_string_equal(
		err.msg,
		"nic-offload=crypto: no device to offload to: route to 192.0.2.2: no output device");
	sa.offload = IKB_OFFLOAD_PACKET;
	assert_int_equal(xfrm_offload_prepare(&st, &sa, &o, &err), -ENODEV);
	assert_non_null(strstr(err.msg, "nic-offload=packet"));
	assert_false(sa.offload_fallback);
	assert_string_equal(test_log, "");

	/* yes runs in software: marked, one notice for any number of SAs. */
	for (uint32_t spi = 0x100; spi < 0x103; spi++) {
		sa = gcm_sa(spi);
		sa.offload = IKB_OFFLOAD_YES;
		o.no_offload = false;
		assert_int_equal(xfrm_offload_prepare(&st, &sa, &o, &err), 0);
		assert_true(o.no_offload);
		assert_false(xfrm_offload_wanted(&sa, &o));
		assert_true(sa.offload_fallback);
	}
	assert_int_equal(count(test_log, "nic-offload=yes"), 1);
	assert_non_null(strstr(
		test_log,
		"nic-offload=yes: SA 0x00000100 runs in software (route to 192.0.2.2: no output device)"));
	xfrm_offload_soft(&st, &sa, "eth7 cannot offload ESP");
	assert_int_equal(count(test_log, "nic-offload=yes"), 1);
}

static void test_getroute_message(void **state)
{
	struct ikb_addr to, from;
	struct nlmsghdr *nlh;
	const struct rtmsg *r;
	const struct nlattr *a;
	unsigned n = 0;

	test_v4(&to, "203.0.113.9");
	test_v4(&from, "198.51.100.9");
	nlh = xfrm_build_getroute(buf, &to, &from);
	assert_int_equal(nlh->nlmsg_type, RTM_GETROUTE);
	assert_true(nlh->nlmsg_flags & NLM_F_REQUEST);
	r = mnl_nlmsg_get_payload(nlh);
	assert_int_equal(r->rtm_family, AF_INET);
	assert_int_equal(r->rtm_dst_len, 32);
	assert_int_equal(r->rtm_src_len, 32);
	mnl_attr_for_each(a, nlh, sizeof(*r))
	{
		uint16_t t = mnl_attr_get_type(a);

		n++;
		assert_true(t == RTA_DST || t == RTA_SRC);
		assert_int_equal(mnl_attr_get_payload_len(a), 4);
		assert_memory_equal(mnl_attr_get_payload(a),
				    t == RTA_DST ? to.bytes : from.bytes, 4);
	}
	assert_int_equal(n, 2);

	/* No source of the same family: the destination alone. */
	to.family = AF_INET6;
	nlh = xfrm_build_getroute(buf, &to, &from);
	r = mnl_nlmsg_get_payload(nlh);
	assert_int_equal(r->rtm_dst_len, 128);
	assert_int_equal(r->rtm_src_len, 0);
}

/* A kernel answer: RTM_NEWROUTE with RTA_OIF. */
static void test_route_reply(void **state)
{
	struct nlmsghdr *nlh = xfrm_nl_start(buf, RTM_NEWROUTE, 0);
	struct rtmsg *r = mnl_nlmsg_put_extra_header(nlh, sizeof(*r));
	uint32_t oif = 0;

	r->rtm_family = AF_INET;
	mnl_attr_put_u32(nlh, RTA_TABLE, 254);
	mnl_attr_put_u32(nlh, RTA_OIF, 7);
	assert_int_equal(xfrm_route_oif(nlh, &oif), MNL_CB_OK);
	assert_int_equal(oif, 7);
	oif = 0;
	nlh->nlmsg_type = RTM_NEWLINK;
	assert_int_equal(xfrm_route_oif(nlh, &oif), MNL_CB_OK);
	assert_int_equal(oif, 0);
}

/* The real look-up, in a namespace of the test's own. */
static void test_route_lookup(void **state)
{
	struct ikb_sa sa = gcm_sa(0x100);
	struct ikb_error err = { "" };
	char dev[16] = "";

	NEED_NETNS();
	test_v4(&sa.src, "127.0.0.1");
	test_v4(&sa.dst, "127.0.0.2");
	if (xfrm_route_dev(&sa, dev, sizeof(dev), &err))
		fail_msg("route: %s", err.msg);
	assert_string_equal(dev, "lo");
	/* Inbound: the peer is the source. */
	sa.dir = IKB_DIR_IN;
	sa.src = sa.dst;
	test_v4(&sa.dst, "127.0.0.1");
	dev[0] = '\0';
	assert_int_equal(xfrm_route_dev(&sa, dev, sizeof(dev), &err), 0);
	assert_string_equal(dev, "lo");

	/* Nowhere to go: the kernel's reason. */
	test_v4(&sa.src, "192.0.2.2");
	assert_true(xfrm_route_dev(&sa, dev, sizeof(dev), &err) < 0);
	assert_non_null(strstr(err.msg, "route to 192.0.2.2: kernel: "));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_inner_names),
		cmocka_unit_test(test_wrap),
		cmocka_unit_test(test_newalg_message),
		cmocka_unit_test(test_pcrypt_fallback_once),
		cmocka_unit_test(test_pcrypt_available),
		cmocka_unit_test(test_pcrypt_probe_once),
		cmocka_unit_test(test_offload_device),
		cmocka_unit_test(test_getroute_message),
		cmocka_unit_test(test_route_reply),
		cmocka_unit_test(test_route_lookup),
	};

	return cmocka_run_group_tests_name("kernel-xfrm tuning", tests,
					   netns_setup, NULL);
}
