// SPDX-License-Identifier: GPL-2.0-or-later
/* check_conn through a fake host, and the plugin descriptor. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <ikebana/plugin.h>

#include "tests.h"

extern const struct ikb_plugin ikb_plugin;
/* The core's (config/values.c): the host offers it as parse_bool. */
bool cfg_parse_bool(const char *s, bool *out);

/* The fake: a section is an array of values; reports are collected. */
struct ikb_section {
	const struct ikb_value *v;
	unsigned n;
};

struct report {
	const struct ikb_value *at;
	enum ikb_severity sev;
	char msg[320];
};

struct ikb_diag {
	struct report r[8];
	unsigned n;
};

static const struct ikb_value *fake_get(const struct ikb_section *s,
					const char *key)
{
	for (unsigned i = 0; i < s->n; i++) {
		if (!strcmp(s->v[i].key, key))
			return &s->v[i];
	}
	return NULL;
}

__attribute__((format(printf, 5, 6))) static void
fake_report(struct ikb_diag *d, const struct ikb_section *s,
	    const struct ikb_value *at, enum ikb_severity sev, const char *fmt,
	    ...)
{
	va_list ap;

	if (d->n >= 8)
		return;
	d->r[d->n].at = at;
	d->r[d->n].sev = sev;
	va_start(ap, fmt);
	vsnprintf(d->r[d->n].msg, sizeof(d->r[d->n].msg), fmt, ap);
	va_end(ap);
	d->n++;
}

static const struct ikb_host host = {
	IKB_OPS_SIZE(struct ikb_host),
	.get = fake_get,
	.report = fake_report,
	.parse_bool = cfg_parse_bool,
};

static int check(const struct ikb_value *v, unsigned n, struct ikb_diag *d)
{
	struct ikb_section s = { v, n };
	void *state = NULL;
	int r;

	memset(d, 0, sizeof(*d));
	assert_int_equal(ikb_plugin.init(&host, &state), 0);
	r = ikb_plugin.check_conn(state, &s, d);
	ikb_plugin.fini(state);
	return r;
}

#define V(k, val, line)                   \
	{                                 \
		k, val, "west.conf", line \
	}

static void test_valid(void **unused)
{
	const struct ikb_value v[] = {
		V("ike", "aes_gcm256-sha2_256;dh19", 3),
		V("esp", "aes_gcm256,aes128-sha2_256", 4),
		V("pfs", "yes", 5),
	};
	struct ikb_diag d;

	assert_int_equal(check(v, 3, &d), 0);
	assert_int_equal(d.n, 0);
	assert_int_equal(check(v, 0, &d), 0); /* nothing set: defaults */
	assert_int_equal(d.n, 0);
}

static void test_errors_point_at_the_value(void **unused)
{
	const struct ikb_value v[] = {
		V("ike", "null-sha2_256", 3),
		V("esp", "aes_gcm128-sha1", 4),
	};
	struct ikb_diag d;

	assert_int_equal(check(v, 2, &d), -1);
	assert_int_equal(d.n, 2);
	assert_ptr_equal(d.r[0].at, &v[0]);
	assert_int_equal(d.r[0].sev, IKB_SEV_ERROR);
	assert_string_equal(d.r[0].msg,
			    "ike=null-sha2_256: null encryption is not allowed "
			    "for IKE (RFC 7296: the IKE SA is always "
			    "encrypted)");
	assert_ptr_equal(d.r[1].at, &v[1]);
	assert_string_equal(d.r[1].msg,
			    "esp=aes_gcm128-sha1: AEAD algorithm aes_gcm128 "
			    "must not have an integrity algorithm (sha1)");
}

