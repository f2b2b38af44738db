/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * IKEv2 wire codec (RFC 7296, RFC 7383): types and entry points.
 *
 * Parsing validates every length and count of a payload before reading any
 * of its fields, and never allocates: the decoded message lives in one
 * caller-provided struct wire_msg whose opaque byte fields point into the
 * input buffer. Those pointers are valid only as long as the input buffer
 * (the datagram, or the plaintext handed to wire_parse_inner()) is.
 * Arrays (proposals, transforms, selectors, attributes) point into pools
 * inside the same struct wire_msg, so the struct must not be copied by
 * value.
 *
 * Emitting takes the same structs and writes the bytes; next-payload chaining
 * and every length field are computed, never taken from the structs.
 *
 * The SK boundary with crypto (the codec never decrypts):
 *  receive: wire_parse() → wire_find(WIRE_PT_SK or WIRE_PT_SKF) →
 *   wire_sk_split() with the SA's IV/ICV/block sizes gives IV,
 *   ciphertext, ICV and the AAD / integrity ranges of the datagram →
 *   crypto verifies and decrypts into its own buffer, strips the padding
 *   (sk_open() returns the length of the inner payloads) →
 *   wire_parse_payloads(msg, payloads, len, sk.inner_type) appends
 *   the inner payloads (inner = true) to msg. wire_parse_inner() is
 *   the same for a plaintext that still has its padding (fuzzing, tests).
 *  send: wire_emit_chain(inner payloads) → wire_sk_pad() →
 *   wire_emit() of the outer message with an SK payload whose body is
 *   NULL and body_len = IV + padded plaintext + ICV → crypto encrypts into
 *   out->data + info.sk_body_off and writes the ICV last.
 */
#ifndef IKB_WIRE_WIRE_H
#define IKB_WIRE_WIRE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <ikebana/proposals.h>

/* RFC 7296 §3.2 payload types, RFC 7383 SKF. */
enum wire_pt {
	WIRE_PT_NONE = 0,
	WIRE_PT_SA = 33,
	WIRE_PT_KE = 34,
	WIRE_PT_IDI = 35,
	WIRE_PT_IDR = 36,
	WIRE_PT_CERT = 37,
	WIRE_PT_CERTREQ = 38,
	WIRE_PT_AUTH = 39,
	WIRE_PT_NONCE = 40,
	WIRE_PT_NOTIFY = 41,
	WIRE_PT_DELETE = 42,
	WIRE_PT_VID = 43,
	WIRE_PT_TSI = 44,
	WIRE_PT_TSR = 45,
	WIRE_PT_SK = 46,
	WIRE_PT_CP = 47,
	WIRE_PT_EAP = 48,
	WIRE_PT_GSPM = 49,
	WIRE_PT_SKF = 53,
};

enum wire_exchange {
	WIRE_EXCH_IKE_SA_INIT = 34,
	WIRE_EXCH_IKE_AUTH = 35,
	WIRE_EXCH_CREATE_CHILD_SA = 36,
	WIRE_EXCH_INFORMATIONAL = 37,
	WIRE_EXCH_IKE_SESSION_RESUME = 38,
	WIRE_EXCH_IKE_INTERMEDIATE = 43,
	WIRE_EXCH_IKE_FOLLOWUP_KE = 44,
};

