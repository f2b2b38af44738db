// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The fake XFRM interfaces of both peers (ike_io's xfrmi_add and
 * xfrmi_del): a table of the devices that exist, so that a test sees what
 * the engine made and deleted, and can put a device there beforehand;
 * and the interface-ip= addresses on them (ifip_add, ifip_del).
 */
#include <arpa/inet.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "harness.h"

#define HXFRMI_MAX 8

#define HXFRMI_IPS 8

static struct {
	int who;
	char name[16];
	uint32_t if_id;
	bool used;
	char ips[HXFRMI_IPS][64]; /* "ADDR/PLEN", "" free */
} devs[HXFRMI_MAX];
unsigned hxfrmi_adds, hxfrmi_dels, hxfrmi_ip_adds, hxfrmi_ip_dels;

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
			memset(&devs[i], 0, sizeof(devs[i]));
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
	hxfrmi_adds = hxfrmi_dels = hxfrmi_ip_adds = hxfrmi_ip_dels = 0;
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
	       const struct ikb_addr *local, bool create, bool *created,
	       struct ikb_error *err)
{
	struct hpeer *me = ctx;
	int i = find(me->idx, name);

	*created = false;
	if (i < 0 && !create)
		return ikb_error_set(err, ENODEV, "no %s (unmanaged)", name);
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

/* The slot of cidr on who's name; -1: none. */
static int ip_slot(int d, const char *cidr)
{
	for (int j = 0; d >= 0 && j < HXFRMI_IPS; j++)
		if (!strcmp(devs[d].ips[j], cidr))
			return j;
	return -1;
}

static void ip_text(const struct ikb_addr *a, uint8_t plen, char *buf,
		    size_t len)
{
	char s[INET6_ADDRSTRLEN] = "?";

	inet_ntop(a->family, a->bytes, s, sizeof(s));
	snprintf(buf, len, "%s/%u", s, plen);
}

bool hxfrmi_has_ip(int who, const char *name, const char *cidr)
{
	return ip_slot(find(who, name), cidr) >= 0;
}

void hxfrmi_ip_foreign(int who, const char *name, const char *cidr)
{
	int d = find(who, name), j = ip_slot(d, "");

	if (j >= 0)
		snprintf(devs[d].ips[j], sizeof(devs[d].ips[j]), "%s", cidr);
}

int hxfrmi_ip_add(void *ctx, const char *name, const struct ikb_addr *a,
		  uint8_t plen, bool *added, struct ikb_error *err)
{
	struct hpeer *me = ctx;
	int d = find(me->idx, name), j;
	char cidr[64];

	*added = false;
	if (d < 0)
		return ikb_error_set(err, ENODEV, "no %s", name);
	ip_text(a, plen, cidr, sizeof(cidr));
	if (ip_slot(d, cidr) >= 0)
		return 0;
	j = ip_slot(d, "");
	if (j < 0)
		return ikb_error_set(err, ENOSPC, "%s: no room", name);
	snprintf(devs[d].ips[j], sizeof(devs[d].ips[j]), "%s", cidr);
	hxfrmi_ip_adds++;
	*added = true;
	return 0;
}

int hxfrmi_ip_del(void *ctx, const char *name, const struct ikb_addr *a,
		  uint8_t plen, struct ikb_error *err)
{
	struct hpeer *me = ctx;
	int d = find(me->idx, name), j;
	char cidr[64];

	ip_text(a, plen, cidr, sizeof(cidr));
	j = ip_slot(d, cidr);
	if (j < 0)
		return ikb_error_set(err, EADDRNOTAVAIL, "%s: no %s", name,
				     cidr);
	devs[d].ips[j][0] = '\0';
	hxfrmi_ip_dels++;
	return 0;
}
