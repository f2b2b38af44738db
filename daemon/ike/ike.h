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
#include <time.h>
#include <ikebana/types.h>

struct event_base;
struct json_object;
struct loaded_conf;
struct ike_engine;

/* The two ends of one IKE datagram, from this host's point of view. */
struct ike_path {
	struct ikb_addr local, remote;
	uint16_t lport, rport; /* host byte order */
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
/* Initiate conn. 0, or -errno with err saying why. */
int ike_engine_up(struct ike_engine *e, const char *conn,
		  struct ikb_error *err);
/* The same for auto=start: a failure is tried again (keyingtries=). */
int ike_engine_up_auto(struct ike_engine *e, const char *conn,
		       struct ikb_error *err);
/*
 * What became of an IKE SA this host initiated (ike_engine_up, auto=start):
 * reported once, when its IKE_AUTH exchange is over or when it is deleted
 * before that. A conn has at most one IKE SA being initiated, so the next
 * outcome for a conn after ike_engine_up() returned 0 is that one's.
 */
struct ike_outcome {
	const char *conn;
	unsigned long serial; /* the IKE SA's, as in the log's "#N" */
	int rc; /* 0: the IKE SA and its first Child SA are up */
	bool ike_up; /* the IKE SA stands (when rc: only the Child SA failed) */
	const char *why; /* when rc: the reason, as logged */
	uint32_t spi_in, spi_out; /* the Child SA's, when rc is 0 */
};
typedef void ike_outcome_fn(void *ctx, const struct ike_outcome *o);
/* One observer; fn NULL removes it. fn must not free the engine. */
void ike_engine_on_outcome(struct ike_engine *e, ike_outcome_fn *fn, void *ctx);
/*
 * Delete every IKE SA of conn with its Child SAs: an established one gets
 * a Delete INFORMATIONAL and goes, with its kernel SAs, once the peer
 * answers or the retransmit timeout passes; one still being set up goes
 * at once. 0 when conn had an IKE SA.
 */
int ike_engine_down(struct ike_engine *e, const char *conn,
		    struct ikb_error *err);
/* ike_engine_up() on every conn with auto=start. */
void ike_engine_start_auto(struct ike_engine *e);
/*
 * {"ike_sas": [{conn, role, state, spi_i, spi_r, local, remote,
 * local_id, remote_id, proposal, nat, age_s, rekey_in_s, expire_in_s,
 * child_sas: [{state, rekey_in_s, expire_in_s, reqid, mode, spi_in,
 * spi_out, proposal, ts_local, ts_remote}]}]}; caller puts it. The
 * *_in_s keys are absent when nothing is scheduled (rekey=no).
 */
struct json_object *ike_engine_status(const struct ike_engine *e);

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
	const struct ikb_sa *in, *out;
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
 * Removes every Child SA from the kernel and frees all state, without
 * Deletes to the peers (ike_engine_down() first for that).
 */
void ike_engine_free(struct ike_engine *e);
/* Before stopping: a Delete to each established peer, not retransmitted. */
void ike_engine_farewell(struct ike_engine *e);

#endif
