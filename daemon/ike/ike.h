/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The IKEv2 protocol engine (RFC 7296): IKE SA table, IKE_SA_INIT,
 * IKE_AUTH with a pre-shared key, the first Child SA and retransmission,
 * for both roles. The engine owns no socket: datagrams come in through
 * ike_engine_input() and go out through struct ike_io, so that the daemon
 * plugs in net/udp and tests wire two engines together in one process.
 *
 * Everything runs on the event loop passed to ike_engine_new(); nothing
 * here is thread-safe.
 */
#ifndef IKB_IKE_IKE_H
#define IKB_IKE_IKE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <time.h>
#include <ikebana/types.h>

/*
 * Room for a conn's name: a configured one has at most CFG_CONN_NAME_MAX
 * (63) characters, an opportunistic instance is GROUP#ADDRESS.
 */
#define IKE_CONN_NAME_LEN 128

struct event_base;
struct json_object;
struct loaded_conf;
struct ike_engine;

/* The two ends of one IKE datagram, from this host's point of view. */
struct ike_path {
	struct ikb_addr local, remote;
	uint16_t lport, rport; /* host byte order */
};

/*
 * A conn's host that is no address (conn_compile.c keeps it typed): a
 * DNS name for left=/right=, or %defaultroute, the address of the default
 * route's interface. The engine asks ike_io's resolve for it.
 */
/* IKE_HOST_GROUP: %opportunisticgroup, the traffic's destination */
enum ike_host_kind {
	IKE_HOST_ADDR,
	IKE_HOST_NAME,
	IKE_HOST_DEFROUTE,
	IKE_HOST_GROUP
};
struct ike_host_query {
	enum ike_host_kind kind;
	const char *name; /* IKE_HOST_NAME: fully qualified; copy it */
	int family; /* AF_INET, AF_INET6; AF_UNSPEC: either, IPv4 first */
};
struct ike_host_answer {
	int rc; /* 0, or -errno (-ECANCELED: the daemon stops) */
	struct ikb_addr addr; /* rc 0 */
	const char *why; /* rc != 0: "NXDOMAIN", "timeout: ...", ... */
};
typedef void ike_resolved_fn(void *arg, const struct ike_host_answer *a);

/* leftsourceip=: one route of this host's own traffic (sourceip.c) */
struct ike_srcroute {
	struct ikb_addr src; /* leftsourceip= */
	struct ikb_addr net; /* the peer's subnet, as negotiated */
	uint8_t plen;
	struct ikb_addr peer; /* the IKE SA's remote address */
	uint32_t ifindex; /* set by srcroute_add: the device towards peer */
};

