// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * kernel-xfrm message building, read back with libmnl's attribute walkers:
 * what the kernel would receive, attribute by attribute, with no kernel.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <net/if.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <libmnl/libmnl.h>
#include <linux/netlink.h>

#include "test_host.h"
#include "xfrm.h"

/* Debian 12's headers end before XFRMA_SA_PCPU, which xfrm.h adds. */
#define TB_MAX (XFRMA_MAX > XFRMA_SA_PCPU ? XFRMA_MAX : XFRMA_SA_PCPU)

static char buf[XFRM_BUF];
static const struct nlattr *tb[TB_MAX + 1];
static unsigned nattrs;

static int attr_cb(const struct nlattr *a, void *data)
{
	uint16_t t = mnl_attr_get_type(a);

	assert_true(t <= TB_MAX);
	assert_null(tb[t]); /* each attribute at most once */
	tb[t] = a;
	nattrs++;
	return MNL_CB_OK;
}

/* Parse nlh after a fixed header of hdr bytes; counts the attributes. */
static void parse(const struct nlmsghdr *nlh, size_t hdr)
{
	memset(tb, 0, sizeof(tb));
	nattrs = 0;
	assert_non_null(nlh);
	assert_true(nlh->nlmsg_len <= XFRM_BUF);
	assert_true(nlh->nlmsg_flags & NLM_F_REQUEST);
	assert_int_equal(mnl_attr_parse(nlh, hdr, attr_cb, NULL), MNL_CB_OK);
}

static void v6(struct ikb_addr *a, const char *s)
{
	a->family = AF_INET6;
	assert_int_equal(inet_pton(AF_INET6, s, a->bytes), 1);
}

static struct ikb_sa gcm_sa(enum ikb_dir dir, uint32_t window, bool esn)
{
	struct ikb_sa sa = { .spi = 0xc0ffee01,
			     .proto = IPPROTO_ESP,
			     .dir = dir,
			     .reqid = 7,
			     .replay_window = window,
			     .esn = esn,
			     .cpu = -1 };

	test_v4(&sa.src, "192.0.2.1");
	test_v4(&sa.dst, "192.0.2.2");
	strcpy(sa.aead.name, "rfc4106(gcm(aes))");
	sa.aead.key_bits = 160;
	sa.aead.icv_bits = 128;
	for (int i = 0; i < 20; i++)
		sa.aead.key[i] = (uint8_t)(i + 1);
	return sa;
}

static const struct xfrm_usersa_info *build(const struct ikb_sa *sa,
					    const struct xfrm_sa_opts *o)
{
	struct ikb_error err = { "" };
	struct nlmsghdr *nlh = xfrm_build_sa(buf, XFRM_MSG_NEWSA, sa, o, &err);

	if (!nlh)
		fail_msg("build failed: %s", err.msg);
	assert_int_equal(nlh->nlmsg_type, XFRM_MSG_NEWSA);
	parse(nlh, sizeof(struct xfrm_usersa_info));
	return mnl_nlmsg_get_payload(nlh);
}

static void build_fails(const struct ikb_sa *sa, const char *text)
{
	struct ikb_error err = { "" };

	assert_null(xfrm_build_sa(buf, XFRM_MSG_NEWSA, sa, NULL, &err));
	assert_non_null(strstr(err.msg, text));
}

