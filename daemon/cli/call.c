// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <json-c/json.h>

#include "cli/cli.h"
#include "control/client.h"
#include "control/proto.h"

#if defined(__SANITIZE_ADDRESS__)
#define IKB_CLI_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define IKB_CLI_ASAN 1
#endif
#endif
#ifndef IKB_CLI_ASAN
#define IKB_CLI_ASAN 0
#endif

/* A reload may load plugins and big files: give it time. */
#define CLI_TIMEOUT_MS 30000

static void unreachable(const struct cli *c, int err)
{
	char path[256];

	if (c->ctlsocket)
		snprintf(path, sizeof(path), "%s", c->ctlsocket);
	else if (ctl_socket_path(c->rundir, path, sizeof(path)) < 0)
		snprintf(path, sizeof(path), "%s/%s", c->rundir,
			 CTL_SOCKET_NAME);
	/* The daemon runs; this user may not talk to it. */
	if (err == EACCES || err == EPERM) {
		fprintf(stderr,
			"%s: cannot reach ikebanad at %s: %s — the control "
			"socket is for root and members of group ikebana\n",
			c->prog, path, strerror(err));
		return;
	}
	fprintf(stderr,
		"%s: cannot reach ikebanad at %s: %s — is it running? "
		"(for a daemon elsewhere: %s %s)\n",
		c->prog, path, strerror(err), c->prog,
		c->ctlsocket || !strcmp(c->prog, "ipsec") ? "--ctlsocket PATH" :
							   "--rundir DIR");
}

struct json_object *cli_call(const struct cli *c, const char *cmd)
{
	return cli_call_req(c, cmd, json_object_new_object());
}

struct json_object *cli_call_req(const struct cli *c, const char *cmd,
				 struct json_object *req)
{
	struct json_object *resp = NULL;
	const char *why = "";
	int fd = c->ctlsocket ? ctl_connect_path(c->ctlsocket) :
				ctl_connect(c->rundir),
	    r;

	if (fd < 0) {
		unreachable(c, errno);
		json_object_put(req);
		return NULL;
	}
	json_object_object_add(req, "cmd", json_object_new_string(cmd));
	r = ctl_call(fd, req, &resp, CLI_TIMEOUT_MS, &why);
	json_object_put(req);
	close(fd);
	if (r < 0) {
		fprintf(stderr, "%s: %s: no answer from ikebanad: %s\n",
			c->prog, cmd, errno == EPROTO ? why : strerror(errno));
		return NULL;
	}
	return resp;
}

struct json_object *cli_response_data(const struct cli *c,
				      struct json_object *resp)
{
	struct json_object *ok, *v;

	if (json_object_object_get_ex(resp, "ok", &ok) &&
	    json_object_get_boolean(ok) &&
	    json_object_object_get_ex(resp, "data", &v))
		return v;
	if (json_object_object_get_ex(resp, "error", &v))
		fprintf(stderr, "%s: %s\n", c->prog, json_object_get_string(v));
	else
		fprintf(stderr, "%s: malformed response from ikebanad\n",
			c->prog);
	return NULL;
}

/*
 * The answer cli_call_show() printed, just before the client exits:
 * with 10,000 SAs, freeing its hundreds of thousands of objects one by
 * one took a third as long as parsing them, for memory that exit gives
 * back at once. Under AddressSanitizer it is freed, so that LeakSanitizer
 * still checks everything else the client allocates.
 */
static void put_at_exit(struct json_object *resp)
{
#if IKB_CLI_ASAN
	json_object_put(resp);
#else
	(void)resp;
#endif
}

int cli_call_show(const struct cli *c, const char *cmd, struct json_object *req,
		  bool json, void (*human)(struct json_object *data))
{
	struct json_object *resp = cli_call_req(c, cmd, req), *data;

	if (!resp)
		return CLI_FAIL;
	data = cli_response_data(c, resp);
	if (data && json)
		printf("%s\n",
		       json_object_to_json_string_ext(
			       data, JSON_C_TO_STRING_PRETTY |
					     JSON_C_TO_STRING_NOSLASHESCAPE));
	else if (data)
		human(data);
	put_at_exit(resp);
	return data ? CLI_OK : CLI_FAIL;
}

int cli_call_text(const struct cli *c, const char *cmd,
		  struct json_object *req)
{
	struct json_object *resp = cli_call_req(c, cmd, req), *data, *text;
	int rc = CLI_FAIL;

	if (!resp)
		return CLI_FAIL;
	data = cli_response_data(c, resp);
	if (data && json_object_object_get_ex(data, "text", &text) &&
	    json_object_is_type(text, json_type_string)) {
		fwrite(json_object_get_string(text), 1,
		       (size_t)json_object_get_string_len(text), stdout);
		rc = fflush(stdout) ? CLI_FAIL : CLI_OK;
	} else if (data) {
		fprintf(stderr, "%s: %s: malformed response from ikebanad\n",
			c->prog, cmd);
	}
	put_at_exit(resp);
	return rc;
}

int cli_no_args(const struct cli *c, int argc, char **argv)
{
	if (argc <= 1)
		return 0;
	fprintf(stderr, "%s %s: unexpected argument '%s'\n", c->prog, argv[0],
		argv[1]);
	return -1;
}
