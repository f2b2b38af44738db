/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Conns as the engine sees them: one end, the view from this host, the
 * responder's match by address and by ID, and the IDs that follow. The
 * header of daemon/ike/conn/, the one the other folders include; it
 * includes host.h (conns' hosts that are names). conn_check.h is
 * checkconfig's. Not for use outside daemon/ike/.
 */
#ifndef IKB_IKE_CONN_H
#define IKB_IKE_CONN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <ikebana/plugin.h>

#include "config/config.h"
#include "ike/child/ts.h"
#include "ike/conn/host.h"
#include "ike/ike.h"

struct ike_engine;
struct ike_path;
struct ike_id;
struct wire_typed;

/* How one end authenticates (conn_auth.c): authby=, leftauth=, leftcert=. */
enum conn_sendcert { SENDCERT_ALWAYS, SENDCERT_IFASKED, SENDCERT_NEVER };
/* AUTHM_NULL: RFC 7619, no proof of identity (opportunistic encryption) */
enum { AUTHM_PSK = 1, AUTHM_RSA = 2, AUTHM_ECDSA = 4, AUTHM_NULL = 8 };
#define AUTHM_SIG (AUTHM_RSA | AUTHM_ECDSA)

struct cred;
struct conn_auth {
	unsigned methods; /* AUTHM_*: what this end may authenticate with */
	unsigned hashes; /* SIG_HASH_BIT()s its signatures may use */
	enum conn_sendcert sendcert;
	const char *cert; /* leftcert=: a nickname in the NSS database */
	const char *ca; /* leftca=: %same, %any or a DN */
	const char *rsasigkey; /* leftrsasigkey=0s... (not %cert) */
	const char *ckaid; /* leftckaid=: the private key's CKA_ID */
	bool fromcert; /* leftid=%fromcert, or leftcert= without leftid= */
	/* compiled (conn_auth_compile): */
	struct cred *cred; /* leftcert=, with the key when the end is ours */
	uint8_t *ca_der; /* rightca=: the DN the chain must have */
	size_t ca_len;
};

/*
 * left= as written when it is no address: a name or %defaultroute. name
 * points into the configuration (it outlives the compiled conns).
 */
struct conn_host {
	enum ike_host_kind kind; /* IKE_HOST_ADDR: addr is the address */
	const char *name; /* IKE_HOST_NAME */
	int family; /* hostaddrfamily=, the other end's, %defaultroute6 */
};

/* One end of a conn, parsed. */
struct conn_end {
	/* AF_UNSPEC: %any, or a host not resolved (host.kind says) */
	struct ikb_addr addr;
	struct conn_host host;
	bool net_set; /* leftsubnet= given: net does not follow addr */
	const char *id; /* leftid= text, NULL: the address */
	struct ikb_addr net; /* leftsubnet=, else addr */
	uint8_t plen;
	/* leftsubnet=A,B,...: every one (net, plen: the first); 1 otherwise */
	uint8_t nnets;
	struct ts_net nets[IKB_CONN_NETS_MAX];
	uint8_t proto; /* leftprotoport= */
	uint16_t port;
	uint16_t ike_port; /* leftikeport=, 0: unset */
	const char *updown; /* leftupdown=, NULL: no script */
	/* leftsourceip=: [0] IPv4, [1] IPv6; family 0: none */
	struct ikb_addr sourceip[2];
	/* leftinterface-ip=: on the conn's ipsecN (ipsec_if.c); 0: none */
	struct ikb_addr ifip;
	uint8_t ifip_plen;
	struct conn_auth auth;
};

/* A conn seen from this host: which side is local decides everything. */
struct conn_view {
	const struct ikb_section *s;
	const struct conn *conn; /* the compiled conn this view is of */
	struct conn_end local, remote;
	enum ikb_mode mode;
	bool left_is_local;
};

/* The Child SAs a conn asks for, from the child plan hook (trimmed). */
struct conn_plan {
	unsigned n;
	struct ikb_child_spec *c;
};

struct conn_props; /* conn_props.c: a proposal list, shared */

/* One direction's VALUE[/MASK]; reqid: VALUE -1, a mark per reqid. */
struct conn_mark {
	bool set, reqid;
	uint32_t val, mask;
};

/*
 * A conn compiled once per configuration (conn_compile.c), when the
 * engine takes it: the engine reads these fields and never the config
 * strings. An SA keeps its conn's name, not a pointer, so that a reload
 * finds the new conn of the same name. A part that could not be compiled
 * keeps its error, reported where the engine needs that part, as before.
 */
struct conn {
	const struct ikb_section *s; /* for plugin hooks */
	const char *name;
	/* [1]: left is local, [0]: right is local; rc != 0: err says why */
	struct conn_view view[2];
	int view_rc[2];
	char *view_err[2];
	struct conn_plan plan[2]; /* per view that compiled */
	int plan_rc[2];
	char *plan_err[2];
	const struct conn_props *ike, *esp; /* with the ESN offer */
	int ike_rc, esp_rc;
	char *ike_err, *esp_err;
	bool ignored; /* auto=ignore */
	bool auto_start; /* auto=start */
	bool auto_route; /* auto=route|ondemand: its trap from the load on */
	bool dpd_hold; /* dpdaction=hold: routed once a dead peer's SAs go */
	/* type=passthrough|drop|reject: a shunt, never negotiated; IPSEC: not */
	enum ikb_policy_action shunt;
	bool neg_pass; /* negotiationshunt=passthrough (default hold) */
	/* failureshunt=: IPSEC for none (the trap holds), PASS, BLOCK */
	enum ikb_policy_action fail_shunt;
	bool pfs, rekey;
	bool frag; /* fragmentation= other than no: RFC 7383 */
	/* encapsulation=: NAT-T when NAT is found, always, or never */
	enum conn_encap { ENCAP_AUTO, ENCAP_YES, ENCAP_NO } encap;
	bool nat_keepalive; /* nat-keepalive= (default yes) */
	bool mobike; /* mobike= (default no, as libreswan) */
	/* mark=, or mark-in= and mark-out=, which override it (libreswan) */
	struct conn_mark mark_in, mark_out;
	/* ipsec-interface=: the if_id of ipsecN on every SA and policy; 0: none */
	uint32_t if_id;
	/* priority=: every policy's, as given (libreswan); 0: by selector */
	uint32_t priority;
	unsigned fuzz_pct; /* rekeyfuzz= */
	unsigned long long ike_life_ms, child_life_ms, margin_ms;
	/* ipsec-max-bytes=, ipsec-max-packets=: each SA's hard limit; 0: none */
	uint64_t child_max_bytes, child_max_packets;
	unsigned long long dpd_delay_ms; /* 0: no liveness checks */
	unsigned long long dpd_timeout_ms; /* 0: retransmit-timeout= */
	unsigned long keyingtries; /* 0: %forever */
	unsigned rtx_interval_ms;
	unsigned long long rtx_timeout_ms;
	/*
	 * Opportunistic (right=%opportunisticgroup, conn_inst.c): the group
	 * end (1: left, 0: right, -1: none) and its networks, whose every
	 * destination is an instance of the conn; an instance has none.
	 */
	int grp_side;
	unsigned ngrp;
	struct ts_net *grp;
	const char *inst_of; /* an instance: its group conn's name */
};

/* Every conn of one configuration, in its order, and config setup. */
struct conn_set {
	const struct cfg *cfg;
	size_t n;
	struct conn *conns;
	struct conn_props *props; /* the distinct proposal lists */
	unsigned ddos_threshold, max_halfopen;
	uint16_t ike_port; /* ikeport= */
	uint16_t natt_port; /* nat-ikeport= */
	unsigned keepalive_s; /* keep-alive=: NAT-keepalive interval, 0: none */
	bool uniqueids;
	/* drop-oppo-null=: IKE_SA_INITs with the OE Vendor ID (oe_vid.c) */
	bool drop_oppo_null;
	/* ipsec-interface-managed= (default yes): we make ipsecN ourselves */
	bool if_managed;
	unsigned frag_size; /* ike-fragment-size=: IP datagram, 0: RFC 7383 */
	unsigned long long
		shunt_life_ms; /* shuntlifetime=: a failure shunt's */
	struct conn_insts *inst; /* opportunistic instances (conn_inst.c) */
	struct conn_index *by_local; /* conn_index.c; NULL: none */
};

/* conn_index.c: the views by local address, in the order of the conns. */
struct conn_index_ent {
	uint32_t conn; /* in conns[] */
	int side; /* its view */
};
void conn_index_build(struct conn_set *set);
void conn_index_free(struct conn_index *x);
/* The n views that may have local as theirs (a hash bucket: others too);
 * set->by_local must be there. */
const struct conn_index_ent *conn_index_find(const struct conn_set *set,
					     const struct ikb_addr *local,
					     size_t *n);

/* conn_compile.c */
struct loaded_conf;
/* NULL: out of memory (logged). */
struct conn_set *conn_set_compile(const struct ike_engine *e,
				  const struct loaded_conf *lc);
void conn_set_free(struct conn_set *set);
/*
 * The address side's host (1: left) resolved to, into both views of c (a
 * conn of e's set), and their child plans made again with it.
 */
void conn_host_set(struct ike_engine *e, const struct conn *c, int side,
		   const struct ikb_addr *a);
/* conn_compile.c, for instances: one conn of s into c, and freed. */
void conn_compile_one(const struct ike_engine *e, struct conn_set *set,
		      const struct ikb_section *s, struct conn *c);
void conn_free_one(struct conn *c);
/* The host of side (1: left) is a (a conn's own, or an instance's). */
void conn_end_set(const struct ike_engine *e, struct conn *c, int side,
		  const struct ikb_addr *a);

/*
 * conn_inst.c: opportunistic conns. Each destination of a group conn's
 * networks is an instance named GROUP#ADDRESS, made when first needed
 * and kept with the configuration (a reload makes it again from the new
 * group conn when an SA still names it).
 */
bool conn_group_has(const struct conn *c, const struct ikb_addr *a);
/* The instance of group conn c for peer; NULL: not in the group, or no
 * memory (logged). */
const struct conn *conn_instance(const struct ike_engine *e,
				 const struct conn *c,
				 const struct ikb_addr *peer);
/* An instance by name (GROUP#ADDRESS), made if its group has it. */
const struct conn *conn_instance_find(const struct ike_engine *e,
				      const char *name);
void conn_inst_free(struct conn_set *set);
/* How many instances there are now (status, tests). */
unsigned conn_inst_count(const struct ike_engine *e);

/* The conn of that name in the engine's configuration, or NULL. */
const struct conn *engine_conn(const struct ike_engine *e, const char *name);
/* auto=start, of the conn of that name now (reload keeps the name). */
bool conn_auto_start(const struct ike_engine *e, const char *conn);
bool conn_dpd_hold(const struct ike_engine *e, const char *conn);
/* Initiator: the view whose local side is ours, by io->is_local. */
int conn_view_local(const struct ike_engine *e, const struct conn *c,
		    struct conn_view *v, struct ikb_error *err);
/* The plan of the view's side. */
int conn_plan(const struct conn_view *v, const struct conn_plan **out,
	      struct ikb_error *err);
/* ike= or esp= (with the ESN offer): a copy the caller may change. */
int conn_proposals(const struct conn *c, enum ikb_protocol proto,
		   struct ikb_proposal_list *out, struct ikb_error *err);
/* retransmit-interval= and retransmit-timeout=; c NULL: the defaults. */
void conn_timing(const struct conn *c, unsigned *interval_ms,
		 unsigned long long *timeout_ms);

/* conn_auth.c: an end's authentication, parsed, then compiled. */
void conn_auth_parse(const struct ikb_section *s, const char *side,
		     struct conn_end *end);
/* Loads leftcert= and the CA of rightca=; 0 or -errno with err. */
int conn_auth_compile(struct conn_view *v, struct ikb_error *err);
/*
 * Whether the key of end's loaded certificate (auth.cred) fits its
 * methods (authby=, or side's leftauth=); -EINVAL with err if not.
 */
int conn_auth_check_key(const struct conn_end *end, const char *side,
			struct ikb_error *err);
void conn_auth_free(struct conn_end *end);

/* conn.c: the compiler's parsers */
/* SIDE + KEY (leftcert=, rightauth=, ...) in s, with its line, or NULL. */
const struct ikb_value *conn_end_key(const struct ikb_section *s,
				     const char *side, const char *key);
/* The same, its value only. */
const char *conn_end_value(const struct ikb_section *s, const char *side,
			   const char *key);
int conn_view_init(const struct ikb_section *s, bool left_is_local,
		   struct conn_view *v, struct ikb_error *err);
void conn_parse_timing(const struct ikb_section *s, unsigned *interval_ms,
		       unsigned long long *timeout_ms);
/* ike= or esp= through the proposals hook; defaults when unset. */
int conn_parse_proposals(const struct ike_engine *e,
			 const struct ikb_section *s, enum ikb_protocol proto,
			 struct ikb_proposal_list *out, struct ikb_error *err);

/* conn_props.c: equal lists are kept once (1,000 conns, one esp=). */
const struct conn_props *conn_props_intern(struct conn_props **pool,
					   const struct ikb_proposal_list *l);
void conn_props_copy(const struct conn_props *p, struct ikb_proposal_list *out);
/* The ESN transforms offered in any proposal of p (NULL: none). */
enum { CONN_ESN_NO = 1, CONN_ESN_YES = 2 };
unsigned conn_props_esn(const struct conn_props *p);
void conn_props_free(struct conn_props **pool);

/* conn_match.c: responder. */
const struct conn *conn_match_addr(const struct ike_engine *e,
				   const struct ike_path *p,
				   struct conn_view *v);
/* What an IKE_AUTH request tells of the conn it is for. */
struct wire_ts_pld;
struct conn_match_req {
	const struct ike_id *peer;
	uint8_t auth_method; /* the AUTH payload's (RFC 7296 §3.8) */
	const char *current; /* the conn chosen at IKE_SA_INIT */
	const struct wire_ts_pld *tsi, *tsr; /* NULL: none */
	const uint8_t *cert; /* the peer's certificate (DER), or NULL */
	size_t cert_len;
};

/*
 * After IKE_AUTH: the conn whose remote ID accepts the peer's; NULL if
 * none. Of those, one that allows the peer's AUTH method wins, as
 * libreswan and strongSwan switch conns on it; then one that pins no
 * other certificate than the peer's (rightcert=); then one whose
 * selectors take the request's TSi and TSr as offered.
 */
const struct conn *conn_match_id(const struct ike_engine *e,
				 const struct ike_path *p,
				 const struct conn_match_req *q,
				 struct conn_view *v);

/* id.c */
int id_local(const struct conn_end *end, struct ike_id *id,
	     struct ikb_error *err);
void id_from_wire(const struct wire_typed *w, struct ike_id *id);
/* Whether conn end's configured ID (or address) accepts got. */
bool id_accepts(const struct conn_end *end, const struct ike_id *got);

#endif
