/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * `ikebana trafficstatus`: what each installed Child SA carried, from the
 * kernel backend's counters of its inbound and outbound SA.
 */
#ifndef IKB_DAEMON_CONTROL_TRAFFICSTATUS_H
#define IKB_DAEMON_CONTROL_TRAFFICSTATUS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

struct ike_engine;
struct ikb_error;
struct ikb_kernel_ops;
struct ikb_sa;
struct ikb_sa_counters;
struct json_object;

/*
 * What the kernel backend counted on sa, the query trafficstatus and the
 * metrics share: 0, or -errno with err (no backend, no sa_query, the
 * kernel's refusal) and *c zeroed.
 */
int traffic_query(const struct ikb_kernel_ops *k, void *kstate,
		  const struct ikb_sa *sa, struct ikb_sa_counters *c,
		  struct ikb_error *err);

/*
 * *s: seconds from the later use of in and out to now (0 if the clock
 * went back); false when neither was used.
 */
bool traffic_idle(time_t now, const struct ikb_sa_counters *in,
		  const struct ikb_sa_counters *out, int64_t *s);

/*
 * One line per Child SA of conn (NULL: of every conn), what `ikebana
 * trafficstatus` prints: malloc'd, *len bytes; NULL when out of memory.
 * The same values as traffic_json()'s.
 */
char *traffic_text(const struct ike_engine *e, const struct ikb_kernel_ops *k,
		   void *kstate, const char *conn, time_t now, size_t *len);

/*
 * {"child_sas": [{conn, ike_serial, reqid, remote_id, proto, mode, alg,
 * kernel_alg, spi_in, spi_out, add_time, in, out, idle_s}]} for the Child
 * SAs of conn (NULL: of every conn). in and out are {bytes, packets,
 * use_time, replay_fail, integrity_fail}, or {error} with the kernel's
 * message when its query failed, or null when that direction is not
 * installed. idle_s is now minus the latest use_time of the two, null if
 * neither SA has carried a packet. k NULL: no kernel backend (each
 * direction gets an error).
 */
struct json_object *traffic_json(const struct ike_engine *e,
				 const struct ikb_kernel_ops *k, void *kstate,
				 const char *conn, time_t now);

#endif