struct ike_io {
	/* Send buf from p->local:lport to p->remote:rport. 0 or -errno. */
	int (*send)(void *ctx, const struct ike_path *p, const uint8_t *buf,
		    size_t len);
	/*
	 * Whether a is one of this host's addresses: it decides which side of
	 * a conn (left or right) we are, as libreswan's interface matching.
	 */
	bool (*is_local)(void *ctx, const struct ikb_addr *a);
	void *ctx;
	/*
	 * A NAT-keepalive (RFC 3948 §2.3) from p->local's NAT-T socket to
	 * p->remote:rport. NULL: none are sent. 0 or -errno.
	 */
	int (*keepalive)(void *ctx, const struct ike_path *p);
	/* The path MTU towards p->remote, or -errno. NULL: unknown. */
	int (*path_mtu)(void *ctx, const struct ike_path *p);
	/*
	 * The source address the routing table picks towards remote (MOBIKE
	 * follows it). NULL: unknown. 0 or -errno.
	 */
	int (*source_for)(void *ctx, const struct ikb_addr *remote,
			  struct ikb_addr *local);
	/*
	 * Resolve q without blocking the loop: done(arg, answer) runs later
	 * on the loop, exactly once, even when the daemon stops (then with
	 * -ECANCELED, perhaps after the engine is freed: arg copes). Never
	 * from inside resolve. 0, or -errno and done is never called.
	 * NULL: names and %defaultroute do not resolve.
	 */
	int (*resolve)(void *ctx, const struct ike_host_query *q,
		       ike_resolved_fn *done, void *arg);
	/*
	 * ipsec-interface=: make the XFRM interface name with if_id on the
	 * device of local (AF_UNSPEC: unknown) and bring it up. 0 with
	 * *created false when name was there already, ours to use and never
	 * to delete; -errno with err. NULL: no interfaces are made. create
	 * false (ipsec-interface-managed=no): only one already there.
	 */
	int (*xfrmi_add)(void *ctx, const char *name, uint32_t if_id,
			 const struct ikb_addr *local, bool create,
			 bool *created, struct ikb_error *err);
	/* Delete the interface name that xfrmi_add made: 0 or -errno. */
	int (*xfrmi_del)(void *ctx, const char *name, struct ikb_error *err);
	/*
	 * interface-ip=: add a/plen to the interface name; *added false when
	 * it had it (never ours to remove). 0 or -errno with err. NULL: none
	 * are added (an error line per address).
	 */
	int (*ifip_add)(void *ctx, const char *name, const struct ikb_addr *a,
			uint8_t plen, bool *added, struct ikb_error *err);
	/* Remove what ifip_add added: 0 or -errno with err. */
	int (*ifip_del)(void *ctx, const char *name, const struct ikb_addr *a,
			uint8_t plen, struct ikb_error *err);
	/*
	 * leftsourceip=: route r->net with source r->src towards r->peer,
	 * first adding r->src to the device towards it when add_addr (the
	 * host lacks it); sets r->ifindex. 0, or -errno with err and nothing
	 * left behind. NULL: none are added (an error line per Child SA).
	 */
	int (*srcroute_add)(void *ctx, struct ike_srcroute *r, bool add_addr,
			    struct ikb_error *err);
	/* Remove the route, and r->src too when del_addr: 0 or -errno. */
	int (*srcroute_del)(void *ctx, const struct ike_srcroute *r,
			    bool del_addr, struct ikb_error *err);
};

/*
 * lc must outlive the engine (or the next ike_engine_set_conf()); the
 * engine reads conns, secrets and plugin hooks from it. io is copied.
 * NSS must be initialised (crypto_init) before. NULL on allocation failure.
 */
struct ike_engine *ike_engine_new(struct event_base *base,
				  const struct loaded_conf *lc,
				  const struct ike_io *io);
/*
 * Reload. SAs keep running and find their conn by name at each step, so
 * a changed conn applies from the next exchange, and an SA whose conn
 * disappeared fails its next step with a log line (its installed Child
 * SAs stay until it is torn down).
 */
void ike_engine_set_conf(struct ike_engine *e, const struct loaded_conf *lc);
void ike_engine_input(struct ike_engine *e, const struct ike_path *p,
		      const uint8_t *buf, size_t len);
/*
 * The host's addresses or routes changed: MOBIKE IKE SAs we initiated
 * check their source address to the peer and move (RFC 4555 §3.5).
 */
void ike_engine_addresses_changed(struct ike_engine *e);
/* Initiate conn. 0, or -errno with err saying why. */
int ike_engine_up(struct ike_engine *e, const char *conn,
		  struct ikb_error *err);
/* The same for auto=start: a failure is tried again (keyingtries=). */
int ike_engine_up_auto(struct ike_engine *e, const char *conn,
		       struct ikb_error *err);
/*
 * Delete every IKE SA of conn with its Child SAs: an established one gets
 * a Delete INFORMATIONAL and goes, with its kernel SAs, once the peer
 * answers or the retransmit timeout passes; one still being set up goes
 * at once. 0 when conn had an IKE SA.
 */
int ike_engine_down(struct ike_engine *e, const char *conn,
		    struct ikb_error *err);
/*
 * The same for a conn whose definition changed (a conn edit): once its
 * SAs are gone, an auto=start conn is initiated again, as it now reads.
 */
int ike_engine_redo(struct ike_engine *e, const char *conn,
		    struct ikb_error *err);
/*
 * Whether an end of conn that is this host's failed to compile (its
 * certificate or key missing): then why in err, as an up would say it,
 * and not 0. A conn for %any, or not resolved yet, is no such failure.
 */
int ike_engine_conn_usable(struct ike_engine *e, const char *conn,
			   struct ikb_error *err);
/* ike_engine_up_auto() on every auto=start conn that has no IKE SA. */
void ike_engine_start_auto(struct ike_engine *e);
/*
 * Reload (reload.c), in two steps around the swap of the configuration.
 * Before it, while the running one is still in place: take down (as
 * ike_engine_down) every IKE SA whose conn next no longer has. After it:
 * ike_engine_set_conf(e, lc), then ike_engine_start_auto(): the new
 * auto=start conns come up, those already up are left alone.
 */
