// SPDX-License-Identifier: GPL-2.0-or-later
/* seqcount: what the rekey-load receiver calls lost, dup and reordered. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "seqcount.h"

static void feed(struct seqcount *s, const uint64_t *n, size_t k)
{
	for (size_t i = 0; i < k; i++)
		assert_int_not_equal(seqcount_add(s, n[i]), SEQ_ERR);
}

static void in_order(void **state)
{
	struct seqcount s;

	seqcount_init(&s);
	for (uint64_t n = 0; n < 100000; n++)
		assert_int_equal(seqcount_add(&s, n), SEQ_NEW);
	assert_int_equal(s.unique, 100000);
	assert_int_equal(seqcount_lost(&s, 100000), 0);
	assert_int_equal(s.dup + s.reordered, 0);
	seqcount_fini(&s);
}

/* A gap never filled is lost; so is the tail the receiver never saw. */
static void gaps_and_tail(void **state)
{
	static const uint64_t n[] = { 0, 1, 2, 5, 6, 9 };
	struct seqcount s;
	uint64_t from = 0, lo, hi;

	seqcount_init(&s);
	feed(&s, n, sizeof(n) / sizeof(n[0]));
	assert_int_equal(seqcount_lost(&s, 12), 6); /* 3 4 7 8 10 11 */
	assert_true(seqcount_next_gap(&s, 12, &from, &lo, &hi));
	assert_int_equal(lo, 3);
	assert_int_equal(hi, 4);
	assert_true(seqcount_next_gap(&s, 12, &from, &lo, &hi));
	assert_int_equal(lo, 7);
	assert_int_equal(hi, 8);
	assert_true(seqcount_next_gap(&s, 12, &from, &lo, &hi));
	assert_int_equal(lo, 10);
	assert_int_equal(hi, 11);
	assert_false(seqcount_next_gap(&s, 12, &from, &lo, &hi));
	seqcount_fini(&s);
}

/* A late datagram that fills a gap is reordered, not lost. */
static void reordered_and_dup(void **state)
{
	static const uint64_t n[] = { 0, 2, 1, 3, 3, 2, 5, 4 };
	struct seqcount s;

	seqcount_init(&s);
	feed(&s, n, sizeof(n) / sizeof(n[0]));
	assert_int_equal(s.unique, 6);
	assert_int_equal(s.reordered, 2); /* 1 and 4 */
	assert_int_equal(s.dup, 2); /* 3 and 2 again */
	assert_int_equal(seqcount_lost(&s, 6), 0);
	seqcount_fini(&s);
}

/* A first datagram far in, as after a receiver started late. */
static void starts_late(void **state)
{
	struct seqcount s;

	seqcount_init(&s);
	assert_int_equal(seqcount_add(&s, 70000), SEQ_NEW);
	assert_int_equal(seqcount_add(&s, 69999), SEQ_REORDERED);
	assert_int_equal(seqcount_lost(&s, 70001), 69999);
	assert_int_equal(seqcount_add(&s, (uint64_t)1 << 40), SEQ_ERR);
	seqcount_fini(&s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(in_order),
		cmocka_unit_test(gaps_and_tail),
		cmocka_unit_test(reordered_and_dup),
		cmocka_unit_test(starts_late),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
