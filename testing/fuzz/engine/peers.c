// SPDX-License-Identifier: GPL-2.0-or-later
/* The engine target's responder; see peers.h. */
#include <arpa/inet.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <event2/event.h>

#include "config/diag.h"
#include "files.h"
#include "log/log.h"
#include "peers.h"
#include "plugin/conf_load.h"

static const char conf_text[] =
	"config setup\n"
	"\tplugins=\"esp-proposals replay-window multi-sa kernel-mem\"\n"
	"conn test\n"
	"\tleft=192.0.2.2\n\tright=192.0.2.1\n"
	"\tleftid=@east\n\trightid=@west\n\tauthby=secret\n"
	"\tleftsubnet=10.0.2.0/24\n\trightsubnet=10.0.1.0/24\n"
	"\tfragmentation=yes\n\tmobike=yes\n\tauto=add\n";
static const char secrets_text[] = "@west @east : PSK \"secret\"\n";

static struct loaded_conf lc;

static int io_send(void *ctx, const struct ike_path *p, const uint8_t *buf,
		   size_t len)
{
	struct fuzz_peer *me = ctx;

	if (len >= 16)
		memcpy(me->last_spi_r, buf + 8, 8);
	me->sent++;
	return 0;
}

static bool io_is_local(void *ctx, const struct ikb_addr *a)
{
	struct fuzz_peer *me = ctx;

	return a->family == AF_INET &&
	       !memcmp(a->bytes, me->path.local.bytes, 4);
}

static int io_source_for(void *ctx, const struct ikb_addr *remote,
			 struct ikb_addr *local)
{
	struct fuzz_peer *me = ctx;

	*local = me->path.local;
	return 0;
}

void fuzz_peer_init(struct fuzz_peer *p)
{
	char dir[] = "/tmp/ikb-fuzz-engine-XXXXXX", conf[64], secrets[64];
	struct conf_load_opts o = { 0 };
	struct ikb_diag d;

	memset(p, 0, sizeof(*p));
	p->base = event_base_new();
	if (!p->base || !mkdtemp(dir))
		abort();
	snprintf(conf, sizeof(conf), "%s/ikebana.conf", dir);
	snprintf(secrets, sizeof(secrets), "%s/ikebana.secrets", dir);
	fuzz_write_file(conf, conf_text);
	fuzz_write_file(secrets, secrets_text);
	o.config = conf;
	o.secrets = secrets;
	o.base = p->base;
	diag_init(&d);
	if (conf_load(&o, &lc, &d)) {
		diag_print(&d, stderr);
		abort();
	}
	diag_free(&d);
	unlink(conf);
	unlink(secrets);
	rmdir(dir);
	p->path.local.family = p->path.remote.family = AF_INET;
	inet_pton(AF_INET, "192.0.2.2", p->path.local.bytes);
	inet_pton(AF_INET, "192.0.2.1", p->path.remote.bytes);
	p->path.lport = p->path.rport = 500;
}

void fuzz_peer_start(struct fuzz_peer *p)
{
	struct ike_io io = {
		.send = io_send,
		.is_local = io_is_local,
		.source_for = io_source_for,
		.ctx = p,
	};

	memset(p->last_spi_r, 0, sizeof(p->last_spi_r));
	p->sent = 0;
	p->e = ike_engine_new(p->base, &lc, &io);
	if (!p->e)
		abort();
}

void fuzz_peer_stop(struct fuzz_peer *p)
{
	/* what the input left scheduled (deferred work, not timers) runs */
	event_base_loop(p->base, EVLOOP_NONBLOCK);
	ike_engine_free(p->e);
	p->e = NULL;
}
