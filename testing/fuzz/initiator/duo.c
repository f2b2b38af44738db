// SPDX-License-Identifier: GPL-2.0-or-later
/* The initiator target's two engines; see duo.h. */
#include <arpa/inet.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <event2/event.h>

#include "config/diag.h"
#include "files.h"
#include "duo.h"
#include "ike/child/child.h"
#include "ike/engine.h"
#include "ike/ike_sa.h"
#include "ike/msg/msg.h"
#include "ike/exchange/exchange.h"

static const char *const pfs[DUO_CONFS] = { "yes", "no" };

struct duo_dgram {
	struct duo_dgram *next;
	int to;
	uint16_t sport, dport;
	size_t len;
	uint8_t buf[];
};

struct duo_ctx {
	struct duo *d;
	int me;
} ctx[2];

static void load(struct loaded_conf *lc, int me, unsigned conf)
{
	char dir[] = "/tmp/ikb-fuzz-duo-XXXXXX", cf[64], sf[64], text[1024];
	struct conf_load_opts o = { 0 };
	struct ikb_diag diag;

	if (!mkdtemp(dir))
		abort();
	snprintf(cf, sizeof(cf), "%s/ikebana.conf", dir);
	snprintf(sf, sizeof(sf), "%s/ikebana.secrets", dir);
	/* x25519 and AES-GCM: the cheapest keys, so that more runs go deep */
	snprintf(
		text, sizeof(text),
		"config setup\n"
		"\tplugins=\"esp-proposals replay-window multi-sa kernel-mem\"\n"
		"conn test\n"
		"\tleft=192.0.2.%d\n\tright=192.0.2.%d\n"
		"\tleftid=@%s\n\trightid=@%s\n\tauthby=secret\n"
		"\tleftsubnet=10.0.%d.0/24\n\trightsubnet=10.0.%d.0/24\n"
		"\tike=aes128gcm16-sha256-x25519\n"
		"\tesp=aes128gcm16-x25519\n\tpfs=%s\n"
		"\tfragmentation=yes\n\tmobike=yes\n\tauto=add\n",
		me + 1, 2 - me, me ? "east" : "west", me ? "west" : "east",
		me + 1, 2 - me, pfs[conf]);
	fuzz_write_file(cf, text);
	fuzz_write_file(sf, "@west @east : PSK \"secret\"\n");
	o.config = cf;
	o.secrets = sf;
	diag_init(&diag);
	if (conf_load(&o, lc, &diag)) {
		diag_print(&diag, stderr);
		abort();
	}
	diag_free(&diag);
	unlink(cf);
	unlink(sf);
	rmdir(dir);
}

static int io_send(void *c, const struct ike_path *p, const uint8_t *buf,
		   size_t len)
{
	struct duo_ctx *x = c;
	struct duo *d = x->d;
	struct duo_dgram *g;

	if (d->queued >= 256)
		return 0; /* lost */
	if (!(g = malloc(sizeof(*g) + len)))
		abort();
	g->next = NULL;
	g->to = !x->me;
	g->sport = p->lport;
	g->dport = p->rport;
	g->len = len;
	memcpy(g->buf, buf, len);
	*d->tail = g;
	d->tail = &g->next;
	d->queued++;
	return 0;
}

static bool io_is_local(void *c, const struct ikb_addr *a)
{
	struct duo_ctx *x = c;

	return a->family == AF_INET &&
	       !memcmp(a->bytes, x->d->addr[x->me].bytes, 4);
}

static int io_source_for(void *c, const struct ikb_addr *remote,
			 struct ikb_addr *local)
{
	struct duo_ctx *x = c;

	*local = x->d->addr[x->me];
	return 0;
}

void duo_init(struct duo *d)
{
	memset(d, 0, sizeof(*d));
	if (!(d->base = event_base_new()))
		abort();
	for (unsigned c = 0; c < DUO_CONFS; c++)
		for (int me = DUO_WEST; me <= DUO_EAST; me++)
			load(&d->lc[c][me], me, c);
	for (int me = DUO_WEST; me <= DUO_EAST; me++) {
		d->addr[me].family = AF_INET;
		inet_pton(AF_INET, me ? "192.0.2.2" : "192.0.2.1",
			  d->addr[me].bytes);
	}
	d->tail = &d->head;
}

