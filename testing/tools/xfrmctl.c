// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * xfrmctl: drives the built kernel-xfrm plugin from the command line, with
 * no IKE and no daemon, so that UML scenarios exercise the real backend.
 * It dlopens the plugin and calls only its ABI (include/ikebana/), through
 * a minimal host of its own: log to stderr and a poll loop for fd watches.
 *
 *   xfrmctl [-p PLUGIN.so] COMMAND [OPTIONS]
 *
 * Exit status: 0, or 1 with the plugin's message (the kernel's own words
 * when it refused) on stderr, or 2 for a usage error.
 */
#include <arpa/inet.h>
#include <dlfcn.h>
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <netinet/in.h>
#include <ikebana/plugin.h>

#include "build-config.h"

/* ---- the host ---------------------------------------------------------- */

struct ikb_watch {
	int fd;
	void (*cb)(int fd, void *arg);
	void *arg;
};

static struct ikb_watch watches[4];
static unsigned nwatches;
static volatile sig_atomic_t stop;

static void host_log(const char *plugin, enum ikb_log_level level,
		     const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static void host_log(const char *plugin, enum ikb_log_level level,
		     const char *fmt, ...)
{
	static const char *const names[] = { "error", "warning", "notice",
					     "info", "debug" };
	va_list ap;

	if (level == IKB_LOG_DEBUG && !getenv("XFRMCTL_DEBUG"))
		return;
	fprintf(stderr, "%s: %s: ", plugin, names[level]);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

static struct ikb_watch *host_fd_watch(int fd, void (*cb)(int fd, void *arg),
				       void *arg)
{
	if (nwatches == sizeof(watches) / sizeof(watches[0]))
		return NULL;
	watches[nwatches] = (struct ikb_watch){ fd, cb, arg };
	return &watches[nwatches++];
}

static void host_fd_unwatch(struct ikb_watch *w)
{
	w->fd = -1;
}

static const struct ikb_host host = {
	IKB_OPS_SIZE(struct ikb_host),
	.log = host_log,
	.fd_watch = host_fd_watch,
	.fd_unwatch = host_fd_unwatch,
};

/* ---- arguments --------------------------------------------------------- */

struct args {
	struct ikb_sa sa;
	struct ikb_policy pol;
	unsigned count, timeout;
};

static int usage_error(const char *fmt, ...)
	__attribute__((format(printf, 1, 2)));
static int usage_error(const char *fmt, ...)
{
	va_list ap;

	fputs("xfrmctl: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return -1;
}

static int parse_addr(const char *s, struct ikb_addr *a)
{
	memset(a, 0, sizeof(*a));
	if (inet_pton(AF_INET, s, a->bytes) == 1)
		a->family = AF_INET;
	else if (inet_pton(AF_INET6, s, a->bytes) == 1)
		a->family = AF_INET6;
	else
		return usage_error("'%s' is not an IPv4 or IPv6 address", s);
	return 0;
}

/* ADDR[/PLEN]: a missing length is the whole address. */
static int parse_prefix(const char *s, struct ikb_addr *a, uint8_t *plen)
{
	char buf[64], *slash;

	snprintf(buf, sizeof(buf), "%s", s);
	slash = strchr(buf, '/');
	if (slash)
		*slash++ = '\0';
	if (parse_addr(buf, a))
		return -1;
	*plen = slash ? (uint8_t)atoi(slash) :
			(a->family == AF_INET ? 32 : 128);
	return 0;
}

static int parse_u32(const char *s, uint32_t *v)
{
	char *end;
	unsigned long long n;

	/* defined on error too: -O3 cannot see that usage_error() is nonzero */
	*v = 0;
	errno = 0;
	n = strtoull(s, &end, 0);
	if (errno || *end || n > UINT32_MAX)
		return usage_error("'%s' is not a number up to 2^32-1", s);
	*v = (uint32_t)n;
	return 0;
}

static int parse_u64(const char *s, uint64_t *v)
{
	char *end;

	errno = 0;
	*v = strtoull(s, &end, 0);
	return errno || *end ? usage_error("'%s' is not a number", s) : 0;
}

static int parse_key(const char *s, struct ikb_alg *a)
{
	size_t n = 0;

	if (strncmp(s, "0x", 2) == 0)
		s += 2;
	if (strlen(s) % 2 || strlen(s) / 2 > IKB_KEY_MAX)
		return usage_error(
			"key: an even number of hex digits, at most %u bytes",
			IKB_KEY_MAX);
	for (; s[2 * n]; n++)
		if (sscanf(s + 2 * n, "%2hhx", &a->key[n]) != 1)
			return usage_error("key: '%s' is not hex", s);
	a->key_bits = (uint16_t)(n * 8);
	return 0;
}

static int parse_name(const char *s, struct ikb_alg *a)
{
	if (strlen(s) >= sizeof(a->name))
		return usage_error("algorithm name '%s' is too long", s);
	snprintf(a->name, sizeof(a->name), "%s", s);
	return 0;
}

static int parse_dir(const char *s, enum ikb_dir *d)
{
	if (!strcmp(s, "in"))
		*d = IKB_DIR_IN;
	else if (!strcmp(s, "out"))
		*d = IKB_DIR_OUT;
	else if (!strcmp(s, "fwd"))
		*d = IKB_DIR_FWD;
	else
		return usage_error("direction '%s': in, out or fwd", s);
	return 0;
}

static int parse_mode(const char *s, enum ikb_mode *m)
{
	if (!strcmp(s, "transport"))
		*m = IKB_MODE_TRANSPORT;
	else if (!strcmp(s, "tunnel"))
		*m = IKB_MODE_TUNNEL;
	else
		return usage_error("mode '%s': transport or tunnel", s);
	return 0;
}

static int parse_offload(const char *s, enum ikb_offload *o)
{
	static const char *const names[] = { "no", "yes", "crypto", "packet" };

	for (unsigned i = 0; i < 4; i++)
		if (!strcmp(s, names[i])) {
			*o = (enum ikb_offload)i;
			return 0;
		}
	return usage_error("offload '%s': no, yes, crypto or packet", s);
}

static int parse_proto(const char *s, uint8_t *p)
{
	uint32_t v;

	if (!strcmp(s, "tcp"))
		*p = IPPROTO_TCP;
	else if (!strcmp(s, "udp"))
		*p = IPPROTO_UDP;
	else if (!strcmp(s, "icmp"))
		*p = IPPROTO_ICMP;
	else if (parse_u32(s, &v) || v > 255)
		return usage_error("protocol '%s'", s);
	else
		*p = (uint8_t)v;
	return 0;
}

/* V[/M] */
static int parse_mark(const char *s, uint32_t *v, uint32_t *m)
{
	char buf[64], *slash;

	snprintf(buf, sizeof(buf), "%s", s);
	slash = strchr(buf, '/');
	if (slash)
		*slash++ = '\0';
	*m = 0xffffffffu;
	return parse_u32(buf, v) || (slash && parse_u32(slash, m)) ? -1 : 0;
}

static int parse_encap(const char *s, uint16_t *sp, uint16_t *dp)
{
	unsigned a, b;

	if (sscanf(s, "%u:%u", &a, &b) != 2 || a > 65535 || b > 65535)
		return usage_error("encap '%s': SPORT:DPORT", s);
	*sp = (uint16_t)a;
	*dp = (uint16_t)b;
	return 0;
}

enum {
	O_SRC = 256,
	O_DST,
	O_SPI,
	O_REQID,
	O_MODE,
	O_DIR,
	O_AEAD,
	O_KEY,
	O_ICV,
	O_ENC,
	O_ENC_KEY,
	O_AUTH,
	O_AUTH_KEY,
	O_AUTH_TRUNC,
	O_WINDOW,
	O_ESN,
	O_SOFT_BYTES,
	O_HARD_BYTES,
	O_SOFT_PACKETS,
	O_HARD_PACKETS,
	O_SOFT_SECS,
	O_HARD_SECS,
	O_ENCAP,
	O_MARK,
	O_OFFLOAD,
	O_DEV,
	O_PCRYPT,
	O_SEL_SRC,
	O_SEL_DST,
	O_PROTO,
	O_SPORT,
	O_DPORT,
	O_TMPL_SRC,
	O_TMPL_DST,
	O_PRIORITY,
	O_COUNT,
	O_TIMEOUT,
};

static const struct option opts[] = {
	{ "src", 1, 0, O_SRC },
	{ "dst", 1, 0, O_DST },
	{ "spi", 1, 0, O_SPI },
	{ "reqid", 1, 0, O_REQID },
	{ "mode", 1, 0, O_MODE },
	{ "dir", 1, 0, O_DIR },
	{ "aead", 1, 0, O_AEAD },
	{ "key", 1, 0, O_KEY },
	{ "icv", 1, 0, O_ICV },
	{ "enc", 1, 0, O_ENC },
	{ "enc-key", 1, 0, O_ENC_KEY },
	{ "auth", 1, 0, O_AUTH },
	{ "auth-key", 1, 0, O_AUTH_KEY },
	{ "auth-trunc", 1, 0, O_AUTH_TRUNC },
	{ "window", 1, 0, O_WINDOW },
	{ "esn", 0, 0, O_ESN },
	{ "soft-bytes", 1, 0, O_SOFT_BYTES },
	{ "hard-bytes", 1, 0, O_HARD_BYTES },
	{ "soft-packets", 1, 0, O_SOFT_PACKETS },
	{ "hard-packets", 1, 0, O_HARD_PACKETS },
	{ "soft-secs", 1, 0, O_SOFT_SECS },
	{ "hard-secs", 1, 0, O_HARD_SECS },
	{ "encap", 1, 0, O_ENCAP },
	{ "mark", 1, 0, O_MARK },
	{ "offload", 1, 0, O_OFFLOAD },
	{ "dev", 1, 0, O_DEV },
	{ "pcrypt", 0, 0, O_PCRYPT },
	{ "sel-src", 1, 0, O_SEL_SRC },
	{ "sel-dst", 1, 0, O_SEL_DST },
	{ "proto", 1, 0, O_PROTO },
	{ "sport", 1, 0, O_SPORT },
	{ "dport", 1, 0, O_DPORT },
	{ "tmpl-src", 1, 0, O_TMPL_SRC },
	{ "tmpl-dst", 1, 0, O_TMPL_DST },
	{ "priority", 1, 0, O_PRIORITY },
	{ "count", 1, 0, O_COUNT },
	{ "timeout", 1, 0, O_TIMEOUT },
	{ 0, 0, 0, 0 },
};

static int parse_port(const char *s, uint16_t *p)
{
	uint32_t v;

	if (parse_u32(s, &v) || v > 65535)
		return usage_error("port '%s'", s);
	*p = (uint16_t)v;
	return 0;
}

static int parse_opt(struct args *a, int c, const char *v)
{
	struct ikb_sa *sa = &a->sa;
	struct ikb_policy *p = &a->pol;
	uint32_t u;

	switch (c) {
	case O_SRC:
		return parse_prefix(v, &sa->src, &p->sel.src_plen) ?
			       -1 :
			       (p->sel.src = sa->src, 0);
	case O_DST:
		return parse_prefix(v, &sa->dst, &p->sel.dst_plen) ?
			       -1 :
			       (p->sel.dst = sa->dst, 0);
	case O_SPI:
		return parse_u32(v, &sa->spi);
	case O_REQID:
		return parse_u32(v, &sa->reqid) ? -1 :
						  (p->reqid = sa->reqid, 0);
	case O_MODE:
		return parse_mode(v, &sa->mode) ? -1 : (p->mode = sa->mode, 0);
	case O_DIR:
		return parse_dir(v, &sa->dir) ? -1 : (p->dir = sa->dir, 0);
	case O_AEAD:
		return parse_name(v, &sa->aead);
	case O_KEY:
		return parse_key(v, &sa->aead);
	case O_ICV:
		return parse_u32(v, &u) ? -1 :
					  (sa->aead.icv_bits = (uint16_t)u, 0);
	case O_ENC:
		return parse_name(v, &sa->encr);
	case O_ENC_KEY:
		return parse_key(v, &sa->encr);
	case O_AUTH:
		return parse_name(v, &sa->integ);
	case O_AUTH_KEY:
		return parse_key(v, &sa->integ);
	case O_AUTH_TRUNC:
		return parse_u32(v, &u) ? -1 :
					  (sa->integ.icv_bits = (uint16_t)u, 0);
	case O_WINDOW:
		return parse_u32(v, &sa->replay_window);
	case O_ESN:
		sa->esn = true;
		return 0;
	case O_SOFT_BYTES:
		return parse_u64(v, &sa->life.soft_bytes);
	case O_HARD_BYTES:
		return parse_u64(v, &sa->life.hard_bytes);
	case O_SOFT_PACKETS:
		return parse_u64(v, &sa->life.soft_packets);
	case O_HARD_PACKETS:
		return parse_u64(v, &sa->life.hard_packets);
	case O_SOFT_SECS:
		return parse_u64(v, &sa->life.soft_add_secs);
	case O_HARD_SECS:
		return parse_u64(v, &sa->life.hard_add_secs);
	case O_ENCAP:
		return parse_encap(v, &sa->encap_sport, &sa->encap_dport);
	case O_MARK:
		return parse_mark(v, &sa->mark, &sa->mark_mask) ?
			       -1 :
			       (p->mark = sa->mark,
				p->mark_mask = sa->mark_mask, 0);
	case O_OFFLOAD:
		return parse_offload(v, &sa->offload);
	case O_DEV:
		snprintf(sa->offload_dev, sizeof(sa->offload_dev), "%s", v);
		return 0;
	case O_PCRYPT:
		sa->pcrypt = true;
		return 0;
	case O_SEL_SRC:
		return parse_prefix(v, &sa->sel.src, &sa->sel.src_plen);
	case O_SEL_DST:
		return parse_prefix(v, &sa->sel.dst, &sa->sel.dst_plen);
	case O_PROTO:
		return parse_proto(v, &p->sel.proto) ?
			       -1 :
			       (sa->sel.proto = p->sel.proto, 0);
	case O_SPORT:
		return parse_port(v, &p->sel.sport) ?
			       -1 :
			       (sa->sel.sport = p->sel.sport, 0);
	case O_DPORT:
		return parse_port(v, &p->sel.dport) ?
			       -1 :
			       (sa->sel.dport = p->sel.dport, 0);
	case O_TMPL_SRC:
		return parse_addr(v, &p->tmpl_src);
	case O_TMPL_DST:
		return parse_addr(v, &p->tmpl_dst);
	case O_PRIORITY:
		return parse_u32(v, &p->priority);
	case O_COUNT:
		return parse_u32(v, &a->count);
	case O_TIMEOUT:
		return parse_u32(v, &a->timeout);
	}
	return usage_error("unknown option (see xfrmctl help)");
}

static int parse_args(struct args *a, int argc, char **argv)
{
	int c;

	*a = (struct args){
		.sa = { .proto = IPPROTO_ESP, .cpu = -1, .dir = IKB_DIR_OUT },
		.pol = { .proto = IPPROTO_ESP, .dir = IKB_DIR_OUT },
		.timeout = 30
	};
	optind = 1;
	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1)
		if (c == '?' || parse_opt(a, c, optarg))
			return -1;
	if (optind != argc)
		return usage_error("unexpected '%s'", argv[optind]);
	return 0;
}

/* ---- commands ---------------------------------------------------------- */

static const struct ikb_plugin *plug;
static void *pstate;

static int failed(const char *what, int rc, const struct ikb_error *err)
{
	fprintf(stderr, "xfrmctl: %s: %s\n", what,
		err->msg[0] ? err->msg : strerror(-rc));
	return 1;
}

static int need(const struct ikb_addr *a, const char *opt)
{
	if (a->family == AF_UNSPEC)
		return usage_error("%s is required", opt);
	return 0;
}

static int cmd_sa(struct args *a, bool update)
{
	struct ikb_error err = { "" };
	int rc;

	if (need(&a->sa.src, "--src") || need(&a->sa.dst, "--dst"))
		return 2;
	rc = update ? plug->kernel->sa_update(pstate, &a->sa, &err) :
		      plug->kernel->sa_add(pstate, &a->sa, &err);
	return rc ? failed(update ? "sa-update" : "sa-add", rc, &err) : 0;
}

static int cmd_sa_add(struct args *a)
{
	return cmd_sa(a, false);
}

static int cmd_sa_update(struct args *a)
{
	return cmd_sa(a, true);
}

static int cmd_sa_del(struct args *a)
{
	struct ikb_error err = { "" };
	int rc;

	if (need(&a->sa.dst, "--dst"))
		return 2;
	rc = plug->kernel->sa_del(pstate, &a->sa.dst, a->sa.spi, a->sa.proto,
				  &err);
	return rc ? failed("sa-del", rc, &err) : 0;
}

static int cmd_sa_query(struct args *a)
{
	struct ikb_error err = { "" };
	struct ikb_sa_counters c;
	int rc;

	if (need(&a->sa.dst, "--dst"))
		return 2;
	rc = plug->kernel->sa_query(pstate, &a->sa.dst, a->sa.spi, a->sa.proto,
				    &c, &err);
	if (rc)
		return failed("sa-query", rc, &err);
	printf("bytes=%" PRIu64 " packets=%" PRIu64 " add_time=%" PRIu64
	       " use_time=%" PRIu64 " replay_fail=%u integrity_fail=%u\n",
	       c.bytes, c.packets, c.add_time, c.use_time, c.replay_fail,
	       c.integrity_fail);
	return 0;
}

static int cmd_spi_alloc(struct args *a)
{
	struct ikb_error err = { "" };
	uint32_t spi;
	int rc;

	if (need(&a->sa.src, "--src") || need(&a->sa.dst, "--dst"))
		return 2;
	rc = plug->kernel->spi_alloc(pstate, &a->sa.src, &a->sa.dst,
				     a->sa.proto, a->sa.reqid, &spi, &err);
	if (rc)
		return failed("spi-alloc", rc, &err);
	printf("0x%08x\n", spi);
	return 0;
}

static int cmd_policy(struct args *a, bool del)
{
	struct ikb_error err = { "" };
	int rc;

	if (need(&a->pol.sel.src, "--src") || need(&a->pol.sel.dst, "--dst"))
		return 2;
	rc = del ? plug->kernel->policy_del(pstate, &a->pol, &err) :
		   plug->kernel->policy_add(pstate, &a->pol, &err);
	return rc ? failed(del ? "policy-del" : "policy-add", rc, &err) : 0;
}

static int cmd_policy_add(struct args *a)
{
	return cmd_policy(a, false);
}

static int cmd_policy_del(struct args *a)
{
	return cmd_policy(a, true);
}

static const char *addr_str(const struct ikb_addr *a, char *buf)
{
	if (a->family == AF_UNSPEC)
		return "any";
	return inet_ntop(a->family, a->bytes, buf, INET6_ADDRSTRLEN);
}

static unsigned nevents;

static void on_event(void *ctx, const struct ikb_kernel_event *ev)
{
	static const char *const types[] = { "ACQUIRE", "EXPIRE", "POLEXPIRE" };
	char d[INET6_ADDRSTRLEN], s[INET6_ADDRSTRLEN], t[INET6_ADDRSTRLEN];

	printf("%s%s dst=%s spi=0x%08x proto=%u reqid=%u sel=%s/%u->%s/%u\n",
	       types[ev->type],
	       ev->type == IKB_KEV_ACQUIRE ? "" :
	       ev->hard			   ? " hard" :
					     " soft",
	       addr_str(&ev->dst, d), ev->spi, ev->proto, ev->reqid,
	       addr_str(&ev->sel.src, s), ev->sel.src_plen,
	       addr_str(&ev->sel.dst, t), ev->sel.dst_plen);
	fflush(stdout);
	nevents++;
}

static void on_signal(int sig)
{
	stop = 1;
}

/* Subscribing takes charge: leftovers are flushed now, ours at exit. */
static int cmd_watch(struct args *a)
{
	struct ikb_error err = { "" };
	time_t end = time(NULL) + a->timeout;
	struct pollfd pfd;
	int rc;

	signal(SIGTERM, on_signal);
	signal(SIGINT, on_signal);
	rc = plug->kernel->events_subscribe(pstate, on_event, NULL, &err);
	if (rc)
		return failed("watch", rc, &err);
	printf("watching\n");
	fflush(stdout);
	while (!stop && time(NULL) < end && (!a->count || nevents < a->count)) {
		pfd = (struct pollfd){ .fd = watches[0].fd, .events = POLLIN };
		if (poll(&pfd, 1, 200) > 0 && watches[0].fd >= 0)
			watches[0].cb(watches[0].fd, watches[0].arg);
	}
	return a->count && nevents < a->count ? 1 : 0;
}

static int cmd_flush_own(struct args *a)
{
	struct ikb_error err = { "" };
	int rc = plug->kernel->events_subscribe(pstate, on_event, NULL, &err);

	return rc ? failed("flush-own", rc, &err) : 0;
}

static void print_sa(void *ctx, const struct ikb_sa *sa)
{
	char s[INET6_ADDRSTRLEN], d[INET6_ADDRSTRLEN];

	printf("sa src=%s dst=%s spi=0x%08x reqid=%u mode=%s replay=%u esn=%d alg=%s%s%s",
	       addr_str(&sa->src, s), addr_str(&sa->dst, d), sa->spi, sa->reqid,
	       sa->mode == IKB_MODE_TUNNEL ? "tunnel" : "transport",
	       sa->replay_window, sa->esn,
	       sa->aead.name[0] ? sa->aead.name : sa->encr.name,
	       sa->integ.name[0] ? "+" : "", sa->integ.name);
	/* RFC 9611: iproute2 before 6.13 cannot show it */
	if (sa->cpu >= 0)
		printf(" cpu=%d", (int)sa->cpu);
	printf("\n");
}

static void print_pol(void *ctx, const struct ikb_policy *p)
{
	static const char *const dirs[] = { "in", "out", "fwd" };
	char s[INET6_ADDRSTRLEN], d[INET6_ADDRSTRLEN];

	printf("policy %s/%u -> %s/%u dir=%s priority=%u reqid=%u mode=%s%s\n",
	       addr_str(&p->sel.src, s), p->sel.src_plen,
	       addr_str(&p->sel.dst, d), p->sel.dst_plen, dirs[p->dir],
	       p->priority, p->reqid,
	       p->mode == IKB_MODE_TUNNEL ? "tunnel" : "transport",
	       p->cpu_acquire ? " cpu-acquire" : "");
}

static int cmd_dump(struct args *a)
{
	int rc = plug->kernel->dump(pstate, print_sa, print_pol, NULL);

	if (rc)
		fprintf(stderr, "xfrmctl: dump: %s\n", strerror(-rc));
	return rc ? 1 : 0;
}

static int cmd_help(struct args *a);

static const struct {
	const char *name;
	int (*fn)(struct args *a);
	const char *help;
} cmds[] = {
	{ "sa-add", cmd_sa_add,
	  "--src A --dst B --spi N [--dir in|out] [--mode M] [--reqid N] (--aead NAME --key HEX --icv BITS | --enc NAME --enc-key HEX [--auth NAME --auth-key HEX --auth-trunc BITS]) [--window N] [--esn] [--soft-bytes N ...] [--encap SP:DP] [--mark V[/M]] [--offload MODE [--dev IF]] [--pcrypt] [--sel-src P --sel-dst P]" },
	{ "sa-update", cmd_sa_update,
	  "as sa-add, fills a larval SA from spi-alloc" },
	{ "sa-del", cmd_sa_del, "--dst B --spi N" },
	{ "sa-query", cmd_sa_query, "--dst B --spi N: prints the counters" },
	{ "spi-alloc", cmd_spi_alloc,
	  "--src A --dst B [--reqid N]: prints the SPI" },
	{ "policy-add", cmd_policy_add,
	  "--src P --dst P --dir in|out|fwd [--proto X --sport N --dport N] [--mode tunnel --tmpl-src A --tmpl-dst B] [--reqid N] [--priority N] [--mark V[/M]]" },
	{ "policy-del", cmd_policy_del,
	  "--src P --dst P --dir D [--proto ...] [--mark V[/M]]" },
	{ "watch", cmd_watch,
	  "[--count N] [--timeout S]: prints events; flushes ours at start and exit" },
	{ "flush-own", cmd_flush_own,
	  "removes every SA and policy that kernel-xfrm owns" },
	{ "dump", cmd_dump,
	  "lists the SAs and policies that kernel-xfrm owns" },
	{ "help", cmd_help, "this text" },
};

static int cmd_help(struct args *a)
{
	printf("usage: xfrmctl [-p PLUGIN] COMMAND [OPTIONS]\n");
	for (size_t i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++)
		printf("  %-11s %s\n", cmds[i].name, cmds[i].help);
	return 0;
}

int main(int argc, char **argv)
{
	const char *path = IKB_BUILD_ROOT "/plugins/kernel-xfrm/kernel-xfrm.so";
	struct args a;
	void *h;
	int rc;

	if (argc > 2 && !strcmp(argv[1], "-p")) {
		path = argv[2];
		argv += 2;
		argc -= 2;
	}
	if (argc < 2)
		return cmd_help(NULL), 2;
	for (size_t i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++) {
		if (strcmp(argv[1], cmds[i].name))
			continue;
		if (parse_args(&a, argc - 1, argv + 1))
			return 2;
		h = dlopen(path, RTLD_NOW);
		plug = h ? dlsym(h, IKB_PLUGIN_SYMBOL) : NULL;
		if (!plug || plug->abi != IKB_PLUGIN_ABI || !plug->kernel) {
			fprintf(stderr, "xfrmctl: %s: %s\n", path,
				h ? "not a kernel plugin of this ABI" :
				    dlerror());
			return 1;
		}
		if (plug->init(&host, &pstate))
			return 1;
		rc = cmds[i].fn(&a);
		plug->fini(pstate);
		dlclose(h);
		return rc;
	}
	usage_error("unknown command '%s'", argv[1]);
	return 2;
}