/* Notify message types the daemon itself produces or reacts to. */
enum wire_notify_type {
	WIRE_N_UNSUPPORTED_CRITICAL_PAYLOAD = 1,
	WIRE_N_INVALID_IKE_SPI = 4,
	WIRE_N_INVALID_MAJOR_VERSION = 5,
	WIRE_N_INVALID_SYNTAX = 7,
	WIRE_N_INVALID_MESSAGE_ID = 9,
	WIRE_N_INVALID_SPI = 11,
	WIRE_N_NO_PROPOSAL_CHOSEN = 14,
	WIRE_N_INVALID_KE_PAYLOAD = 17,
	WIRE_N_AUTHENTICATION_FAILED = 24,
	WIRE_N_SINGLE_PAIR_REQUIRED = 34,
	WIRE_N_NO_ADDITIONAL_SAS = 35,
	WIRE_N_INTERNAL_ADDRESS_FAILURE = 36,
	WIRE_N_FAILED_CP_REQUIRED = 37,
	WIRE_N_TS_UNACCEPTABLE = 38,
	WIRE_N_UNACCEPTABLE_ADDRESSES = 40, /* RFC 4555 */
	WIRE_N_UNEXPECTED_NAT_DETECTED = 41,
	WIRE_N_TEMPORARY_FAILURE = 43,
	WIRE_N_CHILD_SA_NOT_FOUND = 44,
	WIRE_N_TS_MAX_QUEUE = 48, /* RFC 9611 */
	WIRE_N_ERROR_MAX = 16383, /* 0..16383 are errors, the rest status */
	WIRE_N_INITIAL_CONTACT = 16384,
	WIRE_N_NAT_DETECTION_SOURCE_IP = 16388,
	WIRE_N_NAT_DETECTION_DESTINATION_IP = 16389,
	WIRE_N_COOKIE = 16390,
	WIRE_N_USE_TRANSPORT_MODE = 16391,
	WIRE_N_REKEY_SA = 16393,
	WIRE_N_ESP_TFC_PADDING_NOT_SUPPORTED = 16394,
	WIRE_N_NON_FIRST_FRAGMENTS_ALSO = 16395,
	WIRE_N_MOBIKE_SUPPORTED = 16396,
	WIRE_N_ADDITIONAL_IP4_ADDRESS = 16397,
	WIRE_N_ADDITIONAL_IP6_ADDRESS = 16398,
	WIRE_N_NO_ADDITIONAL_ADDRESSES = 16399,
	WIRE_N_UPDATE_SA_ADDRESSES = 16400,
	WIRE_N_COOKIE2 = 16401,
	WIRE_N_NO_NATS_ALLOWED = 16402,
	WIRE_N_IKEV2_FRAGMENTATION_SUPPORTED = 16430,
	WIRE_N_SIGNATURE_HASH_ALGORITHMS = 16431,
	WIRE_N_INTERMEDIATE_EXCHANGE_SUPPORTED = 16438,
	WIRE_N_SA_RESOURCE_INFO = 16444, /* RFC 9611 */
};

/* IKE header flags (§3.1). */
#define WIRE_FLAG_I 0x08
#define WIRE_FLAG_V 0x10
#define WIRE_FLAG_R 0x20

#define WIRE_HDR_LEN 28
#define WIRE_GENERIC_LEN 4

/* Bounds: a message exceeding one is rejected, never truncated. */
#define WIRE_MAX_PAYLOADS 64
#define WIRE_MAX_PROPOSALS IKB_PROPOSALS_MAX /* per SA payload */
#define WIRE_MAX_XFORMS IKB_PROPOSAL_MAX_XFORMS /* per proposal */
#define WIRE_POOL_PROPOSALS 32 /* per message */
#define WIRE_POOL_XFORMS 256 /* per message */
#define WIRE_MAX_TS 16 /* per TS payload */
#define WIRE_POOL_TS 32 /* per message */
#define WIRE_MAX_CP_ATTRS 32 /* per CP payload */
#define WIRE_POOL_CP_ATTRS 64 /* per message */

struct wire_hdr {
	uint8_t spi_i[8], spi_r[8];
	uint8_t next_payload; /* filled by emit */
	uint8_t major, minor; /* emit writes major 2 when 0 */
	uint8_t exchange;
	uint8_t flags; /* WIRE_FLAG_* */
	uint32_t msgid;
	uint32_t length; /* filled by emit */
};

/* §3.3.2. key_bits 0: no Key Length attribute. */
struct wire_transform {
	uint8_t type;
	uint16_t id;
	uint16_t key_bits;
	/* §3.3.6: an attribute we do not understand makes this transform
	 * unacceptable; the others of the same type remain usable. */
	bool unknown_attr;
};

