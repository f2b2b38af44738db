// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * net/udp ↔ engine ↔ crypto, as main.c starts them. The engine owns no
 * socket: its ike_io goes to net_send(), and every datagram net hands
 * up goes to ike_engine_input().
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "config/config.h"
#include "crypto/cred.h"
#include "crypto/crypto.h"
#include "crypto/nssdb.h"
#include "app/daemon.h"
#include "ike/ike.h"
#include "app/ike_glue.h"
#include "log/log.h"
#include "net/net.h"
#include "net/srcroute.h"
#include "net/ifip.h"
#include "net/xfrmi.h"
#include "app/resolve_glue.h"
#include "app/revocation_conf.h"

/* nhelpers=: -1 or unset is one per CPU less one; never fewer than 1. */
static unsigned nhelpers(const struct ikbd *d)
{
	int n = d->conf.cfg->set.nhelpers;

	if (n < 0)
		return helpers_default_count();
	if (n == 0) {
		log_notice("nhelpers=0: ikebana always runs key exchanges "
			   "off the event loop; using 1 helper thread");
		return 1;
	}
	return (unsigned)n;
}

/*
 * --nssdir, else nssdir=, else the default. A missing database is no
 * error here: a PSK-only host needs none, and each conn that names a
 * certificate says where it looked.
 */
void ikbd_nssdb_open(const struct ikbd *d, const struct loaded_conf *lc)
{
	const struct ikb_value *v = lc->cfg->set.nssdir;
	const char *dir = d->opts->nssdir[0] ? d->opts->nssdir :
			  v		     ? v->value :
					       NSSDB_DEFAULT_DIR;
	struct crypto_err err = { 0 };
	bool was = nssdb_dir() && !strcmp(nssdb_dir(), dir);

	if (!nssdb_open(dir, &err) && !was)
		log_info("NSS database %s open (read-only)", dir);
	else if (err.code && err.code != -ENOENT)
		log_err("%s", err.msg);
	else if (err.code)
		log_info("%s", err.msg);
	cred_ca_refresh();
	ikbd_revocation_apply(lc); /* ocsp-trustname= is in the database */
}

int ikbd_crypto_start(struct ikbd *d)
{
	struct crypto_err err = { 0 };
	bool fips = d->conf.cfg->set.fips;
	unsigned n = nhelpers(d);
	int rc = crypto_init(fips, &err);

	if (rc) {
		log_err("cannot start NSS%s: %s", fips ? " in FIPS mode" : "",
			err.msg);
		return -1;
	}
	d->crypto_up = true;
	ikbd_nssdb_open(d, &d->conf);
	rc = helpers_start(n, d->base);
	if (rc) {
		log_err("cannot start %u helper thread(s): %s", n,
			strerror(-rc));
		return -1;
	}
	d->helpers_up = true;
	log_info("NSS%s ready; %u helper thread(s)", fips ? " (FIPS mode)" : "",
		 n);
	return 0;
}

static void on_datagram(void *ctx, const struct net_dgram *dg)
{
	struct ikbd *d = ctx;
	struct ike_path p = {
		.local = dg->local,
		.remote = dg->remote,
		.lport = dg->lport,
		.rport = dg->rport,
	};

	if (!d->engine)
		return;
	ike_engine_input(d->engine, &p, dg->buf, dg->len);
}

int ikbd_net_start(struct ikbd *d)
{
	const struct cfg_setup *set = &d->conf.cfg->set;
	struct net_opts o = {
		.listen = set->listen ? set->listen->value : NULL,
		.ike_port = set->ikeport,
		.natt_port = set->nat_ikeport,
	};
	char err[256] = "";

	d->net = net_open(d->base, &o, on_datagram, d, err, sizeof(err));
	if (!d->net) {
		log_err("cannot open the IKE sockets: %s",
			err[0] ? err : strerror(errno));
		return -1;
	}
	log_info("IKE on %s UDP %u and %u", o.listen ? o.listen : "all",
		 o.ike_port, o.natt_port);
	return 0;
}

static int io_send(void *ctx, const struct ike_path *p, const uint8_t *buf,
		   size_t len)
{
	struct ikbd *d = ctx;

	return net_send(d->net, &p->local, p->lport, &p->remote, p->rport, buf,
			len);
}

