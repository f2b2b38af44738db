// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The layout of the plugin ABI's plain structs, pinned. Unlike the ops
 * tables, struct ikb_sa, struct ikb_policy and struct ikb_child_plan (and
 * the structs inside them) carry no size: a plugin built against other
 * headers reads them at the offsets it was built with, and only
 * IKB_PLUGIN_ABI tells the loader that the two disagree. So any change of
 * their layout must bump it (include/ikebana/plugin.h), and this file makes
 * a change without a bump fail the build.
 *
 * The numbers are ABI 6's on x86_64 (LP64), written from the headers.
 * Changing any of them requires an ABI bump. After a bump: add the new
 * members to ABI_LAYOUT with any numbers and to test_members_in_order(),
 * then, from the top of the tree,
 *   cc -DABI_LAYOUT_REGEN -Iinclude testing/unit/plugin/test_abi_layout.c \
 *      -lcmocka -o /tmp/abi && /tmp/abi
 * prints ABI_LAYOUT's lines with the real numbers to paste; set
 * ABI_PINNED to the new IKB_PLUGIN_ABI.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <cmocka.h>

#include <ikebana/plugin.h>

/* the IKB_PLUGIN_ABI whose layout this file pins */
#define ABI_PINNED 6

#if defined(__x86_64__) && defined(__LP64__)
#define ABI_LAYOUT_KNOWN 1
#else
#define ABI_LAYOUT_KNOWN 0
#endif

/* S(type, sizeof), then M(type, member, offsetof, sizeof) per member. */
#define ABI_LAYOUT(S, M)                              \
	S(struct ikb_addr, 18)                        \
	M(struct ikb_addr, family, 0, 2)              \
	M(struct ikb_addr, bytes, 2, 16)              \
	S(struct ikb_selector, 44)                    \
	M(struct ikb_selector, src, 0, 18)            \
	M(struct ikb_selector, dst, 18, 18)           \
	M(struct ikb_selector, src_plen, 36, 1)       \
	M(struct ikb_selector, dst_plen, 37, 1)       \
	M(struct ikb_selector, proto, 38, 1)          \
	M(struct ikb_selector, sport, 40, 2)          \
	M(struct ikb_selector, dport, 42, 2)          \
	S(struct ikb_alg, 196)                        \
	M(struct ikb_alg, name, 0, 64)                \
	M(struct ikb_alg, key_bits, 64, 2)            \
	M(struct ikb_alg, icv_bits, 66, 2)            \
	M(struct ikb_alg, key, 68, 128)               \
	S(struct ikb_lifetime, 48)                    \
	M(struct ikb_lifetime, soft_bytes, 0, 8)      \
	M(struct ikb_lifetime, hard_bytes, 8, 8)      \
	M(struct ikb_lifetime, soft_packets, 16, 8)   \
	M(struct ikb_lifetime, hard_packets, 24, 8)   \
	M(struct ikb_lifetime, soft_add_secs, 32, 8)  \
	M(struct ikb_lifetime, hard_add_secs, 40, 8)  \
	S(struct ikb_sa, 792)                         \
	M(struct ikb_sa, src, 0, 18)                  \
	M(struct ikb_sa, dst, 18, 18)                 \
	M(struct ikb_sa, spi, 36, 4)                  \
	M(struct ikb_sa, proto, 40, 1)                \
	M(struct ikb_sa, mode, 44, 4)                 \
	M(struct ikb_sa, dir, 48, 4)                  \
	M(struct ikb_sa, reqid, 52, 4)                \
	M(struct ikb_sa, sel, 56, 44)                 \
	M(struct ikb_sa, aead, 100, 196)              \
	M(struct ikb_sa, encr, 296, 196)              \
	M(struct ikb_sa, integ, 492, 196)             \
	M(struct ikb_sa, replay_window, 688, 4)       \
	M(struct ikb_sa, esn, 692, 1)                 \
	M(struct ikb_sa, life, 696, 48)               \
	M(struct ikb_sa, encap_sport, 744, 2)         \
	M(struct ikb_sa, encap_dport, 746, 2)         \
	M(struct ikb_sa, cpu, 748, 4)                 \
	M(struct ikb_sa, pcrypt, 752, 1)              \
	M(struct ikb_sa, offload, 756, 4)             \
	M(struct ikb_sa, offload_dev, 760, 16)        \
	M(struct ikb_sa, mark, 776, 4)                \
	M(struct ikb_sa, mark_mask, 780, 4)           \
	M(struct ikb_sa, pcrypt_fallback, 784, 1)     \
	M(struct ikb_sa, offload_fallback, 785, 1)    \
	M(struct ikb_sa, if_id, 788, 4)               \
	S(struct ikb_policy, 120)                     \
	M(struct ikb_policy, sel, 0, 44)              \
	M(struct ikb_policy, dir, 44, 4)              \
	M(struct ikb_policy, priority, 48, 4)         \
	M(struct ikb_policy, mode, 52, 4)             \
	M(struct ikb_policy, tmpl_src, 56, 18)        \
	M(struct ikb_policy, tmpl_dst, 74, 18)        \
	M(struct ikb_policy, proto, 92, 1)            \
	M(struct ikb_policy, reqid, 96, 4)            \
	M(struct ikb_policy, cpu_acquire, 100, 1)     \
	M(struct ikb_policy, mark, 104, 4)            \
	M(struct ikb_policy, mark_mask, 108, 4)       \
	M(struct ikb_policy, action, 112, 4)          \
	M(struct ikb_policy, if_id, 116, 4)           \
	S(struct ikb_child_spec, 48)                  \
	M(struct ikb_child_spec, ts, 0, 44)           \
	M(struct ikb_child_spec, cpu, 44, 4)          \
	S(struct ikb_child_plan, 12296)               \
	M(struct ikb_child_plan, n, 0, 4)             \
	M(struct ikb_child_plan, left_is_local, 4, 1) \
	M(struct ikb_child_plan, c, 8, 12288)

