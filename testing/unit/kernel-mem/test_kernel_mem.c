// SPDX-License-Identifier: GPL-2.0-or-later
/* kernel-mem: every op, every refusal the kernel would give, and events. */
#include <arpa/inet.h>
#include <dlfcn.h>
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "fake_host.h"
#include "kernel_mem.h"

struct km {
	void *handle;
	const struct ikb_plugin *p;
	const struct ikb_kernel_ops *k;
	void *st;
	struct ikb_error err;
};

static int setup(void **state)
{
	struct km *t = calloc(1, sizeof(*t));

	t->p = fake_open("kernel-mem", &t->handle);
	t->k = t->p->kernel;
	assert_non_null(t->k);
	assert_int_equal(t->p->init(fake_host(), &t->st), 0);
	*state = t;
	return 0;
}

static int teardown(void **state)
{
	struct km *t = *state;

	t->p->fini(t->st);
	dlclose(t->handle);
	free(t);
	return 0;
}

static struct ikb_addr v4(const char *s)
{
	struct ikb_addr a = { .family = AF_INET };

	assert_int_equal(inet_pton(AF_INET, s, a.bytes), 1);
	return a;
}

static struct ikb_sa gcm_sa(const char *dst, uint32_t spi)
{
	struct ikb_sa sa = {
		.src = v4("192.0.2.1"),
		.dst = v4(dst),
		.spi = spi,
		.proto = IPPROTO_ESP,
		.mode = IKB_MODE_TUNNEL,
		.dir = IKB_DIR_IN,
		.reqid = 7,
		.replay_window = 128,
		.esn = true,
		.cpu = -1,
	};

	strcpy(sa.aead.name, "rfc4106(gcm(aes))");
	sa.aead.key_bits = 160;
	sa.aead.icv_bits = 128;
	return sa;
}

static void test_descriptor(void **state)
{
	struct km *t = *state;

	assert_string_equal(t->p->name, "kernel-mem");
	assert_null(t->p->keys);
	assert_non_null(t->k->spi_alloc);
	assert_non_null(t->k->sa_add);
	assert_non_null(t->k->sa_update);
	assert_non_null(t->k->sa_del);
	assert_non_null(t->k->policy_add);
	assert_non_null(t->k->policy_del);
	assert_non_null(t->k->sa_query);
	assert_non_null(t->k->events_subscribe);
	assert_non_null(t->k->dump);
	assert_non_null(dlsym(t->handle, IKB_KERNEL_MEM_INJECT));
	assert_non_null(dlsym(t->handle, IKB_KERNEL_MEM_TRAFFIC));
	/* Everything else stays hidden. */
	assert_null(dlsym(t->handle, "mem_sa_add"));
}

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return x < y ? -1 : x > y;
}

static void test_spi_alloc_unique(void **state)
{
	struct km *t = *state;
	struct ikb_addr s = v4("192.0.2.1"), d = v4("192.0.2.2");
	enum { N = 2000 };
	uint32_t spi, *spis = calloc(N, sizeof(*spis));

	for (unsigned i = 0; i < N; i++) {
		assert_int_equal(t->k->spi_alloc(t->st, &s, &d, IPPROTO_ESP, 1,
						 &spis[i], &t->err),
				 0);
		assert_true(spis[i] >= 256);
	}
	qsort(spis, N, sizeof(*spis), cmp_u32);
	for (unsigned i = 1; i < N; i++)
		assert_int_not_equal(spis[i - 1], spis[i]);
	free(spis);
	assert_int_equal(
		t->k->spi_alloc(t->st, &s, &d, IPPROTO_AH, 1, &spi, &t->err),
		-EPROTONOSUPPORT);
}

static void test_larval_then_update(void **state)
{
	struct km *t = *state;
	struct ikb_addr s = v4("192.0.2.1"), d = v4("192.0.2.2");
	struct ikb_sa_counters c;
	struct ikb_sa sa;
	uint32_t spi;

	assert_int_equal(
		t->k->spi_alloc(t->st, &s, &d, IPPROTO_ESP, 3, &spi, &t->err),
		0);
	sa = gcm_sa("192.0.2.2", spi);
	/* ALLOCSPI left a larval SA: adding it again is a duplicate. */
	assert_int_equal(t->k->sa_add(t->st, &sa, &t->err), -EEXIST);
	assert_non_null(strstr(t->err.msg, "already exists"));
	assert_int_equal(t->k->sa_update(t->st, &sa, &t->err), 0);
	assert_int_equal(
		t->k->sa_query(t->st, &d, spi, IPPROTO_ESP, &c, &t->err), 0);
	assert_true(c.add_time > 0);
	assert_int_equal(c.bytes, 0);
}

