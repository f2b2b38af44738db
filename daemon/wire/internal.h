/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Internal to the wire codec: the per-payload table and reading helpers. */
#ifndef IKB_WIRE_INTERNAL_H
#define IKB_WIRE_INTERNAL_H

#include <errno.h>
#include "wire/wire.h"

/* Parse state shared by the chain walk and the payload validators. */
struct wire_ctx {
	struct wire_error *err;
	const char *pld; /* "SA payload" */
	char pld_buf[24]; /* pld of an unknown type */
	struct wire_msg *msg;
	const struct wire_opts *opts;
	const uint8_t *base; /* message start, for SK offsets */
	size_t pld_off; /* this payload's generic header in base */
	uint8_t next; /* this payload's Next Payload field */
	bool inner; /* walking an SK plaintext */
};

/* Emit state. */
struct wire_ectx {
	struct wire_error *err;
	const char *pld;
	char pld_buf[24];
	struct wire_emit_info *info;
};

/*
 * validate() checks every length and count in body[0..len) and may read
 * only what it has bounded; parse() runs after validate() succeeded and
 * may therefore read without checking. emit() writes the body only.
 */
struct wire_pld_ops {
	int (*validate)(struct wire_ctx *c, const uint8_t *b, size_t len);
	void (*parse)(struct wire_ctx *c, const uint8_t *b, size_t len,
		      struct wire_payload *out);
	int (*emit)(struct wire_ectx *c, const struct wire_payload *p,
		    struct wbuf *out);
};

extern const struct wire_pld_ops wire_sa_ops, wire_ke_ops, wire_id_ops,
	wire_cert_ops, wire_certreq_ops, wire_auth_ops, wire_nonce_ops,
	wire_notify_ops, wire_delete_ops, wire_vid_ops, wire_ts_ops,
	wire_sk_ops, wire_skf_ops, wire_cp_ops, wire_raw_ops;

const struct wire_pld_ops *wire_ops(uint8_t type);

/* Fill c->err: "<payload>: <text>". Always returns -EBADMSG. */
int wire_fail(struct wire_ctx *c, const char *field, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
int wire_efail(struct wire_ectx *c, const char *field, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
void wire_set_error(struct wire_error *err, const char *payload,
		    const char *field, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

/* SK and SKF share the body checks. */
int wire_sk_check_body(struct wire_ctx *c, size_t body_len);

static inline uint16_t wire_get16(const uint8_t *p)
{
	return (uint16_t)(p[0] << 8 | p[1]);
}

static inline uint32_t wire_get32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
	       (uint32_t)p[2] << 8 | p[3];
}

#endif