static void test_aead_sa(void **state)
{
	struct ikb_sa sa = gcm_sa(IKB_DIR_IN, 32, false);
	const struct xfrm_usersa_info *p = build(&sa, NULL);
	const struct xfrm_algo_aead *a;
	struct in_addr dst;

	assert_int_equal(ntohl(p->id.spi), 0xc0ffee01);
	assert_int_equal(p->id.proto, IPPROTO_ESP);
	assert_int_equal(p->family, AF_INET);
	assert_int_equal(p->mode, XFRM_MODE_TRANSPORT);
	assert_int_equal(p->reqid, XFRM_REQID_BASE | 7);
	inet_pton(AF_INET, "192.0.2.2", &dst);
	assert_memory_equal(&p->id.daddr.a4, &dst, 4);
	/* No limits asked: all infinite, no expiry. */
	assert_true(p->lft.soft_byte_limit == XFRM_INF);
	assert_true(p->lft.hard_packet_limit == XFRM_INF);
	assert_int_equal(p->lft.hard_add_expires_seconds, 0);
	/* Unset selector stays wildcard. */
	assert_int_equal(p->sel.family, 0);

	/* The key, and window 32 as a one-word bitmap (test_replay). */
	assert_int_equal(nattrs, 2);
	assert_non_null(tb[XFRMA_REPLAY_ESN_VAL]);
	assert_int_equal(p->replay_window, 0);
	assert_non_null(tb[XFRMA_ALG_AEAD]);
	assert_int_equal(mnl_attr_get_payload_len(tb[XFRMA_ALG_AEAD]),
			 sizeof(*a) + 20);
	a = mnl_attr_get_payload(tb[XFRMA_ALG_AEAD]);
	assert_string_equal(a->alg_name, "rfc4106(gcm(aes))");
	assert_int_equal(a->alg_key_len, 160);
	assert_int_equal(a->alg_icv_len, 128);
	assert_memory_equal(a->alg_key, sa.aead.key, 20);
}

static void test_cbc_hmac_sa(void **state)
{
	struct ikb_sa sa = gcm_sa(IKB_DIR_OUT, 0, false);
	const struct xfrm_algo_auth *au;
	const struct xfrm_algo *c;
	const struct xfrm_usersa_info *p;

	memset(&sa.aead, 0, sizeof(sa.aead));
	strcpy(sa.encr.name, "cbc(aes)");
	sa.encr.key_bits = 128;
	memset(sa.encr.key, 0xaa, 16);
	strcpy(sa.integ.name, "hmac(sha256)");
	sa.integ.key_bits = 256;
	memset(sa.integ.key, 0xbb, 32);
	sa.mode = IKB_MODE_TUNNEL;
	p = build(&sa, NULL);
	assert_int_equal(p->mode, XFRM_MODE_TUNNEL);
	assert_int_equal(nattrs, 2);
	assert_null(tb[XFRMA_ALG_AEAD]);
	assert_null(tb[XFRMA_ALG_AUTH]);
	c = mnl_attr_get_payload(tb[XFRMA_ALG_CRYPT]);
	assert_string_equal(c->alg_name, "cbc(aes)");
	assert_int_equal(c->alg_key_len, 128);
	assert_int_equal(mnl_attr_get_payload_len(tb[XFRMA_ALG_CRYPT]),
			 sizeof(*c) + 16);
	au = mnl_attr_get_payload(tb[XFRMA_ALG_AUTH_TRUNC]);
	assert_string_equal(au->alg_name, "hmac(sha256)");
	assert_int_equal(au->alg_key_len, 256);
	/* RFC 4868, not the kernel table's 96. */
	assert_int_equal(au->alg_trunc_len, 128);
	assert_memory_equal(au->alg_key, sa.integ.key, 32);

	sa.integ.icv_bits = 96;
	build(&sa, NULL);
	au = mnl_attr_get_payload(tb[XFRMA_ALG_AUTH_TRUNC]);
	assert_int_equal(au->alg_trunc_len, 96);
}

static bool all_zero(const uint8_t *b, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (b[i])
			return false;
	return true;
}

/*
 * SECURITY.md: with kernel-xfrm, --debug-private has no Child SA key to
 * show. The kernel's NEWSA carries the keys (the same message as the one
 * installed, here), and what dump() hands on names the algorithms only.
 */
