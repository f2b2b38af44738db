// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <grp.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <event2/buffer.h>
#include <event2/bufferevent.h>
#include <event2/event.h>
#include <event2/listener.h>
#include <json-c/json.h>

#include "control/proto.h"
#include "control/server_int.h"

#define CTL_BACKLOG 16

void client_free(struct ctl_client *c)
{
	struct ctl_server *srv = c->srv;

	if (c->deferred && c->gone)
		c->gone(c->gone_arg);
	if (c->prev)
		c->prev->next = c->next;
	else
		srv->clients = c->next;
	if (c->next)
		c->next->prev = c->prev;
	srv->nclients--;
	if (c->deadline)
		event_free(c->deadline);
	bufferevent_free(c->bev);
	free(c);
}

static void client_send(struct ctl_client *c, struct json_object *resp)
{
	size_t len;
	uint8_t *frame = ctl_frame_encode(resp, CTL_RESPONSE_MAX, &len);

	if (!frame) {
		/* Too large or out of memory: answer with something small. */
		json_object_put(resp);
		resp = ctl_response_error("response could not be encoded "
					  "(larger than %u bytes?)",
					  CTL_RESPONSE_MAX);
		frame = ctl_frame_encode(resp, CTL_RESPONSE_MAX, &len);
	}
	json_object_put(resp);
	if (frame)
		bufferevent_write(c->bev, frame, len);
	free(frame);
}

/* Framing is lost: answer once, then close when the answer is out. */
static void client_fail(struct ctl_client *c, const char *why)
{
	log_debug("control: dropping a client: %s", why);
	client_send(c, ctl_response_error("%s", why));
	c->closing = true;
	bufferevent_disable(c->bev, EV_READ);
}

static struct json_object *dispatch(struct ctl_client *c,
				    struct json_object *req)
{
	struct ctl_server *srv = c->srv;
	struct json_object *cmd, *resp;

	if (!json_object_is_type(req, json_type_object))
		return ctl_response_error("a request must be a JSON object");
	if (!json_object_object_get_ex(req, "cmd", &cmd) ||
	    !json_object_is_type(cmd, json_type_string))
		return ctl_response_error("a request needs \"cmd\": a string");
	srv->current = c;
	resp = srv->fn(srv->ctx, json_object_get_string(cmd), req);
	srv->current = NULL;
	return resp;
}

struct ctl_client *ctl_server_defer(struct ctl_server *srv, ctl_gone_fn *gone,
				    void *arg)
{
	struct ctl_client *c = srv->current;

	if (!c || c->deferred)
		return NULL;
	c->deferred = true;
	limits_disarm(c);
	c->gone = gone;
	c->gone_arg = arg;
	return c;
}

bool ctl_server_peer(const struct ctl_server *srv, pid_t *pid, uid_t *uid)
{
	if (!srv || !srv->current)
		return false;
	*pid = srv->current->pid;
	*uid = srv->current->uid;
	return true;
}

void ctl_client_answer(struct ctl_client *c, struct json_object *resp)
{
	c->deferred = false;
	c->gone = NULL;
	client_send(c, resp);
	limits_arm(c);
	/* requests that came meanwhile: from the loop, not from our caller */
	if (evbuffer_get_length(bufferevent_get_input(c->bev)))
		bufferevent_trigger(c->bev, EV_READ, BEV_TRIG_DEFER_CALLBACKS);
}

/* Handle one frame; false when no complete frame is buffered. */
static bool client_handle_one(struct ctl_client *c, struct evbuffer *in)
{
	size_t have = evbuffer_get_length(in), used = 0, n;
	struct json_object *req, *resp;
	uint8_t hdr[CTL_HDR_LEN];
	const char *why = NULL;
	enum ctl_decode r;

	if (have < CTL_HDR_LEN)
		return false;
	evbuffer_copyout(in, hdr, CTL_HDR_LEN);
	n = (size_t)hdr[0] << 24 | (size_t)hdr[1] << 16 | (size_t)hdr[2] << 8 |
	    hdr[3];
	if (n <= CTL_REQUEST_MAX && have < CTL_HDR_LEN + n)
		return false;
	n = n > CTL_REQUEST_MAX ? CTL_HDR_LEN : CTL_HDR_LEN + n;
	r = ctl_frame_decode(evbuffer_pullup(in, (ssize_t)n), n,
			     CTL_REQUEST_MAX, &req, &used, &why);
	switch (r) {
	case CTL_DECODE_OK:
		evbuffer_drain(in, used);
		resp = dispatch(c, req);
		json_object_put(req);
		if (!resp && c->deferred)
			return false; /* the rest waits for the answer */
		client_send(c,
			    resp ? resp : ctl_response_error("internal error"));
		limits_arm(c);
		return true;
	case CTL_DECODE_BAD_JSON:
		evbuffer_drain(in, used);
		client_send(c,
			    ctl_response_error("malformed request: %s", why));
		limits_arm(c);
		return true;
	case CTL_DECODE_TOO_BIG:
		client_fail(c, "request exceeds the maximum frame size");
		return false;
	case CTL_DECODE_NEED_MORE:
		break;
	}
	return false;
}

