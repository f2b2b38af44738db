// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A real ikebanad under a flood of malformed IKE: the wire corpus, every
 * truncation of a valid IKE_SA_INIT, seeded byte mutations, IKEv1, runts
 * and junk behind the NAT-T marker, on both IKE ports. The daemon must drop
 * them with log lines, keep answering `ikebana status`, and exit 0 on
 * SIGTERM (under ASan that also means no leak and no bad access).
 */
#include <dirent.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <time.h>
#include <cmocka.h>

#include "harness.h"

#define MUTATIONS 3000

struct fx {
	char *dir, *rundir, *conf;
	struct proc d;
	unsigned ike_port, natt_port;
	int fd;
	unsigned sent;
};

static const char conf[] = "config setup\n"
			   "\tplugins=\"esp-proposals replay-window kernel-mem\"\n"
			   "conn peer\n"
			   "\tleft=127.0.0.1\n"
			   "\tright=127.0.0.2\n"
			   "\tauthby=secret\n"
			   "\tauto=add\n";

/* h_write_conf() chose the ports; read them back from the file. */
static unsigned conf_port(const char *text, const char *key)
{
	const char *p = strstr(text, key);

	assert_non_null(p);
	return (unsigned)strtoul(p + strlen(key), NULL, 10);
}

static int setup(void **state)
{
	struct fx *f = calloc(1, sizeof(*f));
	char *text;

	f->dir = h_tmpdir();
	if (asprintf(&f->rundir, "%s/run", f->dir) < 0)
		return -1;
	f->conf = h_write_conf(f->dir, "ikebana.conf", conf);
	free(h_write(f->dir, "ikebana.secrets", 0600,
		     "127.0.0.1 127.0.0.2 : PSK \"not-so-secret\"\n"));
	text = h_slurp(f->conf);
	f->ike_port = conf_port(text, "\tikeport=");
	f->natt_port = conf_port(text, "\tnat-ikeport=");
	free(text);
	f->fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	*state = f;
	return f->fd < 0 ? -1 : 0;
}

static int teardown(void **state)
{
	struct fx *f = *state;

	h_kill(&f->d);
	close(f->fd);
	h_rmrf(f->dir);
	free(f->dir);
	free(f->rundir);
	free(f->conf);
	free(f);
	return 0;
}

static void send_to(struct fx *f, unsigned port, const void *buf, size_t len)
{
	struct sockaddr_in to = { .sin_family = AF_INET,
				  .sin_port = htons(port) };

	to.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (sendto(f->fd, buf, len, 0, (struct sockaddr *)&to, sizeof(to)) ==
	    (ssize_t)len)
		f->sent++;
}

/* Both ports; on 4500 behind the zero non-ESP marker, as IKE goes there. */
static void send_both(struct fx *f, const uint8_t *buf, size_t len)
{
	uint8_t m[4 + 4096];

	send_to(f, f->ike_port, buf, len);
	if (len > sizeof(m) - 4)
		return;
	memset(m, 0, 4);
	memcpy(m + 4, buf, len);
	send_to(f, f->natt_port, m, len + 4);
}

static size_t load(const char *path, uint8_t *buf, size_t cap)
{
	FILE *fp = fopen(path, "rb");
	size_t n;

	assert_non_null(fp);
	n = fread(buf, 1, cap, fp);
	fclose(fp);
	return n;
}

/*
 * Every corpus file as is, and every truncation of seed-0.bin, a full
 * IKE_SA_INIT request: its mutations reach the payload parsers.
 */
static void send_corpus(struct fx *f, uint8_t *seed, size_t *seed_len)
{
	const char *dir = h_env("IKB_CORPUS");
	struct dirent *e;
	DIR *d = opendir(dir);
	char path[1024];
	uint8_t buf[4096];
	size_t n;

	assert_non_null(d);
	*seed_len = 0;
	while ((e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		n = load(path, buf, sizeof(buf));
		send_both(f, buf, n);
		if (!strcmp(e->d_name, "seed-0.bin")) {
			memcpy(seed, buf, n);
			*seed_len = n;
		}
	}
	closedir(d);
	assert_true(*seed_len > 28);
	assert_int_equal(seed[18], 34); /* IKE_SA_INIT */
	for (size_t len = 0; len < *seed_len; len++)
		send_both(f, seed, len);
}

/* Seeded, so a failure can be replayed: 1 to 4 bytes changed each time. */
static void send_mutations(struct fx *f, const uint8_t *seed, size_t len)
{
	uint8_t buf[4096];
	unsigned rnd = 20261130;

	for (unsigned i = 0; i < MUTATIONS; i++) {
		memcpy(buf, seed, len);
		for (unsigned k = 0; k <= i % 4; k++) {
			rnd = rnd * 1103515245u + 12345u;
			buf[(rnd >> 8) % len] = (uint8_t)(rnd >> 16);
		}
		send_both(f, buf, len);
	}
}

static void send_oddities(struct fx *f)
{
	/* An IKEv1 header (version 0x10) and an IKEv2 header claiming 64 KiB. */
	uint8_t v1[28] = { [17] = 0x10, [18] = 2, [27] = 28 };
	uint8_t big[28] = { [17] = 0x20, [18] = 34, [26] = 0xff, [27] = 0xff };
	uint8_t esp[12] = { 0, 0, 0x10, 1, 0, 0, 0, 1 };
	uint8_t ka = 0xff;

	send_both(f, v1, sizeof(v1));
	send_both(f, big, sizeof(big));
	send_to(f, f->ike_port, "", 0);
	send_to(f, f->natt_port, &ka, 1);	     /* NAT keepalive */
	send_to(f, f->natt_port, esp, sizeof(esp)); /* ESP-in-UDP, no SA */
}

static unsigned count(const char *hay, const char *needle)
{
	unsigned n = 0;

	for (const char *p = hay; (p = strstr(p, needle)); p++)
		n++;
	return n;
}

static time_t now_s(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec;
}

static void test_malformed_flood(void **state)
{
	struct fx *f = *state;
	uint8_t seed[4096];
	size_t seed_len;
	char *out, *err, *log;
	time_t t0;
	int rc;

	assert_true(h_start_daemon(&f->d, f->dir, f->rundir, f->conf));
	t0 = now_s();
	send_corpus(f, seed, &seed_len);
	send_mutations(f, seed, seed_len);
	send_oddities(f);
	assert_true(f->sent > 2 * MUTATIONS);

	/* The daemon read them (its drop lines say so) and still answers. */
	assert_true(h_wait_contains(f->d.err, "dropped", H_DEADLINE_MS));
	rc = h_cli(f->dir, f->rundir, &out, &err, "status", "--json", NULL);
	if (rc != 0)
		fail_msg("status after the flood: exit %d: %s", rc, err);
	assert_non_null(strstr(out, "\"ike_sas\""));
	free(out);
	free(err);
	/* One line per dropped message, but at most 50 in any second. */
	log = h_slurp(f->d.err);
	if (count(log, "dropped message from") > 50 * (now_s() - t0 + 2))
		fail_msg("%u drop lines in %ld s: not rate-limited",
			 count(log, "dropped message from"),
			 (long)(now_s() - t0 + 1));
	free(log);

	assert_int_equal(kill(f->d.pid, SIGTERM), 0);
	rc = h_wait(&f->d, 3 * H_DEADLINE_MS);
	if (rc != 0) {
		log = h_slurp(f->d.err);
		fail_msg("ikebanad exited %d after the flood:\n%s", rc, log);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_malformed_flood, setup,
						teardown),
	};

	return cmocka_run_group_tests_name("hostile-ike", tests, NULL, NULL);
}