struct wire_proposal {
	uint8_t num; /* kept: the response echoes the accepted number */
	uint8_t protocol; /* enum ikb_protocol */
	uint8_t spi_size; /* 0 or 8 for IKE, 4 for AH/ESP */
	uint8_t spi[8];
	uint8_t n_xf;
	/* §3.3.6: a transform type we do not understand makes the whole
	 * proposal unacceptable; other proposals are processed as usual. */
	bool unknown_type;
	bool unknown_protocol;
	const struct wire_transform *xf;
};

struct wire_sa {
	uint8_t n_prop;
	const struct wire_proposal *prop;
};

struct wire_ke {
	uint16_t group;
	const uint8_t *data;
	size_t len;
};

/* ID, CERT, CERTREQ, AUTH: one-octet type, then data. */
struct wire_typed {
	uint8_t type; /* ID type, cert encoding, auth method */
	const uint8_t *data;
	size_t len;
};

struct wire_opaque {
	const uint8_t *data;
	size_t len;
};

struct wire_notify {
	uint8_t protocol;
	uint8_t spi_size;
	uint16_t type;
	uint8_t spi[8];
	const uint8_t *data;
	size_t len;
};

struct wire_delete {
	uint8_t protocol;
	uint8_t spi_size;
	uint16_t n_spi;
	const uint8_t *spis; /* n_spi * spi_size bytes, network order */
};

enum wire_ts_type { WIRE_TS_IPV4_ADDR_RANGE = 7, WIRE_TS_IPV6_ADDR_RANGE = 8 };

struct wire_ts {
	uint8_t type; /* enum wire_ts_type */
	uint8_t ip_proto; /* 0 = any */
	uint16_t start_port, end_port;
	uint8_t start[16], end[16]; /* 4 bytes used for IPv4 */
};

struct wire_ts_pld {
	uint8_t n;
	const struct wire_ts *ts;
};

/*
 * SK and SKF. The codec never decrypts: it hands crypto the byte ranges.
 * body is IV | ciphertext | ICV; msg_off is where the payload's generic
 * header starts in the message, so the AEAD associated data is
 * message[0 .. msg_off + hdr_len) and the integrity-checked range of
 * CBC+HMAC is message[0 .. msg_off + hdr_len + body_len - icv_len).
 */
struct wire_sk {
	uint8_t inner_type; /* the Next Payload field: first inner payload */
	uint16_t frag_num; /* SKF only */
	uint16_t frag_total; /* SKF only */
	const uint8_t *body; /* emit: NULL reserves body_len zero bytes */
	size_t body_len;
	size_t msg_off; /* parse only */
	size_t hdr_len; /* 4 for SK, 8 for SKF; parse only */
};

/* The split of an SK/SKF body, given the negotiated sizes. */
struct wire_sk_parts {
	const uint8_t *iv, *ct, *icv;
	size_t iv_len, ct_len, icv_len;
	size_t aad_len; /* bytes of the message before the IV */
	size_t integ_len; /* bytes of the message before the ICV */
};

struct wire_cp_attr {
	uint16_t type;
	uint16_t len;
	const uint8_t *value;
};

struct wire_cp {
	uint8_t cfg_type; /* 1 REQUEST, 2 REPLY, 3 SET, 4 ACK */
	uint8_t n_attr;
	const struct wire_cp_attr *attr;
};

struct wire_payload {
	uint8_t type;
	bool critical;
	bool known; /* false: unknown non-critical payload, body in raw */
	bool inner; /* decrypted from an SK or SKF payload */
	union {
		struct wire_sa sa;
		struct wire_ke ke;
		struct wire_typed id, cert, certreq, auth;
		struct wire_opaque nonce, vid,
			raw; /* raw: EAP, GSPM, unknown */
		struct wire_notify notify;
		struct wire_delete del;
		struct wire_ts_pld ts;
		struct wire_sk sk; /* SK and SKF */
		struct wire_cp cp;
	} u;
};

struct wire_msg {
	struct wire_hdr hdr;
	unsigned n;
	struct wire_payload pl[WIRE_MAX_PAYLOADS];
	/* Pools the payload arrays point into (parse only). */
	struct wire_pool {
		unsigned n_prop, n_xf, n_ts, n_cp;
		struct wire_proposal prop[WIRE_POOL_PROPOSALS];
		struct wire_transform xf[WIRE_POOL_XFORMS];
		struct wire_ts ts[WIRE_POOL_TS];
		struct wire_cp_attr cp[WIRE_POOL_CP_ATTRS];
	} pool;
};