static void test_pfs(void **unused)
{
	const struct ikb_value no_pfs[] = {
		V("esp", "aes_gcm256;dh19", 4),
		V("pfs", "no", 5),
	};
	/* pfs= belongs to the core, which validates its value */
	const struct ikb_value core_owned[] = { V("pfs", "maybe", 5) };
	const struct ikb_value alias[] = {
		V("phase2alg", "aes128-sha1-dh19", 6),
		V("pfs", "no", 7),
	};
	struct ikb_diag d;

	/* libreswan ignores the group with a warning; so do we */
	assert_int_equal(check(no_pfs, 2, &d), 0);
	assert_int_equal(d.n, 1);
	assert_int_equal(d.r[0].sev, IKB_SEV_WARNING);
	assert_ptr_equal(d.r[0].at, &no_pfs[0]);
	assert_string_equal(
		d.r[0].msg,
		"esp=aes_gcm256;dh19: the key exchange groups are "
		"ignored because pfs=no (as libreswan does); remove "
		"them or set pfs=yes");

	assert_int_equal(check(core_owned, 1, &d), 0);
	assert_int_equal(d.n, 0);

	/* every spelling of no the core takes: pfs=off used to pass silently */
	static const char *const nos[] = { "off", "false", "n", "NO" };

	for (size_t i = 0; i < sizeof(nos) / sizeof(nos[0]); i++) {
		const struct ikb_value off[] = {
			V("esp", "aes_gcm256;dh19", 4),
			V("pfs", nos[i], 5),
		};

		assert_int_equal(check(off, 2, &d), 0);
		assert_int_equal(d.n, 1);
		assert_non_null(strstr(d.r[0].msg, "ignored because pfs="));
		assert_non_null(strstr(d.r[0].msg, nos[i]));
	}
	/* and of yes: no warning */
	static const char *const yeses[] = { "on", "true", "y", "yes" };

	for (size_t i = 0; i < sizeof(yeses) / sizeof(yeses[0]); i++) {
		const struct ikb_value on[] = {
			V("esp", "aes_gcm256;dh19", 4),
			V("pfs", yeses[i], 5),
		};

		assert_int_equal(check(on, 2, &d), 0);
		assert_int_equal(d.n, 0);
	}

	assert_int_equal(check(alias, 2, &d), 0);
	assert_int_equal(d.n, 1);
	assert_ptr_equal(d.r[0].at, &alias[0]);
	assert_non_null(strstr(d.r[0].msg, "phase2alg=aes128-sha1-dh19: the "
					   "key exchange groups are ignored"));
}

static void test_phase2alg_and_esp(void **unused)
{
	const struct ikb_value v[] = {
		V("esp", "aes_gcm256", 4),
		V("phase2alg", "aes128-sha1", 5),
	};
	struct ikb_diag d;

	assert_int_equal(check(v, 2, &d), 0);
	assert_int_equal(d.n, 1);
	assert_ptr_equal(d.r[0].at, &v[1]);
	assert_int_equal(d.r[0].sev, IKB_SEV_WARNING);
	assert_string_equal(d.r[0].msg, "phase2alg= is an old name for esp=, "
					"which is also set; esp= wins");
}

/* The conn's lists come from the plugin: phase2alg= is esp= by its old name. */
static struct ikb_proposal_list conn_list(const struct ikb_value *v, unsigned n,
					  enum ikb_protocol proto)
{
	struct ikb_section s = { v, n };
	struct ikb_proposal_list l;
	struct ikb_error err = { "" };
	void *state = NULL;

	assert_int_equal(ikb_plugin.init(&host, &state), 0);
	assert_non_null(ikb_plugin.proposals->conn_proposals);
	assert_int_equal(ikb_plugin.proposals->conn_proposals(state, &s, proto,
							      &l, &err),
			 0);
	ikb_plugin.fini(state);
	return l;
}

static void test_conn_proposals(void **unused)
{
	const struct ikb_value esp[] = { V("esp", "aes256-sha2_512", 4) };
	const struct ikb_value p2[] = { V("phase2alg", "aes256-sha2_512", 4) };
	const struct ikb_value both[] = { V("phase2alg", "aes128-sha1", 4),
					  V("esp", "aes256-sha2_512", 5) };
	const struct ikb_value ike[] = { V("ike", "aes256-sha2_256-dh19", 4),
					 V("esp", "aes_gcm256", 5) };
	struct ikb_proposal_list want, got, dflt;
	struct ikb_error err = { "" };

	assert_int_equal(
		epr_parse(IKB_PROTO_ESP, "aes256-sha2_512", &want, &err), 0);
	got = conn_list(esp, 1, IKB_PROTO_ESP);
	assert_memory_equal(&got, &want, sizeof(want));
	/* phase2alg= alone used to give the default ESP list */
	got = conn_list(p2, 1, IKB_PROTO_ESP);
	assert_memory_equal(&got, &want, sizeof(want));
	got = conn_list(both, 2, IKB_PROTO_ESP);
	assert_memory_equal(&got, &want, sizeof(want));
	/* ike= for IKE, whatever esp= says; unset: the defaults */
	assert_int_equal(
		epr_parse(IKB_PROTO_IKE, "aes256-sha2_256-dh19", &want, &err),
		0);
	got = conn_list(ike, 2, IKB_PROTO_IKE);
	assert_memory_equal(&got, &want, sizeof(want));
	assert_int_equal(epr_defaults(IKB_PROTO_ESP, &dflt), 0);
	got = conn_list(ike, 0, IKB_PROTO_ESP);
	assert_memory_equal(&got, &dflt, sizeof(dflt));
}