void ike_engine_reload_prune(struct ike_engine *e,
			     const struct loaded_conf *next);
void ike_engine_reload(struct ike_engine *e, const struct loaded_conf *lc);
/*
 * {"ike_sas": [{conn, role, state, spi_i, spi_r, local, remote,
 * local_id, remote_id, peer_auth, peer_cert: {subject, issuer} or null,
 * proposal, nat, age_s, rekey_in_s, expire_in_s, child_sas: [{state,
 * rekey_in_s, expire_in_s, reqid, mode, spi_in, spi_out, proposal,
 * ts_local, ts_remote}]}]}; caller puts it. The
 * *_in_s keys are absent when nothing is scheduled (rekey=no).
 */
struct json_object *ike_engine_status(const struct ike_engine *e);
/* libreswan's whack --status shape, for the tools that parse it */
void ike_engine_status_lsw(const struct ike_engine *e, FILE *f);
/*
 * conn's hosts that are names or %defaultroute: [{side, host, family,
 * addr, resolved_at, error, resolving, lookups}] (addr, resolved_at and
 * error null until known); an empty array for a conn of addresses only.
 */
struct json_object *ike_engine_hosts(const struct ike_engine *e,
				     const char *conn);
/* The same as the lines of `ikebana status`, one per host; none for
 * a conn of addresses only. */
void ike_engine_hosts_text(const struct ike_engine *e, const char *conn,
			   FILE *f);

/*
 * One Child SA with at least one of its SAs in the kernel, as
 * ike_engine_foreach_child() shows it: everything points into the engine
 * and is valid during the callback only. in and out are the installed
 * SAs (keys wiped; dst, spi and proto find them in the kernel), NULL for
 * a direction not installed (a rekey's outbound SA waiting for the old
 * one's Delete).
 */
struct ike_child_info {
	const char *conn;
	unsigned long ike_serial;
	const uint8_t *spi_i, *spi_r; /* the IKE SA's, 8 bytes each */
	const char *local_id, *remote_id;
	uint32_t reqid; /* shared by a Child SA's rekeyed generations */
	enum ikb_mode mode;
	/* "AES_GCM_16_128", "AES_CBC_128-HMAC_SHA2_256_128" */
	const char *alg;
	const char *kernel_alg; /* "rfc4106(gcm(aes))" */
	time_t created; /* wall clock */
	uint32_t spi_in, spi_out; /* host byte order, installed or not */
	const struct ikb_sa *in, *out;
	/*
	 * What an updown script is told (daemon/updown/): the negotiated
	 * selectors (local = src), the local end's leftupdown= (NULL:
	 * none, or the conn is gone) and the conn's policy in the words of
	 * libreswan's PLUTO_CONN_POLICY ("IKEv2+PSK+ENCRYPT+TUNNEL+...").
	 */
	struct ikb_selector ts;
	const char *updown;
	struct ikb_addr sourceip; /* the local leftsourceip=, family 0: none */
	char policy[96];
};

typedef void ike_child_fn(void *ctx, const struct ike_child_info *c);
/*
 * fn for each such Child SA of conn (NULL: of every conn), IKE SAs in
 * status order; fn NULL only counts. fn must not change the engine.
 * Returns how many.
 */
unsigned ike_engine_foreach_child(const struct ike_engine *e, const char *conn,
				  ike_child_fn *fn, void *ctx);

/*
 * The IKE SAs one at a time, in status order: prev NULL gives the first,
 * NULL follows the last. struct ike_sa stays opaque out here: read it
 * through ike_sa_get_info() and ike_sa_status(). Valid until the engine
 * runs again (a datagram, a timer, a call that changes it).
 */
struct ike_sa;
const struct ike_sa *ike_engine_next_sa(const struct ike_engine *e,
					const struct ike_sa *prev);
