/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Plain data shared by the daemon and its plugins: addresses, selectors,
 * the parameters of one kernel SA and one kernel policy. No behaviour here
 * beyond the inline ikb_error_set(), so that a plugin and the daemon agree on
 * layout through the ABI number alone.
 */
#ifndef IKEBANA_TYPES_H
#define IKEBANA_TYPES_H

#include <stdarg.h>
#include <stddef.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/socket.h>

/*
 * Every ops table and the host interface start with their own size
 * (ABI 5): uint32_t size, set with IKB_OPS_SIZE(type). A table built
 * against older headers is shorter, one built against newer headers is
 * longer; the loader copies the prefix both know into a zeroed table, so
 * an op appended later is NULL where the other side lacks it. Only
 * optional ops are appended; IKB_OPS_END names where a member ends, to
 * test for one (IKB_HOST_HAS) or to give a table's minimum size.
 */
#define IKB_OPS_SIZE(type) .size = (uint32_t)sizeof(type)
#define IKB_OPS_END(type, member) \
	(offsetof(type, member) + sizeof(((type *)0)->member))

/* An IPv4 or IPv6 address in network byte order. family AF_UNSPEC is "any". */
struct ikb_addr {
	sa_family_t family;
	uint8_t bytes[16];
};

/* A traffic selector as the kernel sees it: prefixes, protocol and ports. */
struct ikb_selector {
	struct ikb_addr src, dst;
	uint8_t src_plen, dst_plen;
	uint8_t proto;	      /* IPPROTO_*, 0 = any */
	uint16_t sport, dport; /* host byte order, 0 = any */
};

enum ikb_mode { IKB_MODE_TRANSPORT, IKB_MODE_TUNNEL };
enum ikb_dir { IKB_DIR_IN, IKB_DIR_OUT, IKB_DIR_FWD };
enum ikb_offload {
	IKB_OFFLOAD_NO,
	IKB_OFFLOAD_YES, /* try crypto offload, fall back to software */
	IKB_OFFLOAD_CRYPTO,
	IKB_OFFLOAD_PACKET,
};

#define IKB_ALG_NAME_MAX 64
#define IKB_KEY_MAX 128 /* bytes: covers AES-256 + salt and HMAC-SHA2-512 */

/* One kernel algorithm: name as the kernel's crypto API spells it. */
struct ikb_alg {
	char name[IKB_ALG_NAME_MAX]; /* "" = not used */
	uint16_t key_bits;	     /* for AEAD and CTR, includes the salt */
	uint16_t icv_bits;	     /* AEAD ICV, or integrity truncation */
	uint8_t key[IKB_KEY_MAX];
};

/* 0 means "no limit" for every field. */
struct ikb_lifetime {
	uint64_t soft_bytes, hard_bytes;
	uint64_t soft_packets, hard_packets;
	uint64_t soft_add_secs, hard_add_secs;
};

/* Everything needed to install one ESP SA in one direction. */
struct ikb_sa {
	struct ikb_addr src, dst;
	uint32_t spi; /* host byte order */
	uint8_t proto; /* IPPROTO_ESP */
	enum ikb_mode mode;
	enum ikb_dir dir; /* IKB_DIR_IN or IKB_DIR_OUT */
	uint32_t reqid;
	struct ikb_selector sel;
	struct ikb_alg aead, encr, integ; /* aead, or encr (+ integ) */
	uint32_t replay_window;		  /* packets; 0 disables */
	bool esn;
	struct ikb_lifetime life;
	uint16_t encap_sport, encap_dport; /* UDP encapsulation if non-zero */
	int32_t cpu;			   /* RFC 9611 CPU id, -1 = none */
	bool pcrypt;			   /* run the crypto through pcrypt */
	enum ikb_offload offload;
	char offload_dev[16]; /* "" = the device of the route to the peer */
	uint32_t mark, mark_mask;
	/*
	 * Written back by the kernel backend's sa_add and sa_update, so that
	 * the caller keeps what was really installed where a request may
	 * fall back: pcrypt_fallback when pcrypt was asked for and the kernel
	 * cannot run it; offload_fallback when nic-offload=yes ended in
	 * software. The backend also names the device it chose in offload_dev,
	 * and turns IKB_OFFLOAD_YES into IKB_OFFLOAD_CRYPTO when the device
	 * took the SA.
	 */
	bool pcrypt_fallback, offload_fallback;
	/* ABI 6: the XFRM interface's if_id (XFRMA_IF_ID); 0 = none */
	uint32_t if_id;
};

/* Where sa_move takes an SA: new endpoints and encapsulation ports. */
struct ikb_sa_move {
	struct ikb_addr src, dst;
	uint16_t encap_sport, encap_dport; /* 0, 0: no UDP encapsulation */
	struct ikb_selector sel; /* src.family AF_UNSPEC: the SA's own */
};

/*
 * What a policy does with what it selects (ABI 6). IPSEC: through its
 * template's SA, which the kernel acquires when there is none (a trap);
 * PASS: in clear, no template; BLOCK: dropped.
 */
enum ikb_policy_action {
	IKB_POLICY_IPSEC,
	IKB_POLICY_PASS,
	IKB_POLICY_BLOCK,
};

/* One kernel policy (SPD entry) with a single ESP template. */
struct ikb_policy {
	struct ikb_selector sel;
	enum ikb_dir dir;
	uint32_t priority;
	enum ikb_mode mode;
	struct ikb_addr tmpl_src, tmpl_dst; /* SA endpoints (tunnel mode) */
	uint8_t proto;			    /* IPPROTO_ESP */
	uint32_t reqid;
	bool cpu_acquire; /* XFRM_POLICY_CPU_ACQUIRE (RFC 9611) */
	uint32_t mark, mark_mask;
	/* ABI 6: the template is only for IKB_POLICY_IPSEC */
	enum ikb_policy_action action;
	uint32_t if_id; /* XFRMA_IF_ID; 0 = none */
};

/*
 * What sa_query reports. Times are wall-clock seconds since the epoch,
 * 0 = never. add_time: when the SA was installed. use_time: when it last
 * carried a packet, so that now - use_time is how long it has been idle
 * (Linux: XFRMA_LASTUSED, stamped per packet since 6.2). A kernel that
 * records only the first packet (Linux before 6.2: curlft.use_time) gives
 * that one instead, and the idle time is then an upper bound.
 */
struct ikb_sa_counters {
	uint64_t bytes, packets;
	uint64_t add_time, use_time;
	uint32_t replay_fail, integrity_fail;
};

/* A plugin's error for the daemon to log or send to the user. */
struct ikb_error {
	char msg[256];
};

/*
 * Fill err (if not NULL) with a printf-style message and return -errnum, so
 * that a plugin fails with "return ikb_error_set(err, EINVAL, ...);".
 */
__attribute__((format(printf, 3, 4))) static inline int
ikb_error_set(struct ikb_error *err, int errnum, const char *fmt, ...)
{
	va_list ap;

	if (err) {
		va_start(ap, fmt);
		vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
		va_end(ap);
	}
	return -errnum;
}

#endif