static void test_dump_keeps_keys_in_kernel(void **state)
{
	struct ikb_sa sa = gcm_sa(IKB_DIR_IN, 32, false), got;
	struct ikb_error err = { "" };
	struct nlmsghdr *nlh;

	nlh = xfrm_build_sa(buf, XFRM_MSG_NEWSA, &sa, NULL, &err);
	assert_non_null(nlh);
	assert_int_equal(xfrm_sa_parse(nlh, &got), 0);
	assert_int_equal(got.spi, sa.spi);
	assert_int_equal(got.reqid, 7);
	assert_string_equal(got.aead.name, "rfc4106(gcm(aes))");
	assert_true(all_zero(got.aead.key, sizeof(got.aead.key)));

	memset(&sa.aead, 0, sizeof(sa.aead));
	strcpy(sa.encr.name, "cbc(aes)");
	sa.encr.key_bits = 128;
	memset(sa.encr.key, 0xaa, 16);
	strcpy(sa.integ.name, "hmac(sha256)");
	sa.integ.key_bits = 256;
	memset(sa.integ.key, 0xbb, 32);
	nlh = xfrm_build_sa(buf, XFRM_MSG_NEWSA, &sa, NULL, &err);
	assert_non_null(nlh);
	assert_int_equal(xfrm_sa_parse(nlh, &got), 0);
	assert_string_equal(got.encr.name, "cbc(aes)");
	assert_string_equal(got.integ.name, "hmac(sha256)");
	assert_true(all_zero(got.encr.key, sizeof(got.encr.key)));
	assert_true(all_zero(got.integ.key, sizeof(got.integ.key)));

	/* another daemon's SA is not handed on at all */
	((struct xfrm_usersa_info *)mnl_nlmsg_get_payload(nlh))->reqid = 7;
	assert_int_equal(xfrm_sa_parse(nlh, &got), -1);
}

static void test_bad_algs(void **state)
{
	struct ikb_sa sa = gcm_sa(IKB_DIR_IN, 0, false);

	strcpy(sa.integ.name, "hmac(sha256)");
	build_fails(&sa, "takes no integrity");
	sa = gcm_sa(IKB_DIR_IN, 0, false);
	sa.aead.name[0] = '\0';
	build_fails(&sa, "exactly one");
	sa = gcm_sa(IKB_DIR_IN, 0, false);
	sa.aead.key_bits = 12;
	build_fails(&sa, "whole bytes");
	sa = gcm_sa(IKB_DIR_IN, 0, false);
	sa.reqid = 0x10000;
	build_fails(&sa, "outside 0..65535");
	sa = gcm_sa(IKB_DIR_IN, 0, false);
	v6(&sa.dst, "2001:db8::1");
	build_fails(&sa, "both IPv4 or both IPv6");
}

/* window, esn, dir -> legacy field, ESN_VAL (window, bmp_len), ESN flag */
static void replay_case(enum ikb_dir dir, uint32_t w, bool esn, unsigned legacy,
			bool has_esn_val, uint32_t rw, uint32_t bmp_len)
{
	struct ikb_sa sa = gcm_sa(dir, w, esn);
	const struct xfrm_usersa_info *p = build(&sa, NULL);
	const struct xfrm_replay_state_esn *r;

	assert_int_equal(p->replay_window, legacy);
	assert_int_equal(!!(p->flags & XFRM_STATE_ESN), esn);
	if (!has_esn_val) {
		assert_null(tb[XFRMA_REPLAY_ESN_VAL]);
		return;
	}
	assert_non_null(tb[XFRMA_REPLAY_ESN_VAL]);
	r = mnl_attr_get_payload(tb[XFRMA_REPLAY_ESN_VAL]);
	assert_int_equal(r->replay_window, rw);
	assert_int_equal(r->bmp_len, bmp_len);
	assert_int_equal(mnl_attr_get_payload_len(tb[XFRMA_REPLAY_ESN_VAL]),
			 sizeof(*r) + bmp_len * 4);
}

static void test_replay(void **state)
{
	struct ikb_sa sa;

	/* Window 0: no replay state at all. */
	replay_case(IKB_DIR_IN, 0, false, 0, false, 0, 0);
	/* Any other window: ESN_VAL with ceil(window / 32) words, 32 too. */
	replay_case(IKB_DIR_IN, 1, false, 0, true, 1, 1);
	replay_case(IKB_DIR_IN, 31, false, 0, true, 31, 1);
	replay_case(IKB_DIR_IN, 32, false, 0, true, 32, 1);
	replay_case(IKB_DIR_IN, 33, false, 0, true, 33, 2);
	replay_case(IKB_DIR_IN, 64, false, 0, true, 64, 2);
	replay_case(IKB_DIR_IN, 65, false, 0, true, 65, 3);
	replay_case(IKB_DIR_IN, 128, false, 0, true, 128, 4);
	replay_case(IKB_DIR_IN, 2048, false, 0, true, 2048, 64);
	replay_case(IKB_DIR_IN, 2048, true, 0, true, 2048, 64);
	replay_case(IKB_DIR_IN, 4096, true, 0, true, 4096, 128);
	replay_case(IKB_DIR_IN, 32, true, 0, true, 32, 1);
	/* Outbound: no window, or the smallest that ESN allows. */
	replay_case(IKB_DIR_OUT, 2048, false, 0, false, 0, 0);
	replay_case(IKB_DIR_OUT, 32, false, 0, false, 0, 0);
	replay_case(IKB_DIR_OUT, 0, false, 0, false, 0, 0);
	replay_case(IKB_DIR_OUT, 2048, true, 0, true, 1, 1);

	sa = gcm_sa(IKB_DIR_IN, 4097, true);
	build_fails(&sa, "exceeds the kernel's 4096");
	sa = gcm_sa(IKB_DIR_IN, 0, true);
	build_fails(&sa, "ESN needs a replay window");
}

