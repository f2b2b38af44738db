/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Shared between the parser's files; nothing outside daemon/config/. */
#ifndef IKB_CONFIG_INTERNAL_H
#define IKB_CONFIG_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "config/arena.h"
#include "config/config.h"
#include "config/diag.h"
#include "config/incfiles.h"
#include "config/keyset.h"

struct parse_ctx {
	struct cfg *cfg;
	struct cfg_arena *a;
	struct ikb_diag *d;
	struct ikb_section *raw; /* malloc'd while parsing */
	struct keyset *keys; /* per raw section: canonical key -> kv index */
	size_t nraw, capraw;
	long cur; /* raw index of the open section, -1 for none */
	long setup; /* raw index of the merged config setup, -1 */
	struct incfiles inc; /* the files read so far */
};

/* parser.c */
void parse_text(struct parse_ctx *p, const char *file, const char *buf,
		size_t len);
void section_add(struct cfg_arena *a, struct ikb_section *s,
		 const struct ikb_value *v);

/* include.c: `include` at file:line with argument arg. */
void parse_include(struct parse_ctx *p, const char *file, unsigned line,
		   const char *arg);
/* Parse one file (the top-level one or an included one). */
void parse_path(struct parse_ctx *p, const char *path, const char *from,
		unsigned line);

/* resolve.c: %default and also= into cfg->conns. */
void cfg_resolve(struct parse_ctx *p);
/* The name -> conns[i] table of c's n conns (names unique). */
struct cfg_index *cfg_index_build(struct cfg_arena *a,
				  const struct ikb_section *conns, size_t n);

/* keys_core.c: the name several spellings share (salifetime -> ipsec-lifetime). */
const char *cfg_canonical_key(const char *key);

/* values.c: checks of single values; false with `why` filled in. */
typedef bool (*value_check_fn)(const char *v, char *why, size_t len);
bool check_host(const char *v, char *why, size_t len);
bool check_nexthop(const char *v, char *why, size_t len);
bool check_addr(const char *v, char *why, size_t len);
bool check_subnet(const char *v, char *why, size_t len);
bool check_ifaddr(const char *v, char *why, size_t len);
bool check_protoport(const char *v, char *why, size_t len);
bool check_port(const char *v, char *why, size_t len);
bool check_id(const char *v, char *why, size_t len);
bool check_authby(const char *v, char *why, size_t len);
bool check_end_auth(const char *v, char *why, size_t len);
bool check_sendcert(const char *v, char *why, size_t len);
bool check_ca(const char *v, char *why, size_t len);
bool check_rsasigkey(const char *v, char *why, size_t len);
bool check_ckaid(const char *v, char *why, size_t len);
bool check_auto(const char *v, char *why, size_t len);
bool check_type(const char *v, char *why, size_t len);
bool check_negotiationshunt(const char *v, char *why, size_t len);
bool check_failureshunt(const char *v, char *why, size_t len);
bool check_ikev2(const char *v, char *why, size_t len);
bool check_keyexchange(const char *v, char *why, size_t len);
bool check_bool(const char *v, char *why, size_t len);
bool check_lifetime(const char *v, char *why, size_t len);
bool check_duration(const char *v, char *why, size_t len);
bool check_max_bytes(const char *v, char *why, size_t len);
bool check_sourceip(const char *v, char *why, size_t len);
bool check_max_packets(const char *v, char *why, size_t len);
bool check_retransmit_interval(const char *v, char *why, size_t len);
bool check_retransmit_timeout(const char *v, char *why, size_t len);
bool check_percent(const char *v, char *why, size_t len);
bool check_keyingtries(const char *v, char *why, size_t len);
bool check_dpdaction(const char *v, char *why, size_t len);
bool check_priority(const char *v, char *why, size_t len);
bool check_encapsulation(const char *v, char *why, size_t len);
bool check_fragmentation(const char *v, char *why, size_t len);
bool check_fragment_size(const char *v, char *why, size_t len);
bool check_mark(const char *v, char *why, size_t len);
bool check_ipsec_interface(const char *v, char *why, size_t len);
bool check_plugins(const char *v, char *why, size_t len);
bool check_nhelpers(const char *v, char *why, size_t len);
bool check_unsigned(const char *v, char *why, size_t len);
bool check_ddos_mode(const char *v, char *why, size_t len);
bool check_listen(const char *v, char *why, size_t len);
/* hostaddrfamily=: the family left=/right= names are resolved in */
bool check_host_family(const char *v, char *why, size_t len);
bool check_nonempty(const char *v, char *why, size_t len);
/* values_time.c, values.c: metrics-interval= (1 s or more), metrics-file= */
bool check_metrics_interval(const char *v, char *why, size_t len);
bool check_metrics_file(const char *v, char *why, size_t len);
bool check_any(const char *v, char *why, size_t len);
/* values_ocsp.c */
bool check_ocsp_timeout(const char *v, char *why, size_t len);
bool check_ocsp_uri(const char *v, char *why, size_t len);
bool check_ocsp_method(const char *v, char *why, size_t len);
void cfg_check_ocsp(const struct ikb_section *s, struct ikb_diag *d);
/* values_updown.c: leftupdown= and rightupdown= name a program */
void cfg_check_updown(const struct ikb_section *s, struct ikb_diag *d);