static int io_keepalive(void *ctx, const struct ike_path *p)
{
	struct ikbd *d = ctx;

	return net_send_keepalive(d->net, &p->local, &p->remote, p->rport);
}

static int io_path_mtu(void *ctx, const struct ike_path *p)
{
	return net_path_mtu(&p->local, &p->remote, p->rport);
}

static int io_source_for(void *ctx, const struct ikb_addr *remote,
			 struct ikb_addr *local)
{
	return net_source_for(remote, local);
}

static int io_xfrmi_add(void *ctx, const char *name, uint32_t if_id,
			const struct ikb_addr *local, bool create,
			bool *created, struct ikb_error *err)
{
	return xfrmi_create(name, if_id, local, create, created, err->msg,
			    sizeof(err->msg));
}

static int io_ifip_add(void *ctx, const char *name, const struct ikb_addr *a,
		       uint8_t plen, bool *added, struct ikb_error *err)
{
	return ifip_add(name, a, plen, added, err->msg, sizeof(err->msg));
}

static int io_ifip_del(void *ctx, const char *name, const struct ikb_addr *a,
		       uint8_t plen, struct ikb_error *err)
{
	return ifip_del(name, a, plen, err->msg, sizeof(err->msg));
}

static int io_xfrmi_del(void *ctx, const char *name, struct ikb_error *err)
{
	return xfrmi_delete(name, err->msg, sizeof(err->msg));
}

static void srcroute_in(const struct ike_srcroute *r, struct srcroute *n)
{
	*n = (struct srcroute){ .src = r->src,
				.net = r->net,
				.plen = r->plen,
				.peer = r->peer,
				.ifindex = r->ifindex };
}

static int io_srcroute_add(void *ctx, struct ike_srcroute *r, bool add_addr,
			   struct ikb_error *err)
{
	struct srcroute n;
	int rc;

	srcroute_in(r, &n);
	rc = srcroute_add(&n, add_addr, err->msg, sizeof(err->msg));
	r->ifindex = n.ifindex;
	return rc;
}

static int io_srcroute_del(void *ctx, const struct ike_srcroute *r,
			   bool del_addr, struct ikb_error *err)
{
	struct srcroute n;

	srcroute_in(r, &n);
	return srcroute_del(&n, del_addr, err->msg, sizeof(err->msg));
}

/* MOBIKE: the addresses or routes changed, a burst of events is over. */
static void on_net_change(void *ctx)
{
	struct ikbd *d = ctx;

	if (d->engine)
		ike_engine_addresses_changed(d->engine);
}

static bool io_is_local(void *ctx, const struct ikb_addr *a)
{
	struct ikbd *d = ctx;

	return net_is_local(d->net, a);
}

int ikbd_engine_start(struct ikbd *d)
{
	struct ike_io io = {
		.send = io_send,
		.is_local = io_is_local,
		.ctx = d,
		.keepalive = io_keepalive,
		.path_mtu = io_path_mtu,
		.source_for = io_source_for,
		.resolve = ikbd_resolve,
		.xfrmi_add = io_xfrmi_add,
		.xfrmi_del = io_xfrmi_del,
		.ifip_add = io_ifip_add,
		.ifip_del = io_ifip_del,
		.srcroute_add = io_srcroute_add,
		.srcroute_del = io_srcroute_del,
	};

	d->engine = ike_engine_new(d->base, &d->conf, &io);
	if (!d->engine) {
		log_err("cannot create the IKE engine: out of memory");
		return -1;
	}
	if (d->net)
		net_on_change(d->net, on_net_change, d);
	return 0;
}

void ikbd_engine_before_reload(struct ikbd *d, const struct loaded_conf *next)
{
	if (d->engine)
		ike_engine_reload_prune(d->engine, next);
}

void ikbd_engine_after_reload(struct ikbd *d)
{
	if (d->engine)
		ike_engine_reload(d->engine, &d->conf);
}

void ikbd_ike_stop(struct ikbd *d)
{
	if (d->engine)
		ike_engine_farewell(d->engine);
	ike_engine_free(d->engine);
	d->engine = NULL;
	if (d->helpers_up)
		helpers_stop();
	d->helpers_up = false;
	if (d->net)
		net_close(d->net);
	d->net = NULL;
	if (d->crypto_up)
		crypto_shutdown();
	d->crypto_up = false;
}
