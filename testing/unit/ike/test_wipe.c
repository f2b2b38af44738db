// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * docs/SECURITY.md "Secrets": each heap buffer of ours that held key
 * material is wiped before it is freed or realloc'd away. The test is
 * linked with -Wl,--wrap=free,--wrap=realloc, so what the daemon's own
 * objects free is held, not given back, until the test ends: after an
 * exchange, a Child SA rekey, an IKE SA rekey and the teardown, every block
 * they freed is searched for the PSK, each IKE SA's SK_* keys and each
 * Child SA's keys. NSS's and libc's frees are not ours and are not seen;
 * kernel-mem (the kernel's side) is a module, so its frees are not either.
 */
#include <malloc.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "crypto/skeyseed.h"
#include "harness.h"
#include "ike/engine.h"
#include "ike/ike_sa.h"

#define PSK "psk-wipe-5d2e-never-left-in-the-heap-91b7"
#define NEEDLE_LEN 16
#define NEEDLES_MAX 256

void __real_free(void *p);
void *__real_realloc(void *p, size_t n);
void __wrap_free(void *p);
void *__wrap_realloc(void *p, size_t n);

struct held {
	void *p;
	size_t n;
};

static struct held *held;
static size_t nheld, capheld;
static bool holding;

static struct {
	uint8_t b[NEEDLE_LEN];
	char what[48];
} needles[NEEDLES_MAX];
static unsigned nneedles;

static void hold(void *p)
{
	if (nheld == capheld) {
		capheld = capheld ? capheld * 2 : 4096;
		held = __real_realloc(held, capheld * sizeof(*held));
		if (!held)
			abort();
	}
	held[nheld++] = (struct held){ p, malloc_usable_size(p) };
}

void __wrap_free(void *p)
{
	if (p && holding)
		hold(p);
	else
		__real_free(p);
}

/* A move leaves the old block as it was: held like a free. */
void *__wrap_realloc(void *p, size_t n)
{
	size_t old;
	void *q;

	if (!p || !holding)
		return __real_realloc(p, n);
	old = malloc_usable_size(p);
	q = n ? malloc(n) : NULL;
	if (n && !q)
		return NULL;
	if (q)
		memcpy(q, p, old < n ? old : n);
	hold(p);
	return q;
}

static void release(void)
{
	holding = false;
	for (size_t i = 0; i < nheld; i++)
		__real_free(held[i].p);
	__real_free(held);
	held = NULL;
	nheld = capheld = 0;
}

static void needle(const void *b, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void needle(const void *b, size_t len, const char *fmt, ...)
{
	va_list ap;

	/* shorter ones could match by chance; none of the keys here is */
	if (len < NEEDLE_LEN)
		return;
	assert_true(nneedles < NEEDLES_MAX);
	memcpy(needles[nneedles].b, b, NEEDLE_LEN);
	va_start(ap, fmt);
	vsnprintf(needles[nneedles].what, sizeof(needles[0].what), fmt, ap);
	va_end(ap);
	nneedles++;
}

static void sa_needles(const struct ike_sa *sa)
{
	const struct ike_sa_keys *k = sa->keys;
	const struct {
		const struct secret *s;
		const char *name;
	} keys[] = {
		{ &k->sk_d, "SK_d" },	{ &k->sk_ai, "SK_ai" },
		{ &k->sk_ar, "SK_ar" }, { &k->sk_ei, "SK_ei" },
		{ &k->sk_er, "SK_er" }, { &k->sk_pi, "SK_pi" },
		{ &k->sk_pr, "SK_pr" },
	};

	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
		needle(keys[i].s->ptr, keys[i].s->len, "%s of #%lu",
		       keys[i].name, sa->serial);
}

static void ike_needles(struct net *n, int who)
{
	const struct ike_sa *sa;

	for (sa = n->p[who].e->all; sa; sa = sa->next_all)
		if (sa->keys)
			sa_needles(sa);
}

static void child_needles(struct net *n, int who)
{
	struct kdump d;

	kernel_dump(n, who, &d);
	for (unsigned i = 0; i < d.nsa; i++) {
		const struct ikb_alg *algs[] = { &d.sa[i].aead, &d.sa[i].encr,
						 &d.sa[i].integ };

		for (size_t k = 0; k < 3; k++)
			if (algs[k]->name[0])
				needle(algs[k]->key, algs[k]->key_bits / 8u,
				       "%s key of SPI %08x", algs[k]->name,
				       d.sa[i].spi);
	}
}

static void collect(struct net *n)
{
	for (int who = WEST; who <= EAST; who++) {
		ike_needles(n, who);
		child_needles(n, who);
	}
}

/* Every held block, for every needle: a hit names both. */
static unsigned scan(void)
{
	unsigned hits = 0;

	for (size_t i = 0; i < nheld; i++) {
		for (unsigned j = 0; j < nneedles; j++) {
			const uint8_t *at = memmem(held[i].p, held[i].n,
						   needles[j].b, NEEDLE_LEN);

			if (at) {
				print_error(
					"%s in a freed block of %zu bytes, at %td\n",
					needles[j].what, held[i].n,
					at - (const uint8_t *)held[i].p);
				hits++;
			}
		}
	}
	return hits;
}

static bool child_rekeyed(struct net *n)
{
	return child_count(n, WEST) == 1 && child_count(n, EAST) == 1 &&
	       log_has("Child SA deleted");
}

static bool ike_rekeyed(struct net *n)
{
	return log_has("IKE SA established by rekeying") &&
	       ike_sa_count(n, WEST, "established") == 1 &&
	       ike_sa_count(n, EAST, "established") == 1 &&
	       ike_sa_count(n, WEST, NULL) == 1 &&
	       ike_sa_count(n, EAST, NULL) == 1;
}

static void run(const char *esp)
{
	char west[256], east[256];
	struct ikb_error err = { "" };
	struct net *n;
	struct kdump w;

	snprintf(west, sizeof(west),
		 "%s\tikelifetime=2s\n\trekeymargin=1s\n\trekeyfuzz=0%%\n"
		 "\tipsec-lifetime=1h\n",
		 esp);
	snprintf(east, sizeof(east), "%s\tipsec-lifetime=1h\n", esp);
	nneedles = 0;
	holding = true;
	n = net_new(west, east, NULL, PSK, PSK);
	needle(PSK, strlen(PSK), "the PSK");
	log_reset();
	assert_int_equal(ike_engine_up(n->p[WEST].e, "test", &err), 0);
	assert_true(net_run(n, both_up, 5000));
	collect(n);
	kernel_dump(n, WEST, &w);
	kernel_expire(n, WEST, kdump_sa(&w, IKB_DIR_OUT), false);
	assert_true(net_run(n, child_rekeyed, 5000));
	collect(n);
	assert_true(net_run(n, ike_rekeyed, 5000));
	collect(n);
	net_free(n);
	/* the PSK, 7 keys of 2 IKE SAs, 2 Child SAs' keys: on 2 peers */
	assert_true(nneedles >= 1 + 2 * 2 * 4 + 2 * 2);
	/* ours freed something: else this proves nothing */
	print_message("%zu blocks held, %u needles\n", nheld, nneedles);
	assert_true(nheld > 100);
	assert_int_equal(scan(), 0);
	release();
}

static void test_wiped_gcm(void **state)
{
	run("\tesp=aes_gcm256\n");
}

/* separate encryption and integrity keys, for IKE and ESP */
static void test_wiped_cbc(void **state)
{
	run("\tesp=aes256-sha2_256\n\tike=aes256-sha2_256-modp2048\n");
}

static int teardown(void **state)
{
	release();
	return net_cleanup(state);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(test_wiped_gcm, teardown),
		cmocka_unit_test_teardown(test_wiped_cbc, teardown),
	};

	harness_global_init();
	return cmocka_run_group_tests(tests, NULL, NULL);
}
