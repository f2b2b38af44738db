// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Distinguished names (crypto/dn.c): the input as a peer's DER (an
 * ID_DER_ASN1_DN) and as leftid= text. Oracle: dn.h promises that the text
 * of a DER Name parses back to the same names (where dn_from_text takes
 * it: it refuses a NUL, an empty value, non-ASCII in an IA5String), so
 * DER -> text -> DER must match the original; a DN matches itself.
 */
#include <stdlib.h>
#include <string.h>

#include "crypto/dn.h"
#include "fuzz.h"
#include "fuzz_nss.h"

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	fuzz_nss_init();
	return 0;
}

static void check(bool ok)
{
	if (!ok)
		abort(); /* the fuzzer reports this input */
}

static void from_der(const uint8_t *der, size_t len)
{
	char text[8 * DN_MAX], small[16];
	uint8_t again[2 * DN_MAX];
	struct crypto_err err;
	size_t n;

	(void)dn_to_text(der, len, small, sizeof(small));
	if (dn_to_text(der, len, text, sizeof(text)))
		return;
	check(dn_match(der, len, der, len, NULL));
	if (dn_from_text(text, again, sizeof(again), &n, &err))
		return;
	check(dn_match(again, n, der, len, NULL));
}

static void from_text(const char *text)
{
	uint8_t der[DN_MAX];
	char back[8 * DN_MAX];
	struct crypto_err err;
	unsigned wild;
	size_t n;

	if (dn_from_text(text, der, sizeof(der), &n, &err))
		return;
	check(dn_match(der, n, der, n, &wild));
	check(!dn_to_text(der, n, back, sizeof(back)));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = malloc(size + 1);

	if (!text)
		abort();
	from_der(data, size);
	memcpy(text, data, size);
	text[size] = '\0';
	from_text(text);
	free(text);
	/* two names against each other, as leftid= against IDr */
	if (size > 1)
		(void)dn_match(data + 1, data[0] % size,
			       data + 1 + data[0] % size,
			       size - 1 - data[0] % size, NULL);
	return 0;
}
