// SPDX-License-Identifier: GPL-2.0-or-later
/* The IKE header (RFC 7296 §3.1): version and length checks. */
#include <string.h>

#include "wire/internal.h"

int wire_parse_hdr(struct wire_hdr *hdr, const uint8_t *buf, size_t len,
		   struct wire_error *err)
{
	const char *h = "IKE header";

	if (len < WIRE_HDR_LEN) {
		wire_set_error(
			err, h, "length",
			"datagram of %zu bytes is shorter than the IKE header (28)",
			len);
		err->notify = 0;
		return -EBADMSG;
	}
	memcpy(hdr->spi_i, buf, 8);
	memcpy(hdr->spi_r, buf + 8, 8);
	hdr->next_payload = buf[16];
	hdr->major = buf[17] >> 4;
	hdr->minor = buf[17] & 0x0f;
	hdr->exchange = buf[18];
	hdr->flags = buf[19];
	hdr->msgid = wire_get32(buf + 20);
	hdr->length = wire_get32(buf + 24);
	if (!memcmp(hdr->spi_i, "\0\0\0\0\0\0\0\0", 8)) {
		wire_set_error(err, h, "initiator SPI",
			       "initiator SPI is zero");
		err->notify = 0;
		return -EBADMSG;
	}
	if (hdr->major != 2) {
		wire_set_error(err, h, "major version",
			       "major version %u is not 2", hdr->major);
		/* §2.5: answer a higher version; IKEv1 is not ours to answer */
		err->notify = hdr->major > 2 ? WIRE_N_INVALID_MAJOR_VERSION : 0;
		return -EBADMSG;
	}
	if (hdr->length != len) {
		wire_set_error(err, h, "length",
			       "length %u does not match datagram %zu",
			       hdr->length, len);
		err->notify = 0; /* nothing sane to answer to */
		return -EBADMSG;
	}
	return 0;
}