static void test_lifetime_encap_mark(void **state)
{
	struct ikb_sa sa = gcm_sa(IKB_DIR_IN, 0, false);
	const struct xfrm_usersa_info *p;
	const struct xfrm_encap_tmpl *e;
	const struct xfrm_mark *m;

	sa.life = (struct ikb_lifetime){ .soft_bytes = 1000,
					 .hard_bytes = 2000,
					 .soft_packets = 10,
					 .hard_packets = 20,
					 .soft_add_secs = 3000,
					 .hard_add_secs = 3600 };
	sa.encap_sport = 4500;
	sa.encap_dport = 4501;
	sa.mark = 0x42;
	sa.mark_mask = 0xff;
	test_v4(&sa.sel.src, "10.1.0.0");
	sa.sel.src_plen = 16;
	test_v4(&sa.sel.dst, "10.2.0.0");
	sa.sel.dst_plen = 24;
	sa.sel.proto = IPPROTO_TCP;
	sa.sel.dport = 443;
	p = build(&sa, NULL);
	assert_true(p->lft.soft_byte_limit == 1000);
	assert_true(p->lft.hard_byte_limit == 2000);
	assert_true(p->lft.soft_packet_limit == 10);
	assert_true(p->lft.hard_packet_limit == 20);
	assert_true(p->lft.soft_add_expires_seconds == 3000);
	assert_true(p->lft.hard_add_expires_seconds == 3600);
	assert_int_equal(p->sel.family, AF_INET);
	assert_int_equal(p->sel.prefixlen_s, 16);
	assert_int_equal(p->sel.prefixlen_d, 24);
	assert_int_equal(p->sel.proto, IPPROTO_TCP);
	assert_int_equal(ntohs(p->sel.dport), 443);
	assert_int_equal(p->sel.dport_mask, 0xffff);
	assert_int_equal(p->sel.sport_mask, 0);
	assert_int_equal(nattrs, 3);
	e = mnl_attr_get_payload(tb[XFRMA_ENCAP]);
	assert_int_equal(e->encap_type, 2); /* UDP_ENCAP_ESPINUDP */
	assert_int_equal(ntohs(e->encap_sport), 4500);
	assert_int_equal(ntohs(e->encap_dport), 4501);
	m = mnl_attr_get_payload(tb[XFRMA_MARK]);
	assert_int_equal(m->v, 0x42);
	assert_int_equal(m->m, 0xff);

	/* mark=N alone is an exact match. */
	sa.mark_mask = 0;
	build(&sa, NULL);
	m = mnl_attr_get_payload(tb[XFRMA_MARK]);
	assert_int_equal(m->m, 0xffffffff);
}