void duo_start(struct duo *d, unsigned conf)
{
	d->conf = conf % DUO_CONFS;
	for (int me = DUO_WEST; me <= DUO_EAST; me++) {
		struct ike_io io = {
			.send = io_send,
			.is_local = io_is_local,
			.source_for = io_source_for,
			.ctx = &ctx[me],
		};

		ctx[me] = (struct duo_ctx){ d, me };
		if (!(d->e[me] = ike_engine_new(d->base, &d->lc[d->conf][me],
						&io)))
			abort();
	}
}

/* The IKE SA of e that a message of these SPIs is for. */
static struct ike_sa *sa_of(struct ike_engine *e, const uint8_t *buf)
{
	for (struct ike_sa *sa = e->all; sa; sa = sa->next_all)
		if (!memcmp(sa->spi_i, buf, 8) &&
		    !memcmp(sa->spi_r, buf + 8, 8))
			return sa;
	return NULL;
}

static void deliver(struct duo *d, struct duo_dgram *g, const uint8_t *buf,
		    size_t len)
{
	struct ike_path p = {
		.local = d->addr[g->to],
		.remote = d->addr[!g->to],
		.lport = g->dport,
		.rport = g->sport,
	};

	ike_engine_input(d->e[g->to], &p, buf, len);
	event_base_loop(d->base, EVLOOP_NONBLOCK);
}

/* East's keyed message to west, edited; others as they are. */
static void deliver_edited(struct duo *d, struct duo_dgram *g,
			   struct fuzz_in *in)
{
	struct ike_sa *w = g->len >= 28 ? sa_of(d->e[DUO_WEST], g->buf) : NULL;
	struct ike_sa *e = w ? sa_of(d->e[DUO_EAST], g->buf) : NULL;
	struct wbuf set;
	size_t off = 0;
	uint16_t l;
	int rc;

	if (!w || !e || g->buf[18] == WIRE_EXCH_IKE_SA_INIT || !in->left) {
		deliver(d, g, g->buf, g->len);
		return;
	}
	wbuf_init(&set, 0);
	rc = hostile_edit(w, e, g->buf, g->len, in, &set);
	if (rc < 0)
		deliver(d, g, g->buf, g->len);
	while (!rc && off + sizeof(l) <= set.len) {
		memcpy(&l, set.data + off, sizeof(l));
		off += sizeof(l);
		if (off + l > set.len)
			break;
		/* west may free the SAs: look them up again per fragment */
		deliver(d, g, set.data + off, l);
		off += l;
	}
	wbuf_free(&set);
}

void duo_pump(struct duo *d, struct fuzz_in *in, unsigned max)
{
	event_base_loop(d->base, EVLOOP_NONBLOCK);
	while (d->head && max--) {
		struct duo_dgram *g = d->head;

		if (!(d->head = g->next))
			d->tail = &d->head;
		d->queued--;
		if (g->to == DUO_WEST)
			deliver_edited(d, g, in);
		else
			deliver(d, g, g->buf, g->len);
		free(g);
	}
}

/* The first established IKE SA of who, or NULL. */
static struct ike_sa *up_sa(struct duo *d, int who)
{
	for (struct ike_sa *sa = d->e[who]->all; sa; sa = sa->next_all)
		if (sa->state == IKE_SA_ESTABLISHED)
			return sa;
	return NULL;
}

void duo_act(struct duo *d, struct fuzz_in *in)
{
	uint8_t a = fuzz_u8(in);
	struct ike_sa *sa = up_sa(d, a & 1 ? DUO_EAST : DUO_WEST);
	struct ikb_error err = { "" };

	switch ((a >> 1) % 5) {
	case 0: /* a Child SA rekey, as its soft EXPIRE starts one */
		if (sa && sa->children) {
			task_want_child(sa, sa->children, TASK_REKEY_CHILD);
			tasks_run(sa);
		}
		break;
	case 1:
		if (sa) {
			task_want(sa, TASK_REKEY_IKE);
			tasks_run(sa);
		}
		break;
	case 2:
		if (sa) {
			task_want(sa, TASK_DPD);
			tasks_run(sa);
		}
		break;
	case 3:
		ike_engine_down(d->e[a & 1], "test", &err);
		break;
	default:
		ike_engine_up(d->e[DUO_WEST], "test", &err);
		break;
	}
}

void duo_stop(struct duo *d)
{
	struct duo_dgram *g;

	while ((g = d->head)) {
		d->head = g->next;
		free(g);
	}
	d->tail = &d->head;
	d->queued = 0;
	event_base_loop(d->base, EVLOOP_NONBLOCK);
	for (int me = DUO_WEST; me <= DUO_EAST; me++) {
		ike_engine_free(d->e[me]);
		d->e[me] = NULL;
	}
}
