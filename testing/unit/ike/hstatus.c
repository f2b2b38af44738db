// SPDX-License-Identifier: GPL-2.0-or-later
/* What the tests read: engine status JSON and the kernel-mem tables. */
#include <arpa/inet.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>
#include <json-c/json.h>

#include "harness.h"
#include "kernel_mem.h"

static struct json_object *sas_of(struct net *n, int who,
				  struct json_object **root)
{
	struct json_object *sas;

	*root = ike_engine_status(n->p[who].e);
	assert_non_null(*root);
	assert_true(json_object_object_get_ex(*root, "ike_sas", &sas));
	return sas;
}

static const char *get(struct json_object *o, const char *key)
{
	struct json_object *v;

	return json_object_object_get_ex(o, key, &v) ?
		       json_object_get_string(v) :
		       NULL;
}

unsigned ike_sa_count(struct net *n, int who, const char *state)
{
	struct json_object *root, *sas = sas_of(n, who, &root);
	unsigned c = 0;

	for (size_t i = 0; i < json_object_array_length(sas); i++) {
		const char *st =
			get(json_object_array_get_idx(sas, i), "state");

		if (!state || (st && !strcmp(st, state)))
			c++;
	}
	json_object_put(root);
	return c;
}

unsigned child_count(struct net *n, int who)
{
	struct json_object *root, *sas = sas_of(n, who, &root), *kids;
	unsigned c = 0;

	for (size_t i = 0; i < json_object_array_length(sas); i++)
		if (json_object_object_get_ex(json_object_array_get_idx(sas, i),
					      "child_sas", &kids))
			c += (unsigned)json_object_array_length(kids);
	json_object_put(root);
	return c;
}

bool both_up(struct net *n)
{
	return ike_sa_count(n, WEST, "established") == 1 &&
	       ike_sa_count(n, EAST, "established") == 1 &&
	       child_count(n, WEST) == 1 && child_count(n, EAST) == 1;
}

const char *status_str(struct net *n, int who, bool child, const char *key,
		       char *buf, size_t len)
{
	struct json_object *root, *sas = sas_of(n, who, &root), *o, *kids;
	const char *v = NULL;

	buf[0] = '\0';
	o = json_object_array_get_idx(sas, 0);
	if (o && child && json_object_object_get_ex(o, "child_sas", &kids))
		o = json_object_array_get_idx(kids, 0);
	else if (child)
		o = NULL;
	if (o)
		v = get(o, key);
	snprintf(buf, len, "%s", v ? v : "");
	json_object_put(root);
	return buf;
}

static void on_sa(void *ctx, const struct ikb_sa *sa)
{
	struct kdump *d = ctx;

	if (d->nsa < KDUMP_MAX)
		d->sa[d->nsa++] = *sa;
}

static void on_pol(void *ctx, const struct ikb_policy *p)
{
	struct kdump *d = ctx;

	if (d->npol < KDUMP_MAX)
		d->pol[d->npol++] = *p;
}

void kernel_dump(struct net *n, int who, struct kdump *d)
{
	void *st;
	const struct ikb_kernel_ops *k =
		plugin_set_kernel(n->p[who].lc.plugins, &st);

	memset(d, 0, sizeof(*d));
	assert_non_null(k);
	assert_int_equal(k->dump(st, on_sa, on_pol, d), 0);
}

const struct ikb_sa *kdump_sa(const struct kdump *d, enum ikb_dir dir)
{
	for (unsigned i = 0; i < d->nsa; i++)
		if (d->sa[i].dir == dir)
			return &d->sa[i];
	return NULL;
}

const struct ikb_sa *kdump_spi(const struct kdump *d, uint32_t spi)
{
	for (unsigned i = 0; i < d->nsa; i++)
		if (d->sa[i].spi == spi)
			return &d->sa[i];
	return NULL;
}

unsigned kdump_count(const struct kdump *d, enum ikb_dir dir)
{
	unsigned c = 0;

	for (unsigned i = 0; i < d->nsa; i++)
		c += d->sa[i].dir == dir;
	return c;
}