static void test_offload(void **state)
{
	struct ikb_sa sa = gcm_sa(IKB_DIR_IN, 0, false);
	struct xfrm_sa_opts soft = { .no_offload = true };
	const struct xfrm_user_offload *o;

	sa.offload = IKB_OFFLOAD_CRYPTO;
	strcpy(sa.offload_dev, "lo");
	build(&sa, NULL);
	o = mnl_attr_get_payload(tb[XFRMA_OFFLOAD_DEV]);
	assert_int_equal(o->ifindex, (int)if_nametoindex("lo"));
	assert_int_equal(o->flags, XFRM_OFFLOAD_INBOUND);

	sa.offload = IKB_OFFLOAD_PACKET;
	sa.dir = IKB_DIR_OUT;
	build(&sa, NULL);
	o = mnl_attr_get_payload(tb[XFRMA_OFFLOAD_DEV]);
	assert_int_equal(o->flags, XFRM_OFFLOAD_PACKET);

	/* The software retry of nic-offload=yes. */
	sa.offload = IKB_OFFLOAD_YES;
	build(&sa, &soft);
	assert_null(tb[XFRMA_OFFLOAD_DEV]);

	/* yes without a device is software; crypto without one is an error. */
	sa.offload_dev[0] = '\0';
	build(&sa, NULL);
	assert_null(tb[XFRMA_OFFLOAD_DEV]);
	sa.offload = IKB_OFFLOAD_CRYPTO;
	build_fails(&sa, "needs a device");
	strcpy(sa.offload_dev, "nosuchdev0");
	build_fails(&sa, "offload device nosuchdev0");
}

static const struct xfrm_userpolicy_info *
build_pol(const struct ikb_policy *pol)
{
	struct ikb_error err = { "" };
	struct nlmsghdr *nlh =
		xfrm_build_policy(buf, XFRM_MSG_NEWPOLICY, pol, &err);

	if (!nlh)
		fail_msg("build failed: %s", err.msg);
	parse(nlh, sizeof(struct xfrm_userpolicy_info));
	return mnl_nlmsg_get_payload(nlh);
}

static void test_policies(void **state)
{
	static const struct {
		enum ikb_dir dir;
		uint8_t kdir;
	} dirs[] = { { IKB_DIR_IN, XFRM_POLICY_IN },
		     { IKB_DIR_OUT, XFRM_POLICY_OUT },
		     { IKB_DIR_FWD, XFRM_POLICY_FWD } };
	const struct xfrm_user_tmpl *t;
	const struct xfrm_userpolicy_info *p;
	struct ikb_policy pol;
	struct in_addr a;

	for (size_t i = 0; i < 3; i++) {
		pol = test_esp_policy(dirs[i].dir, IKB_MODE_TUNNEL, 7);
		p = build_pol(&pol);
		assert_int_equal(p->dir, dirs[i].kdir);
		assert_int_equal(p->action, XFRM_POLICY_ALLOW);
		assert_int_equal(p->sel.family, AF_INET);
		assert_int_equal(p->sel.prefixlen_s, 16);
		assert_int_equal(p->sel.prefixlen_d, 24);
		assert_int_equal(p->priority, xfrm_priority(&pol));
		assert_true(p->lft.hard_byte_limit == XFRM_INF);
		assert_int_equal(nattrs, 1);
		assert_int_equal(mnl_attr_get_payload_len(tb[XFRMA_TMPL]),
				 sizeof(*t));
		t = mnl_attr_get_payload(tb[XFRMA_TMPL]);
		assert_int_equal(t->mode, XFRM_MODE_TUNNEL);
		assert_int_equal(t->family, AF_INET);
		assert_int_equal(t->id.proto, IPPROTO_ESP);
		assert_int_equal(t->reqid, XFRM_REQID_BASE | 7);
		assert_true(t->ealgos == ~0u && t->aalgos == ~0u);
		inet_pton(AF_INET, "192.0.2.2", &a);
		assert_memory_equal(&t->id.daddr.a4, &a, 4);
		inet_pton(AF_INET, "192.0.2.1", &a);
		assert_memory_equal(&t->saddr.a4, &a, 4);
	}

	/* Transport: the template leaves the addresses to the SA. */
	pol = test_esp_policy(IKB_DIR_OUT, IKB_MODE_TRANSPORT, 7);
	pol.mark = 9;
	build_pol(&pol);
	t = mnl_attr_get_payload(tb[XFRMA_TMPL]);
	assert_int_equal(t->mode, XFRM_MODE_TRANSPORT);
	assert_int_equal(t->id.daddr.a4, 0);
	assert_int_equal(t->saddr.a4, 0);
	assert_non_null(tb[XFRMA_MARK]);
	assert_int_equal(
		((const struct xfrm_mark *)mnl_attr_get_payload(tb[XFRMA_MARK]))
			->v,
		9);

	pol.priority = 1234;
	p = build_pol(&pol);
	assert_int_equal(p->priority, 1234);
	assert_int_equal(p->flags, 0);

	/* RFC 9611: acquire per CPU where a CPU has no SA of its own */
	pol.cpu_acquire = true;
	p = build_pol(&pol);
	assert_int_equal(p->flags, XFRM_POLICY_CPU_ACQUIRE);
	assert_int_equal(XFRM_POLICY_CPU_ACQUIRE, 4);
}

