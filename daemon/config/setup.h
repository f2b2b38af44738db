/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * config setup, typed: parsed once when the file is read (cfg->set), by
 * the same table that checks each value at load (cfg_setup_check). The
 * daemon and the engine read these fields; none reads a setup string.
 */
#ifndef IKB_CONFIG_SETUP_H
#define IKB_CONFIG_SETUP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct ikb_value;
struct ikb_section;
struct json_object;

/* ddos-mode=: when half-open IKE SAs are asked for a COOKIE */
enum cfg_ddos_mode {
	CFG_DDOS_AUTO, /* past ddos-ike-threshold= */
	CFG_DDOS_BUSY, /* always */
	CFG_DDOS_UNLIMITED, /* never */
};

/* libreswan's default of ddos-ike-threshold= */
#define CFG_DDOS_IKE_THRESHOLD 100
/* metrics-interval= unset: node_exporter's own scrape interval */
#define CFG_METRICS_INTERVAL_S 15u
/* metrics-interval= at most a day: a longer one reads as a stale file */
#define CFG_METRICS_INTERVAL_MAX_S 86400u

/*
 * Each field holds libreswan's default when its key is unset. A key
 * whose text matters as written (a path, a name, a list the plugin
 * loader splits) is kept as its struct ikb_value, for its file:line in
 * messages; NULL when unset.
 */
struct cfg_setup {
	/* crypto: NSS and its helper threads */
	bool fips;
	int nhelpers; /* -1: one per CPU less one */
	const struct ikb_value *nssdir;
	const struct ikb_value *plugins;
	/* the IKE sockets */
	const struct ikb_value *listen; /* NULL: every address */
	uint16_t ikeport, nat_ikeport;
	/* the engine */
	enum cfg_ddos_mode ddos_mode;
	unsigned ddos_ike_threshold, max_halfopen_ike;
	unsigned long long keep_alive_ms, shuntlifetime_ms;
	unsigned ike_fragment_size; /* 0: from the path MTU */
	bool uniqueids, drop_oppo_null, ipsec_interface_managed;
	const struct ikb_value *ipsecdir;
	/* the log */
	const struct ikb_value *logfile; /* plutostderrlog= is stored as it */
	const struct ikb_value *plutodebug;
	bool debug; /* plutodebug= names a category other than none, private */
	bool debug_private; /* plutodebug= names private: secrets may be logged */
	/* revocation */
	bool crl_strict, ocsp_enable, ocsp_strict, ocsp_post;
	unsigned ocsp_timeout_s, ocsp_cache_size;
	unsigned ocsp_cache_min_s, ocsp_cache_max_s;
	const struct ikb_value *ocsp_uri, *ocsp_trustname;
	/* node_exporter's textfile */
	const struct ikb_value *metrics_file;
	unsigned metrics_interval_s;
};

/* Every field at libreswan's default. */
void cfg_setup_defaults(struct cfg_setup *out);
/*
 * The typed values of a section (checked or not: a value its check
 * refuses leaves the default, and cfg_setup_check() reports it).
 */
void cfg_setup_parse(const struct ikb_section *s, struct cfg_setup *out);
/* Whether config setup's key is the core's (one of the table's rows). */
bool cfg_setup_owns(const char *key);
/* The load check of one value of the core's key: false with `why`. */
bool cfg_setup_check(const char *key, const char *v, char *why, size_t len);
/* The i-th key of the table (aliases too), NULL past the last. */
const char *cfg_setup_key(size_t i);
/* The typed values, as checkconfig --json shows them. */
struct json_object *cfg_setup_to_json(const struct cfg_setup *s);

#endif
