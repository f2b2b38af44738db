// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Signatures per second through the daemon's own code (crypto/sig.c), for
 * the certificate runs of testing/bench/ike-rate: each IKE SA costs each
 * end one signature and one verification, so these bound what a
 * certificate adds to an SA before anything else is counted. Keys are
 * session keys made here: RSA 2048 and P-256, as the test PKI's.
 */
#include <stdio.h>
#include <string.h>
#include <time.h>

#include <keyhi.h>
#include <pk11pub.h>

#include "crypto/sig.h"
#include "sig_rate.h"

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static SECKEYPrivateKey *keypair(bool rsa, SECKEYPublicKey **pub)
{
	PK11SlotInfo *slot = PK11_GetInternalSlot();
	PK11RSAGenParams rp = { .keySizeInBits = 2048, .pe = 65537 };
	/* the DER OID of P-256 (secp256r1), NSS's EC parameters */
	static unsigned char p256[] = { 0x06, 0x08, 0x2a, 0x86, 0x48,
					0xce, 0x3d, 0x03, 0x01, 0x07 };
	SECItem ec = { siBuffer, p256, sizeof(p256) };
	SECKEYPrivateKey *k;

	if (!slot)
		return NULL;
	k = PK11_GenerateKeyPair(
		slot, rsa ? CKM_RSA_PKCS_KEY_PAIR_GEN : CKM_EC_KEY_PAIR_GEN,
		rsa ? (void *)&rp : (void *)&ec, pub, PR_FALSE, PR_FALSE, NULL);
	PK11_FreeSlot(slot);
	return k;
}

/* One row: sign/s and verify/s of scheme s over 600 octets. */
static int row(const char *name, bool rsa, enum sig_scheme s, double secs)
{
	static uint8_t data[600];
	struct cbytes iov = { data, sizeof(data) };
	struct crypto_err err = { 0 };
	SECKEYPublicKey *pub = NULL;
	SECKEYPrivateKey *priv = keypair(rsa, &pub);
	uint8_t sig[SIG_AUTH_MAX];
	size_t len = 0;
	unsigned long ns = 0, nv = 0;
	double t0, ts, tv;
	enum sig_scheme used;
	int rc = -1;

	if (!priv) {
		fprintf(stderr, "%s: no key pair\n", name);
		return -1;
	}
	t0 = now();
	do {
		if (sig_sign(priv, s, &iov, 1, sig, sizeof(sig), &len, &err))
			goto out;
		ns++;
	} while ((ts = now() - t0) < secs);
	t0 = now();
	do {
		if (sig_verify(pub, sig_scheme(s)->method, sig, len, &iov, 1,
			       &used, &err))
			goto out;
		nv++;
	} while ((tv = now() - t0) < secs);
	printf("| %s | %.0f | %.0f | %.2f |\n", name, ns / ts, nv / tv,
	       1e3 * (ts / ns + tv / nv));
	rc = 0;
out:
	if (rc)
		fprintf(stderr, "%s: %s\n", name, err.msg);
	SECKEY_DestroyPrivateKey(priv);
	SECKEY_DestroyPublicKey(pub);
	return rc;
}

int sig_rate_table(double secs)
{
	int rc = 0;

	printf("\n| signature | sign/s | verify/s | ms per SA end (one of each) |\n");
	printf("|---|---:|---:|---:|\n");
	rc |= row("ECDSA P-256 SHA2-256", false, SIG_ECDSA_SHA256, secs);
	rc |= row("RSA-PSS 2048 SHA2-256", true, SIG_RSA_PSS_SHA256, secs);
	return rc;
}
