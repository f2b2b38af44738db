// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A peer's certificate and the ID it claims (crypto/cert_id.c), as
 * IKE_AUTH checks them: input is the ID type, the ID's length and bytes,
 * then the certificate's DER. Also the subject and issuer text that the
 * logs show, into buffers small and large.
 */
#include "crypto/cert_id.h"
#include "fuzz.h"
#include "fuzz_nss.h"

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	fuzz_nss_init();
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fuzz_in in = { data, size };
	uint8_t type = fuzz_u8(&in);
	size_t id_len, cert_len;
	const uint8_t *id = fuzz_bytes(&in, fuzz_u8(&in), &id_len);
	const uint8_t *cert = fuzz_bytes(&in, in.left, &cert_len);
	char why[512], small[8], subject[1200], issuer[1200];

	(void)cert_id_check(cert, cert_len, type, id, id_len, why, sizeof(why));
	(void)cert_id_check(cert, cert_len, type, id, id_len, small,
			    sizeof(small));
	(void)cert_subject_text(cert, cert_len, subject, sizeof(subject),
				issuer, sizeof(issuer));
	(void)cert_subject_text(cert, cert_len, small, sizeof(small), NULL, 0);
	return 0;
}