/* One IKE SA, read-only: everything points into the engine. */
struct ike_sa_info {
	const char *conn;
	unsigned long serial; /* as in the log's "#N" */
	bool initiator;
	bool established; /* IKE_AUTH is done (or it came by a rekey) */
	const char *state; /* as status shows it: "ESTABLISHED", "queued" */
	const uint8_t *spi_i, *spi_r; /* 8 bytes each */
	const struct ike_path *path;
	const char *local_id, *remote_id;
};
void ike_sa_get_info(const struct ike_sa *sa, struct ike_sa_info *info);
/* sa as one entry of ike_engine_status()'s ike_sas; caller puts it. */
struct json_object *ike_sa_status(const struct ike_sa *sa);
/*
 * status_text.c: sa and its Child SAs as `ikebana status` shows them,
 * from the same values as ike_sa_status(), without building them.
 */
void ike_sa_status_text(const struct ike_sa *sa, FILE *f);
/* "1d 2h 3m 4s", the durations of that text */
void status_duration(FILE *f, long long s);

/*
 * The event bus (events.c): what happens to SAs, for the daemon's key
 * log, `ikebana up` and what comes (updown). The kinds, and when:
 * - CHILD_UP: a Child SA is in the kernel (child), before the IKE_UP of
 *   the IKE SA it came with. Again, now with child->out, when a rekey's
 *   successor gets its outbound SA as the old one goes (the responder's:
 *   just before the old one's CHILD_DOWN).
 * - IKE_UP: an IKE SA is up: its IKE_AUTH is over (either role), child
 *   being its first Child SA (NULL: none came up); or a rekey made it,
 *   replaces being the old one's serial.
 * - FAILED: an IKE SA this host initiated (up, auto=start) did not come
 *   up with its first Child SA: rc (-errno) and why, as logged. ike_up:
 *   the IKE SA stands all the same (only its Child SA failed), and its
 *   IKE_UP follows. At most once per IKE SA, never after its IKE_UP.
 * - CHILD_DOWN: a Child SA that was up is about to leave the kernel.
 * - IKE_DOWN: an IKE SA that was up is gone, after the CHILD_DOWN of
 *   its Child SAs; why as logged.
 * ike is always set. Everything points into the engine and is valid
 * during the callback only.
 */
enum ike_event_kind {
	IKE_EVENT_IKE_UP,
	IKE_EVENT_IKE_DOWN,
	IKE_EVENT_CHILD_UP,
	IKE_EVENT_CHILD_DOWN,
	IKE_EVENT_FAILED,
};
struct ike_event {
	enum ike_event_kind kind;
	const struct ike_sa_info *ike;
	const struct ike_child_info *child;
	unsigned long replaces;
	int rc;
	const char *why;
	bool ike_up;
};
typedef void ike_event_fn(void *ctx, const struct ike_event *ev);
struct ike_listener;
/*
 * Listeners are called in the order they subscribed. A listener may call
 * the engine, subscribe (it hears the next event on) and unsubscribe any
 * listener, itself included, from inside a callback: one unsubscribed
 * hears nothing more, not even the rest of the current event. fn must
 * not free the engine. NULL on allocation failure.
 */
struct ike_listener *ike_engine_subscribe(struct ike_engine *e,
					  ike_event_fn *fn, void *ctx);
/* l NULL does nothing. ike_engine_free() drops the remaining ones. */
void ike_engine_unsubscribe(struct ike_engine *e, struct ike_listener *l);
/* "IKE_UP", ... for logs and tests */
const char *ike_event_name(enum ike_event_kind kind);
/*
 * Removes every Child SA from the kernel and frees all state, without
 * Deletes to the peers (ike_engine_down() first for that).
 */
void ike_engine_free(struct ike_engine *e);
/*
 * trap.c: the trap (auto=route|ondemand) or shunt (type=passthrough|drop)
 * of conn into the kernel, or out of it. Unroute refuses while a Child SA
 * of the conn uses the trap's policies (its traffic would leave in clear).
 */
int ike_engine_route(struct ike_engine *e, const char *conn,
		     struct ikb_error *err);
int ike_engine_unroute(struct ike_engine *e, const char *conn,
		       struct ikb_error *err);
/* The traps and shunts, for status: [{conn, kind, action, selectors}]. */
struct json_object *ike_engine_routes(const struct ike_engine *e);
/* The XFRM interfaces of ipsec-interface=: [{name, if_id, conns, ...}]. */
struct json_object *ike_engine_interfaces(const struct ike_engine *e);
/* Before stopping: a Delete to each established peer, not retransmitted. */
void ike_engine_farewell(struct ike_engine *e);

#endif