static void client_read_cb(struct bufferevent *bev, void *arg)
{
	struct ctl_client *c = arg;
	struct evbuffer *in = bufferevent_get_input(bev);

	while (!c->closing && !c->deferred && client_handle_one(c, in))
		;
}

static void client_write_cb(struct bufferevent *bev, void *arg)
{
	struct ctl_client *c = arg;

	if (c->closing && evbuffer_get_length(bufferevent_get_output(bev)) == 0)
		client_free(c);
}

static void client_event_cb(struct bufferevent *bev, short what, void *arg)
{
	if (what & (BEV_EVENT_EOF | BEV_EVENT_ERROR | BEV_EVENT_TIMEOUT))
		client_free(arg);
}

/* Who is on the other end; a uid no user has if the kernel will not say. */
static void peer_cred(int fd, pid_t *pid, uid_t *uid)
{
	struct ucred cr;
	socklen_t len = sizeof(cr);

	if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cr, &len) < 0) {
		cr.pid = 0;
		cr.uid = (uid_t)-1;
	}
	*pid = cr.pid;
	*uid = cr.uid;
}

static void accept_cb(struct evconnlistener *lev, evutil_socket_t fd,
		      struct sockaddr *sa, int salen, void *arg)
{
	struct ctl_server *srv = arg;
	struct ctl_client *c;
	pid_t pid;
	uid_t uid;

	peer_cred(fd, &pid, &uid);
	if (!limits_admit(srv, pid, uid)) {
		close(fd);
		return;
	}
	c = calloc(1, sizeof(*c));
	if (c)
		c->bev = bufferevent_socket_new(srv->base, fd,
						BEV_OPT_CLOSE_ON_FREE);
	if (!c || !c->bev) {
		log_err("control: cannot accept a client: out of memory");
		free(c);
		close(fd);
		return;
	}
	c->srv = srv;
	c->pid = pid;
	c->uid = uid;
	c->next = srv->clients;
	if (c->next)
		c->next->prev = c;
	srv->clients = c;
	srv->nclients++;
	bufferevent_setcb(c->bev, client_read_cb, client_write_cb,
			  client_event_cb, c);
	bufferevent_enable(c->bev, EV_READ | EV_WRITE);
	limits_arm(c);
}

static void accept_error_cb(struct evconnlistener *lev, void *arg)
{
	log_warn("control: accept: %s", strerror(errno));
}

/* The socket is 0660: root and the group ikebana, if it exists. */
static void socket_set_owner(const char *path)
{
	struct group *g = getgrnam("ikebana");

	if (chmod(path, 0660) < 0)
		log_warn("control: chmod %s: %s", path, strerror(errno));
	if (g && chown(path, (uid_t)-1, g->gr_gid) < 0)
		log_warn("control: chown %s to group ikebana: %s", path,
			 strerror(errno));
}

static int socket_listen(const char *path)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	mode_t old;
	int fd, r, e;

	strcpy(sa.sun_path, path);
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -1;
	if (unlink(path) < 0 && errno != ENOENT)
		goto fail;
	/* No window in which the socket exists with looser permissions. */
	old = umask(0117);
	r = bind(fd, (struct sockaddr *)&sa, sizeof(sa));
	umask(old);
	if (r < 0)
		goto fail;
	socket_set_owner(path);
	if (listen(fd, CTL_BACKLOG) < 0) {
		e = errno;
		unlink(path);
		errno = e;
		goto fail;
	}
	return fd;
fail:
	e = errno;
	close(fd);
	errno = e;
	return -1;
}

struct ctl_server *ctl_server_open(struct event_base *base, const char *path,
				   ctl_handler_fn fn, void *ctx)
{
	struct ctl_server *srv = calloc(1, sizeof(*srv));
	int fd, e;

	if (!srv)
		return NULL;
	if (strlen(path) >= sizeof(srv->path)) {
		errno = ENAMETOOLONG;
		goto fail;
	}
	snprintf(srv->path, sizeof(srv->path), "%s", path);
	srv->base = base;
	limits_default(&srv->limits);
	srv->rl = (struct log_ratelimit){ .per_sec = 5,
					  .what = "control client messages" };
	srv->fn = fn;
	srv->ctx = ctx;
	fd = socket_listen(srv->path);
	if (fd < 0)
		goto fail;
	srv->lev = evconnlistener_new(base, accept_cb, srv,
				      LEV_OPT_CLOSE_ON_FREE, -1, fd);
	if (!srv->lev) {
		e = errno ? errno : ENOMEM;
		close(fd);
		unlink(srv->path);
		errno = e;
		goto fail;
	}
	evconnlistener_set_error_cb(srv->lev, accept_error_cb);
	return srv;
fail:
	e = errno;
	free(srv);
	errno = e;
	return NULL;
}

void ctl_server_close(struct ctl_server *srv)
{
	if (!srv)
		return;
	while (srv->clients)
		client_free(srv->clients);
	evconnlistener_free(srv->lev);
	if (unlink(srv->path) < 0 && errno != ENOENT)
		log_warn("control: cannot remove %s: %s", srv->path,
			 strerror(errno));
	free(srv);
}

const char *ctl_server_path(const struct ctl_server *srv)
{
	return srv->path;
}
