/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Distinguished names as libreswan users write them: "C=CH, O=Example,
 * CN=west". The text lists the RDNs in the order they are on the wire,
 * most significant first; that is libreswan's convention and the reverse
 * of RFC 4514 (and of NSS's CERT_AsciiToName). The DER is an X.501 Name:
 * the body of an IKE ID_DER_ASN1_DN payload and a certificate's subject.
 *
 * Text syntax: attribute=value pairs separated by ',' (spaces around it
 * are ignored). Attribute names are case-insensitive: C, ST, L, O, OU, CN,
 * E/Email/emailAddress, DC, SN/serialNumber (libreswan's SN is the serial
 * number, 2.5.4.5), S/surname, G/GN/givenName, T/title, UID, or a dotted
 * OID such as 2.5.4.45. A value may be "quoted", may escape a character
 * with '\' (also "\2C" in hex), may double a ',' as libreswan does, or may
 * be #hex of a complete DER value. '+' is an ordinary character: one
 * attribute per RDN, as libreswan writes them.
 */
#ifndef IKB_CRYPTO_DN_H
#define IKB_CRYPTO_DN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "crypto/err.h"

/* Longest DN text or DER the daemon handles (libreswan's limit too). */
#define DN_MAX 1024

/*
 * Text to DER into der[cap]; *len is set on success. Returns 0, -EINVAL
 * (err names the offending attribute) or -ENOSPC.
 */
int dn_from_text(const char *text, uint8_t *der, size_t cap, size_t *len,
		 struct crypto_err *err);

/*
 * DER (peer input) to text, "C=CH, O=Example, CN=west". Bytes outside
 * printable ASCII and the characters that would end a value are escaped
 * as \XX or \c, so the text parses back to the same names, except
 * where dn_from_text refuses on purpose what leftid= must not say: a NUL
 * (\00), an empty value, non-ASCII in an IA5String. Returns 0,
 * -EBADMSG for DER that is not a Name, or -ENOSPC (out holds as much as
 * fits, always terminated when cap > 0).
 */
int dn_to_text(const uint8_t *der, size_t len, char *out, size_t cap);

/*
 * Does got match want? Same number of RDNs, the same attribute types in
 * the same order, string values equal ignoring ASCII case and surrounding
 * spaces whatever the string type (PrintableString against UTF8String);
 * a value of exactly "*" in want matches anything and is counted into
 * *wildcards (may be NULL): fewer wildcards means a more specific match.
 * Bad DER on either side does not match.
 */
bool dn_match(const uint8_t *want, size_t wlen, const uint8_t *got, size_t glen,
	      unsigned *wildcards);

#endif
