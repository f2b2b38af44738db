/* SPDX-License-Identifier: GPL-2.0-or-later */
/* kernel-xfrm internals. */
#ifndef IKB_KERNEL_XFRM_H
#define IKB_KERNEL_XFRM_H

#include <stddef.h>
#include <linux/xfrm.h>
#include <ikebana/plugin.h>

struct mnl_socket;
struct nlmsghdr;

/*
 * Ownership: every SA and policy this backend installs carries a kernel
 * reqid in [XFRM_REQID_BASE, XFRM_REQID_BASE + 0xffff]. The engine's reqid
 * r (0..0xffff) becomes XFRM_REQID_BASE | r on the way in and r again in
 * events. "Ours" is decided by that range alone (SA reqid, or the reqid of
 * the policy's template), so a restart can remove its predecessor's
 * leftovers and leave manual (`ip xfrm`) and other daemons' entries alone.
 * 0x4942 is "IB" in ASCII: far above the small reqids people set by hand,
 * strongSwan's counters (from 1) and libreswan's range (from 16384).
 */
#define XFRM_REQID_BASE 0x49420000u
#define XFRM_REQID_MASK 0x0000ffffu

/*
 * A shunt (IKB_POLICY_PASS, _BLOCK) has no template to carry a reqid, so
 * it carries the tag in its policy index, which the kernel takes from
 * NEWPOLICY when it is free and which changes nothing about matching:
 * XFRM_SHUNT_INDEX_BASE | seq << 3 | dir (the kernel wants the direction in
 * the low 3 bits). The kernel's own indexes count up from 8 in steps of 8
 * and reach this band only after 2^28 policies inserted in one netns.
 */
#define XFRM_SHUNT_INDEX_BASE 0xf0000000u
#define XFRM_SHUNT_INDEX_MASK 0xf0000000u

/*
 * Per-CPU SAs (RFC 9611, Linux 6.13), from the uapi linux/xfrm.h of 6.13:
 * Debian 12's headers (6.1) stop at XFRMA_MTIMER_THRESH (32), before
 * XFRMA_SA_DIR (33) and XFRMA_NAT_KEEPALIVE_INTERVAL (34). Numbers, not
 * an enum, so that newer headers that have them win.
 */
#ifndef XFRMA_SA_PCPU
#define XFRMA_SA_PCPU 35
#endif
/* 6.10's SA direction (a u8), which 6.13 requires with XFRMA_SA_PCPU. */
#ifndef XFRM_SA_DIR_OUT
#define XFRMA_SA_DIR 33
#define XFRM_SA_DIR_OUT 2
#endif
#ifndef XFRM_POLICY_CPU_ACQUIRE
#define XFRM_POLICY_CPU_ACQUIRE 4
#endif
/*
 * Packet offload (nic-offload=packet, Linux 6.2): Debian 12's point-release
 * headers (linux-libc-dev 6.1.176) lack it, later 6.1 updates carry it.
 */
#ifndef XFRM_OFFLOAD_PACKET
#define XFRM_OFFLOAD_PACKET 4
#endif
/* The first release whose kernel takes XFRMA_SA_PCPU. */
#define XFRM_PCPU_MAJOR 6
#define XFRM_PCPU_MINOR 13

/* SPIs from ALLOCSPI: 1..255 are reserved (RFC 4303 §2.1). */
#define XFRM_SPI_MIN 0x00000100u
#define XFRM_SPI_MAX 0xffffffffu

/* The kernel's ceiling for XFRMA_REPLAY_ESN_VAL: 128 words of bitmap. */
#define XFRM_REPLAY_MAX 4096u

/* Selector-derived priorities: lower is tried first by the kernel. */
#define XFRM_PRIO_BASE 0x10000u

/* Room for one request: SA with keys, ESN bitmap and every attribute. */
#define XFRM_BUF 8192

/* The crypto user API's name size (CRYPTO_MAX_NAME), NUL included. */
#define XFRM_CRYPTO_NAME 64
/* pcrypt verdicts remembered per algorithm; more are asked each time. */
#define XFRM_PCRYPT_SEEN 8

struct xfrm_pcrypt_seen {
	char inner[XFRM_CRYPTO_NAME];
	int rc; /* 0: pcrypt(inner) exists */
	char why[160];
};

