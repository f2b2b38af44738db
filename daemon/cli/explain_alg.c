// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A proposal as the failure record has it (IANA names, "AES_CBC_128-
 * HMAC_SHA1-HMAC_SHA1_96-MODP2048") in the words of ike= and esp=
 * ("aes128-sha1-modp2048"), so that the fix `ikebana explain` suggests
 * can be pasted. A name without a spelling here is kept as it is, in
 * lower case: the operator still sees what it was.
 */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "cli/explain.h"

static const struct {
	const char *prefix; /* the IANA name, up to a key length */
	const char *word;
	bool keylen; /* the word takes the key length: aes128 */
} words[] = {
	{ "AES_CBC_", "aes", true },
	{ "AES_GCM_16_", "aes_gcm", true },
	{ "AES_GCM_12_", "aes_gcm_b", true },
	{ "AES_GCM_8_", "aes_gcm_a", true },
	{ "AES_CTR_", "aes_ctr", true },
	{ "AES_CCM_16_", "aes_ccm", true },
	{ "CAMELLIA_CBC_", "camellia", true },
	{ "CHACHA20_POLY1305", "chacha20_poly1305", false },
	{ "3DES", "3des", false },
	{ "HMAC_SHA1", "sha1", false },
	{ "HMAC_SHA2_256", "sha2_256", false },
	{ "HMAC_SHA2_384", "sha2_384", false },
	{ "HMAC_SHA2_512", "sha2_512", false },
	{ "HMAC_MD5", "md5", false },
	{ "AES_XCBC", "aes_xcbc", false },
	{ "AES128_XCBC", "aes_xcbc", false },
	{ "AES_CMAC", "aes_cmac", false },
	{ "AES128_CMAC", "aes_cmac", false },
	{ "ECP256", "dh19", false },
	{ "ECP384", "dh20", false },
	{ "ECP521", "dh21", false },
	{ "CURVE25519", "dh31", false },
	{ "CURVE448", "dh32", false },
	{ "MODP", "modp", true },
};

static void word_of(const char *tok, char *out, size_t len)
{
	size_t n;

	if (!strcmp(tok, "NO_ESN") || !strcmp(tok, "ESN") ||
	    !strcmp(tok, "NONE")) {
		out[0] = '\0';
		return;
	}
	for (size_t i = 0; i < sizeof(words) / sizeof(words[0]); i++) {
		n = strlen(words[i].prefix);
		if (strncmp(tok, words[i].prefix, n))
			continue;
		if (words[i].keylen)
			snprintf(out, len, "%s%s", words[i].word, tok + n);
		else
			snprintf(out, len, "%s", words[i].word);
		return;
	}
	for (n = 0; tok[n] && n + 1 < len; n++)
		out[n] = (char)tolower((unsigned char)tok[n]);
	out[n] = '\0';
}

void explain_spelling(const char *proposal, char *out, size_t len)
{
	char tok[64], word[64], last[64] = "";
	size_t off = 0;
	const char *p = proposal;

	out[0] = '\0';
	while (*p && *p != '|') {
		size_t n = strcspn(p, "-|");

		if (n >= sizeof(tok))
			n = sizeof(tok) - 1;
		memcpy(tok, p, n);
		tok[n] = '\0';
		p += strcspn(p, "-|");
		if (*p == '-')
			p++;
		word_of(tok, word, sizeof(word));
		/* a PRF and an integrity of one hash read as one word */
		if (!word[0] || !strcmp(word, last))
			continue;
		snprintf(last, sizeof(last), "%s", word);
		if (off < len)
			off += (size_t)snprintf(out + off, len - off, "%s%s",
						off ? "-" : "", word);
	}
}
