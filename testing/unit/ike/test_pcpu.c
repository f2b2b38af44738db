// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Per-CPU Child SAs (RFC 9611): the SA_RESOURCE_INFO notify, the
 * responder's CPU ids and TS_MAX_QUEUE, the clamp to the kernel's CPUs,
 * and the one-SA fallbacks (a kernel or a peer without them), end to end
 * between two engines on kernel-mem (IKB_KERNEL_MEM_CPUS plays the
 * kernel's possible CPUs).
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "harness.h"
#include "ike/child/child.h"
#include "ike/engine.h"
#include "ike/exchange/exchange.h"

static void test_notify_codec(void **state)
{
	struct wire_notify n;
	struct pcpu_res r;
	uint8_t buf[4];
	char why[64];

	pcpu_res_fill(&n, buf, -1);
	assert_int_equal(n.type, WIRE_N_SA_RESOURCE_INFO);
	assert_int_equal(n.type, 16444);
	assert_int_equal(n.protocol, 0);
	assert_int_equal(n.spi_size, 0);
	assert_int_equal(n.len, 0);
	assert_int_equal(pcpu_res_parse(&n, &r, why, sizeof(why)), 0);
	assert_false(r.has_cpu);
	assert_int_equal(r.id_len, 0);

	pcpu_res_fill(&n, buf, 7);
	assert_int_equal(n.len, 4);
	assert_memory_equal(n.data, "\0\0\0\7", 4);
	assert_int_equal(pcpu_res_parse(&n, &r, why, sizeof(why)), 0);
	assert_true(r.has_cpu);
	assert_int_equal(r.cpu, 7);

	/* any other identifier is opaque: logged by size only */
	n.data = (const uint8_t *)"queue-12";
	n.len = 8;
	assert_int_equal(pcpu_res_parse(&n, &r, why, sizeof(why)), 0);
	assert_false(r.has_cpu);
	assert_int_equal(r.id_len, 8);

	/* §4: Protocol ID and SPI Size are 0; the field is named */
	n.protocol = 3;
	assert_int_equal(pcpu_res_parse(&n, &r, why, sizeof(why)), -1);
	assert_string_equal(why, "Protocol ID 3, must be 0");
	n.protocol = 0;
	n.spi_size = 4;
	assert_int_equal(pcpu_res_parse(&n, &r, why, sizeof(why)), -1);
	assert_string_equal(why, "SPI Size 4, must be 0");
	assert_string_equal(wire_notify_name(48), "TS_MAX_QUEUE");
	assert_string_equal(wire_notify_name(16444), "SA_RESOURCE_INFO");
	assert_true(wire_notify_is_error(WIRE_N_TS_MAX_QUEUE));
}

static void test_pick(void **state)
{
	const int32_t none[1] = { 0 }, fb[] = { -1 }, fb0[] = { -1, 0 },
		      fb1[] = { 1, -1 }, all[] = { -1, 1, 0 };
	int32_t cpu = 99;

	/* the first SA of a selector set is the fallback */
	assert_int_equal(pcpu_pick(none, 0, 2, &cpu), 0);
	assert_int_equal(cpu, -1);
	assert_int_equal(pcpu_pick(fb, 1, 2, &cpu), 0);
	assert_int_equal(cpu, 0);
	assert_int_equal(pcpu_pick(fb0, 2, 2, &cpu), 0);
	assert_int_equal(cpu, 1);
	/* the lowest id not taken, even after a gap (a deleted clone) */
	assert_int_equal(pcpu_pick(fb1, 2, 2, &cpu), 0);
	assert_int_equal(cpu, 0);
	/* past our own count: TS_MAX_QUEUE */
	assert_int_equal(pcpu_pick(all, 3, 2, &cpu), -ENOSPC);
	assert_int_equal(pcpu_pick(fb, 1, 0, &cpu), -ENOSPC);
}

static void test_clamp(void **state)
{
	assert_int_equal(pcpu_clamp(2, 1), 1); /* UML: NR_CPUS=1 */
	assert_int_equal(pcpu_clamp(4, 64), 4);
	assert_int_equal(pcpu_clamp(4, 0), 0); /* no per-CPU SAs */
}

static struct net *up(const char *cpus, const char *west, const char *east)
{
	struct net *n;
	struct ikb_error err = { "" };

	setenv("IKB_KERNEL_MEM_CPUS", cpus, 1);
	log_reset();
	n = net_new(west, east, NULL, NULL, NULL);
	assert_int_equal(ike_engine_up(n->p[WEST].e, "test", &err), 0);
	return n;
}

static unsigned want_children;

static bool children_up(struct net *n)
{
	return child_count(n, WEST) == want_children &&
	       child_count(n, EAST) == want_children;
}

static bool max_queue_seen(struct net *n)
{
	return children_up(n) && log_has("peer answered TS_MAX_QUEUE");
}

/* who's Child SAs: their CPU ids as a bit set (bit 31: a fallback). */
static uint32_t cpu_set(struct net *n, int who)
{
	uint32_t set = 0;

	for (struct child_sa *c = n->p[who].e->all->children; c; c = c->next)
		set |= c->cpu < 0 ? 1u << 31 : 1u << c->cpu;
	return set;
}

/* One reqid, one pair of policies (the fallback's), acquire per CPU. */
static void assert_kernel(struct net *n, int who, unsigned nchild)
{
	struct kdump d;
	unsigned pcpu_out = 0, out_pol = 0;

	kernel_dump(n, who, &d);
	assert_int_equal(d.nsa, 2 * nchild);
	for (unsigned i = 0; i < d.nsa; i++) {
		assert_int_equal(d.sa[i].reqid, d.sa[0].reqid);
		pcpu_out += d.sa[i].dir == IKB_DIR_OUT && d.sa[i].cpu >= 0;
	}
	assert_int_equal(pcpu_out, nchild - 1);
	/* the fallback's in, out (and fwd in tunnel mode), nobody else's */
	assert_in_range(d.npol, 2, 3);
	for (unsigned i = 0; i < d.npol; i++) {
		out_pol += d.pol[i].dir == IKB_DIR_OUT;
		assert_int_equal(d.pol[i].reqid, d.sa[0].reqid);
		assert_int_equal(d.pol[i].cpu_acquire,
				 d.pol[i].dir == IKB_DIR_OUT && nchild > 1);
	}
	assert_int_equal(out_pol, 1);
}

static void test_clones(void **state)
{
	struct net *n = up("4", "\tclones=2\n", NULL);
	char buf[32];

	want_children = 3;
	assert_true(net_run(n, children_up, 10000));
	assert_int_equal(cpu_set(n, WEST), (1u << 31) | 3);
	assert_int_equal(cpu_set(n, EAST), (1u << 31) | 3);
	assert_kernel(n, WEST, 3);
	assert_kernel(n, EAST, 3);
	assert_true(log_has("the peer takes per-CPU Child SAs: 2 clones"));
	assert_true(log_has("per-CPU SA for CPU 1"));
	/* status: the first Child SA listed is the newest, a clone */
	assert_non_null(status_str(n, WEST, true, "cpu", buf, sizeof(buf)));
	assert_int_equal(ike_sa_count(n, WEST, "established"), 1);

	/* the IKE SA's Delete takes every clone and the policies along */
	struct ikb_error err = { "" };

	assert_int_equal(ike_engine_down(n->p[WEST].e, "test", &err), 0);
	want_children = 0;
	assert_true(net_run(n, children_up, 10000));
	assert_int_equal(kernel_objects(n, WEST), 0);
	assert_int_equal(kernel_objects(n, EAST), 0);
	net_free(n);
}

/* east makes 2, west asks for 4: TS_MAX_QUEUE ends it, nothing fails. */
static void test_ts_max_queue(void **state)
{
	struct net *n = up("8", "\tclones=4\n", "\tclones=2\n");

	want_children = 3;
	assert_true(net_run(n, max_queue_seen, 10000));
	assert_true(log_has("TS_MAX_QUEUE: the fallback and all 2 per-CPU"));
	assert_int_equal(cpu_set(n, WEST), (1u << 31) | 3);
	assert_int_equal(cpu_set(n, EAST), (1u << 31) | 3);
	assert_kernel(n, WEST, 3);
	assert_false(log_has("Child SA refused by the peer"));
	assert_int_equal(ike_sa_count(n, WEST, "established"), 1);
	net_free(n);
}

/* One possible CPU (UML): one clone and the fallback, logged, no error. */
static void test_kernel_clamp(void **state)
{
	struct net *n = up("1", "\tclones=3\n", NULL);

	want_children = 2;
	assert_true(net_run(n, children_up, 10000));
	assert_true(log_has(
		"clones=3: the kernel takes CPU ids 0..0 only: 1 per-CPU Child SA and the fallback"));
	assert_int_equal(cpu_set(n, WEST), (1u << 31) | 1);
	assert_int_equal(cpu_set(n, EAST), (1u << 31) | 1);
	assert_kernel(n, EAST, 2);
	net_free(n);
}

static bool one_up(struct net *n)
{
	return both_up(n);
}

/* A kernel without per-CPU SAs: one Child SA, one line saying why. */
static void test_no_kernel(void **state)
{
	struct net *n = up("0", "\tclones=2\n", NULL);

	assert_true(net_run(n, one_up, 10000));
	assert_true(log_has(
		"clones=2: kernel-mem has no per-CPU SAs (IKB_KERNEL_MEM_CPUS=0), one Child SA"));
	assert_false(log_has("SA_RESOURCE_INFO (RFC 9611)"));
	assert_kernel(n, WEST, 1);
	net_free(n);
}

/*
 * The core names the count multi-sa exported in the plan (its per-CPU
 * entries), never the clones= it does not own: clones=yes is the CPUs
 * online.
 */
static void test_clones_from_plan(void **state)
{
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	unsigned want = cpus < 1 ? 1 : (unsigned)cpus;
	struct net *n;
	char line[128];

	if (want > IKB_CHILD_PLAN_MAX - 1)
		want = IKB_CHILD_PLAN_MAX - 1;
	n = up("0", "\tclones=yes\n", NULL);
	assert_true(net_run(n, one_up, 10000));
	snprintf(
		line, sizeof(line),
		"clones=%u: kernel-mem has no per-CPU SAs (IKB_KERNEL_MEM_CPUS=0), one Child SA",
		want);
	assert_true(log_has(line));
	assert_false(log_has("clones=yes"));
	net_free(n);
}

/* A peer without RFC 9611 (strongSwan 5.9.8 answers no notify). */
static void test_peer_without(void **state)
{
	/* one CPU: the clamp would apply, but the peer's line is the only one */
	struct net *n = up("1", "\tclones=2\n", "");

	assert_true(net_run(n, one_up, 10000));
	assert_true(log_has(
		"clones=2: peer did not offer SA_RESOURCE_INFO (RFC 9611), one Child SA"));
	assert_false(log_has("the kernel takes CPU ids"));
	assert_kernel(n, WEST, 1);
	assert_kernel(n, EAST, 1);
	net_free(n);
}

static struct child_sa *child_cpu(struct net *n, int who, int32_t cpu)
{
	for (struct child_sa *c = n->p[who].e->all->children; c; c = c->next)
		if (c->cpu == cpu && c->state != CHILD_REPLACED)
			return c;
	return NULL;
}

static bool rekeyed_both(struct net *n)
{
	return children_up(n) && log_has("Child SA rekeyed") &&
	       log_has("Child SA deleted");
}

static bool fallback_gone(struct net *n)
{
	return children_up(n) && !child_cpu(n, WEST, -1) &&
	       !child_cpu(n, EAST, -1);
}

/*
 * A clone rekeys as any Child SA and keeps its CPU id; when the fallback
 * goes, a clone keeps the policies (no traffic in the clear).
 */
static void test_clone_life(void **state)
{
	struct net *n = up("4", "\tclones=2\n", NULL);
	struct kdump w;
	const struct ikb_sa *sa;

	want_children = 3;
	assert_true(net_run(n, children_up, 10000));
	kernel_dump(n, WEST, &w);
	sa = kdump_spi(&w, child_cpu(n, WEST, 1)->spi_out);
	assert_non_null(sa);
	assert_int_equal(sa->cpu, 1);
	log_reset();
	kernel_expire(n, WEST, sa, false);
	assert_true(net_run(n, rekeyed_both, 10000));
	assert_int_equal(cpu_set(n, WEST), (1u << 31) | 3);
	assert_int_equal(cpu_set(n, EAST), (1u << 31) | 3);
	assert_kernel(n, WEST, 3);
	assert_kernel(n, EAST, 3);

	/* west deletes the fallback, as `ikebana down` of one SA would */
	task_want_child(n->p[WEST].e->all, child_cpu(n, WEST, -1),
			TASK_DELETE_CHILD);
	tasks_schedule(n->p[WEST].e->all);
	want_children = 2;
	assert_true(net_run(n, fallback_gone, 10000));
	kernel_dump(n, WEST, &w);
	assert_int_equal(w.nsa, 4);
	assert_in_range(w.npol, 2, 3);
	kernel_dump(n, EAST, &w);
	assert_int_equal(w.nsa, 4);
	assert_in_range(w.npol, 2, 3);
	net_free(n);
}

static bool acquired_up(struct net *n)
{
	return children_up(n) && child_cpu(n, WEST, 1) && child_cpu(n, EAST, 1);
}

/*
 * The kernel's ACQUIRE for a CPU without its SA (a clone the peer
 * deleted): its clone again, with the fallback's reqid. One beyond
 * clones= is noted only.
 */
static void test_acquire(void **state)
{
	struct net *n = up("4", "\tclones=2\n", NULL);
	uint32_t reqid;

	want_children = 3;
	assert_true(net_run(n, children_up, 10000));
	reqid = child_cpu(n, WEST, -1)->reqid;
	task_want_child(n->p[EAST].e->all, child_cpu(n, EAST, 1),
			TASK_DELETE_CHILD);
	tasks_schedule(n->p[EAST].e->all);
	want_children = 2;
	assert_true(net_run(n, children_up, 10000));
	assert_null(child_cpu(n, WEST, 1));

	kernel_acquire(n, WEST, reqid, 7); /* beyond clones=2 */
	kernel_acquire(n, WEST, reqid, 1);
	kernel_acquire(n, WEST, reqid, 1); /* again: queued once */
	want_children = 3;
	assert_true(net_run(n, acquired_up, 10000));
	assert_true(log_has("kernel: ACQUIRE for CPU 1: negotiating"));
	assert_int_equal(child_cpu(n, WEST, 1)->reqid, reqid);
	assert_int_equal(cpu_set(n, WEST), (1u << 31) | 3);
	assert_int_equal(cpu_set(n, EAST), (1u << 31) | 3);
	assert_kernel(n, WEST, 3);
	assert_kernel(n, EAST, 3);
	net_free(n);
}

static bool east_has_fallback(struct net *n)
{
	return child_count(n, EAST) == 1;
}

/* who has no exchange in flight, no ACQUIRE queued, no clone planned */
static bool idle(struct net *n, int who)
{
	const struct ike_sa *sa = n->p[who].e->all;

	for (unsigned i = 0; i < IKB_CHILD_PLAN_MAX / 64; i++)
		if (sa->pcpu_acq[i])
			return false;
	return !sa->x && sa->plan_next >= sa->plan_n;
}

static bool race_settled(struct net *n)
{
	return children_up(n) && idle(n, WEST) && idle(n, EAST) &&
	       log_has("negotiating its Child SA") &&
	       (log_has("answered TS_MAX_QUEUE") ||
		log_has("got the peer's clone meanwhile"));
}

/*
 * East's kernel asks for CPU 0's clone as soon as the fallback is up,
 * while west's plan asks for the same: both requests cross. With one
 * CPU id, one of them is refused; with two, the later lands on CPU 1.
 * Never two SAs for one CPU.
 */
static void race(const char *cpus, unsigned nchild, uint32_t set)
{
	struct net *n = up(cpus, "\tclones=2\n", NULL);

	assert_true(net_run(n, east_has_fallback, 10000));
	kernel_acquire(n, EAST, child_cpu(n, EAST, -1)->reqid, 0);
	want_children = nchild;
	assert_true(net_run(n, race_settled, 10000));
	assert_int_equal(child_count(n, WEST), nchild);
	assert_int_equal(child_count(n, EAST), nchild);
	assert_int_equal(cpu_set(n, WEST), set);
	assert_int_equal(cpu_set(n, EAST), set);
	assert_kernel(n, WEST, nchild);
	assert_kernel(n, EAST, nchild);
	assert_false(log_has("Child SA refused by the peer"));
	net_free(n);
}

static void test_acquire_race_one(void **state)
{
	race("1", 2, (1u << 31) | 1);
}

static void test_acquire_race_two(void **state)
{
	race("4", 3, (1u << 31) | 3);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_notify_codec),
		cmocka_unit_test(test_pick),
		cmocka_unit_test(test_clamp),
		cmocka_unit_test_teardown(test_clones, net_cleanup),
		cmocka_unit_test_teardown(test_ts_max_queue, net_cleanup),
		cmocka_unit_test_teardown(test_kernel_clamp, net_cleanup),
		cmocka_unit_test_teardown(test_no_kernel, net_cleanup),
		cmocka_unit_test_teardown(test_peer_without, net_cleanup),
		cmocka_unit_test_teardown(test_clones_from_plan, net_cleanup),
		cmocka_unit_test_teardown(test_clone_life, net_cleanup),
		cmocka_unit_test_teardown(test_acquire, net_cleanup),
		cmocka_unit_test_teardown(test_acquire_race_one, net_cleanup),
		cmocka_unit_test_teardown(test_acquire_race_two, net_cleanup),
	};

	harness_global_init();
	return cmocka_run_group_tests(tests, NULL, NULL);
}
