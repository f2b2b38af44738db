// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Whether the kernel takes per-CPU SAs (RFC 9611), and for which CPU ids.
 *
 * Detection is by release number (6.13 or later), not by installing an SA
 * and reading it back. Both see the same thing on the kernels we meet:
 * before 6.13 xfrm_user parses attributes liberally and drops
 * XFRMA_SA_PCPU without an error, so only a probe SA that is read back
 * could tell, at the price of an SA in the kernel, two more round trips
 * and a failure mode of its own at every start. A distribution kernel
 * that backports the feature to an older number is told apart by neither
 * cheaply; it gets one SA and the log line says why.
 *
 * The kernel refuses a CPU id at or above num_possible_cpus(), which is
 * the weight of /sys/devices/system/cpu/possible (UML: NR_CPUS=1, "0").
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>
#include <libmnl/libmnl.h>

#include "xfrm.h"

#define POSSIBLE "/sys/devices/system/cpu/possible"

/* "6.13.0-rc1", "7.2.0-1-um": the first two numbers. */
static int release_ge(const char *rel, unsigned major, unsigned minor)
{
	unsigned a = 0, b = 0;

	if (sscanf(rel, "%u.%u", &a, &b) != 2)
		return -1;
	return a > major || (a == major && b >= minor);
}

/* A cpulist ("0", "0-3", "0-3,8-11"): how many CPUs it names. */
static int cpulist_weight(const char *s, unsigned *n)
{
	unsigned lo, hi;
	char *end;

	*n = 0;
	while (*s && *s != '\n') {
		lo = (unsigned)strtoul(s, &end, 10);
		if (end == s)
			return -1;
		hi = lo;
		s = end;
		if (*s == '-') {
			hi = (unsigned)strtoul(s + 1, &end, 10);
			if (end == s + 1 || hi < lo)
				return -1;
			s = end;
		}
		*n += hi - lo + 1;
		if (*s == ',')
			s++;
		else if (*s && *s != '\n')
			return -1;
	}
	return *n ? 0 : -1;
}

int xfrm_pcpu_parse(const char *release, const char *possible, unsigned *n,
		    struct ikb_error *why)
{
	int ge = release_ge(release, XFRM_PCPU_MAJOR, XFRM_PCPU_MINOR);
	unsigned a = 0, b = 0;

	*n = 0;
	if (ge < 0)
		return ikb_error_set(
			why, EINVAL,
			"kernel release '%s' is not MAJOR.MINOR: no per-CPU SAs",
			release);
	if (!ge) {
		sscanf(release, "%u.%u", &a, &b);
		return ikb_error_set(
			why, EOPNOTSUPP,
			"kernel %u.%u has no per-CPU SAs (needs %u.%u)", a, b,
			XFRM_PCPU_MAJOR, XFRM_PCPU_MINOR);
	}
	if (!possible || cpulist_weight(possible, n))
		return ikb_error_set(
			why, EINVAL,
			"cannot read the possible CPUs from %s ('%s'): no per-CPU SAs",
			POSSIBLE, possible ? possible : "unreadable");
	return 0;
}

int xfrm_pcpu_max(void *state, unsigned *n, struct ikb_error *why)
{
	struct utsname u;
	char line[256] = "";
	FILE *f = fopen(POSSIBLE, "re");
	bool ok = f && fgets(line, sizeof(line), f);

	(void)state;
	if (f)
		fclose(f);
	if (uname(&u)) {
		*n = 0;
		return ikb_error_set(why, errno, "uname: %s", strerror(errno));
	}
	return xfrm_pcpu_parse(u.release, ok ? line : NULL, n, why);
}

bool xfrm_pcpu_out(const struct ikb_sa *sa)
{
	return sa->cpu >= 0 && sa->dir == IKB_DIR_OUT;
}

/*
 * XFRMA_SA_PCPU on outbound SAs only: the kernel uses pcpu_num as a key of
 * the output lookup (xfrm_state_find picks the SA of the sending CPU) and
 * of acquires; input looks SAs up by SPI alone and never reads it.
 * The kernel takes it only with the SA's direction ("SA_PCPU only
 * supported with SA_DIR"), and an SA with direction out must have no
 * replay state at all: window 0 and, with ESN, a zero-length bitmap
 * ("Replay bmp_len should 0 for output SA"), where replay.c gives a
 * direction-less outbound ESN SA the window 1 that kernels before 6.10
 * need. The fallback and inbound SAs go without a direction, as on every
 * kernel before.
 */
int xfrm_pcpu_put(struct nlmsghdr *nlh, struct xfrm_usersa_info *p,
		  const struct ikb_sa *sa, struct ikb_error *err)
{
	struct xfrm_replay_state_esn esn = { 0 };

	if (sa->esn && !sa->replay_window)
		return ikb_error_set(
			err, EINVAL,
			"ESN needs a replay window: the kernel refuses ESN with replay window 0");
	p->replay_window = 0;
	if (sa->esn) {
		p->flags |= XFRM_STATE_ESN;
		mnl_attr_put(nlh, XFRMA_REPLAY_ESN_VAL, sizeof(esn), &esn);
	}
	mnl_attr_put_u8(nlh, XFRMA_SA_DIR, XFRM_SA_DIR_OUT);
	mnl_attr_put_u32(nlh, XFRMA_SA_PCPU, (uint32_t)sa->cpu);
	return 0;
}
