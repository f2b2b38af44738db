// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Key-exchange operations per second, per group, through the same NSS code
 * the daemon uses (crypto/ke.c). Each side of a handshake does one
 * generate and one derive, so 1 / (t_gen + t_derive) bounds the IKE_SA_INIT
 * exchanges one core can answer, before anything else is counted.
 *
 * Usage: ke_rate_bench [SECONDS_PER_OP]   (default 1.0)
 * Prints one markdown row per group: name | gen/s | derive/s | handshakes/s,
 * then sig_rate.c's table of signatures.
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "crypto/algs.h"
#include "crypto/ke.h"
#include "crypto/nss_init.h"
#include "sig_rate.h"

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Generations per second, over at least secs seconds. */
static int rate_generate(uint16_t group, double secs, double *rate)
{
	struct crypto_err err = { 0 };
	double t0 = now(), t;
	unsigned long n = 0;

	do {
		struct ke *ke;

		if (ke_generate(&ke, group, &err) < 0) {
			fprintf(stderr, "group %u: generate: %s\n", group,
				err.msg);
			return -1;
		}
		ke_free(ke);
		n++;
		t = now() - t0;
	} while (t < secs);
	*rate = (double)n / t;
	return 0;
}

/* Derivations of g^ir against one fixed peer value, per second. */
static int rate_derive(uint16_t group, double secs, double *rate)
{
	struct crypto_err err = { 0 };
	struct ke *mine = NULL, *peer = NULL;
	unsigned long n = 0;
	double t0, t = 0;
	int rc = -1;

	if (ke_generate(&mine, group, &err) < 0 ||
	    ke_generate(&peer, group, &err) < 0) {
		fprintf(stderr, "group %u: generate: %s\n", group, err.msg);
		goto out;
	}
	t0 = now();
	do {
		struct secret gir = { 0 };

		if (ke_derive(mine, ke_public(peer), &gir, &err) < 0) {
			fprintf(stderr, "group %u: derive: %s\n", group,
				err.msg);
			goto out;
		}
		secret_free(&gir);
		n++;
		t = now() - t0;
	} while (t < secs);
	*rate = (double)n / t;
	rc = 0;
out:
	ke_free(mine);
	ke_free(peer);
	return rc;
}

int main(int argc, char **argv)
{
	static const uint16_t groups[] = {
		IKEV2_KE_CURVE25519, IKEV2_KE_ECP256,	IKEV2_KE_ECP384,
		IKEV2_KE_ECP521,     IKEV2_KE_MODP2048, IKEV2_KE_MODP3072,
		IKEV2_KE_MODP4096,
	};
	double secs = argc > 1 ? strtod(argv[1], NULL) : 1.0;
	struct crypto_err err = { 0 };
	int rc = 0;

	if (secs <= 0) {
		fprintf(stderr, "usage: %s [SECONDS_PER_OP > 0]\n", argv[0]);
		return 2;
	}
	if (crypto_init(false, &err) < 0) {
		fprintf(stderr, "crypto_init: %s\n", err.msg);
		return 1;
	}
	printf("| group | generate/s | derive/s | handshakes/s (one side) |\n");
	printf("|---|---:|---:|---:|\n");
	for (size_t i = 0; i < sizeof(groups) / sizeof(groups[0]); i++) {
		const struct ke_desc *d = ke_desc_by_id(groups[i]);
		double g, dv;

		if (!d || rate_generate(groups[i], secs, &g) < 0 ||
		    rate_derive(groups[i], secs, &dv) < 0) {
			rc = 1;
			continue;
		}
		printf("| %s (%u) | %.0f | %.0f | %.0f |\n", d->name, groups[i],
		       g, dv, 1.0 / (1.0 / g + 1.0 / dv));
	}
	if (sig_rate_table(secs) < 0)
		rc = 1;
	crypto_shutdown();
	return rc;
}