#define MEMBER_SIZE(type, m) sizeof(((type *)0)->m)

#if ABI_LAYOUT_KNOWN && !defined(ABI_LAYOUT_REGEN)
_Static_assert(IKB_PLUGIN_ABI == ABI_PINNED,
	       "IKB_PLUGIN_ABI changed: regenerate the layout below for it "
	       "(see the top of this file) and set ABI_PINNED");

#define PIN_SIZE(type, size)                   \
	_Static_assert(sizeof(type) == (size), \
		       #type " changed size: bump IKB_PLUGIN_ABI");
#define PIN_MEMBER(type, m, off, size)                                        \
	_Static_assert(                                                       \
		offsetof(type, m) == (off) && MEMBER_SIZE(type, m) == (size), \
		#type "." #m " moved or changed size: bump IKB_PLUGIN_ABI");
ABI_LAYOUT(PIN_SIZE, PIN_MEMBER)
#endif

struct row {
	const char *type, *member; /* member NULL: the struct's own size */
	size_t off, size;
	size_t want_off, want_size;
};

#define ROW_SIZE(type, size) { #type, NULL, 0, sizeof(type), 0, size },
#define ROW_MEMBER(type, m, off, size) \
	{ #type, #m, offsetof(type, m), MEMBER_SIZE(type, m), off, size },
static const struct row rows[] = { ABI_LAYOUT(ROW_SIZE, ROW_MEMBER) };

/* A row as ABI_LAYOUT writes it, with this build's numbers. */
static void print_row(const struct row *r)
{
	if (r->member)
		print_message("\tM(%s, %s, %zu, %zu)\n", r->type, r->member,
			      r->off, r->size);
	else
		print_message("\tS(%s, %zu)\n", r->type, r->size);
}

static void test_layout(void **state)
{
	unsigned structs = 0, members = 0, wrong = 0;

	if (!ABI_LAYOUT_KNOWN) {
		print_message("skipped: the layout is pinned for x86_64\n");
		skip();
	}
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		const struct row *r = &rows[i];
		bool ok = r->off == r->want_off && r->size == r->want_size;

#ifdef ABI_LAYOUT_REGEN
		print_row(r);
#else
		if (!ok)
			print_row(r);
#endif
		wrong += !ok;
		if (r->member)
			members++;
		else
			structs++;
	}
	print_message("ABI %d on x86_64: %u structs, %u members, %u moved\n",
		      IKB_PLUGIN_ABI, structs, members, wrong);
	assert_int_equal(IKB_PLUGIN_ABI, ABI_PINNED);
	assert_int_equal(wrong, 0);
}

/*
 * Offsets cannot see a member put into padding (a bool after ikb_sa.proto
 * moves nothing after it). These initialisers give every member, in order
 * and by position, the nested structs as values of their own type: one
 * more member anywhere shifts them onto a member of another type or
 * leaves the last one out (-Wmissing-field-initializers, from -Wextra),
 * one fewer leaves an excess element; warnings are errors.
 */
static void test_members_in_order(void **state)
{
	const struct ikb_addr addr = { 0, { 0 } };
	const struct ikb_selector sel = { addr, addr, 0, 0, 0, 0, 0 };
	const struct ikb_alg alg = { "", 0, 0, { 0 } };
	const struct ikb_lifetime life = { 0, 0, 0, 0, 0, 0 };
	/* a line per group of members, as the comments name them */
	// clang-format off
	const struct ikb_sa sa = {
		addr, addr, 0, 0, /* src, dst, spi, proto */
		0, 0, 0, sel, /* mode, dir, reqid, sel */
		alg, alg, alg, /* aead, encr, integ */
		0, 0, life, /* replay_window, esn, life */
		0, 0, 0, 0, /* encap_sport, encap_dport, cpu, pcrypt */
		0, "", 0, 0, /* offload, offload_dev, mark, mark_mask */
		0, 0, 0, /* pcrypt_fallback, offload_fallback, if_id */
	};
	const struct ikb_policy pol = {
		sel, 0, 0, 0, /* sel, dir, priority, mode */
		addr, addr, 0, 0, /* tmpl_src, tmpl_dst, proto, reqid */
		0, 0, 0, /* cpu_acquire, mark, mark_mask */
		0, 0, /* action, if_id */
	};
	// clang-format on
	const struct ikb_child_spec spec = { sel, 0 };
	const struct ikb_child_plan plan = { 0, 0, { spec } };

	(void)sa;
	(void)pol;
	(void)plan;
	print_message("every member of the 8 structs named in order\n");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_layout),
		cmocka_unit_test(test_members_in_order),
	};

	return cmocka_run_group_tests_name("plugin ABI layout", tests, NULL,
					   NULL);
}
