/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The plugin ABI. A plugin is a shared object that exports one
 * `const struct ikb_plugin ikb_plugin` and includes only include/ikebana/.
 *
 * The loader reads `abi` first and refuses a mismatch before it touches
 * any other member. Bump IKB_PLUGIN_ABI when a struct in include/ikebana/
 * changes meaning or layout, with one exception: an optional op appended
 * to an ops table (struct ikb_*_ops) or to struct ikb_host. Those start
 * with their size (IKB_OPS_SIZE, types.h); the loader copies what both
 * sides know into a zeroed table, so the new op is NULL for a plugin built
 * before it, and such a plugin needs no rebuild. The descriptor itself is
 * fixed within an ABI (its size must match).
 *
 * Appending an optional op: add it last in its table, after the marking
 * comment; leave IKB_*_OPS_MIN as it is; say in its comment that it is
 * optional and since which ABI; the core treats NULL as not provided. The
 * plain structs (struct ikb_sa, struct ikb_child_plan, ...) and the
 * descriptor have no size: changing them is a new ABI number
 * (testing/unit/plugin/test_abi_layout.c pins the plain structs' layout,
 * so that a change without a bump fails the build).
 *
 * A key has exactly one owner (a plugin's keys, or the core), and the
 * owner is the only code that parses it: check_conn validates it at load,
 * and the owner's hooks export what it means, typed, in what they fill,
 * never as text for others to parse again:
 *   - child.tune fills struct ikb_sa (replay-window= is replay_window);
 *   - child.offer fills the proposals (esn= is the ESN transforms);
 *   - child.plan fills the plan (clones= is its entries with a CPU id,
 *     which the core counts).
 * Others read the exported value: a kernel backend installs the ikb_sa it
 * gets, and a check across plugins' keys goes in child.check_sa, which
 * sees the SA as every tune filled it. host->get on another plugin's key
 * is for its file:line in a report, not for its value. A plugin that is
 * not loaded exports nothing (its keys cannot be set), and the default is
 * what the core or the reader does without it.
 */
#ifndef IKEBANA_PLUGIN_H
#define IKEBANA_PLUGIN_H

#include <ikebana/child.h>
#include <ikebana/host.h>
#include <ikebana/kernel.h>
#include <ikebana/proposals.h>
#include <ikebana/types.h>

/*
 * 2: struct ikb_child_plan gained left_is_local (which protoports list is
 * this host's); struct ikb_sa gained pcrypt_fallback and offload_fallback,
 * which sa_add and sa_update write back (their ikb_sa is no longer const).
 */
/*
 * 3: struct ikb_kernel_ops gained pcpu_max (per-CPU SAs, RFC 9611); a
 * kernel backend sets XFRMA_SA_PCPU from ikb_sa.cpu and
 * XFRM_POLICY_CPU_ACQUIRE from ikb_policy.cpu_acquire instead of refusing
 * them.
 */
/*
 * 4: struct ikb_kernel_ops gained child_add, a new Child SA (both SAs and
 * its policies) in one call.
 */
/*
 * 5: every ops table and struct ikb_host start with uint32_t size, and
 * optional ops are appended without a bump (see above); ikb_host.abi,
 * which nothing read, is gone. Appended since, optional: child.offer,
 * child.check_sa, kernel.events_unsubscribe.
 */
/*
 * 6: struct ikb_policy gained action (trap, pass, block: shunts need
 * policies without a template) and if_id; struct ikb_sa gained if_id
 * (XFRM interfaces). Plain structs have no size, so this is a bump.
 */
#define IKB_PLUGIN_ABI 6
#define IKB_PLUGIN_SYMBOL "ikb_plugin"

enum ikb_key_scope { IKB_KEY_CONN = 1, IKB_KEY_SETUP = 2 };

/* A configuration key that a plugin owns and validates. */
struct ikb_key {
	const char *name;
	enum ikb_key_scope scope;
	const char *expects; /* human text: "an integer 0..2048" */
};

struct ikb_plugin {
	uint32_t abi; /* IKB_PLUGIN_ABI; must stay the first member */
	uint32_t size; /* sizeof(struct ikb_plugin) */
	const char *name;
	const char *summary;
	const char *const *requires; /* plugin names, NULL-terminated */
	const struct ikb_key *keys; /* terminated by a NULL name */

	int (*init)(const struct ikb_host *host, void **state);
	void (*fini)(void *state);
	/* Validate owned keys; report through host->report. 0 = no errors. */
	int (*check_setup)(void *state, const struct ikb_section *setup,
			   struct ikb_diag *d);
	int (*check_conn)(void *state, const struct ikb_section *conn,
			  struct ikb_diag *d);

	/* Hook tables; NULL where a plugin does not take part. */
	const struct ikb_proposals_ops *proposals;
	const struct ikb_child_ops *child;
	const struct ikb_kernel_ops *kernel;
};

#define IKB_PLUGIN_INIT .abi = IKB_PLUGIN_ABI, .size = sizeof(struct ikb_plugin)

/*
 * Plugins build with -fvisibility=hidden; only the descriptor is exported:
 *   IKB_PLUGIN_EXPORT const struct ikb_plugin ikb_plugin = { IKB_PLUGIN_INIT, ... };
 */
#define IKB_PLUGIN_EXPORT __attribute__((visibility("default")))

#endif