static void test_sa_round_trip(void **state)
{
	struct km *t = *state;
	struct ikb_sa sa = gcm_sa("192.0.2.2", 0x1000), other;
	struct ikb_sa_counters c;

	assert_int_equal(t->k->sa_add(t->st, &sa, &t->err), 0);
	assert_int_equal(t->k->sa_add(t->st, &sa, &t->err), -EEXIST);
	assert_string_equal(
		t->err.msg,
		"SA dst 192.0.2.2 spi 0x00001000 proto 50 already exists");
	/* The key is dst + spi + proto: another dst is another SA. */
	other = gcm_sa("192.0.2.3", 0x1000);
	assert_int_equal(t->k->sa_add(t->st, &other, &t->err), 0);

	sa.replay_window = 256;
	assert_int_equal(t->k->sa_update(t->st, &sa, &t->err), 0);
	assert_int_equal(t->k->sa_query(t->st, &sa.dst, 0x1000, IPPROTO_ESP, &c,
					&t->err),
			 0);
	assert_true(c.add_time > 0);

	assert_int_equal(
		t->k->sa_del(t->st, &sa.dst, 0x1000, IPPROTO_ESP, &t->err), 0);
	assert_int_equal(
		t->k->sa_del(t->st, &sa.dst, 0x1000, IPPROTO_ESP, &t->err),
		-ENOENT);
	assert_string_equal(t->err.msg,
			    "no SA dst 192.0.2.2 spi 0x00001000 proto 50");
	assert_int_equal(t->k->sa_update(t->st, &sa, &t->err), -ENOENT);
	assert_int_equal(t->k->sa_query(t->st, &sa.dst, 0x1000, IPPROTO_ESP, &c,
					&t->err),
			 -ENOENT);
}

/* One refusal: the SA, the errno and the kernel's words. */
static void refused(struct km *t, struct ikb_sa *sa, int errnum,
		    const char *msg)
{
	memset(&t->err, 0, sizeof(t->err));
	assert_int_equal(t->k->sa_add(t->st, sa, &t->err), -errnum);
	assert_string_equal(t->err.msg, msg);
	assert_int_equal(t->k->sa_update(t->st, sa, &t->err), -errnum);
}

static void test_sa_validation(void **state)
{
	struct km *t = *state;
	struct ikb_sa sa = gcm_sa("192.0.2.9", 0x2000);

	sa.replay_window = 4097;
	refused(t, &sa, EINVAL, "replay window 4097 exceeds the kernel's 4096");
	sa.replay_window = 0;
	refused(t, &sa, EINVAL,
		"ESN needs a replay window: the kernel refuses ESN with replay window 0");
	sa = gcm_sa("192.0.2.9", 0x2000);
	strcpy(sa.encr.name, "cbc(aes)");
	refused(t, &sa, EINVAL,
		"SA has both an AEAD (rfc4106(gcm(aes))) and an encryption algorithm (cbc(aes))");
	sa.aead.name[0] = sa.encr.name[0] = '\0';
	refused(t, &sa, EINVAL,
		"SA has neither an AEAD nor an encryption algorithm");
	sa = gcm_sa("192.0.2.9", 0x2000);
	strcpy(sa.integ.name, "hmac(sha256)");
	refused(t, &sa, EINVAL,
		"an AEAD SA (rfc4106(gcm(aes))) takes no integrity algorithm (hmac(sha256))");
	sa = gcm_sa("192.0.2.9", 0x2000);
	sa.aead.key_bits = IKB_KEY_MAX * 8 + 1;
	refused(t, &sa, EINVAL,
		"AEAD key of 1025 bits exceeds the maximum of 1024");
	sa = gcm_sa("192.0.2.9", 0x2000);
	sa.aead.name[0] = '\0';
	strcpy(sa.encr.name, "cbc(aes)");
	strcpy(sa.integ.name, "hmac(sha256)");
	sa.integ.key_bits = 2048;
	refused(t, &sa, EINVAL,
		"integrity key of 2048 bits exceeds the maximum of 1024");
	sa = gcm_sa("192.0.2.9", 0x2000);
	sa.proto = IPPROTO_AH;
	refused(t, &sa, EPROTONOSUPPORT,
		"protocol 51: only ESP (50) is supported");
	sa = gcm_sa("192.0.2.9", 0x2000);
	sa.src.family = AF_INET6;
	refused(t, &sa, EAFNOSUPPORT,
		"SA addresses must be both IPv4 or both IPv6");
	sa = gcm_sa("192.0.2.9", 0x2000);
	sa.dir = IKB_DIR_FWD;
	refused(t, &sa, EINVAL, "SA direction 2 is neither in nor out");

	/* The limits themselves are fine, and so is cbc + hmac. */
	sa = gcm_sa("192.0.2.9", 0x2000);
	sa.replay_window = 4096;
	sa.aead.key_bits = IKB_KEY_MAX * 8;
	assert_int_equal(t->k->sa_add(t->st, &sa, &t->err), 0);
	sa = gcm_sa("192.0.2.9", 0x2001);
	sa.aead.name[0] = '\0';
	sa.esn = false;
	sa.replay_window = 0;
	strcpy(sa.encr.name, "cbc(aes)");
	strcpy(sa.integ.name, "hmac(sha256)");
	assert_int_equal(t->k->sa_add(t->st, &sa, &t->err), 0);
}

