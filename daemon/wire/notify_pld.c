// SPDX-License-Identifier: GPL-2.0-or-later
/* Notify payload (RFC 7296 §3.10) and the notify type names. */
#include <stdio.h>
#include <string.h>

#include "wire/internal.h"

struct notify_name {
	uint16_t type;
	const char *name;
};

/* IANA "IKEv2 Notify Message Types", errors then status, sorted. */
static const struct notify_name notify_names[] = {
	{ 1, "UNSUPPORTED_CRITICAL_PAYLOAD" },
	{ 4, "INVALID_IKE_SPI" },
	{ 5, "INVALID_MAJOR_VERSION" },
	{ 7, "INVALID_SYNTAX" },
	{ 9, "INVALID_MESSAGE_ID" },
	{ 11, "INVALID_SPI" },
	{ 14, "NO_PROPOSAL_CHOSEN" },
	{ 17, "INVALID_KE_PAYLOAD" },
	{ 24, "AUTHENTICATION_FAILED" },
	{ 34, "SINGLE_PAIR_REQUIRED" },
	{ 35, "NO_ADDITIONAL_SAS" },
	{ 36, "INTERNAL_ADDRESS_FAILURE" },
	{ 37, "FAILED_CP_REQUIRED" },
	{ 38, "TS_UNACCEPTABLE" },
	{ 39, "INVALID_SELECTORS" },
	{ 40, "UNACCEPTABLE_ADDRESSES" },
	{ 41, "UNEXPECTED_NAT_DETECTED" },
	{ 42, "USE_ASSIGNED_HoA" },
	{ 43, "TEMPORARY_FAILURE" },
	{ 44, "CHILD_SA_NOT_FOUND" },
	{ 45, "INVALID_GROUP_ID" },
	{ 46, "AUTHORIZATION_FAILED" },
	{ 47, "STATE_NOT_FOUND" },
	{ 48, "TS_MAX_QUEUE" },
	{ 16384, "INITIAL_CONTACT" },
	{ 16385, "SET_WINDOW_SIZE" },
	{ 16386, "ADDITIONAL_TS_POSSIBLE" },
	{ 16387, "IPCOMP_SUPPORTED" },
	{ 16388, "NAT_DETECTION_SOURCE_IP" },
	{ 16389, "NAT_DETECTION_DESTINATION_IP" },
	{ 16390, "COOKIE" },
	{ 16391, "USE_TRANSPORT_MODE" },
	{ 16392, "HTTP_CERT_LOOKUP_SUPPORTED" },
	{ 16393, "REKEY_SA" },
	{ 16394, "ESP_TFC_PADDING_NOT_SUPPORTED" },
	{ 16395, "NON_FIRST_FRAGMENTS_ALSO" },
	{ 16396, "MOBIKE_SUPPORTED" },
	{ 16397, "ADDITIONAL_IP4_ADDRESS" },
	{ 16398, "ADDITIONAL_IP6_ADDRESS" },
	{ 16399, "NO_ADDITIONAL_ADDRESSES" },
	{ 16400, "UPDATE_SA_ADDRESSES" },
	{ 16401, "COOKIE2" },
	{ 16402, "NO_NATS_ALLOWED" },
	{ 16403, "AUTH_LIFETIME" },
	{ 16404, "MULTIPLE_AUTH_SUPPORTED" },
	{ 16405, "ANOTHER_AUTH_FOLLOWS" },
	{ 16406, "REDIRECT_SUPPORTED" },
	{ 16407, "REDIRECT" },
	{ 16408, "REDIRECTED_FROM" },
	{ 16409, "TICKET_LT_OPAQUE" },
	{ 16410, "TICKET_REQUEST" },
	{ 16411, "TICKET_ACK" },
	{ 16412, "TICKET_NACK" },
	{ 16413, "TICKET_OPAQUE" },
	{ 16414, "LINK_ID" },
	{ 16415, "USE_WESP_MODE" },
	{ 16416, "ROHC_SUPPORTED" },
	{ 16417, "EAP_ONLY_AUTHENTICATION" },
	{ 16418, "CHILDLESS_IKEV2_SUPPORTED" },
	{ 16419, "QUICK_CRASH_DETECTION" },
	{ 16420, "IKEV2_MESSAGE_ID_SYNC_SUPPORTED" },
	{ 16421, "IPSEC_REPLAY_COUNTER_SYNC_SUPPORTED" },
	{ 16422, "IKEV2_MESSAGE_ID_SYNC" },
	{ 16423, "IPSEC_REPLAY_COUNTER_SYNC" },
	{ 16424, "SECURE_PASSWORD_METHODS" },
	{ 16425, "PSK_PERSIST" },
	{ 16426, "PSK_CONFIRM" },
	{ 16427, "ERX_SUPPORTED" },
	{ 16428, "IFOM_CAPABILITY" },
	{ 16429, "SENDER_REQUEST_ID" },
	{ 16430, "IKEV2_FRAGMENTATION_SUPPORTED" },
	{ 16431, "SIGNATURE_HASH_ALGORITHMS" },
	{ 16432, "CLONE_IKE_SA_SUPPORTED" },
	{ 16433, "CLONE_IKE_SA" },
	{ 16434, "PUZZLE" },
	{ 16435, "USE_PPK" },
	{ 16436, "PPK_IDENTITY" },
	{ 16437, "NO_PPK_AUTH" },
	{ 16438, "INTERMEDIATE_EXCHANGE_SUPPORTED" },
	{ 16439, "IP4_ALLOWED" },
	{ 16440, "IP6_ALLOWED" },
	{ 16441, "ADDITIONAL_KEY_EXCHANGE" },
	{ 16442, "USE_AGGFRAG" },
	{ 16443, "SUPPORTED_AUTH_METHODS" },
	{ 16444, "SA_RESOURCE_INFO" },
};