struct xfrm_state {
	const struct ikb_host *host;
	struct mnl_socket *nl; /* requests; opened on first use */
	unsigned seq;
	struct mnl_socket *ev; /* multicast events */
	struct ikb_watch *watch;
	ikb_kernel_event_cb cb;
	void *cb_ctx;
	bool owner; /* subscribed: flush ours at fini */
	bool pcrypt_warned; /* one warning per run */
	bool offload_noticed; /* one notice per run */
	unsigned npcrypt;
	struct xfrm_pcrypt_seen pcrypt[XFRM_PCRYPT_SEEN];
	/* The kernel look-ups, replaceable by tests; NULL: the real ones. */
	int (*pcrypt_probe)(const char *inner, struct ikb_error *err);
	int (*route_dev)(const struct ikb_sa *sa, char *dev, size_t len,
			 struct ikb_error *err);
};

/* How an SA message differs from the plain one built from struct ikb_sa. */
struct xfrm_sa_opts {
	bool no_offload; /* nic-offload=yes in software */
};

/* options.c */
int xfrm_parse_offload(const char *s, enum ikb_offload *out);
int xfrm_parse_yn(const char *s, bool *out);
int xfrm_check_conn(void *state, const struct ikb_section *conn,
		    struct ikb_diag *d);
int xfrm_tune(void *state, const struct ikb_section *conn, struct ikb_sa *sa,
	      struct ikb_error *err);
int xfrm_check_sa(void *state, const struct ikb_section *conn,
		  const struct ikb_sa *sa, struct ikb_diag *d);

/* nl.c: one request socket, request/ack with the kernel's extended ACK. */
int xfrm_nl_open(struct xfrm_state *st, struct ikb_error *err);
void xfrm_nl_close(struct xfrm_state *st);
struct nlmsghdr *xfrm_nl_start(void *buf, uint16_t type, uint16_t flags);
/* Send nlh, run cb on each reply until the ACK or NLMSG_DONE. */
int xfrm_nl_talk(struct xfrm_state *st, struct nlmsghdr *nlh,
		 int (*cb)(const struct nlmsghdr *nlh, void *data), void *data,
		 struct ikb_error *err);
/* A request with exactly one reply (ALLOCSPI, a GET): no ACK is asked,
 * the reply ends it (cb runs on it), a failure still comes as NLMSG_ERROR.
 * One read less than xfrm_nl_talk, on the path of every Child SA. */
int xfrm_nl_ask(struct xfrm_state *st, struct nlmsghdr *nlh,
		int (*cb)(const struct nlmsghdr *nlh, void *data), void *data,
		struct ikb_error *err);
/* The same on a socket of another bus, opened for this one request. */
int xfrm_nl_once(int bus, const char *what, struct nlmsghdr *nlh,
		 int (*cb)(const struct nlmsghdr *nlh, void *data), void *data,
		 struct ikb_error *err);
/* The text of an NLMSG_ERROR: "kernel: <ext ack> (<strerror>)". */
int xfrm_nl_error(const struct nlmsghdr *nlh, char *msg, size_t len);

/* addr.c */
int xfrm_addr_put(xfrm_address_t *out, const struct ikb_addr *a);
void xfrm_addr_get(struct ikb_addr *out, const xfrm_address_t *a,
		   uint16_t family);
const char *xfrm_addr_str(const struct ikb_addr *a, char *buf, size_t len);
void xfrm_sel_put(struct xfrm_selector *out, const struct ikb_selector *s);
void xfrm_sel_get(struct ikb_selector *out, const struct xfrm_selector *s);
void xfrm_mark_put(struct nlmsghdr *nlh, uint32_t mark, uint32_t mask);
/* A policy index of a shunt of ours (XFRM_SHUNT_INDEX_BASE). */
bool xfrm_shunt_index_ours(uint32_t index);
/* XFRMA_IF_ID, when if_id is not 0 (an XFRM interface's SA or policy). */
void xfrm_if_id_put(struct nlmsghdr *nlh, uint32_t if_id);

/* owner.c */
int xfrm_reqid_to_kernel(uint32_t reqid, uint32_t *out, struct ikb_error *err);
bool xfrm_reqid_ours(uint32_t kreqid);
uint32_t xfrm_reqid_from_kernel(uint32_t kreqid);
int xfrm_flush_own(struct xfrm_state *st, unsigned *nsa, unsigned *npol,
		   struct ikb_error *err);