/*
 * XFRMA_SA_PCPU (35 in 6.13's uapi) on an outbound SA with a CPU id; not
 * on inbound SAs, whose lookup is by SPI alone, nor on the fallback.
 */
static void test_pcpu_sa(void **state)
{
	struct ikb_sa sa = gcm_sa(IKB_DIR_OUT, 0, false);

	assert_int_equal(XFRMA_SA_PCPU, 35);
	build(&sa, NULL);
	assert_null(tb[XFRMA_SA_PCPU]);
	assert_null(tb[XFRMA_SA_DIR]);
	sa.cpu = 3;
	build(&sa, NULL);
	assert_non_null(tb[XFRMA_SA_PCPU]);
	assert_int_equal(mnl_attr_get_u32(tb[XFRMA_SA_PCPU]), 3);
	/* 6.13 refuses SA_PCPU without SA_DIR */
	assert_non_null(tb[XFRMA_SA_DIR]);
	assert_int_equal(mnl_attr_get_u8(tb[XFRMA_SA_DIR]), XFRM_SA_DIR_OUT);
	sa = gcm_sa(IKB_DIR_IN, 128, false);
	sa.cpu = 3;
	build(&sa, NULL);
	assert_null(tb[XFRMA_SA_PCPU]);
}

/*
 * A per-CPU outbound SA has a direction, and the kernel then wants no
 * replay state on it: window 0, and with ESN a zero-length bitmap.
 */
static void test_pcpu_esn(void **state)
{
	struct ikb_sa sa = gcm_sa(IKB_DIR_OUT, 128, true);
	const struct xfrm_usersa_info *p = build(&sa, NULL);
	const struct xfrm_replay_state_esn *r;

	/* without a CPU id: window 1, as kernels before 6.10 need */
	r = mnl_attr_get_payload(tb[XFRMA_REPLAY_ESN_VAL]);
	assert_int_equal(r->replay_window, 1);
	sa.cpu = 0;
	p = build(&sa, NULL);
	assert_int_equal(p->replay_window, 0);
	assert_true(p->flags & XFRM_STATE_ESN);
	assert_non_null(tb[XFRMA_REPLAY_ESN_VAL]);
	r = mnl_attr_get_payload(tb[XFRMA_REPLAY_ESN_VAL]);
	assert_int_equal(r->replay_window, 0);
	assert_int_equal(r->bmp_len, 0);
	assert_int_equal(mnl_attr_get_payload_len(tb[XFRMA_REPLAY_ESN_VAL]),
			 sizeof(*r));
	assert_int_equal(mnl_attr_get_u8(tb[XFRMA_SA_DIR]), XFRM_SA_DIR_OUT);
	/* no ESN: no replay attribute at all */
	sa.esn = false;
	p = build(&sa, NULL);
	assert_null(tb[XFRMA_REPLAY_ESN_VAL]);
	assert_false(p->flags & XFRM_STATE_ESN);
}