/*
 * Why a message was rejected. msg is the full sentence for the log, e.g.
 * "SA payload: proposal 2: transform 3: length 12 exceeds proposal
 * remaining 8". notify is what a responder should answer with (0: drop
 * silently), notify_data its one-octet data (the payload type for
 * UNSUPPORTED_CRITICAL_PAYLOAD).
 */
struct wire_error {
	char payload[24]; /* "IKE header", "SA payload", ... */
	char field[32]; /* "length", "transform 3 length", ... */
	char msg[256];
	uint16_t notify;
	uint8_t notify_data;
	bool has_notify_data;
};

/* Sizes the caller knows once the IKE SA is found; all zero: unknown. */
struct wire_opts {
	size_t iv_len, icv_len, block_len; /* block_len 0 or 1: stream/AEAD */
};

/* Parse --------------------------------------------------------------- */

/* The header alone: enough to look up the IKE SA before decrypting. */
int wire_parse_hdr(struct wire_hdr *hdr, const uint8_t *buf, size_t len,
		   struct wire_error *err);
/*
 * A whole datagram. opts may be NULL; with sizes set, an SK or SKF body
 * that cannot hold them is rejected here. Returns 0, or -EBADMSG with err
 * filled; msg is then partly filled and must not be used.
 */
int wire_parse(struct wire_msg *msg, const uint8_t *buf, size_t len,
	       const struct wire_opts *opts, struct wire_error *err);
/* The same with hdr, wire_parse_hdr()'s of the same buf and len. */
int wire_parse_body(struct wire_msg *msg, const struct wire_hdr *hdr,
		    const uint8_t *buf, size_t len,
		    const struct wire_opts *opts, struct wire_error *err);
/* Split an SK/SKF body into IV, ciphertext and ICV. Returns 0 or -EBADMSG. */
int wire_sk_split(const struct wire_payload *sk, const uint8_t *msg_start,
		  const struct wire_opts *sizes, struct wire_sk_parts *out,
		  struct wire_error *err);
/*
 * The inner payloads of an SK payload, padding already removed (what
 * sk_open() returns): parse the chain starting with first_type, appending
 * its payloads to msg with inner set. msg must hold the outer parse (its
 * header's R flag decides the SA proposal rules); the inner payloads
 * point into plain, which must outlive them.
 */
int wire_parse_payloads(struct wire_msg *msg, const uint8_t *plain, size_t len,
			uint8_t first_type, struct wire_error *err);
/*
 * The same for a decrypted plaintext that still ends with its padding and
 * Pad Length octet: checks and strips them first.
 */
int wire_parse_inner(struct wire_msg *msg, const uint8_t *plain, size_t len,
		     uint8_t first_type, struct wire_error *err);

/* Emit ---------------------------------------------------------------- */

/* A growable byte buffer; errors are sticky and reported by _error(). */
struct wbuf {
	uint8_t *data;
	size_t len, cap;
	size_t max; /* 0: no limit */
	int err; /* 0, -ENOMEM or -EMSGSIZE */
};

void wbuf_init(struct wbuf *b, size_t max);
void wbuf_free(struct wbuf *b);
void wbuf_reset(struct wbuf *b);
/* Appends n zero bytes; returns their offset (valid only if !b->err). */
size_t wbuf_reserve(struct wbuf *b, size_t n);
void wbuf_put(struct wbuf *b, const void *p, size_t n);
void wbuf_u8(struct wbuf *b, uint8_t v);
void wbuf_u16(struct wbuf *b, uint16_t v);
void wbuf_u32(struct wbuf *b, uint32_t v);
void wbuf_set_u8(struct wbuf *b, size_t off, uint8_t v);
void wbuf_set_u16(struct wbuf *b, size_t off, uint16_t v);
void wbuf_set_u32(struct wbuf *b, size_t off, uint32_t v);

