// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * ipsec start|stop|restart (and ipsec setup VERB): the daemon itself, as
 * libreswan's command does it. Under systemd, through the unit the
 * compatibility package installs (ipsec.service, ikebanad with
 * libreswan's paths); elsewhere (containers, test namespaces), ikebanad
 * --libreswan-paths started here, which detaches once it is ready, after
 * ipsec checknss as libreswan's unit runs it, and whack --shutdown's
 * command to stop it.
 */
#include <errno.h>
#include <spawn.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/wait.h>
#include <json-c/json.h>

#include "build-config.h"
#include "control/client.h"
#include "ipsec/daemon.h"
#include "ipsec/initnss.h"

extern char **environ;

static int run(char *const argv[])
{
	pid_t pid;
	int st, rc = posix_spawn(&pid, argv[0], NULL, NULL, argv, environ);

	if (rc) {
		fprintf(stderr, "ipsec: cannot run %s: %s\n", argv[0],
			strerror(rc));
		return 1;
	}
	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR)
			return 1;
	return WIFEXITED(st) ? WEXITSTATUS(st) : 1;
}

static bool answers(const char *sock)
{
	int fd = ctl_connect_path(sock);

	if (fd < 0)
		return false;
	close(fd);
	return true;
}

/* Until the socket answers (up) or not (down), for at most 30 s. */
static bool wait_socket(const char *sock, bool up)
{
	struct timespec ts = { 0, 100 * 1000 * 1000 };

	for (int i = 0; i < 300; i++) {
		if (answers(sock) == up)
			return true;
		nanosleep(&ts, NULL);
	}
	return false;
}

static int stop(const struct cli *c, const char *sock)
{
	struct json_object *resp;

	if (!answers(sock)) {
		printf("ipsec: ikebanad is not running (%s)\n", sock);
		return 0;
	}
	resp = cli_call(c, "shutdown");
	json_object_put(resp);
	if (!wait_socket(sock, false)) {
		fprintf(stderr, "ipsec: ikebanad did not stop within 30 s\n");
		return 1;
	}
	return 0;
}

static int start(const char *sock)
{
	char *argv[] = { IKB_SBINDIR "/ikebanad", "--libreswan-paths",
			 "--ctlsocket", (char *)sock, NULL };

	if (answers(sock)) {
		printf("ipsec: ikebanad is running already (%s)\n", sock);
		return 0;
	}
	/* as libreswan's unit: the database the tools import into */
	if (ipsec_nss(IPSEC_CHECKNSS, NULL))
		return 1;
	return run(argv);
}

int ipsec_daemon(const struct cli *c, enum ipsec_verb v)
{
	static const char *const words[] = {
		[IPSEC_DAEMON_START] = "start",
		[IPSEC_DAEMON_STOP] = "stop",
		[IPSEC_DAEMON_RESTART] = "restart",
	};
	const char *sock = c->ctlsocket ? c->ctlsocket : IPSEC_LSW_CTLSOCKET;
	int rc;

	if (access("/run/systemd/system", F_OK) == 0) {
		char *argv[] = { "/bin/systemctl", (char *)words[v],
				 "ipsec.service", NULL };

		return run(argv);
	}
	if (v != IPSEC_DAEMON_START && (rc = stop(c, sock)))
		return rc;
	return v == IPSEC_DAEMON_STOP ? 0 : start(sock);
}
