/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The engine itself: its tables, the plugins and conns it runs with, and
 * what it tells the outside. Each folder of daemon/ike/ has one header
 * the others include (exchange/exchange.h, msg/msg.h, auth/auth.h,
 * child/child.h, conn/conn.h, path/path.h, route/route.h,
 * status/status.h); here, ike_sa.h, events.h and timers.h. Not for use
 * outside daemon/ike/.
 */
#ifndef IKB_IKE_ENGINE_H
#define IKB_IKE_ENGINE_H

#include <stdbool.h>
#include <stdint.h>
#include <ikebana/plugin.h>

#include "ike/ike.h"
#include "ike/ike_sa.h"
#include "ike/status/ike_stats.h"
#include "wire/wire.h"

#define IKE_SA_BUCKETS 1024
#define IKE_NONCE_LEN 32

struct event;

struct ike_engine {
	struct event_base *base;
	const struct loaded_conf *lc;
	struct ike_io io;
	struct ike_sa *by_local[IKE_SA_BUCKETS]; /* our SPI */
	struct ike_sa *by_init[IKE_SA_BUCKETS]; /* responder: peer's SPIi */
	struct ike_sa *by_conn[IKE_SA_BUCKETS]; /* conn name */
	/* the peer's ID, once IKE_AUTH gave it (ike_sa_set_remote_id) */
	struct ike_sa *by_peer[IKE_SA_BUCKETS];
	struct ike_sa *all; /* every SA, for status and teardown */
	unsigned halfopen; /* responder SAs before IKE_AUTH completes */
	struct halfopen *ho; /* halfopen.c: their list, timer, sources */
	unsigned halfopen_ms; /* how long they wait for IKE_AUTH */
	/* conn_inst.c, 0: the defaults (tests set them) */
	unsigned inst_idle_ms, inst_max;
	/* opening.c: our initiations in flight, and those queued */
	unsigned opening;
	bool opening_busy;
	struct {
		struct ike_sa *head, *tail;
	} open_queue;
	unsigned long serial;
	uint32_t next_reqid;
	unsigned ddos_threshold, max_halfopen;
	struct retry *retries; /* retry.c: auto=start attempts to come */
	/* config setup ikeport=, where the sockets listen: read at start */
	uint16_t ike_port;
	/* COOKIE secrets (§2.6): the current and the previous version. */
	uint8_t cookie_secret[2][32];
	uint8_t cookie_version;
	struct event *cookie_timer;
	/* the kernel plugin instance whose events we subscribed to */
	void *events_state;
	const struct ikb_kernel_ops *events_ops;
	struct ike_bus *bus; /* events.c: the listeners, NULL: none yet */
	/* conn_compile.c: the conns of lc, compiled */
	struct conn_set *conns;
	/* host.c: what the conns' names and %defaultroute resolved to */
	struct host_rec *hosts;
	/* trap.c: the traps and shunts in the kernel */
	struct trap_set *traps;
	/* ipsec_if.c: the XFRM interfaces of ipsec-interface= */
	struct ipsec_if *ifs;
	/* sourceip.c: the routes of leftsourceip= in the kernel */
	struct srcroutes *srcroutes;
	/* failure.c: why negotiations failed, per conn name; NULL: none */
	struct fail_table *fails;
	/* ike_stats.h: what the metrics count, one line where it happens */
	struct ike_stats stats;
};

/* engine.c: the plugins and conns it runs with */
const struct ikb_proposals_ops *engine_proposals(const struct ike_engine *e,
						 void **state);
const struct ikb_kernel_ops *engine_kernel(const struct ike_engine *e,
					   void **state);
struct plugin_set *engine_plugins(const struct ike_engine *e);

/* engine.c: attempt 0 is `ikebana up`; 1 on are auto=start's */
int engine_up(struct ike_engine *e, const char *name, unsigned attempt,
	      struct ikb_error *err);
/*
 * engine.c: sa, made by engine_up, takes its path from its conn's view
 * and starts IKE_SA_INIT (paced); resolve.c calls it once the conn's
 * names resolved. -errno with err: the caller deletes sa.
 */
int engine_open(struct ike_sa *sa, struct ikb_error *err);

/* engine.c */
bool ike_addr_equal(const struct ikb_addr *a, const struct ikb_addr *b);
bool ike_sel_equal(const struct ikb_selector *a, const struct ikb_selector *b);
bool ike_path_equal(const struct ike_path *a, const struct ike_path *b);

/*
 * engine.c: what became of an IKE SA we initiated, told on the bus: its
 * IKE_UP (c: the first Child SA, when it is up) or FAILED (rc, why), once
 * per SA; later calls do nothing.
 */
void engine_outcome(struct ike_sa *sa, int rc, const char *why,
		    const struct child_sa *c);

/*
 * kernel_events.c: the kernel plugin's events: subscribe to the current
 * instance (letting go of an earlier one), or let go at teardown.
 */
void rekey_events_subscribe(struct ike_engine *e);
void rekey_events_unsubscribe(struct ike_engine *e);

/* opening.c: pacing of the IKE SAs we initiate (see there). Starts sa's
 * IKE_SA_INIT now (its result) or queues it (0). */
int opening_start(struct ike_sa *sa, struct ikb_error *err);
/* sa's first Child SA is up, it failed, it retransmits or it goes;
 * resume: start queued ones in its place. */
void opening_done(struct ike_sa *sa, bool resume);
void opening_resume(struct ike_engine *e);

#endif