/* Kernel support by release, CPU ids by the possible mask. */
static void test_pcpu_detect(void **state)
{
	struct ikb_error why = { "" };
	unsigned n = 9;

	assert_int_not_equal(
		xfrm_pcpu_parse("6.1.0-28-amd64", "0-1\n", &n, &why), 0);
	assert_int_equal(n, 0);
	assert_string_equal(why.msg,
			    "kernel 6.1 has no per-CPU SAs (needs 6.13)");
	assert_int_not_equal(xfrm_pcpu_parse("6.12.9", "0-1", &n, &why), 0);
	assert_int_equal(xfrm_pcpu_parse("6.13.0-rc1", "0-3\n", &n, &why), 0);
	assert_int_equal(n, 4);
	/* UML 7.2 is built NR_CPUS=1 */
	assert_int_equal(xfrm_pcpu_parse("7.2.0-1-um", "0\n", &n, &why), 0);
	assert_int_equal(n, 1);
	assert_int_equal(xfrm_pcpu_parse("7.0", "0-3,8-11", &n, &why), 0);
	assert_int_equal(n, 8);
	assert_int_not_equal(xfrm_pcpu_parse("7.0", NULL, &n, &why), 0);
	assert_non_null(strstr(why.msg, "possible CPUs"));
	assert_int_not_equal(xfrm_pcpu_parse("7.0", "3-1", &n, &why), 0);
	assert_int_not_equal(xfrm_pcpu_parse("7.0", "", &n, &why), 0);
	assert_int_not_equal(xfrm_pcpu_parse("garbage", "0", &n, &why), 0);
	assert_non_null(strstr(why.msg, "MAJOR.MINOR"));
}

static void test_priority_order(void **state)
{
	struct ikb_policy host =
		test_esp_policy(IKB_DIR_OUT, IKB_MODE_TRANSPORT, 7);
	struct ikb_policy net = host, port = host, any = host;

	host.sel.src_plen = host.sel.dst_plen = 32;
	port.sel.proto = IPPROTO_TCP;
	port.sel.dport = 22;
	any.sel.src_plen = any.sel.dst_plen = 0;
	/* Lower number, tried first: the more specific selector wins. */
	assert_true(xfrm_priority(&host) < xfrm_priority(&net));
	assert_true(xfrm_priority(&port) < xfrm_priority(&net));
	assert_true(xfrm_priority(&net) < xfrm_priority(&any));
	/* Prefix weighs more than ports. */
	port.sel.src_plen = 8;
	assert_true(xfrm_priority(&net) < xfrm_priority(&port));
	assert_true(xfrm_priority(&any) >= XFRM_PRIO_BASE);
}

static void test_policy_del_msg(void **state)
{
	struct ikb_policy pol =
		test_esp_policy(IKB_DIR_FWD, IKB_MODE_TUNNEL, 7);
	struct ikb_error err;
	struct nlmsghdr *nlh =
		xfrm_build_policy(buf, XFRM_MSG_DELPOLICY, &pol, &err);
	const struct xfrm_userpolicy_id *id;

	parse(nlh, sizeof(*id));
	id = mnl_nlmsg_get_payload(nlh);
	assert_int_equal(id->dir, XFRM_POLICY_FWD);
	assert_int_equal(id->sel.prefixlen_d, 24);
	assert_int_equal(id->index, 0);
	assert_int_equal(nattrs, 0);
}

/*
 * Shunts: no template, allow or block, an index in our band with the
 * direction in its low bits; if_id on any policy.
 */
static void test_shunt_policies(void **state)
{
	struct ikb_policy pol =
		test_esp_policy(IKB_DIR_OUT, IKB_MODE_TUNNEL, 7);
	const struct xfrm_userpolicy_info *p;

	pol.action = IKB_POLICY_PASS;
	p = build_pol(&pol);
	assert_int_equal(p->action, XFRM_POLICY_ALLOW);
	assert_null(tb[XFRMA_TMPL]);
	assert_true(xfrm_shunt_index_ours(p->index));
	assert_int_equal(p->index & 7, XFRM_POLICY_OUT);

	pol.action = IKB_POLICY_BLOCK;
	pol.dir = IKB_DIR_IN;
	pol.if_id = 5;
	p = build_pol(&pol);
	assert_int_equal(p->action, XFRM_POLICY_BLOCK);
	assert_null(tb[XFRMA_TMPL]);
	assert_int_equal(p->index & 7, XFRM_POLICY_IN);
	assert_non_null(tb[XFRMA_IF_ID]);
	assert_int_equal(mnl_attr_get_u32(tb[XFRMA_IF_ID]), 5);

	/* a trap is an ordinary ESP policy: its template, no index of ours */
	pol.action = IKB_POLICY_IPSEC;
	pol.if_id = 0;
	p = build_pol(&pol);
	assert_non_null(tb[XFRMA_TMPL]);
	assert_null(tb[XFRMA_IF_ID]);
	assert_int_equal(p->index, 0);
}