const char *wire_notify_name(uint16_t type)
{
	size_t lo = 0, hi = sizeof(notify_names) / sizeof(notify_names[0]);

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (notify_names[mid].type == type)
			return notify_names[mid].name;
		if (notify_names[mid].type < type)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

const char *wire_notify_text(uint16_t type, char *buf, size_t len)
{
	const char *name = wire_notify_name(type);

	if (name)
		return name;
	snprintf(buf, len, "%s notify %u",
		 wire_notify_is_error(type) ? "error" : "status", type);
	return buf;
}

bool wire_notify_is_error(uint16_t type)
{
	return type <= WIRE_N_ERROR_MAX;
}

/* Data length rules of the notifies whose content we rely on. */
static int check_data(struct wire_ctx *c, uint16_t type, uint8_t spi_size,
		      size_t dlen)
{
	const char *name = wire_notify_name(type);

	switch (type) {
	case WIRE_N_NAT_DETECTION_SOURCE_IP:
	case WIRE_N_NAT_DETECTION_DESTINATION_IP:
		if (dlen != 20)
			return wire_fail(
				c, "notification data",
				"%s: data %zu bytes, must be 20 (SHA-1)", name,
				dlen);
		break;
	case WIRE_N_COOKIE:
		if (dlen < 1 || dlen > 64)
			return wire_fail(c, "notification data",
					 "%s: data %zu bytes, must be 1 to 64",
					 name, dlen);
		break;
	case WIRE_N_COOKIE2: /* RFC 4555 §3.6 */
		if (dlen < 8 || dlen > 64)
			return wire_fail(c, "notification data",
					 "%s: data %zu bytes, must be 8 to 64",
					 name, dlen);
		break;
	case WIRE_N_ADDITIONAL_IP4_ADDRESS:
	case WIRE_N_ADDITIONAL_IP6_ADDRESS:
		if (dlen != (type == WIRE_N_ADDITIONAL_IP4_ADDRESS ? 4 : 16))
			return wire_fail(
				c, "notification data",
				"%s: data %zu bytes, must be an address of %d",
				name, dlen,
				type == WIRE_N_ADDITIONAL_IP4_ADDRESS ? 4 : 16);
		break;
	case WIRE_N_MOBIKE_SUPPORTED:
	case WIRE_N_NO_ADDITIONAL_ADDRESSES:
	case WIRE_N_UPDATE_SA_ADDRESSES:
	case WIRE_N_IKEV2_FRAGMENTATION_SUPPORTED:
		if (dlen != 0)
			return wire_fail(c, "notification data",
					 "%s: data %zu bytes, must be empty",
					 name, dlen);
		break;
	case WIRE_N_SIGNATURE_HASH_ALGORITHMS:
		if (dlen == 0 || dlen % 2)
			return wire_fail(
				c, "notification data",
				"%s: data %zu bytes, must be a non-empty list of 2-byte ids",
				name, dlen);
		break;
	case WIRE_N_INVALID_KE_PAYLOAD:
		if (dlen != 2)
			return wire_fail(c, "notification data",
					 "%s: data %zu bytes, must be 2", name,
					 dlen);
		break;
	case WIRE_N_REKEY_SA:
		if (spi_size != 4)
			return wire_fail(c, "SPI size",
					 "%s: SPI size %u, must be 4", name,
					 spi_size);
		break;
	default:
		break;
	}
	return 0;
}

static int notify_validate(struct wire_ctx *c, const uint8_t *b, size_t len)
{
	uint8_t proto, spi_size;

	if (len < 4)
		return wire_fail(
			c, "length",
			"body %zu bytes, need 4 for protocol, SPI size and type",
			len);
	proto = b[0];
	spi_size = b[1];
	if (spi_size > len - 4)
		return wire_fail(c, "SPI size",
				 "SPI size %u exceeds payload remaining %zu",
				 spi_size, len - 4);
	/* §3.10: no SPI for the IKE SA; AH and ESP SPIs are 4 octets */
	if (spi_size != 0 &&
	    !((proto == IKB_PROTO_AH || proto == IKB_PROTO_ESP) &&
	      spi_size == 4))
		return wire_fail(c, "SPI size",
				 "SPI size %u inconsistent with protocol %u",
				 spi_size, proto);
	return check_data(c, wire_get16(b + 2), spi_size, len - 4 - spi_size);
}

static void notify_parse(struct wire_ctx *c, const uint8_t *b, size_t len,
			 struct wire_payload *out)
{
	struct wire_notify *n = &out->u.notify;

	n->protocol = b[0];
	n->spi_size = b[1];
	n->type = wire_get16(b + 2);
	memcpy(n->spi, b + 4, n->spi_size);
	n->len = len - 4 - n->spi_size;
	n->data = n->len ? b + 4 + n->spi_size : NULL;
}

static int notify_emit(struct wire_ectx *c, const struct wire_payload *p,
		       struct wbuf *o)
{
	const struct wire_notify *n = &p->u.notify;

	if (n->spi_size > sizeof(n->spi))
		return wire_efail(c, "SPI size", "SPI size %u exceeds 8",
				  n->spi_size);
	wbuf_u8(o, n->protocol);
	wbuf_u8(o, n->spi_size);
	wbuf_u16(o, n->type);
	wbuf_put(o, n->spi, n->spi_size);
	wbuf_put(o, n->data, n->len);
	return 0;
}

const struct wire_pld_ops wire_notify_ops = {
	.validate = notify_validate,
	.parse = notify_parse,
	.emit = notify_emit,
};