int xfrm_dump(void *state, void (*sa_cb)(void *ctx, const struct ikb_sa *),
	      void (*pol_cb)(void *ctx, const struct ikb_policy *), void *ctx);
/*
 * A NEWSA of the kernel's, as dump() hands it on: 0 and sa filled in for
 * one of ours, else -1. Algorithm names only: the keys stay in the kernel.
 */
int xfrm_sa_parse(const struct nlmsghdr *nlh, struct ikb_sa *sa);

/* spi.c */
struct nlmsghdr *xfrm_build_allocspi(void *buf, const struct ikb_addr *src,
				     const struct ikb_addr *dst, uint8_t proto,
				     uint32_t kreqid, struct ikb_error *err);
int xfrm_spi_alloc(void *state, const struct ikb_addr *src,
		   const struct ikb_addr *dst, uint8_t proto, uint32_t reqid,
		   uint32_t *spi, struct ikb_error *err);

/* sa.c: NEWSA/UPDSA messages and the ops that send them. */
struct nlmsghdr *xfrm_build_sa(void *buf, uint16_t type,
			       const struct ikb_sa *sa,
			       const struct xfrm_sa_opts *o,
			       struct ikb_error *err);
int xfrm_sa_add(void *state, struct ikb_sa *sa, struct ikb_error *err);
int xfrm_sa_update(void *state, struct ikb_sa *sa, struct ikb_error *err);
/* batch.c: both SAs and the policies of a new Child SA in one sendmsg. */
int xfrm_child_add(void *state, struct ikb_sa *in, struct ikb_sa *out,
		   const struct ikb_policy *pol, unsigned npol, uint32_t *done,
		   struct ikb_error *err);

/* sadel.c: one request by SA id, retried with the SA's mark if it has one */
int xfrm_said_talk(struct xfrm_state *st, uint16_t type,
		   const struct ikb_addr *dst, uint32_t spi, uint8_t proto,
		   int (*cb)(const struct nlmsghdr *, void *), void *data,
		   struct ikb_error *err);
/* samove.c: an SA to new addresses or encapsulation ports */
int xfrm_sa_move(void *state, const struct ikb_addr *dst, uint32_t spi,
		 uint8_t proto, const struct ikb_sa_move *to,
		 struct ikb_error *err);
/* policy.c */
int xfrm_policy_update(void *state, const struct ikb_policy *pol,
		       struct ikb_error *err);

/* replay.c */
int xfrm_replay_put(struct nlmsghdr *nlh, struct xfrm_usersa_info *p,
		    const struct ikb_sa *sa, struct ikb_error *err);

/* alg.c */
int xfrm_algs_put(struct nlmsghdr *nlh, const struct ikb_sa *sa,
		  struct ikb_error *err);

/* pcrypt.c */
/* The AEAD name ESP asks the crypto API for: the AEAD, or authenc(i,e). */
int xfrm_pcrypt_inner(const struct ikb_sa *sa, char *out, size_t len,
		      struct ikb_error *err);
/* "pcrypt(<inner>)", the driver name that makes the kernel build it. */
int xfrm_pcrypt_name(char *out, size_t len, const char *inner,
		     struct ikb_error *err);
struct nlmsghdr *xfrm_build_newalg(void *buf, const char *inner,
				   struct ikb_error *err);
/* Ask the kernel for pcrypt(inner): 0 = it exists now. */
int xfrm_pcrypt_probe(const char *inner, struct ikb_error *err);
/*
 * The same against proc (/proc/crypto) and newalg (CRYPTO_MSG_NEWALG):
 * newalg at most once, and only when proc lists no pcrypt instance of
 * inner; then until it is listed with its self-test passed, 0.5 s at most.
 */
int xfrm_pcrypt_probe_at(const char *proc,
			 int (*newalg)(const char *inner, struct ikb_error *err),
			 const char *inner, struct ikb_error *err);
/* pcrypt_proc.c: what /proc/crypto (proc) says of pcrypt over inner */
enum xfrm_pcrypt_listing {
	XFRM_PCRYPT_UNREADABLE,
	XFRM_PCRYPT_NONE,
	XFRM_PCRYPT_TESTING, /* registered, self-test not passed yet */
	XFRM_PCRYPT_READY,
};
enum xfrm_pcrypt_listing xfrm_pcrypt_listed(const char *proc,
					    const char *inner);
