/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Two engines in one process, west (192.0.2.1) and east (192.0.2.2), each
 * with its own configuration and kernel-mem, joined by a datagram queue
 * that the event loop delivers. A filter may drop or duplicate what goes
 * through, and every datagram is recorded, so tests can replay or mangle
 * real messages.
 */
#ifndef IKB_TEST_IKE_HARNESS_H
#define IKB_TEST_IKE_HARNESS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <ikebana/plugin.h>

#include "ike/ike.h"
#include "plugin/conf_load.h"

enum { WEST, EAST };

#define NET_MAX_RECORD 64

struct hdgram {
	int from;
	struct ikb_addr to; /* the address the engine sent it to */
	uint16_t sport, dport;
	uint8_t *buf;
	size_t len;
};

struct net;
/*
 * Is this datagram an IKE message of that exchange type, and a response
 * (R flag) or a request? Filters match on this, never on a datagram's
 * sequence number: under load a short retransmit interval adds datagrams.
 */
bool dgram_is(const uint8_t *buf, size_t len, uint8_t exchange, bool response);
/* How many copies of a datagram to deliver: 0 drops it. */
typedef unsigned (*net_filter_fn)(struct net *n, int from, unsigned seq,
				  const uint8_t *buf, size_t len);

struct hpeer {
	struct net *net;
	int idx;
	struct ikb_addr addr;
	char dir[64];
	struct loaded_conf lc;
	struct ike_engine *e;
	unsigned sent;
	unsigned keepalives; /* NAT-keepalives it sent */
	struct ikb_addr last_dst; /* where its last datagram went */
};

struct net {
	struct event_base *base;
	struct hpeer p[2];
	struct hqueue *q;
	struct event *deliver;
	net_filter_fn filter;
	void *filter_ctx;
	/*
	 * From its float_after-th datagram on, float_from sends from and to
	 * float_port, as strongSwan with MOBIKE moves to 4500 for IKE_AUTH.
	 */
	uint16_t float_port;
	int float_from;
	unsigned float_after;
	/*
	 * harness_nat: a NAT in front of west. East sees west's datagrams
	 * come from nat_addr with each port + nat_off; what east sends to a
	 * port that is no such mapping (500 or 4500 + nat_off) is lost.
	 */
	bool nat;
	struct ikb_addr nat_addr;
	uint16_t nat_off;
	unsigned nat_lost;
	int path_mtu; /* what ike_io's path_mtu says; 0: it does not know */
	unsigned nrec;
	struct hdgram rec[NET_MAX_RECORD];
};

/* NSS and logging, once per test program. */
void harness_global_init(void);

/* config setup lines of west for the next net_new(); NULL: none */
extern const char *harness_west_setup;
/* the next net_new() puts a NAT in front of west, and east's conn has
 * left=%any */
extern bool harness_nat;
/* east's left= (west's address) for every net_new(); NULL: 192.0.2.1,
 * %any behind the NAT */
extern const char *harness_east_left;
/* both peers' plugins= for the next net_new(); NULL: the usual four */
extern const char *harness_plugins;
/* west's left= and right= for every net_new(); NULL: the addresses */
extern const char *harness_west_left, *harness_west_right;
/* west's ID (leftid= at both ends, the PSK line) for every net_new();
 * NULL: @west */
extern const char *harness_west_id;

/*
 * The fake resolver of both peers (hdns.c): a name answers its address,
 * its failure (rc, why: "NXDOMAIN", "timeout") or, unknown, NXDOMAIN;
 * "%defaultroute" stands for %defaultroute. A hanging name's lookups wait
 * for hdns_release(). net_free() resets it, cancelling what waits.
 */
void hdns_set(const char *name, const char *addr);
void hdns_fail(const char *name, int rc, const char *why);
void hdns_hang(const char *name, bool hang);
void hdns_release(void);
unsigned hdns_lookups(const char *name);
void hdns_reset(void);
int hdns_resolve(void *ctx, const struct ike_host_query *q,
		 ike_resolved_fn *done, void *arg);

/*
 * The fake XFRM interfaces of both peers (hxfrmi.c): what ike_io's
 * xfrmi_add made and xfrmi_del deleted, counted over both, until
 * hxfrmi_reset(); they outlive net_free(), which deletes what the engines
 * made. hxfrmi_foreign puts a device there that is not ours, before
 * net_new().
 */
extern unsigned hxfrmi_adds, hxfrmi_dels;
void hxfrmi_reset(void);
bool hxfrmi_has(int who, const char *name, uint32_t *if_id);
void hxfrmi_foreign(int who, const char *name, uint32_t if_id);
int hxfrmi_add(void *ctx, const char *name, uint32_t if_id,
	       const struct ikb_addr *local, bool create, bool *created,
	       struct ikb_error *err);
int hxfrmi_del(void *ctx, const char *name, struct ikb_error *err);
/*
 * interface-ip=: the addresses on the fake devices ("ADDR/PLEN"), the
 * calls counted; hxfrmi_ip_foreign puts one there that is not ours.
 */
