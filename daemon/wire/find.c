// SPDX-License-Identifier: GPL-2.0-or-later
/* Lookups for the exchange handlers, and a debug dump of a message. */
#include <stdio.h>

#include "log/log.h"
#include "wire/internal.h"

const struct wire_payload *wire_next(const struct wire_msg *msg,
				     const struct wire_payload *prev,
				     uint8_t type)
{
	unsigned i = prev ? (unsigned)(prev - msg->pl) + 1 : 0;

	for (; i < msg->n; i++)
		if (msg->pl[i].type == type && msg->pl[i].known)
			return &msg->pl[i];
	return NULL;
}

const struct wire_payload *wire_find(const struct wire_msg *msg, uint8_t type)
{
	return wire_next(msg, NULL, type);
}

const struct wire_payload *wire_next_notify(const struct wire_msg *msg,
					    const struct wire_payload *prev)
{
	return wire_next(msg, prev, WIRE_PT_NOTIFY);
}

const struct wire_payload *wire_first_error(const struct wire_msg *msg)
{
	const struct wire_payload *p = NULL;

	while ((p = wire_next_notify(msg, p)))
		if (wire_notify_is_error(p->u.notify.type))
			return p;
	return NULL;
}

const struct wire_notify *wire_find_notify(const struct wire_msg *msg,
					   uint16_t type)
{
	const struct wire_payload *p = NULL;

	while ((p = wire_next_notify(msg, p)))
		if (p->u.notify.type == type)
			return &p->u.notify;
	return NULL;
}

static const char *or_num(const char *name, char *buf, size_t size, unsigned v)
{
	if (name)
		return name;
	snprintf(buf, size, "%u", v);
	return buf;
}

static void log_payload(const struct wire_payload *p)
{
	char b1[16], b2[16];
	const char *pn =
		or_num(wire_payload_name(p->type), b1, sizeof(b1), p->type);

	switch (p->type) {
	case WIRE_PT_NOTIFY:
		log_debug("  %s%s %s", p->inner ? "(SK) " : "", pn,
			  or_num(wire_notify_name(p->u.notify.type), b2,
				 sizeof(b2), p->u.notify.type));
		break;
	case WIRE_PT_SA:
		log_debug("  %s%s %u proposals", p->inner ? "(SK) " : "", pn,
			  p->u.sa.n_prop);
		break;
	case WIRE_PT_KE:
		log_debug("  %s%s group %u", p->inner ? "(SK) " : "", pn,
			  p->u.ke.group);
		break;
	default:
		log_debug("  %s%s%s", p->inner ? "(SK) " : "", pn,
			  p->known ? "" : " (unknown, skipped)");
		break;
	}
}

void wire_log(const struct wire_msg *msg, const char *what)
{
	char b[16];
	unsigned i;

	if (!log_enabled(IKB_LOG_DEBUG))
		return;
	log_debug("%s %s msgid %u %s, %u payloads", what,
		  or_num(wire_exchange_name(msg->hdr.exchange), b, sizeof(b),
			 msg->hdr.exchange),
		  msg->hdr.msgid,
		  msg->hdr.flags & WIRE_FLAG_R ? "response" : "request",
		  msg->n);
	for (i = 0; i < msg->n; i++)
		log_payload(&msg->pl[i]);
}
