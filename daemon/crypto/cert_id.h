/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Is the peer's IKE identity (RFC 7296 §3.5) in its certificate? This is
 * the check that binds IDi/IDr to the certificate that signed AUTH; the
 * certificate's own validity (chain, dates, revocation) is checked
 * elsewhere. NSS must be initialised (crypto_init).
 */
#ifndef IKB_CRYPTO_CERT_ID_H
#define IKB_CRYPTO_CERT_ID_H

#include <stddef.h>
#include <stdint.h>

/* RFC 7296 §3.5 ID types */
#define IKEV2_ID_IPV4_ADDR 1
#define IKEV2_ID_FQDN 2
#define IKEV2_ID_RFC822_ADDR 3
#define IKEV2_ID_IPV6_ADDR 5
#define IKEV2_ID_DER_ASN1_DN 9
#define IKEV2_ID_KEY_ID 11
#define IKEV2_ID_NULL 13 /* RFC 7619: no identity, empty data */

/*
 * 0 if the ID is in the certificate cert_der[cert_len]:
 *  IPV4_ADDR, IPV6_ADDR: an iPAddress subjectAltName of the same address;
 *  FQDN: a dNSName subjectAltName, ignoring case;
 *  RFC822_ADDR: an rfc822Name subjectAltName or an E= in the subject,
 *  ignoring case (libreswan accepts both);
 *  DER_ASN1_DN: the subject, by dn_match (wildcards allowed).
 * -EPERM if not, KEY_ID and unknown types included; -EINVAL for an
 * address ID of the wrong length; -EBADMSG if NSS cannot decode the
 * certificate. On failure why (may be NULL) says what the certificate has:
 * "ID @east is not in the certificate (subject CN=west, O=Test, C=CH;
 * subjectAltName DNS:west.example, IP:192.0.2.1)".
 */
int cert_id_check(const uint8_t *cert_der, size_t cert_len, uint8_t id_type,
		  const uint8_t *id, size_t id_len, char *why, size_t why_len);

/*
 * The certificate's subject and issuer as dn_to_text writes them, for
 * logs; either output may be NULL. 0, -EBADMSG, or -ENOSPC (truncated).
 */
int cert_subject_text(const uint8_t *cert_der, size_t len, char *subject,
		      size_t scap, char *issuer, size_t icap);

#endif