extern unsigned hxfrmi_ip_adds, hxfrmi_ip_dels;
bool hxfrmi_has_ip(int who, const char *name, const char *cidr);
void hxfrmi_ip_foreign(int who, const char *name, const char *cidr);
int hxfrmi_ip_add(void *ctx, const char *name, const struct ikb_addr *a,
		  uint8_t plen, bool *added, struct ikb_error *err);
int hxfrmi_ip_del(void *ctx, const char *name, const struct ikb_addr *a,
		  uint8_t plen, struct ikb_error *err);

/*
 * The fake source routes of leftsourceip= (hsrcroute.c), over both peers
 * until hsrc_reset(): those there now, and the calls counted.
 */
#define HSRC_MAX 8
struct hsrc_route {
	bool used;
	int who;
	struct ike_srcroute r;
	bool addr_added;
};
extern unsigned hsrc_adds, hsrc_dels, hsrc_addr_adds, hsrc_addr_dels;
void hsrc_reset(void);
const struct hsrc_route *hsrc_routes(void); /* HSRC_MAX of them */
unsigned hsrc_count(int who);
int hsrc_add(void *ctx, struct ike_srcroute *r, bool add_addr,
	     struct ikb_error *err);
int hsrc_del(void *ctx, const struct ike_srcroute *r, bool del_addr,
	     struct ikb_error *err);

/*
 * Both peers from a conn body (after left/right/ids/authby) and extra
 * config setup lines; east_conn NULL means the same as west's. PSKs:
 * NULL means "secret".
 */
struct net *net_new(const char *west_conn, const char *east_conn,
		    const char *east_setup, const char *west_psk,
		    const char *east_psk);
void net_free(struct net *n);
/* A cmocka teardown: frees what a failed test left behind, shows the log. */
int net_cleanup(void **state);
/* Deliver a datagram to peer `to` as if `from` had sent it. */
void net_inject(struct net *n, int to, const uint8_t *buf, size_t len);
/* Run the loop until cond(n) or ms pass; returns cond's last value. */
bool net_run(struct net *n, bool (*cond)(struct net *), unsigned ms);

/*
 * hforge.c: who's IKE SA with a request out (and its keys), and the other
 * engine's SA of the same SPIs; forge_response() answers that request
 * with m's payloads (its header is filled in), sealed with the peer's
 * keys in one SK payload or nfrag SKF fragments (0 or 1: whole).
 */
struct ike_sa *net_sa_waiting(struct net *n, int who);
struct ike_sa *net_peer_sa(struct net *n, const struct ike_sa *sa);
struct wire_msg;
void forge_response(struct net *n, int who, const struct wire_msg *m,
		    unsigned nfrag);

/* Status helpers */
unsigned ike_sa_count(struct net *n, int who, const char *state);
unsigned child_count(struct net *n, int who);
bool both_up(struct net *n);
/* status.ike_sas[0].KEY (or child_sas[0].KEY with child) as text. */
const char *status_str(struct net *n, int who, bool child, const char *key,
		       char *buf, size_t len);

/* kernel-mem contents */
#define KDUMP_MAX 64
struct kdump {
	unsigned nsa, npol;
	struct ikb_sa sa[KDUMP_MAX];
	struct ikb_policy pol[KDUMP_MAX];
};
void kernel_dump(struct net *n, int who, struct kdump *d);
const struct ikb_sa *kdump_sa(const struct kdump *d, enum ikb_dir dir);
const struct ikb_sa *kdump_spi(const struct kdump *d, uint32_t spi);
unsigned kdump_count(const struct kdump *d, enum ikb_dir dir);
/* kernel-mem's EXPIRE for who's SA spi, as the kernel would send it. */
void kernel_expire(struct net *n, int who, const struct ikb_sa *sa, bool hard);
/* kernel-mem's ACQUIRE for reqid from CPU cpu (RFC 9611, -1: none). */
void kernel_acquire(struct net *n, int who, uint32_t reqid, int32_t cpu);
/* The same for the packet's selectors (sel NULL: none). */
void kernel_acquire_sel(struct net *n, int who, uint32_t reqid, int32_t cpu,
			const struct ikb_selector *sel);
/* The kernel's MAPPING: in's ESP in UDP came from addr:port. */
void kernel_mapping(struct net *n, int who, const struct ikb_sa *in,
		    const char *addr, uint16_t port);
/* who's kernel-mem refuses op after `after` calls (IKB_KERNEL_MEM_REFUSE). */
void kernel_refuse(struct net *n, int who, const char *op, unsigned after,
		   int errnum, const char *msg);
/* Larval SAs (an SPI allocated, never filled) in who's kernel-mem. */
unsigned kernel_larval(struct net *n, int who);
/* SAs, larval ones included, and policies in who's kernel-mem. */
unsigned kernel_objects(struct net *n, int who);

/* Captured stderr (the log) since the last log_reset(). */
void log_reset(void);
bool log_has(const char *needle);
/* How often needle is in it (of its first MiB, as log_has). */
unsigned log_count(const char *needle);
void log_flush(void);

#endif