/* Before install: set sa->pcrypt_fallback, warn once per run. */
void xfrm_pcrypt_apply(struct xfrm_state *st, struct ikb_sa *sa);

/* offload.c: nic-offload= at install. */
int xfrm_offload_put(struct nlmsghdr *nlh, const struct ikb_sa *sa,
		     const struct xfrm_sa_opts *o, struct ikb_error *err);
/* Before install: the device (the route to the peer's), or software. */
int xfrm_offload_prepare(struct xfrm_state *st, struct ikb_sa *sa,
			 struct xfrm_sa_opts *o, struct ikb_error *err);
bool xfrm_offload_wanted(const struct ikb_sa *sa, const struct xfrm_sa_opts *o);
/* nic-offload=yes in software: mark the SA, notice once per run. */
void xfrm_offload_soft(struct xfrm_state *st, struct ikb_sa *sa,
		       const char *why);
/* After install: did the kernel offload it? Refuses (and removes) if not. */
int xfrm_offload_check(struct xfrm_state *st, struct ikb_sa *sa,
		       struct ikb_error *err);

/* route.c: the device of the route to an SA's peer (RTM_GETROUTE). */
struct nlmsghdr *xfrm_build_getroute(void *buf, const struct ikb_addr *to,
				     const struct ikb_addr *from);
int xfrm_route_oif(const struct nlmsghdr *nlh, uint32_t *oif);
int xfrm_route_dev(const struct ikb_sa *sa, char *dev, size_t len,
		   struct ikb_error *err);

/* sadel.c: DELSA and GETSA (counters). */
struct nlmsghdr *xfrm_build_said(void *buf, uint16_t type,
				 const struct ikb_addr *dst, uint32_t spi,
				 uint8_t proto, uint32_t mark, uint32_t mask);
int xfrm_sa_del(void *state, const struct ikb_addr *dst, uint32_t spi,
		uint8_t proto, struct ikb_error *err);
int xfrm_sa_query(void *state, const struct ikb_addr *dst, uint32_t spi,
		  uint8_t proto, struct ikb_sa_counters *out,
		  struct ikb_error *err);
int xfrm_counters_parse(const struct nlmsghdr *nlh,
			struct ikb_sa_counters *out);

/* policy.c */
uint32_t xfrm_priority(const struct ikb_policy *pol);
struct nlmsghdr *xfrm_build_policy(void *buf, uint16_t type,
				   const struct ikb_policy *pol,
				   struct ikb_error *err);
int xfrm_policy_add(void *state, const struct ikb_policy *pol,
		    struct ikb_error *err);
int xfrm_policy_del(void *state, const struct ikb_policy *pol,
		    struct ikb_error *err);

/* pcpu.c: whether and for which CPU ids the kernel takes per-CPU SAs. */
/*
 * From uname's release and /sys/devices/system/cpu/possible ("0-3,8"):
 * *n CPU ids, or 0 and why. possible NULL: unreadable.
 */
int xfrm_pcpu_parse(const char *release, const char *possible, unsigned *n,
		    struct ikb_error *why);
int xfrm_pcpu_max(void *state, unsigned *n, struct ikb_error *why);
/* A per-CPU outbound SA: its CPU id, direction and replay state. */
bool xfrm_pcpu_out(const struct ikb_sa *sa);
int xfrm_pcpu_put(struct nlmsghdr *nlh, struct xfrm_usersa_info *p,
		  const struct ikb_sa *sa, struct ikb_error *err);

/* events.c */
int xfrm_events_subscribe(void *state, ikb_kernel_event_cb cb, void *ctx,
			  struct ikb_error *err);
void xfrm_events_unsubscribe(void *state, ikb_kernel_event_cb cb, void *ctx);
void xfrm_events_close(struct xfrm_state *st);
/* Decode one multicast message; 1 = ev filled, 0 = not ours or not known. */
int xfrm_event_decode(const struct nlmsghdr *nlh, struct ikb_kernel_event *ev);

extern const struct ikb_kernel_ops xfrm_kernel_ops;

#endif