static struct ikb_policy policy(enum ikb_dir dir, uint32_t mark)
{
	struct ikb_policy p = {
		.sel = { .src = v4("10.0.1.0"),
			 .dst = v4("10.0.2.0"),
			 .src_plen = 24,
			 .dst_plen = 24 },
		.dir = dir,
		.mode = IKB_MODE_TUNNEL,
		.tmpl_src = v4("192.0.2.1"),
		.tmpl_dst = v4("192.0.2.2"),
		.proto = IPPROTO_ESP,
		.reqid = 7,
		.mark = mark,
		.mark_mask = mark ? 0xffffffff : 0,
	};

	return p;
}

static void test_policy_round_trip(void **state)
{
	struct km *t = *state;
	struct ikb_policy out = policy(IKB_DIR_OUT, 0);
	struct ikb_policy in = policy(IKB_DIR_IN, 0);
	struct ikb_policy marked = policy(IKB_DIR_OUT, 5);
	struct ikb_policy bad = policy(IKB_DIR_OUT, 0);

	assert_int_equal(t->k->policy_add(t->st, &out, &t->err), 0);
	assert_int_equal(t->k->policy_add(t->st, &out, &t->err), -EEXIST);
	assert_string_equal(
		t->err.msg,
		"policy 10.0.1.0/24 -> 10.0.2.0/24 dir out already exists");
	/* The key is selector + direction + mark. */
	assert_int_equal(t->k->policy_add(t->st, &in, &t->err), 0);
	assert_int_equal(t->k->policy_add(t->st, &marked, &t->err), 0);
	out.priority = 99; /* not part of the key */
	assert_int_equal(t->k->policy_del(t->st, &out, &t->err), 0);
	assert_int_equal(t->k->policy_del(t->st, &out, &t->err), -ENOENT);
	assert_string_equal(
		t->err.msg,
		"policy 10.0.1.0/24 -> 10.0.2.0/24 dir out does not exist");
	bad.sel.dst_plen = 33;
	assert_int_equal(t->k->policy_add(t->st, &bad, &t->err), -EINVAL);
	assert_string_equal(t->err.msg,
			    "selector destination: prefix /33 exceeds /32");
	bad = policy(IKB_DIR_OUT, 0);
	bad.proto = IPPROTO_AH;
	assert_int_equal(t->k->policy_add(t->st, &bad, &t->err),
			 -EPROTONOSUPPORT);
}

struct seen {
	unsigned n;
	struct ikb_kernel_event ev[4];
	unsigned sas, pols;
};

static void on_event(void *ctx, const struct ikb_kernel_event *ev)
{
	struct seen *s = ctx;

	assert_true(s->n < 4);
	s->ev[s->n++] = *ev;
}

static void test_events(void **state)
{
	struct km *t = *state;
	ikb_kernel_mem_inject_fn inject = (ikb_kernel_mem_inject_fn)dlsym(
		t->handle, IKB_KERNEL_MEM_INJECT);
	struct ikb_kernel_event acq = { .type = IKB_KEV_ACQUIRE,
					.reqid = 9,
					.cpu = 1 };
	struct seen seen = { 0 };

	assert_int_equal(inject(t->st, &acq), -ENOTCONN);
	assert_int_equal(
		t->k->events_subscribe(t->st, on_event, &seen, &t->err), 0);
	assert_int_equal(
		t->k->events_subscribe(t->st, on_event, &seen, &t->err),
		-EBUSY);
	assert_int_equal(inject(t->st, &acq), 0);
	assert_int_equal(seen.n, 1);
	assert_int_equal(seen.ev[0].type, IKB_KEV_ACQUIRE);
	assert_int_equal(seen.ev[0].reqid, 9);
	assert_int_equal(seen.ev[0].cpu, 1);
}