static void test_descriptor(void **unused)
{
	const struct ikb_proposals_ops *ops = ikb_plugin.proposals;
	struct ikb_proposal_list l;
	struct ikb_proposal chosen;
	struct ikb_error err;
	struct ikb_sa sa;
	unsigned num, keys = 0;

	assert_int_equal(ikb_plugin.abi, IKB_PLUGIN_ABI);
	assert_int_equal(ikb_plugin.size, sizeof(struct ikb_plugin));
	assert_string_equal(ikb_plugin.name, "esp-proposals");
	for (const struct ikb_key *k = ikb_plugin.keys; k->name; k++) {
		assert_int_equal(k->scope, IKB_KEY_CONN);
		assert_non_null(k->expects);
		keys++;
	}
	assert_int_equal(keys, 3); /* ike, esp, phase2alg */
	assert_non_null(ops);
	assert_int_equal(
		ops->parse(NULL, IKB_PROTO_ESP, "aes_gcm256", &l, &err), 0);
	assert_int_equal(ops->select(NULL, &l, &l, &chosen, &num, &err), 0);
	assert_int_equal(num, 1);
	assert_int_equal(ops->kernel_algs(NULL, &chosen, &sa, &err), 0);
	assert_string_equal(sa.aead.name, "rfc4106(gcm(aes))");
	assert_int_equal(ops->defaults(NULL, IKB_PROTO_IKE, &l), 0);
	assert_int_equal(l.n, 5);
	assert_null(ikb_plugin.child);
	assert_null(ikb_plugin.kernel);
}

/*
 * The defaults a plugin state keeps (parsed once, not once per conn) are
 * the ones parsed afresh, for IKE and ESP alike, and stay so when the
 * copy handed out is changed.
 */
static void test_defaults_kept(void **state)
{
	const struct ikb_proposals_ops *ops = ikb_plugin.proposals;
	struct ikb_proposal_list fresh, kept;
	enum ikb_protocol protos[] = { IKB_PROTO_IKE, IKB_PROTO_ESP };
	void *st;

	assert_int_equal(ikb_plugin.init(&host, &st), 0);
	for (size_t i = 0; i < 2; i++) {
		memset(&fresh, 0, sizeof(fresh));
		assert_int_equal(ops->defaults(NULL, protos[i], &fresh), 0);
		for (int round = 0; round < 2; round++) {
			memset(&kept, 0xa5, sizeof(kept));
			assert_int_equal(ops->defaults(st, protos[i], &kept),
					 0);
			assert_int_equal(kept.n, fresh.n);
			assert_memory_equal(kept.p, fresh.p,
					    fresh.n * sizeof(fresh.p[0]));
			/* the caller's copy, not the kept one */
			kept.p[0].n = 0;
		}
	}
	assert_int_equal(fresh.p[0].protocol, IKB_PROTO_ESP);
	ikb_plugin.fini(st);
}

int epr_test_check(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_valid),
		cmocka_unit_test(test_errors_point_at_the_value),
		cmocka_unit_test(test_pfs),
		cmocka_unit_test(test_conn_proposals),
		cmocka_unit_test(test_phase2alg_and_esp),
		cmocka_unit_test(test_descriptor),
		cmocka_unit_test(test_defaults_kept),
	};

	return cmocka_run_group_tests_name("esp-proposals check_conn", tests,
					   NULL, NULL);
}
