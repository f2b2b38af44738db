// SPDX-License-Identifier: GPL-2.0-or-later
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "ike/child/child.h"
#include "ike/engine.h"
#include "ike/msg/msg.h"
#include "ike/status/status_fmt.h"

static const char hex_digits[] = "0123456789abcdef";

/*
 * The SPIs in hex without snprintf: with 10,000 SAs, status formatted
 * 40,000 of them, the IKE SPIs with eight conversions each.
 */
void fmt_spi64(char buf[17], const uint8_t s[8])
{
	for (int i = 0; i < 8; i++) {
		buf[2 * i] = hex_digits[s[i] >> 4];
		buf[2 * i + 1] = hex_digits[s[i] & 0xf];
	}
	buf[16] = '\0';
}

void fmt_spi32(char buf[9], uint32_t spi)
{
	for (int i = 0; i < 8; i++)
		buf[i] = hex_digits[spi >> (28 - 4 * i) & 0xf];
	buf[8] = '\0';
}

/* One selector: "10.1.0.0/24", then " proto 6 port 22" when it has one. */
static size_t fmt_net(char *buf, size_t len, const struct ikb_addr *a,
		      uint8_t plen)
{
	char addr[64];
	int n = snprintf(buf, len, "%s/%u", addr_str(a, addr, sizeof(addr)),
			 plen);

	return n < 0 ? 0 : (size_t)n < len ? (size_t)n : len - 1;
}

/* A side of several selectors (narrowed to a set): comma-separated. */
void fmt_ts(char buf[FMT_TS_LEN], const struct child_sa *c, bool local)
{
	const struct ikb_selector *ts = &c->ts;
	uint16_t port = local ? ts->sport : ts->dport;
	size_t at = 0;

	buf[0] = '\0';
	if (c->tsx) {
		const struct ts_net *v = local ? c->tsx->l : c->tsx->r;
		unsigned n = local ? c->tsx->nl : c->tsx->nr;

		for (unsigned i = 0; i < n && at + 1 < FMT_TS_LEN; i++) {
			if (i)
				buf[at++] = ',';
			at += fmt_net(buf + at, FMT_TS_LEN - at, &v[i].a,
				      v[i].plen);
		}
		buf[at] = '\0';
	} else {
		at = fmt_net(buf, FMT_TS_LEN, local ? &ts->src : &ts->dst,
			     local ? ts->src_plen : ts->dst_plen);
	}
	if (ts->proto)
		snprintf(buf + at, FMT_TS_LEN - at, " proto %u port %u",
			 ts->proto, port);
}

void fmt_mark(char buf[24], uint32_t mark, uint32_t mask)
{
	snprintf(buf, 24, "0x%" PRIx32 "/0x%" PRIx32, mark, mask);
}

const char *status_sa_state(const struct ike_sa *sa)
{
	return sa->opening == IKE_OPENING_QUEUED ? "queued" : ike_sa_phase(sa);
}

const char *status_child_state(const struct child_sa *c)
{
	/* nothing in the kernel; the Delete to the peer is pending */
	if (c->state != CHILD_FAILED && child_deleting(c))
		return "deleting";
	if (c->state == CHILD_INSTALLED || c->state == CHILD_INBOUND_ONLY)
		return child_rekeying(c) ? "rekeying" :
					   child_state_name(c->state);
	return child_state_name(c->state);
}

const char *status_pcrypt(const struct child_sa *c)
{
	if (c->sa_in.pcrypt_fallback || c->sa_out.pcrypt_fallback)
		return "fallback";
	return c->sa_in.pcrypt || c->sa_out.pcrypt ? "on" : "off";
}

/*
 * nic-offload as installed. Both directions ask for the same; if only
 * one fell back (a device may offload one direction only), that one
 * shows.
 */
const struct ikb_sa *status_offload_sa(const struct child_sa *c)
{
	return c->sa_in.offload_fallback ? &c->sa_in : &c->sa_out;
}

const char *status_offload(const struct ikb_sa *sa)
{
	if (sa->offload_fallback)
		return "software";
	switch (sa->offload) {
	case IKB_OFFLOAD_CRYPTO:
		return "crypto";
	case IKB_OFFLOAD_PACKET:
		return "packet";
	case IKB_OFFLOAD_YES: /* a backend that does not say what it did */
		return "yes";
	default:
		return "none";
	}
}

const char *status_offload_dev(const struct ikb_sa *sa)
{
	return sa->offload != IKB_OFFLOAD_NO && sa->offload_dev[0] ?
		       sa->offload_dev :
		       NULL;
}

const char *status_kernel_alg(const struct child_sa *c)
{
	const struct ikb_sa *sa = &c->sa_out;

	return sa->aead.name[0] ? sa->aead.name : sa->encr.name;
}