static void test_traffic_expire(void **state)
{
	struct km *t = *state;
	ikb_kernel_mem_traffic_fn traffic = (ikb_kernel_mem_traffic_fn)dlsym(
		t->handle, IKB_KERNEL_MEM_TRAFFIC);
	struct ikb_sa sa = gcm_sa("192.0.2.2", 0x3000);
	struct ikb_sa_counters c;
	struct seen seen = { 0 };

	sa.life.soft_bytes = 1000;
	sa.life.hard_bytes = 2000;
	assert_int_equal(t->k->sa_add(t->st, &sa, &t->err), 0);
	assert_int_equal(
		t->k->events_subscribe(t->st, on_event, &seen, &t->err), 0);
	assert_int_equal(traffic(t->st, &sa.dst, 0x3000, IPPROTO_ESP, 600, 6),
			 0);
	assert_int_equal(seen.n, 0);
	assert_int_equal(t->k->sa_query(t->st, &sa.dst, 0x3000, IPPROTO_ESP, &c,
					&t->err),
			 0);
	assert_int_equal(c.bytes, 600);
	assert_int_equal(c.packets, 6);
	assert_true(c.use_time > 0);
	/* Soft once, however much more traffic comes before hard. */
	assert_int_equal(traffic(t->st, &sa.dst, 0x3000, IPPROTO_ESP, 600, 6),
			 0);
	assert_int_equal(traffic(t->st, &sa.dst, 0x3000, IPPROTO_ESP, 100, 1),
			 0);
	assert_int_equal(seen.n, 1);
	assert_int_equal(seen.ev[0].type, IKB_KEV_EXPIRE);
	assert_false(seen.ev[0].hard);
	assert_int_equal(seen.ev[0].spi, 0x3000);
	assert_int_equal(traffic(t->st, &sa.dst, 0x3000, IPPROTO_ESP, 1000, 1),
			 0);
	assert_int_equal(seen.n, 2);
	assert_true(seen.ev[1].hard);
	/* A hard expire deletes the SA, as the kernel does. */
	assert_int_equal(t->k->sa_query(t->st, &sa.dst, 0x3000, IPPROTO_ESP, &c,
					&t->err),
			 -ENOENT);
	assert_int_equal(traffic(t->st, &sa.dst, 0x3000, IPPROTO_ESP, 1, 1),
			 -ENOENT);
}

static void count_sa(void *ctx, const struct ikb_sa *sa)
{
	((struct seen *)ctx)->sas++;
}

static void count_pol(void *ctx, const struct ikb_policy *p)
{
	((struct seen *)ctx)->pols++;
}

static void test_dump(void **state)
{
	struct km *t = *state;
	struct ikb_addr s = v4("192.0.2.1"), d = v4("192.0.2.2");
	struct ikb_sa a = gcm_sa("192.0.2.2", 0x4000);
	struct ikb_sa b = gcm_sa("192.0.2.2", 0x4001);
	struct ikb_policy p = policy(IKB_DIR_FWD, 0);
	struct seen seen = { 0 };
	uint32_t spi;

	assert_int_equal(t->k->sa_add(t->st, &a, &t->err), 0);
	assert_int_equal(t->k->sa_add(t->st, &b, &t->err), 0);
	assert_int_equal(t->k->policy_add(t->st, &p, &t->err), 0);
	/* A larval SA is not installed yet: dump leaves it out. */
	assert_int_equal(
		t->k->spi_alloc(t->st, &s, &d, IPPROTO_ESP, 1, &spi, &t->err),
		0);
	assert_int_equal(t->k->dump(t->st, count_sa, count_pol, &seen), 0);
	assert_int_equal(seen.sas, 2);
	assert_int_equal(seen.pols, 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_descriptor, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_spi_alloc_unique, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_larval_then_update, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_sa_round_trip, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_sa_validation, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_policy_round_trip, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_events, setup, teardown),
		cmocka_unit_test_setup_teardown(test_traffic_expire, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_dump, setup, teardown),
	};

	return cmocka_run_group_tests_name("kernel-mem", tests, NULL, NULL);
}