static void test_spi_and_said(void **state)
{
	struct ikb_addr s, d;
	struct ikb_error err;
	struct nlmsghdr *nlh;
	const struct xfrm_userspi_info *u;
	const struct xfrm_usersa_id *id;

	v6(&s, "2001:db8::1");
	v6(&d, "2001:db8::2");
	nlh = xfrm_build_allocspi(buf, &s, &d, IPPROTO_ESP, XFRM_REQID_BASE | 3,
				  &err);
	parse(nlh, sizeof(*u));
	assert_int_equal(nlh->nlmsg_type, XFRM_MSG_ALLOCSPI);
	u = mnl_nlmsg_get_payload(nlh);
	assert_int_equal(u->min, 0x100);
	assert_true(u->max == 0xffffffffu);
	assert_int_equal(u->info.family, AF_INET6);
	assert_int_equal(u->info.reqid, XFRM_REQID_BASE | 3);
	assert_memory_equal(u->info.id.daddr.a6, d.bytes, 16);
	assert_memory_equal(u->info.saddr.a6, s.bytes, 16);

	nlh = xfrm_build_said(buf, XFRM_MSG_DELSA, &d, 0x1234, IPPROTO_ESP, 0,
			      0);
	parse(nlh, sizeof(*id));
	id = mnl_nlmsg_get_payload(nlh);
	assert_int_equal(ntohl(id->spi), 0x1234);
	assert_int_equal(id->family, AF_INET6);
	assert_int_equal(id->proto, IPPROTO_ESP);
	assert_int_equal(nattrs, 0);
	nlh = xfrm_build_said(buf, XFRM_MSG_GETSA, &d, 0x1234, IPPROTO_ESP, 5,
			      0xf);
	parse(nlh, sizeof(*id));
	assert_non_null(tb[XFRMA_MARK]);
}

/* An NLMSG_ERROR as the kernel sends it with EXT_ACK and CAP_ACK. */
static void test_ext_ack(void **state)
{
	struct nlmsghdr *nlh = xfrm_nl_start(buf, NLMSG_ERROR, 0);
	struct nlmsgerr *e = mnl_nlmsg_put_extra_header(nlh, sizeof(*e));
	char msg[256];

	e->error = -ENOSYS;
	e->msg.nlmsg_len = 200; /* the request: not echoed (capped) */
	nlh->nlmsg_flags = NLM_F_CAPPED | NLM_F_ACK_TLVS;
	mnl_attr_put_strz(nlh, NLMSGERR_ATTR_MSG,
			  "Requested AEAD algorithm not found.");
	assert_int_equal(xfrm_nl_error(nlh, msg, sizeof(msg)), -ENOSYS);
	assert_string_equal(
		msg,
		"kernel: Requested AEAD algorithm not found (Function not implemented)");

	nlh = xfrm_nl_start(buf, NLMSG_ERROR, 0);
	e = mnl_nlmsg_put_extra_header(nlh, sizeof(*e));
	e->error = -EEXIST;
	assert_int_equal(xfrm_nl_error(nlh, msg, sizeof(msg)), -EEXIST);
	assert_string_equal(msg, "kernel: File exists");

	e->error = 0;
	assert_int_equal(xfrm_nl_error(nlh, msg, sizeof(msg)), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_aead_sa),
		cmocka_unit_test(test_cbc_hmac_sa),
		cmocka_unit_test(test_dump_keeps_keys_in_kernel),
		cmocka_unit_test(test_bad_algs),
		cmocka_unit_test(test_replay),
		cmocka_unit_test(test_lifetime_encap_mark),
		cmocka_unit_test(test_offload),
		cmocka_unit_test(test_policies),
		cmocka_unit_test(test_shunt_policies),
		cmocka_unit_test(test_pcpu_sa),
		cmocka_unit_test(test_pcpu_esn),
		cmocka_unit_test(test_pcpu_detect),
		cmocka_unit_test(test_priority_order),
		cmocka_unit_test(test_policy_del_msg),
		cmocka_unit_test(test_spi_and_said),
		cmocka_unit_test(test_ext_ack),
	};

	return cmocka_run_group_tests_name("kernel-xfrm messages", tests, NULL,
					   NULL);
}