/* Where the emitter put the SK or SKF body, for crypto to fill in place. */
struct wire_emit_info {
	bool has_sk;
	size_t sk_off; /* the SK payload's generic header */
	size_t sk_body_off; /* IV | ciphertext | ICV */
	size_t sk_body_len;
};

/* The message: header + payloads that are not inner. info may be NULL. */
int wire_emit(const struct wire_msg *msg, struct wbuf *out,
	      struct wire_emit_info *info, struct wire_error *err);
/* A bare chain (the SK plaintext); *first_type gets pl[0]'s type. */
int wire_emit_chain(const struct wire_payload *pl, unsigned n, struct wbuf *out,
		    uint8_t *first_type, struct wire_error *err);
/* Appends zero padding and the Pad Length octet up to block_len. */
int wire_sk_pad(struct wbuf *b, size_t start, size_t block_len);

/* SA <-> struct ikb_proposal_list ------------------------------------- */

/*
 * Usable proposals only (§3.3.6: a proposal with an unknown transform
 * type or protocol is skipped, so is a transform with an unknown
 * attribute). nums[i] is the wire proposal number of out->p[i]; nums
 * may be NULL.
 *
 * Unlike the rest of the codec this cannot fail (the SA payload was
 * validated when parsed): it returns out->n, the number of usable
 * proposals, 0 when none is. Callers treat <= 0 as NO_PROPOSAL_CHOSEN.
 */
int wire_sa_to_proposals(const struct wire_sa *sa,
			 struct ikb_proposal_list *out,
			 uint8_t nums[IKB_PROPOSALS_MAX]);

/* Storage for an SA payload built from a struct ikb_proposal_list. */
struct wire_sa_store {
	struct wire_proposal prop[IKB_PROPOSALS_MAX];
	struct wire_transform xf[IKB_PROPOSALS_MAX][IKB_PROPOSAL_MAX_XFORMS];
};
/*
 * Proposals are numbered first_num, first_num + 1, ... (1 for an offer,
 * the accepted number for a response). spi_size 0 for no SPI.
 */
int wire_sa_from_proposals(struct wire_sa_store *st,
			   const struct ikb_proposal_list *in,
			   uint8_t first_num, const uint8_t *spi,
			   uint8_t spi_size, struct wire_sa *out);

/* Helpers for exchanges ------------------------------------------------ */

const struct wire_payload *wire_find(const struct wire_msg *msg, uint8_t type);
/* The next payload of type after prev (NULL: from the start). */
const struct wire_payload *wire_next(const struct wire_msg *msg,
				     const struct wire_payload *prev,
				     uint8_t type);
/* The first notify of an error type (below 16384), or NULL. */
const struct wire_payload *wire_first_error(const struct wire_msg *msg);
const struct wire_notify *wire_find_notify(const struct wire_msg *msg,
					   uint16_t type);
/* Iterate notifies: for (n = NULL; (n = wire_next_notify(m, n)); ) */
const struct wire_payload *wire_next_notify(const struct wire_msg *msg,
					    const struct wire_payload *prev);
bool wire_notify_is_error(uint16_t type);

/* Names for logs; unknown values give NULL from the _name functions. */
const char *wire_payload_name(uint8_t type); /* "SA" */
const char *wire_exchange_name(uint8_t exchange); /* "IKE_SA_INIT" */
const char *wire_notify_name(uint16_t type); /* "COOKIE" */
/* Its name, or "error notify 8191" (in buf) for a type without one. */
const char *wire_notify_text(uint16_t type, char *buf, size_t len);
const char *wire_xform_type_name(uint8_t type); /* "ENCR" */
const char *wire_xform_id_name(uint8_t type, uint16_t id);
const char *wire_protocol_name(uint8_t protocol); /* "ESP" */
const char *wire_id_type_name(uint8_t type); /* "FQDN" */
const char *wire_auth_method_name(uint8_t method);
/* Payload bytes the KE data of a group must have; 0 when not fixed. */
size_t wire_ke_len(uint16_t group);
/* Logs the message, one line per payload, at debug level. */
void wire_log(const struct wire_msg *msg, const char *what);

#endif