void kernel_expire(struct net *n, int who, const struct ikb_sa *sa, bool hard)
{
	void *st;
	ikb_kernel_mem_inject_fn inject =
		(ikb_kernel_mem_inject_fn)plugin_set_symbol(
			n->p[who].lc.plugins, "kernel-mem",
			IKB_KERNEL_MEM_INJECT);
	struct ikb_kernel_event ev = {
		.type = IKB_KEV_EXPIRE,
		.hard = hard,
		.sel = sa->sel,
		.dst = sa->dst,
		.spi = sa->spi,
		.proto = sa->proto,
		.reqid = sa->reqid,
		.cpu = sa->cpu,
	};

	assert_non_null(inject);
	assert_non_null(plugin_set_kernel(n->p[who].lc.plugins, &st));
	assert_int_equal(inject(st, &ev), 0);
}

void kernel_mapping(struct net *n, int who, const struct ikb_sa *in,
		    const char *addr, uint16_t port)
{
	void *st;
	ikb_kernel_mem_inject_fn inject =
		(ikb_kernel_mem_inject_fn)plugin_set_symbol(
			n->p[who].lc.plugins, "kernel-mem",
			IKB_KERNEL_MEM_INJECT);
	struct ikb_kernel_event ev = {
		.type = IKB_KEV_MAPPING,
		.dst = in->dst,
		.spi = in->spi,
		.proto = in->proto,
		.reqid = in->reqid,
		.cpu = -1,
		.new_addr.family = AF_INET,
		.new_port = port,
	};

	assert_int_equal(inet_pton(AF_INET, addr, ev.new_addr.bytes), 1);
	assert_non_null(inject);
	assert_non_null(plugin_set_kernel(n->p[who].lc.plugins, &st));
	assert_int_equal(inject(st, &ev), 0);
}

void kernel_acquire(struct net *n, int who, uint32_t reqid, int32_t cpu)
{
	kernel_acquire_sel(n, who, reqid, cpu, NULL);
}

void kernel_acquire_sel(struct net *n, int who, uint32_t reqid, int32_t cpu,
			const struct ikb_selector *sel)
{
	void *st;
	ikb_kernel_mem_inject_fn inject =
		(ikb_kernel_mem_inject_fn)plugin_set_symbol(
			n->p[who].lc.plugins, "kernel-mem",
			IKB_KERNEL_MEM_INJECT);
	struct ikb_kernel_event ev = {
		.type = IKB_KEV_ACQUIRE,
		.proto = 50,
		.reqid = reqid,
		.cpu = cpu,
	};

	if (sel)
		ev.sel = *sel;
	assert_non_null(inject);
	assert_non_null(plugin_set_kernel(n->p[who].lc.plugins, &st));
	assert_int_equal(inject(st, &ev), 0);
}

static void *mem_symbol(struct net *n, int who, const char *name, void **st)
{
	void *fn = plugin_set_symbol(n->p[who].lc.plugins, "kernel-mem", name);

	assert_non_null(fn);
	assert_non_null(plugin_set_kernel(n->p[who].lc.plugins, st));
	return fn;
}

void kernel_refuse(struct net *n, int who, const char *op, unsigned after,
		   int errnum, const char *msg)
{
	void *st;
	ikb_kernel_mem_refuse_fn refuse = (ikb_kernel_mem_refuse_fn)mem_symbol(
		n, who, IKB_KERNEL_MEM_REFUSE, &st);

	assert_int_equal(refuse(st, op, after, errnum, msg), 0);
}

unsigned kernel_larval(struct net *n, int who)
{
	void *st;
	ikb_kernel_mem_larval_fn larval = (ikb_kernel_mem_larval_fn)mem_symbol(
		n, who, IKB_KERNEL_MEM_LARVAL, &st);

	return larval(st);
}

unsigned kernel_objects(struct net *n, int who)
{
	struct kdump d;

	kernel_dump(n, who, &d);
	return d.nsa + d.npol + kernel_larval(n, who);
}