/*
 * The verdict on every key libreswan knows (keys_setup.c, keys_conn.c and
 * keys_end.c, looked up by keys_libreswan.c). A key has one or more rows;
 * the first whose `when` takes the value applies, and the last row of
 * each key takes any value.
 */
enum cfg_verdict {
	CFG_V_UNSET, /* a row without a verdict: the unit test fails */
	CFG_V_CORE, /* the core owns the key and checks its value */
	CFG_V_NONE, /* the value asks for what ikebana does anyway */
	CFG_V_WARN, /* ignored, provably harmless: why says why */
	CFG_V_ERROR, /* refused: why says what ikebana would do, what to write */
};

typedef bool cfg_when_fn(const char *value);

struct cfg_rule {
	const char *key; /* per-end rows without left/right */
	enum cfg_verdict verdict;
	cfg_when_fn *when; /* NULL: any value */
	const char *eg; /* a value the row applies to, for the unit test */
	const char *why;
};

/*
 * Each table is sorted by key (strcmp), the rows of one key next to each
 * other in the order they are tried: lookups binary-search the key's first
 * row. test_verdicts.c checks the order.
 */
extern const struct cfg_rule cfg_setup_rules[], cfg_conn_rules[],
	cfg_end_rules[];
/* rows in each, without the NULL row that ends it */
extern const size_t cfg_setup_nrules, cfg_conn_nrules, cfg_end_nrules;
/* The row that applies to key=value in scope, or NULL for an unknown key. */
const struct cfg_rule *cfg_libreswan_rule(const char *key,
					  enum ikb_key_scope scope,
					  const char *value);

/* keys_libreswan.c: values that the rows single out. */
cfg_when_fn when_off, when_on, when_updown_off, when_zero, when_secret,
	when_none, when_esp, when_hold, when_not_hold, when_pass, when_fallback,
	when_never;
/* keys_limits.c: values of core keys that ikebana does not implement. */
cfg_when_fn when_nexthop_addr, when_auto_up, when_auto_keep, when_relative;

/*
 * keys_limits.c: the row for a core key's well-formed value: a warning, or
 * an error where ignoring the value would send traffic in clear or to the
 * wrong place. v is a key of s that the core owns and whose value passed
 * its check.
 */
void cfg_check_limits(const struct ikb_section *s, const struct ikb_value *v,
		      struct ikb_diag *d);
/*
 * The verdict row for key v of s in scope, reported: a warning (its reason
 * after `ignored`) or an error. False when libreswan does not know the key.
 */
bool cfg_report_verdict(const struct ikb_section *s, const struct ikb_value *v,
			enum ikb_key_scope scope, const char *ignored,
			struct ikb_diag *d);
/* keys_sourceip.c: leftsourceip= within leftsubnet=, tunnel mode. */
void cfg_check_sourceip(const struct ikb_section *s, struct ikb_diag *d);
/* leftikeport= and rightikeport= of conn s against config setup's ikeport=. */
void cfg_check_ikeports(const struct cfg *c, const struct ikb_section *s,
			struct ikb_diag *d);

/* An address literal's family: AF_INET, AF_INET6 or 0. */
int addr_family(const char *s);
/* A subnet's family (0 if not a subnet). */
int subnet_family(const char *s);
/* ikev2=permit: accepted, but worth a warning. */
bool ikev2_is_permit(const char *v);

#endif
