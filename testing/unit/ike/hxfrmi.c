// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The fake XFRM interfaces of both peers (ike_io's xfrmi_add and
 * xfrmi_del): a table of the devices that exist, so that a test sees what
 * the engine made and deleted, and can put a device there beforehand.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "harness.h"

#define HXFRMI_MAX 8

static struct {
	int who;
	char name[16];
	uint32_t if_id;
	bool used;
} devs[HXFRMI_MAX];
unsigned hxfrmi_adds, hxfrmi_dels;

static int find(int who, const char *name)
{
	for (int i = 0; i < HXFRMI_MAX; i++)
		if (devs[i].used && devs[i].who == who &&
		    !strcmp(devs[i].name, name))
			return i;
	return -1;
}

static int put(int who, const char *name, uint32_t if_id)
{
	for (int i = 0; i < HXFRMI_MAX; i++)
		if (!devs[i].used) {
			devs[i].used = true;
			devs[i].who = who;
			devs[i].if_id = if_id;
			snprintf(devs[i].name, sizeof(devs[i].name), "%s",
				 name);
			return 0;
		}
	return -ENOSPC;
}

void hxfrmi_reset(void)
{
	memset(devs, 0, sizeof(devs));
	hxfrmi_adds = hxfrmi_dels = 0;
}

bool hxfrmi_has(int who, const char *name, uint32_t *if_id)
{
	int i = find(who, name);

	if (i >= 0 && if_id)
		*if_id = devs[i].if_id;
	return i >= 0;
}

void hxfrmi_foreign(int who, const char *name, uint32_t if_id)
{
	put(who, name, if_id);
}

int hxfrmi_add(void *ctx, const char *name, uint32_t if_id,
	       const struct ikb_addr *local, bool *created,
	       struct ikb_error *err)
{
	struct hpeer *me = ctx;
	int i = find(me->idx, name);

	*created = false;
	if (i >= 0 && devs[i].if_id != if_id)
		return ikb_error_set(err, EEXIST, "%s exists, another if_id",
				     name);
	if (i >= 0)
		return 0;
	/* the device goes on the conn's local address's device */
	if (local->family != AF_INET || memcmp(local->bytes, me->addr.bytes, 4))
		return ikb_error_set(err, EINVAL, "not our address");
	hxfrmi_adds++;
	*created = true;
	return put(me->idx, name, if_id);
}

int hxfrmi_del(void *ctx, const char *name, struct ikb_error *err)
{
	struct hpeer *me = ctx;
	int i = find(me->idx, name);

	if (i < 0)
		return ikb_error_set(err, ENODEV, "no %s", name);
	devs[i].used = false;
	hxfrmi_dels++;
	return 0;
}
